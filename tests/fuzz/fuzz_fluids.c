/* fuzz_fluids.c -- the fluid calls of the API fuzzer: fluid blocks, emitters (added or reset) and
   drains, with hostile numbers. A refusal must leave every world as it was (Result); an accepted
   call must do what it says: the block's particles appear in one range of its capacity, an
   emitter or drain count grows by one. The step's checks (fuzz_world.c) cover what they do later:
   finite, inside the bound, no faster than maxSpeed, whatever the fluid settings (OpSetParam
   sets fluid.* to any value its range allows, and past it). */
#include "fuzz_world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V3 "(%g, %g, %g)"
#define A3(v) (double)(v)[0], (double)(v)[1], (double)(v)[2]

void OpAddFluid(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t flags = FuzzU8(&f->in), mask = FuzzU8(&f->in);
	pbdFluidDef def = pbd_DefaultFluidDef();
	def.upper[0] = def.upper[1] = def.upper[2] = 0.1f; /* 125 particles at the default spacing */
	if (mask & 1) Floats(f, def.lower, 3);
	if (mask & 2) Floats(f, def.upper, 3);
	if (mask & 4) Floats(f, def.velocity, 3);
	if (mask & 8) def.capacity = ReadCount(f);
	else if (mask & 16) def.capacity = 125 + FuzzU8(&f->in);
	if (flags & 1) def.internalValue = 0;
	const pbdFluidDef* arg = (flags & 2) ? NULL : &def;
	const int before = Particles(world);
	int rc = pbd_World_AddFluid(world, arg);
	Trace("AddFluid(w%d, %slower " V3 " upper " V3 " velocity " V3 " capacity %d) -> %d", world, arg ? "" : "NULL ", A3(def.lower),
		  A3(def.upper), A3(def.velocity), def.capacity, rc);
	if (Result(f, rc, world, 0, "AddFluid") < 0) return;
	FUZZ_CHECK(rc == before, "AddFluid returned %d, not the first new particle %d", rc, before);
	const int objects = pbd_World_GetObjectCount(world);
	pbdObjectInfo info;
	FUZZ_CHECK(pbd_World_GetObjectInfo(world, objects - 1, &info) == PBD_OK && info.type == PBD_OBJECT_FLUID,
			   "AddFluid made no fluid object");
	FUZZ_CHECK(info.firstParticle == rc && info.activeParticles >= 0 && info.activeParticles <= info.particleCount &&
				   Particles(world) == before + info.particleCount,
			   "AddFluid: object range %d + %d, %d live, particles %d -> %d", info.firstParticle, info.particleCount,
			   info.activeParticles, before, Particles(world));
}

void OpAddEmitter(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t flags = FuzzU8(&f->in), mask = FuzzU8(&f->in);
	pbdEmitterDef def = pbd_DefaultEmitterDef();
	def.object = FuzzU8(&f->in) % 4;
	def.position[1] = 0.3f;
	if (mask & 1) Floats(f, def.position, 3);
	if (mask & 2) Floats(f, def.direction, 3);
	if (mask & 4) def.speed = FuzzFloat(&f->in);
	if (mask & 8) def.radius = FuzzFloat(&f->in);
	if (mask & 16) def.enabled = FuzzU8(&f->in) & 1;
	if (flags & 1) def.internalValue = 0;
	const pbdEmitterDef* arg = (flags & 2) ? NULL : &def;
	const int count = pbd_World_GetEmitterCount(world);
	const int reset = (flags & 4) != 0;
	const int which = FuzzU8(&f->in) % 9;
	int rc = reset ? pbd_World_SetEmitter(world, which, arg) : pbd_World_AddEmitter(world, arg);
	Trace("%s(w%d, %d, %sobject %d position " V3 " direction " V3 " speed %g radius %g enabled %d) -> %d",
		  reset ? "SetEmitter" : "AddEmitter", world, which, arg ? "" : "NULL ", def.object, A3(def.position), A3(def.direction),
		  (double)def.speed, (double)def.radius, def.enabled, rc);
	if (Result(f, rc, world, 0, reset ? "SetEmitter" : "AddEmitter") < 0) return;
	if (reset) {
		FUZZ_CHECK(rc == PBD_OK && which < count && pbd_World_GetEmitterCount(world) == count, "SetEmitter(%d) of %d -> %d", which,
				   count, rc);
		return;
	}
	FUZZ_CHECK(rc == count && pbd_World_GetEmitterCount(world) == count + 1 && count < PBD_MAX_EMITTERS,
			   "AddEmitter returned %d with %d emitters", rc, count);
	FUZZ_CHECK(def.speed > 0.0f && def.speed <= 50.0f && def.radius <= 1.0f && isfinite(def.position[0]),
			   "AddEmitter accepted speed %g radius %g", (double)def.speed, (double)def.radius);
}

void OpAddDrain(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	float lower[3] = { -1.0f, -1.0f, -1.0f }, upper[3] = { 1.0f, 0.02f, 1.0f };
	uint8_t mask = FuzzU8(&f->in);
	if (mask & 1) Floats(f, lower, 3);
	if (mask & 2) Floats(f, upper, 3);
	const int count = pbd_World_GetDrainCount(world);
	int rc = pbd_World_AddDrain(world, lower, upper);
	Trace("AddDrain(w%d, " V3 ", " V3 ") -> %d", world, A3(lower), A3(upper), rc);
	if (Result(f, rc, world, 0, "AddDrain") < 0) return;
	FUZZ_CHECK(rc == count && pbd_World_GetDrainCount(world) == count + 1, "AddDrain returned %d with %d drains", rc, count);
	for (int k = 0; k < 3; ++k) FUZZ_CHECK(lower[k] <= upper[k] && InBound(lower) && InBound(upper), "AddDrain accepted an upside-down box");
}
