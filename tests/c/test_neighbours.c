/* The neighbour search (neighbours/grid.c) on its own, without a world: the counting sort, and
   pairs and neighbour lists against a brute-force reference that applies grid.h's rules
   directly, with radii per particle, per object or one for all, random phases and every
   filter; random clouds and adversarial ones (all in one cell, coincident particles, far
   from the origin, a NaN, tables so small that rows share buckets and wrap around). */
#include "world/core.h"
#include "neighbours/grid.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static uint32_t s_rng = 1;
static uint32_t RandInt(void) { return TestXorshift32(&s_rng); }
static float Rand01(void) { return (float)(RandInt() >> 8) / (float)(1 << 24); }
static float RandRange(float lo, float hi) { return lo + (hi - lo) * Rand01(); }

/* A particle cloud and how its radii are given. */
typedef struct Cloud {
	int32_t n;
	float* p;    /* float4 */
	float* rest; /* float4 */
	uint32_t* phase;
	float* radii;
	float objectRadius[PBD_MAX_OBJECTS];
	float radius;
	int mode; /* 0: one radius, 1: per particle, 2: per object */
} Cloud;

static Cloud NewCloud(int32_t n)
{
	Cloud c;
	memset(&c, 0, sizeof c);
	c.n = n;
	c.p = calloc((size_t)n * 4 + 4, sizeof(float));
	c.rest = calloc((size_t)n * 4 + 4, sizeof(float));
	c.phase = calloc((size_t)n + 1, sizeof(uint32_t));
	c.radii = calloc((size_t)n + 1, sizeof(float));
	return c;
}

static void FreeCloud(Cloud* c) { free(c->p), free(c->rest), free(c->phase), free(c->radii); }

static uint32_t Phase(uint32_t object, uint32_t group, uint32_t flags) { return object | group << PBD_PHASE_GROUP_SHIFT | flags; }

/* The reference: grid.h's rules written out, the arithmetic in the grid's order. */
static float Sane(float r) { return r > 0.0f && r <= 3e38f ? r : 0.0f; }
static float RadiusOf(const Cloud* c, int32_t i)
{
	if (c->mode == 0) return Sane(c->radius);
	if (c->mode == 1) return Sane(c->radii[i]);
	return Sane(c->objectRadius[c->phase[i] & PBD_PHASE_OBJECT_MASK]);
}

static int Meet(const Cloud* c, const pbdGridFilter* f, int32_t i, int32_t j)
{
	const uint32_t pi = c->phase[i], pj = c->phase[j];
	if ((pi | pj) & PBD_PHASE_NO_COLLIDE) return 0;
	const int sameGroup = (pi & PBD_PHASE_GROUP_MASK) == (pj & PBD_PHASE_GROUP_MASK);
	if (sameGroup ? !(f->sameGroup && (pi & PBD_PHASE_SELF) && (pj & PBD_PHASE_SELF)) : !f->otherGroups) return 0;
	const float *a = c->p + 4 * i, *b = c->p + 4 * j;
	if (!f->keepPinned && a[3] == 0.0f && b[3] == 0.0f) return 0;
	if (f->restDistance > 0.0f && (pi & PBD_PHASE_OBJECT_MASK) == (pj & PBD_PHASE_OBJECT_MASK)) {
		const float *ra = c->rest + 4 * i, *rb = c->rest + 4 * j;
		const float ex = ra[0] - rb[0], ey = ra[1] - rb[1], ez = ra[2] - rb[2];
		if ((ex * ex + ey * ey) + ez * ez < f->restDistance * f->restDistance) return 0;
	}
	const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	const float d2 = (dx * dx + dy * dy) + dz * dz;
	float r2;
	if (c->mode == 0) {
		r2 = RadiusOf(c, i) * RadiusOf(c, i);
	} else {
		const float rij = (RadiusOf(c, i) + RadiusOf(c, j)) * 0.5f;
		r2 = rij * rij;
	}
	return d2 < r2;
}

static float Distance(const Cloud* c, int32_t i, int32_t j) { return TestDistance(c->p, i, j); }

static int CompareKeys(const void* a, const void* b)
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return (x > y) - (x < y);
}

/* The grid for a cloud: its own pool and scratch. */
typedef struct Search {
	pbdPool pool;
	pbdGrid grid;
	void* scratch;
	size_t scratchBytes;
} Search;

