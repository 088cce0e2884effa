/* Contact scenes: cloths and a rope that must keep apart, with self-collision (layers of two
   objects, a towel folded onto itself) and with collisions between objects alone; the pair
   list's reuse across substeps for both; the self-collision determinism hash. Every scene test
   also runs without the contacts it tests and must then fail its own criterion, so a solver
   that does nothing cannot pass. */
#include "test_contacts.h"
#include "test_scenes.h"

/* ---------------------------------------------------------------- cloth scenes */

/* The two layers are built in test_scenes_contacts.c (SelfCollisionDeterminismHash's scene is one). */
typedef TestLayers Scene;

static const float kT = TEST_LAYERS_THICKNESS;
static const int kRes = TEST_LAYERS_RES;
static const float kSpacing = TEST_LAYERS_SPACING;

static Scene TwoLayers(int contacts, int pinCorners) { return TestTwoLayers(contacts, pinCorners); }

static float Dist2(const float* x, int a, int b)
{
	float dx = x[4 * a] - x[4 * b], dy = x[4 * a + 1] - x[4 * b + 1], dz = x[4 * a + 2] - x[4 * b + 2];
	return dx * dx + dy * dy + dz * dz;
}

static float MinCrossDistance(const Scene* sc)
{
	const float* x = Pos(sc->w);
	float best = 1e30f;
	for (int i = sc->lower; i < sc->lower + sc->n; ++i) {
		for (int j = sc->upper; j < sc->upper + sc->n; ++j) {
			float d2 = Dist2(x, i, j);
			if (d2 < best) best = d2;
		}
	}
	return sqrtf(best);
}

static float MeanY(const Scene* sc, int first)
{
	const float* x = Pos(sc->w);
	float sum = 0.0f;
	for (int i = first; i < first + sc->n; ++i) sum += x[4 * i + 1];
	return sum / (float)sc->n;
}

/* The worst cross-layer distance over every step; *gap receives the final mean height of
   the upper layer above the lower one. */
static float RunTwoLayers(int contacts, int pinCorners, int steps, float* gap)
{
	Scene sc = TwoLayers(contacts, pinCorners);
	float worst = 1e30f;
	for (int s = 0; s < steps; ++s) {
		pbd_World_Step(sc.w);
		float d = MinCrossDistance(&sc);
		if (d < worst) worst = d;
		if (!TestAllFinite(sc.w)) worst = -1.0f;
	}
	*gap = MeanY(&sc, sc.upper) - MeanY(&sc, sc.lower);
	pbd_DestroyWorld(sc.w);
	return worst;
}

/* The test: a cloth falls onto another lying on the ground; every particle pair
   across the layers stays at least 0.9 thickness apart at every step, and the upper
   cloth does come to rest on the lower one. */
void Test_SelfCollisionTwoLayersOnGround(void)
{
	float gap, off;
	float worst = RunTwoLayers(1, 0, 300, &gap);
	float control = RunTwoLayers(0, 0, 300, &off);
	printf("  min cross-layer distance %.4f thickness (without self-collision %.4f), final gap %.3f thickness\n",
		   (double)(worst / kT), (double)(control / kT), (double)(gap / kT));
	ENSURE(worst >= 0.9f * kT);
	ENSURE(gap > 0.5f * kT && gap < 1.5f * kT); /* landed, and lies on the lower cloth */
	ENSURE(control < 0.5f * kT);               /* the check would catch a missing projection */
}

/* The same with the lower cloth pinned at its corners in the air: both sag together. */
void Test_SelfCollisionTwoLayersPinnedCorners(void)
{
	float gap, off;
	float worst = RunTwoLayers(1, 1, 300, &gap);
	float control = RunTwoLayers(0, 1, 300, &off);
	printf("  min cross-layer distance %.4f thickness (without self-collision %.4f), final gap %.3f thickness\n",
		   (double)(worst / kT), (double)(control / kT), (double)(gap / kT));
	ENSURE(worst >= 0.9f * kT);
	ENSURE(gap > 0.5f * kT && gap < 1.5f * kT);
	ENSURE(control < 0.5f * kT);
}

