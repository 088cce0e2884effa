/* builders/fluid.c -- a fluid object: a block of particles on the cubic lattice of the fluid's
   spacing, plus room for more (an emitter fills it). The whole capacity is one range of particles
   from the start, so other objects' indices never move when fluid particles come and go
   (families/fluid_emit.c); the slots past the live ones are parked (w = 0, PBD_PHASE_INACTIVE).

   Each particle has mass rho0 d^3 (d = fluid.spacing, rho0 = fluid.restDensity): a lattice cell of
   fluid, so a block of fluid weighs what its volume of water does and a body of density rho sinks or
   floats against it by rho / rho0 (Macklin et al. 2014 section 7.1). Its contact radius is d / 2, so
   lattice neighbours just touch, against the ground, the colliders and solid particles alike. */
#include "builders/builder.h"
#include "families/fluid.h"

#include <math.h>
#include <string.h>

pbdFluidDef pbd_DefaultFluidDef(void)
{
	pbdFluidDef def;
	memset(&def, 0, sizeof def);
	def.upper[0] = def.upper[1] = def.upper[2] = 0.2f;
	def.internalValue = PBD_COOKIE;
	return def;
}

/* Lattice points along one axis of [lo, hi] at spacing d: centres at lo + (i + 1/2) d <= hi - d/2. */
static int64_t AxisCount(float lo, float hi, float d)
{
	const double n = floor(((double)hi - (double)lo) / (double)d + 1e-6);
	return n > 0.0 ? (int64_t)n : 0;
}

/* The block's count, or a negative error with the message set on `world` (NULL: the global message). */
static int BlockCount(pbdWorld* world, const pbdFluidDef* def, float spacing, int64_t n[3])
{
	const char* bad = NULL;
	for (int k = 0; k < 3 && bad == NULL; ++k) {
		if (!pbd_IsCoord(def->lower[k]) || !pbd_IsCoord(def->upper[k])) bad = "fluid block corners must be finite and within 1e5 m";
		else if (def->upper[k] < def->lower[k]) bad = "fluid block's upper corner is below its lower corner";
		else if (!pbd_IsFinite(def->velocity[k]) || fabsf(def->velocity[k]) > 1e4f) bad = "fluid velocity must be finite and within 1e4 m/s";
	}
	if (bad == NULL && !(spacing > 0.0f && pbd_IsFinite(spacing))) bad = "fluid spacing must be a positive number";
	if (bad != NULL) {
		return world ? pbd_SetWorldError(world, PBD_ERR_INVALID_ARGUMENT, "%s", bad) : pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "%s", bad);
	}
	int64_t total = 1;
	for (int k = 0; k < 3; ++k) {
		n[k] = AxisCount(def->lower[k], def->upper[k], spacing);
		if (n[k] > PBD_MAX_PARTICLES) n[k] = PBD_MAX_PARTICLES + 1; /* keeps the product in range */
		total *= n[k];
		if (total > PBD_MAX_PARTICLES) break;
	}
	if (total > PBD_MAX_PARTICLES) {
		const char* msg = "fluid block needs more than %d particles";
		return world ? pbd_SetWorldError(world, PBD_ERR_PARTICLE_CAPACITY, msg, PBD_MAX_PARTICLES)
					 : pbd_SetError(PBD_ERR_PARTICLE_CAPACITY, msg, PBD_MAX_PARTICLES);
	}
	return (int)total;
}

int pbd_FluidBlockCount(const pbdFluidDef* def, float spacing)
{
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetError(PBD_ERR_BAD_DEF, "use pbd_DefaultFluidDef()");
	int64_t n[3];
	return BlockCount(NULL, def, spacing, n);
}

int pbd_World_AddFluid(pbdWorldId id, const pbdFluidDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	const int busy = pbd_CheckNoStep(w, "pbd_World_AddFluid");
	if (busy != PBD_OK) return busy;
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetWorldError(w, PBD_ERR_BAD_DEF, "use pbd_DefaultFluidDef()");
	const float d = pbd_Fluid_Spacing(w);
	int64_t n[3];
	const int count = BlockCount(w, def, d, n);
	if (count < 0) return count;
	if (def->capacity < 0 || def->capacity > PBD_MAX_PARTICLES) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "fluid capacity must be in [0, %d], got %d", PBD_MAX_PARTICLES,
								 def->capacity);
	}
	const int32_t capacity = def->capacity > 0 ? def->capacity : count;
	if (capacity < count) {
		return pbd_SetWorldError(w, PBD_ERR_FLUID_CAPACITY, "fluid block of %d particles is over the object's capacity %d",
								 count, capacity);
	}
	if (capacity == 0) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "fluid with no particles and no capacity");
	int err = pbd_Builder_CheckRoom(w, capacity, 0, 0, 0);
	if (err != PBD_OK) return err;
	if ((err = pbd_Fluid_CheckRoom(w, capacity)) != PBD_OK) return err;

	const int32_t object = w->objectCount;
	pbdObjectInfo* info = pbd_Builder_BeginObject(w, PBD_OBJECT_FLUID);
	const int32_t first = info->firstParticle;
	const float invMass = 1.0f / pbd_Fluid_ParticleMass(w);
	/* Fluid particles pair with each other (PBD_PHASE_SELF) in the fluid's own search; the contacts
	   family leaves every pair with a fluid particle to it (neighbours/grid.h, the fluid filter). */
	const uint32_t phase = ((uint32_t)object & PBD_PHASE_OBJECT_MASK) |
						   (((uint32_t)object << PBD_PHASE_GROUP_SHIFT) & PBD_PHASE_GROUP_MASK) | PBD_PHASE_SELF | PBD_PHASE_FLUID;
	for (int64_t i = 0; i < n[0]; ++i) {
		for (int64_t j = 0; j < n[1]; ++j) {
			for (int64_t k = 0; k < n[2]; ++k) {
				const int32_t p = w->particleCount;
				pbd_Builder_AddParticle(w, def->lower[0] + ((float)i + 0.5f) * d, def->lower[1] + ((float)j + 0.5f) * d,
										def->lower[2] + ((float)k + 0.5f) * d, invMass);
				w->phase[p] = phase;
				w->v[4 * p + 0] = def->velocity[0];
				w->v[4 * p + 1] = def->velocity[1];
				w->v[4 * p + 2] = def->velocity[2];
			}
		}
	}
	/* The rest of the capacity, parked at the block's lower corner until an emitter needs it. */
	for (int32_t p = first + count; p < first + capacity; ++p) {
		pbd_Builder_AddParticle(w, def->lower[0], def->lower[1], def->lower[2], 0.0f);
		w->phase[p] = phase | PBD_PHASE_INACTIVE | PBD_PHASE_NO_COLLIDE;
	}
	/* water: no rest shape, paired by its own search, slipping along surfaces by fluid.friction */
	w->materials[object].radius = 0.5f * d;
	w->materials[object].flags = 0u;
	w->materials[object].frictionParam = pbdParam_fluidFriction;
	w->paramVersion += 1; /* a radius changed (core.h) */
	pbd_Builder_EndObject(w);
	w->objects[object].activeParticles = count;
	pbd_Fluid_AddObject(w, object, first, capacity, count);
	return first;
}
