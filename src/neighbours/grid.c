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

   Search
   ------
   For each sorted slot s, the candidates are the slots of the 9 runs around its cell: for
   pairs only the later ones t > s (each unordered pair is met once), for lists all but s.
   The distance test runs 4 wide; the filters (grid.h) run on the lanes that hit, with a fast
   path when the phases cannot refuse anything (every particle SELF, none NO_COLLIDE, both
   kinds of pairs wanted): then only the rest-pose and pin filters remain, as before phases
   existed. With one radius for all, the test is d^2 < r^2 exactly as before radii could
   differ; with radii per particle it is d^2 < ((r_i + r_j) / 2)^2, which gives the same bits
   when they are equal ((r + r) * 0.5 = r).

   Determinism: + - * / and comparisons only. The cell index is a float-to-int cast of a value
   clamped to +-1e9 (so the cast is defined, even for NaN), corrected down by one where the
   cast rounded up (negative values): floor without libm. */
#include "neighbours/grid.h"
#include "neighbours/grid_cells.h"
#include "neighbours/grid_shared.h"
#include "world/core.h"
#include "base/simd.h"

#include <string.h>

#define SORTED_ARRAYS 9

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
	g->buckets = 0;
	g->dropped = 0;
	if (n < 0 || n > g->maxParticles || (n > 0 && in->positions == NULL) || scratch == NULL ||
		scratchBytes < pbd_Grid_ScratchBytes(n)) {
		return 0; /* a sizing bug of the caller: nothing is found rather than memory overrun */
	}
	const uint32_t* phase = in->phase;
	const int perParticle = in->radii != NULL || in->objectRadius != NULL;
	float rmax = perParticle ? 0.0f : Radius(in->radius);
	uintptr_t base = ((uintptr_t)scratch + 15u) & ~(uintptr_t)15u;
	const size_t stride = pbd_SortedStride(n);
	g->x = (float*)base;
	g->y = g->x + stride;
	g->z = g->y + stride;
	g->w = g->z + stride;
	g->rx = g->w + stride;
	g->ry = g->rx + stride;
	g->rz = g->ry + stride;
	g->radius = g->rz + stride;
	g->phase = (uint32_t*)(g->radius + stride);
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
	int32_t T = 2;
	while (T < 2 * n && T < g->tableSize) T <<= 1;
	const uint32_t mask = (uint32_t)T - 1u;
	g->cellSize = rmax * CELL_SLACK;
	g->invCell = 1.0f / g->cellSize;
	g->uniformRadius = perParticle ? 0.0f : rmax;
	g->hasRest = in->rest != NULL;
	const float inv = g->invCell;
	const float* p = in->positions;
	int32_t* start = g->cellStart;
	int32_t* entries = g->cellEntries;
	uint32_t* bucket = (uint32_t*)g->x;
	memset(start, 0, ((size_t)T + 1) * sizeof(int32_t));
	for (int32_t i = 0; i < n; ++i) {
		const uint32_t b = BucketOf(p + 4 * i, inv, mask);
		bucket[i] = b;
		start[b] += 1;
	}
	int32_t sum = 0;
	for (int32_t b = 0; b < T; ++b) {
		sum += start[b];
		start[b] = sum; /* one past the bucket's end, for now */
	}
	start[T] = n;
	for (int32_t i = n - 1; i >= 0; --i) entries[--start[bucket[i]]] = i;
	if (in->orderOnly) { /* the order alone (the fluid's sort): nothing gathered, nothing to search */
		g->phaseAnd = g->phaseOr = 0u;
		g->count = n;
		g->buckets = T;
		return 1;
	}
	/* The gather, radii first (they are read by particle index from the array they are sorted into). */
	if (perParticle) {
		float* r = g->rx; /* free until the rest gather below */
		for (int32_t s = 0; s < n; ++s) r[s] = g->radius[entries[s]];
		memcpy(g->radius, r, (size_t)n * sizeof(float));
	}
	uint32_t all = ~0u, any = 0u;
	for (int32_t s = 0; s < n; ++s) {
		const float* pi = p + 4 * entries[s];
		g->x[s] = pi[0];
		g->y[s] = pi[1];
		g->z[s] = pi[2];
		g->w[s] = pi[3];
		const uint32_t ph = phase != NULL ? phase[entries[s]] : PBD_PHASE_SELF;
		g->phase[s] = ph;
		all &= ph;
		any |= ph;
	}
	if (in->rest != NULL) {
		for (int32_t s = 0; s < n; ++s) {
			const float* ri = in->rest + 4 * entries[s];
			g->rx[s] = ri[0];
			g->ry[s] = ri[1];
			g->rz[s] = ri[2];
		}
	}
	for (int32_t s = n; s < n + PAD; ++s) {
		g->x[s] = g->y[s] = g->z[s] = g->w[s] = g->rx[s] = g->ry[s] = g->rz[s] = g->radius[s] = 0.0f;
		g->phase[s] = PBD_PHASE_NO_COLLIDE;
	}
	g->phaseAnd = n > 0 ? all : 0u;
	g->phaseOr = any;
	g->count = n;
	g->buckets = T;
	return 1;
}

