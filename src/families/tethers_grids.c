/* families/tethers_grids.c -- the tethers' searches through grids over the pins (tethers_build.c finds the pins,
   their islands, and checks every pin as the reference): a grid per pin island met through a grid of the islands'
   boxes (the step's way), and one grid over every pin (where those do not fit the scratch). Both find the
   reference's tethers bit for bit (tests/c/test_cloth.c TethersRebuildMatchesBruteForce).

   Why a grid per island. One grid over every pin stops a particle's search only when no pin left can be as near as
   its K-th nearest island: for a particle far from a few long islands that is most of the pins' cells (a 512 x 512
   cloth with 20 rows of 512 pins, the rows under the last one: 11 s natively and 25 s in wasm at the first step; 65
   rows of 150 pins, 10.9 s natively). Per island, the nearest pin of that island alone stops at its own distance,
   in a grid as thin as the island, and the islands are met through a grid of their boxes. Every search here is one
   ring walk (WalkRings) with its own visit. */
#include "families/tethers_state.h"

#include <math.h>

/* The same tethers through a uniform grid over the object's pins (the reference checks every
   pin: 31.6 M distances for the 316 x 316 cloth pinned along its top edge, half a second in
   wasm). A particle visits the cells in rings of growing Chebyshev distance from its own
   (clamped) cell and stops when no pin left can be as near as the K-th nearest island found
   (K = the islands its tethers need, up to 1 + PBD_TETHER_EXTRA): every pin not visited is
   then strictly farther, so the islands that can be picked, their nearest pins and the
   nearest pin itself are those of the reference, ties and all (a tie is broken by index, not
   by the order of the visit). Distances are pbd_Tethers_Distance2's floats; the cells' lower bounds
   are doubles, lowered by a margin for the rounding of the cell of a pin and of a float
   distance (a relative 3e-7 at most). The caller checks the rest positions are finite and
   within 1e18, so no distance reaches the 3.4e38 that means none. */
typedef struct PinGrid {
	double origin[3], lo[3], hi[3]; ///< lo/hi: the pins' bounds
	double h, margin;
	int32_t n[3];
	int32_t* cellStart; ///< n[0] n[1] n[2] + 1
	int32_t* cellPins;  ///< slots k of pins[] by cell
} PinGrid;

static double GridCells(const double ext[3], double h)
{
	return (double)((int64_t)(ext[0] / h) + 1) * (double)((int64_t)(ext[1] / h) + 1) * (double)((int64_t)(ext[2] / h) + 1);
}

static int CellCoord(const PinGrid* g, int a, double v)
{
	double c = (v - g->origin[a]) / g->h;
	if (!(c > 0.0)) return 0;
	if (c >= (double)(g->n[a] - 1)) return g->n[a] - 1;
	return (int)c;
}

static int CellOf(const PinGrid* g, const float* q)
{
	return (CellCoord(g, 2, q[2]) * g->n[1] + CellCoord(g, 1, q[1])) * g->n[0] + CellCoord(g, 0, q[0]);
}

static double Gap(double v, double lo, double hi, double margin)
{
	double d = lo - v > v - hi ? lo - v : v - hi;
	d -= margin;
	return d > 0.0 ? d * d : 0.0;
}

/* Lays out the grid in the scratch left; 0 if it does not fit (the caller then uses the
   reference). */
