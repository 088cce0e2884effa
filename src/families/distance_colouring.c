/* families/distance_colouring.c -- graph colouring of a distance constraint group so that a
   colour's constraints share no particle and can be projected 4 at a time (seed 001 section
   3.4: "graph colouring for parallel solving"; Box2D v3 constraint_graph.c).

   Greedy in the group's own order: each constraint takes the smallest colour that
   neither of its particles has yet. A grid's stretch, shear and bending groups come out
   with 4 colours each. A constraint that would need more than PBD_MAX_COLOURS goes to
   the overflow set at the group's end, which the solver projects one by one. Solving
   colour by colour is still Gauss-Seidel, only in another order, and the order is a
   pure function of the topology, so every build gets the same bits.

   Each colour's constraints are then split into regular batches (evenly spaced, see
   pbdGroup.colourRegularEnd) and the rest; builders/cloth.c builds a grid's constraints in an
   order that makes nearly all of them regular. */
#include "families/distance_internal.h"

#include <string.h>

#define OVERFLOW_COLOUR 0xff

size_t pbd_ColouringScratchBytes(int32_t maxParticles, int32_t maxConstraints)
{
	/* per particle: a 32-bit mask of used colours; per constraint: its colour and a copy of (a, b, rest) */
	return pbd_PoolBytes((size_t)maxParticles, sizeof(uint32_t)) + pbd_PoolBytes((size_t)maxConstraints, 1) +
		   2 * pbd_PoolBytes((size_t)maxConstraints, sizeof(int32_t)) + pbd_PoolBytes((size_t)maxConstraints, sizeof(float));
}

void pbd_ColourGroup(pbdWorld* w, pbdDistance* d, pbdGroup* g, int32_t firstParticle, int32_t particleCount)
{
	pbdPool scratch = { w->scratch, w->scratchBytes, 0 };
	uint32_t* used = pbd_PoolAlloc(&scratch, (size_t)particleCount, sizeof(uint32_t));
	uint8_t* colour = pbd_PoolAlloc(&scratch, (size_t)g->count, 1);
	int32_t* ca = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(int32_t));
	int32_t* cb = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(int32_t));
	float* rest = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(float));
	PBD_ASSERT(rest != NULL);
	if (rest == NULL) {
		g->colourCount = 0; /* cannot happen with the reserved scratch; solve in order */
		return;
	}
	memset(used, 0, (size_t)particleCount * sizeof(uint32_t));

	int colours = 0;
	int32_t perColour[PBD_MAX_COLOURS] = { 0 };
	for (int i = 0; i < g->count; ++i) {
		int c = g->first + i;
		int a = d->ca[c] - firstParticle, b = d->cb[c] - firstParticle;
		PBD_ASSERT(a >= 0 && a < particleCount && b >= 0 && b < particleCount);
		uint32_t busy = used[a] | used[b];
		int k = 0;
		while (k < PBD_MAX_COLOURS && (busy & (1u << k))) ++k;
		if (k == PBD_MAX_COLOURS) {
			colour[i] = OVERFLOW_COLOUR;
			continue;
		}
		used[a] |= 1u << k;
		used[b] |= 1u << k;
		colour[i] = (uint8_t)k;
		perColour[k] += 1;
		if (k + 1 > colours) colours = k + 1;
	}

	/* Stable counting sort by colour, overflow last. */
	int32_t start[PBD_MAX_COLOURS + 1];
	int32_t at = 0;
	for (int k = 0; k < colours; ++k) {
		start[k] = at;
		at += perColour[k];
		g->colourEnd[k] = g->first + at;
	}
	start[PBD_MAX_COLOURS] = at; /* overflow */
	for (int i = 0; i < g->count; ++i) {
		int k = colour[i] == OVERFLOW_COLOUR ? PBD_MAX_COLOURS : colour[i];
		int32_t dst = start[k]++;
		ca[dst] = d->ca[g->first + i];
		cb[dst] = d->cb[g->first + i];
		rest[dst] = d->rest[g->first + i];
	}
	/* Within each colour, regular batches first: four constraints in a row of the sorted list
	   that are (a0 + j s, a0 + j s + o), j = 0..3. Their order inside the colour does not change
	   any result (a colour's constraints share no particle), so this only saves the solver from
	   loading and extracting eight indices per batch. The rest follow in their sorted order. */
	uint8_t* irregular = colour; /* the colours are sorted out; reuse the bytes as marks */
	int32_t from = 0;
	for (int k = 0; k < colours; ++k) {
		const int32_t end = g->colourEnd[k] - g->first;
		int32_t dst = from;
		g->colourFirstBatch[k] = d->batchCount;
		for (int32_t i = from; i < end;) {
			irregular[i] = 1;
			if (i + 4 <= end && d->batchCount < d->maxBatches) {
				int32_t s = ca[i + 1] - ca[i], o = cb[i] - ca[i];
				int regular = s != 0 && o != 0;
				for (int j = 1; j < 4 && regular; ++j) regular = ca[i + j] == ca[i] + j * s && cb[i + j] - ca[i + j] == o;
				if (regular) {
					int32_t b = d->batchCount++;
					d->batchA[b] = 4 * ca[i], d->batchStride[b] = 4 * s, d->batchOffset[b] = 4 * o;
					for (int j = 0; j < 4; ++j, ++dst) {
						irregular[i + j] = 0;
						d->ca[g->first + dst] = ca[i + j], d->cb[g->first + dst] = cb[i + j], d->rest[g->first + dst] = rest[i + j];
					}
					i += 4;
					continue;
				}
			}
			i += 1;
		}
		g->colourRegularEnd[k] = g->first + dst;
		for (int32_t i = from; i < end; ++i) {
			if (!irregular[i]) continue;
			d->ca[g->first + dst] = ca[i], d->cb[g->first + dst] = cb[i], d->rest[g->first + dst] = rest[i];
			dst += 1;
		}
		PBD_ASSERT(dst == end);
		from = end;
	}
	/* the overflow set, in order */
	memcpy(d->ca + g->first + from, ca + from, (size_t)(g->count - from) * sizeof(int32_t));
	memcpy(d->cb + g->first + from, cb + from, (size_t)(g->count - from) * sizeof(int32_t));
	memcpy(d->rest + g->first + from, rest + from, (size_t)(g->count - from) * sizeof(float));
	g->colourCount = colours;
}
