/* Self-collision tests: the contacts family's grid over a world (its counting sort), the pair
   search against a brute force reference, and the projection's closed forms. The cloth scenes
   that must keep their layers apart are in test_contact_scenes.c. */
#include "test_contacts.h"

/* xorshift32: the same sequence on every libc. */
static uint32_t s_rng = 1;
static void SeedRand(uint32_t seed) { s_rng = seed ? seed : 1; }
static uint32_t RandInt(void) { return TestXorshift32(&s_rng); }
static float Rand01(void) { return (float)(RandInt() >> 8) / (float)(1 << 24); }
static float RandRange(float lo, float hi) { return lo + (hi - lo) * Rand01(); }

/* ---------------------------------------------------------------- grid */

/* The contacts family's grid over a world's particles: every particle appears exactly once in
   cellEntries, inside the range of its own bucket, and each bucket lists its particles in
   increasing order. */
static void CheckCountingSort(pbdWorldId id)
{
	pbdWorld* world = pbd_GetWorld(id);
	ENSURE(pbd_HashGrid_Build(world));
	const pbdGrid* w = &pbd_ContactsState(world)->grid;
	const int n = world->particleCount;
	const int T = w->buckets;
	ENSURE(w->count == n && w->cellSize == pbd_Contacts_SearchRadius(world) * 1.0009765625f);
	ENSURE(T >= 2 && (T & (T - 1)) == 0 && T <= w->tableSize && (T >= 2 * n || T == w->tableSize));
	ENSURE(w->cellStart[0] == 0 && w->cellStart[T] == n);
	static char seen[4096];
	ENSURE(n <= (int)sizeof seen);
	memset(seen, 0, sizeof seen);
	int placed = 0;
	for (int b = 0; b < T; ++b) {
		ENSURE(w->cellStart[b] <= w->cellStart[b + 1]);
		for (int k = w->cellStart[b]; k < w->cellStart[b + 1]; ++k) {
			int i = w->cellEntries[k];
			ENSURE(i >= 0 && i < n);
			ENSURE(!seen[i]);
			seen[i] = 1;
			placed += 1;
			ENSURE(pbd_Grid_Bucket(w, world->p + 4 * i) == b);
			if (k > w->cellStart[b]) ENSURE(w->cellEntries[k - 1] < i);
		}
	}
	ENSURE(placed == n);
}

