/* families/volume.h -- what the rest of the core may ask of the volume family: the signed
   volume constraint of soft bodies' tets, C = V - V0 (seed 001's volume constraint), coloured
   and solved 4 wide, or, for a lattice body, of its cells (volume.c). Builders add tets object by
   object; the skin reads tets for embedding. */
#ifndef PBD_VOLUME_H
#define PBD_VOLUME_H

#include "world/core.h"

/// PBD_OK, or PBD_ERR_CONSTRAINT_CAPACITY (message set) when `tets` more do not fit.
int pbd_Volume_CheckRoom(pbdWorld* world, int64_t tets);
/// Kuhn's 6 tets of a lattice cell, in its corner numbers (corner v at (i + (v & 1), j + (v >> 1 & 1),
/// k + (v >> 2))): for each order (a, b, c) of the axes the path 0 -> e_a -> e_a + e_b -> 7, the odd
/// permutations with their last two corners swapped so that every volume is positive. The lattice
/// builder splits its cells by it and the volume family reads a cell's corners back by it.
extern const int32_t pbd_VolumeKuhn[6][4];

/// Adds `count` tets (absolute particle indices, 4 each) of object `object`, rest volume from
/// world->x now; colours them over particles [firstParticle, firstParticle + particleCount).
/// `cells` != 0: the tets are a lattice's cells, 6 a cell in pbd_VolumeKuhn's order (count a
/// multiple of 6), which the cells' volume model solves cell by cell (volume.c).
void pbd_Volume_AddTets(pbdWorld* world, int32_t object, const int32_t* tets, int32_t count, int32_t firstParticle,
						int32_t particleCount, int cells);
/// Tets in the world.
int32_t pbd_Volume_Count(const pbdWorld* world);
/// Tet t's 4 particle indices.
const int32_t* pbd_Volume_Tet(const pbdWorld* world, int32_t t);

#endif
