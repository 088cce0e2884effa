/* neighbours/grid_lists.c -- the per-particle lists output of the walk (grid.h pbd_Grid_FindLists), CompactNSearch's
   layout padded for 4-wide loops. The fluid family's per-substep lists: one build of a settling dam break (same
   run, same machine): 8,000 particles 1.16 ms natively (gcc -O2), 1.42 ms in wasm; 25,000 particles 2.8 ms
   natively, 3.4 ms in wasm (a full search, every pair met from both sides: 3.9 ms at 8k natively).

   How, and why
   ------------
   - A half search (grid_walk.h, PBD_WALK_SLOTS): each pair is tested once (slot t after slot s), the later
     slot into a temporary array (`work`: the fluid's per-entry array, free until the density pass fills it),
     with no branch on the hits (pbd_GridLanes); then per-slot counts, padded prefix sums and a scatter into
     both lists. Half the distance tests and half the hits of a full search. The neighbourhood's runs are
     merged (grid.c pbd_Grid_MergedRuns), so candidates come in slot order.
   - Cells of edge h (a hair more). Measured and left out: cells of h / 2 (3.5 ms instead of 2.3 at 8k: their
     25 short runs waste most lanes of the 4-wide test), gathering each cell's candidates into contiguous arrays
     (no gain: the copy costs what the per-run bookkeeping did), skipping the corner rows farther than h from the
     particle (~9% fewer tests, paid back by the test and its branch).
   The lists are a pure function of the inputs: slot order is the counting sort's (bucket, then particle index),
   pairs are found in slot order, and particle i's list is its neighbours of earlier slots in slot order, then
   those of later slots in merged-run order. Every build (native, scalar, wasm) gives the same bits.

   - With the step's threads (a shared walk, grid_shared.c) the counts and the scatter are shared out too
     (SharedScatter below): the same lists, entry for entry.

   The counts live in the build's scratch after its sorted copies (grid->spare): halfEnd[s] the pairs found
   through slot s (or per slot), counts[s] a slot's list length then its list's start (the serial scatter: its
   end), cursor[s] where its next entry goes; the fourth, with threads, each slot's earlier neighbours.

   Bounds: pairs beyond `workCapacity` are dropped (from both lists, so the lists stay symmetric),
   lists past lists->capacity are cut short (those neighbours dropped); lists->dropped counts both.
*/
#include "neighbours/grid.h"
#include "neighbours/grid_walk.h"
#include "world/core.h"
#include "base/tasks.h"

#include <string.h>

#define LISTS_ARRAYS 4

/// The pairs in slot order: one array (the serial walk: one chunk of all of them) or a chain of chunks.
typedef struct PairReader {
	const int32_t* work;
	const int32_t* next;
	const int32_t* used;
	int32_t chunk, k, stride;
} PairReader;

static inline int32_t NextPair(PairReader* r)
{
	while (r->k == r->used[r->chunk]) r->chunk = r->next[r->chunk], r->k = 0;
	return r->work[(size_t)r->chunk * (size_t)r->stride + (size_t)r->k++];
}

/* The serial half search from slot `from` (sliced: about `budget` candidates); pairs0 found before. */
static int32_t HalfSearch(const pbdGrid* g, int32_t* work, int32_t workCapacity, int32_t* halfEnd, int32_t* dropped, int fast,
						  int32_t from, int32_t pairs0, int64_t budget, int32_t* next, int64_t* tests, const int sliced)
{
	pbdWalkOut o;
	memset(&o, 0, sizeof o);
	o.out = work;
	o.capacity = workCapacity;
	o.count = pairs0;
	o.perSlot = halfEnd;
	/* The whole search is the sliced walk without a budget, as the pairs' (grid_pairs.c): the same lists, compiled
	   once (4 copies of the walk, not 8: 1.8 KB of the wasm's gzip), at the cost of the budget's test per slot. */
	o.budget = sliced ? budget : INT64_MAX;
	const int one = g->uniformRadius > 0.0f;
	if (one) fast ? pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_SLOTS, 0, 1, 1) : pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_SLOTS, 0, 0, 1);
	else fast ? pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_SLOTS, 1, 1, 1) : pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_SLOTS, 1, 0, 1);
	*dropped += o.dropped;
	if (next != NULL) *next = o.next, *tests = o.tests;
	return o.count;
}

