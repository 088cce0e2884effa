/* families/tethers_build.c -- the tethers' anchors (families/tethers.c says what a tether is): each particle's
   nearest pin, and the nearest pins of its next nearest pin islands, found with a grid over the pins (or, as the
   reference, against every pin). Runs at the step after the set of pins changed, not every step. */
#include "families/family.h"
#include "families/tethers_state.h"
#include "services/materials.h"

#include <math.h>

/* Slot of particle i in the ascending list of an object's pins, or -1. */
static int PinSlot(const int32_t* pins, int count, int i)
{
	int lo = 0, hi = count - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (pins[mid] == i) return mid;
		if (pins[mid] < i) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

static int IslandRoot(int32_t* parent, int k)
{
	while (parent[k] != k) k = parent[k] = parent[parent[k]];
	return k;
}

static void JoinPins(const pbdWorld* w, int32_t* island, const int32_t* pins, int pinCount, int a, int b)
{
	if (w->x[4 * a + 3] != 0.0f || w->x[4 * b + 3] != 0.0f) return; /* not both pins: no search */
	int sa = PinSlot(pins, pinCount, a), sb = PinSlot(pins, pinCount, b);
	if (sa < 0 || sb < 0) return;
	int ra = IslandRoot(island, sa), rb = IslandRoot(island, sb);
	if (ra < rb) island[rb] = ra;
	else if (rb < ra) island[ra] = rb;
}

/* island[k] = the island (0 .. count - 1) of pins[k]: pins joined by an edge of the object's
   mesh (a triangle's side, a chain's segment; torn ones are gone) are one island. Returns the
   island count. */
static int PinIslands(const pbdWorld* w, const pbdObjectInfo* info, const int32_t* pins, int pinCount, int32_t* island)
{
	for (int k = 0; k < pinCount; ++k) island[k] = k;
	for (int t = info->firstTriangle; t < info->firstTriangle + info->triangleCount; ++t) {
		const uint32_t* tri = w->triangles + 3 * t;
		for (int e = 0; e < 3; ++e) JoinPins(w, island, pins, pinCount, (int)tri[e], (int)tri[(e + 1) % 3]);
	}
	for (int l = info->firstLine; l < info->firstLine + info->lineCount; ++l) {
		JoinPins(w, island, pins, pinCount, (int)w->lines[2 * l], (int)w->lines[2 * l + 1]);
	}
	/* every pin straight to its root first, then the roots numbered in order: a root (the set's least slot) comes
	   before its members, so a member reads its root's number. Numbering while still following the links (as this
	   did) sent a member of a later island through a renumbered root (its new number read as a slot) into the
	   first: two pinned rows came out one island, and the particles under the second lost their tether to the
	   first (TethersEveryPinIslandNumbered). */
	for (int k = 0; k < pinCount; ++k) island[k] = IslandRoot(island, k);
	int count = 0;
	for (int k = 0; k < pinCount; ++k) island[k] = island[k] == k ? count++ : island[island[k]];
	return count;
}

/* Per particle its nearest pin in the rest pose (ties: the lower pin index) and the nearest
   pin of each island (ties: the lower pin index), then the next nearest islands' (ties: the
   lower island), every squared distance computed as RestDistance2 does. The reference rule:
   every particle against every pin, ascending, strict <. For a flat cloth or a straight chain
   the straight line is also the geodesic, so the tether never asks for less than the rest
   shape. */
static inline float RestDistance2(const float* r, const float* q)
{
	float dx = r[0] - q[0], dy = r[1] - q[1], dz = r[2] - q[2];
	return dx * dx + dy * dy + dz * dz;
}

static void FindReference(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
						  const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin)
{
	for (int i = first; i < end; ++i) {
		if (w->x[4 * i + 3] == 0.0f) continue;
		const float* r = w->rest0 + 4 * i;
		float best = 3.4e38f;
		int anchor = -1;
		for (int m = 0; m < islandCount; ++m) islandBest[m] = 3.4e38f;
		for (int k = 0; k < pinCount; ++k) {
			float d2 = RestDistance2(r, w->rest0 + 4 * pins[k]);
			if (d2 < best) {
				best = d2;
				anchor = pins[k];
			}
			if (d2 < islandBest[island[k]]) {
				islandBest[island[k]] = d2;
				islandPin[island[k]] = pins[k];
			}
		}
		t->anchor[i] = anchor;
		t->rest[i] = sqrtf(best);
		/* then the nearest pins of the next nearest islands, nearest first */
		islandBest[island[PinSlot(pins, pinCount, anchor)]] = 3.4e38f;
		for (int e = 0; e < PBD_TETHER_EXTRA; ++e) {
			int pick = -1;
			for (int m = 0; m < islandCount; ++m) {
				if (islandBest[m] < 3.4e38f && (pick < 0 || islandBest[m] < islandBest[pick])) pick = m;
			}
			if (pick < 0) break;
			t->extraAnchor[e * t->capacity + i] = islandPin[pick];
			t->extraRest[e * t->capacity + i] = sqrtf(islandBest[pick]);
			islandBest[pick] = 3.4e38f;
			if (e + 1 > t->extraSlots) t->extraSlots = e + 1;
		}
	}
}

/* The same tethers through a uniform grid over the object's pins (the reference checks every
   pin: 31.6 M distances for the 316 x 316 cloth pinned along its top edge, half a second in
   wasm). A particle visits the cells in rings of growing Chebyshev distance from its own
   (clamped) cell and stops when no pin left can be as near as the K-th nearest island found
   (K = the islands its tethers need, up to 1 + PBD_TETHER_EXTRA): every pin not visited is
   then strictly farther, so the islands that can be picked, their nearest pins and the
   nearest pin itself are those of the reference, ties and all (a tie is broken by index, not
   by the order of the visit). Distances are RestDistance2's floats; the cells' lower bounds
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

typedef struct PinSearch {
	const float* r;
	float best;
	int anchor;
	int touchedCount;
} PinSearch;

static void VisitCell(const pbdWorld* w, const PinGrid* g, const int32_t* pins, const int32_t* island, float* islandBest,
					  int32_t* islandPin, int32_t* touched, PinSearch* s, int cell)
{
	for (int j = g->cellStart[cell]; j < g->cellStart[cell + 1]; ++j) {
		const int k = g->cellPins[j], pin = pins[k], m = island[k];
		const float d2 = RestDistance2(s->r, w->rest0 + 4 * pin);
		if (d2 < s->best || (d2 == s->best && pin < s->anchor)) {
			s->best = d2;
			s->anchor = pin;
		}
		if (islandBest[m] == 3.4e38f) touched[s->touchedCount++] = m;
		if (d2 < islandBest[m] || (d2 == islandBest[m] && pin < islandPin[m])) {
			islandBest[m] = d2;
			islandPin[m] = pin;
		}
	}
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

static void FindWithGrid(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
						 const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin, int32_t* touched,
						 const PinGrid* g)
{
	const int K = islandCount < 1 + PBD_TETHER_EXTRA ? islandCount : 1 + PBD_TETHER_EXTRA;
	for (int m = 0; m < islandCount; ++m) islandBest[m] = 3.4e38f;
	for (int i = first; i < end; ++i) {
		if (w->x[4 * i + 3] == 0.0f) continue;
		PinSearch s = { w->rest0 + 4 * i, 3.4e38f, -1, 0 };
		const double p[3] = { s.r[0], s.r[1], s.r[2] };
		int c[3], maxR = 0;
		double box[3];
		for (int a = 0; a < 3; ++a) {
			c[a] = CellCoord(g, a, p[a]);
			box[a] = Gap(p[a], g->lo[a], g->hi[a], g->margin);
			if (c[a] > maxR) maxR = c[a];
			if (g->n[a] - 1 - c[a] > maxR) maxR = g->n[a] - 1 - c[a];
		}
		double T = 1e300; /* the K-th nearest island's distance once K are found */
		for (int r = 0; r <= maxR; ++r) {
			if (r > 0 && T < 1e300) {
				/* the least a cell r or more cells away along some axis can be */
				double L = 1e300;
				for (int a = 0; a < 3; ++a) {
					double others = box[0] + box[1] + box[2] - box[a];
					if (c[a] + r <= g->n[a] - 1) {
						double v = Gap(p[a], g->origin[a] + (double)(c[a] + r) * g->h, 1e300, g->margin) + others;
						if (v < L) L = v;
					}
					if (c[a] - r >= 0) {
						double v = Gap(p[a], -1e300, g->origin[a] + (double)(c[a] - r + 1) * g->h, g->margin) + others;
						if (v < L) L = v;
					}
				}
				if ((L - 1e-30) * (1.0 - 1e-6) > T) break;
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
						if (T < 1e300 && !CellMayHold(g, p, q, T)) continue;
						VisitCell(w, g, pins, island, islandBest, islandPin, touched, &s, (q[2] * g->n[1] + q[1]) * g->n[0] + q[0]);
					}
				}
			}
			if (s.touchedCount >= K) {
				/* T = the K-th smallest of the islands' bests so far */
				float top[1 + PBD_TETHER_EXTRA];
				int n = 0;
				for (int j = 0; j < s.touchedCount; ++j) {
					float v = islandBest[touched[j]];
					if (n == K && !(v < top[K - 1])) continue;
					int at = n < K ? n++ : K - 1;
					while (at > 0 && top[at - 1] > v) {
						top[at] = top[at - 1];
						--at;
					}
					top[at] = v;
				}
				T = top[K - 1];
			}
		}
		t->anchor[i] = s.anchor;
		t->rest[i] = sqrtf(s.best);
		/* then the nearest pins of the next nearest islands, nearest first (ties: the lower island) */
		islandBest[island[PinSlot(pins, pinCount, s.anchor)]] = 3.4e38f;
		for (int e = 0; e < PBD_TETHER_EXTRA; ++e) {
			int pick = -1;
			for (int j = 0; j < s.touchedCount; ++j) {
				const int m = touched[j];
				if (islandBest[m] < 3.4e38f &&
					(pick < 0 || islandBest[m] < islandBest[pick] || (islandBest[m] == islandBest[pick] && m < pick)))
					pick = m;
			}
			if (pick < 0) break;
			t->extraAnchor[e * t->capacity + i] = islandPin[pick];
			t->extraRest[e * t->capacity + i] = sqrtf(islandBest[pick]);
			islandBest[pick] = 3.4e38f;
			if (e + 1 > t->extraSlots) t->extraSlots = e + 1;
		}
		for (int j = 0; j < s.touchedCount; ++j) islandBest[touched[j]] = 3.4e38f;
	}
}

