/* neighbours/grid_shared.c -- the fluid lists' half search shared out over the step's threads
   (grid_lists.c pbd_Grid_FindFluidLists, the threaded build): the same pairs in the same order as the
   serial HalfSearch, so the same lists, whatever the thread count.

   The serial search appends each slot's pairs to one array, so slot s's pairs start where slot
   s - 1's end: a shared-out search cannot know where that is. Here each block of SEARCH_SLOTS
   slots appends to chunks of PAIR_CHUNK entries that it takes from the same array through one
   atomic counter, and chains them; after the join the blocks' chains are linked in slot order.
   Which chunk a block got depends on the threads' timing, but only the chain's order is read
   (pbdPairReader), and that is slot order. When the chunks run out (more pairs than the array
   holds, less what the blocks' last chunks leave unused) the search is abandoned and the serial
   one runs, which drops pairs exactly as it always has. */
#include "neighbours/grid_shared.h"
#include "neighbours/grid_cells.h"
#include "world/core.h"
#include "base/simd.h"
#include "base/tasks.h"

#include <stdatomic.h>
#include <string.h>

typedef struct SharedSearch {
	const pbdGrid* g;
	int32_t* work;
	int32_t chunks;
	int32_t *chunkNext, *chunkUsed, *blockFirst, *blockLast;
	int32_t* halfCount;
	atomic_int nextChunk;
	atomic_int overflow;
	int fast;
} SharedSearch;

static inline __attribute__((always_inline)) void SearchSlots(SharedSearch* S, int32_t begin, int32_t end, const int fast)
{
	const pbdGrid* g = S->g;
	const uint32_t mask = (uint32_t)g->buckets - 1u;
	const float inv = g->invCell;
	const pbdF4 r2 = pbdF4_Splat(g->uniformRadius * g->uniformRadius);
	const int32_t* start = g->cellStart;
	const float *qx = g->x, *qy = g->y, *qz = g->z;
	const uint32_t* qp = g->phase;
	const int32_t b = begin / SEARCH_SLOTS;
	int32_t first[2 * PBD_GRID_ROWS], last[2 * PBD_GRID_ROWS];
	int32_t ranges = 0, cx = 0, cy = 0, cz = 0;
	int32_t chunk = -1, k = PAIR_CHUNK; /* no chunk yet: the first quad takes one */
	int32_t* out = S->work;
	S->blockFirst[b] = S->blockLast[b] = -1;
	for (int32_t s = begin; s < end; ++s) {
		const float xi = qx[s], yi = qy[s], zi = qz[s];
		const int32_t ix = pbd_CellIndex(xi, inv), iy = pbd_CellIndex(yi, inv), iz = pbd_CellIndex(zi, inv);
		if (s == begin || ix != cx || iy != cy || iz != cz) {
			cx = ix, cy = iy, cz = iz;
			ranges = pbd_Grid_Neighbourhood(start, mask, ix, iy, iz, first, last);
		}
		const uint32_t need = fast || (qp[s] & PBD_PHASE_FLUID) ? 0u : PBD_PHASE_FLUID;
		const pbdF4 xs = pbdF4_Splat(xi), ys = pbdF4_Splat(yi), zs = pbdF4_Splat(zi);
		int32_t pairs = 0;
		for (int32_t r = 0; r < ranges; ++r) {
			const int32_t e = last[r];
			const int32_t from = first[r] > s ? first[r] : s + 1;
			for (int32_t t = from; t < e; t += 4) {
				const uint32_t hits = pbd_Grid_QuadHits(g, xs, ys, zs, r2, t, e, need, fast);
				if (k > PAIR_CHUNK - 4) { /* a quad's four stores must fit: the next chunk */
					const int32_t next = atomic_fetch_add_explicit(&S->nextChunk, 1, memory_order_relaxed);
					if (next >= S->chunks) {
						atomic_store_explicit(&S->overflow, 1, memory_order_relaxed);
						return;
					}
					if (chunk >= 0) S->chunkUsed[chunk] = k, S->chunkNext[chunk] = next;
					else S->blockFirst[b] = next;
					chunk = next, k = 0;
					out = S->work + (size_t)chunk * PAIR_CHUNK;
				}
				const uint8_t* lane = pbd_GridLanes[hits];
				out[k + 0] = t + lane[0];
				out[k + 1] = t + lane[1];
				out[k + 2] = t + lane[2];
				out[k + 3] = t + lane[3];
				k += pbd_GridHits[hits];
				pairs += pbd_GridHits[hits];
			}
		}
		S->halfCount[s] = pairs;
	}
	if (chunk >= 0) {
		S->chunkUsed[chunk] = k, S->chunkNext[chunk] = -1;
		S->blockLast[b] = chunk;
	}
}

static void SearchFast(void* data, int32_t begin, int32_t end) { SearchSlots(data, begin, end, 1); }
static void SearchMixed(void* data, int32_t begin, int32_t end) { SearchSlots(data, begin, end, 0); }

