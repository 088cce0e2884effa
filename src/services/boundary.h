/* services/boundary.h -- the walls: the ground plane and the kinematic colliders, as one thing any family may ask
   about and none owns. It holds the colliders' records (pbd_World_AddCollider and the rest of their API:
   boundary_api.c) and answers the query the fluid's density needs, the nearest wall to a point (Fluid walls,
   fluid.c), from the wall table of a share of the colliders' motion. The colliders family (colliders.c) solves
   particles against the same records; the ground family (ground.c) reads the plane here. The ground's parameters
   (groundEnabled, groundHeight) have their owner "boundary" in minipbd.h's table.

   Storage: the records and the table's transforms, maxColliders of each, carved from the pool
   (pbd_Boundary_Bytes, pbd_Boundary_Create): no fixed cap on the walls a fluid sees (there was one: "the first
   64 colliders count as walls"). The colliders family's create carves it, as the family that holds the capacity,
   until the world's create carves services of its own. */
#ifndef PBD_BOUNDARY_H
#define PBD_BOUNDARY_H

#include "services/collider_shapes.h"
#include "world/core.h"

/// A kinematic collider: its shape now and its transform at the start of the step, so the colliders' solve
/// can interpolate the motion per substep and friction can follow it.
typedef struct pbdCollider {
	pbdColliderInfo shape;
	float prevPosition[3];
	float prevRotation[4];
} pbdCollider;

typedef struct pbdBoundary {
	pbdCollider* colliders;
	int32_t count, capacity;
	pbdXf* xf; ///< per collider: the wall table's transforms (pbd_Boundary_Walls)
} pbdBoundary;

/// The boundary of a world (world->boundary).
static inline pbdBoundary* pbd_Boundary(const pbdWorld* world) { return world->boundary; }

size_t pbd_Boundary_Bytes(int32_t maxColliders);
/// Carves the boundary for `maxColliders` colliders and sets world->boundary; 0 if the pool is short.
int pbd_Boundary_Create(pbdWorld* world, pbdPool* pool, int32_t maxColliders);

/// The ground plane: 1 and its height when it is enabled (parameters groundEnabled, groundHeight).
static inline int pbd_Boundary_Ground(const pbdWorld* world, float* height)
{
	*height = world->params[pbdParam_groundHeight];
	return world->params[pbdParam_groundEnabled] != 0.0f;
}

/// The walls at one share of the colliders' motion: what pbd_Walls_Nearest reads.
typedef struct pbdWalls {
	int32_t ground;
	float groundY;
	const pbdCollider* colliders;
	const pbdXf* xf;
	int32_t count;
} pbdWalls;

/// The wall table with every collider at share `alpha` of its motion over the step (1: where it stands; the
/// step's substeps pass (substep + 1) / substeps). Writes the boundary's transforms: one table at a time.
pbdWalls pbd_Boundary_Walls(pbdWorld* world, float alpha);

/// The nearest wall to `p` closer than `far`: its signed distance phi, and in n its outward unit normal at the
/// closest surface point; `far` and n = 0 when there is none. The ground first, then the colliders in order,
/// a later one taken only when strictly nearer.
static inline float pbd_Walls_Nearest(const pbdWalls* walls, const float p[3], float far, float n[3])
{
	float best = far;
	n[0] = n[1] = n[2] = 0.0f;
	if (walls->ground && p[1] - walls->groundY < best) {
		best = p[1] - walls->groundY;
		n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
	}
	for (int32_t c = 0; c < walls->count; ++c) {
		const pbdColliderInfo* s = &walls->colliders[c].shape;
		float q[3], nl[3];
		ToLocal(&walls->xf[c], p, q);
		if (FarFromShape(s, q, 0.0f, best * best)) continue;
		const float phi = ShapeSdf(s, q, nl);
		if (!(phi < best)) continue;
		best = phi;
		Rotate(&walls->xf[c], nl, n);
	}
	return best;
}

#endif
