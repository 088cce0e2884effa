/* neighbours/grid.c -- the neighbour search (grid.h): a cell-sorted hash grid over all
   particles, pairs or per-particle neighbour lists.

   Cells
   -----
   Cells are cubes of edge R = the largest search radius (a hair more: CELL_SLACK), so every
   particle closer than R to particle i lies in one of the 27 cells around i's cell; a pair is
   searched within (r_i + r_j) / 2 <= R. Cell (ix, iy, iz) = floor(p / cell) goes to bucket
       (ix + (iy * 19349663 ^ iz * 83492791)) & (T - 1)
   Teschner et al.'s (2003) large-prime xor hash for y and z, with x added instead of
   multiplied: neighbouring cells along x land in neighbouring buckets, so the 3 cells of
   each of the 9 neighbour rows is one contiguous run of the sorted arrays: 9 runs read in
   order instead of 27 scattered buckets. On the 316 x 316 benchmark cloth (native, same
   pairs) the pair search took 2.8 ms instead of 9.3 with the 3-prime hash (flat), 13.6
   instead of 24.5 (crumpled pile). T is the smallest power of two >= 2 n for the n
   particles present (at most the reserved tableSize), so the cost is O(n) whatever the
   capacity.

   Counting sort into reserved memory, no allocation: count per bucket -> prefix sums ->
   fill from the last particle down, which leaves cellEntries[cellStart[b] ..
   cellStart[b + 1]) = the particles of bucket b in increasing index order and
   cellStart[T] = n. The particles' positions, w, rest positions, phases and radii are then
   gathered in that order into the build's scratch, so the search reads memory in runs and
   tests 4 candidates at a time (wasm SIMD / SSE).

   Particles carrying the filter's exclude bits are left out of the sort when the input asks
   (in->leaveOut: a fluid's parked slots, all at one point and possibly thousands, are then in
   no neighbourhood), so the table is sized for those in the grid only.

   Search
   ------
   grid_walk.h: for each sorted slot s, the later slots t > s of the runs around its cell (each
   unordered pair met once), tested 4 wide; the filter (grid.h) runs on the lanes that hit, with
   a fast path when the phases cannot refuse anything (pbd_Grid_FastRules): then only the
   rest-pose and pin filters remain. With one radius for all, the test is d^2 < r^2; with radii
   per particle it is d^2 < ((r_i + r_j) / 2)^2, which gives the same bits when they are equal
   ((r + r) * 0.5 = r). The outputs: grid_pairs.c, grid_lists.c; over threads grid_shared.c.

   Determinism: + - * / and comparisons only. The cell index is a float-to-int cast of a value
   clamped to +-1e9 (so the cast is defined, even for NaN), corrected down by one where the
   cast rounded up (negative values): floor without libm. */
#include "neighbours/grid.h"
#include "neighbours/grid_cells.h"
#include "neighbours/grid_walk.h"
#include "world/core.h"

#include <string.h>

/* The sorted arrays a build may gather (x, y, z, phase, w, radius, rx, ry, rz), and the lists' four
   counts after them (grid_lists.c). */
#define SORTED_ARRAYS 9
#define LISTS_ARRAYS 4
#define NOT_IN_GRID 0xffffffffu

size_t pbd_Grid_Bytes(int32_t maxParticles)
{
	int32_t table = 2;
	while (table < 2 * maxParticles) table <<= 1;
	return pbd_PoolBytes((size_t)table + 1, sizeof(int32_t)) + pbd_PoolBytes((size_t)maxParticles, sizeof(int32_t));
}

int pbd_Grid_Create(pbdGrid* g, pbdPool* pool, int32_t maxParticles)
{
	memset(g, 0, sizeof *g);
	int32_t table = 2;
	while (table < 2 * maxParticles) table <<= 1;
	g->maxParticles = maxParticles;
	g->tableSize = table;
	g->cellStart = pbd_PoolAlloc(pool, (size_t)table + 1, sizeof(int32_t));
	g->cellEntries = pbd_PoolAlloc(pool, (size_t)(maxParticles > 0 ? maxParticles : 1), sizeof(int32_t));
	return g->cellStart != NULL && g->cellEntries != NULL;
}

size_t pbd_NeighbourLists_Bytes(int32_t maxParticles, int32_t capacity)
{
	return 2 * pbd_PoolBytes((size_t)maxParticles, sizeof(int32_t)) + pbd_PoolBytes((size_t)capacity, sizeof(int32_t));
}

