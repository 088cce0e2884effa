/* families/contacts.c -- (for now the former neighbours/grid.c, unchanged) spatial hash grid and particle-particle self-collision.

   Grid (rebuilt from the predicted positions p once per substep, contacts stage)
   ----
   Particles are spheres of radius thickness / 2, so two collide when their centres are
   closer than the thickness. Pairs are searched within r = PAIR_MARGIN * thickness.
   Cells are cubes of edge r (a hair more: CELL_SLACK), so every particle closer than r
   to particle i lies in one of the 27 cells around i's cell. Cell (ix, iy, iz) =
   floor(p / cell) goes to bucket
       (ix + (iy * 19349663 ^ iz * 83492791)) & (T - 1)
   Teschner et al.'s (2003) large-prime xor hash for y and z, with x added instead of
   multiplied: neighbouring cells along x land in neighbouring buckets, so the 3 cells of
   each of the 9 neighbour rows is one contiguous run of the sorted arrays: 9 runs read
   in order instead of 27 scattered buckets. On the 316 x 316 benchmark cloth (native,
   same pairs) FindPairs took 2.8 ms instead of 9.3 with the 3-prime hash (flat), 13.6
   instead of 24.5 (crumpled pile). T is the smallest power of two >= 2 n for the n
   particles present (at most the reserved tableSize), so the cost is O(n) whatever the
   capacity.

   Counting sort into reserved memory, no allocation: count per bucket -> prefix sums ->
   fill from the last particle down, which leaves cellEntries[cellStart[b] ..
   cellStart[b + 1]) = the particles of bucket b in increasing index order and
   cellStart[T] = n. The particles' predicted and rest positions, w and object are then
   gathered in that order into the world's scratch (pbd_HashGridScratchBytes), so the
   pair search reads memory in runs and tests 4 candidates at a time (wasm SIMD / SSE).

   Pairs
   -----
   For each sorted slot s, the candidates are the later slots t > s of the 9 runs around
   its cell (each unordered pair is met once), within r, except
     - both pinned (w = 0: nothing to move);
     - rest-pose neighbours: same object and |rest0_i - rest0_j| < thickness (mesh
       neighbours are meant to be that close; TenMinutePhysics' cloth self-collision
       filters them the same way).
   Particles of different objects always collide, even if created on top of each other.
   Every particle takes part, cloth and chain alike, pinned ones as fixed obstacles: a
   rope must not pass through a cloth either, and the same grid will serve fluids.
   Pairs are stored as (i, j), i < j, ordered by sorted slot of their first-met particle,
   then neighbour row, then slot: a pure function of the positions, so every build
   (native, scalar, wasm) stores the same pairs in the same order. Pairs past
   maxContacts are counted, not stored (pbd_HashGrid_DroppedPairs).

   Why a margin: pairs are found once per substep from the predicted positions but are
   projected in every pass, and the passes still move particles (stretch, pins, other
   contacts). In a resting stack, pairs sit at exactly the thickness after a projection;
   with r = thickness they drop out of the next substep's list and get pushed inside it
   unseen (two 20 x 20 layers at 1 substep x 10 passes: 0.87 thickness at r = 1.0, 0.99
   at 1.05). The benefit saturates by 1.15-1.2 (a towel folded onto itself, 5 substeps x
   4 passes: worst distance 0.93, 0.97, 0.97, 0.97 thickness at 1.1, 1.15, 1.2, 1.25),
   while the pairs grow fast with r: rings of same-object particles between thickness and
   r join the list (a 32 x 16 cloth at spacing 0.6 thickness: 520 pairs at 1.1, 1900 at
   1.2, 4096 = overflow of the default capacity at 1.35) and the candidates grow with r^3
   in a pile. So PAIR_MARGIN = 1.2. Pairs between thickness and r are inert: the solve
   projects only when violated.

   Determinism: + - * / sqrtf and comparisons only. The cell index is a float-to-int cast
   of a value clamped to +-1e9 (so the cast is defined, even for NaN), corrected down by
   one where the cast rounded up (negative values): floor without libm.
*/
#include "world/core.h"
#include "base/simd.h"