static int BuildPinGrid(const pbdWorld* w, pbdPool* scratch, const int32_t* pins, int pinCount, PinGrid* g)
{
	double ext[3], maxExt = 0.0, magnitude = 0.0;
	for (int a = 0; a < 3; ++a) {
		g->lo[a] = g->hi[a] = w->rest0[4 * pins[0] + a];
		for (int k = 1; k < pinCount; ++k) {
			double v = w->rest0[4 * pins[k] + a];
			if (v < g->lo[a]) g->lo[a] = v;
			if (v > g->hi[a]) g->hi[a] = v;
		}
		g->origin[a] = g->lo[a];
		ext[a] = g->hi[a] - g->lo[a];
		if (ext[a] > maxExt) maxExt = ext[a];
		if (-g->lo[a] > magnitude) magnitude = -g->lo[a];
		if (g->hi[a] > magnitude) magnitude = g->hi[a];
	}
	g->cellPins = pbd_PoolAlloc(scratch, (size_t)pinCount, sizeof(int32_t));
	if (g->cellPins == NULL || scratch->capacity < scratch->used + 256) return 0;
	double limit = (double)((scratch->capacity - scratch->used - 128) / sizeof(int32_t)) - 1.0;
	if (limit > 2.0 * pinCount) limit = 2.0 * pinCount;
	if (limit < 1.0) return 0;
	g->h = maxExt > 0.0 ? 2.0 * maxExt : 1.0; /* one cell, then halved while the cells fit */
	for (int s = 0; s < 64 && maxExt > 0.0 && GridCells(ext, 0.5 * g->h) <= limit; ++s) g->h *= 0.5;
	for (int a = 0; a < 3; ++a) g->n[a] = (int32_t)(ext[a] / g->h) + 1;
	g->margin = 1e-6 * g->h + 1e-12 * magnitude;
	const int cells = g->n[0] * g->n[1] * g->n[2];
	g->cellStart = pbd_PoolAlloc(scratch, (size_t)cells + 1, sizeof(int32_t));
	if (g->cellStart == NULL) return 0;
	for (int c = 0; c <= cells; ++c) g->cellStart[c] = 0;
	for (int k = 0; k < pinCount; ++k) g->cellStart[CellOf(g, w->rest0 + 4 * pins[k]) + 1] += 1;
	for (int c = 0; c < cells; ++c) g->cellStart[c + 1] += g->cellStart[c];
	for (int k = 0; k < pinCount; ++k) {
		int c = CellOf(g, w->rest0 + 4 * pins[k]);
		g->cellPins[g->cellStart[c]++] = k;
	}
	for (int c = cells; c > 0; --c) g->cellStart[c] = g->cellStart[c - 1];
	g->cellStart[0] = 0;
	return 1;
}

/* True when the cell (x, y, z) may hold a pin within T of p (lowered bounds, see above). */
static int CellMayHold(const PinGrid* g, const double p[3], const int c[3], double T)
{
	double b = 0.0;
	for (int a = 0; a < 3; ++a) {
		double lo = g->origin[a] + (double)c[a] * g->h;
		b += Gap(p[a], lo, lo + g->h, g->margin);
	}
	return !((b - 1e-30) * (1.0 - 1e-6) > T);
}

/* The cells of grid g around p in rings of growing Chebyshev distance from p's (clamped) cell, each passed to
   visit(data, cell). *T is the search's bound once it has one (3.4e38: none yet; the visits and ringDone may lower
   it): a cell that cannot hold anything within T is skipped, and the walk stops before the first ring whose cells
   all lie beyond T (the least a cell that many rings away along some axis can be, lowered as CellMayHold's).
   ringDone (NULL: none) runs after each ring. */
