/* builders/lattice.h -- the tetrahedral lattice bodies are made of: a grid of cells in the body's
   local frame, a mask saying which cells are kept, and each kept cell cut into 6 tets by the
   Kuhn (Freudenthal) split along its main diagonal (corner 0 to corner 7). Every cube is split
   alike, so the face diagonals of neighbouring cells match and the tets form one conforming
   mesh. Particles sit at the corners of kept cells, edges are the tets' edges, each once.

   Memory: bit masks of fixed size (PBD_LATTICE_MAX cells per axis, one uint64 per row of
   cells), ~48 KB in all, so a lattice lives on the stack of the call that builds it and
   pbd_BodyCounts needs no world. Nothing here allocates.

   How to use it
   -------------
       pbdLattice lat;                                  // ~48 KB: on the stack
       pbd_Lattice_Init(&lat, n, origin, spacing);      // no cell kept
       pbd_Lattice_Box(&lat);                           // or _Ball, or surface.h's inside test
       pbd_Lattice_Finish(&lat);                        // corners, their order, the counts
       ... lat.cornerCount particles, lat.edgeCount edges, 6 lat.cellCount tets ...

   Orders (deterministic, a function of the mask only): corners and cells by (k, j, i), i
   fastest; edges by direction, then the parity of their first moving coordinate, then (k, j, i),
   so that greedy colouring gives each (direction, parity) one colour of evenly spaced edges
   (families/distance_colouring.c's regular batches); tets cell by cell, 6 per cell. */
#ifndef PBD_LATTICE_H
#define PBD_LATTICE_H

#include "minipbd.h"

#include <stdint.h>

/// Cells along an axis at most: a body's largest resolution (minipbd.h PBD_BODY_MAX_RESOLUTION, exported in
/// PBD_LIMITS as bodyMaxResolution, which the scene validator's lattice plan reads).
#define PBD_LATTICE_MAX PBD_BODY_MAX_RESOLUTION
/// Rows of cells (j + PBD_LATTICE_MAX k) and of corners (j + (PBD_LATTICE_MAX + 1) k).
#define PBD_LATTICE_CELL_ROWS (PBD_LATTICE_MAX * PBD_LATTICE_MAX)
#define PBD_LATTICE_CORNER_ROWS ((PBD_LATTICE_MAX + 1) * (PBD_LATTICE_MAX + 1))
/// Tets of the largest lattice: 6 per cell.
#define PBD_LATTICE_MAX_TETS (6 * PBD_LATTICE_MAX * PBD_LATTICE_MAX * PBD_LATTICE_MAX)

typedef struct pbdLattice {
	int32_t n[3];        ///< cells per axis, each in [1, PBD_LATTICE_MAX]
	float origin[3];     ///< local position of corner (0, 0, 0)
	float spacing[3];    ///< cell size per axis (> 0)
	uint64_t cell[PBD_LATTICE_CELL_ROWS];     ///< row j + 48 k: bit i set = cell (i, j, k) kept
	uint64_t corner[PBD_LATTICE_CORNER_ROWS]; ///< row j + 49 k: bit i set = corner (i, j, k) is a particle
	int32_t cornerRowStart[PBD_LATTICE_CORNER_ROWS]; ///< rank of the row's first particle
	int32_t cellCount, cornerCount, edgeCount;       ///< after pbd_Lattice_Finish
} pbdLattice;

/// An empty lattice of n[0] x n[1] x n[2] cells (each clamped to [1, PBD_LATTICE_MAX]).
void pbd_Lattice_Init(pbdLattice* lat, const int32_t n[3], const float origin[3], const float spacing[3]);
/// Keeps every cell (a box).
void pbd_Lattice_Box(pbdLattice* lat);
/// Keeps the cells whose centre lies strictly inside the sphere of `radius` about the local origin.
void pbd_Lattice_Ball(pbdLattice* lat, float radius);
/// Derives the corners, their ranks and the counts from the cell mask.
void pbd_Lattice_Finish(pbdLattice* lat);

static inline int pbd_Lattice_HasCell(const pbdLattice* lat, int32_t i, int32_t j, int32_t k)
{
	if (i < 0 || j < 0 || k < 0 || i >= lat->n[0] || j >= lat->n[1] || k >= lat->n[2]) return 0;
	return (int)((lat->cell[j + PBD_LATTICE_MAX * k] >> i) & 1u);
}

/// Rank (particle index from 0) of corner (i, j, k), or -1 when it is no particle.
int32_t pbd_Lattice_Corner(const pbdLattice* lat, int32_t i, int32_t j, int32_t k);
/// Local position of corner (i, j, k).
void pbd_Lattice_CornerPosition(const pbdLattice* lat, int32_t i, int32_t j, int32_t k, float out[3]);

/// The tets, 4 indices each (first + corner rank), every one with positive volume
/// V = (x1 - x0) . ((x2 - x0) x (x3 - x0)) / 6 in the lattice's (right-handed) frame: each cell's
/// 6 in turn, split by pbd_VolumeKuhn (families/volume.h). `out` holds 24 cellCount ints.
void pbd_Lattice_Tets(const pbdLattice* lat, int32_t first, int32_t* out);


/// Calls edge(user, a, b) for every edge once, a and b = first + corner rank, in the order above.
typedef void (*pbdLatticeEdgeFn)(void* user, int32_t a, int32_t b);
void pbd_Lattice_Edges(const pbdLattice* lat, int32_t first, pbdLatticeEdgeFn edge, void* user);

/// A boundary face: a face of a kept cell whose neighbour across it is not kept. dir: 0..5 =
/// -x, +x, -y, +y, -z, +z (its outward normal); (i, j, k) its lowest corner; tri: 2 triangles
/// (corner ranks, counter-clockwise seen from outside), split along the tets' face diagonal.
typedef void (*pbdLatticeFaceFn)(void* user, int32_t dir, int32_t i, int32_t j, int32_t k, const int32_t tri[6]);
/// Calls face() for each boundary face (cells by (k, j, i), directions in order); returns their number.
int32_t pbd_Lattice_BoundaryFaces(const pbdLattice* lat, pbdLatticeFaceFn face, void* user);

/// Embeds local point p: the 4 corner ranks and barycentric weights (summing to 1) of the tet
/// that holds it, or, outside the kept cells, of the nearby kept cell's tet with the largest
/// smallest weight (the weights then extrapolate). Needs at least one kept cell.
void pbd_Lattice_Embed(const pbdLattice* lat, const float p[3], int32_t corners[4], float weights[4]);

#endif