void Test_HashGridCountingSort(void)
{
	SeedRand(11);
	pbdWorldId w = MakeWorld(4000, 0);
	pbd_World_SetParam(w, pbdParam_thickness, 0.05f);
	/* laid out long enough for the thickness (at most 4 segments: PBD_MAX_RADIUS_SPACINGS); scattered below */
	ENSURE(AddChain(w, -20, 0, 0, 20, 0, 0, 1999) == 0);
	ENSURE(AddChain(w, 0, -20, 0, 0, 20, 0, 1499) == 2000);
	int n = pbd_World_GetParticleCount(w);
	float cell = pbd_Contacts_SearchRadius(pbd_GetWorld(w)) * 1.0009765625f;
	for (int i = 0; i < n; ++i) {
		if (i % 3 == 0) {
			/* on cell boundaries, negative and positive */
			float k[3] = { (float)((int)(RandInt() % 41) - 20), (float)((int)(RandInt() % 41) - 20), (float)((int)(RandInt() % 41) - 20) };
			pbd_World_SetPosition(w, i, k[0] * cell, k[1] * cell, k[2] * cell);
		} else {
			pbd_World_SetPosition(w, i, RandRange(-3, 3), RandRange(-3, 3), RandRange(-3, 3));
		}
	}
	CheckCountingSort(w);
	if (g_testFailed) return;
	/* clustered: many particles per bucket */
	for (int i = 0; i < n; ++i) pbd_World_SetPosition(w, i, RandRange(-0.1f, 0.1f), RandRange(-0.1f, 0.1f), 0.0f);
	CheckCountingSort(w);
	if (g_testFailed) return;
	pbd_DestroyWorld(w);

	/* two particles, and an empty world */
	w = MakeWorld(2, 0);
	ENSURE(AddChain(w, -0.3f, 0, 0, 0.3f, 0, 0, 1) == 0);
	CheckCountingSort(w);
	if (g_testFailed) return;
	pbd_DestroyWorld(w);
	w = MakeWorld(16, 0);
	CheckCountingSort(w);
	ENSURE(pbd_World_FindPairs(w) == 0);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- pairs */

static int BruteForcePairs(pbdWorldId id, int64_t* out) { return PairsWithin(id, pbd_Contacts_SearchRadius(pbd_GetWorld(id)), out); }

/* The grid's pairs are exactly the brute force's: same set, each pair once, i < j. */
static void CheckPairsAgainstBruteForce(pbdWorldId id, int minExpected)
{
	const int n = pbd_GetWorld(id)->particleCount;
	const pbdContacts* w = pbd_ContactsState(pbd_GetWorld(id));
	int found = pbd_World_FindPairs(id);
	ENSURE(found == w->pairCount);
	ENSURE(w->dropped == 0);
	int64_t* expected = malloc(sizeof(int64_t) * ((size_t)n * (size_t)n / 2 + 1));
	int64_t* got = malloc(sizeof(int64_t) * ((size_t)found + 1));
	int count = BruteForcePairs(id, expected);
	for (int k = 0; k < found; ++k) {
		int i = w->pairs[2 * k], j = w->pairs[2 * k + 1];
		if (!(i >= 0 && i < j && j < n)) {
			printf("  FAILED: pair %d is (%d, %d)\n", k, i, j);
			g_testFailed = 1;
			break;
		}
		got[k] = (int64_t)i * n + j;
	}
	if (!g_testFailed) {
		qsort(got, (size_t)found, sizeof *got, CompareKeys);
		if (found != count || memcmp(got, expected, sizeof(int64_t) * (size_t)count) != 0) {
			printf("  FAILED: grid found %d pairs, brute force %d\n", found, count);
			g_testFailed = 1;
		}
		if (count < minExpected) {
			printf("  FAILED: only %d pairs, the scene should have at least %d\n", count, minExpected);
			g_testFailed = 1;
		}
	}
	free(expected);
	free(got);
}

/* Random clouds of chains and a cloth (rest-pose neighbours partly kept in place, partly
   scattered; two objects created along the same line), pinned particles, negative
   coordinates, particles exactly on cell boundaries and one float step either side of
   them, coincident particles, and tiny worlds whose 16-bucket tables make neighbour rows
   share buckets and wrap around the table. */
void Test_HashGridPairsMatchBruteForce(void)
{
	SeedRand(2024);
	pbdWorldId w = MakeWorld(2000, 0);
	pbd_World_SetParam(w, pbdParam_thickness, 0.05f);
	ENSURE(AddChain(w, -4.0f, 0.1f, -0.3f, 4.0f, 0.1f, -0.3f, 600) == 0); /* 0.0133 m segments: rest neighbours */
	ENSURE(AddChain(w, -2.0f, -0.5f, 0.0f, 2.0f, -0.5f, 0.0f, 40) == 601);
	const float u[3] = { 0.38f, 0, 0 }, v[3] = { 0, 0, 0.38f };
	ENSURE(AddCloth(w, 20, -0.2f, 0.05f, -0.2f, u, v) == 642); /* spacing 0.02: rest neighbours */
	/* created along the first chain: close to it at rest, but another object, so they collide */
	ENSURE(AddChain(w, -4.0f, 0.1f, -0.3f, 4.0f, 0.1f, -0.3f, 300) == 1042);
	const int n = pbd_World_GetParticleCount(w);
	const float cell = pbd_Contacts_SearchRadius(pbd_GetWorld(w)) * 1.0009765625f;
	for (int i = 0; i < n; ++i) {
		uint32_t kind = RandInt() % 10;
		if (kind < 3) continue; /* rest pose: mesh neighbours close together */
		if (kind < 7) {
			pbd_World_SetPosition(w, i, RandRange(-0.75f, -0.05f), RandRange(-0.3f, 0.3f), RandRange(-0.4f, 0.3f));
		} else if (kind < 9) {
			/* on a cell boundary, or one float step below or above it, per axis */
			float c[3];
			for (int a = 0; a < 3; ++a) {
				float b = (float)((int)(RandInt() % 13) - 8) * cell;
				uint32_t side = RandInt() % 3;
				c[a] = side == 0 ? b : side == 1 ? nextafterf(b, -1e9f) : nextafterf(b, 1e9f);
			}
			pbd_World_SetPosition(w, i, c[0], c[1], c[2]);
		} else {
			pbd_World_SetPosition(w, i, -0.3f, -0.2f, 0.1f); /* coincident */
		}
		if (RandInt() % 5 == 0) pbd_World_SetInvMass(w, i, 0.0f);
	}
	CheckPairsAgainstBruteForce(w, 1000);
	if (g_testFailed) return;
	/* far from the origin, both signs */
	for (int i = 0; i < n; ++i) {
		const float* x = Pos(w);
		pbd_World_SetPosition(w, i, x[4 * i] - 97.3f, x[4 * i + 1] + 41.0f, x[4 * i + 2] - 63.9f);
	}
	CheckPairsAgainstBruteForce(w, 1000);
	if (g_testFailed) return;
	/* the search radius follows the thickness */
	pbd_World_SetParam(w, pbdParam_thickness, 0.013f);
	CheckPairsAgainstBruteForce(w, 100);
	if (g_testFailed) return;
	pbd_DestroyWorld(w);

	for (int trial = 0; trial < 200 && !g_testFailed; ++trial) {
		w = MakeWorld(8, 0);
		pbd_World_SetParam(w, pbdParam_thickness, 0.1f);
		AddChain(w, 0, 0, 0, 0.05f, 0, 0, 3);
		AddChain(w, 0, 0.2f, 0, 0.3f, 0.2f, 0, 3);
		for (int i = 0; i < 8; ++i) pbd_World_SetPosition(w, i, RandRange(-0.2f, 0.2f), RandRange(-0.2f, 0.2f), RandRange(-0.2f, 0.2f));
		CheckPairsAgainstBruteForce(w, 0);
		pbd_DestroyWorld(w);
	}
}

/* Past maxContacts the grid stores the first maxContacts pairs and counts the rest; the
   step stays finite with the partial list. */
void Test_SelfCollisionPairOverflowFinite(void)
{
	SeedRand(5);
	pbdWorldId w = MakeWorld(400, 32);
	pbd_World_SetParam(w, pbdParam_thickness, 0.05f);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	for (int c = 0; c < 20; ++c) AddChain(w, 0, 1.0f + 0.1f * (float)c, 0, 0.5f, 1.0f + 0.1f * (float)c, 0, 19);
	for (int i = 0; i < 400; ++i) pbd_World_SetPosition(w, i, RandRange(-0.05f, 0.05f), RandRange(0.0f, 0.05f), RandRange(-0.05f, 0.05f));
	int total = BruteForcePairs(w, NULL);
	ENSURE(total > 1000);
	ENSURE(pbd_World_FindPairs(w) == 32);
	ENSURE(pbd_ContactsState(pbd_GetWorld(w))->dropped == total - 32);
	for (int s = 0; s < 120; ++s) {
		pbd_World_Step(w);
		ENSURE(TestAllFinite(w));
	}
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- projection */

/* Two free particles of different masses 0.5 thickness apart: one pass moves them apart
   to exactly the thickness, the light one w1 / (w1 + w2) of the way (seed 000 sec. 3). */
void Test_SelfCollisionMassWeightedSplit(void)
{
	pbdWorldId w = MakeWorld(4, 0);
	const float t = 0.04f;
	pbd_World_SetParam(w, pbdParam_thickness, t);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_selfFriction, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	ENSURE(AddChain(w, 0, 0, 0, 1, 0, 0, 1) == 0);
	ENSURE(AddChain(w, 0, 5, 0, 1, 5, 0, 1) == 2);
	pbd_World_SetPosition(w, 0, 0.3f, 1.0f, 0.0f);
	pbd_World_SetPosition(w, 2, 0.3f + 0.5f * t, 1.0f, 0.0f);
	pbd_World_SetMass(w, 0, 0.01f); /* w1 = 100 */
	pbd_World_SetMass(w, 2, 0.04f); /* w2 = 25 */
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f); /* only the contact acts */
	pbd_World_Step(w);
	const float* x = Pos(w);
	ENSURE_NEAR(TestDistance(x, 0, 2), t, 1e-6);
	ENSURE_NEAR(x[0], 0.3f - 0.8f * 0.5f * t, 1e-6);
	ENSURE_NEAR(x[8], 0.3f + 0.5f * t + 0.2f * 0.5f * t, 1e-6);
	ENSURE(x[1] == 1.0f && x[9] == 1.0f && x[2] == 0.0f && x[10] == 0.0f);
	/* a pinned particle takes nothing */
	pbd_World_SetInvMass(w, 0, 0.0f);
	pbd_World_SetVelocity(w, 2, 0, 0, 0);
	pbd_World_SetPosition(w, 2, x[0] + 0.25f * t, x[1], x[2]);
	float pinX = x[0];
	pbd_World_Step(w);
	ENSURE(Pos(w)[0] == pinX);
	ENSURE_NEAR(TestDistance(Pos(w), 0, 2), t, 1e-6);
	pbd_DestroyWorld(w);
}

/* Positional Coulomb friction, one pass: B starts where its prediction lands exactly
   0.8 thickness above a pinned A, with tangential travel vx h. Static (vx h below
   mu * depth) cancels the travel; kinetic shortens it by mu * depth. Returns B's travel
   along x; *height receives B's height after the step. */
static float FrictionTravel(float mu, float vx, float* height)
{
	pbdWorldId w = MakeWorld(4, 0);
	const float t = 0.05f;
	const float h = 1.0f / 60.0f;
	pbd_World_SetParam(w, pbdParam_thickness, t);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_SetParam(w, pbdParam_selfFriction, mu);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_dt, h);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	AddChain(w, 0, 0, 0, 1, 0, 0, 1); /* A = 0 */
	AddChain(w, 0, 3, 0, 1, 3, 0, 1); /* B = 2 */
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetInvMass(w, 0, 0.0f);
	pbd_World_SetPosition(w, 0, 0, 1, 0);
	pbd_World_SetPosition(w, 2, -vx * h, 1.0f + 0.8f * t, 0);
	pbd_World_SetVelocity(w, 2, vx, 0, 0);
	pbd_World_Step(w);
	float travel = Pos(w)[8] - (-vx * h);
	*height = Pos(w)[9];
	pbd_DestroyWorld(w);
	return travel;
}