static void WalkRings(const PinGrid* g, const double p[3], const float* T, void (*visit)(void* data, int cell),
					  void (*ringDone)(void* data), void* data)
{
	int c[3], maxR = 0;
	double box[3];
	for (int a = 0; a < 3; ++a) {
		c[a] = CellCoord(g, a, p[a]);
		box[a] = Gap(p[a], g->lo[a], g->hi[a], g->margin);
		if (c[a] > maxR) maxR = c[a];
		if (g->n[a] - 1 - c[a] > maxR) maxR = g->n[a] - 1 - c[a];
	}
	for (int r = 0; r <= maxR; ++r) {
		if (r > 0 && *T < 3.4e38f) {
			double L = 1e300;
			for (int a = 0; a < 3; ++a) {
				const double others = box[0] + box[1] + box[2] - box[a];
				if (c[a] + r <= g->n[a] - 1) {
					const double v = Gap(p[a], g->origin[a] + (double)(c[a] + r) * g->h, 1e300, g->margin) + others;
					if (v < L) L = v;
				}
				if (c[a] - r >= 0) {
					const double v = Gap(p[a], -1e300, g->origin[a] + (double)(c[a] - r + 1) * g->h, g->margin) + others;
					if (v < L) L = v;
				}
			}
			if ((L - 1e-30) * (1.0 - 1e-6) > *T) break;
		}
		int q[3];
		for (q[2] = c[2] - r; q[2] <= c[2] + r; ++q[2]) {
			if (q[2] < 0 || q[2] >= g->n[2]) continue;
			for (q[1] = c[1] - r; q[1] <= c[1] + r; ++q[1]) {
				if (q[1] < 0 || q[1] >= g->n[1]) continue;
				const int face = q[2] == c[2] - r || q[2] == c[2] + r || q[1] == c[1] - r || q[1] == c[1] + r;
				const int step = face || r == 0 ? 1 : 2 * r;
				for (q[0] = c[0] - r; q[0] <= c[0] + r; q[0] += step) {
					if (q[0] < 0 || q[0] >= g->n[0]) continue;
					if (*T < 3.4e38f && !CellMayHold(g, p, q, *T)) continue;
					visit(data, (q[2] * g->n[1] + q[1]) * g->n[0] + q[0]);
				}
			}
		}
		if (ringDone != NULL) ringDone(data);
	}
}

/* v into top[0 .. *n) (ascending, at most K kept). */
static void KeepSmallest(float* top, int* n, int K, float v)
{
	if (*n == K && !(v < top[K - 1])) return;
	int at = *n < K ? (*n)++ : K - 1;
	while (at > 0 && top[at - 1] > v) {
		top[at] = top[at - 1];
		--at;
	}
	top[at] = v;
}

/* Particle i's tethers beyond its nearest pin: the nearest pins of the next nearest islands of `list` (the islands
   the search met; the nearest pin's own set to 3.4e38 by the caller), nearest first, ties to the lower island. The
   islands picked are set to 3.4e38. */
static void PickExtras(pbdTethers* t, int i, const int32_t* list, int count, float* islandBest, const int32_t* islandPin)
{
	for (int e = 0; e < PBD_TETHER_EXTRA; ++e) {
		int pick = -1;
		for (int k = 0; k < count; ++k) {
			const int m = list[k];
			if (islandBest[m] < 3.4e38f && (pick < 0 || islandBest[m] < islandBest[pick] || (islandBest[m] == islandBest[pick] && m < pick)))
				pick = m;
		}
		if (pick < 0) break;
		t->extraAnchor[e * t->capacity + i] = islandPin[pick];
		t->extraRest[e * t->capacity + i] = sqrtf(islandBest[pick]);
		islandBest[pick] = 3.4e38f;
		if (e + 1 > t->extraSlots) t->extraSlots = e + 1;
	}
}

/* One grid over every pin: a particle's walk visits the pins cell by cell, keeping the nearest pin and each island's
   nearest, and its bound is the K-th nearest island's once K are met (after each ring). */
typedef struct PinSearch {
	const pbdWorld* w;
	const PinGrid* g;
	const int32_t *pins, *island;
	float *islandBest;
	int32_t *islandPin, *touched;
	const float* r;
	float best, T;
	int anchor, anchorIsland, touchedCount, K;
} PinSearch;

static void VisitPins(void* data, int cell)
{
	PinSearch* s = data;
	const PinGrid* g = s->g;
	for (int j = g->cellStart[cell]; j < g->cellStart[cell + 1]; ++j) {
		const int k = g->cellPins[j], pin = s->pins[k], m = s->island[k];
		const float d2 = pbd_Tethers_Distance2(s->r, s->w->rest0 + 4 * pin);
		if (d2 < s->best || (d2 == s->best && pin < s->anchor)) {
			s->best = d2;
			s->anchor = pin;
			s->anchorIsland = m;
		}
		if (s->islandBest[m] == 3.4e38f) s->touched[s->touchedCount++] = m;
		if (d2 < s->islandBest[m] || (d2 == s->islandBest[m] && pin < s->islandPin[m])) {
			s->islandBest[m] = d2;
			s->islandPin[m] = pin;
		}
	}
}