int32_t pbd_Grid_SharedHalfSearch(struct pbdWorld* world, const pbdGrid* g, int32_t* work, int32_t workCapacity,
								  int32_t* halfCount, int32_t* extra, int32_t extraCount, int fast, pbdPairReader* reader)
{
	const int32_t m = g->count;
	const int32_t blocks = (m + SEARCH_SLOTS - 1) / SEARCH_SLOTS;
	int32_t chunks = workCapacity / PAIR_CHUNK;
	if ((extraCount - 2 * blocks) / 2 < chunks) chunks = (extraCount - 2 * blocks) / 2;
	if (chunks < blocks) return -1; /* too little room to be worth it: the serial search */
	SharedSearch S;
	S.g = g;
	S.work = work;
	S.chunks = chunks;
	S.blockFirst = extra;
	S.blockLast = extra + blocks;
	S.chunkNext = extra + 2 * blocks;
	S.chunkUsed = S.chunkNext + chunks;
	S.halfCount = halfCount;
	atomic_init(&S.nextChunk, 0);
	atomic_init(&S.overflow, 0);
	S.fast = fast;
	pbd_Parallel_For(world, m, SEARCH_SLOTS, fast ? SearchFast : SearchMixed, &S);
	if (atomic_load_explicit(&S.overflow, memory_order_relaxed)) return -1;
	/* the blocks' chains, linked in slot order */
	int32_t head = -1, tail = -1, pairs = 0;
	for (int32_t b = 0; b < blocks; ++b) {
		if (S.blockFirst[b] < 0) continue;
		if (tail >= 0) S.chunkNext[tail] = S.blockFirst[b];
		else head = S.blockFirst[b];
		tail = S.blockLast[b];
	}
	for (int32_t s = 0; s < m; ++s) pairs += halfCount[s];
	reader->work = work;
	reader->next = S.chunkNext;
	reader->used = S.chunkUsed;
	reader->chunk = head;
	reader->k = 0;
	reader->stride = PAIR_CHUNK;
	return pairs;
}

/* ---------------------------------------------------------------- pairs (the contacts' search) */

size_t pbd_Grid_PairPoolBytes(int32_t maxParticles, int32_t capacity)
{
	const size_t blocks = (size_t)(maxParticles / SEARCH_SLOTS + 1);
	const size_t chunks = (size_t)(capacity / PBD_PAIR_CHUNK + 1) + blocks; /* each block's last chunk may be part full */
	return 16 + 2 * blocks * sizeof(int32_t) + chunks * (2 * PBD_PAIR_CHUNK + 2) * sizeof(int32_t);
}

typedef struct PairSearch {
	pbdGrid* g;
	const pbdGridFilter* f;
	pbdPairChunks* chunks;
} PairSearch;

static void SearchPairs(void* data, int32_t begin, int32_t end)
{
	const PairSearch* S = data;
	if (pbd_Grid_SearchPairsBlock(S->g, S->f, S->chunks, begin, end) < 0) {
		atomic_store_explicit(&S->chunks->overflow, 1, memory_order_relaxed);
	}
}

int32_t pbd_Grid_FindPairsShared(struct pbdWorld* world, pbdGrid* g, const pbdGridFilter* f, int32_t* pairs, int32_t capacity,
								 void* pool, size_t poolBytes)
{
	const int32_t m = g->count;
	if (world == NULL || !world->teamActive || f->fluid || m < 2 * SEARCH_SLOTS || pool == NULL) {
		return pbd_Grid_FindPairs(g, f, pairs, capacity);
	}
	g->dropped = 0;
	if (pbd_Grid_NothingToFind(g, f)) return 0;
	if (capacity < 0) capacity = 0;
	const int32_t blocks = (m + SEARCH_SLOTS - 1) / SEARCH_SLOTS;
	int32_t* base = (int32_t*)(((uintptr_t)pool + 15u) & ~(uintptr_t)15u);
	const size_t words = (poolBytes - (size_t)((uint8_t*)base - (uint8_t*)pool)) / sizeof(int32_t);
	if (poolBytes < 16 || words < 2 * (size_t)blocks) return pbd_Grid_FindPairs(g, f, pairs, capacity);
	const size_t chunks = (words - 2 * (size_t)blocks) / (2 * PBD_PAIR_CHUNK + 2);
	if (chunks < (size_t)blocks) return pbd_Grid_FindPairs(g, f, pairs, capacity);
	pbdPairChunks C;
	C.blockFirst = base;
	C.blockLast = base + blocks;
	C.next = base + 2 * blocks;
	C.used = C.next + chunks;
	C.pool = C.used + chunks;
	C.pool = (int32_t*)(((uintptr_t)C.pool + 7u) & ~(uintptr_t)7u);
	C.chunks = (int32_t)(chunks - 1); /* one chunk's room lost to the alignment at most */
	atomic_init(&C.nextChunk, 0);
	atomic_init(&C.overflow, 0);
	PairSearch S = { g, f, &C };
	pbd_Parallel_For(world, m, SEARCH_SLOTS, SearchPairs, &S);
	if (atomic_load_explicit(&C.overflow, memory_order_relaxed)) return pbd_Grid_FindPairs(g, f, pairs, capacity);
	/* in slot order, the first `capacity` kept and the rest counted as dropped, as the serial search does */
	int32_t count = 0, dropped = 0;
	for (int32_t b = 0; b < blocks; ++b) {
		for (int32_t c = C.blockFirst[b]; c >= 0; c = C.next[c]) {
			const int32_t n = C.used[c];
			const int32_t take = n < capacity - count ? n : capacity - count;
			memcpy(pairs + 2 * (size_t)count, C.pool + (size_t)c * 2 * PBD_PAIR_CHUNK, (size_t)take * 2 * sizeof(int32_t));
			count += take;
			dropped += n - take;
		}
	}
	g->dropped = dropped;
	return count;
}