static int Build(Search* s, const Cloud* c, int32_t maxParticles)
{
	if (!pbd_PoolReserve(&s->pool, pbd_Grid_Bytes(maxParticles))) return 0;
	if (!pbd_Grid_Create(&s->grid, &s->pool, maxParticles)) return 0;
	s->scratchBytes = pbd_Grid_ScratchBytes(c->n);
	s->scratch = malloc(s->scratchBytes);
	pbdGridInput in;
	memset(&in, 0, sizeof in);
	in.positions = c->p, in.rest = c->rest, in.phase = c->phase, in.count = c->n;
	if (c->mode == 0) in.radius = c->radius;
	if (c->mode == 1) in.radii = c->radii;
	if (c->mode == 2) in.objectRadius = c->objectRadius;
	return pbd_Grid_Build(&s->grid, &in, s->scratch, s->scratchBytes);
}

static void Release(Search* s)
{
	pbd_PoolRelease(&s->pool);
	free(s->scratch);
}

/* Every particle once in the sorted slots, in its own bucket, each bucket in increasing order. */
static int CountingSortValid(const pbdGrid* g, const Cloud* c)
{
	const int32_t T = g->buckets, n = c->n;
	if (!(T >= 2 && (T & (T - 1)) == 0 && T <= g->tableSize && (T >= 2 * n || T == g->tableSize))) return 0;
	if (g->cellStart[0] != 0 || g->cellStart[T] != n) return 0;
	char* seen = calloc((size_t)n + 1, 1);
	int ok = 1, placed = 0;
	for (int32_t b = 0; b < T && ok; ++b) {
		ok = g->cellStart[b] <= g->cellStart[b + 1];
		for (int32_t k = g->cellStart[b]; k < g->cellStart[b + 1] && ok; ++k) {
			const int32_t i = g->cellEntries[k];
			ok = i >= 0 && i < n && !seen[i] && pbd_Grid_Bucket(g, c->p + 4 * i) == b && (k == g->cellStart[b] || g->cellEntries[k - 1] < i);
			if (ok) seen[i] = 1, placed += 1;
		}
	}
	free(seen);
	return ok && placed == n;
}

/* Pairs: the grid's are the reference's, each once, i < j. With `near` (far from the origin,
   where the cell rounding may lose a pair at nearly the radius, grid.c CELL_SLACK) the grid's
   must be true pairs and hold every reference pair closer than 0.99 of its radius. Returns the
   count, or -1 on a mismatch. */
static int32_t CheckPairs(Search* s, const Cloud* c, const pbdGridFilter* f, int near)
{
	const int32_t n = c->n;
	const int32_t capacity = (n < 2000 ? n * (n - 1) / 2 : n * 40) + 16;
	int32_t* pairs = malloc(sizeof(int32_t) * 2 * (size_t)capacity);
	int64_t* got = malloc(sizeof(int64_t) * (size_t)capacity);
	int64_t* want = malloc(sizeof(int64_t) * ((size_t)n * (size_t)n / 2 + 1));
	const int32_t found = pbd_Grid_FindPairs(&s->grid, f, pairs, capacity);
	int32_t expected = 0;
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t j = i + 1; j < n; ++j) {
			if (Meet(c, f, i, j)) want[expected++] = (int64_t)i * n + j;
		}
	}
	int ok = s->grid.dropped == 0 && found <= capacity;
	for (int32_t k = 0; k < found && ok; ++k) {
		ok = pairs[2 * k] >= 0 && pairs[2 * k] < pairs[2 * k + 1] && pairs[2 * k + 1] < n;
		got[k] = (int64_t)pairs[2 * k] * n + pairs[2 * k + 1];
	}
	if (ok) {
		qsort(got, (size_t)found, sizeof *got, CompareKeys);
		for (int32_t k = 1; k < found && ok; ++k) ok = got[k] != got[k - 1];
		if (!near) {
			ok = ok && found == expected && memcmp(got, want, sizeof(int64_t) * (size_t)expected) == 0;
		} else {
			for (int32_t k = 0; k < found && ok; ++k) ok = Meet(c, f, (int32_t)(got[k] / n), (int32_t)(got[k] % n));
			for (int32_t e = 0, k = 0; e < expected && ok; ++e) {
				const int32_t i = (int32_t)(want[e] / n), j = (int32_t)(want[e] % n);
				while (k < found && got[k] < want[e]) ++k;
				const float rij = c->mode == 0 ? RadiusOf(c, i) : 0.5f * (RadiusOf(c, i) + RadiusOf(c, j));
				ok = (k < found && got[k] == want[e]) || Distance(c, i, j) >= 0.99f * rij;
			}
		}
	}
	if (!ok) printf("  FAILED: grid %d pairs, reference %d (dropped %d)\n", found, expected, s->grid.dropped);
	free(pairs), free(got), free(want);
	return ok ? expected : -1;
}

