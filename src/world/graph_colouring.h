/* world/graph_colouring.h -- greedy graph colouring of constraints of any arity.

   A constraint joins `arity` particles (2 for a distance, 3 for a triangle, 4 for a
   tetrahedron's volume, more for a shape-matching cluster). Two constraints of one colour
   share no particle, so a colour's constraints can be projected in any order, 4 at a time
   or by several workers, and give the same result (seed 001 section 3.4; Box2D v3
   constraint_graph.c). What needs more than `maxColours` colours goes to the overflow set,
   solved one by one after the colours.

   How to use it
   -------------
       pbdColouringInput in = pbd_GraphColourInputFlat(tets, 4, 4, tetCount); // 4 indices per tet
       in.firstParticle = group.first; in.particleCount = group.count;     // or 0, world count
       size_t bytes = pbd_GraphColourScratchBytes(in.particleCount);       // up front, no allocation
       pbdColouring out;
       int r = pbd_GraphColour(&in, scratch, bytes, colour, order, &out);   // colour[c], order[dst] = c
       // reorder the caller's arrays: new[dst] = old[order[dst]]; colour k is
       // [out.colourStart[k], out.colourStart[k + 1]), the overflow set
       // [out.colourStart[out.colourCount], in.count).

   The greedy rule is the distance colouring's (families/distance_colouring.c pbd_ColourGroup): in the
   input order, each constraint takes the smallest colour that none of its particles has
   yet; the permutation is the stable counting sort by colour, overflow last. For arity 2
   both give the same colours and the same order (tests/c/test_graph_colouring.c), so
   distance_colouring.c can call this without changing a hash. */
#ifndef PBD_GRAPH_COLOURING_H
#define PBD_GRAPH_COLOURING_H

#include <stddef.h>
#include <stdint.h>

/// Particles per constraint, at most.
#define PBD_COLOUR_MAX_ARITY 8
/// Colours at most (a 32-bit mask of the colours each particle already has).
#define PBD_COLOUR_LIMIT 32
/// Colours when the input does not say (maxColours = 0): the distance family's PBD_MAX_COLOURS.
#define PBD_COLOUR_DEFAULT 16
/// colour[c] of a constraint in the overflow set.
#define PBD_COLOUR_OVERFLOW 0xff

typedef struct pbdColouringInput {
	int32_t count; ///< constraints
	int32_t arity; ///< particles per constraint, 1..PBD_COLOUR_MAX_ARITY
	/// Particle k of constraint c is lanes[k][c * stride]: a flat array of `stride` indices per
	/// constraint (lanes[k] = flat + k, stride >= arity; pbd_GraphColourInputFlat) or one array per
	/// end (lanes[0] = ca, lanes[1] = cb, stride 1: the distance constraints' layout).
	const int32_t* lanes[PBD_COLOUR_MAX_ARITY];
	int32_t stride;
	/// Every index lies in [firstParticle, firstParticle + particleCount): a group's particles
	/// (an object's range), or the whole world (0, particleCount). The scratch holds one word
	/// per particle of the range, so colouring a group costs its own size, not the world's.
	int32_t firstParticle, particleCount;
	int32_t maxColours; ///< 1..PBD_COLOUR_LIMIT; 0 = PBD_COLOUR_DEFAULT
} pbdColouringInput;

typedef struct pbdColouring {
	int32_t colourCount; ///< colours used, <= maxColours
	/// Colour k is [colourStart[k], colourStart[k + 1]) of the permutation; colourStart[colourCount]
	/// is where the overflow set begins, and it runs to the end (count).
	int32_t colourStart[PBD_COLOUR_LIMIT + 1];
	int32_t overflowCount;
	int32_t badConstraint; ///< when refused: the first constraint with a particle outside the range, else -1
} pbdColouring;

/// An input over a flat index array: constraint c's particles are flat[c * stride + k], k < arity.
pbdColouringInput pbd_GraphColourInputFlat(const int32_t* flat, int32_t arity, int32_t stride, int32_t count);

/// Scratch bytes pbd_GraphColour needs for a range of `particleCount` particles.
size_t pbd_GraphColourScratchBytes(int32_t particleCount);

/// Colours the constraints. colour (count bytes) receives each constraint's colour or
/// PBD_COLOUR_OVERFLOW; order (count ints, may be NULL) the stable counting-sort permutation,
/// order[dst] = source constraint. Returns the colour count, or a negative pbdError when the
/// input is malformed (arity, stride, range, maxColours, scratch too small) or an index lies
/// outside the range (out->badConstraint names it); then colour and order are not written.
int pbd_GraphColour(const pbdColouringInput* in, void* scratch, size_t scratchBytes, uint8_t* colour, int32_t* order,
					pbdColouring* out);

#endif