#include <math.h>
#include <string.h>

#define PAIR_MARGIN 1.2f
/* The cell is a hair larger than r so that rounding in p * (1 / cell) cannot put two
   particles closer than r more than one cell apart. That holds within ~4000 cells of the
   origin; farther out a pair at nearly r could be missed, a contact (closer than the
   thickness = r / 1.2) only beyond ~700k cells, where float positions are already
   coarser than 0.1 thickness. */
#define CELL_SLACK 1.0009765625f
#define CELL_LIMIT 1e9f
/* Sorted arrays are padded so that a 4-wide load may run past the last particle. */
#define PAD 4
#define SORTED_ARRAYS 8

/* Overflow of the last pbd_HashGrid_FindPairs: pairs found beyond maxContacts. Kept here
   until pbdWorld has a field for it (see the report to the lead). */
static const pbdWorld* s_droppedWorld;
static int32_t s_dropped;

float pbd_HashGrid_SearchRadius(const pbdWorld* w) { return w->params[pbdParam_thickness] * PAIR_MARGIN; }

float pbd_HashGrid_CellSize(const pbdWorld* w) { return pbd_HashGrid_SearchRadius(w) * CELL_SLACK; }

int32_t pbd_HashGrid_TableSize(const pbdWorld* w)
{
	int32_t t = 2;
	while (t < 2 * w->particleCount && t < w->tableSize) t <<= 1;
	return t;
}

int32_t pbd_HashGrid_DroppedPairs(const pbdWorld* w) { return w == s_droppedWorld ? s_dropped : 0; }

/* Scratch the grid needs during the step: 8 sorted arrays of 4 bytes per particle. */
size_t pbd_HashGridScratchBytes(int32_t maxParticles)
{
	return ((size_t)maxParticles + PAD) * SORTED_ARRAYS * sizeof(float) + 64;
}

static inline int32_t CellIndex(float v, float inv)
{
	float f = v * inv;
	if (!(f >= -CELL_LIMIT)) f = -CELL_LIMIT; /* also NaN */
	if (f > CELL_LIMIT) f = CELL_LIMIT;
	const int32_t c = (int32_t)f; /* toward zero */
	return c - ((float)c > f);
}

static inline uint32_t RowHash(int32_t y, int32_t z) { return ((uint32_t)y * 19349663u) ^ ((uint32_t)z * 83492791u); }

static inline uint32_t BucketOf(const float* p, float inv, uint32_t mask)
{
	return ((uint32_t)CellIndex(p[0], inv) + RowHash(CellIndex(p[1], inv), CellIndex(p[2], inv))) & mask;
}

int32_t pbd_HashGrid_Bucket(const pbdWorld* w, const float* p)
{
	return (int32_t)BucketOf(p, 1.0f / pbd_HashGrid_CellSize(w), (uint32_t)pbd_HashGrid_TableSize(w) - 1u);
}

/* Bit k set when lane k of a is below lane k of b (the same comparison in every build). */
static inline uint32_t LessBits(pbdF4 a, pbdF4 b) { return pbdF4_LessBits(a, b); }

static inline uint32_t EqualBits(const int32_t* v, int32_t o)
{
	return (uint32_t)(v[0] == o) | (uint32_t)(v[1] == o) << 1 | (uint32_t)(v[2] == o) << 2 | (uint32_t)(v[3] == o) << 3;
}

static inline uint32_t ZeroBits(const float* v)
{
	return (uint32_t)(v[0] == 0.0f) | (uint32_t)(v[1] == 0.0f) << 1 | (uint32_t)(v[2] == 0.0f) << 2 |
		   (uint32_t)(v[3] == 0.0f) << 3;
}

