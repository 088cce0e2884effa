/* neighbours/grid_lists.c -- the fluid's neighbour lists (grid.h pbd_Grid_FindFluidLists): the
   same lists as pbd_Grid_FindLists with filter.fluid = 1 (the same neighbour set, the same padded
   layout), for the fluid family's per-substep search. One build of a settling dam
   break (same run, same machine): 8,000 particles 1.16 ms natively (gcc -O2), 1.42 ms in wasm;
   25,000 particles 2.8 ms natively, 3.4 ms in wasm (generic search: 3.9 ms at 8k natively).

   What differs from grid.c's build and search, and why
   ----------------------------------------------------
   - Only the particles in the search go into the grid: a fluid's parked slots (PBD_PHASE_INACTIVE,
     all at one point, possibly thousands) and NO_COLLIDE particles are left out by the counting
     sort, so no neighbourhood ever tests them and their lists are empty without a look.
   - Cells of edge h / CELL_DIVISIONS (a hair more; 1 is used: cells of h / 2 took 3.5 ms instead of
     2.3 at 8k, their 25 short runs waste most lanes of the 4-wide test and the merge runs per cell
     of ~1 particle), the neighbourhood (2 CELL_DIVISIONS + 1)^3
     cells read as (2 CELL_DIVISIONS + 1)^2 runs of buckets along x (grid.c's hash: x added, so a
     row is consecutive buckets). The runs are slot ranges; sorted and merged they give each
     candidate slot exactly once, whatever rows share buckets, and adjacent runs become one.
   - A half search: each pair is tested once (slot t after slot s), into a temporary array of the
     later slots (`work`: the family's per-entry array, free until the density pass fills it);
     then per-slot counts, padded prefix sums and a scatter into both lists. Half the distance
     tests and half the hits of the full search.
   - The hits of a quad are stored with no branch on them (pbd_GridLanes), the list lengths counted after
     the search: a quad holds a hit about half the time, at random, and the branch on it cost a
     third of the build. Measured and left out: gathering each cell's candidates into contiguous
     arrays (no gain: the copy costs what the per-run bookkeeping did) and skipping the corner rows
     farther than h from the particle (~9% fewer tests, paid back by the test and its branch).
   The lists are a pure function of the positions and phases: slot order is the counting sort's
   (bucket, then particle index), pairs are found in slot order, and particle i's list is its
   neighbours of earlier slots in slot order, then those of later slots in merged-run order. Every
   build (native, scalar, wasm) gives the same bits: comparisons and + - * only.

   Bounds: pairs beyond `workCapacity` are dropped (from both lists, so the lists stay symmetric),
   lists past lists->capacity are cut short (those neighbours dropped); lists->dropped counts both.
*/
#include "neighbours/grid.h"
#include "neighbours/grid_cells.h"
#include "neighbours/grid_shared.h"
#include "world/core.h"
#include "base/simd.h"

#include <string.h>

#define CELL_DIVISIONS PBD_GRID_CELL_DIVISIONS
#define ROW PBD_GRID_ROW
#define ROWS PBD_GRID_ROWS
#define NOT_IN_GRID 0xffffffffu

/* The slot ranges [first, end) around cell (ix, iy, iz), sorted by first and merged where they
   overlap or touch: every slot of the neighbourhood's buckets exactly once. */
