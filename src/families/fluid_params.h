/* families/fluid_params.h -- the fluid's lattice spacing d and particle mass rho0 d^3, from the parameters: read
   by the builders (through fluid.h) and by the family's own files (fluid.c, fluid_emit.c), inline, so that no file
   of the family calls another back for them. */
#ifndef PBD_FLUID_PARAMS_H
#define PBD_FLUID_PARAMS_H

#include "world/core.h"

static inline float pbd_Fluid_Spacing(const pbdWorld* w) { return w->params[pbdParam_fluidSpacing]; }
static inline float pbd_Fluid_ParticleMass(const pbdWorld* w)
{
	const float d = w->params[pbdParam_fluidSpacing];
	return w->params[pbdParam_fluidRestDensity] * d * d * d;
}

#endif
