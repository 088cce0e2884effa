/* families/distance.h -- what the rest of the core may ask of the distance family (stretch,
   shear, bend and chain constraints): the builders add constraints group by group, the
   parameters set stiffness, the statistics read through these functions; the colliders' edge
   test reads the structural edges through services/surfaces.h (world->edges). Its state is families/distance_state.h's, read by its own files only. */
#ifndef PBD_DISTANCE_H
#define PBD_DISTANCE_H

#include "services/surfaces.h"

/* ---- building (builders/): a group is one object's constraints of one kind */

/// PBD_OK, or PBD_ERR_CONSTRAINT_CAPACITY (message set) when `constraints` more do not fit.
int pbd_Distance_CheckRoom(pbdWorld* world, int64_t constraints);
/// Opens a group of `kind` for object `object`, at the world's stiffness of that kind.
void pbd_Distance_BeginGroup(pbdWorld* world, pbdConstraintKind kind, int32_t object);
/// Adds C = |p_a - p_b| - d with d the distance now (the rest pose).
void pbd_Distance_Add(pbdWorld* world, int32_t a, int32_t b);
/// Closes the group. colour != 0 sorts it by greedy colour over particles [firstParticle,
/// firstParticle + particleCount), so that each colour is solved 4 wide; an uncoloured group
/// is solved in order (a chain: sequential Gauss-Seidel carries a pin's correction to the far
/// end in one pass).
void pbd_Distance_EndGroup(pbdWorld* world, int colour, int32_t firstParticle, int32_t particleCount);
/// Constraints in the world (torn ones included).
int32_t pbd_Distance_Count(const pbdWorld* world);

/* ---- structural edges: provided to the colliders through services/surfaces.h (world->edges) */

int32_t pbd_Distance_GroupCount(const pbdWorld* world);
int pbd_Distance_StructuralEdges(const pbdWorld* world, int32_t group, pbdEdges* edges);

#endif
