/* Self-collision tests: the hash grid's counting sort, the pair search against a brute
   force reference, the projection's closed forms, and cloth scenes that must keep their
   layers apart. Every scene test also runs without self-collision and must then fail its
   own criterion, so a solver that does nothing cannot pass. */
#include "world/core.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* xorshift32: the same sequence on every libc. */
static uint32_t s_rng = 1;
static void SeedRand(uint32_t seed) { s_rng = seed ? seed : 1; }
static uint32_t RandInt(void) { return TestXorshift32(&s_rng); }
static float Rand01(void) { return (float)(RandInt() >> 8) / (float)(1 << 24); }
static float RandRange(float lo, float hi) { return lo + (hi - lo) * Rand01(); }

static pbdWorldId MakeWorld(int maxParticles, int maxContacts)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = maxParticles;
	def.maxContacts = maxContacts;
	def.maxObjects = 32;
	return TestCreateWorld(&def);
}

static const float* Pos(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }

static int AddChain(pbdWorldId w, float ax, float ay, float az, float bx, float by, float bz, int segments)
{
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = ax, def.start[1] = ay, def.start[2] = az;
	def.end[0] = bx, def.end[1] = by, def.end[2] = bz;
	def.segments = segments;
	def.mass = 0.01f;
	return pbd_World_AddChain(w, &def);
}

/* n x n cloth in a plane spanned by u and v (whole edges), particle spacing |u| / (n - 1). */
static int AddCloth(pbdWorldId w, int n, float ox, float oy, float oz, const float u[3], const float v[3])
{
	pbdClothDef def = pbd_DefaultClothDef();
	def.origin[0] = ox, def.origin[1] = oy, def.origin[2] = oz;
	memcpy(def.axisU, u, sizeof def.axisU);
	memcpy(def.axisV, v, sizeof def.axisV);
	def.resolutionU = n;
	def.resolutionV = n;
	def.mass = 0.01f;
	return pbd_World_AddCloth(w, &def);
}

/* ---------------------------------------------------------------- grid */

/* Every particle appears exactly once in cellEntries, inside the range of its own bucket,
   and each bucket lists its particles in increasing order. */
static void CheckCountingSort(pbdWorldId id)
{
	pbdWorld* w = pbd_GetWorld(id);
	ENSURE(pbd_HashGrid_Build(w));
	const int n = w->particleCount;
	const int T = pbd_HashGrid_TableSize(w);
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
			ENSURE(pbd_HashGrid_Bucket(w, w->p + 4 * i) == b);
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
	ENSURE(AddChain(w, -1, 0, 0, 1, 0, 0, 1999) == 0);
	ENSURE(AddChain(w, 0, -1, 0, 0, 1, 0, 1499) == 2000);
	int n = pbd_World_GetParticleCount(w);
	float cell = pbd_HashGrid_CellSize(pbd_GetWorld(w));
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

static int CompareKeys(const void* a, const void* b)
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return (x > y) - (x < y);
}

static int ObjectOf(pbdWorldId id, int particle)
{
	for (int o = 0; o < pbd_World_GetObjectCount(id); ++o) {
		pbdObjectInfo info;
		pbd_World_GetObjectInfo(id, o, &info);
		if (particle >= info.firstParticle && particle < info.firstParticle + info.particleCount) return o;
	}
	return -1;
}

/* O(n^2) reference: pairs closer than r, not both pinned, not rest-pose
   neighbours of one object. Returns the count; keys (i * n + j, i < j) sorted into out. */
static int PairsWithin(pbdWorldId id, float r, int64_t* out)
{
	const pbdWorld* w = pbd_GetWorld(id);
	const int n = w->particleCount;
	const float t = w->params[pbdParam_thickness];
	const float r2 = r * r, t2 = t * t;
	int* object = malloc(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; ++i) object[i] = ObjectOf(id, i);
	int count = 0;
	for (int i = 0; i < n; ++i) {
		const float* a = w->p + 4 * i;
		for (int j = i + 1; j < n; ++j) {
			const float* b = w->p + 4 * j;
			float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
			if (dx * dx + dy * dy + dz * dz >= r2) continue;
			if (a[3] == 0.0f && b[3] == 0.0f) continue;
			if (object[i] == object[j]) {
				const float* ra = w->rest0 + 4 * i;
				const float* rb = w->rest0 + 4 * j;
				float ex = ra[0] - rb[0], ey = ra[1] - rb[1], ez = ra[2] - rb[2];
				if (ex * ex + ey * ey + ez * ez < t2) continue;
			}
			if (out) out[count] = (int64_t)i * n + j;
			count += 1;
		}
	}
	free(object);
	if (out) qsort(out, (size_t)count, sizeof *out, CompareKeys);
	return count;
}

