/* builders/builder.h -- what every object builder (one file per object type in builders/)
   shares: checking room and inputs, adding particles, the object's record. A builder
   validates everything first and mutates last, so a refused call leaves the world as it was:
       check the def  ->  pbd_Builder_CheckRoom  ->  BeginObject, particles, constraint groups
       (families/distance.h), triangles or lines  ->  EndObject. */
#ifndef PBD_BUILDER_H
#define PBD_BUILDER_H

#include "services/materials.h"
#include "world/core.h"

/// PBD_OK, or the capacity error (message set) of the first thing that does not fit: the
/// object itself, its particles, constraints, triangles or lines.
int pbd_Builder_CheckRoom(pbdWorld* world, int64_t particles, int64_t constraints, int64_t triangles, int64_t lines);
/// A particle's mass in [1e-6, 1e6] kg, or PBD_ERR_INVALID_ARGUMENT.
int pbd_Builder_CheckMass(pbdWorld* world, float mass);
/// Opens the record of the next object (type: pbdObjectInfo.type) at the world's current counts.
pbdObjectInfo* pbd_Builder_BeginObject(pbdWorld* world, int32_t type);
/// A particle of the open object at rest at (x, y, z), its phase set from the object.
void pbd_Builder_AddParticle(pbdWorld* world, float x, float y, float z, float invMass);
/// Closes the open object: its constraint count, and the change counters families follow
/// (new particles have masses, shares and tethers are recomputed at the next step).
void pbd_Builder_EndObject(pbdWorld* world);

#endif