int32_t pbd_Grid_Neighbourhood(const int32_t* start, uint32_t mask, int32_t ix, int32_t iy, int32_t iz, int32_t* first,
							 int32_t* end)
{
	int32_t a[2 * ROWS], e[2 * ROWS];
	int32_t n = 0;
	for (int32_t dz = -CELL_DIVISIONS; dz <= CELL_DIVISIONS; ++dz) {
		for (int32_t dy = -CELL_DIVISIONS; dy <= CELL_DIVISIONS; ++dy) {
			const uint32_t lo = ((uint32_t)(ix - CELL_DIVISIONS) + pbd_CellRowHash(iy + dy, iz + dz)) & mask;
			const uint32_t hi = lo + (uint32_t)(ROW - 1); /* last bucket, unwrapped */
			if (hi <= mask) {
				a[n] = start[lo], e[n] = start[hi + 1u];
				n += a[n] < e[n];
			} else { /* the row wraps around the table: two ranges */
				a[n] = start[lo], e[n] = start[mask + 1u];
				n += a[n] < e[n];
				a[n] = start[0], e[n] = start[(hi & mask) + 1u];
				n += a[n] < e[n];
			}
		}
	}
	/* insertion sort by first (ties: any order, the merge is the same) */
	for (int32_t k = 1; k < n; ++k) {
		const int32_t ka = a[k], ke = e[k];
		int32_t q = k - 1;
		while (q >= 0 && a[q] > ka) {
			a[q + 1] = a[q], e[q + 1] = e[q];
			q -= 1;
		}
		a[q + 1] = ka, e[q + 1] = ke;
	}
	int32_t ranges = 0;
	for (int32_t k = 0; k < n; ++k) {
		if (ranges > 0 && a[k] <= end[ranges - 1]) {
			if (e[k] > end[ranges - 1]) end[ranges - 1] = e[k];
			continue;
		}
		first[ranges] = a[k], end[ranges] = e[k];
		ranges += 1;
	}
	return ranges;
}

/* The lanes set in a 4-bit hit mask, packed to the front: the hits of a quad are stored with no
   branch on them (a quad holds a hit about half the time, at random: a branch there mispredicts). */
