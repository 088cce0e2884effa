/* Collider edge tests: cloth edges against colliders, not only particles -- seed 000's
   mass-weighted projection for the edge constraint, a sphere swept through a hanging cloth, a cloth
   dragged over a thin capsule, and an edge thrown past a small sphere in one step. Each fails if an
   edge passes through a collider between its two particles. */
#include "test_collider_helpers.h"
#include "services/collider_shapes.h"

/* Distance between segments a b and c d, by dense sampling of the first (test-side
   reference, independent of the engine's closed form). */
static float SegmentSegmentDistance(const float* a, const float* b, const float* c, const float* d)
{
	float best = 3.4e38f;
	for (int k = 0; k <= 40; ++k) {
		float t = (float)k / 40.0f;
		float q[3] = { a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]) };
		float dist = SegmentDistance(c, d, q);
		if (dist < best) best = dist;
	}
	return best;
}

/* Seed 000's projection for the edge constraint C = |q - s| - rho, q = (1-t) p_a + t p_b:
   dp_a = w_a (1-t) (-C) n / (w_a (1-t)^2 + w_b t^2), dp_b likewise with w_b t. A rope
   segment lying across the top of a small sphere, ends 1 and 4 kg, off-centre (t = 0.3):
   one projection puts q on the surface and splits the move by those weights. */
void Test_EdgeProjectionMassWeighted(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	const float R = 0.1f, r = Radius(w), rho = R + r, y = 0.05f;
	ENSURE(AddSphere(w, 0, 0, 0, R) == 0);
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = -0.3f, def.start[1] = y;
	def.end[0] = 0.7f, def.end[1] = y;
	def.segments = 1;
	int a = pbd_World_AddChain(w, &def), b = a + 1;
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f); /* only the collider acts */
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	pbd_World_SetMass(w, a, 1.0f);
	pbd_World_SetMass(w, b, 4.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f); /* one projection: then the tilted edge's closest point moves */
	pbd_World_Step(w);
	const double wa = 1.0, wb = 0.25, t = 0.3, C = y - rho;
	const double denom = wa * (1 - t) * (1 - t) + wb * t * t;
	const float* x = X(w);
	ENSURE_NEAR(x[4 * a + 1], y - wa * (1 - t) * C / denom, 1e-5);
	ENSURE_NEAR(x[4 * b + 1], y - wb * t * C / denom, 1e-5);
	ENSURE_NEAR(x[4 * a], -0.3f, 1e-6); /* straight up: the normal at the closest point */
	ENSURE_NEAR(x[4 * b], 0.7f, 1e-6);
	/* the point at t is on the surface now */
	float q[3];
	for (int k = 0; k < 3; ++k) q[k] = (float)((1 - t) * x[4 * a + k] + t * x[4 * b + k]);
	ENSURE_NEAR(sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]), rho, 1e-5);
	pbd_DestroyWorld(w);
}

/* A sphere swept at 10 m/s into a hanging 20 x 20 cloth: no edge ever passes through it,
   and the cloth in its path stays in front of it. */
void Test_MovingSphereSweepsCloth(void)
{
	pbdWorldId w = MakeWorld(400, 4000);
	float origin[3] = { -1.0f, 2.0f, 0.0f }, u[3] = { 2.0f, 0, 0 }, v[3] = { 0, -2.0f, 0 };
	int first = AddCloth(w, origin, u, v, 20, 20);
	for (int i = 0; i < 20; ++i) pbd_World_SetInvMass(w, first + i, 0.0f); /* top row pinned */
	const float R = 0.15f, r = Radius(w);
	/* start so that the sphere's front is 3 mm short of the cloth at the start of a step:
	   that step carries it 16.7 cm, past the cloth plane by more than its radius */
	const float dt = pbd_World_GetParam(w, pbdParam_dt), speed = 10.0f;
	float c[3] = { 0.03f, 1.02f, -(R + r + 0.003f) - 3.0f * speed * dt };
	ENSURE(AddSphere(w, c[0], c[1], c[2], R) == 0);
	int front = 0;
	for (int s = 0; s < 60; ++s) {
		if (c[2] < 0.45f) c[2] += speed * dt;
		ENSURE(pbd_World_SetColliderTransform(w, 0, c[0], c[1], c[2], 0, 0, 0, 1) == PBD_OK);
		pbd_World_Step(w);
		ENSURE(MinEdgeDistance(w, c) >= R);
		ENSURE(MinDistance(w, 0, first, 400) >= r - 0.02f * r);
		const float* x = X(w);
		for (int i = first; i < first + 400; ++i) {
			float dx = x[4 * i] - c[0], dy = x[4 * i + 1] - c[1];
			if (dx * dx + dy * dy < 0.8f * R * 0.8f * R) {
				ENSURE(x[4 * i + 2] > c[2]); /* in the sphere's path: ahead of it */
				front += 1;
			}
		}
	}
	ENSURE(front > 0); /* the cloth was in its path */
	ENSURE(c[2] > 0.4f); /* and the sphere did go far past the cloth's rest plane */
	pbd_DestroyWorld(w);
}

/* A pointer drag: a cloth's top corners pulled at 4 m/s across a bar (a capsule about as
   thick as the cloth's cells) lying in its way, just below the corners. The cloth has to
   slide up and over it; no edge may cut through. Without the edge test the bar threads
   straight through the cloth between its particles. */
