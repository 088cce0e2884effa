/* families/tethers.c -- long-range attachments (Kim, Chentanez and Mueller 2012, "Long Range
   Attachments"). Gauss-Seidel carries a pin's correction only a few particles per pass,
   so a large hanging cloth stretches far beyond its rest length. A tether ties each
   particle to its nearest pin and forbids it to be farther from it than in the rest pose:
   an inequality constraint C = |p - p_pin| - d <= 0, projected only when violated
   (seed 000 section 1), moving the particle alone because the pin has w = 0.

   The bound holds for every pin, not only the nearest: no bending of a flat cloth without
   stretch takes a particle farther from any pin than in the rest pose. Tethers to the
   nearest pin alone leave a seam where the nearest pin changes (the middle column of a
   cloth pinned at its two top corners): each side is held from its own pin and nothing holds
   the sides to each other, so the sag gathers in the seam's edges (2.1% in the undisturbed
   built-in cloth, 4-7% after a drag, for good: at rest the seam edges' pull is undone by the
   tethers in every pass). So a particle is also tethered to the nearest pin of each of its
   next PBD_TETHER_EXTRA nearest pin islands (pins joined by a constraint are one island: a
   pinned edge is one, two pinned corners are two), as Unreal's Chaos cloth does (one tether
   per kinematic island, at most four). An object pinned in one place gets no extra tether
   and steps exactly as before. */
#include "families/family.h"
#include "families/tethers.h"
#include "services/materials.h"
#include "base/simd.h"

#include <math.h>

/* Each particle to its nearest pin, rest distance in the rest pose; anchor -1 = none; and to
   the nearest pins of its next nearest islands, nearest first: slot e of particle i is
   extraAnchor/extraRest[e * capacity + i], -1 = none; extraSlots slots are used by some
   particle. Rebuilt at the step after the set of pins changed (the world's pinVersion moved). */
typedef struct pbdTethers {
	int32_t* anchor;
	float* rest;
	int32_t* extraAnchor;
	float* extraRest;
	int32_t capacity;   ///< maxParticles: the stride of the extra slots
	int32_t extraSlots;
	int32_t pinVersion; ///< world->pinVersion the anchors were found for
	float k;            ///< k' of this step
} pbdTethers;

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
	int count = 0;
	for (int k = 0; k < pinCount; ++k) {
		int r = IslandRoot(island, k);
		island[k] = r == k ? count++ : island[r]; /* a root comes before its members: renumbered already */
	}
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

static void Build(pbdWorld* w, pbdTethers* t, int reference)
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
		int32_t* touched = reference ? NULL : pbd_PoolAlloc(&scratch, (size_t)islandCount, sizeof(int32_t));
		if (touched != NULL && RestPositionsBounded(w, first, end) && BuildPinGrid(w, &scratch, pins, pinCount, &g)) {
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
	Build(w, &t, reference);
	return t.extraSlots;
}

/* One tether of particle i to pin a, exactly as the 4-wide loop computes each lane. */
static void SolveTetherTo(pbdWorld* w, int i, int a, float rest, float k, float slack)
{
	if (a < 0) return;
	float* p = w->p + 4 * i;
	if (p[3] <= 0.0f) return;
	const float* q = w->p + 4 * a;
	float dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
	float len = sqrtf(dx * dx + dy * dy + dz * dz);
	float limit = rest * slack;
	if (len <= limit || len < 1e-9f) return;
	float s = k * (len - limit) / len;
	p[0] -= s * dx;
	p[1] -= s * dy;
	p[2] -= s * dz;
}

/* One set of tethers, particle i to anchors[i] at rests[i] (-1: none). Each tether moves only
   its own particle (the anchor is a pin), so tethers of consecutive particles are independent:
   four at a time, like a colour. A lane with no anchor uses itself as anchor, so its length is
   0 and it is masked out. Particles [begin, end): a split at a multiple of 4 gives the same
   bits as the whole range (a masked lane may turn a -0 coordinate into +0, so the lanes must be
   the same fours). (One loop over all the sets, loading and storing each four once, measured
   slower in wasm: 17.7 ms a step on the 316 x 316 bench cloth against 15.8.) */
