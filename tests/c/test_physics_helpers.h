/* test_physics_helpers.h -- helpers of the physics tests (test_projection.c, test_integration.c,
   test_robustness.c, test_instruments.c, test_knots.c, test_recovery.c): a world with everything off
   but what a closed form tests, a pair, a cloth, the built-in cloth's corner-pinned cloth, and a
   seeded random sequence. */
#ifndef PBD_TEST_PHYSICS_HELPERS_H
#define PBD_TEST_PHYSICS_HELPERS_H

#include "minipbd.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* xorshift32: the same sequence on every libc, unlike rand(). Each file has its own state, and
   each test that draws seeds it first, so no test depends on another's draws. */
static uint32_t s_rng = 1;
static inline void SeedRand(uint32_t seed) { s_rng = seed ? seed : 1; }
static inline uint32_t RandInt(void) { return TestXorshift32(&s_rng) & 0x7fffffff; }
static inline float Rand01(void) { return (float)(RandInt() >> 7) / (float)(1 << 24); }

static inline pbdWorldId MakeWorld(int particles, int constraints)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = constraints;
	pbdWorldId w = TestCreateWorld(&def);
	/* Closed-form tests switch everything off but what they test. */
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_thickness, 0.0001f); /* particles 0.05 mm in radius */
	return w;
}

static inline const float* X(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static inline const float* V(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL); }

/* A two-particle chain from a to b (rest length |b - a|). */
static inline int AddPair(pbdWorldId w, float ax, float ay, float az, float bx, float by, float bz)
{
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = ax, def.start[1] = ay, def.start[2] = az;
	def.end[0] = bx, def.end[1] = by, def.end[2] = bz;
	def.segments = 1;
	def.mass = 1.0f;
	return pbd_World_AddChain(w, &def);
}

static inline int AddCloth(pbdWorldId w, int nu, int nv, float y)
{
	pbdClothDef def = pbd_DefaultClothDef();
	def.origin[0] = -1.0f, def.origin[1] = y, def.origin[2] = 0.0f;
	def.axisU[0] = 2.0f, def.axisU[1] = 0.0f, def.axisU[2] = 0.0f;
	def.axisV[0] = 0.0f, def.axisV[1] = -2.0f, def.axisV[2] = 0.0f;
	def.resolutionU = nu;
	def.resolutionV = nv;
	def.mass = 0.01f;
	return pbd_World_AddCloth(w, &def);
}

/* The built-in "cloth" scene's cloth (web/js/format/builtin-scenes.js) on a grid of nu x nv: 2 m x 2 m,
   hanging in the xy plane from (-1, 2.5, 0), pinned at its two top corners where its grid puts
   them, at the scene's damping 0.05. The world is pbd_CreateWorld's, at the scene format's defaults
   (10 substeps x 1 pass, maxSpeed 100 m/s), not TestCreateWorld's 1 x 10; a substeps, iterations or
   maxSpeed above 0 sets that one (the built-in scene's own solver: test_knots.c), 0 keeps the default
   (test_recovery.c). */
static inline pbdWorldId CornerPinnedCloth(int nu, int nv, int substeps, int iterations, float maxSpeed)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = nu * nv;
	def.maxConstraints = 8 * nu * nv;
	pbdWorldId w = pbd_CreateWorld(&def);
	if (substeps > 0) pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
	if (iterations > 0) pbd_World_SetParam(w, pbdParam_iterations, (float)iterations);
	if (maxSpeed > 0.0f) pbd_World_SetParam(w, pbdParam_maxSpeed, maxSpeed);
	pbd_World_SetParam(w, pbdParam_damping, 0.05f);
	int first = AddCloth(w, nu, nv, 2.5f);
	pbd_World_SetInvMass(w, first, 0.0f);
	pbd_World_SetInvMass(w, first + nu - 1, 0.0f);
	return w;
}

#endif