/* The start both forms share: every list emptied; 0 when the grid cannot be searched (unusable input,
   scratch short), else 1 with *search whether there is anything to find. */
static int Start(const pbdGrid* g, pbdNeighbourLists* lists, int* search)
{
	lists->used = 0;
	lists->dropped = 0;
	*search = 0;
	for (int32_t i = 0; i < g->inputCount; ++i) lists->start[i] = lists->count[i] = 0;
	if (g->buckets == 0) return g->inputCount == 0; /* no particle, or no usable radius (refused) */
	if (g->spareArrays < LISTS_ARRAYS) return 0;    /* the scratch has no room for the counts */
	*search = !pbd_Grid_NothingToFind(g);
	return 1;
}

/* The layout, the same for both forms: slot s's list starts where the lists before it end (padded to quads), holds
   counts[s] entries cut to the room left (those past it dropped, lists->dropped); counts[s] becomes its start and
   cursor[s] where its later neighbours go (its earlier ones before them). Returns the entries used. */
static int32_t Layout(const pbdGrid* g, pbdNeighbourLists* lists, int32_t* counts, int32_t* cursor, const int32_t* earlier,
					  int32_t* dropped)
{
	const int32_t room = lists->capacity & ~3; /* whole quads, so the padding always fits */
	int32_t used = 0;
	for (int32_t s = 0; s < g->count; ++s) {
		const int32_t i = g->cellEntries[s];
		int32_t c = counts[s];
		if (c > room - used) {
			*dropped += c - (room - used);
			c = room - used;
		}
		lists->start[i] = used;
		lists->count[i] = c;
		counts[s] = used;
		cursor[s] = used + (earlier != NULL ? earlier[s] : 0);
		used += (c + 3) & ~3;
	}
	return used;
}

#if PBD_HAS_TEAM
/* The counts and the scatter shared out over the step's threads (issue 23 item 4: serial, they were 6.4% of a
   2-thread dam break of 25k natively, the half the second thread waited for). The walk's pairs come in chunks per
   block of PBD_WALK_BLOCK slots, in slot order (grid_shared.c); LISTS_PARTS fixed parts of consecutive blocks (so
   never a number that depends on the threads) each count, per slot t, their pairs (s, t): then t's earlier
   neighbours from part k go after those of parts 0..k-1, in the part's slot order, which is where the serial
   scatter puts them. Every entry has one writer and the same place as in the serial lists. The part counts take
   LISTS_PARTS arrays of the walk's pool past its last chunk taken (the pool is the fluid's per-entry array: ~16
   pairs a particle of its 80 entries); without that room the serial scatter runs. */
#define LISTS_PARTS 8
#define LISTS_SLOT_BLOCK 2048

typedef struct SharedLists {
	const pbdGrid* g;
	pbdNeighbourLists* lists;
	const pbdWalkChunks* C;
	const int32_t* halfCount; /* per slot: its later neighbours */
	int32_t *counts, *cursor; /* per slot: its list's length, then its start; where its later neighbours go */
	int32_t* earlier;         /* per slot: its earlier neighbours (a list's first entries) */
	int32_t* part;            /* LISTS_PARTS x stride: part k's pairs (s, t) per slot t, then where its next goes */
	size_t stride;
	int32_t blocks;
} SharedLists;

/* Part k's slots [*begin, *end) and a reader at its first pair. */
static PairReader PartReader(const SharedLists* S, int32_t k, int32_t* begin, int32_t* end)
{
	const int32_t b0 = (int32_t)((int64_t)k * S->blocks / LISTS_PARTS), b1 = (int32_t)((int64_t)(k + 1) * S->blocks / LISTS_PARTS);
	*begin = b0 * PBD_WALK_BLOCK;
	*end = b1 * PBD_WALK_BLOCK < S->g->count ? b1 * PBD_WALK_BLOCK : S->g->count;
	int32_t first = -1;
	for (int32_t b = b0; b < b1 && first < 0; ++b) first = S->C->blockFirst[b]; /* blockFirst[0]: the chain's head */
	return (PairReader){ S->C->pool, S->C->next, S->C->used, first, 0, PBD_WALK_CHUNK };
}

