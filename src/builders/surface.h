/* builders/surface.h -- a closed triangle surface given by the caller (an OBJ model, arch10
   "Meshes"): its checks, its enclosed volume, and which lattice cells lie inside it.

   The checks refuse with a message naming what is wrong: counts (4..PBD_BODY_MAX_VERTICES
   vertices, 4..PBD_BODY_MAX_TRIANGLES triangles), coordinates (finite, within +-1e5), indices in
   range, degenerate triangles (a repeated vertex, no area), an open surface (an edge with no
   triangle across it), an inconsistent orientation (two triangles running an edge the same
   way), an edge of more than two triangles, a surface that is inside out or encloses nothing.
   Closedness is checked on a vertex -> triangles adjacency in memory the caller gives
   (pbd_Surface_CheckBytes): the world's scratch for pbd_World_AddBody, a temporary block for
   pbd_BodyCounts. */
#ifndef PBD_SURFACE_H
#define PBD_SURFACE_H

#include "builders/body_error.h"
#include "builders/lattice.h"

/// Memory pbd_Surface_Check needs for a surface of these counts.
size_t pbd_Surface_CheckBytes(int32_t vertexCount, int32_t triangleCount);

/// Counts, coordinates, indices, degenerate triangles: what needs no memory. PBD_OK or the error.
int pbd_Surface_CheckInput(const float* vertices, int32_t vertexCount, const uint32_t* indices, int32_t triangleCount,
						   pbdBodyError* err);
/// After pbd_Surface_CheckInput: closed, consistently oriented, positive volume. mem holds
/// pbd_Surface_CheckBytes(vertexCount, triangleCount) bytes (8-aligned). PBD_OK or the error.
int pbd_Surface_CheckClosed(const float* vertices, int32_t vertexCount, const uint32_t* indices, int32_t triangleCount,
							void* mem, size_t memBytes, pbdBodyError* err);

/// Enclosed volume, sum of a . (b x c) / 6 over the triangles (positive when they wind
/// counter-clockwise seen from outside).
double pbd_Surface_Volume(const float* vertices, const uint32_t* indices, int32_t triangleCount);

/// Keeps the cells of `lat` (its mask cleared first) whose centre lies inside the surface.
void pbd_Surface_FillLattice(pbdLattice* lat, const float* vertices, const uint32_t* indices, int32_t triangleCount);

#endif