/* Lists: each particle's neighbours are the reference's, its list starts on a multiple of 4 and
   is padded with itself, lists do not overlap and `used` covers them exactly. */
static int CheckLists(Search* s, const Cloud* c, const pbdGridFilter* f)
{
	const int32_t n = c->n;
	pbdNeighbourLists lists;
	lists.capacity = (n < 2000 ? n * (n - 1) : n * 80) + 4 * n + 64;
	lists.start = malloc(sizeof(int32_t) * (size_t)n);
	lists.count = malloc(sizeof(int32_t) * (size_t)n);
	lists.indices = malloc(sizeof(int32_t) * (size_t)lists.capacity);
	int32_t* mine = malloc(sizeof(int32_t) * (size_t)n);
	char* owner = calloc((size_t)lists.capacity, 1);
	const int32_t total = pbd_Grid_FindLists(&s->grid, f, &lists);
	int ok = lists.dropped == 0;
	int32_t sum = 0, padded = 0;
	for (int32_t i = 0; i < n && ok; ++i) {
		int32_t m = 0;
		for (int32_t j = 0; j < n; ++j) {
			if (j != i && (i < j ? Meet(c, f, i, j) : Meet(c, f, j, i))) mine[m++] = j;
		}
		const int32_t st = lists.start[i], k = lists.count[i];
		const int32_t end = st + ((k + 3) & ~3);
		ok = k == m && (st & 3) == 0 && st >= 0 && end <= lists.used;
		for (int32_t e = st; e < end && ok; ++e) {
			ok = !owner[e] && (e < st + k || lists.indices[e] == i);
			owner[e] = 1;
		}
		/* the same set: sort both */
		for (int32_t a = 0; a < k && ok; ++a) {
			int32_t found = 0;
			for (int32_t b = 0; b < m; ++b) found |= mine[b] == lists.indices[st + a];
			ok = found;
		}
		sum += k;
		padded += (k + 3) & ~3;
	}
	ok = ok && total == sum && lists.used == padded;
	if (!ok) printf("  FAILED: neighbour lists differ from the reference (%d neighbours)\n", total);
	free(lists.start), free(lists.count), free(lists.indices), free(mine), free(owner);
	return ok;
}

/* The filters the tests go through: the contacts family's three settings, lists-style ones
   (pins kept, no rest filter), and none. */
static pbdGridFilter Filter(int k, float restDistance)
{
	pbdGridFilter f = pbd_Grid_ContactFilter(k & 1, (k >> 1) & 1, restDistance);
	f.keepPinned = (k >> 2) & 1;
	return f;
}

/* One cloud through every radius mode and filter, pairs and lists. minPairs: what the cloud
   must produce with everything on, so a search that finds nothing cannot pass. */
static void CheckCloud(Cloud* c, float restDistance, int near, int32_t minPairs, int lists)
{
	for (int mode = 0; mode < 3 && !g_testFailed; ++mode) {
		c->mode = mode;
		Search s;
		ENSURE(Build(&s, c, c->n + 5));
		if (!near) ENSURE(CountingSortValid(&s.grid, c));
		for (int k = 0; k < 8 && !g_testFailed; ++k) {
			if ((k & 3) == 0 && k != 0) continue; /* no kind of pair: once is enough */
			const pbdGridFilter f = Filter(k, (k & 4) ? 0.0f : restDistance);
			const int32_t expected = CheckPairs(&s, c, &f, near);
			if (expected < 0) g_testFailed = 1;
			if (k == 3 && mode == 0 && expected < minPairs) {
				printf("  FAILED: only %d pairs, the cloud should give at least %d\n", expected, minPairs);
				g_testFailed = 1;
			}
			if (lists && !g_testFailed && !CheckLists(&s, c, &f)) g_testFailed = 1;
		}
		Release(&s);
	}
}

/* Random phases: six objects, mostly a group each, SELF on most, NO_COLLIDE on a few. Radii of
   three sizes per particle and per object, pins on a fifth. */
