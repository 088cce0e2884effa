/* The neighbour search (neighbours/grid.c) on its own, without a world: the counting sort, and
   pairs and neighbour lists against the brute-force reference of test_neighbour_reference.h, with
   radii per particle, per object or one for all, random phases and every filter; random clouds and
   adversarial ones (all in one cell, coincident particles, far from the origin, a NaN, tables so
   small that rows share buckets and wrap around). */
#include "test_neighbour_reference.h"

#include <stdlib.h>
#include <string.h>

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

/* Lists: each particle's neighbours are the reference's, its list starts on a multiple of 4 and
   is padded with itself, lists do not overlap and `used` covers them exactly. */
static int CheckLists(Search* s, const Cloud* c)
{
	const pbdGridFilter* f = &s->grid.filter;
	const int32_t n = c->n;
	pbdNeighbourLists lists;
	lists.capacity = (n < 2000 ? n * (n - 1) : n * 80) + 4 * n + 64;
	lists.start = malloc(sizeof(int32_t) * (size_t)n);
	lists.count = malloc(sizeof(int32_t) * (size_t)n);
	lists.indices = malloc(sizeof(int32_t) * (size_t)lists.capacity);
	int32_t* mine = malloc(sizeof(int32_t) * (size_t)n);
	char* owner = calloc((size_t)lists.capacity, 1);
	const int32_t workCapacity = lists.capacity / 2 + 4;
	int32_t* work = malloc(sizeof(int32_t) * (size_t)workCapacity);
	int ok = pbd_Grid_FindLists(NULL, &s->grid, &lists, work, workCapacity) == 1 && lists.dropped == 0;
	int32_t total = 0;
	for (int32_t i = 0; i < n; ++i) total += lists.count[i];
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
	(void)total;
	if (!ok) printf("  FAILED: neighbour lists differ from the reference (%d neighbours)\n", total);
	free(lists.start), free(lists.count), free(lists.indices), free(mine), free(owner), free(work);
	return ok;
}

/* The filters the tests go through: the contacts family's three settings, lists-style ones
   (pins kept, no rest filter), and none. */
static pbdGridFilter Filter(int k, float restDistance)
{
	pbdGridFilter f = ContactRule(k & 1, (k >> 1) & 1, restDistance);
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
		const pbdGridFilter f0 = Filter(0, restDistance);
		ENSURE(Build(&s, c, c->n + 5, &f0));
		if (!near) ENSURE(CountingSortValid(&s.grid, c));
		for (int k = 0; k < 8 && !g_testFailed; ++k) {
			if ((k & 3) == 0 && k != 0) continue; /* no kind of pair: once is enough */
			const pbdGridFilter f = Filter(k, (k & 4) ? 0.0f : restDistance);
			ENSURE(Rebuild(&s, c, &f));
			const int32_t expected = CheckPairs(&s, c, near);
			if (expected < 0) g_testFailed = 1;
			if (k == 3 && mode == 0 && expected < minPairs) {
				printf("  FAILED: only %d pairs, the cloud should give at least %d\n", expected, minPairs);
				g_testFailed = 1;
			}
			if (lists && !g_testFailed && !CheckLists(&s, c)) g_testFailed = 1;
		}
		Release(&s);
	}
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
	const pbdGridFilter f = ContactRule(1, 1, 0.0f);
	ENSURE(Build(&s, &c, c.n, &f));
	ENSURE(CountingSortValid(&s.grid, &c));
	Release(&s);
	for (int32_t i = 0; i < c.n; ++i) c.p[4 * i] = RandRange(-0.1f, 0.1f), c.p[4 * i + 1] = RandRange(-0.1f, 0.1f), c.p[4 * i + 2] = 0.0f;
	ENSURE(Build(&s, &c, 2 * c.n, &f)); /* clustered, in a table reserved for twice the particles */
	ENSURE(CountingSortValid(&s.grid, &c));
	Release(&s);
	/* refused: more particles than reserved, or too little scratch; an empty grid finds nothing */
	ENSURE(pbd_PoolReserve(&s.pool, pbd_Grid_Bytes(100)) && pbd_Grid_Create(&s.grid, &s.pool, 100));
	pbdGridInput in;
	memset(&in, 0, sizeof in);
	in.positions = c.p, in.count = 101, in.radius = r, in.filter = f;
	void* scratch = malloc(pbd_Grid_ScratchBytes(101));
	ENSURE(!pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(101)));
	in.count = 100;
	ENSURE(!pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(100) - 1));
	int32_t pair[2];
	ENSURE(pbd_Grid_FindPairs(&s.grid, pair, 1) == 0);
	ENSURE(pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(100)));
	ENSURE(pbd_Grid_FindPairs(&s.grid, pair, 1) == 1 && s.grid.dropped > 0);
	in.radius = -1.0f; /* no usable radius: an empty grid */
	ENSURE(!pbd_Grid_Build(&s.grid, &in, scratch, pbd_Grid_ScratchBytes(100)));
	ENSURE(pbd_Grid_FindPairs(&s.grid, pair, 1) == 0);
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

