/* families/fluid.h -- what the builders and the API need of the fluid family (families/fluid*.c). */
#ifndef PBD_FLUID_H
#define PBD_FLUID_H

#include "families/family.h"
#include "families/fluid_params.h"

/// PBD_OK, or the error (message set) when a fluid object of `capacity` particles does not fit: the
/// world's maxFluidParticles, PBD_MAX_FLUID_OBJECTS.
int pbd_Fluid_CheckRoom(pbdWorld* world, int64_t capacity);
/// Registers object `object` (particles [first, first + capacity), the first `active` live) as a fluid.
void pbd_Fluid_AddObject(pbdWorld* world, int32_t object, int32_t first, int32_t capacity, int32_t active);

#endif
