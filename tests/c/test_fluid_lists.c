/* test_fluid_lists.c -- the fluid's neighbour lists (neighbours/grid_lists.c, pbd_Grid_FindLists with the
   fluid's filter, families/fluid.c ListsInput) against the fluid rule written out pair by pair, O(n^2):
   the same neighbour sets,
   the padded layout, the same bits on a second build, and bounded, symmetric lists when the pair
   array or the lists are too small. The cloud holds fluid, solid, NO_COLLIDE and parked (INACTIVE,
   all at one point) particles, and coincident pairs. */
#include "test_fluid_objects.h"
#include "test.h"
#include "world/core.h"
#include "neighbours/grid.h"

#include <stdlib.h>
#include <string.h>

#define OUT (PBD_PHASE_NO_COLLIDE | PBD_PHASE_INACTIVE)

typedef struct ListCloud {
	int32_t n;
	float* p;
	uint32_t* phase;
	float h;
} ListCloud;

static uint32_t s_listRng = 12345u;
static float Uniform(void) { return (float)(TestXorshift32(&s_listRng) >> 8) / (float)(1 << 24); }

static ListCloud MakeCloud(int32_t n, float h)
{
	ListCloud c = { n, calloc((size_t)n * 4 + 4, sizeof(float)), calloc((size_t)n + 1, sizeof(uint32_t)), h };
	s_listRng = 12345u;
	for (int32_t i = 0; i < n; ++i) {
		const uint32_t kind = TestXorshift32(&s_listRng) % 20u;
		float* q = c.p + 4 * i;
		q[0] = 0.3f * Uniform(), q[1] = 0.2f * Uniform(), q[2] = 0.15f * Uniform(), q[3] = 1.0f;
		if (kind < 12u) {
			c.phase[i] = 0u | PBD_PHASE_SELF | PBD_PHASE_FLUID;
		} else if (kind < 16u) {
			c.phase[i] = 1u | 1u << PBD_PHASE_GROUP_SHIFT | PBD_PHASE_SELF; /* a solid */
			if (kind == 15u) q[3] = 0.0f;                                    /* pinned: still listed */
		} else if (kind < 17u) {
			c.phase[i] = 1u | PBD_PHASE_NO_COLLIDE;
		} else { /* parked slots of the fluid's capacity, all at one point */
			c.phase[i] = 0u | PBD_PHASE_FLUID | PBD_PHASE_INACTIVE | PBD_PHASE_NO_COLLIDE;
			q[0] = 0.01f, q[1] = 0.01f, q[2] = 0.01f, q[3] = 0.0f;
		}
		if (i % 50 == 7 && i > 0) memcpy(q, c.p + 4 * (i - 1), 3 * sizeof(float)); /* coincident */
	}
	return c;
}

/* the fluid's rule, pair by pair, the distance in the grid's order. */
static int FluidPair(const ListCloud* c, int32_t i, int32_t j)
{
	const uint32_t a = c->phase[i], b = c->phase[j];
	if (i == j || ((a | b) & OUT) || !((a | b) & PBD_PHASE_FLUID)) return 0;
	const float *x = c->p + 4 * i, *y = c->p + 4 * j;
	const float dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
	return (dx * dx + dy * dy) + dz * dz < c->h * c->h;
}

typedef struct ListSearch {
	pbdPool pool;
	pbdGrid grid;
	pbdNeighbourLists lists;
	void* scratch;
	size_t scratchBytes;
	int32_t* work;
} ListSearch;

static int OpenSearch(ListSearch* s, int32_t n, int32_t capacity)
{
	memset(s, 0, sizeof *s);
	if (!pbd_PoolReserve(&s->pool, pbd_Grid_Bytes(n) + pbd_NeighbourLists_Bytes(n, capacity))) return 0;
	if (!pbd_Grid_Create(&s->grid, &s->pool, n) || !pbd_NeighbourLists_Create(&s->lists, &s->pool, n, capacity)) return 0;
	s->scratchBytes = pbd_Grid_ScratchBytes(n);
	s->scratch = malloc(s->scratchBytes);
	s->work = malloc(sizeof(int32_t) * (size_t)(80 * n));
	return s->scratch != NULL && s->work != NULL;
}

static void CloseSearch(ListSearch* s)
{
	pbd_PoolRelease(&s->pool);
	free(s->scratch), free(s->work);
}

static int FindFluid(ListSearch* s, const ListCloud* c, int32_t workCapacity)
{
	pbdGridInput in;
	memset(&in, 0, sizeof in);
	in.positions = c->p, in.phase = c->phase, in.count = c->n, in.radius = c->h;
	in.leaveOut = 1; /* the fluid's filter (families/fluid.c ListsInput) */
	in.filter.exclude = OUT, in.filter.pairNeeds = PBD_PHASE_FLUID, in.filter.keepPinned = 1;
	return pbd_Grid_Build(&s->grid, &in, s->scratch, s->scratchBytes) &&
		   pbd_Grid_FindLists(NULL, &s->grid, &s->lists, s->work, workCapacity);
}

