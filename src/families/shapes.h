/* families/shapes.h -- what the rest of the core may ask of the shapes family: shape-matched
   bodies (Mueller et al. 2005), one per object over a range of its particles. */
#ifndef PBD_SHAPES_H
#define PBD_SHAPES_H

#include "services/surfaces.h"

/// PBD_OK, or PBD_ERR_OBJECT_CAPACITY (message set) when no body more fits.
int pbd_Shapes_CheckRoom(pbdWorld* world);
/// Makes particles [first, first + count) of `object` one shape-matched body; rest shape = world->x now.
/// Its particles' surface normals (shapes_sdf.c) are built at the start of its first step, in slice units.
void pbd_Shapes_Add(pbdWorld* world, int32_t object, int32_t first, int32_t count);
/// Builds the surface normals still to build now, whole (the tests that read them before a step).
void pbd_Shapes_FinishNormals(pbdWorld* world);
/// 1 and the transform x = c + R(q) (x0 - c0) of object's body as last solved; 0 if it has none.
int pbd_Shapes_Transform(const pbdWorld* world, int32_t object, float c[3], float q[4], float c0[3]);
/// The same transform `blend` of the way (0..1) from the start of the last step to its end: c blended, q
/// normalised-lerped along the shorter arc; blend >= 1 is pbd_Shapes_Transform's to the bit.
int pbd_Shapes_TransformAt(const pbdWorld* world, int32_t object, float blend, float c[3], float q[4], float c0[3]);
/// 1 when `object` is a shape-matched body (its particles may have contact normals).
int pbd_Shapes_HasNormals(const pbdWorld* world, int32_t object);
/// The contact normal of a body particle (Macklin et al. 2014, section 5.1): 0 if it has none
/// (not a body's, or no direction: contacts then push along the centre line); otherwise 1 +
/// its layer beneath its body's surface (1: on the surface) and, in n, the outward unit normal
/// of the surface there, turned by the body's rotation as last solved.
int pbd_Shapes_ContactNormal(const pbdWorld* world, int32_t particle, float n[3]);
/// The lattice faces a body particle on its body's surface lies on (at most 3 of the lattice's
/// 6 face directions, up to 6 on a body one particle thick), as outward unit normals turned by
/// the body's rotation; their count, 0 when it lies on none or its body is no lattice.
int pbd_Shapes_ContactFaces(const pbdWorld* world, int32_t particle, float faces[6][3]);

#endif
