/* Particle radius per object (pbd_World_SetObjectRadius): the search pairs particles within
   1.2 (r_i + r_j) and leaves out rest-pose neighbours closer than r_i + r_j; a pair is pushed
   to exactly r_i + r_j with the mass-weighted split; the ground holds a particle at
   height + r and a collider at distance r (particles and cloth edges); two clusters pressed
   together by attachments stay apart; a radius set between steps is felt at the next step;
   a scene of mixed radii hashes alike on every build. Scenes that test contacts also run
   without them (or with the old radius) and must then fail their criterion. */
#include "test_clusters.h"
#include "test_scenes.h"
#include "test_contacts.h"
#include "services/materials.h"

/* ---------------------------------------------------------------- helpers */

static pbdWorldId RadiusWorld(int maxParticles)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = maxParticles;
	def.maxObjects = 16;
	def.maxAttachments = 128;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_selfFriction, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f); /* a pin must not hold its loose partner */
	return w;
}

/* A chain of one segment whose constraint does nothing (stiffness 0): two free particles of
   one object. */
static int LoosePair(pbdWorldId w, float ax, float ay, float az, float bx, float by, float bz, float mass, float radius)
{
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = ax, def.start[1] = ay, def.start[2] = az;
	def.end[0] = bx, def.end[1] = by, def.end[2] = bz;
	def.segments = 1;
	def.mass = mass;
	const int first = pbd_World_AddChain(w, &def);
	const int object = pbd_World_GetObjectCount(w) - 1;
	pbd_World_SetObjectStiffness(w, object, pbdKind_chain, 0.0f);
	pbd_World_SetObjectRadius(w, object, radius);
	return first;
}

static float Gap(pbdWorldId w, int a, int b) { return TestDistance(Pos(w), a, b); }

/* ---------------------------------------------------------------- the search */

static uint32_t s_rng = 1;
static float Rand(float lo, float hi) { return lo + (hi - lo) * (float)(TestXorshift32(&s_rng) >> 8) * (1.0f / 16777216.0f); }

/* O(n^2) reference of pbd_World_FindPairs with radii per object, written with the grid's own
   float expressions: search radius s = (r + r) 1.2 per object, a pair within (s_i + s_j) / 2,
   rest-pose neighbours closer than that / 1.2 at rest, or than that when EdgesCover (test_contacts.h).
   Keys i * n + j, sorted. */
static int ReferencePairs(pbdWorldId id, int64_t* out)
{
	const pbdWorld* w = pbd_GetWorld(id);
	const int n = w->particleCount;
	int count = 0;
	const float restScale = EdgesCover(w) ? 1.0f : 1.0f / PBD_CONTACT_MARGIN;
	for (int i = 0; i < n; ++i) {
		const int oi = (int)(w->phase[i] & PBD_PHASE_OBJECT_MASK);
		const float ri = pbd_Material_ContactRadius(w, oi);
		const float si = (ri + ri) * PBD_CONTACT_MARGIN;
		for (int j = i + 1; j < n; ++j) {
			const int oj = (int)(w->phase[j] & PBD_PHASE_OBJECT_MASK);
			const float rj = pbd_Material_ContactRadius(w, oj);
			const float sj = (rj + rj) * PBD_CONTACT_MARGIN;
			const float rij = (si + sj) * 0.5f;
			const float* a = w->p + 4 * i;
			const float* b = w->p + 4 * j;
			const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
			if (!(dx * dx + dy * dy + dz * dz < rij * rij)) continue;
			if (a[3] == 0.0f && b[3] == 0.0f) continue;
			if (oi == oj) {
				const float* ea = w->rest0 + 4 * i;
				const float* eb = w->rest0 + 4 * j;
				const float ex = ea[0] - eb[0], ey = ea[1] - eb[1], ez = ea[2] - eb[2];
				const float e = rij * restScale;
				if (ex * ex + ey * ey + ez * ez < e * e) continue;
			}
			if (out) out[count] = (int64_t)i * n + j;
			count += 1;
		}
	}
	if (out) qsort(out, (size_t)count, sizeof *out, CompareKeys);
	return count;
}