static void PinsRingDone(void* data)
{
	PinSearch* s = data;
	if (s->touchedCount < s->K) return;
	float top[1 + PBD_TETHER_EXTRA];
	int n = 0;
	for (int j = 0; j < s->touchedCount; ++j) KeepSmallest(top, &n, s->K, s->islandBest[s->touched[j]]);
	s->T = top[s->K - 1];
}

int pbd_Tethers_FindWithOneGrid(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
								 const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin, pbdPool* scratch)
{
	int32_t* touched = pbd_PoolAlloc(scratch, (size_t)islandCount, sizeof(int32_t));
	PinGrid grid;
	if (touched == NULL || !BuildPinGrid(w, scratch, pins, pinCount, &grid)) return 0;
	const PinGrid* g = &grid;
	const int K = islandCount < 1 + PBD_TETHER_EXTRA ? islandCount : 1 + PBD_TETHER_EXTRA;
	for (int m = 0; m < islandCount; ++m) islandBest[m] = 3.4e38f;
	for (int i = first; i < end; ++i) {
		if (w->x[4 * i + 3] == 0.0f) continue;
		PinSearch s = { w, g, pins, island, islandBest, islandPin, touched, w->rest0 + 4 * i, 3.4e38f, 3.4e38f, -1, -1, 0, K };
		const double p[3] = { s.r[0], s.r[1], s.r[2] };
		WalkRings(g, p, &s.T, VisitPins, PinsRingDone, &s);
		t->anchor[i] = s.anchor;
		t->rest[i] = sqrtf(s.best);
		islandBest[s.anchorIsland] = 3.4e38f;
		PickExtras(t, i, touched, s.touchedCount, islandBest, islandPin);
		for (int j = 0; j < s.touchedCount; ++j) islandBest[touched[j]] = 3.4e38f;
	}
	return 1;
}

/* The nearest pin of the grid's pins `sub` to r (ties: the lower pin index): the walk with one island, its bound the
   nearest pin's own distance. */
typedef struct NearSearch {
	const pbdWorld* w;
	const PinGrid* g;
	const int32_t* sub;
	const float* r;
	float best;
	int pin;
} NearSearch;

static void VisitNear(void* data, int cell)
{
	NearSearch* s = data;
	for (int j = s->g->cellStart[cell]; j < s->g->cellStart[cell + 1]; ++j) {
		const int at = s->sub[s->g->cellPins[j]];
		const float d2 = pbd_Tethers_Distance2(s->r, s->w->rest0 + 4 * at);
		if (d2 < s->best || (d2 == s->best && at < s->pin)) s->best = d2, s->pin = at;
	}
}

static void NearestInGrid(const pbdWorld* w, const PinGrid* g, const int32_t* sub, const float* r, float* bestOut, int* pinOut)
{
	NearSearch s = { w, g, sub, r, 3.4e38f, -1 };
	const double p[3] = { r[0], r[1], r[2] };
	WalkRings(g, p, &s.best, VisitNear, NULL, &s);
	*bestOut = s.best;
	*pinOut = s.pin;
}

/* The islands by their boxes: a grid whose cells list the islands whose bounding box (grids[m].lo, hi) overlaps them,
   the cell halved from one over everything while the cells stay within 2 per island and the entries within 8 per
   island. The PinGrid's cellPins hold island numbers here. 0 if it does not fit the scratch. */
static int64_t BoxEntries(const PinGrid* g, const PinGrid* grids, int islands)
{
	int64_t total = 0;
	for (int m = 0; m < islands; ++m) {
		int64_t n = 1;
		for (int a = 0; a < 3; ++a) n *= CellCoord(g, a, grids[m].hi[a]) - CellCoord(g, a, grids[m].lo[a]) + 1;
		total += n;
	}
	return total;
}