/* ---------------------------------------------------------------- swept triangles (neighbours/triangles.c) */

#include "neighbours/triangles.h"

static int CountVisit(void* data, int32_t t)
{
	uint8_t* seen = data;
	seen[t] = 1;
	return 1;
}

/* The swept triangles' grid finds every triangle whose swept box (start to end, grown by the margin) meets a
   query box, against brute force: 400 triangles of 2-4 cm moving up to 3 cm, a tenth of them stretched to
   0.5-1.5 m (cells past the budget: the cell doubles), and 300 query boxes (a fluid particle's path), two
   thirds near a triangle; the triangles a range leaves out and those outside both `within` boxes are never found. */
void Test_TriangleIndexMatchesBruteForce(void)
{
	enum { T = 400, P = 3 * T, Q = 300 };
	static float a[4 * P], b[4 * P];
	static uint32_t tri[3 * T];
	static uint8_t seen[T];
	static uint8_t scratch[1 << 20];
	uint32_t rng = 12345u;
	const float u = 1.0f / 4294967296.0f;
	for (int t = 0; t < T; ++t) {
		const float c[3] = { (float)TestXorshift32(&rng) * u, (float)TestXorshift32(&rng) * u, (float)TestXorshift32(&rng) * u };
		const float size = (t % 10 == 7) ? 0.5f + (float)TestXorshift32(&rng) * u : 0.02f + 0.02f * (float)TestXorshift32(&rng) * u;
		for (int v = 0; v < 3; ++v) {
			const int i = 3 * t + v;
			tri[i] = (uint32_t)i;
			for (int k = 0; k < 3; ++k) {
				a[4 * i + k] = c[k] + size * ((float)TestXorshift32(&rng) * u - 0.5f);
				b[4 * i + k] = a[4 * i + k] + 0.03f * ((float)TestXorshift32(&rng) * u - 0.5f);
			}
			a[4 * i + 3] = b[4 * i + 3] = 1.0f;
		}
	}
	const float margin = 0.005f;
	/* two boxes: what lies wholly past z = 0.8 is left out, but for what reaches past z = 0.9 at x >= 0.5 */
	const float within[12] = { -1.0f, -1.0f, -1.0f, 2.0f, 2.0f, 0.8f, 0.5f, -1.0f, 0.9f, 2.0f, 2.0f, 2.0f };
	const int32_t ranges[4] = { 0, 150, 200, 200 };                       /* leaves out triangles 150 .. 199 */
	pbdTriangleIndex index;
	ENSURE(pbd_TriangleIndex_ScratchBytes(T) <= sizeof scratch);
	const int32_t kept = pbd_TriangleIndex_Build(&index, tri, ranges, 2, a, b, margin, 0.04f, within, 2, scratch, sizeof scratch);
	ENSURE(kept > 0 && kept <= 350);
	ENSURE(index.cell > 0.04f); /* the stretched ones made it double */
	int found = 0;
	for (int q = 0; q < Q; ++q) {
		float lo[3], hi[3];
		const int near = q % 3 != 0;
		for (int k = 0; k < 3; ++k) {
			const float centre = near ? a[4 * (3 * (q % T)) + k] : (float)TestXorshift32(&rng) * u;
			const float half = 0.001f + 0.02f * (float)TestXorshift32(&rng) * u;
			lo[k] = centre - half, hi[k] = centre + half;
		}
		memset(seen, 0, sizeof seen);
		pbd_TriangleIndex_Query(&index, lo, hi, CountVisit, seen);
		for (int t = 0; t < T; ++t) {
			float box[6] = { 3e38f, 3e38f, 3e38f, -3e38f, -3e38f, -3e38f };
			for (int v = 0; v < 3; ++v) {
				for (int k = 0; k < 3; ++k) {
					const float pa = a[4 * (3 * t + v) + k], pb = b[4 * (3 * t + v) + k];
					box[k] = fminf(box[k], fminf(pa, pb)), box[3 + k] = fmaxf(box[3 + k], fmaxf(pa, pb));
				}
			}
			for (int k = 0; k < 3; ++k) box[k] -= margin, box[3 + k] += margin;
			const int inRanges = t < 150 || t >= 200;
			int inWithin = 0;
			for (int w = 0; w < 2; ++w) {
				const float* in = within + 6 * w;
				inWithin |= box[3] >= in[0] && box[0] <= in[3] && box[4] >= in[1] && box[1] <= in[4] && box[5] >= in[2] && box[2] <= in[5];
			}
			const int meets = box[3] >= lo[0] && box[0] <= hi[0] && box[4] >= lo[1] && box[1] <= hi[1] && box[5] >= lo[2] && box[2] <= hi[2];
			const int expect = inRanges && inWithin && meets;
			if (seen[t] != expect) printf("  query %d triangle %d: found %d, brute force %d\n", q, t, seen[t], expect);
			ENSURE(seen[t] == expect);
			found += expect;
		}
	}
	printf("  %d triangles kept of %d, cell %.3f m, %d (query, triangle) meetings found, each as brute force\n", kept, T, index.cell, found);
	ENSURE(found > Q); /* the near queries meet their triangle at least */
}