static int SamePairs(pbdWorldId id, int minExpected)
{
	const int n = pbd_World_GetParticleCount(id);
	const pbdContacts* c = pbd_ContactsState(pbd_GetWorld(id));
	const int found = pbd_World_FindPairs(id);
	int64_t* expected = malloc(sizeof(int64_t) * ((size_t)n * (size_t)n / 2 + 1));
	int64_t* got = malloc(sizeof(int64_t) * ((size_t)found + 1));
	const int count = ReferencePairs(id, expected);
	for (int k = 0; k < found; ++k) got[k] = (int64_t)c->pairs[2 * k] * n + c->pairs[2 * k + 1];
	qsort(got, (size_t)found, sizeof *got, CompareKeys);
	const int same = c->dropped == 0 && found == count && memcmp(got, expected, sizeof(int64_t) * (size_t)count) == 0;
	if (!same || count < minExpected) printf("  grid %d pairs, reference %d (at least %d wanted)\n", found, count, minExpected);
	free(expected);
	free(got);
	return same && count >= minExpected;
}

/* Chains and a cloth of four radii (one left at thickness / 2), scattered in part: the grid's
   pairs are the reference's, rest-pose neighbours left out per object. Then every object at one
   radius that is not thickness / 2 (the one-radius path with its own distance). */
void Test_ContactRadiusPairsMatchBruteForce(void)
{
	s_rng = 77;
	pbdWorldId w = MakeWorld(1200, 0);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f);
	ENSURE(AddChain(w, -0.5f, 0.1f, 0.0f, 0.5f, 0.1f, 0.0f, 200) == 0); /* 0.005 segments */
	ENSURE(AddChain(w, -0.5f, 0.12f, 0.0f, 0.5f, 0.12f, 0.0f, 100) == 201);
	const float u[3] = { 0.3f, 0, 0 }, v[3] = { 0, 0, 0.3f };
	ENSURE(AddCloth(w, 16, -0.15f, 0.05f, -0.15f, u, v) == 302); /* spacing 0.02 */
	ENSURE(AddChain(w, -0.5f, 0.0f, 0.1f, 0.5f, 0.0f, 0.1f, 150) == 558); /* 0.0067: thickness / 2 within 2 segments */
	pbd_World_SetObjectRadius(w, 0, 0.004f);
	pbd_World_SetObjectRadius(w, 1, 0.02f);
	pbd_World_SetObjectRadius(w, 2, 0.015f); /* 2 r = 0.03 > spacing: the rest filter must keep the cloth's mesh out */
	/* object 3 keeps thickness / 2 */
	const int n = pbd_World_GetParticleCount(w);
	for (int i = 0; i < n; ++i) {
		const uint32_t kind = TestXorshift32(&s_rng) % 10;
		if (kind < 4) continue; /* rest pose */
		pbd_World_SetPosition(w, i, Rand(-0.2f, 0.2f), Rand(0.0f, 0.2f), Rand(-0.2f, 0.2f));
		if (TestXorshift32(&s_rng) % 6 == 0) pbd_World_SetInvMass(w, i, 0.0f);
	}
	ENSURE(SamePairs(w, 600));
	ENSURE(!pbd_ContactsState(pbd_GetWorld(w))->uniform);
	/* the cells follow the largest search radius */
	ENSURE(pbd_ContactsState(pbd_GetWorld(w))->grid.cellSize == (0.02f + 0.02f) * PBD_CONTACT_MARGIN * 1.0009765625f);
	for (int o = 0; o < 4; ++o) ENSURE(pbd_World_SetObjectRadius(w, o, 0.0095f) == PBD_OK); /* 2 segments of object 0 at most */
	ENSURE(SamePairs(w, 400));
	ENSURE(pbd_ContactsState(pbd_GetWorld(w))->uniform);
	ENSURE(pbd_ContactsState(pbd_GetWorld(w))->distance == 0.019f);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- the projection */

/* Two free particles of radii 0.02 and 0.05, 0.05 apart (overlap 0.02), masses 0.01 and
   0.03: one step (no gravity, so p = x) leaves them exactly 0.07 apart with the centre of mass
   where it was: particle a moves by 0.02 w_a / (w_a + w_b) = 0.015, b by 0.005. */