/* Sorted ranges [first, end) of the non-empty buckets of the 27 cells around (ix, iy, iz),
   each bucket once. Normally one run per row (dy, dz): buckets c - 1, c, c + 1. Two runs
   overlap exactly when two rows share a non-empty bucket (a slot belongs to one bucket);
   then, or when a row wraps around the table, the rows are taken bucket by bucket with
   duplicates dropped instead. */
static int32_t Neighbourhood(const int32_t* start, uint32_t mask, int32_t ix, int32_t iy, int32_t iz, int32_t* first,
							 int32_t* end)
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

pbdGridFilter pbd_Grid_ContactFilter(int32_t self, int32_t others, float restDistance)
{
	pbdGridFilter f;
	f.sameGroup = self != 0;
	f.otherGroups = others != 0;
	f.keepPinned = 0;
	f.restDistance = restDistance;
	f.restScale = 0.0f;
	f.fluid = 0;
	return f;
}

/* Bit k set when lane k of the 4 words has the same object as o. */
static inline uint32_t SameObjectBits(const uint32_t* v, uint32_t o)
{
	uint32_t bits = 0;
	for (int k = 0; k < 4; ++k) bits |= (uint32_t)(((v[k] ^ o) & PBD_PHASE_OBJECT_MASK) == 0u) << k;
	return bits;
}

static inline uint32_t ZeroBits(const float* v)
{
	return (uint32_t)(v[0] == 0.0f) | (uint32_t)(v[1] == 0.0f) << 1 | (uint32_t)(v[2] == 0.0f) << 2 |
		   (uint32_t)(v[3] == 0.0f) << 3;
}

/* The phase rules of grid.h for 4 lanes against particle phase pi (which is neither NO_COLLIDE
   nor FLUID): fluid particles are the fluid family's. */
static inline uint32_t PhaseBits(const uint32_t* v, uint32_t pi, uint32_t self, uint32_t other)
{
	uint32_t bits = 0;
	for (int k = 0; k < 4; ++k) {
		const uint32_t pj = v[k];
		const uint32_t sameGroup = ((pi ^ pj) & PBD_PHASE_GROUP_MASK) == 0u;
		const uint32_t ok = sameGroup ? self & ((pi & pj & PBD_PHASE_SELF) != 0u) : other;
		bits |= (ok & ((pj & (PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID)) == 0u)) << k;
	}
	return bits;
}


/* The fluid's rule (grid.h pbdGridFilter.fluid) for 4 lanes against particle phase pi (in the
   search): any lane in the search when pi is fluid, only fluid lanes when it is solid. */
static inline uint32_t FluidBits(const uint32_t* v, uint32_t pi)
{
	const uint32_t need = (pi & PBD_PHASE_FLUID) ? 0u : PBD_PHASE_FLUID;
	uint32_t bits = 0;
	for (int k = 0; k < 4; ++k) {
		const uint32_t pj = v[k];
		bits |= (uint32_t)(((pj & OUT_OF_SEARCH) == 0u) & ((pj & need) == need)) << k;
	}
	return bits;
}

/* The search, for pairs (lists == NULL) or lists; perParticle, fast and fluid are constants at
   each call site, so each combination compiles to its own loop. fluid: the fluid's rule (no rest,
   pin or group filter); fast then means every particle is fluid and in the search. */
