/* builders/surface.h -- a triangle surface given by the caller (an OBJ model, docs/api.md):
   its checks, its enclosed volume, and which lattice cells lie inside it.

   The input checks refuse with a message naming what is wrong: counts (4..PBD_BODY_MAX_VERTICES
   vertices, 4..PBD_BODY_MAX_TRIANGLES triangles), coordinates (finite, within +-1e5), indices in
   range. Then (pbd_Surface_Prepare) degenerate triangles (a repeated vertex, no area) are left
   out, and the inside is decided one of two ways:
     - a closed, consistently oriented surface (every edge run once each way, checked on a
       vertex -> triangles adjacency) keeps the exact rays of the parity test, each crossing
       counted +-1 by its facing, so the count is the exact (integer) winding number: the same
       cells as parity where the surface does not cross itself, and the overlap of two closed
       parts through each other kept; it is refused when it is inside out or encloses nothing;
     - any other (open, an edge of more than two triangles, inconsistently wound,
       self-intersecting: what scans and exported models often are) is filled where its
       generalized winding number is at least 0.5 (builders/winding.h).
   Memory is the caller's (pbd_Surface_Bytes): the world's scratch for pbd_World_AddBody, a
   temporary block for pbd_BodyCounts. pbd_Surface_CheckClosed is the strict check alone. */
#ifndef PBD_SURFACE_H
#define PBD_SURFACE_H

#include "builders/body_error.h"
#include "builders/lattice.h"
#include "builders/winding.h"

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

/// A surface ready to fill a lattice (pbd_Surface_Prepare): its triangles with area, and how
/// its inside is decided.
typedef struct pbdSurface {
	const float* v;
	const uint32_t* idx;   ///< the triangles kept (in the caller's memory)
	int32_t triangleCount; ///< how many
	int32_t skipped;       ///< degenerate triangles left out
	int closed;            ///< 1: closed and consistently oriented, ray crossings; 0: the winding number
	int16_t* counts;       ///< when closed: the crossing counts' memory (the caller's)
	pbdWindingTree tree;   ///< when not closed
} pbdSurface;

/// Memory pbd_Surface_Prepare needs (8-aligned): the kept triangles, then the larger of the
/// closedness check's adjacency and the winding tree.
size_t pbd_Surface_Bytes(int32_t vertexCount, int32_t triangleCount);
/// After pbd_Surface_CheckInput: leaves out degenerate triangles, then a closed, consistently
/// oriented surface keeps the exact ray parity (refused when inside out or of no volume, as
/// before); any other (open, non-manifold, inconsistently wound, self-intersecting) gets the
/// winding number's tree. Refuses a surface with no triangle left. PBD_OK or the error.
int pbd_Surface_Prepare(pbdSurface* s, const float* vertices, int32_t vertexCount, const uint32_t* indices, int32_t triangleCount,
						void* mem, size_t memBytes, pbdBodyError* err);
/// Keeps the cells of `lat` whose centre is inside: ray parity for a closed surface, w >= 0.5 otherwise.
void pbd_Surface_Fill(const pbdSurface* s, pbdLattice* lat);
/// One row (j, k) of an open surface's cells (s->closed 0): the winding number at each centre, the cells at
/// w >= 0.5 kept. pbd_Surface_Fill is every row of it; pbd_BodyFill_Run takes them a few at a time.
void pbd_Surface_FillWindingRow(const pbdSurface* s, pbdLattice* lat, int32_t j, int32_t k);

#endif