void Test_ContactRadiusPairSeparatesToSum(void)
{
	for (int same = 0; same < 2; ++same) {
		pbdWorldId w = RadiusWorld(8);
		const float ra = same ? 0.035f : 0.02f, rb = same ? 0.035f : 0.05f;
		const int a = LoosePair(w, 0.0f, 1.0f, 0.0f, -1.0f, 1.0f, 0.0f, 0.01f, ra);
		const int b = LoosePair(w, 0.05f, 1.0f, 0.0f, 1.05f, 1.0f, 0.0f, 0.03f, rb);
		pbd_World_Step(w);
		ENSURE(pbd_ContactsState(pbd_GetWorld(w))->uniform == same);
		const float* x = Pos(w);
		ENSURE_NEAR(Gap(w, a, b), 0.07, 1e-6);
		ENSURE_NEAR(x[4 * a], -0.015, 1e-6);
		ENSURE_NEAR(x[4 * b], 0.055, 1e-6);
		ENSURE_NEAR(0.01 * x[4 * a] + 0.03 * x[4 * b], 0.03 * 0.05, 1e-8);
		ENSURE(x[4 * a + 1] == 1.0f && x[4 * b + 1] == 1.0f);
		/* the loose partners, far off, did not move */
		ENSURE(x[4 * (a + 1)] == -1.0f && x[4 * (b + 1)] == 1.05f);
		pbd_DestroyWorld(w);
	}
}

/* A contact's push out is velocity at the next substep, so the prediction carries the pair apart by as much as
   it was pushed, past the search radius; the passes can bring it back within the substep. Particle A hangs on a
   chain segment from a pin that wants it at D / 2 from a pinned B, inside it (1 substep x 1 pass). Step 1 pushes A
   out from D / 2 to D; step 2 predicts it at 1.5 D, past the search's 1.2 D, and the segment pulls it back to D / 2.
   Found by the search alone, the pair was missed there and A ended inside B, moving at D / h toward it, then was
   pushed out to D again: a period-2 cycle at 2.4 m/s for good (the trampoline's, physics.md). Kept from the last
   list (contacts_list.c KeepSeparating), A ends every step at D and comes to rest. With one radius and with two. */
