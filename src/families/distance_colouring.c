/* families/distance_colouring.c -- graph colouring of a distance constraint group so that a
   colour's constraints share no particle and can be projected 4 at a time (seed 001 section
   3.4: "graph colouring for parallel solving"; Box2D v3 constraint_graph.c).

   Greedy in the group's own order (world/graph_colouring.c, the colouring of any arity):
   each constraint takes the smallest colour that neither of its particles has yet. A grid's stretch, shear and bending groups come out
   with 4 colours each. A constraint that would need more than PBD_MAX_COLOURS goes to
   the overflow set at the group's end, which the solver projects one by one. Solving
   colour by colour is still Gauss-Seidel, only in another order, and the order is a
   pure function of the topology, so every build gets the same bits.

   Each colour's constraints are then split into regular batches (evenly spaced, see
   pbdGroup.colourRegularEnd) and the rest; builders/cloth.c builds a grid's constraints in an
   order that makes nearly all of them regular. */
#include "families/distance_state.h"
#include "world/graph_colouring.h"

#include <string.h>

size_t pbd_ColouringScratchBytes(int32_t maxParticles, int32_t maxConstraints)
{
	/* the greedy colouring's own scratch (a colour mask per particle); per constraint: its colour,
	   its place in the sorted order and a copy of (a, b, rest) */
	return pbd_GraphColourScratchBytes(maxParticles) + pbd_PoolBytes((size_t)maxConstraints, 1) +
		   3 * pbd_PoolBytes((size_t)maxConstraints, sizeof(int32_t)) + pbd_PoolBytes((size_t)maxConstraints, sizeof(float));
}

void pbd_ColourGroup(pbdWorld* w, pbdDistance* d, pbdGroup* g, int32_t firstParticle, int32_t particleCount)
{
	pbdPool scratch = { w->scratch, w->scratchBytes, 0 };
	const size_t maskBytes = pbd_GraphColourScratchBytes(particleCount);
	void* masks = pbd_PoolAlloc(&scratch, maskBytes, 1);
	uint8_t* colour = pbd_PoolAlloc(&scratch, (size_t)g->count, 1);
	int32_t* order = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(int32_t));
	int32_t* ca = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(int32_t));
	int32_t* cb = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(int32_t));
	float* rest = pbd_PoolAlloc(&scratch, (size_t)g->count, sizeof(float));
	PBD_ASSERT(rest != NULL);
	/* Greedy in the group's order, then the stable counting sort by colour, overflow last: the
	   one graph colouring of any arity (world/graph_colouring.c), here of 2-particle constraints. */
	pbdColouringInput in = { 0 };
	in.count = g->count;
	in.arity = 2;
	in.lanes[0] = d->ca + g->first;
	in.lanes[1] = d->cb + g->first;
	in.stride = 1;
	in.firstParticle = firstParticle;
	in.particleCount = particleCount;
	in.maxColours = PBD_MAX_COLOURS;
	pbdColouring out;
	if (rest == NULL || pbd_GraphColour(&in, masks, maskBytes, colour, order, &out) < 0) {
		g->colourCount = 0; /* cannot happen with the reserved scratch and a builder's indices; solve in order */
		return;
	}
	const int colours = out.colourCount;
	for (int k = 0; k < colours; ++k) g->colourEnd[k] = g->first + out.colourStart[k + 1];
	for (int32_t dst = 0; dst < g->count; ++dst) {
		const int32_t src = g->first + order[dst];
		ca[dst] = d->ca[src];
		cb[dst] = d->cb[src];
		rest[dst] = d->rest[src];
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