static void RandomPhasesAndRadii(Cloud* c, float r)
{
	for (int32_t i = 0; i < c->n; ++i) {
		const uint32_t object = RandInt() % 6u;
		const uint32_t group = RandInt() % 10u < 7u ? object : RandInt() % 3u;
		uint32_t flags = RandInt() % 10u < 7u ? PBD_PHASE_SELF : 0u;
		if (RandInt() % 20u == 0u) flags |= PBD_PHASE_NO_COLLIDE;
		c->phase[i] = Phase(object, group, flags);
		c->radii[i] = r * (float)(1 + RandInt() % 3u) / 3.0f;
		c->p[4 * i + 3] = RandInt() % 5u == 0u ? 0.0f : 1.0f;
	}
	c->radius = r;
	for (int o = 0; o < PBD_MAX_OBJECTS; ++o) c->objectRadius[o] = r * (float)(1 + o % 3) / 3.0f;
}

void Test_NeighbourCountingSort(void)
{
	s_rng = 11;
	Cloud c = NewCloud(3000);
	const float r = 0.05f, cell = r * 1.0009765625f;
	for (int32_t i = 0; i < c.n; ++i) {
		float* p = c.p + 4 * i;
		if (i % 3 == 0) { /* on cell boundaries, both signs */
			for (int k = 0; k < 3; ++k) p[k] = (float)((int)(RandInt() % 41u) - 20) * cell;
		} else {
			for (int k = 0; k < 3; ++k) p[k] = RandRange(-3, 3);
		}
		p[3] = 1.0f;
	}
	c.radius = r;
	Search s;
	ENSURE(Build(&s, &c, c.n));
	ENSURE(CountingSortValid(&s.grid, &c));
	Release(&s);
	for (int32_t i = 0; i < c.n; ++i) c.p[4 * i] = RandRange(-0.1f, 0.1f), c.p[4 * i + 1] = RandRange(-0.1f, 0.1f), c.p[4 * i + 2] = 0.0f;
	ENSURE(Build(&s, &c, 2 * c.n)); /* clustered, in a table reserved for twice the particles */
	ENSURE(CountingSortValid(&s.grid, &c));
	Release(&s);
	/* refused: more particles than reserved, or too little scratch; an empty grid finds nothing */
	ENSURE(pbd_PoolReserve(&s.pool, pbd_Grid_Bytes(100)) && pbd_Grid_Create(&s.grid, &s.pool, 100));
	pbdGridInput in = { c.p, NULL, NULL, 101, r, NULL, NULL };
	void* scratch = malloc(pbd_Grid_ScratchBytes(101));
	ENSURE(!pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(101)));
	in.count = 100;
	ENSURE(!pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(100) - 1));
	int32_t pair[2];
	const pbdGridFilter f = pbd_Grid_ContactFilter(1, 1, 0.0f);
	ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pair, 1) == 0);
	ENSURE(pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(100)));
	ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pair, 1) == 1 && s.grid.dropped > 0);
	in.radius = -1.0f; /* no usable radius: an empty grid */
	ENSURE(!pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(100)));
	ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pair, 1) == 0);
	free(scratch);
	pbd_PoolRelease(&s.pool);
	FreeCloud(&c);
}

/* A random cloud: rest-pose neighbours (rest = position, for about a third), scattered
   particles, cell boundaries and one float step either side, a clump of coincident particles,
   negative coordinates; then the same moved far from the origin. */
