/* neighbours/grid_shared.c -- the walk (grid_walk.h) shared out over the step's threads, for either
   output: the same pairs in the same order as the serial walk, whatever the thread count.

   The serial walk appends each slot's pairs to one array, so slot s's pairs start where slot s - 1's
   end: a shared-out walk cannot know where that is. Here each block of PBD_WALK_BLOCK slots appends
   to chunks of PBD_WALK_CHUNK int32 that it takes from one pool through one atomic counter, and
   chains them; after the join the blocks' chains are linked in slot order. Which chunk a block got
   depends on the threads' timing, but only the chain's order is read, and that is slot order. When
   the chunks run out the walk is abandoned and the caller walks serially, which drops pairs exactly
   as it always has. */
#include "neighbours/grid.h"
#include "neighbours/grid_walk.h"
#include "world/core.h"
#include "base/tasks.h"

#include <stdatomic.h>

/* The single-thread wasm (no atomics: PBD_HAS_TEAM 0) never has an active team, so its walks would
   never run: without them the element's wasm is ~7 KB gzip smaller (weight.test.mjs). */
#if !PBD_HAS_TEAM
int32_t pbd_Grid_WalkShared(struct pbdWorld* world, const pbdGrid* g, int output, int32_t* pool, size_t poolWords,
							int32_t* perSlot, pbdWalkChunks* C)
{
	return -1;
}
#else
typedef struct SharedWalk {
	const pbdGrid* g;
	pbdWalkChunks* chunks;
	int32_t* perSlot;
} SharedWalk;

#define BLOCK_FN(name, output, perParticle, fast)                                                  \
	static void name(void* data, int32_t begin, int32_t end)                                      \
	{                                                                                              \
		SharedWalk* S = data;                                                                      \
		pbdWalkOut o = { 0 };                                                                      \
		o.chunks = S->chunks;                                                                      \
		o.perSlot = S->perSlot;                                                                    \
		if (pbd_Grid_Walk(S->g, begin, end, &o, output, perParticle, fast, 0) < 0) {               \
			atomic_store_explicit(&S->chunks->overflow, 1, memory_order_relaxed);                  \
		}                                                                                          \
	}
BLOCK_FN(PairsOne, PBD_WALK_PAIR_CHUNKS, 0, 0)
BLOCK_FN(PairsOneFast, PBD_WALK_PAIR_CHUNKS, 0, 1)
BLOCK_FN(PairsEach, PBD_WALK_PAIR_CHUNKS, 1, 0)
BLOCK_FN(PairsEachFast, PBD_WALK_PAIR_CHUNKS, 1, 1)
BLOCK_FN(SlotsOne, PBD_WALK_SLOT_CHUNKS, 0, 0)
BLOCK_FN(SlotsOneFast, PBD_WALK_SLOT_CHUNKS, 0, 1)
BLOCK_FN(SlotsEach, PBD_WALK_SLOT_CHUNKS, 1, 0)
BLOCK_FN(SlotsEachFast, PBD_WALK_SLOT_CHUNKS, 1, 1)

int32_t pbd_Grid_WalkShared(struct pbdWorld* world, const pbdGrid* g, int output, int32_t* pool, size_t poolWords,
							int32_t* perSlot, pbdWalkChunks* C)
{
	const int32_t m = g->count;
	if (world == NULL || !world->teamActive || m < 1) return -1;
	const int32_t blocks = (m + PBD_WALK_BLOCK - 1) / PBD_WALK_BLOCK;
	/* the pool: blockFirst, blockLast, then next and used per chunk, then the chunks (8-byte aligned) */
	if (poolWords < 2 * (size_t)blocks + 2) return -1;
	size_t chunks = (poolWords - 2 * (size_t)blocks - 2) / (PBD_WALK_CHUNK + 2);
	if (chunks < (size_t)blocks) return -1; /* too little room to be worth it: the serial walk */
	C->blockFirst = pool;
	C->blockLast = pool + blocks;
	C->next = pool + 2 * blocks;
	C->used = C->next + chunks;
	C->pool = (int32_t*)(((uintptr_t)(C->used + chunks) + 7u) & ~(uintptr_t)7u);
	C->chunks = (int32_t)chunks;
	atomic_init(&C->nextChunk, 0);
	atomic_init(&C->overflow, 0);
	SharedWalk S = { g, C, perSlot };
	const int fast = pbd_Grid_FastRules(g), one = g->uniformRadius > 0.0f;
	pbdBlockFn* fn;
	if (output == PBD_WALK_PAIR_CHUNKS) fn = one ? (fast ? PairsOneFast : PairsOne) : (fast ? PairsEachFast : PairsEach);
	else fn = one ? (fast ? SlotsOneFast : SlotsOne) : (fast ? SlotsEachFast : SlotsEach);
	pbd_Parallel_For(world, m, PBD_WALK_BLOCK, fn, &S);
	if (atomic_load_explicit(&C->overflow, memory_order_relaxed)) return -1;
	/* the blocks' chains, linked in slot order; the head into blockFirst[0] */
	int32_t head = -1, tail = -1;
	for (int32_t b = 0; b < blocks; ++b) {
		if (C->blockFirst[b] < 0) continue;
		if (tail >= 0) C->next[tail] = C->blockFirst[b];
		else head = C->blockFirst[b];
		tail = C->blockLast[b];
	}
	C->blockFirst[0] = head;
	int32_t found = 0;
	for (int32_t c = head; c >= 0; c = C->next[c]) found += C->used[c];
	return found;
}
#endif