void Test_SelfCollisionFrictionClosedForm(void)
{
	const float t = 0.05f, h = 1.0f / 60.0f, depth = 0.2f * t;
	float y;
	ENSURE_NEAR(FrictionTravel(0.0f, 0.3f, &y), 0.3f * h, 1e-6); /* frictionless: the whole travel */
	ENSURE_NEAR(y, 1.0f + t, 1e-6);                              /* pushed out to the thickness */
	ENSURE_NEAR(FrictionTravel(0.3f, 0.3f, &y), 0.3f * h - 0.3f * depth, 1e-6); /* kinetic */
	ENSURE_NEAR(FrictionTravel(1.0f, 0.3f, &y), 0.0f, 1e-7);                    /* static: 0.005 < 0.01 */
	ENSURE_NEAR(FrictionTravel(0.2f, 1.2f, &y), 1.2f * h - 0.2f * depth, 1e-6); /* kinetic, faster */
	ENSURE_NEAR(y, 1.0f + t, 1e-6);
}

/* Coincident particles: of one object (pushed along their rest offset), of two objects
   created at the same place (no rest offset either: pushed along y). Never NaN. */
void Test_SelfCollisionCoincidentFinite(void)
{
	pbdWorldId w = MakeWorld(200, 0);
	const float t = 0.02f;
	pbd_World_SetParam(w, pbdParam_thickness, t);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	ENSURE(AddChain(w, 0, 1, 0, 0.5f, 1, 0, 1) == 0);
	ENSURE(AddChain(w, 0, 1, 0, 0.5f, 1, 0, 1) == 2); /* the same place */
	pbd_World_Step(w);
	const float* x = Pos(w);
	ENSURE(TestAllFinite(w));
	ENSURE_NEAR(TestDistance(x, 0, 2), t, 1e-6);
	ENSURE_NEAR(x[1] - x[9], t, 1e-6); /* particle 0 (the lower index) up, 2 down */
	ENSURE(x[0] == x[8] && x[2] == x[10]);
	/* a whole cloth collapsed onto one point */
	const float u[3] = { 0.1f, 0, 0 }, v[3] = { 0, 0, 0.1f };
	int first = AddCloth(w, 12, 1.0f, 1.0f, 0.0f, u, v);
	ENSURE(first == 4);
	for (int i = first; i < first + 144; ++i) pbd_World_SetPosition(w, i, 1.05f, 1.0f, 0.05f);
	pbd_World_SetParam(w, pbdParam_iterations, 10.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	for (int s = 0; s < 120; ++s) {
		pbd_World_Step(w);
		ENSURE(TestAllFinite(w));
	}
	/* It came apart: the particles no longer share a point. Whether it ends flat or tangled
	   is chaos: once layers coincide, particle self-collision cannot tell which side a
	   particle came from, so about half of such starts (any build, any solver order) end with
	   some edges stretched through the other layer. Untangling needs history (Baraff, Witkin,
	   Kass 2003, "Untangling cloth"); not attempted here. */
	float c[3] = { 0, 0, 0 }, spread = 0.0f;
	for (int i = first; i < first + 144; ++i) {
		for (int k = 0; k < 3; ++k) c[k] += Pos(w)[4 * i + k] / 144.0f;
	}
	for (int i = first; i < first + 144; ++i) {
		float dx = Pos(w)[4 * i] - c[0], dy = Pos(w)[4 * i + 1] - c[1], dz = Pos(w)[4 * i + 2] - c[2];
		float r = sqrtf(dx * dx + dy * dy + dz * dz);
		spread = r > spread ? r : spread;
	}
	printf("  spread after 120 steps %.4f (thickness %.2f)\n", (double)spread, (double)t);
	ENSURE(spread > 2.0f * t);
	pbd_DestroyWorld(w);
}

/* The edges listed apart (contacts_list.c CollectEdges): in a world whose self-colliding objects' rest pairs within the
   search radius M D are all structural edges (a cloth of 0.02 m steps and a chain of 0.02 m segments at thickness
   0.018: D = 0.018 <= 0.02 < M D = 0.0216 < the diagonal 0.028), the search leaves out every rest pair within M D
   (the brute force with that rule) and the edge list is exactly the rest pairs between D and M D, not both pinned,
   with particles scattered and pinned at random. At thickness 0.03 (M D 0.036 past the diagonal) the world falls
   back to the search's old rule and lists no edge, and so does the first world once its thickness is set there; a
   listed edge whose ends are both pinned since drops out at the next step. And a listed edge does the contact's work: a chain of one
   0.02 m segment, its constraint off (stiffness 0), set 0.009 m long ends the step at D = 0.018 (it stays at
   0.009 if the edge is missing from both the search and the list). */
static int RestPairsBetween(const pbdWorld* w, float D, float R, int64_t* out)
{
	const int n = w->particleCount;
	int count = 0;
	for (int i = 0; i < n; ++i) {
		for (int j = i + 1; j < n; ++j) {
			if ((w->phase[i] & PBD_PHASE_OBJECT_MASK) != (w->phase[j] & PBD_PHASE_OBJECT_MASK)) continue;
			if (w->x[4 * i + 3] == 0.0f && w->x[4 * j + 3] == 0.0f) continue;
			const float* a = w->rest0 + 4 * i;
			const float* b = w->rest0 + 4 * j;
			const float ex = a[0] - b[0], ey = a[1] - b[1], ez = a[2] - b[2];
			const float e2 = (ex * ex + ey * ey) + ez * ez;
			if (!(e2 >= D * D && e2 < R * R)) continue;
			if (out) out[count] = (int64_t)i * n + j;
			count += 1;
		}
	}
	if (out) qsort(out, (size_t)count, sizeof *out, CompareKeys);
	return count;
}

void Test_SelfCollisionEdgesListedApart(void)
{
	SeedRand(99);
	for (int thick = 0; thick < 2 && !g_testFailed; ++thick) {
		const float t = thick ? 0.03f : 0.018f;
		pbdWorldId w = MakeWorld(600, 0);
		pbd_World_SetParam(w, pbdParam_thickness, t);
		pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
		const float u[3] = { 0.38f, 0, 0 }, v[3] = { 0, 0, 0.38f };
		ENSURE(AddCloth(w, 20, -0.2f, 0.5f, -0.2f, u, v) == 0);
		ENSURE(AddChain(w, -0.5f, 0.8f, 0.0f, 0.5f, 0.8f, 0.0f, 50) == 400);
		pbdWorld* world = pbd_GetWorld(w);
		ENSURE(EdgesCover(world) == !thick);
		const int n = pbd_World_GetParticleCount(w);
		for (int i = 0; i < n; ++i) {
			if (RandInt() % 3 == 0) pbd_World_SetPosition(w, i, RandRange(-0.3f, 0.3f), RandRange(0.3f, 0.9f), RandRange(-0.3f, 0.3f));
			if (RandInt() % 7 == 0) pbd_World_SetInvMass(w, i, 0.0f);
		}
		CheckPairsAgainstBruteForce(w, 10);
		pbd_World_Step(w); /* the step's start lists the edges, from the rest pose and the pins */
		const pbdContacts* c = pbd_ContactsState(world);
		ENSURE(c->edgesCover == !thick);
		int64_t* expected = malloc(sizeof(int64_t) * 4000);
		const int count = thick ? 0 : RestPairsBetween(world, t, t * PBD_CONTACT_MARGIN, expected);
		ENSURE(thick || count > 600); /* of the cloth's 760 edges and the chain's 50, those not both pinned */
		ENSURE(c->edgeCount == count);
		int64_t* got = malloc(sizeof(int64_t) * ((size_t)c->edgeCount + 1));
		for (int k = 0; k < c->edgeCount; ++k) got[k] = (int64_t)c->edges[2 * k] * n + c->edges[2 * k + 1];
		qsort(got, (size_t)c->edgeCount, sizeof *got, CompareKeys);
		ENSURE(c->edgeCount == count && memcmp(got, expected, sizeof(int64_t) * (size_t)count) == 0);
		if (!thick && count > 0) {
			/* the list is kept across steps while nothing it depends on changed: both ends of a listed edge pinned
			   drop it at the next step, a thickness past the cover empties it */
			const int32_t a = c->edges[0], b = c->edges[1];
			pbd_World_SetInvMass(w, a, 0.0f);
			pbd_World_SetInvMass(w, b, 0.0f);
			pbd_World_Step(w);
			ENSURE(c->edgeCount == RestPairsBetween(world, t, t * PBD_CONTACT_MARGIN, NULL) && c->edgeCount < count);
			pbd_World_SetParam(w, pbdParam_thickness, 0.03f);
			pbd_World_Step(w);
			ENSURE(c->edgeCount == 0 && !c->edgesCover);
		}
		free(got);
		free(expected);
		pbd_DestroyWorld(w);
	}

	pbdWorldId w = MakeWorld(8, 0);
	pbd_World_SetParam(w, pbdParam_thickness, 0.018f);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	ENSURE(AddChain(w, 0.0f, 1.0f, 0.0f, 0.02f, 1.0f, 0.0f, 1) == 0);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_chain, 0.0f);
	pbd_World_SetPosition(w, 1, 0.009f, 1.0f, 0.0f);
	pbd_World_Step(w);
	const float* x = Pos(w);
	const float d = sqrtf((x[4] - x[0]) * (x[4] - x[0]) + (x[5] - x[1]) * (x[5] - x[1]) + (x[6] - x[2]) * (x[6] - x[2]));
	printf("  listed edges: a 0.02 m edge squeezed to 0.009 m, its constraint off, ends the step %.5f m long (D 0.018)\n", (double)d);
	ENSURE(fabsf(d - 0.018f) < 1e-5f);
	pbd_DestroyWorld(w);
}