static inline __attribute__((always_inline)) int32_t Search(pbdGrid* g, const pbdGridFilter* f, int32_t* pairs,
															 int32_t capacity, pbdNeighbourLists* lists,
															 const int perParticle, const int fast, const int fluid,
															 int32_t sBegin, int32_t sEnd, pbdPairChunks* chunks, int32_t count0,
															 int64_t budget, int32_t* sNext, int64_t* work)
{
	const uint32_t mask = (uint32_t)g->buckets - 1u;
	const float inv = g->invCell;
	const pbdF4 r2 = pbdF4_Splat(g->uniformRadius * g->uniformRadius);
	const pbdF4 half = pbdF4_Splat(0.5f);
	/* the rest-pose filter: one distance, or (radii per particle) restScale x the pair's radius */
	const int restScaled = perParticle && f->restScale > 0.0f;
	const int restOn = !fluid && g->hasRest && (restScaled || f->restDistance > 0.0f);
	const pbdF4 t2 = pbdF4_Splat(f->restDistance * f->restDistance);
	const pbdF4 restScale = pbdF4_Splat(f->restScale);
	const uint32_t self = f->sameGroup != 0, other = f->otherGroups != 0;
	const int32_t* start = g->cellStart;
	const int32_t* entries = g->cellEntries;
	const float *qx = g->x, *qy = g->y, *qz = g->z, *qw = g->w, *qr = g->radius;
	const float *qrx = g->rx, *qry = g->ry, *qrz = g->rz;
	const uint32_t* qp = g->phase;
	/* count0, budget, sNext, work: a slice unit of a pair search (pbd_Grid_FindPairsUnit): its pairs stored from
	   count0 on, its slots from sBegin until about `budget` candidates are tested (whole slots: at least one), the
	   next slot to *sNext and the candidates to *work; sNext NULL (a constant at every other call): all of them */
	int32_t count = count0, dropped = 0;
	int64_t tests = 0;
	int32_t* indices = lists != NULL ? lists->indices : NULL;
	const int32_t room = lists != NULL ? (lists->capacity & ~3) : 0; /* whole quads, so the padding always fits */

	/* The runs around the last cell seen: consecutive slots mostly share a cell. */
	int32_t first[27], end[27];
	int32_t ranges = 0, cx = 0, cy = 0, cz = 0;
	/* chunks (the shared search, grid_shared.c): this block's pairs go to chunks it takes */
	const int32_t block = chunks != NULL ? sBegin / PBD_SEARCH_SLOTS : 0;
	int32_t chunk = -1, ck = PBD_PAIR_CHUNK;
	int32_t* out = NULL;
	if (chunks != NULL) chunks->blockFirst[block] = chunks->blockLast[block] = -1;

	int32_t s = sBegin;
	for (; s < sEnd; ++s) {
		if (sNext != NULL && s > sBegin && tests >= budget) break;
		const float xi = qx[s], yi = qy[s], zi = qz[s];
		const int32_t ix = pbd_CellIndex(xi, inv), iy = pbd_CellIndex(yi, inv), iz = pbd_CellIndex(zi, inv);
		if (s == sBegin || ix != cx || iy != cy || iz != cz) {
			cx = ix, cy = iy, cz = iz;
			ranges = Neighbourhood(start, mask, ix, iy, iz, first, end);
		}
		const uint32_t phaseI = qp[s];
		const int32_t i = entries[s];
		const int32_t listStart = count;
		if (lists != NULL) lists->start[i] = count;
		if (!fast && (phaseI & (fluid ? OUT_OF_SEARCH : (PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID)))) {
			if (lists != NULL) lists->count[i] = 0;
			continue;
		}
		const int32_t pinnedI = !fluid && !f->keepPinned && qw[s] == 0.0f;
		const pbdF4 xs = pbdF4_Splat(xi), ys = pbdF4_Splat(yi), zs = pbdF4_Splat(zi);
		/* rest positions and radii are read only when they were gathered */
		const pbdF4 rxs = pbdF4_Splat(restOn ? qrx[s] : 0.0f), rys = pbdF4_Splat(restOn ? qry[s] : 0.0f);
		const pbdF4 rzs = pbdF4_Splat(restOn ? qrz[s] : 0.0f);
		const pbdF4 ris = pbdF4_Splat(perParticle ? qr[s] : 0.0f);
		for (int32_t k = 0; k < ranges; ++k) {
			const int32_t e = end[k];
			const int32_t from = lists != NULL ? first[k] : (first[k] > s ? first[k] : s + 1);
			if (sNext != NULL && e > from) tests += e - from;
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
				if (e - t < 4) hits &= (1u << (e - t)) - 1u;
				if (lists != NULL && (uint32_t)(s - t) < 4u) hits &= ~(1u << (s - t)); /* not itself */
				if (hits == 0u) continue;
				if (restOn) {
					/* rest-pose neighbours: same object and closer than restDistance at rest */
					const pbdF4 ex = pbdF4_Sub(rxs, pbdF4_Load(qrx + t));
					const pbdF4 ey = pbdF4_Sub(rys, pbdF4_Load(qry + t));
					const pbdF4 ez = pbdF4_Sub(rzs, pbdF4_Load(qrz + t));
					const pbdF4 e2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(ex, ex), pbdF4_Mul(ey, ey)), pbdF4_Mul(ez, ez));
					pbdF4 limit2 = t2;
					if (restScaled) {
						const pbdF4 e = pbdF4_Mul(rij, restScale);
						limit2 = pbdF4_Mul(e, e);
					}
					hits &= ~(pbdF4_LessBits(e2, limit2) & SameObjectBits(qp + t, phaseI));
				}
				if (!fast) hits &= fluid ? FluidBits(qp + t, phaseI) : PhaseBits(qp + t, phaseI, self, other);
				if (pinnedI) hits &= ~ZeroBits(qw + t); /* both pinned */
				while (hits != 0u) {
					const int32_t u = t + __builtin_ctz(hits);
					hits &= hits - 1u;
					const int32_t j = entries[u];
					if (lists != NULL) {
						if (count < room) indices[count++] = j;
						else dropped += 1;
					} else if (chunks != NULL) {
						if (ck == PBD_PAIR_CHUNK && (out = pbd_PairChunks_Take(chunks, block, &chunk)) == NULL) return -1;
						if (ck == PBD_PAIR_CHUNK) ck = 0;
						out[2 * ck] = i < j ? i : j;
						out[2 * ck + 1] = i < j ? j : i;
						ck += 1;
						count += 1;
					} else if (count < capacity) {
						pairs[2 * count] = i < j ? i : j;
						pairs[2 * count + 1] = i < j ? j : i;
						count += 1;
					} else {
						dropped += 1;
					}
				}
			}
		}
		if (lists != NULL) {
			lists->count[i] = count - listStart;
			while (count & 3) indices[count++] = i; /* padding: the particle itself */
		}
	}
	if (chunks != NULL) {
		if (chunk >= 0) chunks->used[chunk] = ck, chunks->next[chunk] = -1;
		chunks->blockLast[block] = chunk;
	} else if (lists != NULL) {
		lists->used = count;
		lists->dropped = dropped;
	} else if (sNext != NULL) {
		g->dropped += dropped;
		*sNext = s;
		*work = tests;
	} else {
		g->dropped = dropped;
	}
	return count;
}

