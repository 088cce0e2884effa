/* Projection tests: the closed forms of seed 000 -- the mass-weighted split (section 3), pins
   (w = 0) that take nothing and never move, k' = 1 - (1 - k)^(1/ns) leaving a residual (1 - k) C
   whatever the pass count (section 2.2), per-object stiffness, and attachments (a pull to a target
   that a pin ignores). Each would fail if the formula in the solver were wrong (e.g. seed 001's
   extra 0.5 halves the split; applying k instead of k' makes the residual depend on the pass count). */
#include "test_physics_helpers.h"

/* Seed 000 section 3: dp1 = -w1/(w1+w2) C n, dp2 = +w2/(w1+w2) C n. */
void Test_MassWeightedSplit(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	ENSURE(AddPair(w, 0, 0, 0, 1, 0, 0) == 0);
	pbd_World_SetMass(w, 0, 1.0f); /* w1 = 1 */
	pbd_World_SetMass(w, 1, 4.0f); /* w2 = 0.25 */
	pbd_World_SetPosition(w, 1, 3.0f, 0.0f, 0.0f); /* C = 3 - 1 = 2 */
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_Step(w);
	const float* x = X(w);
	ENSURE_NEAR(x[0], 0.8f * 2.0f, 1e-6);        /* light end moves 4/5 of C */
	ENSURE_NEAR(x[4], 3.0f - 0.2f * 2.0f, 1e-6); /* heavy end moves 1/5 of C */
	ENSURE_NEAR(TestDistance(x, 0, 1), 1.0f, 1e-6);
	ENSURE(x[1] == 0.0f && x[2] == 0.0f && x[5] == 0.0f && x[6] == 0.0f);
	/* v = (p - x) / dt, seed 000 section 2.3 */
	float dt = pbd_World_GetParam(w, pbdParam_dt);
	ENSURE_NEAR(V(w)[0], 1.6f / dt, 1e-3);
	ENSURE_NEAR(V(w)[4], -0.4f / dt, 1e-3);
	pbd_DestroyWorld(w);
}

void Test_MassWeightedSplitRandom(void)
{
	SeedRand(7);
	for (int trial = 0; trial < 200; ++trial) {
		pbdWorldId w = MakeWorld(2, 1);
		float d[3];
		for (int k = 0; k < 3; ++k) d[k] = Rand01() * 2.0f - 1.0f;
		float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
		if (len < 0.1f) { pbd_DestroyWorld(w); continue; }
		ENSURE(AddPair(w, 0, 0, 0, d[0], d[1], d[2]) == 0);
		float m1 = 0.01f + 10.0f * Rand01(), m2 = 0.01f + 10.0f * Rand01();
		pbd_World_SetMass(w, 0, m1);
		pbd_World_SetMass(w, 1, m2);
		float scale = 0.2f + 2.0f * Rand01();
		pbd_World_SetPosition(w, 1, d[0] * scale, d[1] * scale, d[2] * scale);
		pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
		float C = len * scale - len;
		pbd_World_Step(w);
		const float* x = X(w);
		float w1 = 1.0f / m1, w2 = 1.0f / m2;
		float n[3] = { -d[0] / len, -d[1] / len, -d[2] / len }; /* n = (p1 - p2)/|p1 - p2| */
		for (int k = 0; k < 3; ++k) {
			ENSURE_NEAR(x[k], -w1 / (w1 + w2) * C * n[k], 2e-5);
			ENSURE_NEAR(x[4 + k], d[k] * scale + w2 / (w1 + w2) * C * n[k], 2e-5);
		}
		pbd_DestroyWorld(w);
	}
}

void Test_PinnedEndTakesNothing(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	AddPair(w, 0.25f, 0.5f, 0.75f, 1.25f, 0.5f, 0.75f);
	pbd_World_SetInvMass(w, 0, 0.0f);
	pbd_World_SetPosition(w, 1, 3.25f, 0.5f, 0.75f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_maxSpeed, 1e4f); /* a 2 m correction in one step: past the default bound's 100 dt */
	pbd_World_Step(w);
	const float* x = X(w);
	ENSURE(x[0] == 0.25f && x[1] == 0.5f && x[2] == 0.75f); /* bit for bit */
	ENSURE_NEAR(x[4], 1.25f, 1e-6);                          /* the free end took all of C */
	pbd_DestroyWorld(w);
}