void Test_NeighbourPairsAndListsMatchBruteForce(void)
{
	s_rng = 2024;
	Cloud c = NewCloud(1200);
	const float r = 0.06f;
	RandomPhasesAndRadii(&c, r);
	for (int32_t i = 0; i < c.n; ++i) {
		float* p = c.p + 4 * i;
		float* q = c.rest + 4 * i;
		const uint32_t kind = RandInt() % 10u;
		for (int k = 0; k < 3; ++k) q[k] = RandRange(-0.5f, 0.5f);
		if (kind < 3) {
			for (int k = 0; k < 3; ++k) p[k] = q[k] + RandRange(-0.01f, 0.01f); /* near its rest place */
		} else if (kind < 7) {
			for (int k = 0; k < 3; ++k) p[k] = RandRange(-0.5f, 0.5f);
		} else if (kind < 9) {
			for (int k = 0; k < 3; ++k) {
				const float b = (float)((int)(RandInt() % 13u) - 8) * r * 1.0009765625f;
				const uint32_t side = RandInt() % 3u;
				p[k] = side == 0 ? b : side == 1 ? nextafterf(b, -1e9f) : nextafterf(b, 1e9f);
			}
		} else {
			p[0] = -0.3f, p[1] = -0.2f, p[2] = 0.1f; /* coincident */
		}
	}
	CheckCloud(&c, 0.8f * r, 0, 2000, 1);
	/* Moved 250 m out (about 4000 cells of the largest radius: still exact), then scaled by 40
	   and moved 9e4 m out (37,500 cells; float steps there are 0.008 m), where the cell rounding
	   may lose a pair at nearly its radius but none closer (grid.c CELL_SLACK). */
	float* local = malloc(sizeof(float) * 8 * (size_t)c.n);
	memcpy(local, c.p, sizeof(float) * 4 * (size_t)c.n);
	memcpy(local + 4 * c.n, c.rest, sizeof(float) * 4 * (size_t)c.n);
	for (int far = 0; far < 2 && !g_testFailed; ++far) {
		const float o[3] = { far ? 9e4f : 250.0f, far ? -9e4f : -200.0f, far ? 5e4f : 150.0f };
		const float scale = far ? 40.0f : 1.0f;
		for (int32_t i = 0; i < c.n; ++i) {
			for (int k = 0; k < 3; ++k) {
				c.p[4 * i + k] = o[k] + scale * local[4 * i + k];
				c.rest[4 * i + k] = o[k] + scale * local[4 * (c.n + i) + k];
			}
		}
		c.radius = r * scale;
		for (int32_t i = 0; i < c.n; ++i) c.radii[i] *= scale;
		for (int k = 0; k < PBD_MAX_OBJECTS; ++k) c.objectRadius[k] *= scale;
		CheckCloud(&c, 0.8f * r * scale, far, 2000, 0);
	}
	free(local);
	FreeCloud(&c);
}

/* Adversarial clouds: every particle in one cell; every particle at one point (mixed phases,
   so the filters decide alone); a NaN among them (met by nothing); tiny tables (8 particles,
   16 buckets: neighbour rows share buckets and wrap around the table). */
void Test_NeighbourAdversarialClouds(void)
{
	s_rng = 7;
	const float r = 0.05f;
	Cloud c = NewCloud(500);
	RandomPhasesAndRadii(&c, r);
	for (int32_t i = 0; i < c.n; ++i) {
		for (int k = 0; k < 3; ++k) c.p[4 * i + k] = 1.0f + RandRange(0.0f, 0.2f * r), c.rest[4 * i + k] = RandRange(-1, 1);
	}
	CheckCloud(&c, 0.5f, 0, 20000, 1);
	for (int32_t i = 0; i < c.n; ++i) {
		for (int k = 0; k < 3; ++k) c.p[4 * i + k] = -0.25f, c.rest[4 * i + k] = (float)(i % 7) * 0.1f;
	}
	CheckCloud(&c, 0.15f, 0, 20000, 1);
	c.p[4 * 17] = nanf("");
	CheckCloud(&c, 0.15f, 0, 20000, 1);
	FreeCloud(&c);

	for (int trial = 0; trial < 200 && !g_testFailed; ++trial) {
		Cloud t = NewCloud(8);
		RandomPhasesAndRadii(&t, 0.1f);
		for (int32_t i = 0; i < 8; ++i) {
			for (int k = 0; k < 3; ++k) t.p[4 * i + k] = RandRange(-0.2f, 0.2f), t.rest[4 * i + k] = RandRange(-0.2f, 0.2f);
		}
		CheckCloud(&t, 0.05f, 0, 0, 1);
		FreeCloud(&t);
	}
}

/* The phase rules on six particles, by hand: A1, A2 of group A with SELF, A3 of group A
   without, B1 of group B, C1 of group C with NO_COLLIDE, A4 of group A, another object, SELF;
   all within reach of each other. */