void Test_ClothDraggedOverCapsule(void)
{
	pbdWorldId w = MakeWorld(400, 4000);
	float origin[3] = { -0.8f, 1.3f, -0.6f }, u[3] = { 1.6f, 0, 0 }, v[3] = { 0, -1.6f, 0 };
	int first = AddCloth(w, origin, u, v, 20, 20); /* cells 8.4 cm */
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.08f;
	cap.halfHeight = 1.5f;
	cap.position[1] = 1.0f;
	AxisAngle(0, 0, 1, PI / 2, cap.rotation); /* along x, across the cloth's path */
	ENSURE(pbd_World_AddCollider(w, &cap) == 0);
	pbdAttachmentId a = pbd_World_AddAttachment(w, first, origin[0], origin[1], origin[2], 1.0f);
	pbdAttachmentId b = pbd_World_AddAttachment(w, first + 19, origin[0] + 1.6f, origin[1], origin[2], 1.0f);
	ENSURE(a > 0 && b > 0);
	const float dt = pbd_World_GetParam(w, pbdParam_dt), r = Radius(w);
	float z = origin[2];
	const float core0[3] = { -1.5f, 1.0f, 0.0f }, core1[3] = { 1.5f, 1.0f, 0.0f };
	int touching = 0;
	for (int s = 0; s < 90; ++s) {
		if (z < 1.5f) z += 4.0f * dt;
		pbd_World_MoveAttachment(w, a, origin[0], origin[1], z);
		pbd_World_MoveAttachment(w, b, origin[0] + 1.6f, origin[1], z);
		pbd_World_Step(w);
		float d = MinDistance(w, 0, first, 400);
		ENSURE(d >= r - 0.02f * r);
		touching += d < r + 0.005f;
		/* every edge against the capsule's core segment */
		const float* x = X(w);
		for (int j = 0; j < 20; ++j) {
			for (int i = 0; i < 20; ++i) {
				int p = first + j * 20 + i;
				if (i + 1 < 20) ENSURE(SegmentSegmentDistance(x + 4 * p, x + 4 * (p + 1), core0, core1) >= cap.radius - 1e-4f);
				if (j + 1 < 20) ENSURE(SegmentSegmentDistance(x + 4 * p, x + 4 * (p + 20), core0, core1) >= cap.radius - 1e-4f);
			}
		}
	}
	ENSURE(touching >= 5); /* it did drag over the bar for a while */
	/* and it went over: the whole cloth is past the bar now */
	const float* x = X(w);
	for (int i = first; i < first + 400; ++i) ENSURE(x[4 * i + 2] > 0.0f);
	pbd_DestroyWorld(w);
}

/* An edge thrown at a small sphere that lies between its two particles, fast enough to
   carry the edge past the sphere's centre in one step (0.15 m against a radius of 0.1):
   at the end of that step the closest point says "behind", but the edge came from the
   front, and that is where it must stay. */
void Test_EdgeCannotJumpPastSmallSphere(void)
{
	for (int substeps = 1; substeps <= 2; ++substeps) {
		pbdWorldId w = MakeWorld(8, 32);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		const float R = 0.1f, r = Radius(w);
		ENSURE(AddSphere(w, 0, 0, 0, R) == 0);
		/* a 2 x 3 cloth whose middle edge runs along x at y = 0, 1.5 cm short of the sphere;
		   the rows at y = +-0.5 pass beside it, so the edge stays caught, symmetric */
		const float speed = 9.0f * (float)substeps, z0 = -(R + r) - 0.015f;
		float origin[3] = { -0.5f, 0.5f, z0 }, u[3] = { 1.0f, 0, 0 }, v[3] = { 0, -1.0f, 0 };
		int first = AddCloth(w, origin, u, v, 2, 3);
		for (int i = 0; i < 6; ++i) pbd_World_SetVelocity(w, first + i, 0.0f, 0.0f, speed);
		const float centre[3] = { 0, 0, 0 };
		for (int s = 0; s < 20; ++s) {
			pbd_World_Step(w);
			const float* x = X(w);
			const float *a = x + 4 * (first + 2), *b = x + 4 * (first + 3);
			ENSURE(SegmentDistance(a, b, centre) >= R);
			ENSURE(0.5f * (a[2] + b[2]) < 0.0f); /* the middle edge is still in front */
		}
		pbd_DestroyWorld(w);
	}
}

/* A capsule whose core is shorter than float32 can square (half height 5.6e-45, denormal: 4 hh^2 is 0) is the
   sphere's point to an edge, not 0 / 0: the fuzzer's capsule (tests/fuzz/corpus/repro-10-capsule-denormal-core)
   turned every particle of a cloth inside it NaN when it turned. */
void Test_EdgeToTinyCapsuleCoreIsFinite(void)
{
	const float a[3] = { 0.3f, 0.5f, -0.2f }, b[3] = { -0.4f, 0.5f, 0.1f };
	const float hhs[3] = { 5.60519e-45f, 1e-20f, 0.0f };
	float dSphere[3];
	const float tSphere = pbd_EdgeToCore(a, b, 0.0f, dSphere);
	for (int k = 0; k < 3; ++k) {
		float d[3];
		const float t = pbd_EdgeToCore(a, b, hhs[k], d);
		ENSURE(isfinite(t) && isfinite(d[0]) && isfinite(d[1]) && isfinite(d[2]));
		ENSURE(t == tSphere && d[0] == dSphere[0] && d[1] == dSphere[1] && d[2] == dSphere[2]);
	}
	/* a short core that squares still is a segment: the edge above its end sees the end */
	float d[3];
	pbd_EdgeToCore(a, b, 0.01f, d);
	ENSURE_NEAR(d[1], 0.49, 1e-6);
}