/* The sorted arrays in the scratch: predicted x, y, z; rest x, y, z; w; object. */
typedef struct Sorted {
	float *x, *y, *z, *rx, *ry, *rz, *w;
	int32_t* object;
} Sorted;

static Sorted SortedArrays(const pbdWorld* w, int32_t n)
{
	const size_t stride = (size_t)n + PAD;
	Sorted q;
	q.x = (float*)w->scratch;
	q.y = q.x + stride;
	q.z = q.y + stride;
	q.rx = q.z + stride;
	q.ry = q.rx + stride;
	q.rz = q.ry + stride;
	q.w = q.rz + stride;
	q.object = (int32_t*)(q.w + stride);
	return q;
}

/* Counting sort of the particles by the bucket of their predicted position, then their
   data gathered in that order. Returns 0 (and sorts nothing) if the scratch is too small. */
int pbd_HashGrid_Build(pbdWorld* w)
{
	const int32_t n = w->particleCount;
	if (w->scratchBytes < pbd_HashGridScratchBytes(n)) {
		PBD_ASSERT(0 && "world scratch smaller than pbd_HashGridScratchBytes(maxParticles)");
		return 0;
	}
	const int32_t T = pbd_HashGrid_TableSize(w);
	const uint32_t mask = (uint32_t)T - 1u;
	const float inv = 1.0f / pbd_HashGrid_CellSize(w);
	const float* p = w->p;
	const float* rest0 = w->rest0;
	int32_t* start = w->cellStart;
	int32_t* entries = w->cellEntries;
	const Sorted q = SortedArrays(w, n);
	/* Until the gather, x holds each particle's bucket and rx its object. */
	uint32_t* bucket = (uint32_t*)q.x;
	int32_t* objectOf = (int32_t*)q.rx;
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
	int32_t i = 0;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		const int32_t end = w->objects[o].firstParticle + w->objects[o].particleCount;
		for (; i < end; ++i) objectOf[i] = o;
	}
	for (; i < n; ++i) objectOf[i] = -1; /* not part of an object: cannot happen through the API */
	for (int32_t s = 0; s < n; ++s) q.object[s] = objectOf[entries[s]];
	for (int32_t s = 0; s < n; ++s) {
		const float* pi = p + 4 * entries[s];
		const float* ri = rest0 + 4 * entries[s];
		q.x[s] = pi[0];
		q.y[s] = pi[1];
		q.z[s] = pi[2];
		q.w[s] = pi[3];
		q.rx[s] = ri[0];
		q.ry[s] = ri[1];
		q.rz[s] = ri[2];
	}
	for (int32_t s = n; s < n + PAD; ++s) {
		q.x[s] = q.y[s] = q.z[s] = q.rx[s] = q.ry[s] = q.rz[s] = q.w[s] = 0.0f;
		q.object[s] = -2;
	}
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

