/* neighbours/grid_walk.h -- the one cell walk (private to src/neighbours/): for each sorted slot s of a
   built grid, the candidates t > s of the runs around its cell, tested 4 at a time (wasm SIMD / SSE)
   against the pair's radius and then the build's filter (grid.h), each hit handed to one of the two
   outputs: pairs (grid_pairs.c) or the later slot of each pair, from which grid_lists.c makes the
   per-particle lists; either one array (serial) or chunks taken by blocks of slots (grid_shared.c,
   the step's threads). Every parameter marked const is a constant at each call site, so each
   combination compiles to its own loop.

   The neighbourhood, two orders of the same candidates (below):
   - rows (pairs): the 9 rows (dy, dz) of 3 cells along x are 3 consecutive buckets (x is added to
     the row's hash, grid_cells.h), one run each; rows sharing a bucket or wrapping around the table
     are taken bucket by bucket instead. The contacts family solves its pairs in this order.
   - merged (lists): the same runs sorted by their first slot and merged, so candidates come in slot
     order and adjacent runs are one loop. The fluid's lists (and its density sums) are in this order.

   Determinism: + - * and comparisons only; the order is slot order (the counting sort's: bucket,
   then particle index), then run order, then slot. */
#ifndef PBD_GRID_WALK_H
#define PBD_GRID_WALK_H

#include "neighbours/grid.h"
#include "neighbours/grid_cells.h"
#include "world/core.h"
#include "base/simd.h"

#include <stdatomic.h>

/* the outputs */
#define PBD_WALK_PAIRS 0       /* (i, j), i < j, into one array */
#define PBD_WALK_PAIR_CHUNKS 1 /* the same into chunks */
#define PBD_WALK_SLOTS 2       /* the later slot t of each pair, into one array; per slot the running end */
#define PBD_WALK_SLOT_CHUNKS 3 /* the same into chunks; per slot its count */
/* int32 per chunk: 256 pairs or 512 slots. A block of a settled dam break holds ~15 pairs a slot, ~8 chunks. */
#define PBD_WALK_CHUNK 512
/* Slots per block of a shared walk. */
#define PBD_WALK_BLOCK 256
/* the merged neighbourhood's most runs: 9 rows, each possibly wrapped in two */
#define PBD_WALK_RUNS 27

/// Chunks the blocks of a shared walk append to: taken through one counter, chained per block, read in
/// block order (grid_shared.c).
typedef struct pbdWalkChunks {
	int32_t* pool; ///< chunks x PBD_WALK_CHUNK int32
	int32_t chunks;
	int32_t *next, *used, *blockFirst, *blockLast; ///< used: entries (pairs or slots) of each chunk
	atomic_int nextChunk, overflow;
} pbdWalkChunks;

/// Where a walk's hits go and how far it went.
typedef struct pbdWalkOut {
	int32_t* out;         ///< PAIRS: 2 per pair; SLOTS: 1 per pair
	int32_t capacity;     ///< pairs out holds
	int32_t count;        ///< pairs stored (found, for SLOTS), from where the walk began
	int32_t dropped;      ///< pairs past the capacity (SLOTS: counted twice, once per list)
	int32_t* perSlot;     ///< SLOTS: the running count after each slot; SLOT_CHUNKS: each slot's count
	pbdWalkChunks* chunks;
	int64_t budget;       ///< sliced: stop after the slot that reaches this many candidates
	int64_t tests;        ///< sliced: candidates tested
	int32_t next;         ///< the slot the walk stopped before
} pbdWalkOut;

/// Whether the filter can refuse nothing in this grid, and whether nothing can pass (grid.c).
int pbd_Grid_FastRules(const pbdGrid* g);
int pbd_Grid_NothingToFind(const pbdGrid* g);
/// A shared walk of all slots over the world's threads (grid_shared.c): `output` PBD_WALK_PAIR_CHUNKS or
/// PBD_WALK_SLOT_CHUNKS into chunks carved from pool (poolWords int32, bookkeeping included); perSlot as for
/// the walk. Returns the pairs found with *chunks chained in slot order (blockFirst[0] is the head, next[] links
/// through every block), or -1 when it cannot (no threads, too little room, chunks ran out): walk serially.
int32_t pbd_Grid_WalkShared(struct pbdWorld* world, const pbdGrid* g, int output, int32_t* pool, size_t poolWords,
							int32_t* perSlot, pbdWalkChunks* chunks);