/* Whether the phases can refuse nothing: both kinds of pairs wanted, every particle SELF and
   none NO_COLLIDE or FLUID; for the fluid's rule, every particle fluid and in the search. */
static int FastRules(const pbdGrid* g, const pbdGridFilter* f)
{
	if (f->fluid) return (g->phaseAnd & PBD_PHASE_FLUID) && !(g->phaseOr & OUT_OF_SEARCH);
	return f->sameGroup && f->otherGroups && (g->phaseAnd & PBD_PHASE_SELF) &&
		   !(g->phaseOr & (PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID));
}

/* Nothing can pass: no kind of pair wanted, or only pairs between groups and one group; for the
   fluid's rule, no fluid particle. */
int pbd_Grid_NothingToFind(const pbdGrid* g, const pbdGridFilter* f)
{
	if (g->count < 2) return 1;
	if (f->fluid) return !(g->phaseOr & PBD_PHASE_FLUID);
	if (!f->sameGroup && !f->otherGroups) return 1;
	if (!f->sameGroup && ((g->phaseAnd ^ g->phaseOr) & PBD_PHASE_GROUP_MASK) == 0u) return 1;
	return 0;
}

int32_t pbd_Grid_FindPairs(pbdGrid* g, const pbdGridFilter* f, int32_t* pairs, int32_t capacity)
{
	g->dropped = 0;
	if (pbd_Grid_NothingToFind(g, f)) return 0;
	if (capacity < 0) capacity = 0;
	const int fast = FastRules(g, f);
	if (f->fluid) {
		if (g->uniformRadius > 0.0f) return fast ? Search(g, f, pairs, capacity, NULL, 0, 1, 1, 0, g->count, NULL, 0, 0, NULL, NULL) : Search(g, f, pairs, capacity, NULL, 0, 0, 1, 0, g->count, NULL, 0, 0, NULL, NULL);
		return fast ? Search(g, f, pairs, capacity, NULL, 1, 1, 1, 0, g->count, NULL, 0, 0, NULL, NULL) : Search(g, f, pairs, capacity, NULL, 1, 0, 1, 0, g->count, NULL, 0, 0, NULL, NULL);
	}
	/* The whole search is one unit without a budget: the same loop as the slices' (the same pairs in the same order),
	   compiled once; the budget's test per slot and count per run cost nothing measurable (bench/ab.mjs). */
	int32_t slot = 0;
	int64_t work = 0;
	return pbd_Grid_FindPairsUnit(g, f, pairs, capacity, 0, &slot, INT64_MAX, &work);
}

