/* neighbours/grid_pairs.c -- the pairs output of the walk (grid.h pbd_Grid_FindPairs*): each unordered
   pair once as (i, j), i < j, in the walk's order (slot, then neighbour row, then slot), serially, in
   slice units, or shared out over the step's threads (grid_shared.c) and read back in slot order. */
#include "neighbours/grid.h"
#include "neighbours/grid_walk.h"
#include "world/core.h"

#include <string.h>

/* The serial walk from slot `from`: stored pairs so far, a budget of candidates (INT64_MAX: all). */
static int32_t Walk(pbdGrid* g, int32_t* pairs, int32_t capacity, int32_t stored, int32_t from, int64_t budget, int32_t* slot,
					int64_t* work)
{
	pbdWalkOut o;
	memset(&o, 0, sizeof o);
	o.out = pairs;
	o.capacity = capacity < 0 ? 0 : capacity;
	o.count = stored;
	o.budget = budget;
	const int fast = pbd_Grid_FastRules(g);
	if (g->uniformRadius > 0.0f) {
		if (fast) pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_PAIRS, 0, 1, 1);
		else pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_PAIRS, 0, 0, 1);
	} else {
		if (fast) pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_PAIRS, 1, 1, 1);
		else pbd_Grid_Walk(g, from, g->count, &o, PBD_WALK_PAIRS, 1, 0, 1);
	}
	g->dropped += o.dropped;
	*slot = o.next;
	*work = o.tests;
	return o.count;
}

int32_t pbd_Grid_FindPairs(pbdGrid* g, int32_t* pairs, int32_t capacity)
{
	/* The whole search is one unit without a budget: the same loop as the slices' (the same pairs in the same order),
	   compiled once; the budget's test per slot and count per run cost nothing measurable (bench/ab.mjs). */
	g->dropped = 0;
	int32_t slot = 0;
	int64_t work = 0;
	return pbd_Grid_FindPairsUnit(g, pairs, capacity, 0, &slot, INT64_MAX, &work);
}

int32_t pbd_Grid_FindPairsUnit(pbdGrid* g, int32_t* pairs, int32_t capacity, int32_t stored, int32_t* slot, int64_t budget,
							   int64_t* work)
{
	*work = 0;
	if (*slot == 0 && pbd_Grid_NothingToFind(g)) {
		*slot = g->count;
		return stored;
	}
	if (*slot >= g->count) return stored;
	return Walk(g, pairs, capacity, stored, *slot, budget, slot, work);
}

size_t pbd_Grid_PairPoolBytes(int32_t maxParticles, int32_t capacity)
{
	const size_t blocks = (size_t)(maxParticles / PBD_WALK_BLOCK + 1);
	/* a chunk holds PBD_WALK_CHUNK / 2 pairs, at least PBD_WALK_CHUNK / 2 - 3 of them used but each block's last */
	const size_t chunks = (size_t)(capacity / (PBD_WALK_CHUNK / 2 - 3) + 1) + blocks;
	return 16 + 2 * blocks * sizeof(int32_t) + chunks * (PBD_WALK_CHUNK + 2) * sizeof(int32_t);
}

int32_t pbd_Grid_FindPairsShared(struct pbdWorld* world, pbdGrid* g, int32_t* pairs, int32_t capacity, void* pool,
								 size_t poolBytes)
{
	if (world == NULL || !world->teamActive || g->count < 2 * PBD_WALK_BLOCK || pool == NULL || poolBytes < 16) {
		return pbd_Grid_FindPairs(g, pairs, capacity);
	}
	g->dropped = 0;
	if (pbd_Grid_NothingToFind(g)) return 0;
	if (capacity < 0) capacity = 0;
	int32_t* base = (int32_t*)(((uintptr_t)pool + 15u) & ~(uintptr_t)15u);
	const size_t words = (poolBytes - (size_t)((uint8_t*)base - (uint8_t*)pool)) / sizeof(int32_t);
	pbdWalkChunks C;
	if (pbd_Grid_WalkShared(world, g, PBD_WALK_PAIR_CHUNKS, base, words, NULL, &C) < 0) {
		return pbd_Grid_FindPairs(g, pairs, capacity);
	}
	/* in slot order, the first `capacity` kept and the rest counted as dropped, as the serial search does */
	int32_t count = 0, dropped = 0;
	for (int32_t c = C.blockFirst[0]; c >= 0; c = C.next[c]) {
		const int32_t n = C.used[c];
		const int32_t take = n < capacity - count ? n : capacity - count;
		memcpy(pairs + 2 * (size_t)count, C.pool + (size_t)c * PBD_WALK_CHUNK, (size_t)take * 2 * sizeof(int32_t));
		count += take;
		dropped += n - take;
	}
	g->dropped = dropped;
	return count;
}
