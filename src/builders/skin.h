/* builders/skin.h -- the bodies' render surfaces (docs/architecture.md "Rendering"). The skin is a pool state
   registered as the last entry of PBD_FAMILIES (bytes, scratchBytes and create only, no step
   hook), so the world sizes and carves it like any family's. A skin vertex is either embedded in
   a soft body's tet (4 particles, barycentric weights) or a rest position of a rigid body
   (moved by pbd_Shapes_Transform); pbd_World_UpdateSkin writes positions and normals.

   The skin's share of the pool also holds the tet list of the body being built (the volume
   family takes a body's tets in one call), and its scratch need covers the checks of a given
   surface or tet mesh (builders/surface.h, builders/tetmesh.h). */
#ifndef PBD_SKIN_H
#define PBD_SKIN_H

#include "world/core.h"

/// PBD_OK, or the capacity error (message set) when `vertices` or `triangles` more do not fit.
int pbd_Skin_CheckRoom(pbdWorld* world, int64_t vertices, int64_t triangles);
int32_t pbd_Skin_VertexCount(const pbdWorld* world);
int32_t pbd_Skin_TriangleCount(const pbdWorld* world);

/// Appends a vertex embedded in a soft body: position = sum of weight[k] x(particle[k]).
void pbd_Skin_AddEmbedded(pbdWorld* world, const int32_t particle[4], const float weight[4]);
/// Appends a vertex of a rigid body at rest position `rest` (world frame, at creation).
void pbd_Skin_AddRigid(pbdWorld* world, const float rest[3]);
/// Appends a triangle of skin vertex indices (absolute), counter-clockwise seen from outside.
void pbd_Skin_AddTriangle(pbdWorld* world, uint32_t a, uint32_t b, uint32_t c);

/// Room for the tets (4 ints each) of the body being built; *capacity receives how many fit.
int32_t* pbd_Skin_TetBuffer(pbdWorld* world, int32_t* capacity);

/// The skin buffers for pbd_World_GetBuffer / GetCount (pbdBuffer_skin*); NULL for other buffers.
void* pbd_Skin_Buffer(pbdWorld* world, pbdBuffer buffer, int32_t* count);

#endif