/* Collisions between objects (the collisions parameter, on by default) with self-collision
   off: the upper cloth, another object, lands on the lower one and stays a thickness above it,
   on the ground and with the lower one pinned in the air; with collisions = 0 it falls through. */
void Test_CollisionsBetweenObjectsTwoCloths(void)
{
	for (int pin = 0; pin < 2; ++pin) {
		float gap, off;
		float worst = RunTwoLayers(2, pin, 300, &gap);
		float control = RunTwoLayers(0, pin, 300, &off);
		printf("  %s: min cross-cloth distance %.4f thickness (collisions 0: %.4f), final gap %.3f thickness\n",
			   pin ? "pinned corners" : "on the ground", (double)(worst / kT), (double)(control / kT), (double)(gap / kT));
		ENSURE(worst >= 0.9f * kT);
		ENSURE(gap > 0.5f * kT && gap < 1.5f * kT);
		ENSURE(control < 0.5f * kT);
	}
}

/* A rope (a chain of 30 particles, another object) dropped across a cloth pinned at its four
   corners in the air, self-collision off: it comes to rest on the cloth, never closer to a
   cloth particle than 0.9 thickness; with collisions = 0 it falls through to the ground.
   Returns the worst rope-cloth distance; *ropeY and *clothY receive the final mean heights.
   filter (services/materials.h, pbd_World_SetObjectFilter): 0 none; 1 the cloth in category 2 and the rope's
   mask without it (they must not meet); 2 the rope in category 4 and both masks full (they meet as with none).
   *hash: the world's hash at the end. */