/// The lanes set in a 4-bit hit mask, packed to the front, and how many: the slots' hits of a quad are
/// stored with no branch on them (a quad holds a hit about half the time, at random: a branch there
/// mispredicts, and cost a third of the fluid's lists).
extern const uint8_t pbd_GridLanes[16][4];
extern const uint8_t pbd_GridHits[16];

/* The filter's phase rules (grid.h) for 4 lanes against particle phase pi; need: pairNeeds unless pi
   carries them all. */
static inline uint32_t pbd_Grid_LaneRules(const uint32_t* v, uint32_t pi, uint32_t need, uint32_t exclude, uint32_t groupNeeds,
										  const uint8_t* activation)
{
	uint32_t bits = 0;
	const uint32_t gi = (pi & PBD_PHASE_GROUP_MASK) >> PBD_PHASE_GROUP_SHIFT;
	for (int k = 0; k < 4; ++k) {
		const uint32_t pj = v[k];
		uint32_t ok = ((pj & exclude) == 0u) & ((pj & need) == need);
		const uint32_t gj = (pj & PBD_PHASE_GROUP_MASK) >> PBD_PHASE_GROUP_SHIFT;
		if (gi == gj) ok &= (pi & pj & groupNeeds) == groupNeeds;
		if (activation != NULL) ok &= activation[(gi << 8) | gj] != 0u;
		bits |= ok << k;
	}
	return bits;
}

/* Bit k set when lane k of the 4 words has the same object as o. */
static inline uint32_t pbd_Grid_SameObjectBits(const uint32_t* v, uint32_t o)
{
	uint32_t bits = 0;
	for (int k = 0; k < 4; ++k) bits |= (uint32_t)(((v[k] ^ o) & PBD_PHASE_OBJECT_MASK) == 0u) << k;
	return bits;
}

static inline uint32_t pbd_Grid_ZeroBits(const float* v)
{
	return (uint32_t)(v[0] == 0.0f) | (uint32_t)(v[1] == 0.0f) << 1 | (uint32_t)(v[2] == 0.0f) << 2 |
		   (uint32_t)(v[3] == 0.0f) << 3;
}

/* The slot runs around a cell, the two orders (here, with the walk: inlined into it, as they were when each
   walk had its own file). */
/* Sorted ranges [first, end) of the non-empty buckets of the 27 cells around (ix, iy, iz),
   each bucket once. Normally one run per row (dy, dz): buckets c - 1, c, c + 1. Two runs
   overlap exactly when two rows share a non-empty bucket (a slot belongs to one bucket);
   then, or when a row wraps around the table, the rows are taken bucket by bucket with
   duplicates dropped instead. */
static inline int32_t pbd_Grid_RowRuns(const int32_t* start, uint32_t mask, int32_t ix, int32_t iy, int32_t iz, int32_t* first, int32_t* end)
{
	const uint32_t hy[3] = { (uint32_t)(iy - 1) * 19349663u, (uint32_t)iy * 19349663u, (uint32_t)(iy + 1) * 19349663u };
	const uint32_t hz[3] = { (uint32_t)(iz - 1) * 83492791u, (uint32_t)iz * 83492791u, (uint32_t)(iz + 1) * 83492791u };
	uint32_t centre[9];
	int32_t ranges = 0, slow = 0;
	for (int32_t r = 0; r < 9; ++r) {
		const uint32_t c = ((uint32_t)ix + (hy[r % 3] ^ hz[r / 3])) & mask;
		centre[r] = c;
		if (slow) continue;
		if (c == 0u || c == mask) {
			slow = 1;
			continue;
		}
		const int32_t a = start[c - 1u], e = start[c + 2u];
		if (a == e) continue;
		for (int32_t k = 0; k < ranges; ++k) slow |= a < end[k] && first[k] < e;
		first[ranges] = a;
		end[ranges] = e;
		ranges += 1;
	}
	if (!slow) return ranges;
	uint32_t seen[27];
	int32_t seenCount = 0;
	ranges = 0;
	for (int32_t r = 0; r < 9; ++r) {
		for (uint32_t dx = 0; dx < 3u; ++dx) {
			const uint32_t b = (centre[r] + dx - 1u) & mask;
			int32_t again = 0;
			for (int32_t k = 0; k < seenCount; ++k) again |= seen[k] == b;
			if (again) continue;
			seen[seenCount++] = b;
			const int32_t a = start[b], e = start[b + 1u];
			if (a == e) continue;
			first[ranges] = a;
			end[ranges] = e;
			ranges += 1;
		}
	}
	return ranges;
}

