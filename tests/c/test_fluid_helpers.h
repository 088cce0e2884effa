/* test_fluid_helpers.h -- shared by test_fluid.c and test_fluid_coupling.c: a world with fluid, a
   tank of box colliders on the ground, and measures of the fluid's particles. */
#ifndef PBD_TEST_FLUID_HELPERS_H
#define PBD_TEST_FLUID_HELPERS_H

#include "test.h"

#include <string.h>

/* A world for fluid tests: fluid.spacing d = 0.02, h = 2 d, `substeps` x `passes` at 60 Hz. */
static inline pbdWorldId FluidWorld(int maxParticles, int maxFluid, int substeps, int passes)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = maxParticles;
	def.maxFluidParticles = maxFluid;
	def.maxColliders = 8;
	def.maxObjects = 16;
	def.maxTets = 4 * maxParticles;
	def.maxSkinVertices = maxParticles;
	def.maxSkinTriangles = 2 * maxParticles;
	pbdWorldId w = pbd_CreateWorld(&def);
	if (w <= 0) return w;
	pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
	pbd_World_SetParam(w, pbdParam_iterations, (float)passes);
	return w;
}

/* Four box walls around [0, L] x [0, D] in x and z, height H, on the ground (y = 0); frictionless, or with
   the colliders' default materials. */
static inline void FluidWalls(pbdWorldId w, float L, float D, float H, int frictionless)
{
	const float t = 0.1f;
	const float boxes[4][6] = {
		{ -t, 0.5f * H, 0.5f * D, t, 0.5f * H, 0.5f * D + t },
		{ L + t, 0.5f * H, 0.5f * D, t, 0.5f * H, 0.5f * D + t },
		{ 0.5f * L, 0.5f * H, -t, 0.5f * L + t, 0.5f * H, t },
		{ 0.5f * L, 0.5f * H, D + t, 0.5f * L + t, 0.5f * H, t },
	};
	for (int k = 0; k < 4; ++k) {
		pbdColliderDef c = pbd_DefaultColliderDef();
		c.type = pbdShape_box;
		c.position[0] = boxes[k][0], c.position[1] = boxes[k][1], c.position[2] = boxes[k][2];
		c.halfExtents[0] = boxes[k][3], c.halfExtents[1] = boxes[k][4], c.halfExtents[2] = boxes[k][5];
		if (frictionless) c.staticFriction = c.kineticFriction = 0.0f;
		pbd_World_AddCollider(w, &c);
	}
}

/* A frictionless tank: FluidWalls, and the ground's and the fluid's friction 0. */
static inline void FluidTank(pbdWorldId w, float L, float D, float H)
{
	FluidWalls(w, L, D, H, 1);
	/* Water slips along glass: with static friction the particles touching the floor and the walls
	   stick and the water above them piles up like sand (a 0.16 m column settled with a 7 cm spread). */
	pbd_World_SetParam(w, pbdParam_staticFriction, 0.0f);
	pbd_World_SetParam(w, pbdParam_kineticFriction, 0.0f);
	pbd_World_SetParam(w, pbdParam_fluidFriction, 0.0f);
}

static inline int AddFluidBlock(pbdWorldId w, float x0, float y0, float z0, float x1, float y1, float z1, int capacity)
{
	pbdFluidDef f = pbd_DefaultFluidDef();
	f.lower[0] = x0, f.lower[1] = y0, f.lower[2] = z0;
	f.upper[0] = x1, f.upper[1] = y1, f.upper[2] = z1;
	f.capacity = capacity;
	return pbd_World_AddFluid(w, &f);
}

/* Live particles [first, first + count) of fluid object `object`. */
static inline int FluidRange(pbdWorldId w, int object, int* first)
{
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, object, &info);
	*first = info.firstParticle;
	return info.activeParticles;
}

/* Smallest distance between two of the particles [first, first + n), brute force. */
static inline double FluidClosestPair(const float* x, int first, int n)
{
	double best = 1e30;
	for (int i = first; i < first + n; ++i) {
		for (int j = i + 1; j < first + n; ++j) {
			const double dx = x[4 * i] - x[4 * j], dy = x[4 * i + 1] - x[4 * j + 1], dz = x[4 * i + 2] - x[4 * j + 2];
			const double d2 = dx * dx + dy * dy + dz * dz;
			if (d2 < best) best = d2;
		}
	}
	return sqrt(best);
}

#endif