static int Listed(const pbdNeighbourLists* l, int32_t i, int32_t j)
{
	for (int32_t k = 0; k < l->count[i]; ++k) {
		if (l->indices[l->start[i] + k] == j) return 1;
	}
	return 0;
}

/* Layout of grid.h: starts on quads, padding with i itself, inside `used`, no entry twice. */
static int LayoutOk(const pbdNeighbourLists* l, int32_t n)
{
	for (int32_t i = 0; i < n; ++i) {
		const int32_t s = l->start[i], c = l->count[i];
		if (c == 0) continue;
		if ((s & 3) != 0 || s + ((c + 3) & ~3) > l->used || l->used > l->capacity) return 0;
		for (int32_t k = c; k < ((c + 3) & ~3); ++k) {
			if (l->indices[s + k] != i) return 0;
		}
		for (int32_t a = 0; a < c; ++a) {
			for (int32_t b = a + 1; b < c; ++b) {
				if (l->indices[s + a] == l->indices[s + b]) return 0;
			}
		}
	}
	return 1;
}

void Test_FluidListsMatchReference(void)
{
	const int32_t n = 3000;
	ListCloud c = MakeCloud(n, 0.024f);
	ListSearch s;
	ENSURE(OpenSearch(&s, n, 80 * n));
	ENSURE(FindFluid(&s, &c, 80 * n) == 1);
	ENSURE(s.lists.dropped == 0);
	ENSURE(LayoutOk(&s.lists, n));
	/* the reference sets */
	int64_t total = 0, solidPairs = 0;
	for (int32_t i = 0; i < n; ++i) {
		int32_t want = 0;
		for (int32_t j = 0; j < n; ++j) {
			if (!FluidPair(&c, i, j)) continue;
			want += 1;
			ENSURE(Listed(&s.lists, i, j));
			solidPairs += !(c.phase[i] & PBD_PHASE_FLUID);
		}
		ENSURE(s.lists.count[i] == want);
		total += want;
	}
	ENSURE(total > 20 * (n / 2)); /* a dense cloud: the test means something */
	ENSURE(solidPairs > 500);     /* solids met fluid */
	/* a second build: the same bits */
	int32_t* start = malloc(sizeof(int32_t) * (size_t)n);
	int32_t* count = malloc(sizeof(int32_t) * (size_t)n);
	int32_t* indices = malloc(sizeof(int32_t) * (size_t)s.lists.used + 4);
	const int32_t used = s.lists.used;
	memcpy(start, s.lists.start, sizeof(int32_t) * (size_t)n);
	memcpy(count, s.lists.count, sizeof(int32_t) * (size_t)n);
	memcpy(indices, s.lists.indices, sizeof(int32_t) * (size_t)used);
	ENSURE(FindFluid(&s, &c, 80 * n) == 1);
	const int same = s.lists.used == used && memcmp(start, s.lists.start, sizeof(int32_t) * (size_t)n) == 0 &&
					 memcmp(count, s.lists.count, sizeof(int32_t) * (size_t)n) == 0 &&
					 memcmp(indices, s.lists.indices, sizeof(int32_t) * (size_t)used) == 0;
	free(start), free(count), free(indices);
	ENSURE(same);
	CloseSearch(&s);
	free(c.p), free(c.phase);
}

void Test_FluidListsBoundedWhenShort(void)
{
	const int32_t n = 3000;
	ListCloud c = MakeCloud(n, 0.024f);
	ListSearch s;
	ENSURE(OpenSearch(&s, n, 80 * n));
	int64_t total = 0;
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t j = 0; j < n; ++j) total += FluidPair(&c, i, j);
	}
	/* the pair array short: pairs dropped from both lists, so the lists stay symmetric */
	ENSURE(FindFluid(&s, &c, (int32_t)(total / 4)) == 1);
	ENSURE(s.lists.dropped == total - 2 * (total / 4));
	ENSURE(LayoutOk(&s.lists, n));
	int64_t stored = 0;
	for (int32_t i = 0; i < n; ++i) {
		stored += s.lists.count[i];
		for (int32_t k = 0; k < s.lists.count[i]; ++k) {
			const int32_t j = s.lists.indices[s.lists.start[i] + k];
			ENSURE(FluidPair(&c, i, j) && Listed(&s.lists, j, i));
		}
	}
	ENSURE(stored == 2 * (total / 4));
	CloseSearch(&s);
	/* the lists short: cut, counted, never past their capacity */
	const int32_t capacity = (int32_t)(total / 3) & ~3;
	ENSURE(OpenSearch(&s, n, capacity));
	ENSURE(FindFluid(&s, &c, 80 * n) == 1);
	ENSURE(s.lists.used <= capacity && LayoutOk(&s.lists, n));
	stored = 0;
	for (int32_t i = 0; i < n; ++i) {
		stored += s.lists.count[i];
		for (int32_t k = 0; k < s.lists.count[i]; ++k) ENSURE(FluidPair(&c, i, s.lists.indices[s.lists.start[i] + k]));
	}
	ENSURE(stored + s.lists.dropped == total && s.lists.dropped > 0);
	CloseSearch(&s);
	free(c.p), free(c.phase);
}