static void SolveTetherSet(pbdWorld* w, const int32_t* anchors, const float* rests, int begin, int n, float k, float slack)
{
	/* Without SIMD the plain loop, as for the distance constraints: the same bits at a plain
	   loop's speed rather than the lanes' emulated one by one. */
	if (!PBD_SIMD) {
		for (int i = begin; i < n; ++i) SolveTetherTo(w, i, anchors[i], rests[i], k, slack);
		return;
	}
	const pbdF4 kv = pbdF4_Splat(k), slackv = pbdF4_Splat(slack), zero = pbdF4_Splat(0.0f), eps = pbdF4_Splat(1e-9f);
	float* p = w->p;
	int i = begin;
	for (; i + 4 <= n; i += 4) {
		const int32_t* anchor = anchors + i;
		if ((anchor[0] & anchor[1] & anchor[2] & anchor[3]) < 0) continue; /* all four untethered */
		/* A pin is the anchor other tethers read, from other blocks while threads share the colour
		   out (base/tasks.h), so its row is never written, not even with its own value. Pins have
		   no tether: a four with an untethered lane (the few around a pin) goes lane by lane, the
		   same bits as the lanes (SolveTetherTo is the scalar build's path), and the four lanes'
		   path below stays straight-line code (a branch on its stores cost the wasm 3 ms a step
		   on the 100k cloth, 17.6 -> 20.5). */
		if ((anchor[0] | anchor[1] | anchor[2] | anchor[3]) < 0) {
			for (int j = 0; j < 4; ++j) SolveTetherTo(w, i + j, anchor[j], rests[i + j], k, slack);
			continue;
		}
		const int a0 = anchor[0], a1 = anchor[1], a2 = anchor[2], a3 = anchor[3];
		pbdF4 px = pbdF4_Load(p + 4 * i), py = pbdF4_Load(p + 4 * i + 4), pz = pbdF4_Load(p + 4 * i + 8), pw = pbdF4_Load(p + 4 * i + 12);
		pbdF4 qx = pbdF4_Load(p + 4 * a0), qy = pbdF4_Load(p + 4 * a1), qz = pbdF4_Load(p + 4 * a2), qw = pbdF4_Load(p + 4 * a3);
		pbdF4_Transpose(&px, &py, &pz, &pw);
		pbdF4_Transpose(&qx, &qy, &qz, &qw);
		pbdF4 dx = pbdF4_Sub(px, qx), dy = pbdF4_Sub(py, qy), dz = pbdF4_Sub(pz, qz);
		pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz)));
		pbdF4 limit = pbdF4_Mul(pbdF4_Load(rests + i), slackv);
		pbdMask4 ok = pbdMask4_And(pbdMask4_And(pbdF4_Greater(pw, zero), pbdF4_Greater(len, limit)), pbdF4_GreaterEq(len, eps));
		/* s = 0 in masked lanes: p - 0 d leaves them as they are (a -0 may read back as +0) */
		pbdF4 s = pbdF4_Select(ok, pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, limit)), len), zero);
		px = pbdF4_Sub(px, pbdF4_Mul(s, dx));
		py = pbdF4_Sub(py, pbdF4_Mul(s, dy));
		pz = pbdF4_Sub(pz, pbdF4_Mul(s, dz));
		pbdF4_Transpose(&px, &py, &pz, &pw);
		pbdF4_Store(p + 4 * i, px);
		pbdF4_Store(p + 4 * i + 4, py);
		pbdF4_Store(p + 4 * i + 8, pz);
		pbdF4_Store(p + 4 * i + 12, pw);
	}
	for (; i < n; ++i) SolveTetherTo(w, i, anchors[i], rests[i], k, slack);
}