static int BuildBoxGrid(pbdPool* scratch, const PinGrid* grids, int islands, PinGrid* g)
{
	double ext[3], maxExt = 0.0, magnitude = 0.0;
	for (int a = 0; a < 3; ++a) {
		g->lo[a] = grids[0].lo[a], g->hi[a] = grids[0].hi[a];
		for (int m = 1; m < islands; ++m) {
			if (grids[m].lo[a] < g->lo[a]) g->lo[a] = grids[m].lo[a];
			if (grids[m].hi[a] > g->hi[a]) g->hi[a] = grids[m].hi[a];
		}
		g->origin[a] = g->lo[a];
		ext[a] = g->hi[a] - g->lo[a];
		if (ext[a] > maxExt) maxExt = ext[a];
		if (-g->lo[a] > magnitude) magnitude = -g->lo[a];
		if (g->hi[a] > magnitude) magnitude = g->hi[a];
	}
	g->h = maxExt > 0.0 ? 2.0 * maxExt : 1.0;
	for (int a = 0; a < 3; ++a) g->n[a] = (int32_t)(ext[a] / g->h) + 1;
	for (int s = 0; s < 64 && maxExt > 0.0; ++s) {
		PinGrid t = *g;
		t.h = 0.5 * g->h;
		for (int a = 0; a < 3; ++a) t.n[a] = (int32_t)(ext[a] / t.h) + 1;
		if (GridCells(ext, t.h) > 2.0 * islands || BoxEntries(&t, grids, islands) > 8 * (int64_t)islands) break;
		*g = t;
	}
	g->margin = 1e-6 * g->h + 1e-12 * magnitude;
	const int cells = g->n[0] * g->n[1] * g->n[2];
	const int64_t entries = BoxEntries(g, grids, islands);
	g->cellStart = pbd_PoolAlloc(scratch, (size_t)cells + 1, sizeof(int32_t));
	g->cellPins = pbd_PoolAlloc(scratch, (size_t)entries, sizeof(int32_t));
	if (g->cellStart == NULL || g->cellPins == NULL) return 0;
	for (int c = 0; c <= cells; ++c) g->cellStart[c] = 0;
	for (int pass = 0; pass < 2; ++pass) {
		for (int m = 0; m < islands; ++m) {
			int lo[3], hi[3];
			for (int a = 0; a < 3; ++a) lo[a] = CellCoord(g, a, grids[m].lo[a]), hi[a] = CellCoord(g, a, grids[m].hi[a]);
			for (int z = lo[2]; z <= hi[2]; ++z) {
				for (int y = lo[1]; y <= hi[1]; ++y) {
					for (int x = lo[0]; x <= hi[0]; ++x) {
						const int c = (z * g->n[1] + y) * g->n[0] + x;
						if (pass == 0) g->cellStart[c + 1] += 1;
						else g->cellPins[g->cellStart[c]++] = m;
					}
				}
			}
		}
		if (pass == 0) {
			for (int c = 0; c < cells; ++c) g->cellStart[c + 1] += g->cellStart[c];
		} else {
			for (int c = cells; c > 0; --c) g->cellStart[c] = g->cellStart[c - 1];
			g->cellStart[0] = 0;
		}
	}
	return 1;
}

/* The tethers of FindReference through a grid per island: a particle walks the grid of the islands' boxes
   (BuildBoxGrid) and takes each island's nearest pin from the island's own grid unless its box is already farther
   than the K-th nearest island found (K = the islands its tethers need); the walk's bound is that K-th distance, so
   it stops when no island not met can be as near. Every island not taken is then strictly farther than the K-th
   taken, so the nearest pin (ties: the lower index), the islands picked (ties: the lower island) and their pins are
   the reference's. Returns 0 when the grids do not fit the scratch (the caller then uses one grid over every pin, or
   the reference). */
typedef struct IslandSearch {
	const pbdWorld* w;
	const PinGrid *boxes, *grids;
	const int32_t *sorted, *start;
	float* islandBest;
	int32_t *islandPin, *stamp, *taken;
	const float* r;
	double p[3];
	int i, K, found, takenCount, anchor, anchorIsland;
	float best, T; ///< T: the K-th nearest island's distance once K are taken (3.4e38 before)
	float top[1 + PBD_TETHER_EXTRA];
} IslandSearch;

