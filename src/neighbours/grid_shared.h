/* neighbours/grid_shared.h -- what grid_lists.c and grid_shared.c share: the neighbourhood runs,
   the lane tables, the pair reader, and the half search shared out over the step's threads. */
#ifndef PBD_GRID_SHARED_H
#define PBD_GRID_SHARED_H

#include "neighbours/grid.h"
#include "world/core.h"
#include "base/simd.h"

#define PBD_GRID_CELL_DIVISIONS 1
#define PBD_GRID_ROW (2 * PBD_GRID_CELL_DIVISIONS + 1)
#define PBD_GRID_ROWS (PBD_GRID_ROW * PBD_GRID_ROW)
/* Slots per block of the shared search, and entries per chunk of its pairs: a block of a
   settled dam break holds ~15 pairs a slot, ~8 chunks. */
#define SEARCH_SLOTS 256
#define PAIR_CHUNK 512
#define PBD_SEARCH_SLOTS SEARCH_SLOTS
/// Pairs per chunk of the shared pair search (pbd_Grid_FindPairsShared).
#define PBD_PAIR_CHUNK 256

#include <stdatomic.h>

/// The chunks the blocks of a shared pair search append to (grid_shared.c): taken through one
/// counter, chained per block, read in block order.
typedef struct pbdPairChunks {
	int32_t* pool; ///< chunks x PBD_PAIR_CHUNK pairs
	int32_t chunks;
	int32_t *next, *used, *blockFirst, *blockLast;
	atomic_int nextChunk, overflow;
} pbdPairChunks;

/// The next chunk for `block` after *chunk (-1: its first), or NULL when none is left.
static inline int32_t* pbd_PairChunks_Take(pbdPairChunks* c, int32_t block, int32_t* chunk)
{
	const int32_t next = atomic_fetch_add_explicit(&c->nextChunk, 1, memory_order_relaxed);
	if (next >= c->chunks) {
		atomic_store_explicit(&c->overflow, 1, memory_order_relaxed);
		return NULL;
	}
	if (*chunk >= 0) c->used[*chunk] = PBD_PAIR_CHUNK, c->next[*chunk] = next;
	else c->blockFirst[block] = next;
	*chunk = next;
	return c->pool + (size_t)next * 2 * PBD_PAIR_CHUNK;
}

/// Slots [begin, end) of the pair search (grid.c's Search), into chunks; -1 when they ran out.
int32_t pbd_Grid_SearchPairsBlock(pbdGrid* g, const pbdGridFilter* f, pbdPairChunks* chunks, int32_t begin, int32_t end);
int pbd_Grid_NothingToFind(const pbdGrid* g, const pbdGridFilter* f);

/// The hits of slots [t, t + 4) of a run ending at e (lanes past it off) within sqrt(r2) of (xs, ys, zs),
/// as 4 lane bits; unless `fast`, a non-zero `need` keeps only lanes whose phase carries it (a solid slot
/// pairs with fluid ones only). The half searches' test, serial (grid_lists.c) and shared (grid_shared.c).
static inline __attribute__((always_inline)) uint32_t pbd_Grid_QuadHits(const pbdGrid* g, pbdF4 xs, pbdF4 ys, pbdF4 zs, pbdF4 r2,
																		int32_t t, int32_t e, uint32_t need, const int fast)
{
	const pbdF4 dx = pbdF4_Sub(xs, pbdF4_Load(g->x + t));
	const pbdF4 dy = pbdF4_Sub(ys, pbdF4_Load(g->y + t));
	const pbdF4 dz = pbdF4_Sub(zs, pbdF4_Load(g->z + t));
	const pbdF4 d2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz));
	const int32_t left = e - t;
	uint32_t hits = pbdF4_LessBits(d2, r2) & (left >= 4 ? 15u : (1u << left) - 1u);
	if (!fast && need != 0u) {
		for (int l = 0; l < 4; ++l) hits &= ~((uint32_t)((g->phase[t + l] & need) == 0u) << l);
	}
	return hits;
}

/// The slot ranges around cell (ix, iy, iz), sorted and merged (grid_lists.c).
int32_t pbd_Grid_Neighbourhood(const int32_t* start, uint32_t mask, int32_t ix, int32_t iy, int32_t iz, int32_t* first,
							   int32_t* end);
extern const uint8_t pbd_GridLanes[16][4];
extern const uint8_t pbd_GridHits[16];

/// The pairs in slot order: one array (the serial search: one chunk of all of them) or a chain
/// of chunks (the shared search).
typedef struct pbdPairReader {
	const int32_t* work;
	const int32_t* next;
	const int32_t* used;
	int32_t chunk, k, stride;
} pbdPairReader;

static inline int32_t pbd_PairReader_Next(pbdPairReader* r)
{
	while (r->k == r->used[r->chunk]) r->chunk = r->next[r->chunk], r->k = 0;
	return r->work[(size_t)r->chunk * (size_t)r->stride + (size_t)r->k++];
}

/// The half search shared out: per-slot pair counts into halfCount and the pairs behind
/// *reader; `extra` (extraCount int32) holds the chunks' bookkeeping. Returns the pair count,
/// or -1 when the serial search must run instead (too little room).
int32_t pbd_Grid_SharedHalfSearch(struct pbdWorld* world, const pbdGrid* g, int32_t* work, int32_t workCapacity,
								  int32_t* halfCount, int32_t* extra, int32_t extraCount, int fast, pbdPairReader* reader);

#endif