const uint8_t pbd_GridLanes[16][4] = {
	{ 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 2, 0, 0, 0 }, { 0, 2, 0, 0 }, { 1, 2, 0, 0 },
	{ 0, 1, 2, 0 }, { 3, 0, 0, 0 }, { 0, 3, 0, 0 }, { 1, 3, 0, 0 }, { 0, 1, 3, 0 }, { 2, 3, 0, 0 }, { 0, 2, 3, 0 },
	{ 1, 2, 3, 0 }, { 0, 1, 2, 3 },
};
const uint8_t pbd_GridHits[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

/* The half search over the built grid; fast: every particle in the grid is fluid (no rule to test).
   The later slot of each pair goes to work, in slot order per slot s; halfEnd[s] ends s's pairs. */
static inline __attribute__((always_inline)) int32_t HalfSearch(pbdGrid* g, int32_t* work, int32_t workCapacity,
																int32_t* halfEnd, int32_t* droppedOut, const int fast,
																int32_t sBegin, int32_t pairs0, int64_t budget,
																int32_t* sNext, int64_t* testsOut)
{
	/* sBegin, pairs0, budget, sNext, testsOut: a slice unit of it (pbd_Grid_FluidListsUnit): from slot sBegin with
	   pairs0 pairs found before, until about `budget` candidates are tested (whole slots, at least one), the next
	   slot to *sNext; sNext NULL (the one-call build, a constant there): every slot */
	const int32_t m = g->count;
	const uint32_t mask = (uint32_t)g->buckets - 1u;
	const float inv = g->invCell;
	const pbdF4 r2 = pbdF4_Splat(g->uniformRadius * g->uniformRadius);
	const int32_t* start = g->cellStart;
	const float *qx = g->x, *qy = g->y, *qz = g->z;
	const uint32_t* qp = g->phase;
	int32_t pairs = pairs0, dropped = 0;
	int64_t tests = 0;
	int32_t first[2 * ROWS], end[2 * ROWS];
	int32_t ranges = 0, cx = 0, cy = 0, cz = 0;
	const int32_t roomy = workCapacity - 4; /* below this a quad's four stores always fit */
	int32_t s = sBegin;
	for (; s < m; ++s) {
		if (sNext != NULL && s > sBegin && tests >= budget) break;
		const float xi = qx[s], yi = qy[s], zi = qz[s];
		const int32_t ix = pbd_CellIndex(xi, inv), iy = pbd_CellIndex(yi, inv), iz = pbd_CellIndex(zi, inv);
		if (s == sBegin || ix != cx || iy != cy || iz != cz) {
			cx = ix, cy = iy, cz = iz;
			ranges = pbd_Grid_Neighbourhood(start, mask, ix, iy, iz, first, end);
		}
		/* a solid particle pairs with fluid ones only */
		const uint32_t need = fast || (qp[s] & PBD_PHASE_FLUID) ? 0u : PBD_PHASE_FLUID;
		const pbdF4 xs = pbdF4_Splat(xi), ys = pbdF4_Splat(yi), zs = pbdF4_Splat(zi);
		for (int32_t k = 0; k < ranges; ++k) {
			const int32_t e = end[k];
			const int32_t from = first[k] > s ? first[k] : s + 1;
			if (sNext != NULL && e > from) tests += e - from;
			for (int32_t t = from; t < e; t += 4) {
				uint32_t hits = pbd_Grid_QuadHits(g, xs, ys, zs, r2, t, e, need, fast);
				if (pairs <= roomy) {
					const uint8_t* lane = pbd_GridLanes[hits];
					work[pairs + 0] = t + lane[0];
					work[pairs + 1] = t + lane[1];
					work[pairs + 2] = t + lane[2];
					work[pairs + 3] = t + lane[3];
					pairs += pbd_GridHits[hits];
					continue;
				}
				while (hits != 0u) { /* the last few entries of work */
					const int32_t u = t + __builtin_ctz(hits);
					hits &= hits - 1u;
					if (pairs < workCapacity) {
						work[pairs++] = u;
					} else {
						dropped += 2; /* from both lists */
					}
				}
			}
		}
		halfEnd[s] = pairs;
	}
	*droppedOut += dropped;
	if (sNext != NULL) *sNext = s, *testsOut = tests;
	return pairs;
}

/* The build both forms share: the input checked, every list emptied, the particles in the search sorted by
   bucket and gathered into the scratch (8 of its 9 arrays; the other three of them hold the lists' counts
   after). -1: unusable input (nothing found); 0: nothing to search (the lists are done, empty); 1: search. */
static int BuildFluidGrid(pbdGrid* g, const pbdGridInput* in, pbdNeighbourLists* lists, void* scratch, size_t scratchBytes)
{
	const int32_t n = in->count;
	g->count = 0;
	g->buckets = 0;
	g->dropped = 0;
	lists->used = 0;
	lists->dropped = 0;
	if (n < 0 || n > g->maxParticles || (n > 0 && in->positions == NULL) || scratch == NULL ||
		scratchBytes < pbd_Grid_ScratchBytes(n)) {
		return -1; /* a sizing bug of the caller: nothing is found rather than memory overrun */
	}
	for (int32_t i = 0; i < n; ++i) lists->start[i] = lists->count[i] = 0;
	const float h = in->radius;
	if (!(h > 0.0f && h <= 3e38f)) return n == 0 ? 0 : -1; /* as pbd_Grid_Build: no usable radius */
	const uint32_t* phase = in->phase;
	if (phase == NULL) return 0; /* no fluid particle: nothing to list */

	/* scratch: 8 of the 9 arrays pbd_Grid_ScratchBytes counts */
	const size_t stride = pbd_SortedStride(n);
	uint32_t* bucket = (uint32_t*)(((uintptr_t)scratch + 15u) & ~(uintptr_t)15u);
	g->x = (float*)(bucket + stride);
	g->y = g->x + stride;
	g->z = g->y + stride;
	g->phase = (uint32_t*)(g->z + stride);
	g->w = g->rx = g->ry = g->rz = g->radius = NULL;

	/* the particles in the search, counted per bucket */
	int32_t live = 0;
	for (int32_t i = 0; i < n; ++i) live += (phase[i] & OUT_OF_SEARCH) == 0u;
	int32_t T = 2;
	while (T < 2 * live * CELL_DIVISIONS * CELL_DIVISIONS && T < g->tableSize) T <<= 1;
	const uint32_t mask = (uint32_t)T - 1u;
	g->cellSize = h * CELL_SLACK / (float)CELL_DIVISIONS;
	g->invCell = 1.0f / g->cellSize;
	g->uniformRadius = h;
	g->hasRest = 0;
	const float inv = g->invCell;
	const float* p = in->positions;
	int32_t* start = g->cellStart;
	int32_t* entries = g->cellEntries;
	memset(start, 0, ((size_t)T + 1) * sizeof(int32_t));
	uint32_t all = ~0u, any = 0u;
	for (int32_t i = 0; i < n; ++i) {
		const uint32_t ph = phase[i];
		if (ph & OUT_OF_SEARCH) {
			bucket[i] = NOT_IN_GRID;
			continue;
		}
		const float* pi = p + 4 * i;
		const uint32_t b = pbd_CellBucket(pbd_CellIndex(pi[0], inv), pbd_CellIndex(pi[1], inv), pbd_CellIndex(pi[2], inv), mask);
		bucket[i] = b;
		start[b] += 1;
		all &= ph;
		any |= ph;
	}
	int32_t sum = 0;
	for (int32_t b = 0; b < T; ++b) {
		sum += start[b];
		start[b] = sum; /* one past the bucket's end, for now */
	}
	start[T] = live;
	for (int32_t i = n - 1; i >= 0; --i) {
		if (bucket[i] != NOT_IN_GRID) entries[--start[bucket[i]]] = i;
	}
	/* the gather: sequential reads when the fluid is in cell order (fluid_sort.c) */
	for (int32_t s = 0; s < live; ++s) {
		const float* pi = p + 4 * entries[s];
		g->x[s] = pi[0];
		g->y[s] = pi[1];
		g->z[s] = pi[2];
		g->phase[s] = phase[entries[s]];
	}
	for (int32_t s = live; s < live + PAD; ++s) {
		g->x[s] = g->y[s] = g->z[s] = 0.0f;
		g->phase[s] = PBD_PHASE_NO_COLLIDE;
	}
	g->phaseAnd = live > 0 ? all : 0u;
	g->phaseOr = any;
	g->count = live;
	g->buckets = T;
	return live < 2 || !(any & PBD_PHASE_FLUID) ? 0 : 1;
}

int pbd_Grid_FindFluidLists(pbdGrid* g, const pbdGridInput* in, pbdNeighbourLists* lists, void* scratch,
							size_t scratchBytes, int32_t* work, int32_t workCapacity)
{
	const int built = BuildFluidGrid(g, in, lists, scratch, scratchBytes);
	if (built <= 0) return built == 0;
	const int32_t live = g->count;
	const uint32_t all = g->phaseAnd;
	const size_t stride = pbd_SortedStride(in->count);
	int32_t* halfEnd = (int32_t*)(g->phase + stride);
	int32_t* counts = halfEnd + stride;
	int32_t* cursor = counts + stride;
	const int32_t* entries = g->cellEntries;

	/* each pair once, then counts -> padded starts -> scatter; with the step's threads the search is
	   shared out (grid_shared.c: the same pairs in the same order) unless it runs out of room */
	int32_t dropped = 0;
	const int fast = (all & PBD_PHASE_FLUID) != 0u;
	int32_t* extra = cursor + stride; /* the 9th sorted array: the shared search's bookkeeping */
	pbdPairReader reader;
	int32_t pairs = in->world != NULL && in->world->teamActive
						? pbd_Grid_SharedHalfSearch(in->world, g, work, workCapacity, halfEnd, extra, (int32_t)stride, fast, &reader)
						: -1;
	int32_t linearUsed = 0, linearNext = -1;
	if (pairs < 0) {
		pairs = fast ? HalfSearch(g, work, workCapacity, halfEnd, &dropped, 1, 0, 0, 0, NULL, NULL)
					 : HalfSearch(g, work, workCapacity, halfEnd, &dropped, 0, 0, 0, 0, NULL, NULL);
		for (int32_t s = live - 1; s > 0; --s) halfEnd[s] -= halfEnd[s - 1]; /* ends -> counts per slot */
		linearUsed = pairs;
		reader = (pbdPairReader){ work, &linearNext, &linearUsed, 0, 0, 0 };
	}
	const int32_t* halfCount = halfEnd;
	/* list lengths: s's later neighbours, then s as the later one of earlier slots' pairs */
	for (int32_t s = 0; s < live; ++s) counts[s] = halfCount[s];
	{
		pbdPairReader r = reader;
		for (int32_t k = 0; k < pairs; ++k) counts[pbd_PairReader_Next(&r)] += 1;
	}
	const int32_t room = lists->capacity & ~3; /* whole quads, so the padding always fits */
	int32_t used = 0;
	for (int32_t s = 0; s < live; ++s) {
		const int32_t i = entries[s];
		int32_t c = counts[s];
		if (c > room - used) {
			dropped += c - (room - used);
			c = room - used;
		}
		lists->start[i] = used;
		lists->count[i] = c;
		cursor[s] = used;
		counts[s] = used + c; /* from here: the end of the slot's list */
		used += (c + 3) & ~3;
	}
	for (int32_t s = 0; s < live; ++s) {
		const int32_t i = entries[s];
		for (int32_t q = halfCount[s]; q > 0; --q) {
			const int32_t t = pbd_PairReader_Next(&reader);
			if (cursor[s] < counts[s]) lists->indices[cursor[s]++] = entries[t];
			if (cursor[t] < counts[t]) lists->indices[cursor[t]++] = i;
		}
	}
	for (int32_t s = 0; s < live; ++s) {
		const int32_t i = entries[s];
		for (int32_t q = counts[s]; q & 3; ++q) lists->indices[q] = i; /* padding: the particle itself */
	}
	lists->used = used;
	lists->dropped = dropped;
	return 1;
}

/* ---------------------------------------------------------------- in slice units */

/* pbd_Grid_FindFluidLists in slice units (grid.h): the same build, then the serial half search and its passes one
   bounded range at a time. The counts live where the one-call build keeps them, in the scratch after the sorted
   copies (the caller holds it from Begin to the last unit): halfEnd[s] the pairs found through slot s, counts[s]
   a slot's list length then its list's end, cursor[s] where its next entry goes. Each pass reads those of the
   passes before it only, in the same order as the one-call build, so the lists are the same to the entry. */
enum { ListsSearch = 1, ListsCount, ListsCountLater, ListsLayout, ListsScatter, ListsPad, ListsDone };

int pbd_Grid_FluidListsBegin(pbdGrid* g, const pbdGridInput* in, pbdNeighbourLists* lists, void* scratch, size_t scratchBytes,
							 pbdFluidListsCursor* c)
{
	memset(c, 0, sizeof *c);
	const int built = BuildFluidGrid(g, in, lists, scratch, scratchBytes);
	c->count = in->count;
	c->work = (int64_t)in->count;
	c->part = built > 0 ? ListsSearch : ListsDone;
	c->fast = (g->phaseAnd & PBD_PHASE_FLUID) != 0u;
	return built >= 0;
}

int pbd_Grid_FluidListsUnit(pbdGrid* g, pbdNeighbourLists* lists, int32_t* work, int32_t workCapacity, pbdFluidListsCursor* c,
							int64_t budget)
{
	const int32_t live = g->count;
	const size_t stride = pbd_SortedStride(c->count);
	int32_t* halfEnd = (int32_t*)(g->phase + stride);
	int32_t* counts = halfEnd + stride;
	int32_t* cursor = counts + stride;
	const int32_t* entries = g->cellEntries;
	const int32_t room = lists->capacity & ~3; /* whole quads, so the padding always fits */
	c->work = 0;
	/* a slot pass's range from c->slot: about `budget` slots */
	const int64_t rest = (int64_t)live - c->slot;
	const int32_t slots = rest < budget ? (int32_t)rest : (int32_t)budget;
	switch (c->part) {
	case ListsSearch: {
		int64_t tests = 0;
		c->pairs = c->fast ? HalfSearch(g, work, workCapacity, halfEnd, &c->dropped, 1, c->slot, c->pairs, budget, &c->slot, &tests)
						   : HalfSearch(g, work, workCapacity, halfEnd, &c->dropped, 0, c->slot, c->pairs, budget, &c->slot, &tests);
		c->work = tests;
		if (c->slot >= live) c->part = ListsCount, c->slot = 0;
		return 0;
	}
	case ListsCount: /* each slot's later neighbours (halfEnd's steps) */
		for (int32_t s = c->slot; s < c->slot + slots; ++s) counts[s] = halfEnd[s] - (s > 0 ? halfEnd[s - 1] : 0);
		c->slot += slots, c->work = slots;
		if (c->slot >= live) c->part = ListsCountLater, c->slot = 0, c->pair = 0;
		return 0;
	case ListsCountLater: { /* and each slot as the later one of an earlier slot's pair */
		const int64_t left = (int64_t)c->pairs - c->pair;
		const int32_t n = left < budget ? (int32_t)left : (int32_t)budget;
		for (int32_t k = c->pair; k < c->pair + n; ++k) counts[work[k]] += 1;
		c->pair += n, c->work = n;
		if (c->pair >= c->pairs) c->part = ListsLayout, c->slot = 0, c->used = 0;
		return 0;
	}
	case ListsLayout: /* the padded starts, each list cut to the room left */
		for (int32_t s = c->slot; s < c->slot + slots; ++s) {
			const int32_t i = entries[s];
			int32_t n = counts[s];
			if (n > room - c->used) {
				c->dropped += n - (room - c->used);
				n = room - c->used;
			}
			lists->start[i] = c->used;
			lists->count[i] = n;
			cursor[s] = c->used;
			counts[s] = c->used + n; /* from here: the end of the slot's list */
			c->used += (n + 3) & ~3;
		}
		c->slot += slots, c->work = slots;
		if (c->slot >= live) c->part = ListsScatter, c->slot = 0, c->pair = 0;
		return 0;
	case ListsScatter: { /* each pair into both lists, slots in order; whole slots, about `budget` pairs */
		int32_t s = c->slot, k = c->pair;
		for (; s < live && k - c->pair < budget; ++s) {
			const int32_t i = entries[s];
			const int32_t end = halfEnd[s];
			for (; k < end; ++k) {
				const int32_t t = work[k];
				if (cursor[s] < counts[s]) lists->indices[cursor[s]++] = entries[t];
				if (cursor[t] < counts[t]) lists->indices[cursor[t]++] = i;
			}
		}
		c->work = (int64_t)(k - c->pair) + (s - c->slot);
		c->slot = s, c->pair = k;
		if (c->slot >= live) c->part = ListsPad, c->slot = 0;
		return 0;
	}
	case ListsPad: /* the padding: the particle itself */
		for (int32_t s = c->slot; s < c->slot + slots; ++s) {
			const int32_t i = entries[s];
			for (int32_t q = counts[s]; q & 3; ++q) lists->indices[q] = i;
		}
		c->slot += slots, c->work = slots;
		if (c->slot < live) return 0;
		lists->used = c->used;
		lists->dropped = c->dropped;
		c->part = ListsDone;
		return 1;
	default:
		return 1;
	}
}