void Test_NeighbourPhaseRules(void)
{
	Cloud c = NewCloud(6);
	const uint32_t phases[6] = { Phase(0, 0, PBD_PHASE_SELF), Phase(0, 0, PBD_PHASE_SELF), Phase(0, 0, 0),
								 Phase(1, 1, PBD_PHASE_SELF), Phase(2, 2, PBD_PHASE_SELF | PBD_PHASE_NO_COLLIDE),
								 Phase(3, 0, PBD_PHASE_SELF) };
	for (int32_t i = 0; i < 6; ++i) {
		c.phase[i] = phases[i];
		c.p[4 * i] = 0.01f * (float)i, c.p[4 * i + 3] = 1.0f;
		c.rest[4 * i] = 0.001f * (float)i; /* rest-pose neighbours of each other, within one object */
	}
	c.radius = 1.0f;
	Search s;
	ENSURE(Build(&s, &c, 6));
	struct { int self, others; float rest; int count; int64_t keys[15]; } cases[] = {
		/* self only: A1-A2, A1-A4, A2-A4 (A4 is another object of group A) */
		{ 1, 0, 0.0f, 3, { 0 * 6 + 1, 0 * 6 + 5, 1 * 6 + 5 } },
		/* others only: every A with B1 (A3 too: SELF is only about its own group) */
		{ 0, 1, 0.0f, 4, { 0 * 6 + 3, 1 * 6 + 3, 2 * 6 + 3, 3 * 6 + 5 } },
		/* both */
		{ 1, 1, 0.0f, 7, { 0 * 6 + 1, 0 * 6 + 3, 0 * 6 + 5, 1 * 6 + 3, 1 * 6 + 5, 2 * 6 + 3, 3 * 6 + 5 } },
		/* both, rest-pose neighbours of one object left out: A1-A2 goes (A4 is another object) */
		{ 1, 1, 0.1f, 6, { 0 * 6 + 3, 0 * 6 + 5, 1 * 6 + 3, 1 * 6 + 5, 2 * 6 + 3, 3 * 6 + 5 } },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		const pbdGridFilter f = pbd_Grid_ContactFilter(cases[k].self, cases[k].others, cases[k].rest);
		int32_t pairs[30];
		const int32_t n = pbd_Grid_FindPairs(&s.grid, &f, pairs, 15);
		int64_t got[15];
		for (int32_t e = 0; e < n; ++e) got[e] = (int64_t)pairs[2 * e] * 6 + pairs[2 * e + 1];
		qsort(got, (size_t)n, sizeof got[0], CompareKeys);
		ENSURE(n == cases[k].count && memcmp(got, cases[k].keys, sizeof(int64_t) * (size_t)n) == 0);
	}
	/* two pins never meet unless asked */
	c.p[3] = c.p[7] = 0.0f;
	Release(&s);
	ENSURE(Build(&s, &c, 6));
	pbdGridFilter f = pbd_Grid_ContactFilter(1, 0, 0.0f);
	int32_t pairs[30];
	ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pairs, 15) == 2);
	f.keepPinned = 1;
	ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pairs, 15) == 3);
	Release(&s);
	FreeCloud(&c);
}

/* Radii: per object, a pair meets at (r_i + r_j) / 2; per particle the same; one radius for all
   gives the same pairs and order as equal radii per particle (the bits the contacts family's
   hash depends on). */
