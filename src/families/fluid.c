/* families/fluid.c -- GROUNDWORK SKELETON (issue 11): the pool, the fluid objects' records and the
   queries' entry points. The fluid helper replaces it with the family (see fluid_internal.h). */
#include "families/fluid_internal.h"
#include "families/fluid.h"

#include <string.h>

float pbd_Fluid_Spacing(const pbdWorld* w) { return w->params[pbdParam_fluidSpacing]; }

float pbd_Fluid_ParticleMass(const pbdWorld* w)
{
	const float d = w->params[pbdParam_fluidSpacing];
	return w->params[pbdParam_fluidRestDensity] * d * d * d;
}

static size_t Fluid_Bytes(const pbdCapacity* cap) { return pbd_PoolBytes(1, sizeof(pbdFluid)); }

static void* Fluid_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	pbdFluid* f = pbd_PoolAlloc(pool, 1, sizeof(pbdFluid));
	if (f == NULL) return NULL;
	f->maxFluidParticles = cap->maxFluidParticles;
	return f;
}

int pbd_Fluid_CheckRoom(pbdWorld* w, int64_t capacity)
{
	pbdFluid* f = pbd_FluidState(w);
	if (f->objectCount >= PBD_MAX_FLUID_OBJECTS) {
		return pbd_SetWorldError(w, PBD_ERR_FLUID_CAPACITY, "already %d fluid objects (at most %d)", f->objectCount,
								 PBD_MAX_FLUID_OBJECTS);
	}
	if (f->reserved + capacity > f->maxFluidParticles) {
		return pbd_SetWorldError(w, PBD_ERR_FLUID_CAPACITY, "fluid needs %lld particles, %d of the world's %d fluid particles left",
								 (long long)capacity, f->maxFluidParticles - f->reserved, f->maxFluidParticles);
	}
	return PBD_OK;
}

void pbd_Fluid_AddObject(pbdWorld* w, int32_t object, int32_t first, int32_t capacity, int32_t active)
{
	pbdFluid* f = pbd_FluidState(w);
	pbdFluidObject* o = &f->objects[f->objectCount++];
	o->object = object;
	o->first = first;
	o->capacity = capacity;
	o->active = active;
	f->reserved += capacity;
}

const pbdFamily pbd_family_fluid = {
	.name = "fluid",
	.bytes = Fluid_Bytes,
	.create = Fluid_Create,
};

/* ---- entry points the helpers fill (fluid.c: stats, densities, parts; fluid_emit.c: emitters, drains) ---- */

static int NotYet(pbdWorldId id, const char* what)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "%s: not built yet", what);
}

int pbd_World_GetFluidStats(pbdWorldId id, pbdFluidStats* stats) { return NotYet(id, "fluid stats"); }
int pbd_World_UpdateDensities(pbdWorldId id) { return NotYet(id, "densities"); }
int pbd_World_RunFluidPart(pbdWorldId id, int part) { return NotYet(id, "fluid parts"); }