void Test_PinsNeverMove(void)
{
	pbdWorldId w = MakeWorld(32 * 32, 10000);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	int first = AddCloth(w, 32, 32, 2.0f);
	pbd_World_SetInvMass(w, first, 0.0f);
	pbd_World_SetInvMass(w, first + 31, 0.0f);
	float a[4], b[4];
	memcpy(a, X(w) + 4 * first, sizeof a);
	memcpy(b, X(w) + 4 * (first + 31), sizeof b);
	/* A pin refuses a velocity too. */
	pbd_World_SetVelocity(w, first, 5.0f, 5.0f, 5.0f);
	for (int s = 0; s < 300; ++s) pbd_World_Step(w);
	ENSURE(memcmp(a, X(w) + 4 * first, sizeof a) == 0);
	ENSURE(memcmp(b, X(w) + 4 * (first + 31), sizeof b) == 0);
	ENSURE(V(w)[4 * first] == 0.0f && V(w)[4 * first + 1] == 0.0f);
	/* and the rest of the cloth did fall and hang */
	ENSURE(X(w)[4 * (first + 32 * 31) + 1] < 0.5f);
	pbd_DestroyWorld(w);
}

void Test_PassStiffnessClosedForm(void)
{
	ENSURE(pbd_PassStiffness(1.0f, 10) == 1.0f);
	ENSURE(pbd_PassStiffness(0.0f, 10) == 0.0f);
	ENSURE(pbd_PassStiffness(0.5f, 1) == 0.5f);
	ENSURE_NEAR(pbd_PassStiffness(0.75f, 2), 0.5f, 1e-7); /* 1 - sqrt(0.25) */
	ENSURE_NEAR(pbd_PassStiffness(0.5f, 10), 1.0 - pow(0.5, 0.1), 1e-7);
	ENSURE_NEAR(pbd_PassStiffness(0.9f, 37), 1.0 - pow(0.1, 1.0 / 37.0), 1e-7);
}

/* A lone constraint is linear along n, so each pass scales C by (1 - k'); after ns
   passes C is (1 - k')^ns C0 = (1 - k) C0, whatever ns is (seed 000 section 2.2). */
void Test_ResidualIndependentOfPasses(void)
{
	const float ks[] = { 0.1f, 0.5f, 0.9f };
	const int passes[] = { 1, 2, 5, 10, 50, 200 };
	for (int a = 0; a < 3; ++a) {
		for (int b = 0; b < 6; ++b) {
			pbdWorldId w = MakeWorld(2, 1);
			AddPair(w, 0, 0, 0, 1, 0, 0);
			pbd_World_SetPosition(w, 1, 1.5f, 0.0f, 0.0f); /* C0 = 0.5 */
			pbd_World_SetParam(w, pbdParam_stiffnessChain, ks[a]);
			pbd_World_SetParam(w, pbdParam_iterations, (float)passes[b]);
			pbd_World_Step(w);
			float C = TestDistance(X(w), 0, 1) - 1.0f;
			ENSURE_NEAR(C, (1.0f - ks[a]) * 0.5f, 2e-5);
			pbd_DestroyWorld(w);
		}
	}
}