void Test_NeighbourRadiiMean(void)
{
	Cloud c = NewCloud(2);
	c.phase[0] = Phase(0, 0, PBD_PHASE_SELF), c.phase[1] = Phase(1, 1, PBD_PHASE_SELF);
	c.p[3] = c.p[7] = 1.0f;
	c.objectRadius[0] = 0.1f, c.objectRadius[1] = 0.02f;
	c.mode = 2;
	const pbdGridFilter f = pbd_Grid_ContactFilter(1, 1, 0.0f);
	const float gaps[2] = { 0.0599f, 0.0601f };
	for (int k = 0; k < 2; ++k) {
		c.p[4] = gaps[k];
		Search s;
		ENSURE(Build(&s, &c, 2));
		int32_t pair[2];
		ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pair, 1) == (k == 0));
		Release(&s);
	}
	FreeCloud(&c);

	/* The largest radius sizes the cells, wherever it is: particle 0 of a row spaced 0.1 apart
	   has radius 2, the rest 0.01, so it meets the ten within (2 + 0.01) / 2. */
	for (int big = 0; big < 2; ++big) {
		Cloud row = NewCloud(50);
		for (int32_t i = 0; i < row.n; ++i) {
			row.p[4 * i] = 0.1f * (float)i, row.p[4 * i + 3] = 1.0f;
			row.phase[i] = Phase(0, 0, PBD_PHASE_SELF);
			row.radii[i] = 0.01f;
		}
		const int32_t at = big ? row.n - 1 : 0;
		row.radii[at] = 2.0f;
		row.mode = 1;
		Search s;
		ENSURE(Build(&s, &row, row.n));
		const pbdGridFilter f = pbd_Grid_ContactFilter(1, 1, 0.0f);
		ENSURE(CheckPairs(&s, &row, &f, 0) == 10);
		Release(&s);
		FreeCloud(&row);
	}

	s_rng = 31;
	Cloud d = NewCloud(2000);
	RandomPhasesAndRadii(&d, 0.08f);
	for (int32_t i = 0; i < d.n; ++i) {
		for (int k = 0; k < 3; ++k) d.p[4 * i + k] = RandRange(-0.5f, 0.5f), d.rest[4 * i + k] = d.p[4 * i + k];
		d.radii[i] = 0.08f;
	}
	int32_t* a = malloc(sizeof(int32_t) * 2 * 100000);
	int32_t* b = malloc(sizeof(int32_t) * 2 * 100000);
	Search s;
	d.mode = 0;
	ENSURE(Build(&s, &d, d.n));
	const pbdGridFilter g = pbd_Grid_ContactFilter(1, 1, 0.02f);
	const int32_t na = pbd_Grid_FindPairs(&s.grid, &g, a, 100000);
	Release(&s);
	d.mode = 1;
	ENSURE(Build(&s, &d, d.n));
	const int32_t nb = pbd_Grid_FindPairs(&s.grid, &g, b, 100000);
	Release(&s);
	printf("  %d pairs with one radius, %d with equal radii per particle\n", na, nb);
	ENSURE(na > 1000 && na == nb && memcmp(a, b, sizeof(int32_t) * 2 * (size_t)na) == 0);
	free(a), free(b);
	FreeCloud(&d);
}

/* Past the capacity: pairs keep the first `capacity` and count the rest; lists cut short keep
   true neighbours, padded, and count what did not fit. */
void Test_NeighbourCapacity(void)
{
	s_rng = 5;
	Cloud c = NewCloud(400);
	RandomPhasesAndRadii(&c, 0.05f);
	for (int32_t i = 0; i < c.n; ++i) {
		for (int k = 0; k < 3; ++k) c.p[4 * i + k] = RandRange(-0.1f, 0.1f);
	}
	Search s;
	ENSURE(Build(&s, &c, c.n));
	const pbdGridFilter f = pbd_Grid_ContactFilter(1, 1, 0.0f);
	int32_t* pairs = malloc(sizeof(int32_t) * 2 * 100000);
	const int32_t total = pbd_Grid_FindPairs(&s.grid, &f, pairs, 100000);
	printf("  %d pairs\n", total);
	ENSURE(total > 2000 && s.grid.dropped == 0);
	ENSURE(pbd_Grid_FindPairs(&s.grid, &f, pairs, 32) == 32 && s.grid.dropped == total - 32);
	for (int32_t k = 0; k < 32; ++k) ENSURE(Meet(&c, &f, pairs[2 * k], pairs[2 * k + 1]));
	pbdNeighbourLists lists;
	pbdPool pool;
	ENSURE(pbd_PoolReserve(&pool, pbd_NeighbourLists_Bytes(c.n, 1001)));
	ENSURE(pbd_NeighbourLists_Create(&lists, &pool, c.n, 1001)); /* not a multiple of 4: the lists use 1000 */
	lists.indices[1000] = -12345;
	const int32_t stored = pbd_Grid_FindLists(&s.grid, &f, &lists);
	ENSURE(stored + lists.dropped == 2 * total && lists.used <= 1000 && lists.indices[1000] == -12345);
	for (int32_t i = 0; i < c.n; ++i) {
		const int32_t st = lists.start[i], k = lists.count[i];
		ENSURE((st & 3) == 0 && st + ((k + 3) & ~3) <= lists.used);
		for (int32_t e = 0; e < k; ++e) {
			const int32_t j = lists.indices[st + e];
			ENSURE(j != i && (i < j ? Meet(&c, &f, i, j) : Meet(&c, &f, j, i)));
		}
		for (int32_t e = k; e < ((k + 3) & ~3); ++e) ENSURE(lists.indices[st + e] == i);
	}
	pbd_PoolRelease(&pool);
	free(pairs);
	Release(&s);
	FreeCloud(&c);
}
