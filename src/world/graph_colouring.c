/* world/graph_colouring.c -- greedy colouring of constraints of any arity (graph_colouring.h).

   Greedy in the caller's order, as Box2D v3's constraint_graph.c and our distance colouring
   (families/distance_colouring.c): each particle keeps a 32-bit mask of the colours its constraints already
   have; a constraint takes the lowest colour free in the OR of its particles' masks, or goes
   to the overflow set when the first maxColours are all taken. A grid's distance groups come
   out with 4 colours; a tetrahedral lattice (Freudenthal's 6 tets per cube) needs at least
   24, one per tet around an interior vertex, so at 16 colours part of it overflows
   (test_graph_colouring.c prints how much).

   The result is a pure function of the input order (no hashing, no floating point), so every
   build colours alike and the solver's Gauss-Seidel order, hence its bits, follows. */
#include "world/graph_colouring.h"
#include "minipbd.h"

#include <string.h>

pbdColouringInput pbd_GraphColourInputFlat(const int32_t* flat, int32_t arity, int32_t stride, int32_t count)
{
	pbdColouringInput in;
	memset(&in, 0, sizeof in);
	in.count = count;
	in.arity = arity;
	in.stride = stride;
	for (int32_t k = 0; k < arity && k < PBD_COLOUR_MAX_ARITY; ++k) in.lanes[k] = flat + k;
	return in;
}

size_t pbd_GraphColourScratchBytes(int32_t particleCount)
{
	return (size_t)(particleCount > 0 ? particleCount : 0) * sizeof(uint32_t);
}

int pbd_GraphColour(const pbdColouringInput* in, void* scratch, size_t scratchBytes, uint8_t* colour, int32_t* order,
					pbdColouring* out)
{
	if (out == NULL) return PBD_ERR_INVALID_ARGUMENT;
	memset(out, 0, sizeof *out);
	out->badConstraint = -1;
	if (in == NULL || in->count < 0 || in->arity < 1 || in->arity > PBD_COLOUR_MAX_ARITY || in->particleCount < 0 ||
		in->firstParticle < 0 || in->maxColours < 0 || in->maxColours > PBD_COLOUR_LIMIT) {
		return PBD_ERR_INVALID_ARGUMENT;
	}
	if (in->count == 0) return 0;
	if (colour == NULL || in->stride < 1 || scratch == NULL || scratchBytes < pbd_GraphColourScratchBytes(in->particleCount)) {
		return PBD_ERR_INVALID_ARGUMENT;
	}
	for (int32_t k = 0; k < in->arity; ++k) {
		if (in->lanes[k] == NULL) return PBD_ERR_INVALID_ARGUMENT;
	}
	const int32_t n = in->count, arity = in->arity, stride = in->stride;
	const int32_t first = in->firstParticle, range = in->particleCount;
	const int32_t maxColours = in->maxColours > 0 ? in->maxColours : PBD_COLOUR_DEFAULT;
	/* Every index in the range before anything is written: a refused call leaves the outputs as they were. */
	for (int32_t c = 0; c < n; ++c) {
		for (int32_t k = 0; k < arity; ++k) {
			const int64_t local = (int64_t)in->lanes[k][(size_t)c * (size_t)stride] - first;
			if (local < 0 || local >= range) {
				out->badConstraint = c;
				return PBD_ERR_INVALID_PARTICLE;
			}
		}
	}
	uint32_t* used = (uint32_t*)scratch;
	memset(used, 0, pbd_GraphColourScratchBytes(range));
	const uint32_t allowed = maxColours == 32 ? 0xffffffffu : (1u << maxColours) - 1u;
	int32_t perColour[PBD_COLOUR_LIMIT] = { 0 };
	int32_t colours = 0, overflow = 0;
	for (int32_t c = 0; c < n; ++c) {
		const size_t at = (size_t)c * (size_t)stride;
		uint32_t busy = 0;
		for (int32_t k = 0; k < arity; ++k) busy |= used[in->lanes[k][at] - first];
		const uint32_t open = ~busy & allowed;
		if (open == 0u) {
			colour[c] = PBD_COLOUR_OVERFLOW;
			overflow += 1;
			continue;
		}
		const int32_t lowest = __builtin_ctz(open);
		const uint32_t bit = 1u << lowest;
		for (int32_t k = 0; k < arity; ++k) used[in->lanes[k][at] - first] |= bit;
		colour[c] = (uint8_t)lowest;
		perColour[lowest] += 1;
		if (lowest + 1 > colours) colours = lowest + 1;
	}
	/* Stable counting sort by colour, overflow last. */
	int32_t at = 0;
	for (int32_t k = 0; k < colours; ++k) {
		out->colourStart[k] = at;
		at += perColour[k];
	}
	out->colourStart[colours] = at;
	out->colourCount = colours;
	out->overflowCount = overflow;
	if (order != NULL) {
		int32_t next[PBD_COLOUR_LIMIT + 1];
		memcpy(next, out->colourStart, sizeof(int32_t) * (size_t)(colours + 1));
		for (int32_t c = 0; c < n; ++c) {
			const int32_t k = colour[c] == PBD_COLOUR_OVERFLOW ? colours : colour[c];
			order[next[k]++] = c;
		}
	}
	return colours;
}