/* A grid per island (FindByIslands), the one over every pin (FindWithGrid) where those do not fit the scratch. One
   grid over every pin stops a particle's search only when no pin left can be as near as its K-th nearest island:
   for a particle far from a few long islands that is most of the pins' cells (a 512 x 512 cloth with 20 rows of 512
   pins, the rows under the last one: 11 s natively and 25 s in wasm at the first step; 65 rows of 150 pins, 10.9 s
   natively). Per island, the nearest pin of that island alone stops at its own distance, in a grid as thin as the
   island, and the islands are met through a grid of their boxes. */

/* The nearest pin of the grid's pins `sub` to r (ties: the lower pin index): the ring search of FindWithGrid with
   one island, which stops at the nearest pin's own distance. */
static void NearestInGrid(const pbdWorld* w, const PinGrid* g, const int32_t* sub, const float* r, float* bestOut, int* pinOut)
{
	const double p[3] = { r[0], r[1], r[2] };
	int c[3], maxR = 0;
	double box[3];
	for (int a = 0; a < 3; ++a) {
		c[a] = CellCoord(g, a, p[a]);
		box[a] = Gap(p[a], g->lo[a], g->hi[a], g->margin);
		if (c[a] > maxR) maxR = c[a];
		if (g->n[a] - 1 - c[a] > maxR) maxR = g->n[a] - 1 - c[a];
	}
	float best = 3.4e38f;
	int pin = -1;
	for (int ring = 0; ring <= maxR; ++ring) {
		if (ring > 0 && pin >= 0) {
			double L = 1e300;
			for (int a = 0; a < 3; ++a) {
				const double others = box[0] + box[1] + box[2] - box[a];
				if (c[a] + ring <= g->n[a] - 1) {
					const double v = Gap(p[a], g->origin[a] + (double)(c[a] + ring) * g->h, 1e300, g->margin) + others;
					if (v < L) L = v;
				}
				if (c[a] - ring >= 0) {
					const double v = Gap(p[a], -1e300, g->origin[a] + (double)(c[a] - ring + 1) * g->h, g->margin) + others;
					if (v < L) L = v;
				}
			}
			if ((L - 1e-30) * (1.0 - 1e-6) > best) break;
		}
		int q[3];
		for (q[2] = c[2] - ring; q[2] <= c[2] + ring; ++q[2]) {
			if (q[2] < 0 || q[2] >= g->n[2]) continue;
			for (q[1] = c[1] - ring; q[1] <= c[1] + ring; ++q[1]) {
				if (q[1] < 0 || q[1] >= g->n[1]) continue;
				const int face = q[2] == c[2] - ring || q[2] == c[2] + ring || q[1] == c[1] - ring || q[1] == c[1] + ring;
				const int step = face || ring == 0 ? 1 : 2 * ring;
				for (q[0] = c[0] - ring; q[0] <= c[0] + ring; q[0] += step) {
					if (q[0] < 0 || q[0] >= g->n[0]) continue;
					if (pin >= 0 && !CellMayHold(g, p, q, best)) continue;
					const int cell = (q[2] * g->n[1] + q[1]) * g->n[0] + q[0];
					for (int j = g->cellStart[cell]; j < g->cellStart[cell + 1]; ++j) {
						const int at = sub[g->cellPins[j]];
						const float d2 = RestDistance2(r, w->rest0 + 4 * at);
						if (d2 < best || (d2 == best && at < pin)) best = d2, pin = at;
					}
				}
			}
		}
	}
	*bestOut = best;
	*pinOut = pin;
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

/* The tethers of FindReference through a grid per island: a particle meets the islands ring by ring in the grid of
   their boxes (BuildBoxGrid), takes each island's nearest pin from the island's own grid unless its box is already
   farther than the K-th nearest island found (K = the islands its tethers need), and stops when no island not met
   can be as near. Every island not taken is then strictly farther than the K-th taken, so the nearest pin (ties:
   the lower index), the islands picked (ties: the lower island) and their pins are the reference's. Returns 0 when
   the grids do not fit the scratch (the caller then uses one grid over every pin, or the reference). */
static int FindByIslands(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
						 const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin, pbdPool* scratch)
{
	const int K = islandCount < 1 + PBD_TETHER_EXTRA ? islandCount : 1 + PBD_TETHER_EXTRA;
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
	const PinGrid* g = &boxes;
	for (int i = first; i < end; ++i) {
		if (w->x[4 * i + 3] == 0.0f) continue;
		const float* r = w->rest0 + 4 * i;
		const double p[3] = { r[0], r[1], r[2] };
		int c[3], maxR = 0;
		double box[3];
		for (int a = 0; a < 3; ++a) {
			c[a] = CellCoord(g, a, p[a]);
			box[a] = Gap(p[a], g->lo[a], g->hi[a], g->margin);
			if (c[a] > maxR) maxR = c[a];
			if (g->n[a] - 1 - c[a] > maxR) maxR = g->n[a] - 1 - c[a];
		}
		float top[1 + PBD_TETHER_EXTRA]; /* the K smallest islandBest so far, ascending */
		int found = 0, anchor = -1, takenCount = 0;
		float best = 3.4e38f;
		for (int ring = 0; ring <= maxR; ++ring) {
			if (ring > 0 && found == K) {
				/* the least an island met from this ring on can be: its box is beyond the rings before */
				double L = 1e300;
				for (int a = 0; a < 3; ++a) {
					const double others = box[0] + box[1] + box[2] - box[a];
					if (c[a] + ring <= g->n[a] - 1) {
						const double v = Gap(p[a], g->origin[a] + (double)(c[a] + ring) * g->h, 1e300, g->margin) + others;
						if (v < L) L = v;
					}
					if (c[a] - ring >= 0) {
						const double v = Gap(p[a], -1e300, g->origin[a] + (double)(c[a] - ring + 1) * g->h, g->margin) + others;
						if (v < L) L = v;
					}
				}
				if ((L - 1e-30) * (1.0 - 1e-6) > top[K - 1]) break;
			}
			int q[3];
			for (q[2] = c[2] - ring; q[2] <= c[2] + ring; ++q[2]) {
				if (q[2] < 0 || q[2] >= g->n[2]) continue;
				for (q[1] = c[1] - ring; q[1] <= c[1] + ring; ++q[1]) {
					if (q[1] < 0 || q[1] >= g->n[1]) continue;
					const int face = q[2] == c[2] - ring || q[2] == c[2] + ring || q[1] == c[1] - ring || q[1] == c[1] + ring;
					const int step = face || ring == 0 ? 1 : 2 * ring;
					for (q[0] = c[0] - ring; q[0] <= c[0] + ring; q[0] += step) {
						if (q[0] < 0 || q[0] >= g->n[0]) continue;
						const int cell = (q[2] * g->n[1] + q[1]) * g->n[0] + q[0];
						for (int j = g->cellStart[cell]; j < g->cellStart[cell + 1]; ++j) {
							const int m = g->cellPins[j];
							if (stamp[m] == i) continue;
							stamp[m] = i;
							const PinGrid* gm = &grids[m];
							const double lb = Gap(p[0], gm->lo[0], gm->hi[0], gm->margin) + Gap(p[1], gm->lo[1], gm->hi[1], gm->margin) +
											  Gap(p[2], gm->lo[2], gm->hi[2], gm->margin);
							if (found == K && (lb - 1e-30) * (1.0 - 1e-6) > top[K - 1]) continue; /* farther than K met */
							NearestInGrid(w, gm, sorted + start[m], r, &islandBest[m], &islandPin[m]);
							taken[takenCount++] = m;
							if (islandBest[m] < best || (islandBest[m] == best && islandPin[m] < anchor))
								best = islandBest[m], anchor = islandPin[m];
							const float v = islandBest[m];
							if (found == K && !(v < top[K - 1])) continue;
							int at = found < K ? found++ : K - 1;
							while (at > 0 && top[at - 1] > v) {
								top[at] = top[at - 1];
								--at;
							}
							top[at] = v;
						}
					}
				}
			}
		}
		t->anchor[i] = anchor;
		t->rest[i] = sqrtf(best);
		/* then the nearest pins of the next nearest islands, nearest first (ties: the lower island) */
		const int own = island[PinSlot(pins, pinCount, anchor)];
		for (int e = 0; e < PBD_TETHER_EXTRA; ++e) {
			int pick = -1;
			for (int k = 0; k < takenCount; ++k) {
				const int m = taken[k];
				if (m != own && islandBest[m] < 3.4e38f &&
					(pick < 0 || islandBest[m] < islandBest[pick] || (islandBest[m] == islandBest[pick] && m < pick)))
					pick = m;
			}
			if (pick < 0) break;
			t->extraAnchor[e * t->capacity + i] = islandPin[pick];
			t->extraRest[e * t->capacity + i] = sqrtf(islandBest[pick]);
			islandBest[pick] = 3.4e38f;
			if (e + 1 > t->extraSlots) t->extraSlots = e + 1;
		}
	}
	return 1;
}

/* Rest positions the grid's bounds hold for: finite, within 1e18. */
static int RestPositionsBounded(const pbdWorld* w, int first, int end)
{
	for (int i = first; i < end; ++i) {
		for (int a = 0; a < 3; ++a) {
			float v = w->rest0[4 * i + a];
			if (!(v >= -1e18f && v <= 1e18f)) return 0;
		}
	}
	return 1;
}

void pbd_Tethers_Build(pbdWorld* w, pbdTethers* t, int reference)
{
	t->pinVersion = w->pinVersion;
	t->extraSlots = 0;
	for (int i = 0; i < w->particleCount; ++i) t->anchor[i] = -1;
	for (int e = 0; e < PBD_TETHER_EXTRA; ++e) {
		for (int i = 0; i < w->particleCount; ++i) t->extraAnchor[e * t->capacity + i] = -1;
	}
	pbdPool scratch = { w->scratch, w->scratchBytes, 0 };
	for (int o = 0; o < w->objectCount; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		/* A fluid keeps no rest shape, and its w = 0 slots are parked capacity, not pins: tethering its live
		   particles to them pulled them toward the spot the slots wait at, and took O(live x parked) at the step
		   that built the tethers (a hose of 200,000 slots: 2.2 s in wasm; 195,112 particles and 4,888 slots:
		   25 s), all the parked slots sharing one cell of the pins' grid. */
		if (!pbd_Material_HasRestShape(w, o)) continue;
		int32_t* pins = pbd_PoolAlloc(&scratch, (size_t)info->particleCount, sizeof(int32_t));
		if (pins == NULL) return; /* cannot happen: scratch holds at least maxParticles ints */
		int pinCount = 0;
		const int first = info->firstParticle, end = first + info->particleCount;
		for (int i = first; i < end; ++i) {
			if (w->x[4 * i + 3] == 0.0f) pins[pinCount++] = i;
		}
		if (pinCount == 0) {
			scratch.used = 0;
			continue;
		}
		/* The pins' islands, and per particle the nearest pin of each (Tethers_ScratchBytes
		   leaves room for the worst case, one island per pin). */
		int32_t* island = pbd_PoolAlloc(&scratch, (size_t)pinCount, sizeof(int32_t));
		const int islandCount = PinIslands(w, info, pins, pinCount, island);
		float* islandBest = pbd_PoolAlloc(&scratch, (size_t)islandCount, sizeof(float));
		int32_t* islandPin = pbd_PoolAlloc(&scratch, (size_t)islandCount, sizeof(int32_t));
		/* The grid where it fits in the scratch left (it does unless most of the object is
		   pinned) and the rest pose is bounded; else the reference, the same tethers. */
		PinGrid g;
		const size_t mark = scratch.used;
		const int bounded = !reference && RestPositionsBounded(w, first, end);
		if (bounded &&
			FindByIslands(w, t, first, end, pins, pinCount, island, islandCount, islandBest, islandPin, &scratch)) {
			scratch.used = 0;
			continue;
		}
		scratch.used = mark;
		int32_t* touched = reference ? NULL : pbd_PoolAlloc(&scratch, (size_t)islandCount, sizeof(int32_t));
		if (touched != NULL && bounded && BuildPinGrid(w, &scratch, pins, pinCount, &g)) {
			FindWithGrid(w, t, first, end, pins, pinCount, island, islandCount, islandBest, islandPin, touched, &g);
		} else {
			FindReference(w, t, first, end, pins, pinCount, island, islandCount, islandBest, islandPin);
		}
		scratch.used = 0;
	}
}

int32_t pbd_Tethers_Find(pbdWorld* w, int reference, int32_t* anchor, float* rest, int32_t* extraAnchor, float* extraRest,
						 int32_t stride)
{
	pbdTethers t = { anchor, rest, extraAnchor, extraRest, stride, 0, 0, 0.0f };
	pbd_Tethers_Build(w, &t, reference);
	return t.extraSlots;
}