int pbd_NeighbourLists_Create(pbdNeighbourLists* lists, pbdPool* pool, int32_t maxParticles, int32_t capacity)
{
	memset(lists, 0, sizeof *lists);
	lists->start = pbd_PoolAlloc(pool, (size_t)maxParticles, sizeof(int32_t));
	lists->count = pbd_PoolAlloc(pool, (size_t)maxParticles, sizeof(int32_t));
	lists->indices = pbd_PoolAllocUnset(pool, (size_t)capacity, sizeof(int32_t)); /* written by each search before read */
	lists->capacity = capacity;
	return lists->start != NULL && lists->count != NULL && lists->indices != NULL;
}

size_t pbd_Grid_ScratchBytes(int32_t count) { return SORTED_ARRAYS * pbd_SortedStride(count) * sizeof(float) + 16; }

size_t pbd_Grid_ListsScratchBytes(int32_t count)
{
	return (SORTED_ARRAYS + LISTS_ARRAYS) * pbd_SortedStride(count) * sizeof(float) + 16;
}

static inline uint32_t BucketOf(const float* p, float inv, uint32_t mask)
{
	return pbd_CellBucket(pbd_CellIndex(p[0], inv), pbd_CellIndex(p[1], inv), pbd_CellIndex(p[2], inv), mask);
}

int32_t pbd_Grid_Bucket(const pbdGrid* g, const float* point)
{
	return g->buckets > 0 ? (int32_t)BucketOf(point, g->invCell, (uint32_t)g->buckets - 1u) : 0;
}

/* A usable radius: finite and positive, else 0 (a point). */
static inline float Radius(float r) { return r > 0.0f && r <= 3e38f ? r : 0.0f; }

int pbd_Grid_Build(pbdGrid* g, const pbdGridInput* in, void* scratch, size_t scratchBytes)
{
	const int32_t n = in->count;
	g->count = 0;
	g->inputCount = 0;
	g->buckets = 0;
	g->dropped = 0;
	g->spareArrays = 0;
	g->filter = in->filter;
	if (n < 0 || n > g->maxParticles || (n > 0 && in->positions == NULL) || scratch == NULL ||
		scratchBytes < pbd_Grid_ScratchBytes(n)) {
		return 0; /* a sizing bug of the caller: nothing is found rather than memory overrun */
	}
	g->inputCount = n;
	const uint32_t* phase = in->phase;
	const pbdGridFilter* f = &in->filter;
	const int perParticle = in->radii != NULL || in->objectRadius != NULL;
	const int pins = !f->keepPinned;
	const int rest = in->rest != NULL && (f->restDistance > 0.0f || (perParticle && f->restScale > 0.0f));
	const uint32_t leaveOut = in->leaveOut && phase != NULL ? f->exclude : 0u;
	float rmax = perParticle ? 0.0f : Radius(in->radius);
	/* the arrays in order, those not gathered left out */
	const size_t stride = pbd_SortedStride(n);
	float* next = (float*)(((uintptr_t)scratch + 15u) & ~(uintptr_t)15u);
	g->x = next, next += stride;
	g->y = next, next += stride;
	g->z = next, next += stride;
	g->phase = (uint32_t*)next, next += stride;
	g->w = pins ? next : NULL, next += pins ? stride : 0;
	g->radius = perParticle ? next : NULL, next += perParticle ? stride : 0;
	g->rx = rest ? next : NULL, next += rest ? stride : 0;
	g->ry = rest ? next : NULL, next += rest ? stride : 0;
	g->rz = rest ? next : NULL, next += rest ? stride : 0;
	g->spare = (int32_t*)next;
	g->spareArrays = (int32_t)((scratchBytes - 16) / (stride * sizeof(float))) - (int32_t)((next - g->x) / (ptrdiff_t)stride);
	/* Until the gather, radius holds each particle's radius by particle index (when they differ)
	   and x its bucket. */
	if (perParticle) {
		for (int32_t i = 0; i < n; ++i) {
			const float r = Radius(in->radii != NULL ? in->radii[i] : in->objectRadius[(phase ? phase[i] : 0u) & PBD_PHASE_OBJECT_MASK]);
			g->radius[i] = r;
			if (r > rmax) rmax = r;
		}
	}
	if (!(rmax > 0.0f)) return n == 0; /* nothing can be within reach: an empty grid */
	int32_t live = n;
	if (leaveOut) {
		live = 0;
		for (int32_t i = 0; i < n; ++i) live += (phase[i] & leaveOut) == 0u;
	}
	int32_t T = 2;
	while (T < 2 * live && T < g->tableSize) T <<= 1;
	const uint32_t mask = (uint32_t)T - 1u;
	g->cellSize = rmax * CELL_SLACK;
	g->invCell = 1.0f / g->cellSize;
	g->uniformRadius = perParticle ? 0.0f : rmax;
	g->hasRest = rest;
	const float inv = g->invCell;
	const float* p = in->positions;
	int32_t* start = g->cellStart;
	int32_t* entries = g->cellEntries;
	uint32_t* bucket = (uint32_t*)g->x;
	memset(start, 0, ((size_t)T + 1) * sizeof(int32_t));
	for (int32_t i = 0; i < n; ++i) {
		if (leaveOut && (phase[i] & leaveOut)) {
			bucket[i] = NOT_IN_GRID;
			continue;
		}
		const uint32_t b = BucketOf(p + 4 * i, inv, mask);
		bucket[i] = b;
		start[b] += 1;
	}
	int32_t sum = 0;
	for (int32_t b = 0; b < T; ++b) {
		sum += start[b];
		start[b] = sum; /* one past the bucket's end, for now */
	}
	start[T] = live;
	if (leaveOut) {
		for (int32_t i = n - 1; i >= 0; --i) {
			if (bucket[i] != NOT_IN_GRID) entries[--start[bucket[i]]] = i;
		}
	} else {
		for (int32_t i = n - 1; i >= 0; --i) entries[--start[bucket[i]]] = i;
	}
	if (in->orderOnly) { /* the order alone (the fluid's sort): nothing gathered, nothing to search */
		g->phaseAnd = g->phaseOr = 0u;
		g->count = live;
		g->buckets = T;
		g->spareArrays = 0;
		return 1;
	}
	/* The gather, radii first (they are read by particle index from the array they are sorted into). */
	if (perParticle) {
		float* r = (float*)g->phase; /* free until the phases' gather below */
		for (int32_t s = 0; s < live; ++s) r[s] = g->radius[entries[s]];
		memcpy(g->radius, r, (size_t)live * sizeof(float));
	}
	uint32_t all = ~0u, any = 0u;
	for (int32_t s = 0; s < live; ++s) {
		const float* pi = p + 4 * entries[s];
		g->x[s] = pi[0];
		g->y[s] = pi[1];
		g->z[s] = pi[2];
		if (pins) g->w[s] = pi[3];
		const uint32_t ph = phase != NULL ? phase[entries[s]] : PBD_PHASE_SELF;
		g->phase[s] = ph;
		all &= ph;
		any |= ph;
	}
	if (rest) {
		for (int32_t s = 0; s < live; ++s) {
			const float* ri = in->rest + 4 * entries[s];
			g->rx[s] = ri[0];
			g->ry[s] = ri[1];
			g->rz[s] = ri[2];
		}
	}
	for (int32_t s = live; s < live + PAD; ++s) {
		g->x[s] = g->y[s] = g->z[s] = 0.0f;
		if (pins) g->w[s] = 0.0f;
		if (perParticle) g->radius[s] = 0.0f;
		if (rest) g->rx[s] = g->ry[s] = g->rz[s] = 0.0f;
		g->phase[s] = PBD_PHASE_NO_COLLIDE;
	}
	g->phaseAnd = live > 0 ? all : 0u;
	g->phaseOr = any;
	g->count = live;
	g->buckets = T;
	return 1;
}