void pbd_HashGrid_FindPairs(pbdWorld* w)
{
	w->pairCount = 0;
	s_droppedWorld = w;
	s_dropped = 0;
	if (!pbd_HashGrid_Build(w)) return;
	const int32_t n = w->particleCount;
	const uint32_t mask = (uint32_t)pbd_HashGrid_TableSize(w) - 1u;
	const float inv = 1.0f / pbd_HashGrid_CellSize(w);
	const float thickness = w->params[pbdParam_thickness];
	const float r = pbd_HashGrid_SearchRadius(w);
	const pbdF4 r2 = pbdF4_Splat(r * r), t2 = pbdF4_Splat(thickness * thickness);
	const int32_t* start = w->cellStart;
	const int32_t* entries = w->cellEntries;
	const Sorted q = SortedArrays(w, n);
	int32_t* pairs = w->pairs;
	const int32_t capacity = w->maxContacts;
	int32_t count = 0, dropped = 0;

	/* The runs around the last cell seen: consecutive slots mostly share a cell. */
	int32_t first[27], end[27];
	int32_t ranges = 0, cx = 0, cy = 0, cz = 0;

	for (int32_t s = 0; s < n; ++s) {
		const float xi = q.x[s], yi = q.y[s], zi = q.z[s];
		const int32_t ix = CellIndex(xi, inv), iy = CellIndex(yi, inv), iz = CellIndex(zi, inv);
		if (s == 0 || ix != cx || iy != cy || iz != cz) {
			cx = ix, cy = iy, cz = iz;
			ranges = Neighbourhood(start, mask, ix, iy, iz, first, end);
		}
		const int32_t objectI = q.object[s];
		const int32_t pinnedI = q.w[s] == 0.0f;
		const pbdF4 xs = pbdF4_Splat(xi), ys = pbdF4_Splat(yi), zs = pbdF4_Splat(zi);
		const pbdF4 rxs = pbdF4_Splat(q.rx[s]), rys = pbdF4_Splat(q.ry[s]), rzs = pbdF4_Splat(q.rz[s]);
		for (int32_t k = 0; k < ranges; ++k) {
			const int32_t e = end[k];
			for (int32_t t = first[k] > s ? first[k] : s + 1; t < e; t += 4) {
				/* |p_s - p_t|^2 < r^2 for 4 slots; lanes past the run masked off */
				const pbdF4 dx = pbdF4_Sub(xs, pbdF4_Load(q.x + t));
				const pbdF4 dy = pbdF4_Sub(ys, pbdF4_Load(q.y + t));
				const pbdF4 dz = pbdF4_Sub(zs, pbdF4_Load(q.z + t));
				const pbdF4 d2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz));
				uint32_t hits = LessBits(d2, r2);
				if (e - t < 4) hits &= (1u << (e - t)) - 1u;
				if (hits == 0u) continue;
				/* rest-pose neighbours: same object and closer than the thickness at rest */
				const pbdF4 ex = pbdF4_Sub(rxs, pbdF4_Load(q.rx + t));
				const pbdF4 ey = pbdF4_Sub(rys, pbdF4_Load(q.ry + t));
				const pbdF4 ez = pbdF4_Sub(rzs, pbdF4_Load(q.rz + t));
				const pbdF4 e2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(ex, ex), pbdF4_Mul(ey, ey)), pbdF4_Mul(ez, ez));
				hits &= ~(LessBits(e2, t2) & EqualBits(q.object + t, objectI));
				if (pinnedI) hits &= ~ZeroBits(q.w + t); /* both pinned */
				while (hits != 0u) {
					const int32_t u = t + __builtin_ctz(hits);
					hits &= hits - 1u;
					if (count < capacity) {
						const int32_t i = entries[s], j = entries[u];
						pairs[2 * count] = i < j ? i : j;
						pairs[2 * count + 1] = i < j ? j : i;
						count += 1;
					} else {
						dropped += 1;
					}
				}
			}
		}
	}
	w->pairCount = count;
	s_dropped = dropped;
}

/* Each pair is the inequality C = |p_i - p_j| - thickness >= 0, projected only when
   violated (seed 000 section 1) with the mass-weighted split of section 3:
       dp_i = +w_i / (w_i + w_j) (thickness - d) n,  dp_j = -w_j / (w_i + w_j) (thickness - d) n,
   n = (p_i - p_j) / d, at stiffness 1 (a contact is hard), pair by pair in list order.

   Friction is positional and Coulomb-bounded, as for the ground (Macklin et al. 2014,
   sec. 6.1): the pair's relative tangential displacement over the substep,
   (p_i - x_i) - (p_j - x_j) less its part along n, is cancelled when shorter than
   mu * depth (static) and otherwise shortened by mu * depth (kinetic), mu = selfFriction,
   depth = this projection's normal correction, split with the same weights so momentum
   is kept. Bounded by the depth, friction follows the normal push, so it does not grow
   with the number of substeps or passes (TenMinutePhysics removes a fixed fraction per
   projection; at 10 substeps x 2 passes that glues touching layers together).

   Coincident particles (d below 1e-6 thickness) have no centre line: they are pushed
   apart along their rest-pose offset, or along +y (i up, j down) when that is zero too.
   Deterministic, and no 0 / 0. */
