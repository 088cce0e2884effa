/* families/fluid.h -- what the builders and the API need of the fluid family (families/fluid*.c). */
#ifndef PBD_FLUID_H
#define PBD_FLUID_H

#include "families/family.h"

/// PBD_OK, or the error (message set) when a fluid object of `capacity` particles does not fit: the
/// world's maxFluidParticles, PBD_MAX_FLUID_OBJECTS.
int pbd_Fluid_CheckRoom(pbdWorld* world, int64_t capacity);
/// Registers object `object` (particles [first, first + capacity), the first `active` live) as a fluid.
void pbd_Fluid_AddObject(pbdWorld* world, int32_t object, int32_t first, int32_t capacity, int32_t active);
/// The fluid's lattice spacing d and particle mass rho0 d^3, from the parameters (inline: the family's files
/// read them too, and fluid.c calls them, so no file calls fluid.c back for them).
static inline float pbd_Fluid_Spacing(const pbdWorld* w) { return w->params[pbdParam_fluidSpacing]; }
static inline float pbd_Fluid_ParticleMass(const pbdWorld* w)
{
	const float d = w->params[pbdParam_fluidSpacing];
	return w->params[pbdParam_fluidRestDensity] * d * d * d;
}

#endif
