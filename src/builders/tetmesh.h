/* builders/tetmesh.h -- a tet mesh given by the caller (pbdBodyShape_tets): its checks, each tet
   oriented so its rest volume is positive, its edges (each once) and its boundary faces (the
   skin). Works on a vertex -> tets adjacency in memory the caller gives (pbd_TetMesh_Bytes),
   the world's scratch for pbd_World_AddBody, a temporary block for pbd_BodyCounts.

       pbdTetMesh m;
       pbd_TetMesh_Init(&m, mem, vertexCount, indices, tetCount);
       ... write the vertices' world positions into m.x (3 floats each) ...
       if (pbd_TetMesh_Build(&m, &err) != PBD_OK) ...   // orientation, counts, checks
       pbd_TetMesh_Tet(&m, t, tet); pbd_TetMesh_Edges(...); pbd_TetMesh_Faces(...); */
#ifndef PBD_TETMESH_H
#define PBD_TETMESH_H

#include "builders/body_error.h"
#include "builders/lattice.h"

typedef struct pbdTetMesh {
	float* x;               ///< world positions, 3 per vertex (the caller writes them)
	const uint32_t* tets;   ///< 4 vertex indices per tet, as given
	int32_t vertexCount, tetCount;
	int32_t* start;         ///< vertex v's tets are list[start[v] .. start[v + 1])
	int32_t* list;
	int32_t* stamp;         ///< scratch marks per vertex
	int32_t* skinIndex;     ///< per vertex: its index among the boundary vertices, or -1
	uint8_t* flip;          ///< per tet: 1 when its last two vertices are swapped to make V0 > 0
	int32_t edgeCount, faceCount, boundaryVertexCount;
	float shortestEdge;
} pbdTetMesh;

/// 6 V of the tet (a, b, c, d), 3 floats each, computed exactly as the volume family computes a
/// rest volume.
float pbd_TetVolume6(const float* a, const float* b, const float* c, const float* d);
/// Memory for a mesh of these counts (positions and adjacency).
size_t pbd_TetMesh_Bytes(int32_t vertexCount, int32_t tetCount);
/// Counts (4..PBD_BODY_MAX_VERTICES vertices, 1..PBD_BODY_MAX_TETS tets), local coordinates
/// finite within +-1e5, indices in range: what needs no memory. PBD_OK or the error.
int pbd_TetMesh_CheckInput(const float* vertices, int32_t vertexCount, const uint32_t* indices, int32_t tetCount,
						   pbdBodyError* err);
/// Carves the mesh's arrays from mem (pbd_TetMesh_Bytes bytes, 8-aligned).
void pbd_TetMesh_Init(pbdTetMesh* m, void* mem, int32_t vertexCount, const uint32_t* indices, int32_t tetCount);
/// From the positions in m->x: orients every tet (V0 > 0, or refuses one of zero volume, naming
/// it), refuses a vertex in no tet, counts edges, boundary faces and vertices.
int pbd_TetMesh_Build(pbdTetMesh* m, pbdBodyError* err);
/// Tet t's vertices, oriented.
void pbd_TetMesh_Tet(const pbdTetMesh* m, int32_t t, int32_t out[4]);
/// Every edge once (first + vertex index at each end), by its lower vertex.
void pbd_TetMesh_Edges(pbdTetMesh* m, int32_t first, pbdLatticeEdgeFn edge, void* user);
/// Every boundary face (a face of one tet only), as 3 vertex indices counter-clockwise seen
/// from outside, in tet order.
typedef void (*pbdTetFaceFn)(void* user, const int32_t face[3]);
void pbd_TetMesh_Faces(const pbdTetMesh* m, pbdTetFaceFn face, void* user);

#endif