int32_t pbd_Grid_FindPairsUnit(pbdGrid* g, const pbdGridFilter* f, int32_t* pairs, int32_t capacity, int32_t stored,
							   int32_t* slot, int64_t budget, int64_t* work)
{
	*work = 0;
	if (*slot == 0 && pbd_Grid_NothingToFind(g, f)) {
		*slot = g->count;
		return stored;
	}
	if (*slot >= g->count) return stored;
	if (capacity < 0) capacity = 0;
	const int fast = FastRules(g, f);
	const int32_t s = *slot;
	if (f->fluid) return stored; /* the fluid has its own lists (grid_lists.c) */
	if (g->uniformRadius > 0.0f) {
		return fast ? Search(g, f, pairs, capacity, NULL, 0, 1, 0, s, g->count, NULL, stored, budget, slot, work)
					: Search(g, f, pairs, capacity, NULL, 0, 0, 0, s, g->count, NULL, stored, budget, slot, work);
	}
	return fast ? Search(g, f, pairs, capacity, NULL, 1, 1, 0, s, g->count, NULL, stored, budget, slot, work)
				: Search(g, f, pairs, capacity, NULL, 1, 0, 0, s, g->count, NULL, stored, budget, slot, work);
}

int32_t pbd_Grid_SearchPairsBlock(pbdGrid* g, const pbdGridFilter* f, pbdPairChunks* chunks, int32_t begin, int32_t end)
{
	const int fast = FastRules(g, f);
	if (f->fluid) return -1; /* the fluid has its own lists (grid_lists.c) */
	if (g->uniformRadius > 0.0f) return fast ? Search(g, f, NULL, 0, NULL, 0, 1, 0, begin, end, chunks, 0, 0, NULL, NULL) : Search(g, f, NULL, 0, NULL, 0, 0, 0, begin, end, chunks, 0, 0, NULL, NULL);
	return fast ? Search(g, f, NULL, 0, NULL, 1, 1, 0, begin, end, chunks, 0, 0, NULL, NULL) : Search(g, f, NULL, 0, NULL, 1, 0, 0, begin, end, chunks, 0, 0, NULL, NULL);
}

int32_t pbd_Grid_FindLists(pbdGrid* g, const pbdGridFilter* f, pbdNeighbourLists* lists)
{
	lists->used = 0;
	lists->dropped = 0;
	if (pbd_Grid_NothingToFind(g, f)) {
		for (int32_t i = 0; i < g->count; ++i) lists->start[i] = lists->count[i] = 0;
		return 0;
	}
	const int fast = FastRules(g, f);
	int32_t stored;
	if (f->fluid && g->uniformRadius > 0.0f) stored = fast ? Search(g, f, NULL, 0, lists, 0, 1, 1, 0, g->count, NULL, 0, 0, NULL, NULL) : Search(g, f, NULL, 0, lists, 0, 0, 1, 0, g->count, NULL, 0, 0, NULL, NULL);
	else if (f->fluid) stored = fast ? Search(g, f, NULL, 0, lists, 1, 1, 1, 0, g->count, NULL, 0, 0, NULL, NULL) : Search(g, f, NULL, 0, lists, 1, 0, 1, 0, g->count, NULL, 0, 0, NULL, NULL);
	else if (g->uniformRadius > 0.0f) stored = fast ? Search(g, f, NULL, 0, lists, 0, 1, 0, 0, g->count, NULL, 0, 0, NULL, NULL) : Search(g, f, NULL, 0, lists, 0, 0, 0, 0, g->count, NULL, 0, 0, NULL, NULL);
	else stored = fast ? Search(g, f, NULL, 0, lists, 1, 1, 0, 0, g->count, NULL, 0, 0, NULL, NULL) : Search(g, f, NULL, 0, lists, 1, 0, 0, 0, g->count, NULL, 0, 0, NULL, NULL);
	int32_t neighbours = 0;
	for (int32_t i = 0; i < g->count; ++i) neighbours += lists->count[i];
	(void)stored;
	return neighbours;
}