/* The slot ranges [first, end) around cell (ix, iy, iz), sorted by first and merged where they
   overlap or touch: every slot of the neighbourhood's buckets exactly once. */
static inline int32_t pbd_Grid_MergedRuns(const int32_t* start, uint32_t mask, int32_t ix, int32_t iy, int32_t iz, int32_t* first,
							int32_t* end)
{
	int32_t a[18], e[18];
	int32_t n = 0;
	for (int32_t dz = -1; dz <= 1; ++dz) {
		for (int32_t dy = -1; dy <= 1; ++dy) {
			const uint32_t lo = ((uint32_t)(ix - 1) + pbd_CellRowHash(iy + dy, iz + dz)) & mask;
			const uint32_t hi = lo + 2u; /* last bucket, unwrapped */
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

/* The next chunk of a block, NULL when none is left (the walk is then abandoned). */
static inline int32_t* pbd_WalkChunks_Take(pbdWalkChunks* c, int32_t block, int32_t* chunk, int32_t k)
{
	const int32_t next = atomic_fetch_add_explicit(&c->nextChunk, 1, memory_order_relaxed);
	if (next >= c->chunks) {
		atomic_store_explicit(&c->overflow, 1, memory_order_relaxed);
		return NULL;
	}
	if (*chunk >= 0) c->used[*chunk] = k, c->next[*chunk] = next;
	else c->blockFirst[block] = next;
	*chunk = next;
	return c->pool + (size_t)next * PBD_WALK_CHUNK;
}

/* The walk over slots [sBegin, sEnd). perParticle: radii per particle (else the grid's one radius); fast: the
   filter's phase rules refuse nothing (only rest and pins are tested); sliced: stop once o->budget candidates
   are tested (whole slots, at least one). Returns 0, or -1 when the chunks ran out. */
static inline __attribute__((always_inline)) int pbd_Grid_Walk(const pbdGrid* g, int32_t sBegin, int32_t sEnd, pbdWalkOut* o,
															   const int output, const int perParticle, const int fast,
															   const int sliced)
{
	const int slots = output == PBD_WALK_SLOTS || output == PBD_WALK_SLOT_CHUNKS;
	const int chunked = output == PBD_WALK_PAIR_CHUNKS || output == PBD_WALK_SLOT_CHUNKS;
	const pbdGridFilter* f = &g->filter;
	/* the filter's fields in locals: the stores below may alias them as far as the compiler knows */
	const uint32_t exclude = f->exclude, pairNeeds = f->pairNeeds, groupNeeds = f->groupNeeds;
	const uint8_t* const activation = f->activation;
	const uint32_t mask = (uint32_t)g->buckets - 1u;
	const float inv = g->invCell;
	const pbdF4 r2 = pbdF4_Splat(g->uniformRadius * g->uniformRadius);
	const pbdF4 half = pbdF4_Splat(0.5f);
	/* the rest-pose filter: one distance, or (radii per particle) restScale x the pair's radius */
	const int restScaled = perParticle && f->restScale > 0.0f;
	const int restOn = g->hasRest && (restScaled || f->restDistance > 0.0f);
	const pbdF4 t2 = pbdF4_Splat(f->restDistance * f->restDistance);
	const pbdF4 restScale = pbdF4_Splat(f->restScale);
	const int pins = !f->keepPinned && g->w != NULL;
	/* the lane rules only when some can refuse: no exclude bit in the grid, no group rule */
	const int groupRules = groupNeeds != 0u || activation != NULL;
	const int excludeRule = (g->phaseOr & exclude) != 0u;
	const int32_t* entries = g->cellEntries;
	const float *qx = g->x, *qy = g->y, *qz = g->z, *qw = g->w, *qr = g->radius;
	const float *qrx = g->rx, *qry = g->ry, *qrz = g->rz;
	const uint32_t* qp = g->phase;
	int32_t count = o->count, dropped = 0;
	int64_t tests = 0;
	int32_t* out = chunked ? NULL : o->out;
	const int32_t roomy = o->capacity - 4; /* SLOTS: below this a quad's four stores always fit */
	/* chunks: this block's pairs go to chunks it takes, a quad's four entries always fit */
	const int32_t width = slots ? 1 : 2, last = PBD_WALK_CHUNK / width - 4;
	const int32_t block = sBegin / PBD_WALK_BLOCK;
	int32_t chunk = -1, k = PBD_WALK_CHUNK;
	if (chunked) o->chunks->blockFirst[block] = o->chunks->blockLast[block] = -1;

	/* The runs around the last cell seen: consecutive slots mostly share a cell. */
	int32_t first[PBD_WALK_RUNS], end[PBD_WALK_RUNS];
	int32_t ranges = 0, cx = 0, cy = 0, cz = 0;
	int32_t s = sBegin;
	for (; s < sEnd; ++s) {
		if (sliced && s > sBegin && tests >= o->budget) break;
		const float xi = qx[s], yi = qy[s], zi = qz[s];
		const int32_t ix = pbd_CellIndex(xi, inv), iy = pbd_CellIndex(yi, inv), iz = pbd_CellIndex(zi, inv);
		if (s == sBegin || ix != cx || iy != cy || iz != cz) {
			cx = ix, cy = iy, cz = iz;
			ranges = slots ? pbd_Grid_MergedRuns(g->cellStart, mask, ix, iy, iz, first, end)
						   : pbd_Grid_RowRuns(g->cellStart, mask, ix, iy, iz, first, end);
		}
		const uint32_t phaseI = qp[s];
		const int32_t i = entries[s];
		const int32_t countI = count;
		if (!fast && (phaseI & exclude)) {
			if (output == PBD_WALK_SLOTS) o->perSlot[s] = count;
			if (output == PBD_WALK_SLOT_CHUNKS) o->perSlot[s] = 0;
			continue;
		}
		const uint32_t need = (phaseI & pairNeeds) == pairNeeds ? 0u : pairNeeds;
		const int laneRules = !fast && (need != 0u || excludeRule || groupRules);
		const int32_t pinnedI = pins && qw[s] == 0.0f;
		const pbdF4 xs = pbdF4_Splat(xi), ys = pbdF4_Splat(yi), zs = pbdF4_Splat(zi);
		/* rest positions and radii are read only when they were gathered */
		const pbdF4 rxs = pbdF4_Splat(restOn ? qrx[s] : 0.0f), rys = pbdF4_Splat(restOn ? qry[s] : 0.0f);
		const pbdF4 rzs = pbdF4_Splat(restOn ? qrz[s] : 0.0f);
		const pbdF4 ris = pbdF4_Splat(perParticle ? qr[s] : 0.0f);
		for (int32_t r = 0; r < ranges; ++r) {
			const int32_t e = end[r];
			const int32_t from = first[r] > s ? first[r] : s + 1;
			if (sliced && e > from) tests += e - from;
			for (int32_t t = from; t < e; t += 4) {
				/* |p_s - p_t|^2 < r^2 for 4 slots; lanes past the run masked off */
				const pbdF4 dx = pbdF4_Sub(xs, pbdF4_Load(qx + t));
				const pbdF4 dy = pbdF4_Sub(ys, pbdF4_Load(qy + t));
				const pbdF4 dz = pbdF4_Sub(zs, pbdF4_Load(qz + t));
				const pbdF4 d2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz));
				uint32_t hits;
				pbdF4 rij = r2; /* the pair's search radius, with radii per particle */
				if (perParticle) {
					rij = pbdF4_Mul(pbdF4_Add(ris, pbdF4_Load(qr + t)), half);
					hits = pbdF4_LessBits(d2, pbdF4_Mul(rij, rij));
				} else {
					hits = pbdF4_LessBits(d2, r2);
				}
				const int32_t left = e - t;
				hits &= left >= 4 ? 15u : (1u << left) - 1u;
				if (restOn && hits != 0u) {
					/* rest-pose neighbours: same object and closer than restDistance at rest */
					const pbdF4 ex = pbdF4_Sub(rxs, pbdF4_Load(qrx + t));
					const pbdF4 ey = pbdF4_Sub(rys, pbdF4_Load(qry + t));
					const pbdF4 ez = pbdF4_Sub(rzs, pbdF4_Load(qrz + t));
					const pbdF4 e2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(ex, ex), pbdF4_Mul(ey, ey)), pbdF4_Mul(ez, ez));
					pbdF4 limit2 = t2;
					if (restScaled) {
						const pbdF4 q = pbdF4_Mul(rij, restScale);
						limit2 = pbdF4_Mul(q, q);
					}
					hits &= ~(pbdF4_LessBits(e2, limit2) & pbd_Grid_SameObjectBits(qp + t, phaseI));
				}
				if (laneRules && hits != 0u) hits &= pbd_Grid_LaneRules(qp + t, phaseI, need, exclude, groupNeeds, activation);
				if (pinnedI) hits &= ~pbd_Grid_ZeroBits(qw + t); /* both pinned */
				if (slots) {
					int32_t* dst;
					if (chunked) {
						if (k > last && (out = pbd_WalkChunks_Take(o->chunks, block, &chunk, k)) == NULL) return -1;
						if (k > last) k = 0;
						dst = out + k;
						k += pbd_GridHits[hits];
					} else if (count <= roomy) {
						dst = out + count;
					} else {
						while (hits != 0u) { /* the last few entries of the array */
							const int32_t u = t + __builtin_ctz(hits);
							hits &= hits - 1u;
							if (count < o->capacity) out[count++] = u;
							else dropped += 2; /* from both lists */
						}
						continue;
					}
					const uint8_t* lane = pbd_GridLanes[hits];
					dst[0] = t + lane[0];
					dst[1] = t + lane[1];
					dst[2] = t + lane[2];
					dst[3] = t + lane[3];
					count += pbd_GridHits[hits];
					continue;
				}
				if (hits == 0u) continue;
				if (chunked && k > last) {
					if ((out = pbd_WalkChunks_Take(o->chunks, block, &chunk, k)) == NULL) return -1;
					k = 0;
				}
				while (hits != 0u) {
					const int32_t u = t + __builtin_ctz(hits);
					hits &= hits - 1u;
					const int32_t j = entries[u];
					if (chunked) {
						out[2 * k] = i < j ? i : j;
						out[2 * k + 1] = i < j ? j : i;
						k += 1;
						count += 1;
					} else if (count < o->capacity) {
						out[2 * count] = i < j ? i : j;
						out[2 * count + 1] = i < j ? j : i;
						count += 1;
					} else {
						dropped += 1;
					}
				}
			}
		}
		if (output == PBD_WALK_SLOTS) o->perSlot[s] = count;
		if (output == PBD_WALK_SLOT_CHUNKS) o->perSlot[s] = count - countI;
	}
	if (chunked && chunk >= 0) o->chunks->used[chunk] = k, o->chunks->next[chunk] = -1;
	if (chunked) o->chunks->blockLast[block] = chunk;
	o->count = count;
	o->dropped += dropped;
	o->next = s;
	o->tests = tests;
	return 0;
}

#endif