/* The tethers to other islands first, the nearest pin's last, so that the nearest pin's bound
   holds exactly after every pass (the others are met as the passes converge on the
   intersection of the balls). Each tether moves only its own particle toward a pin (w = 0), so
   one set for every particle, then the next, is the same as all of a particle's in turn. */
static void SolveTethers(pbdWorld* w, const pbdTethers* t, int begin, int n)
{
	const float k = t->k, slack = 1.0f + w->params[pbdParam_tetherSlack];
	for (int e = 0; e < t->extraSlots; ++e) {
		SolveTetherSet(w, t->extraAnchor + e * t->capacity, t->extraRest + e * t->capacity, begin, n, k, slack);
	}
	SolveTetherSet(w, t->anchor, t->rest, begin, n, k, slack);
}

/* The reach of particle i: the intersection of its tethers' balls, |q - p_pin| <= rest (1 + slack).
   Why the pointer needs it: the attachment is solved after the tethers, so a target past the reach wins every
   pass, and the whole excess lands in the grabbed particle's few edges, since its neighbours are held by their own
   tethers (the built-in cloth's corner pulled 0.5 m into the floor: its edge 0.05 -> 0.55 m, 1,000%), which opens
   the grid for the cloth to pass through itself. A pointer whose target is first moved to the nearest point of the
   reach pulls the particle only as far as the cloth can follow without stretching (Kim, Chentanez and Mueller
   2012: the tethers' bound is the rest pose's reach along a flat cloth). The nearest point of an intersection of
   balls is found by Dykstra's alternating projections (Boyle and Dykstra 1986), which converge to the projection
   onto the intersection; plain alternating projections only reach some point of it, and at the corner of the
   lens two balls make (a corner hanging under its pin, where its two pins' spheres cross) that point was 0.35 m
   to the side of the nearest one and held the corner's edge at 190%. PBD_REACH_ROUNDS rounds, the nearest pin's
   ball last, then the nearest pin's ball once more so its bound holds exactly. Nothing moves (not a bit) when the
   target is within every ball, when the particle has no tether (an object with no pin) or with tethers off
   (solver.tethers 0: no reach). */
#define PBD_REACH_ROUNDS 16

static int ProjectIntoBall(float* q, const float* c, float radius)
{
	const float dx = q[0] - c[0], dy = q[1] - c[1], dz = q[2] - c[2];
	const float d2 = dx * dx + dy * dy + dz * dz;
	if (!(d2 > radius * radius)) return 0;
	const float f = radius / sqrtf(d2);
	q[0] = c[0] + dx * f, q[1] = c[1] + dy * f, q[2] = c[2] + dz * f;
	return 1;
}

int pbd_Tethers_Reach(const pbdWorld* w, int32_t i, float target[3])
{
	const pbdTethers* t = pbd_FamilyState(w, pbdFamily_tethers);
	if (t->pinVersion != w->pinVersion || !(t->k > 0.0f) || i < 0 || i >= w->particleCount || t->anchor[i] < 0) return 0;
	const float slack = 1.0f + w->params[pbdParam_tetherSlack];
	/* the balls, the other islands' first and the nearest pin's last, as SolveTethers orders them */
	const float* centre[1 + PBD_TETHER_EXTRA];
	float radius[1 + PBD_TETHER_EXTRA];
	int n = 0, outside = 0;
	for (int e = 0; e < t->extraSlots; ++e) {
		const int a = t->extraAnchor[e * t->capacity + i];
		if (a < 0) continue;
		centre[n] = w->p + 4 * a;
		radius[n++] = t->extraRest[e * t->capacity + i] * slack;
	}
	centre[n] = w->p + 4 * t->anchor[i];
	radius[n++] = t->rest[i] * slack;
	for (int k = 0; k < n; ++k) {
		const float dx = target[0] - centre[k][0], dy = target[1] - centre[k][1], dz = target[2] - centre[k][2];
		outside |= !(dx * dx + dy * dy + dz * dz <= radius[k] * radius[k]);
	}
	if (!outside) return 0;
	float q[3] = { target[0], target[1], target[2] }, inc[1 + PBD_TETHER_EXTRA][3] = { { 0.0f } };
	for (int round = 0; round < PBD_REACH_ROUNDS; ++round) {
		for (int k = 0; k < n; ++k) {
			float y[3] = { q[0] + inc[k][0], q[1] + inc[k][1], q[2] + inc[k][2] };
			q[0] = y[0], q[1] = y[1], q[2] = y[2];
			ProjectIntoBall(q, centre[k], radius[k]);
			inc[k][0] = y[0] - q[0], inc[k][1] = y[1] - q[1], inc[k][2] = y[2] - q[2];
		}
	}
	ProjectIntoBall(q, centre[n - 1], radius[n - 1]);
	target[0] = q[0], target[1] = q[1], target[2] = q[2];
	return 1;
}

