/* wasm/api_fluids.c -- the fluids' part of the flat JS surface (see wasm/api.c): pbdFluidDef and
   pbdEmitterDef as scalars. Records written to `out`:
     pbdjs_GetFluidStats: int32[0..5] = particles, capacity, emitted, drained, full, droppedNeighbours,
                          then float32[6..9] = meanNeighbours, meanDensity, maxDensity, densityError
   pbd_World_UpdateDensities, pbd_World_RunFluidPart, the emitter and drain counts and the densities
   buffer (pbd_World_GetBuffer, pbdBuffer_densities) are exported as they are. */
#include "world/core.h"

#include <string.h>

static pbdFluidDef FluidDef(float lx, float ly, float lz, float ux, float uy, float uz, float vx, float vy, float vz,
							int capacity)
{
	pbdFluidDef def = pbd_DefaultFluidDef();
	def.lower[0] = lx, def.lower[1] = ly, def.lower[2] = lz;
	def.upper[0] = ux, def.upper[1] = uy, def.upper[2] = uz;
	def.velocity[0] = vx, def.velocity[1] = vy, def.velocity[2] = vz;
	def.capacity = capacity;
	return def;
}

PBDJS_API int pbdjs_AddFluid(pbdWorldId world, float lx, float ly, float lz, float ux, float uy, float uz, float vx, float vy,
							 float vz, int capacity)
{
	pbdFluidDef def = FluidDef(lx, ly, lz, ux, uy, uz, vx, vy, vz, capacity);
	return pbd_World_AddFluid(world, &def);
}

/* The particles a block holds at `spacing` (a refusal: a negative pbdError, its message through
   pbd_GetLastErrorMessage). */
PBDJS_API int pbdjs_FluidBlockCount(float lx, float ly, float lz, float ux, float uy, float uz, float spacing)
{
	pbdFluidDef def = FluidDef(lx, ly, lz, ux, uy, uz, 0.0f, 0.0f, 0.0f, 0);
	return pbd_FluidBlockCount(&def, spacing);
}

static pbdEmitterDef EmitterDef(int object, float px, float py, float pz, float dx, float dy, float dz, float speed,
								float radius, int enabled)
{
	pbdEmitterDef def = pbd_DefaultEmitterDef();
	def.object = object;
	def.position[0] = px, def.position[1] = py, def.position[2] = pz;
	def.direction[0] = dx, def.direction[1] = dy, def.direction[2] = dz;
	def.speed = speed;
	def.radius = radius;
	def.enabled = enabled;
	return def;
}

PBDJS_API int pbdjs_AddEmitter(pbdWorldId world, int object, float px, float py, float pz, float dx, float dy, float dz,
							   float speed, float radius, int enabled)
{
	pbdEmitterDef def = EmitterDef(object, px, py, pz, dx, dy, dz, speed, radius, enabled);
	return pbd_World_AddEmitter(world, &def);
}

PBDJS_API int pbdjs_SetEmitter(pbdWorldId world, int emitter, int object, float px, float py, float pz, float dx, float dy,
							   float dz, float speed, float radius, int enabled)
{
	pbdEmitterDef def = EmitterDef(object, px, py, pz, dx, dy, dz, speed, radius, enabled);
	return pbd_World_SetEmitter(world, emitter, &def);
}

PBDJS_API int pbdjs_AddDrain(pbdWorldId world, float lx, float ly, float lz, float ux, float uy, float uz)
{
	const float lower[3] = { lx, ly, lz }, upper[3] = { ux, uy, uz };
	return pbd_World_AddDrain(world, lower, upper);
}

PBDJS_API int pbdjs_GetFluidStats(pbdWorldId world, int32_t* out)
{
	pbdFluidStats s;
	int err = pbd_World_GetFluidStats(world, &s);
	if (err != PBD_OK) return err;
	memcpy(out, &s, sizeof s);
	return PBD_OK;
}

/* pbd_World_GetMeasuredFluidStats into out, the same record; returns the measuring step (0: none yet) or the error. */
PBDJS_API int pbdjs_GetMeasuredFluidStats(pbdWorldId world, int32_t* out)
{
	pbdFluidStats s;
	const int step = pbd_World_GetMeasuredFluidStats(world, &s);
	if (step < 0) return step;
	memcpy(out, &s, sizeof s);
	return step;
}

_Static_assert(sizeof(pbdFluidStats) == 10 * sizeof(int32_t), "JS reads fluid stats as 6 int32 + 4 float32");