void pbd_SelfCollision_Solve(pbdWorld* w)
{
	const float thickness = w->params[pbdParam_thickness];
	const float t2 = thickness * thickness;
	const float tiny2 = t2 * 1e-12f;
	const float mu = w->params[pbdParam_selfFriction];
	float* p = w->p;
	const float* x = w->x;
	const float* rest0 = w->rest0;
	const int32_t* pairs = w->pairs;
	const int32_t count = w->pairCount;
	for (int32_t c = 0; c < count; ++c) {
		const int32_t i = pairs[2 * c], j = pairs[2 * c + 1];
		float* pi = p + 4 * i;
		float* pj = p + 4 * j;
		const float wi = pi[3], wj = pj[3];
		const float wsum = wi + wj;
		if (wsum <= 0.0f) continue;
		const float dx = pi[0] - pj[0], dy = pi[1] - pj[1], dz = pi[2] - pj[2];
		const float d2 = dx * dx + dy * dy + dz * dz;
		if (d2 >= t2) continue;
		float nx, ny, nz, d;
		if (d2 > tiny2) {
			d = sqrtf(d2);
			nx = dx / d, ny = dy / d, nz = dz / d;
		} else {
			const float* ri = rest0 + 4 * i;
			const float* rj = rest0 + 4 * j;
			const float ex = ri[0] - rj[0], ey = ri[1] - rj[1], ez = ri[2] - rj[2];
			const float e2 = ex * ex + ey * ey + ez * ez;
			if (e2 > tiny2) {
				const float e = sqrtf(e2);
				nx = ex / e, ny = ey / e, nz = ez / e;
			} else {
				nx = 0.0f, ny = 1.0f, nz = 0.0f;
			}
			d = dx * nx + dy * ny + dz * nz;
		}
		const float depth = thickness - d;
		const float si = depth * (wi / wsum), sj = depth * (wj / wsum);
		pi[0] += si * nx, pi[1] += si * ny, pi[2] += si * nz;
		pj[0] -= sj * nx, pj[1] -= sj * ny, pj[2] -= sj * nz;
		if (mu > 0.0f) {
			const float* xi = x + 4 * i;
			const float* xj = x + 4 * j;
			float rx = (pi[0] - xi[0]) - (pj[0] - xj[0]);
			float ry = (pi[1] - xi[1]) - (pj[1] - xj[1]);
			float rz = (pi[2] - xi[2]) - (pj[2] - xj[2]);
			const float rn = rx * nx + ry * ny + rz * nz;
			rx -= rn * nx, ry -= rn * ny, rz -= rn * nz;
			const float travel2 = rx * rx + ry * ry + rz * rz;
			if (travel2 <= 0.0f) continue;
			const float limit = mu * depth;
			float f = 1.0f; /* static: cancel the whole tangential travel */
			if (travel2 > limit * limit) f = limit / sqrtf(travel2); /* kinetic */
			const float fi = f * (wi / wsum), fj = f * (wj / wsum);
			pi[0] -= fi * rx, pi[1] -= fi * ry, pi[2] -= fi * rz;
			pj[0] += fj * rx, pj[1] += fj * ry, pj[2] += fj * rz;
		}
	}
}

/* Reusing the pair list across substeps (as Macklin et al. 2019, "Small Steps in Physics
   Simulation", find neighbours once per frame). The list holds the pairs within
   r = 1.2 thickness of the positions it was searched at; a pair missing from it was at
   least r apart then, and a contact needs it closer than the thickness t. To close that
   gap of r - t = 0.2 t the two must together have moved 0.2 t, so one of them at least
   0.1 t. So while every particle's predicted position is within 0.1 t of where it was at
   the search, the list holds every pair that can be in contact, and the search is skipped.
   Anything the displacement cannot show clears pairsReusable: a parameter change
   (thickness), a mass change (pairs of two pins were left out), new particles, an
   overflowing list. A cloth at rest then searches about once in many steps; one that
   falls or is dragged still searches every substep. */
