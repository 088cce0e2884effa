/* neighbours/triangles.h -- moving triangles by where they swept within a substep: a hashed grid of the boxes
   each triangle covered from its start positions to its end positions, for a continuous test against
   something else that moved in the same substep (a particle's path x -> p: families/fluid_guard.c). It knows
   no client: the caller names the triangles (ranges of world->triangles) and the two positions.

   Each triangle is put in every cell its swept box (grown by `margin`) overlaps. A stretched triangle covers
   many cells: when the entries would pass the budget (PBD_TRIANGLE_ENTRIES per triangle reserved), the cell
   doubles and the count starts again, so a build always fits and a query always sees every triangle whose
   box meets its own (Teschner et al. 2003, "Optimized Spatial Hashing for Collision Detection of Deformable
   Objects": one hash table, the cell near the primitives' size). Entries are in triangle order within a bucket
   (a counting sort), so a query's candidates come in one order on every build and thread count. */
#ifndef PBD_TRIANGLES_H
#define PBD_TRIANGLES_H

#include <stddef.h>
#include <stdint.h>

/* Entries per triangle the scratch holds: 8 cells of a triangle about the cell's size at a corner. */
#define PBD_TRIANGLE_ENTRIES 8

typedef struct pbdTriangleIndex {
	const uint32_t* triangles; ///< 3 particle indices per triangle (world->triangles)
	int32_t* cellStart;        ///< buckets + 1: bucket b's entries are [cellStart[b], cellStart[b + 1])
	int32_t* entries;          ///< slots: the triangle ids[slot], its swept box boxes[6 slot ..]
	const int32_t* ids;
	const float* boxes;        ///< lo[3], hi[3] per slot
	uint32_t mask;             ///< buckets - 1
	float cell, invCell;
	float lo[3], hi[3];        ///< the box of every triangle's swept box (grown by the margin)
	int32_t count;             ///< triangles put in
} pbdTriangleIndex;

/// Scratch a build of at most maxTriangles triangles needs.
size_t pbd_TriangleIndex_ScratchBytes(int32_t maxTriangles);

/// Puts the triangles of `ranges` (rangeCount pairs first, count into `triangles`) in the index, by the box each
/// covers from positions `a` to positions `b` (float4 per particle) grown by `margin`, in cells of at least
/// `cell`; only those whose box meets one of `within`'s withinCount boxes (lo[3], hi[3] each; NULL: all). Returns the triangles put in (0:
/// nothing to query; the scratch short, which is a sizing bug).
int32_t pbd_TriangleIndex_Build(pbdTriangleIndex* index, const uint32_t* triangles, const int32_t* ranges,
								int32_t rangeCount, const float* a, const float* b, float margin, float cell,
								const float* within, int32_t withinCount, void* scratch, size_t scratchBytes);

/// Calls visit(data, t) for each entry of the cells the box [lo, hi] overlaps whose triangle's own box meets it (a
/// triangle may come more than once), in one order for one index and box. Stops when visit returns 0.
void pbd_TriangleIndex_Query(const pbdTriangleIndex* index, const float lo[3], const float hi[3],
							 int (*visit)(void* data, int32_t triangle), void* data);

#endif