void Test_ObjectStiffness(void)
{
	pbdWorldId w = MakeWorld(4, 2);
	AddPair(w, 0, 0, 0, 1, 0, 0);
	AddPair(w, 0, 5, 0, 1, 5, 0);
	pbd_World_SetPosition(w, 1, 2.0f, 0.0f, 0.0f);
	pbd_World_SetPosition(w, 3, 2.0f, 5.0f, 0.0f);
	ENSURE(pbd_World_SetObjectStiffness(w, 1, pbdKind_chain, 0.5f) == PBD_OK);
	ENSURE(pbd_World_SetObjectStiffness(w, 2, pbdKind_chain, 0.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetObjectStiffness(w, 1, pbdKind_chain, 1.5f) == PBD_ERR_INVALID_ARGUMENT);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	pbd_World_Step(w);
	ENSURE_NEAR(TestDistance(X(w), 0, 1) - 1.0f, 0.0f, 1e-6);
	ENSURE_NEAR(TestDistance(X(w), 2, 3) - 1.0f, 0.5f, 1e-5);
	/* the world parameter sets every object of the kind */
	pbd_World_SetPosition(w, 1, 2.0f, 0.0f, 0.0f);
	pbd_World_SetPosition(w, 0, 0.0f, 0.0f, 0.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.25f);
	pbd_World_SetVelocity(w, 0, 0, 0, 0);
	pbd_World_SetVelocity(w, 1, 0, 0, 0);
	pbd_World_Step(w);
	ENSURE_NEAR(TestDistance(X(w), 0, 1) - 1.0f, 0.75f, 1e-5);
	pbd_DestroyWorld(w);
}

void Test_AttachmentPullsAndReleases(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	AddPair(w, 0, 0, 0, 1, 0, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetMass(w, 0, 0.37f);
	pbd_World_SetParam(w, pbdParam_maxSpeed, 1e4f); /* 2 m in one step: past the default bound's 100 dt */
	float before = X(w)[3];
	pbdAttachmentId a = pbd_World_AddAttachment(w, 0, 0.0f, 2.0f, 0.0f, 1.0f);
	ENSURE(a > 0);
	ENSURE(pbd_World_GetAttachmentCount(w) == 1);
	pbd_World_Step(w);
	ENSURE_NEAR(X(w)[1], 2.0f, 1e-6); /* k = 1 reaches the target in one step */
	ENSURE(pbd_World_MoveAttachment(w, a, 0.0f, 3.0f, 0.0f) == PBD_OK);
	pbd_World_Step(w);
	ENSURE_NEAR(X(w)[1], 3.0f, 1e-6);
	/* Softer attachment: residual (1 - k) of the gap after one step, any pass count. */
	pbdAttachmentId b = pbd_World_AddAttachment(w, 1, 1.0f, 1.0f, 0.0f, 0.5f);
	pbd_World_SetParam(w, pbdParam_iterations, 7.0f);
	pbd_World_Step(w);
	ENSURE_NEAR(X(w)[5], 0.5f, 1e-5);
	ENSURE(pbd_World_RemoveAttachment(w, a) == PBD_OK);
	ENSURE(pbd_World_RemoveAttachment(w, b) == PBD_OK);
	ENSURE(pbd_World_GetAttachmentCount(w) == 0);
	ENSURE(X(w)[3] == before); /* mass exactly as before */
	ENSURE(pbd_World_RemoveAttachment(w, a) == PBD_ERR_INVALID_ATTACHMENT);
	ENSURE(pbd_World_MoveAttachment(w, a, 0, 0, 0) == PBD_ERR_INVALID_ATTACHMENT);
	/* a new attachment in the same slot gets a new id; the old one stays stale */
	pbdAttachmentId c = pbd_World_AddAttachment(w, 0, 0, 0, 0, 1.0f);
	ENSURE(c > 0 && c != a);
	ENSURE(pbd_World_RemoveAttachment(w, a) == PBD_ERR_INVALID_ATTACHMENT);
	pbd_DestroyWorld(w);
}

void Test_PinnedStaysWhileNeighbourDragged(void)
{
	pbdWorldId w = MakeWorld(400, 4000);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	int first = AddCloth(w, 20, 20, 2.0f);
	pbd_World_SetInvMass(w, first, 0.0f);
	float pin[4];
	memcpy(pin, X(w) + 4 * first, sizeof pin);
	/* drag the neighbour of the pin hard, in circles */
	pbdAttachmentId a = pbd_World_AddAttachment(w, first + 1, 0, 0, 0, 1.0f);
	for (int s = 0; s < 120; ++s) {
		float t = s * 0.2f;
		pbd_World_MoveAttachment(w, a, 3.0f * cosf(t), 2.0f + 3.0f * sinf(t), 1.0f);
		pbd_World_Step(w);
		ENSURE(memcmp(pin, X(w) + 4 * first, sizeof pin) == 0);
	}
	/* and an attachment on the pin itself does not move it */
	pbd_World_RemoveAttachment(w, a);
	pbd_World_AddAttachment(w, first, 5, 5, 5, 1.0f);
	pbd_World_Step(w);
	ENSURE(memcmp(pin, X(w) + 4 * first, sizeof pin) == 0);
	pbd_DestroyWorld(w);
}