static int WithinReach(const pbdWorld* w, float m)
{
	const float limit2 = m * m;
	const float* p = w->p;
	const float* o = w->pairOrigin;
	for (int32_t i = 0; i < w->particleCount; ++i) {
		const float dx = p[4 * i] - o[4 * i], dy = p[4 * i + 1] - o[4 * i + 1], dz = p[4 * i + 2] - o[4 * i + 2];
		if (!(dx * dx + dy * dy + dz * dz < limit2)) return 0; /* NaN-safe: not within */
	}
	return 1;
}

void pbd_SelfCollision_Prepare(pbdWorld* w)
{
	const float thickness = w->params[pbdParam_thickness];
	const float reach = 0.5f * (pbd_HashGrid_SearchRadius(w) - thickness);
	if (w->pairsReusable && WithinReach(w, reach)) return;
	pbd_HashGrid_FindPairs(w);
	w->pairSearches += 1;
	w->pairsReusable = pbd_HashGrid_DroppedPairs(w) == 0;
	if (w->pairsReusable) memcpy(w->pairOrigin, w->p, (size_t)w->particleCount * 4 * sizeof(float));
}

int pbd_World_FindPairs(pbdWorldId id)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
	pbd_HashGrid_FindPairs(w);
	w->pairsReusable = 0; /* this list is for the positions now, not for reuse */
	return w->pairCount;
}

/* ---------------------------------------------------------------- the family (core's shim) */
#include "families/family.h"

static int32_t TableSize(const pbdCapacity* cap)
{
	int32_t t = 1;
	while (t < 2 * cap->maxParticles) t <<= 1;
	return t;
}

static size_t Contacts_Bytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return pbd_PoolBytes((size_t)TableSize(cap) + 1, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(int32_t)) +
		   pbd_PoolBytes((size_t)cap->maxContacts, 2 * sizeof(int32_t)) + pbd_PoolBytes(P, 4 * sizeof(float));
}

static size_t Contacts_ScratchBytes(const pbdCapacity* cap) { return pbd_HashGridScratchBytes(cap->maxParticles); }

static void* Contacts_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	w->tableSize = TableSize(cap);
	w->maxContacts = cap->maxContacts;
	w->cellStart = pbd_PoolAlloc(pool, (size_t)w->tableSize + 1, sizeof(int32_t));
	w->cellEntries = pbd_PoolAlloc(pool, P, sizeof(int32_t));
	w->pairs = pbd_PoolAlloc(pool, (size_t)cap->maxContacts, 2 * sizeof(int32_t));
	w->pairOrigin = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	return w->pairOrigin; /* not read through the registry: a non-NULL state says the carving worked */
}

static void Contacts_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	if (w->params[pbdParam_selfCollision] != 0.0f) {
		pbd_SelfCollision_Prepare(w);
	} else {
		w->pairCount = 0;
		w->pairsReusable = 0;
	}
}

static int32_t Contacts_ColourCount(const pbdWorld* w, const void* state) { return w->pairCount > 0; }

static int32_t Contacts_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 1;
	return w->pairCount;
}

static void Contacts_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbd_SelfCollision_Solve(w); /* the whole list: the shim takes no split */
}

const pbdFamily pbd_family_contacts = {
	.name = "contacts",
	.bytes = Contacts_Bytes,
	.scratchBytes = Contacts_ScratchBytes,
	.create = Contacts_Create,
	.prepareSubstep = Contacts_PrepareSubstep,
	.colourCount = Contacts_ColourCount,
	.colourSize = Contacts_ColourSize,
	.solve = Contacts_Solve,
};