static int BruteForcePairs(pbdWorldId id, int64_t* out) { return PairsWithin(id, pbd_HashGrid_SearchRadius(pbd_GetWorld(id)), out); }

/* The grid's pairs are exactly the brute force's: same set, each pair once, i < j. */
static void CheckPairsAgainstBruteForce(pbdWorldId id, int minExpected)
{
	pbdWorld* w = pbd_GetWorld(id);
	const int n = w->particleCount;
	int found = pbd_World_FindPairs(id);
	ENSURE(found == w->pairCount);
	ENSURE(pbd_HashGrid_DroppedPairs(w) == 0);
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
	ENSURE(AddChain(w, -0.6f, 0.1f, -0.3f, 0.6f, 0.1f, -0.3f, 600) == 0); /* 0.002 m segments: rest neighbours */
	ENSURE(AddChain(w, -2.0f, -0.5f, 0.0f, 2.0f, -0.5f, 0.0f, 40) == 601);
	const float u[3] = { 0.38f, 0, 0 }, v[3] = { 0, 0, 0.38f };
	ENSURE(AddCloth(w, 20, -0.2f, 0.05f, -0.2f, u, v) == 642); /* spacing 0.02: rest neighbours */
	/* created along the first chain: close to it at rest, but another object, so they collide */
	ENSURE(AddChain(w, -0.6f, 0.1f, -0.3f, 0.6f, 0.1f, -0.3f, 300) == 1042);
	const int n = pbd_World_GetParticleCount(w);
	const float cell = pbd_HashGrid_CellSize(pbd_GetWorld(w));
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
	ENSURE(pbd_HashGrid_DroppedPairs(pbd_GetWorld(w)) == total - 32);
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

/* ---------------------------------------------------------------- cloth scenes */

typedef struct Scene {
	pbdWorldId w;
	int lower, upper, n; /* first particles of the two layers, particles per layer */
} Scene;

static const float kT = 0.02f;        /* thickness */
static const int kRes = 20;           /* 20 x 20 particles per cloth */
static const float kSpacing = 0.012f; /* 0.6 thickness: no gap a particle could slip through */

/* Two horizontal 20 x 20 cloths, the upper 3 thickness above the lower and offset by half
   a spacing in x and z, so its particles fall between the lower one's. */
static Scene TwoLayers(int selfCollision, int pinCorners)
{
	Scene sc;
	sc.w = MakeWorld(2 * kRes * kRes, 0);
	pbd_World_SetParam(sc.w, pbdParam_thickness, kT);
	pbd_World_SetParam(sc.w, pbdParam_selfCollision, (float)selfCollision);
	pbd_World_SetParam(sc.w, pbdParam_substeps, 5.0f);
	pbd_World_SetParam(sc.w, pbdParam_iterations, 4.0f);
	const float L = kSpacing * (float)(kRes - 1);
	const float u[3] = { L, 0, 0 }, v[3] = { 0, 0, L };
	const float base = pinCorners ? 0.5f : 0.5f * kT; /* on the ground: centres at the radius */
	sc.lower = AddCloth(sc.w, kRes, -0.5f * L, base, -0.5f * L, u, v);
	sc.upper = AddCloth(sc.w, kRes, -0.5f * L + 0.5f * kSpacing, base + 3.0f * kT, -0.5f * L + 0.5f * kSpacing, u, v);
	sc.n = kRes * kRes;
	if (pinCorners) {
		const int corners[4] = { 0, kRes - 1, kRes * (kRes - 1), kRes * kRes - 1 };
		for (int k = 0; k < 4; ++k) pbd_World_SetInvMass(sc.w, sc.lower + corners[k], 0.0f);
	}
	return sc;
}

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
static float RunTwoLayers(int selfCollision, int pinCorners, int steps, float* gap)
{
	Scene sc = TwoLayers(selfCollision, pinCorners);
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

/* Pair-list reuse (pbd_SelfCollision_Prepare): while every particle is within 0.1 thickness
   of where it was at the search, the kept list holds every pair the brute force finds in
   contact now; a larger move, or a parameter or mass change, searches again. */
void Test_SelfCollisionPairReuse(void)
{
	Scene sc = TwoLayers(1, 0);
	for (int s = 0; s < 40; ++s) pbd_World_Step(sc.w);
	pbdWorld* w = pbd_GetWorld(sc.w);
	const int n = w->particleCount;
	pbd_SelfCollision_Prepare(w);
	ENSURE(w->pairsReusable);
	const float m = 0.1f * kT; /* each particle's reach */
	int64_t* expected = malloc(sizeof(int64_t) * ((size_t)n * (size_t)n / 2 + 1));
	int64_t* got = malloc(sizeof(int64_t) * ((size_t)w->maxContacts + 1));
	uint32_t seed = 99u;
	int reused = 0, checked = 0;
	for (int trial = 0; trial < 20; ++trial) {
		/* every particle jittered by up to 0.9 m from the search positions */
		for (int i = 0; i < n; ++i) {
			for (int k = 0; k < 3; ++k) {
				float u = (float)(TestXorshift32(&seed) >> 8) / 16777216.0f - 0.5f; /* [-0.5, 0.5) */
				w->p[4 * i + k] = w->pairOrigin[4 * i + k] + 0.9f * m * u * 1.1547f; /* |d| < 0.9 m */
			}
		}
		int before = w->pairSearches;
		pbd_SelfCollision_Prepare(w);
		reused += w->pairSearches == before;
		int count = ContactPairs(sc.w, expected);
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
	printf("  %d of 20 jitters kept the list; %d pairs in contact checked present\n", reused, checked);
	ENSURE(reused == 20 && checked > 100);
	/* one particle past its reach: searched again */
	int before = w->pairSearches;
	w->p[4 * 7 + 1] = w->pairOrigin[4 * 7 + 1] + 1.01f * m;
	pbd_SelfCollision_Prepare(w);
	ENSURE(w->pairSearches == before + 1);
	/* a parameter change: searched again even without motion */
	before = w->pairSearches;
	pbd_World_SetParam(sc.w, pbdParam_thickness, kT);
	pbd_SelfCollision_Prepare(w);
	ENSURE(w->pairSearches == before + 1);
	/* a mass change too (pairs of two pins were left out of the list) */
	before = w->pairSearches;
	pbd_World_SetMass(sc.w, 3, 0.01f);
	pbd_SelfCollision_Prepare(w);
	ENSURE(w->pairSearches == before + 1);
	pbd_DestroyWorld(sc.w);
}

/* A towel folded and left to settle, 5 substeps: searched every substep while the edge is
   carried over, far less once it rests; the layers stay apart either way (the fold test). */
void Test_SelfCollisionSearchesLessAtRest(void)
{
	Scene sc = TwoLayers(1, 0);
	pbdWorld* w = pbd_GetWorld(sc.w);
	for (int s = 0; s < 30; ++s) pbd_World_Step(sc.w); /* falling onto the lower layer */
	int falling = w->pairSearches;
	for (int s = 0; s < 120; ++s) pbd_World_Step(sc.w);
	int settling = w->pairSearches - falling;
	for (int s = 0; s < 60; ++s) pbd_World_Step(sc.w);
	int resting = w->pairSearches - falling - settling;
	printf("  searches per step: %.2f falling, %.2f settling, %.2f resting (5 substeps)\n", (double)falling / 30.0,
		   (double)settling / 120.0, (double)resting / 60.0);
	ENSURE(resting <= 60); /* at most one per step at rest, instead of five */
	pbd_DestroyWorld(sc.w);
}

/* Self-collision scenes give the same bits in every build (native, scalar, sanitizers,
   wasm): the pairs' order is a function of the positions only. */
#define PBD_SELF_COLLISION_HASH 0xc423502au
void Test_SelfCollisionDeterminismHash(void)
{
	Scene sc = TwoLayers(1, 1);
	pbd_World_SetParam(sc.w, pbdParam_selfFriction, 0.3f);
	for (int s = 0; s < 150; ++s) pbd_World_Step(sc.w);
	uint32_t hash = pbd_World_Hash(sc.w);
	printf("  self-collision determinism hash 0x%08x\n", hash);
	ENSURE(hash == PBD_SELF_COLLISION_HASH);
	pbd_DestroyWorld(sc.w);
}
