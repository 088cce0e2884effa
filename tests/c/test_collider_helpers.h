/* test_collider_helpers.h -- helpers of the collider tests (test_collider_api.c, _shapes.c,
   _friction.c, _edges.c): worlds, a lone 1 kg particle, cloths and shapes, and test-side
   distances and rotations (computed here, not by the engine). */
#ifndef PBD_TEST_COLLIDER_HELPERS_H
#define PBD_TEST_COLLIDER_HELPERS_H

#include "minipbd.h"
#include "test.h"

#include <stdint.h>
#include <string.h>

#define PI 3.14159265358979323846

static inline pbdWorldId MakeWorld(int particles, int constraints)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = constraints;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	return w;
}

static inline const float* X(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static inline const float* V(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL); }

/* One free particle of 1 kg. Its chain partner is pinned 100 m straight above and the
   constraint between them has stiffness 0, so it never acts; tethers are switched off. */
static inline int AddParticle(pbdWorldId w, float x, float y, float z)
{
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = x, def.start[1] = y, def.start[2] = z;
	def.end[0] = x, def.end[1] = y + 100.0f, def.end[2] = z;
	def.segments = 1;
	def.mass = 1.0f;
	int first = pbd_World_AddChain(w, &def);
	pbd_World_SetInvMass(w, first + 1, 0.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	return first;
}

static inline int AddCloth(pbdWorldId w, const float origin[3], const float u[3], const float v[3], int nu, int nv)
{
	pbdClothDef def = pbd_DefaultClothDef();
	memcpy(def.origin, origin, sizeof def.origin);
	memcpy(def.axisU, u, sizeof def.axisU);
	memcpy(def.axisV, v, sizeof def.axisV);
	def.resolutionU = nu;
	def.resolutionV = nv;
	def.mass = 0.01f;
	return pbd_World_AddCloth(w, &def);
}

static inline int AddSphere(pbdWorldId w, float x, float y, float z, float radius)
{
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = pbdShape_sphere;
	def.position[0] = x, def.position[1] = y, def.position[2] = z;
	def.radius = radius;
	return pbd_World_AddCollider(w, &def);
}

static inline int AddBox(pbdWorldId w, const float pos[3], const float q[4], float hx, float hy, float hz)
{
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = pbdShape_box;
	memcpy(def.position, pos, sizeof def.position);
	memcpy(def.rotation, q, sizeof def.rotation);
	def.halfExtents[0] = hx, def.halfExtents[1] = hy, def.halfExtents[2] = hz;
	return pbd_World_AddCollider(w, &def);
}

static inline float Radius(pbdWorldId w) { return 0.5f * pbd_World_GetParam(w, pbdParam_thickness); }

/* Smallest surface distance of particles [first, first + count) to collider c. */
static inline float MinDistance(pbdWorldId w, int c, int first, int count)
{
	const float* x = X(w);
	float best = 3.4e38f;
	for (int i = first; i < first + count; ++i) {
		float d = pbd_World_ColliderDistance(w, c, x[4 * i], x[4 * i + 1], x[4 * i + 2]);
		if (d < best) best = d;
	}
	return best;
}

/* Distance from point c to the segment a b. */
static inline float SegmentDistance(const float* a, const float* b, const float* c)
{
	float e[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	float f[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	float ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
	float t = ee > 0.0f ? (e[0] * f[0] + e[1] * f[1] + e[2] * f[2]) / ee : 0.0f;
	if (t < 0.0f) t = 0.0f;
	if (t > 1.0f) t = 1.0f;
	float d[3] = { a[0] + t * e[0] - c[0], a[1] + t * e[1] - c[1], a[2] + t * e[2] - c[2] };
	return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Smallest distance from point c to any live stretch edge of the world's first cloth. */
static inline float MinEdgeDistance(pbdWorldId w, const float* c)
{
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, 0, &info);
	const float* x = X(w);
	int nu = info.resolutionU, nv = info.resolutionV, first = info.firstParticle;
	float best = 3.4e38f;
	for (int j = 0; j < nv; ++j) {
		for (int i = 0; i < nu; ++i) {
			int a = first + j * nu + i;
			if (i + 1 < nu) {
				float d = SegmentDistance(x + 4 * a, x + 4 * (a + 1), c);
				if (d < best) best = d;
			}
			if (j + 1 < nv) {
				float d = SegmentDistance(x + 4 * a, x + 4 * (a + nu), c);
				if (d < best) best = d;
			}
		}
	}
	return best;
}

/* Rotation by angle about a unit axis, computed in double (test-side, not the engine's). */
static inline void AxisAngle(float ax, float ay, float az, double angle, float q[4])
{
	double s = sin(0.5 * angle);
	q[0] = (float)(ax * s), q[1] = (float)(ay * s), q[2] = (float)(az * s), q[3] = (float)cos(0.5 * angle);
}

#endif
