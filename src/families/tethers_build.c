/* families/tethers_build.c -- the tethers' anchors (families/tethers.c says what a tether is): each particle's
   nearest pin, and the nearest pins of its next nearest pin islands, found with grids over the pins
   (tethers_grids.c) or, as the reference, against every pin. Runs at the step after the set of pins changed, not
   every step. */
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
   lower island), every squared distance computed as pbd_Tethers_Distance2 does. The reference rule:
   every particle against every pin, ascending, strict <. For a flat cloth or a straight chain
   the straight line is also the geodesic, so the tether never asks for less than the rest
   shape. The grids' searches (tethers_grids.c) must find the same, bit for bit. */

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
			float d2 = pbd_Tethers_Distance2(r, w->rest0 + 4 * pins[k]);
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

void pbd_Tethers_Build(pbdWorld* w, pbdTethers* t, int method)
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
		/* The grids where they fit in the scratch left and the rest pose is bounded; else the reference, the same
		   tethers. */
		const size_t mark = scratch.used;
		const int bounded = method != pbdTetherSearch_reference && RestPositionsBounded(w, first, end);
		if (bounded && method == pbdTetherSearch_step &&
			pbd_Tethers_FindByIslands(w, t, first, end, pins, pinCount, island, islandCount, islandBest, islandPin, &scratch)) {
			scratch.used = 0;
			continue;
		}
		scratch.used = mark;
		if (!bounded || !pbd_Tethers_FindWithOneGrid(w, t, first, end, pins, pinCount, island, islandCount, islandBest,
													 islandPin, &scratch)) {
			FindReference(w, t, first, end, pins, pinCount, island, islandCount, islandBest, islandPin);
		}
		scratch.used = 0;
	}
}

int32_t pbd_Tethers_Find(pbdWorld* w, int method, int32_t* anchor, float* rest, int32_t* extraAnchor, float* extraRest,
						 int32_t stride)
{
	pbdTethers t = { anchor, rest, extraAnchor, extraRest, stride, 0, 0, 0.0f };
	pbd_Tethers_Build(w, &t, method);
	return t.extraSlots;
}