static void CountParts(void* data, int32_t begin, int32_t end)
{
	const SharedLists* S = data;
	for (int32_t k = begin; k < end; ++k) {
		int32_t* part = S->part + (size_t)k * S->stride;
		memset(part, 0, (size_t)S->g->count * sizeof(int32_t));
		int32_t s0, s1;
		PairReader r = PartReader(S, k, &s0, &s1);
		for (int32_t s = s0; s < s1; ++s) {
			for (int32_t q = S->halfCount[s]; q > 0; --q) part[NextPair(&r)] += 1;
		}
	}
}

/* per slot: the parts' counts -> where each part's first entry goes among its earlier neighbours; their sum */
static void PartOffsets(void* data, int32_t begin, int32_t end)
{
	const SharedLists* S = data;
	for (int32_t t = begin; t < end; ++t) {
		int32_t run = 0;
		for (int32_t k = 0; k < LISTS_PARTS; ++k) {
			int32_t* c = S->part + (size_t)k * S->stride + t;
			const int32_t n = *c;
			*c = run;
			run += n;
		}
		S->earlier[t] = run;
		S->counts[t] = run + S->halfCount[t];
	}
}

static void ScatterParts(void* data, int32_t begin, int32_t end)
{
	const SharedLists* S = data;
	const int32_t* entries = S->g->cellEntries;
	int32_t* indices = S->lists->indices;
	for (int32_t k = begin; k < end; ++k) {
		int32_t* part = S->part + (size_t)k * S->stride;
		int32_t s0, s1;
		PairReader r = PartReader(S, k, &s0, &s1);
		for (int32_t s = s0; s < s1; ++s) {
			const int32_t i = entries[s];
			const int32_t stop = S->counts[s] + S->lists->count[i];
			int32_t at = S->cursor[s];
			for (int32_t q = S->halfCount[s]; q > 0; --q) {
				const int32_t t = NextPair(&r);
				if (at < stop) indices[at++] = entries[t];
				const int32_t e = part[t]++;
				if (e < S->lists->count[entries[t]]) indices[S->counts[t] + e] = i;
			}
		}
	}
}

static void PadSlots(void* data, int32_t begin, int32_t end)
{
	const SharedLists* S = data;
	for (int32_t s = begin; s < end; ++s) {
		const int32_t i = S->g->cellEntries[s];
		for (int32_t q = S->counts[s] + S->lists->count[i]; q & 3; ++q) S->lists->indices[q] = i;
	}
}

/* The lists from a shared walk's chunks; 0 (nothing written) when the pool has no room for the part counts. */
static int SharedScatter(struct pbdWorld* world, const pbdGrid* g, pbdNeighbourLists* lists, const pbdWalkChunks* C,
						 const int32_t* halfCount, int32_t* counts, int32_t* cursor, int32_t* earlier, int32_t* dropped)
{
	const size_t stride = pbd_SortedStride(g->inputCount);
	const int32_t taken = atomic_load_explicit(&((pbdWalkChunks*)C)->nextChunk, memory_order_relaxed);
	const int32_t firstFree = taken < C->chunks ? taken : C->chunks;
	if ((size_t)(C->chunks - firstFree) * PBD_WALK_CHUNK < LISTS_PARTS * stride) return 0;
	SharedLists S = { g, lists, C, halfCount, counts, cursor, earlier, C->pool + (size_t)firstFree * PBD_WALK_CHUNK, stride,
					  (g->count + PBD_WALK_BLOCK - 1) / PBD_WALK_BLOCK };
	pbd_Parallel_For(world, LISTS_PARTS, 1, CountParts, &S);
	pbd_Parallel_For(world, g->count, LISTS_SLOT_BLOCK, PartOffsets, &S);
	lists->used = Layout(g, lists, counts, cursor, earlier, dropped);
	pbd_Parallel_For(world, LISTS_PARTS, 1, ScatterParts, &S);
	pbd_Parallel_For(world, g->count, LISTS_SLOT_BLOCK, PadSlots, &S);
	return 1;
}
#else
static int SharedScatter(struct pbdWorld* world, const pbdGrid* g, pbdNeighbourLists* lists, const pbdWalkChunks* C,
						 const int32_t* halfCount, int32_t* counts, int32_t* cursor, int32_t* earlier, int32_t* dropped)
{
	return 0;
}
#endif

