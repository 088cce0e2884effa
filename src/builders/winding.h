/* builders/winding.h -- the generalized winding number of a triangle soup: the inside test of
   surfaces that are open, non-manifold or self-intersecting (builders/surface.c).

   w(q) = sum over triangles of their signed solid angle seen from q, over 4 pi (Jacobson,
   Kavan, Sorkine-Hornung 2013, "Robust Inside-Outside Segmentation using Generalized Winding
   Numbers"). For a closed, outward-wound surface it is 1 inside and 0 outside; for an open one
   (a scan with holes, a teapot without a bottom) it is a smooth "how enclosed" field, and
   w >= 0.5 is the inside a person expects. The exact sum costs a solid angle per triangle per
   point; the tree here is the fast form of Barill, Dickson, Schmidt, Levin, Jacobson 2018
   ("Fast Winding Numbers for Soups and Clouds"): a bounding-volume hierarchy whose far nodes
   count by the first two terms of their Taylor expansion about their area-weighted centre p
   (the dipole N . K(p - q), K(r) = r / |r|^3, N the sum of their area vectors, and the
   first-order term with the moment of the area vectors about p) and whose near leaves are
   summed exactly.

   Deterministic: the tree's build and every sum run in one fixed order in double, the
   arctangent is base/detmath.h's, so every build gives the same bits. Memory: the caller's
   (pbd_Winding_Bytes), nothing allocated. */
#ifndef PBD_WINDING_H
#define PBD_WINDING_H

#include <stddef.h>
#include <stdint.h>

/// A node: its triangles' dipole and bounding ball; a leaf's triangles or an inner node's children.
typedef struct pbdWindingNode {
	double p[3];   ///< area-weighted centroid of its triangles
	double n[3];   ///< sum of its triangles' area vectors (b - a) x (c - a) / 2
	double m[9];   ///< first moment: m[3i + j] = sum of area vector_i (centroid - p)_j
	double r2;     ///< squared radius of the ball about p holding all their vertices
	int32_t first; ///< leaf: first of its triangles in order[]; inner: the right child (the left is this + 1)
	int32_t count; ///< leaf: how many; inner: 0
} pbdWindingNode;

typedef struct pbdWindingTree {
	const float* v;
	const uint32_t* idx;
	int32_t triangleCount;
	int32_t* order; ///< triangles, leaf by leaf
	pbdWindingNode* node;
	int32_t nodeCount;
} pbdWindingTree;

/// Triangles in a leaf at most.
#define PBD_WINDING_LEAF 16

/// Bytes pbd_Winding_Build needs for this many triangles (8-aligned).
size_t pbd_Winding_Bytes(int32_t triangleCount);
/// Builds the tree over triangles idx[0..3 triangleCount) of vertices v (kept by pointer) in mem.
void pbd_Winding_Build(pbdWindingTree* tree, void* mem, const float* v, const uint32_t* idx, int32_t triangleCount);
/// w(q) by the tree: exact near q, dipoles far from it.
double pbd_Winding_At(const pbdWindingTree* tree, const double q[3]);
/// Where the tree's w is within this of 0.5, pbd_Winding_Inside looks again with a wider margin
/// (FINE_BETA, winding.c), and within PBD_WINDING_FINE_MARGIN of 0.5 sums exactly: the tree errs
/// by less than 0.006 at points in and around a surface (BETA 3) and the second look by less
/// than 1e-4 (measured on an open torus), so the decision is the exact sum's.
#define PBD_WINDING_MARGIN 0.05
#define PBD_WINDING_FINE_MARGIN 0.002
/// Inside (w >= 0.5, Jacobson et al. 2013 sec. 3): the tree, or closer looks when near 0.5.
int pbd_Winding_Inside(const pbdWindingTree* tree, const double q[3]);
/// w(q) summed exactly over every triangle (a reference, and for tests).
double pbd_Winding_Exact(const float* v, const uint32_t* idx, int32_t triangleCount, const double q[3]);
/// Signed solid angle of triangle (a, b, c) seen from q, in (-2 pi, 2 pi]: positive when q sees
/// it wound clockwise (q behind it, inside an outward-wound surface). Van Oosterom & Strackee
/// 1983: tan(omega / 2) = det[a b c] / (|a||b||c| + (a.b)|c| + (a.c)|b| + (b.c)|a|), with a, b, c
/// relative to q.
double pbd_Winding_SolidAngle(const float* a, const float* b, const float* c, const double q[3]);

#endif
