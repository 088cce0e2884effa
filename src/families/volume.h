/* families/volume.h -- what the rest of the core may ask of the volume family: the signed
   volume constraint of soft bodies' tets, C = V - V0 (seed 001's volume constraint), coloured
   and solved 4 wide. Builders add tets object by object; the skin reads tets for embedding. */
#ifndef PBD_VOLUME_H
#define PBD_VOLUME_H

#include "world/core.h"

/// PBD_OK, or PBD_ERR_CONSTRAINT_CAPACITY (message set) when `tets` more do not fit.
int pbd_Volume_CheckRoom(pbdWorld* world, int64_t tets);
/// Adds `count` tets (absolute particle indices, 4 each) of object `object`, rest volume from
/// world->x now; colours them over particles [firstParticle, firstParticle + particleCount).
void pbd_Volume_AddTets(pbdWorld* world, int32_t object, const int32_t* tets, int32_t count, int32_t firstParticle,
						int32_t particleCount);
/// Tets in the world.
int32_t pbd_Volume_Count(const pbdWorld* world);
/// Tet t's 4 particle indices.
const int32_t* pbd_Volume_Tet(const pbdWorld* world, int32_t t);

#endif