int pbd_Grid_FindLists(struct pbdWorld* world, pbdGrid* g, pbdNeighbourLists* lists, int32_t* work, int32_t workCapacity)
{
	int search;
	if (!Start(g, lists, &search)) return 0;
	if (!search) return 1;
	const int32_t live = g->count;
	const size_t stride = pbd_SortedStride(g->inputCount);
	int32_t* halfEnd = g->spare;
	int32_t* counts = halfEnd + stride;
	int32_t* cursor = counts + stride;
	int32_t* earlier = cursor + stride; /* the fourth array: free once the shared walk is done */
	const int32_t* entries = g->cellEntries;

	/* each pair once, then counts -> padded starts -> scatter; with the step's threads the search is
	   shared out (grid_shared.c: the same pairs in the same order) unless it runs out of room, and so are the
	   counts and the scatter (SharedScatter: the same lists) */
	int32_t dropped = 0;
	const int fast = pbd_Grid_FastRules(g);
	pbdWalkChunks C;
	int32_t pairs = world != NULL ? pbd_Grid_WalkShared(world, g, PBD_WALK_SLOT_CHUNKS, work, (size_t)workCapacity, halfEnd, &C) : -1;
	if (pairs >= 0 && SharedScatter(world, g, lists, &C, halfEnd, counts, cursor, earlier, &dropped)) {
		lists->dropped = dropped;
		return 1;
	}
	PairReader reader;
	int32_t linearUsed = 0, linearNext = -1;
	if (pairs >= 0) {
		reader = (PairReader){ C.pool, C.next, C.used, C.blockFirst[0], 0, PBD_WALK_CHUNK };
	} else {
		pairs = HalfSearch(g, work, workCapacity, halfEnd, &dropped, fast, 0, 0, 0, NULL, NULL, 0);
		for (int32_t s = live - 1; s > 0; --s) halfEnd[s] -= halfEnd[s - 1]; /* ends -> counts per slot */
		linearUsed = pairs;
		reader = (PairReader){ work, &linearNext, &linearUsed, 0, 0, 0 };
	}
	const int32_t* halfCount = halfEnd;
	/* list lengths: s's later neighbours, then s as the later one of earlier slots' pairs */
	for (int32_t s = 0; s < live; ++s) counts[s] = halfCount[s];
	{
		PairReader r = reader;
		for (int32_t k = 0; k < pairs; ++k) counts[NextPair(&r)] += 1;
	}
	const int32_t used = Layout(g, lists, counts, cursor, NULL, &dropped);
	for (int32_t s = 0; s < live; ++s) counts[s] += lists->count[entries[s]]; /* from here: the end of the slot's list */
	for (int32_t s = 0; s < live; ++s) {
		const int32_t i = entries[s];
		for (int32_t q = halfCount[s]; q > 0; --q) {
			const int32_t t = NextPair(&reader);
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

/* pbd_Grid_FindLists in slice units (grid.h): the serial half search and its passes one bounded range at a time,
   the counts where the one call keeps them (the caller holds the scratch from Begin to the last unit). Each pass
   reads those of the passes before it only, in the same order as the one call, so the lists are the same to the
   entry. */
enum { ListsSearch = 1, ListsCount, ListsCountLater, ListsLayout, ListsScatter, ListsPad, ListsDone };

int pbd_Grid_ListsBegin(pbdGrid* g, pbdNeighbourLists* lists, pbdListsCursor* c)
{
	memset(c, 0, sizeof *c);
	int search;
	const int usable = Start(g, lists, &search);
	c->work = (int64_t)g->inputCount;
	c->part = usable && search ? ListsSearch : ListsDone;
	c->fast = pbd_Grid_FastRules(g);
	return usable;
}

int pbd_Grid_ListsUnit(pbdGrid* g, pbdNeighbourLists* lists, int32_t* work, int32_t workCapacity, pbdListsCursor* c,
					   int64_t budget)
{
	const int32_t live = g->count;
	const size_t stride = pbd_SortedStride(g->inputCount);
	int32_t* halfEnd = g->spare;
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
		c->pairs = HalfSearch(g, work, workCapacity, halfEnd, &c->dropped, c->fast, c->slot, c->pairs, budget, &c->slot, &tests, 1);
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