void Test_ContactSeparatingPairStaysListed(void)
{
	for (int same = 0; same < 2; ++same) {
		pbdWorldId w = RadiusWorld(8);
		pbd_World_SetParam(w, pbdParam_substeps, 1.0f);
		pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
		const float ra = same ? 0.02f : 0.015f, rb = same ? 0.02f : 0.025f, D = ra + rb;
		const int b = LoosePair(w, 0.0f, 1.0f, 0.0f, -1.0f, 1.0f, 0.0f, 0.01f, rb);
		pbd_World_SetInvMass(w, b, 0.0f);
		pbd_World_SetInvMass(w, b + 1, 0.0f);
		pbdChainDef def = pbd_DefaultChainDef();
		def.start[0] = 0.5f * D, def.start[1] = 1.0f;
		def.end[0] = 0.5f, def.end[1] = 1.0f;
		def.segments = 1;
		def.mass = 0.01f;
		const int a = pbd_World_AddChain(w, &def);
		const int object = pbd_World_GetObjectCount(w) - 1;
		pbd_World_SetObjectStiffness(w, object, pbdKind_chain, 1.0f);
		pbd_World_SetObjectRadius(w, object, ra);
		pbd_World_SetInvMass(w, a + 1, 0.0f);
		pbd_World_Step(w);
		ENSURE_NEAR(Gap(w, a, b), D, 1e-6);
		float closest = 1.0f;
		int32_t kept = 0;
		for (int s = 2; s <= 30; ++s) {
			pbd_World_Step(w);
			if (s == 2) kept = pbd_ContactsState(pbd_GetWorld(w))->kept;
			closest = fminf(closest, Gap(w, a, b));
		}
		const float* v = (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
		printf("  %s: closest %.6f of D = %.3f, speed after 0.5 s %.2e m/s\n", same ? "one radius" : "two radii", closest, D,
			   fabsf(v[4 * a]));
		ENSURE(closest > D * (1.0f - 1e-5f));
		ENSURE(fabsf(v[4 * a]) < 1e-4f);
		ENSURE(kept == 1); /* at step 2 the pair came from the last list */
		pbd_DestroyWorld(w);
	}
}

/* Under gravity, a particle of radius 0.03 dropped onto a pinned one of radius 0.012 (straight
   above it, so nothing pushes it aside) comes to rest on it at exactly 0.042 centre to centre;
   with thickness / 2 for both it would rest at the thickness, 0.01. */
void Test_ContactRadiusRestsOnPinnedAtSum(void)
{
	pbdWorldId w = RadiusWorld(8);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	const int base = LoosePair(w, 0.0f, 1.0f, 0.0f, -1.0f, 1.0f, 0.0f, 0.01f, 0.012f);
	pbd_World_SetInvMass(w, base, 0.0f);
	pbd_World_SetInvMass(w, base + 1, 0.0f);
	const int top = LoosePair(w, 0.0f, 1.1f, 0.0f, 0.0f, 1.6f, 0.0f, 0.05f, 0.03f);
	pbd_World_SetInvMass(w, top + 1, 0.0f);
	for (int s = 0; s < 180; ++s) pbd_World_Step(w);
	const float* x = Pos(w);
	ENSURE_NEAR(x[4 * top + 1] - x[4 * base + 1], 0.042, 1e-5);
	ENSURE(x[4 * top] == 0.0f && x[4 * top + 2] == 0.0f);
	const float* v = (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	ENSURE(fabsf(v[4 * top + 1]) < 1e-3f);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- ground and colliders */

/* Three objects on the ground at height 0.5: radii 0.04, 0.007 and thickness / 2 = 0.01 (a
   cloth, thickness 0.02). Each rests at 0.5 + its radius; with every object at thickness / 2
   (the one-radius path) they all rest at 0.51. */
void Test_ContactRadiusGroundHeight(void)
{
	pbdWorldId w = RadiusWorld(64);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_groundHeight, 0.5f);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f);
	pbd_World_SetParam(w, pbdParam_collisions, 0.0f);
	const int a = LoosePair(w, 0.0f, 0.8f, 0.0f, 0.3f, 0.8f, 0.0f, 0.01f, 0.04f);
	const int b = LoosePair(w, 0.0f, 0.9f, 1.0f, 0.3f, 0.9f, 1.0f, 0.01f, 0.007f);
	const float u[3] = { 0.2f, 0, 0 }, v[3] = { 0, 0, 0.2f };
	const int c = AddCloth(w, 4, -1.0f, 0.7f, -1.0f, u, v);
	for (int s = 0; s < 120; ++s) pbd_World_Step(w);
	const float* x = Pos(w);
	for (int k = 0; k < 2; ++k) {
		ENSURE_NEAR(x[4 * (a + k) + 1], 0.54, 1e-6);
		ENSURE_NEAR(x[4 * (b + k) + 1], 0.507, 1e-6);
	}
	for (int k = 0; k < 16; ++k) ENSURE_NEAR(x[4 * (c + k) + 1], 0.51, 1e-6);
	pbd_World_SetObjectRadius(w, 0, 0.0f);
	pbd_World_SetObjectRadius(w, 1, 0.0f);
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	x = Pos(w);
	for (int k = 0; k < 2; ++k) {
		ENSURE_NEAR(x[4 * (a + k) + 1], 0.51, 1e-6);
		ENSURE_NEAR(x[4 * (b + k) + 1], 0.51, 1e-6);
	}
	pbd_DestroyWorld(w);
}

/* A box (top face at y = 1) and a sphere (radius 0.1 at (3, 1, 0)), ground off. Loose pairs of
   radius 0.03 and 0.006 rest on the box at distance r from its surface; a particle of radius
   0.03 rests on top of the sphere at 0.1 + 0.03 from its centre. A chain of one long segment
   (radius 0.025) laid across the sphere, its ends far below the sphere's reach, hangs on it by
   its edge: the edge's closest point rests at 0.1 + 0.025 from the centre. */
void Test_ContactRadiusColliders(void)
{
	pbdWorldId w = RadiusWorld(64);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbdColliderDef box = pbd_DefaultColliderDef();
	box.type = pbdShape_box;
	box.position[1] = 0.5f;
	box.halfExtents[0] = box.halfExtents[1] = box.halfExtents[2] = 0.5f;
	const int boxIndex = pbd_World_AddCollider(w, &box);
	pbdColliderDef ball = pbd_DefaultColliderDef();
	ball.type = pbdShape_sphere;
	ball.position[0] = 3.0f, ball.position[1] = 1.0f;
	ball.radius = 0.1f;
	ENSURE(pbd_World_AddCollider(w, &ball) == 1);
	const int a = LoosePair(w, -0.2f, 1.2f, 0.0f, 0.2f, 1.2f, 0.0f, 0.01f, 0.03f);
	const int b = LoosePair(w, -0.2f, 1.1f, 0.3f, 0.2f, 1.1f, 0.3f, 0.01f, 0.006f);
	const int c = LoosePair(w, 3.0f, 1.3f, 0.0f, 3.0f, 1.3f, -2.0f, 0.01f, 0.03f);
	pbd_World_SetInvMass(w, c + 1, 0.0f);
	pbdChainDef rod = pbd_DefaultChainDef();
	rod.start[0] = 3.0f - 0.6f, rod.start[1] = 1.2f, rod.start[2] = 0.0f;
	rod.end[0] = 3.0f + 0.6f, rod.end[1] = 1.2f, rod.end[2] = 0.0f;
	rod.segments = 1;
	const int d = pbd_World_AddChain(w, &rod);
	pbd_World_SetObjectRadius(w, pbd_World_GetObjectCount(w) - 1, 0.025f);
	for (int s = 0; s < 240; ++s) pbd_World_Step(w);
	const float* x = Pos(w);
	for (int k = 0; k < 2; ++k) {
		const float* pa = x + 4 * (a + k);
		const float* pb = x + 4 * (b + k);
		ENSURE_NEAR(pbd_World_ColliderDistance(w, boxIndex, pa[0], pa[1], pa[2]), 0.03, 1e-6);
		ENSURE_NEAR(pbd_World_ColliderDistance(w, boxIndex, pb[0], pb[1], pb[2]), 0.006, 1e-6);
	}
	ENSURE_NEAR(x[4 * c + 1] - 1.0f, 0.13, 1e-6);
	/* the rod's ends are level (symmetric), so its closest point is its midpoint */
	ENSURE_NEAR(x[4 * d + 1], x[4 * (d + 1) + 1], 1e-6);
	ENSURE_NEAR(0.5f * (x[4 * d + 1] + x[4 * (d + 1) + 1]) - 1.0f, 0.125, 1e-5);
	ENSURE(x[4 * d + 1] > 1.0f + 0.1f); /* held by the edge: the ends themselves are clear of the sphere */
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- clusters */

/* Two 4 x 4 x 4 clusters (test_clusters.h: spacing 0.02, radius 0.012, so no particle of one
   fits through a face of the other), side by side along x, the second offset by half a spacing
   in y and z so that its face particles meet the first one's face gaps (the hardest case: every
   particle touches four). Attachments (stiffness 0.2) on each cluster's back face press them
   together: their targets advance 0.001 per step to 0.015 past where the clusters touch, each
   way, and hold there. Returns the worst interpenetration over 240 steps, r_i + r_j - (the
   closest distance between the clusters), in radii.

   The press is bounded on purpose: the pair list is searched from the predicted positions and
   holds the pairs within 1.2 (r_i + r_j), so a constraint that moves particles more than
   0.2 r in one pass (attachments on every particle pulling toward targets far inside the
   other cluster) moves pairs into contact unseen, and once a particle is inside the other
   lattice's cell no projection order gets it out (measured: attachments of stiffness 0.5 on
   all 64 particles, targets 0.02 deep: 1.7 r at 10 x 1 and 5 x 2, 0 at 1 x 10). */
static float PressClusters(int collisions, int substeps, int iterations)
{
	const int n = 4, count = n * n * n;
	const float r = 0.012f, s = 0.02f, push = 0.015f;
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 2 * count;
	def.maxConstraints = 2 * 13 * count;
	def.maxAttachments = 2 * n * n;
	def.maxObjects = 2;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_collisions, (float)collisions);
	pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
	pbd_World_SetParam(w, pbdParam_iterations, (float)iterations);
	const float L = s * (float)(n - 1);
	const int a = TestAddCluster(w, n, 0.0f, 1.0f, 0.0f, s, 0.01f, r);
	const int b = TestAddCluster(w, n, L + 0.03f, 1.0f + 0.5f * s, 0.5f * s, s, 0.01f, r);
	if (a < 0 || b < 0) return 1e30f;
	/* the back faces: i = 0 of the first cluster, i = n - 1 of the second */
	pbdAttachmentId handles[2][16];
	float start[2][16][3];
	const float* x = Pos(w);
	for (int f = 0; f < n * n; ++f) {
		const int pa = a + f * n, pb = b + f * n + n - 1;
		for (int k = 0; k < 3; ++k) start[0][f][k] = x[4 * pa + k], start[1][f][k] = x[4 * pb + k];
		handles[0][f] = pbd_World_AddAttachment(w, pa, start[0][f][0], start[0][f][1], start[0][f][2], 0.2f);
		handles[1][f] = pbd_World_AddAttachment(w, pb, start[1][f][0], start[1][f][1], start[1][f][2], 0.2f);
	}
	float worst = 0.0f;
	for (int step = 0; step < 240; ++step) {
		float t = 0.001f * (float)step;
		t = t < 0.003f + push ? t : 0.003f + push; /* 0.003: where they touch (gap 0.03 - 2 r, each way) */
		for (int f = 0; f < n * n; ++f) {
			pbd_World_MoveAttachment(w, handles[0][f], start[0][f][0] + t, start[0][f][1], start[0][f][2]);
			pbd_World_MoveAttachment(w, handles[1][f], start[1][f][0] - t, start[1][f][1], start[1][f][2]);
		}
		pbd_World_Step(w);
		x = Pos(w);
		float closest = 1e30f;
		for (int i = a; i < a + count; ++i) {
			for (int j = b; j < b + count; ++j) {
				const float d = TestDistance(x, i, j);
				closest = d < closest ? d : closest;
			}
		}
		const float depth = (2.0f * r - closest) / r;
		worst = depth > worst ? depth : worst;
	}
	if (!TestAllFinite(w)) worst = 1e30f;
	pbd_DestroyWorld(w);
	return worst;
}

void Test_ContactRadiusPressedClusters(void)
{
	const int splits[4][2] = { { 1, 10 }, { 10, 1 }, { 5, 2 }, { 20, 1 } };
	for (int k = 0; k < 4; ++k) {
		const float depth = PressClusters(1, splits[k][0], splits[k][1]);
		printf("  %d substeps x %d passes: worst interpenetration %.4f r\n", splits[k][0], splits[k][1], (double)depth);
		ENSURE(depth <= 0.1f);
	}
	/* without collisions the clusters slide into each other: their lattices interleave, the
	   closest particles sqrt(2) 0.01 apart, 0.82 r deep */
	ENSURE(PressClusters(0, 10, 1) > 0.5f);
}

/* ---------------------------------------------------------------- run-time changes */

/* Radii set between steps are felt at the next step, also by a kept pair list: two loose
   particles 0.1 apart at rest (radius 0.03 each: not in contact, and beyond the 0.072 search,
   so not in the kept list either) are pushed to exactly 0.12 apart by the first step after
   their radius becomes 0.06; a particle on the ground rises to height + the new radius. */
void Test_ContactRadiusChangeTakesEffectNextStep(void)
{
	pbdWorldId w = RadiusWorld(8);
	const int a = LoosePair(w, 0.0f, 1.0f, 0.0f, -1.0f, 1.0f, 0.0f, 0.01f, 0.03f);
	const int b = LoosePair(w, 0.1f, 1.0f, 0.0f, 1.1f, 1.0f, 0.0f, 0.01f, 0.03f);
	for (int s = 0; s < 5; ++s) pbd_World_Step(w);
	const pbdContacts* c = pbd_ContactsState(pbd_GetWorld(w));
	const int searches = c->searches;
	pbd_World_Step(w);
	ENSURE(c->searches == searches); /* at rest: the list is kept */
	ENSURE(Gap(w, a, b) == 0.1f);
	pbd_World_SetObjectRadius(w, 0, 0.06f);
	pbd_World_SetObjectRadius(w, 1, 0.06f);
	pbd_World_Step(w);
	ENSURE(c->searches > searches);
	ENSURE_NEAR(Gap(w, a, b), 0.12, 1e-6);
	pbd_DestroyWorld(w);

	w = RadiusWorld(8);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	const int p = LoosePair(w, 0.0f, 0.3f, 0.0f, 0.5f, 0.3f, 0.0f, 0.01f, 0.02f);
	for (int s = 0; s < 90; ++s) pbd_World_Step(w);
	ENSURE_NEAR(Pos(w)[4 * p + 1], 0.02, 1e-6);
	pbd_World_SetObjectRadius(w, 0, 0.05f);
	pbd_World_Step(w);
	ENSURE_NEAR(Pos(w)[4 * p + 1], 0.05, 1e-6);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- determinism */

/* Same inputs, same bits on every build (native SIMD, scalar, sanitizers, wasm), with radii
   that differ: a cloth (thickness / 2), a rope of radius 0.02 and loose pairs of 0.035 falling
   onto it, a box collider, the ground, self-collision on. */
void Test_ContactRadiusDeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneContactRadii); /* test_scenes_contacts.c */
	ENSURE(TestAllFinite(w));
	const uint32_t hash = pbd_World_Hash(w);
	printf("  contact radius hash 0x%08x\n", hash);
	ENSURE(TestPinnedHash(hash, PBD_CONTACT_RADIUS_HASH));
	pbd_DestroyWorld(w);
}