static float RopeOnClothFiltered(int collisions, int filter, float* ropeY, float* clothY, uint32_t* hash)
{
	pbdWorldId w = MakeWorld(kRes * kRes + 31, 0);
	pbd_World_SetParam(w, pbdParam_thickness, kT);
	pbd_World_SetParam(w, pbdParam_collisions, (float)collisions);
	pbd_World_SetParam(w, pbdParam_substeps, 5.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	const float L = kSpacing * (float)(kRes - 1);
	const float u[3] = { L, 0, 0 }, v[3] = { 0, 0, L };
	const int cloth = AddCloth(w, kRes, -0.5f * L, 0.5f, -0.5f * L, u, v);
	const int corners[4] = { 0, kRes - 1, kRes * (kRes - 1), kRes * kRes - 1 };
	for (int k = 0; k < 4; ++k) pbd_World_SetInvMass(w, cloth + corners[k], 0.0f);
	/* along the diagonal's direction, 3 thickness up, 0.6 thickness between particles */
	const float half = 0.3f * L;
	const int rope = AddChain(w, -half, 0.5f + 3.0f * kT, -0.5f * half, half, 0.5f + 3.0f * kT, 0.5f * half, 29);
	const int n = kRes * kRes, m = 30;
	int refused = 0;
	if (filter == 1) {
		refused |= pbd_World_SetObjectFilter(w, 0, 2u, 0xffffffffu) != PBD_OK;
		refused |= pbd_World_SetObjectFilter(w, 1, 1u, ~2u) != PBD_OK;
	}
	if (filter == 2) refused |= pbd_World_SetObjectFilter(w, 1, 4u, 0xffffffffu) != PBD_OK;
	float worst = refused ? -1.0f : 1e30f; /* a refusal fails every caller's criterion */
	for (int s = 0; s < 300; ++s) {
		pbd_World_Step(w);
		const float* x = Pos(w);
		for (int i = rope; i < rope + m; ++i) {
			for (int j = cloth; j < cloth + n; ++j) {
				float d2 = Dist2(x, i, j);
				if (d2 < worst) worst = d2;
			}
		}
		if (!TestAllFinite(w)) worst = -1.0f;
	}
	const float* x = Pos(w);
	*ropeY = *clothY = 0.0f;
	for (int i = rope; i < rope + m; ++i) *ropeY += x[4 * i + 1] / (float)m;
	for (int j = cloth; j < cloth + n; ++j) *clothY += x[4 * j + 1] / (float)n;
	if (hash != NULL) *hash = pbd_World_Hash(w);
	pbd_DestroyWorld(w);
	return worst < 0.0f ? worst : sqrtf(worst);
}

static float RopeOnCloth(int collisions, float* ropeY, float* clothY)
{
	return RopeOnClothFiltered(collisions, 0, ropeY, clothY, NULL);
}

/* Collision filters (Box2D v3's category and mask, services/materials.h): the rope whose mask leaves out the
   cloth's category falls through it to the ground as with collisions off; a filter that still meets everything
   (the activation table instead of the grid's fast path) gives the unfiltered run's bits; a bad object is refused
   and the filters read back as set. */
void Test_CollisionFilterLetsObjectsPass(void)
{
	float ropeY, clothY, ropeOff, clothOff, ropeMeet, clothMeet;
	uint32_t plain, meets;
	const float worst = RopeOnClothFiltered(1, 0, &ropeY, &clothY, &plain);
	const float passed = RopeOnClothFiltered(1, 1, &ropeOff, &clothOff, NULL);
	const float met = RopeOnClothFiltered(1, 2, &ropeMeet, &clothMeet, &meets);
	printf("  rope over the cloth: %.4f m, filtered out: %.4f m (min distance %.4f thickness); meeting filter 0x%08x vs 0x%08x\n",
		   (double)(ropeY - clothY), (double)(ropeOff - clothOff), (double)(passed / kT), (unsigned)meets, (unsigned)plain);
	ENSURE(worst >= 0.9f * kT && ropeY > clothY);
	ENSURE(passed < 0.5f * kT && ropeOff < 0.1f); /* through it, onto the ground */
	ENSURE(met == worst && meets == plain);
	pbdWorldId w = MakeWorld(64, 0);
	AddChain(w, 0, 1, 0, 1, 1, 0, 9);
	uint32_t got[2] = { 0, 0 };
	ENSURE(pbd_World_GetObjectFilter(w, 0, got) == PBD_OK && got[0] == 1u && got[1] == 0xffffffffu);
	ENSURE(pbd_World_SetObjectFilter(w, 0, 0x80000000u, 3u) == PBD_OK);
	ENSURE(pbd_World_GetObjectFilter(w, 0, got) == PBD_OK && got[0] == 0x80000000u && got[1] == 3u);
	ENSURE(pbd_World_SetObjectFilter(w, 1, 1u, 1u) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetObjectFilter(w, -1, 1u, 1u) == PBD_ERR_INVALID_ARGUMENT);
	pbd_DestroyWorld(w);
}

void Test_CollisionsBetweenObjectsRopeOnCloth(void)
{
	float ropeY, clothY, ropeOff, clothOff;
	float worst = RopeOnCloth(1, &ropeY, &clothY);
	float control = RopeOnCloth(0, &ropeOff, &clothOff);
	printf("  min rope-cloth distance %.4f thickness (collisions 0: %.4f); rope %.4f m over the cloth's mean (collisions 0: %.4f)\n",
		   (double)(worst / kT), (double)(control / kT), (double)(ropeY - clothY), (double)(ropeOff - clothOff));
	ENSURE(worst >= 0.9f * kT);
	ENSURE(ropeY > clothY && ropeY < clothY + 0.2f); /* on the cloth, in its sag */
	ENSURE(control < 0.5f * kT && ropeOff < 0.1f);   /* through it, onto the ground */
}

/* With one object and self-collision off nothing can touch: no search at all, whatever
   collisions says. Two objects with both off: none either. Two objects with collisions on:
   searched, and the kept list reused at rest as for self-collision. */
void Test_CollisionsCostNothingAlone(void)
{
	pbdWorldId w = MakeWorld(kRes * kRes * 2, 0);
	pbd_World_SetParam(w, pbdParam_thickness, kT);
	const float L = kSpacing * (float)(kRes - 1);
	const float u[3] = { L, 0, 0 }, v[3] = { 0, 0, L };
	AddCloth(w, kRes, -0.5f * L, 0.5f * kT, -0.5f * L, u, v);
	const pbdContacts* c = pbd_ContactsState(pbd_GetWorld(w));
	for (int s = 0; s < 20; ++s) pbd_World_Step(w);
	ENSURE(c->searches == 0 && c->pairCount == 0);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_Step(w);
	ENSURE(c->searches > 0);
	pbd_DestroyWorld(w);

	Scene sc = TwoLayers(0, 0);
	c = pbd_ContactsState(pbd_GetWorld(sc.w));
	for (int s = 0; s < 20; ++s) pbd_World_Step(sc.w);
	ENSURE(c->searches == 0 && c->pairCount == 0);
	pbd_DestroyWorld(sc.w);

	sc = TwoLayers(2, 0);
	c = pbd_ContactsState(pbd_GetWorld(sc.w));
	for (int s = 0; s < 150; ++s) pbd_World_Step(sc.w);
	const int settled = c->searches;
	for (int s = 0; s < 60; ++s) pbd_World_Step(sc.w);
	printf("  two cloths, collisions only: %d searches in 150 steps, %d in the next 60 (5 substeps)\n", settled,
		   c->searches - settled);
	ENSURE(settled > 0 && c->searches - settled <= 60 && c->pairCount > 0);
	pbd_DestroyWorld(sc.w);
}

/* Folding a towel: a 32 x 16 cloth lies on the ground; its right edge is pinned and
   carried over a half circle onto the left edge (2 s), then released to settle (2 s).
   Returns the worst distance, over all steps, between particles that are not rest-pose
   neighbours (rest distance >= thickness); *folded counts, at the end, the pairs at least
   6 thickness apart at rest that lie within 1.5 thickness of each other: layer on layer. */
static float FoldTowel(int selfCollision, int* folded)
{
	const int nu = 32, nv = 16, n = nu * nv, move = 120, settle = 120;
	pbdWorldId w = MakeWorld(n, 0);
	pbd_World_SetParam(w, pbdParam_thickness, kT);
	pbd_World_SetParam(w, pbdParam_selfCollision, (float)selfCollision);
	pbd_World_SetParam(w, pbdParam_substeps, 5.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	const float lu = kSpacing * (float)(nu - 1), lv = kSpacing * (float)(nv - 1);
	const float u[3] = { lu, 0, 0 }, v[3] = { 0, 0, lv };
	const float y0 = 0.5f * kT; /* resting on the ground */
	pbdClothDef def = pbd_DefaultClothDef();
	def.origin[0] = -0.5f * lu, def.origin[1] = y0, def.origin[2] = -0.5f * lv;
	memcpy(def.axisU, u, sizeof u);
	memcpy(def.axisV, v, sizeof v);
	def.resolutionU = nu;
	def.resolutionV = nv;
	def.mass = 0.01f;
	const int first = pbd_World_AddCloth(w, &def);
	const pbdWorld* world = pbd_GetWorld(w);
	for (int j = 0; j < nv; ++j) pbd_World_SetInvMass(w, first + j * nu + nu - 1, 0.0f);
	/* The edge follows a half circle about the middle, ending one thickness up: (ex, ey)
	   turns by pi / move per step (its cos and sin from their series: no libm, so
	   every build sees the same scene). */
	const float turn = 3.14159265f / (float)move, turn2 = turn * turn;
	const float cd = 1.0f - turn2 / 2.0f + turn2 * turn2 / 24.0f - turn2 * turn2 * turn2 / 720.0f;
	const float sd = turn - turn * turn2 / 6.0f + turn * turn2 * turn2 / 120.0f;
	float ex = 0.5f * lu, ey = 0.0f;
	float worst = 1e30f;
	for (int s = 0; s < move + settle; ++s) {
		if (s < move) {
			const float a = (float)(s + 1) / (float)move;
			const float nx = ex * cd - ey * sd, ny = ex * sd + ey * cd;
			ex = nx, ey = ny;
			for (int j = 0; j < nv; ++j) {
				const int i = first + j * nu + nu - 1;
				pbd_World_SetPosition(w, i, ex, y0 + ey + kT * a, world->x[4 * i + 2]);
			}
		} else if (s == move) {
			for (int j = 0; j < nv; ++j) pbd_World_SetMass(w, first + j * nu + nu - 1, 0.01f);
		}
		pbd_World_Step(w);
		const float* x = Pos(w);
		for (int i = first; i < first + n; ++i) {
			for (int j = i + 1; j < first + n; ++j) {
				if (Dist2(world->rest0, i, j) < kT * kT) continue;
				float d2 = Dist2(x, i, j);
				if (d2 < worst) worst = d2;
			}
		}
		if (!TestAllFinite(w)) worst = -1.0f;
	}
	worst = worst < 0.0f ? worst : sqrtf(worst);
	*folded = 0;
	const float* x = Pos(w);
	for (int i = first; i < first + n; ++i) {
		for (int j = i + 1; j < first + n; ++j) {
			if (Dist2(world->rest0, i, j) >= 36.0f * kT * kT && Dist2(x, i, j) < 2.25f * kT * kT) *folded += 1;
		}
	}
	pbd_DestroyWorld(w);
	return worst;
}

void Test_SelfCollisionClothFoldsOntoItself(void)
{
	int folded, foldedOff;
	float worst = FoldTowel(1, &folded);
	float control = FoldTowel(0, &foldedOff);
	printf("  min non-neighbour distance %.4f thickness (without self-collision %.4f), %d pairs folded onto each other\n",
		   (double)(worst / kT), (double)(control / kT), folded);
	ENSURE(worst >= 0.9f * kT);
	ENSURE(folded >= 500); /* it did fold: layer on layer, not a flat cloth */
	ENSURE(control < 0.5f * kT);
}

/* The pairs in contact: BruteForcePairs at the thickness instead of the search radius. */
static int ContactPairs(pbdWorldId id, int64_t* out) { return PairsWithin(id, pbd_GetWorld(id)->params[pbdParam_thickness], out); }

/* Of the sorted pair keys (i * n + j), those across the two layers (i < upper <= j): the pairs
   in contact when only collisions between objects are on. */
static int AcrossOnly(int count, int64_t* keys, int upper)
{
	int kept = 0;
	for (int e = 0; e < count; ++e) {
		const int n = 2 * kRes * kRes;
		if (keys[e] / n < upper && keys[e] % n >= upper) keys[kept++] = keys[e];
	}
	return kept;
}

/* Pair-list reuse (pbd_Contacts_Prepare): while every particle is within 0.1 thickness of
   where it was at the search, the kept list holds every pair in contact now (the brute force's,
   or those between the two cloths alone with collisions only); a larger move, or a parameter
   or mass change, searches again. */
static void PairReuse(int contacts)
{
	Scene sc = TwoLayers(contacts, 0);
	for (int s = 0; s < 40; ++s) pbd_World_Step(sc.w);
	pbdWorld* world = pbd_GetWorld(sc.w);
	pbdContacts* w = pbd_ContactsState(world);
	const int n = world->particleCount;
	pbd_Contacts_Prepare(world);
	ENSURE(w->reusable);
	const float m = 0.1f * kT; /* each particle's reach */
	int64_t* expected = malloc(sizeof(int64_t) * ((size_t)n * (size_t)n / 2 + 1));
	int64_t* got = malloc(sizeof(int64_t) * ((size_t)w->maxPairs + 1));
	uint32_t seed = 99u;
	int reused = 0, checked = 0;
	for (int trial = 0; trial < 20; ++trial) {
		/* every particle jittered by up to 0.9 m from the search positions */
		for (int i = 0; i < n; ++i) {
			for (int k = 0; k < 3; ++k) {
				float u = (float)(TestXorshift32(&seed) >> 8) / 16777216.0f - 0.5f; /* [-0.5, 0.5) */
				world->p[4 * i + k] = w->origin[4 * i + k] + 0.9f * m * u * 1.1547f; /* |d| < 0.9 m */
			}
		}
		int before = w->searches;
		pbd_Contacts_Prepare(world);
		reused += w->searches == before;
		int count = ContactPairs(sc.w, expected);
		if (contacts == 2) count = AcrossOnly(count, expected, sc.upper);
		for (int k = 0; k < w->pairCount; ++k) got[k] = (int64_t)w->pairs[2 * k] * n + w->pairs[2 * k + 1];
		qsort(got, (size_t)w->pairCount, sizeof *got, CompareKeys);
		for (int e = 0, g = 0; e < count; ++e) { /* every expected pair is in the list */
			while (g < w->pairCount && got[g] < expected[e]) ++g;
			if (!(g < w->pairCount && got[g] == expected[e])) {
				printf("  FAILED: pair (%d, %d) within reach but not in the kept list\n", (int)(expected[e] / n), (int)(expected[e] % n));
				g_testFailed = 1;
				break;
			}
			checked += 1;
		}
		if (g_testFailed) break;
	}
	free(expected);
	free(got);
	printf("  %s: %d of 20 jitters kept the list; %d pairs in contact checked present\n", contacts == 1 ? "self-collision" : "collisions only", reused, checked);
	ENSURE(reused == 20 && checked > 100);
	/* one particle past its reach: searched again */
	int before = w->searches;
	world->p[4 * 7 + 1] = w->origin[4 * 7 + 1] + 1.01f * m;
	pbd_Contacts_Prepare(world);
	ENSURE(w->searches == before + 1);
	/* a parameter change: searched again even without motion */
	before = w->searches;
	pbd_World_SetParam(sc.w, pbdParam_thickness, kT);
	pbd_Contacts_Prepare(world);
	ENSURE(w->searches == before + 1);
	/* a mass change too (pairs of two pins were left out of the list) */
	before = w->searches;
	pbd_World_SetMass(sc.w, 3, 0.01f);
	pbd_Contacts_Prepare(world);
	ENSURE(w->searches == before + 1);
	pbd_DestroyWorld(sc.w);
}

void Test_SelfCollisionPairReuse(void) { PairReuse(1); }

void Test_CollisionsPairReuse(void) { PairReuse(2); }

/* A towel folded and left to settle, 5 substeps: searched every substep while the edge is
   carried over, far less once it rests; the layers stay apart either way (the fold test). */
void Test_SelfCollisionSearchesLessAtRest(void)
{
	Scene sc = TwoLayers(1, 0);
	const pbdContacts* w = pbd_ContactsState(pbd_GetWorld(sc.w));
	for (int s = 0; s < 30; ++s) pbd_World_Step(sc.w); /* falling onto the lower layer */
	int falling = w->searches;
	for (int s = 0; s < 120; ++s) pbd_World_Step(sc.w);
	int settling = w->searches - falling;
	for (int s = 0; s < 60; ++s) pbd_World_Step(sc.w);
	int resting = w->searches - falling - settling;
	printf("  searches per step: %.2f falling, %.2f settling, %.2f resting (5 substeps)\n", (double)falling / 30.0,
		   (double)settling / 120.0, (double)resting / 60.0);
	ENSURE(resting <= 60); /* at most one per step at rest, instead of five */
	pbd_DestroyWorld(sc.w);
}

/* Self-collision scenes give the same bits in every build (native, scalar, sanitizers,
   wasm): the pairs' order is a function of the positions only (the hash: test_scenes.h). */
void Test_SelfCollisionDeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneSelfCollision); /* test_scenes_contacts.c: TwoLayers(1, 1) with friction */
	uint32_t hash = pbd_World_Hash(w);
	printf("  self-collision determinism hash 0x%08x\n", hash);
	ENSURE(TestPinnedHash(hash, PBD_SELF_COLLISION_HASH));
	pbd_DestroyWorld(w);
	/* Its two cloths are two objects: the hash covers the pairs between them as well (with the
	   collisions parameter, which selfCollision used to imply), so without those it moves. */
	w = g_sceneSelfCollision.build();
	pbd_World_SetParam(w, pbdParam_collisions, 0.0f);
	for (int s = 0; s < g_sceneSelfCollision.steps; ++s) pbd_World_Step(w);
	ENSURE(pbd_World_Hash(w) != PBD_SELF_COLLISION_HASH);
	pbd_DestroyWorld(w);
}