const uint8_t pbd_GridLanes[16][4] = {
	{ 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 2, 0, 0, 0 }, { 0, 2, 0, 0 }, { 1, 2, 0, 0 },
	{ 0, 1, 2, 0 }, { 3, 0, 0, 0 }, { 0, 3, 0, 0 }, { 1, 3, 0, 0 }, { 0, 1, 3, 0 }, { 2, 3, 0, 0 }, { 0, 2, 3, 0 },
	{ 1, 2, 3, 0 }, { 0, 1, 2, 3 },
};
const uint8_t pbd_GridHits[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

/* Whether the phases can refuse nothing: no particle in the grid carries an exclude bit, every one
   carries pairNeeds, and no group rule (no table; groupNeeds carried by all). */
int pbd_Grid_FastRules(const pbdGrid* g)
{
	const pbdGridFilter* f = &g->filter;
	return !(g->phaseOr & f->exclude) && (g->phaseAnd & f->pairNeeds) == f->pairNeeds && f->activation == NULL &&
		   (g->phaseAnd & f->groupNeeds) == f->groupNeeds;
}

/* Nothing can pass: fewer than two particles; no one carries pairNeeds; or one group only, which is
   switched off or lacks groupNeeds. */
int pbd_Grid_NothingToFind(const pbdGrid* g)
{
	const pbdGridFilter* f = &g->filter;
	if (g->count < 2) return 1;
	if ((g->phaseOr & f->pairNeeds) != f->pairNeeds) return 1;
	if (((g->phaseAnd ^ g->phaseOr) & PBD_PHASE_GROUP_MASK) == 0u) {
		const uint32_t group = (g->phaseOr & PBD_PHASE_GROUP_MASK) >> PBD_PHASE_GROUP_SHIFT;
		if (f->activation != NULL && !f->activation[(group << 8) | group]) return 1;
		if ((g->phaseOr & f->groupNeeds) != f->groupNeeds) return 1;
	}
	return 0;
}
