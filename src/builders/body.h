/* builders/body.h -- the plan of a body, which builders/body.c works out and checks before
   anything is built (pbd_BodyCounts stops there), and builders/body_skin.c turns into the
   body's skin. */
#ifndef PBD_BODY_H
#define PBD_BODY_H

#include "builders/body_error.h"
#include "builders/lattice.h"
#include "builders/tetmesh.h"
#include "world/core.h"

#include <stddef.h>
#include <stdint.h>

/// What pbd_World_AddBody will build, worked out and checked before the world is touched
/// (pbd_BodyCounts stops there): body.c fills it, body_skin.c reads it.
typedef struct pbdBodyPlan {
	const pbdBodyDef* def;
	float q[4];             ///< def->rotation, normalised
	float radius;           ///< the particles' contact radius (w->materials, services/materials.h)
	float spacing;          ///< finest lattice step or shortest tet edge (w->objectSpacing: bounds the radius)
	float particleMass;
	pbdLattice* lattice;    ///< box, ball, surface: in the body's frame (the caller's memory)
	pbdTetMesh mesh;        ///< tets: its arrays in the caller's memory
	int32_t primitives;     ///< surface: triangles; tets: tets
	pbdBodyCounts counts;
} pbdBodyPlan;

/// v rotated by the unit quaternion q (x, y, z, w): v + 2w (u x v) + 2 u x (u x v), u = (x, y, z).
static inline void pbd_BodyRotate(const float q[4], const float v[3], float out[3])
{
	const float t[3] = { 2.0f * (q[1] * v[2] - q[2] * v[1]), 2.0f * (q[2] * v[0] - q[0] * v[2]), 2.0f * (q[0] * v[1] - q[1] * v[0]) };
	out[0] = v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]);
	out[1] = v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]);
	out[2] = v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0]);
}

/// A point of the body's frame in the world: position + R(q) local.
static inline void pbd_BodyPoint(const pbdBodyPlan* plan, const float local[3], float out[3])
{
	pbd_BodyRotate(plan->q, local, out);
	for (int a = 0; a < 3; ++a) out[a] += plan->def->position[a];
}

/* builders/body_skin.c: each shape's skin */
/// Skin vertices and triangles of the planned body.
void pbd_BodySkin_Counts(const pbdBodyPlan* plan, int32_t* vertices, int32_t* triangles);
/// Appends the planned body's skin; its particles start at `first`.
void pbd_BodySkin_Build(pbdWorld* world, const pbdBodyPlan* plan, int32_t first);

#endif
