/* services/boundary.h -- the walls: the ground plane and the kinematic colliders, as one thing any family may ask
   about and none owns. It holds the colliders' records (pbd_World_AddCollider and the rest of their API:
   boundary_api.c) and answers the query the fluid's density needs, the nearest wall to a point (Fluid walls,
   fluid.c): its distance, normal and velocity there (pbd_Walls_NearestMoving), from the wall table of a share of the colliders' motion. The colliders family (colliders.c) solves
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
	float invDt; ///< 1 / the step's dt: the colliders' motion over the step is their velocity
} pbdWalls;

/// The wall table with every collider at share `alpha` of its motion over the step (1: where it stands; the
/// step's substeps pass (substep + 1) / substeps). Writes the boundary's transforms: one table at a time.
pbdWalls pbd_Boundary_Walls(pbdWorld* world, float alpha);

/// Which wall pbd_Walls_NearestWall found: the ground, none, or else collider `wall` (0, 1, ...).
enum { pbdWall_ground = -1, pbdWall_none = -2 };

/// The nearest wall to `p` closer than `far`: its signed distance phi, in n its outward unit normal at the
/// closest surface point and in *wall which it is; `far`, n = 0 and pbdWall_none when there is none. The ground
/// first, then the colliders in order, a later one taken only when strictly nearer.
static inline float pbd_Walls_NearestWall(const pbdWalls* walls, const float p[3], float far, float n[3], int32_t* wall)
{
	float best = far;
	n[0] = n[1] = n[2] = 0.0f;
	*wall = pbdWall_none;
	if (walls->ground && p[1] - walls->groundY < best) {
		best = p[1] - walls->groundY;
		n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f;
		*wall = pbdWall_ground;
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
		*wall = c;
	}
	return best;
}

/// The two nearest walls to `p` closer than `far`, nearest first (a particle pressed between two, the ground and a
/// plate): the distance to each in phi[0], phi[1] and their outward normals in n[0..2], n[3..5]; `far` and a zero
/// normal for each there is not. Ties go to the earlier wall (the ground, then the colliders in order).
static inline void pbd_Walls_NearestTwo(const pbdWalls* walls, const float p[3], float far, float phi[2], float n[6])
{
	phi[0] = phi[1] = far;
	for (int k = 0; k < 6; ++k) n[k] = 0.0f;
	if (walls->ground && p[1] - walls->groundY < far) {
		phi[0] = p[1] - walls->groundY;
		n[1] = 1.0f;
	}
	for (int32_t c = 0; c < walls->count; ++c) {
		const pbdColliderInfo* s = &walls->colliders[c].shape;
		float q[3], nl[3], nw[3];
		ToLocal(&walls->xf[c], p, q);
		if (FarFromShape(s, q, 0.0f, phi[1] * phi[1])) continue;
		const float d = ShapeSdf(s, q, nl);
		if (!(d < phi[1])) continue;
		Rotate(&walls->xf[c], nl, nw);
		if (d < phi[0]) {
			phi[1] = phi[0], n[3] = n[0], n[4] = n[1], n[5] = n[2];
			phi[0] = d, n[0] = nw[0], n[1] = nw[1], n[2] = nw[2];
		} else {
			phi[1] = d, n[3] = nw[0], n[4] = nw[1], n[5] = nw[2];
		}
	}
}

/// pbd_Walls_NearestWall without saying which (the fluid's density: Fluid walls, fluid.c).
static inline float pbd_Walls_Nearest(const pbdWalls* walls, const float p[3], float far, float n[3])
{
	int32_t wall;
	return pbd_Walls_NearestWall(walls, p, far, n, &wall);
}

/// The rigid motion of collider c over the step, from its start-of-step transform (prev) to where it stands:
/// the linear velocity v = (c1 - c0) / dt of its centre and the angular velocity omega = 2 vec(q1 q0^-1) / dt
/// (the turn's quaternion on its shortest arc, as XPBD's rigid bodies take it: Mueller et al. 2020, "Detailed
/// Rigid Body Simulation with Extended Position Based Dynamics"), whose length is 2 sin(theta / 2) / dt for a
/// turn theta: theta / dt within a share theta^2 / 24. Both 0 once the step's end has made the transform prev.
/// + - * only, so every build gives the same bits.
static inline void pbd_Collider_Motion(const pbdCollider* c, float invDt, float v[3], float omega[3])
{
	const float* a = c->shape.rotation; /* q1 */
	const float* b = c->prevRotation;   /* q0 */
	/* q1 conj(q0): w = w1 w0 + v1 . v0, vec = w0 v1 - w1 v0 - v1 x v0 */
	const float dw = a[3] * b[3] + a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
	const float s = (dw < 0.0f ? -2.0f : 2.0f) * invDt;
	omega[0] = s * (b[3] * a[0] - a[3] * b[0] - (a[1] * b[2] - a[2] * b[1]));
	omega[1] = s * (b[3] * a[1] - a[3] * b[1] - (a[2] * b[0] - a[0] * b[2]));
	omega[2] = s * (b[3] * a[2] - a[3] * b[2] - (a[0] * b[1] - a[1] * b[0]));
	for (int k = 0; k < 3; ++k) v[k] = (c->shape.position[k] - c->prevPosition[k]) * invDt;
}

/// The velocity at `p` of wall `wall` (pbd_Walls_NearestWall's): the ground stands still and so does no wall;
/// collider c moves as its rigid motion over the step (pbd_Collider_Motion), v + omega x (p - centre), its
/// centre where the table puts it.
static inline void pbd_Walls_Velocity(const pbdWalls* walls, int32_t wall, const float p[3], float u[3])
{
	u[0] = u[1] = u[2] = 0.0f;
	if (wall < 0) return;
	float v[3], o[3];
	pbd_Collider_Motion(&walls->colliders[wall], walls->invDt, v, o);
	const float* c = walls->xf[wall].c;
	const float r[3] = { p[0] - c[0], p[1] - c[1], p[2] - c[2] };
	u[0] = v[0] + (o[1] * r[2] - o[2] * r[1]);
	u[1] = v[1] + (o[2] * r[0] - o[0] * r[2]);
	u[2] = v[2] + (o[0] * r[1] - o[1] * r[0]);
}

/// Distance, normal and velocity of the nearest wall at `p` (pbd_Walls_NearestWall, pbd_Walls_Velocity): the
/// boundary's one query.
static inline float pbd_Walls_NearestMoving(const pbdWalls* walls, const float p[3], float far, float n[3], float u[3])
{
	int32_t wall;
	const float phi = pbd_Walls_NearestWall(walls, p, far, n, &wall);
	pbd_Walls_Velocity(walls, wall, p, u);
	return phi;
}

#endif