/* ---------------------------------------------------------------- family */

static size_t Tethers_Bytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return pbd_PoolBytes(1, sizeof(pbdTethers)) + pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(float)) +
		   pbd_PoolBytes(P * PBD_TETHER_EXTRA, sizeof(int32_t)) + pbd_PoolBytes(P * PBD_TETHER_EXTRA, sizeof(float));
}

/* Building lists an object's pins, their islands, and per island the nearest pin so far. */
static size_t Tethers_ScratchBytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return 3 * pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(float));
}

static void* Tethers_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	pbdTethers* t = pbd_PoolAlloc(pool, 1, sizeof(pbdTethers));
	if (t == NULL) return NULL;
	t->anchor = pbd_PoolAlloc(pool, P, sizeof(int32_t));
	t->rest = pbd_PoolAlloc(pool, P, sizeof(float));
	t->extraAnchor = pbd_PoolAlloc(pool, P * PBD_TETHER_EXTRA, sizeof(int32_t));
	t->extraRest = pbd_PoolAlloc(pool, P * PBD_TETHER_EXTRA, sizeof(float));
	t->capacity = (int32_t)P;
	t->extraSlots = 0;
	t->pinVersion = w->pinVersion - 1; /* never built */
	return t->extraRest != NULL ? t : NULL;
}

static void Tethers_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdTethers* t = state;
	if (t->pinVersion != w->pinVersion) Build(w, t, 0);
	t->k = pbd_PassStiffness(w->params[pbdParam_tethers], ctx->passes);
}

static int32_t Tethers_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdTethers*)state)->k > 0.0f; }

static int32_t Tethers_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 0; /* each tether moves its own particle only */
	return w->particleCount;
}

static void Tethers_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	SolveTethers(w, state, begin, end);
}

/* The tethers the last build made (none before the first step, or with solver.tethers at 0). */
static int32_t Tethers_Count(const pbdWorld* w, const void* state)
{
	const pbdTethers* t = state;
	if (t->pinVersion != w->pinVersion || w->params[pbdParam_tethers] <= 0.0f) return 0;
	int32_t n = 0;
	for (int i = 0; i < w->particleCount; ++i) {
		n += t->anchor[i] >= 0;
		for (int e = 0; e < t->extraSlots; ++e) n += t->extraAnchor[e * t->capacity + i] >= 0;
	}
	return n;
}

const pbdFamily pbd_family_tethers = {
	.name = "tethers",
	.bytes = Tethers_Bytes,
	.scratchBytes = Tethers_ScratchBytes,
	.create = Tethers_Create,
	.start = Tethers_PrepareStep,
	.colourCount = Tethers_ColourCount,
	.colourSize = Tethers_ColourSize,
	.solve = Tethers_Solve,
	.count = Tethers_Count,
};