static void VisitIslands(void* data, int cell)
{
	IslandSearch* s = data;
	for (int j = s->boxes->cellStart[cell]; j < s->boxes->cellStart[cell + 1]; ++j) {
		const int m = s->boxes->cellPins[j];
		if (s->stamp[m] == s->i) continue;
		s->stamp[m] = s->i;
		const PinGrid* gm = &s->grids[m];
		const double lb = Gap(s->p[0], gm->lo[0], gm->hi[0], gm->margin) + Gap(s->p[1], gm->lo[1], gm->hi[1], gm->margin) +
						  Gap(s->p[2], gm->lo[2], gm->hi[2], gm->margin);
		if ((lb - 1e-30) * (1.0 - 1e-6) > s->T) continue; /* farther than the K taken */
		NearestInGrid(s->w, gm, s->sorted + s->start[m], s->r, &s->islandBest[m], &s->islandPin[m]);
		s->taken[s->takenCount++] = m;
		const float v = s->islandBest[m];
		if (v < s->best || (v == s->best && s->islandPin[m] < s->anchor)) s->best = v, s->anchor = s->islandPin[m], s->anchorIsland = m;
		KeepSmallest(s->top, &s->found, s->K, v);
		if (s->found == s->K) s->T = s->top[s->K - 1];
	}
}

int pbd_Tethers_FindByIslands(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
							  const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin, pbdPool* scratch)
{
	int32_t* start = pbd_PoolAlloc(scratch, (size_t)islandCount + 1, sizeof(int32_t));
	int32_t* sorted = pbd_PoolAlloc(scratch, (size_t)pinCount, sizeof(int32_t));
	PinGrid* grids = pbd_PoolAlloc(scratch, (size_t)islandCount, sizeof(PinGrid));
	int32_t* stamp = pbd_PoolAlloc(scratch, (size_t)islandCount, sizeof(int32_t));
	int32_t* taken = pbd_PoolAlloc(scratch, (size_t)islandCount, sizeof(int32_t));
	if (start == NULL || sorted == NULL || grids == NULL || stamp == NULL || taken == NULL) return 0;
	/* the pins by island, ascending within each (a counting sort), and a grid over each island's */
	for (int m = 0; m <= islandCount; ++m) start[m] = 0;
	for (int k = 0; k < pinCount; ++k) start[island[k] + 1] += 1;
	for (int m = 0; m < islandCount; ++m) start[m + 1] += start[m];
	for (int k = 0; k < pinCount; ++k) sorted[start[island[k]]++] = pins[k];
	for (int m = islandCount; m > 0; --m) start[m] = start[m - 1];
	start[0] = 0;
	for (int m = 0; m < islandCount; ++m) {
		if (!BuildPinGrid(w, scratch, sorted + start[m], start[m + 1] - start[m], &grids[m])) return 0;
		stamp[m] = -1;
	}
	PinGrid boxes;
	if (!BuildBoxGrid(scratch, grids, islandCount, &boxes)) return 0;
	const int K = islandCount < 1 + PBD_TETHER_EXTRA ? islandCount : 1 + PBD_TETHER_EXTRA;
	for (int i = first; i < end; ++i) {
		if (w->x[4 * i + 3] == 0.0f) continue;
		const float* r = w->rest0 + 4 * i;
		IslandSearch s = { .w = w, .boxes = &boxes, .grids = grids, .sorted = sorted, .start = start, .islandBest = islandBest,
						   .islandPin = islandPin, .stamp = stamp, .taken = taken, .r = r, .p = { r[0], r[1], r[2] }, .i = i,
						   .K = K, .anchor = -1, .anchorIsland = -1, .best = 3.4e38f, .T = 3.4e38f };
		WalkRings(&boxes, s.p, &s.T, VisitIslands, NULL, &s);
		t->anchor[i] = s.anchor;
		t->rest[i] = sqrtf(s.best);
		islandBest[s.anchorIsland] = 3.4e38f;
		PickExtras(t, i, taken, s.takenCount, islandBest, islandPin);
	}
	return 1;
}

