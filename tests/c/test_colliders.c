/* Collider tests: contact, friction and restitution against closed forms, no tunnelling
   of particles and cloth edges, the API's validation. Each would fail if the physics
   were wrong: a particle left inside, a Coulomb threshold off, a bounce of the wrong
   size, an edge through a sphere. */
#include "minipbd.h"
#include "test.h"

#include <stdint.h>
#include <string.h>

#define PI 3.14159265358979323846

static pbdWorldId MakeWorld(int particles, int constraints)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = constraints;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	return w;
}

static const float* X(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static const float* V(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL); }

/* One free particle of 1 kg. Its chain partner is pinned 100 m straight above and the
   constraint between them has stiffness 0, so it never acts; tethers are switched off. */
static int AddParticle(pbdWorldId w, float x, float y, float z)
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

static int AddCloth(pbdWorldId w, const float origin[3], const float u[3], const float v[3], int nu, int nv)
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

static int AddSphere(pbdWorldId w, float x, float y, float z, float radius)
{
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = pbdShape_sphere;
	def.position[0] = x, def.position[1] = y, def.position[2] = z;
	def.radius = radius;
	return pbd_World_AddCollider(w, &def);
}

static int AddBox(pbdWorldId w, const float pos[3], const float q[4], float hx, float hy, float hz)
{
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = pbdShape_box;
	memcpy(def.position, pos, sizeof def.position);
	memcpy(def.rotation, q, sizeof def.rotation);
	def.halfExtents[0] = hx, def.halfExtents[1] = hy, def.halfExtents[2] = hz;
	return pbd_World_AddCollider(w, &def);
}

static float Radius(pbdWorldId w) { return 0.5f * pbd_World_GetParam(w, pbdParam_thickness); }

static float Speed(const float* v) { return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Smallest surface distance of particles [first, first + count) to collider c. */
static float MinDistance(pbdWorldId w, int c, int first, int count)
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
static float SegmentDistance(const float* a, const float* b, const float* c)
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

/* Distance between segments a b and c d, by dense sampling of the first (test-side
   reference, independent of the engine's closed form). */
static float SegmentSegmentDistance(const float* a, const float* b, const float* c, const float* d)
{
	float best = 3.4e38f;
	for (int k = 0; k <= 40; ++k) {
		float t = (float)k / 40.0f;
		float q[3] = { a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]) };
		float dist = SegmentDistance(c, d, q);
		if (dist < best) best = dist;
	}
	return best;
}

/* Smallest distance from point c to any live stretch edge of the world's first cloth. */
static float MinEdgeDistance(pbdWorldId w, const float* c)
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
static void AxisAngle(float ax, float ay, float az, double angle, float q[4])
{
	double s = sin(0.5 * angle);
	q[0] = (float)(ax * s), q[1] = (float)(ay * s), q[2] = (float)(az * s), q[3] = (float)cos(0.5 * angle);
}

/* ---------------------------------------------------------------- API */

void Test_ColliderBadDefRefused(void)
{
	pbdWorldId w = MakeWorld(16, 16);
	AddParticle(w, 0, 1, 0);
	ENSURE(AddSphere(w, 0, 0, 0, 0.5f) == 0);
	for (int s = 0; s < 3; ++s) pbd_World_Step(w);
	uint32_t hash = pbd_World_Hash(w);
	pbdColliderInfo before;
	ENSURE(pbd_World_GetColliderInfo(w, 0, &before) == PBD_OK);

	ENSURE(pbd_World_AddCollider(w, NULL) == PBD_ERR_BAD_DEF);
	pbdColliderDef zero;
	memset(&zero, 0, sizeof zero);
	zero.radius = 1.0f;
	zero.rotation[3] = 1.0f;
	ENSURE(pbd_World_AddCollider(w, &zero) == PBD_ERR_BAD_DEF);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "pbd_DefaultColliderDef") != NULL);
	ENSURE(pbd_World_AddCollider(0, &zero) == PBD_ERR_INVALID_WORLD);

	pbdColliderDef d;
#define REFUSED(setup, code, words)                                              \
	do {                                                                         \
		d = pbd_DefaultColliderDef();                                            \
		setup;                                                                   \
		ENSURE(pbd_World_AddCollider(w, &d) == (code));                          \
		ENSURE(strstr(pbd_World_GetLastErrorMessage(w), (words)) != NULL);              \
	} while (0)
	REFUSED(d.type = -1, PBD_ERR_INVALID_ARGUMENT, "type");
	REFUSED(d.type = pbdShape_count, PBD_ERR_INVALID_ARGUMENT, "type");
	REFUSED(d.position[1] = NAN, PBD_ERR_NOT_FINITE, "position[1]");
	REFUSED(d.position[2] = INFINITY, PBD_ERR_NOT_FINITE, "position[2]");
	REFUSED(d.position[0] = 2e5f, PBD_ERR_INVALID_ARGUMENT, "position[0]");
	REFUSED(d.rotation[3] = 0.0f, PBD_ERR_INVALID_ARGUMENT, "zero quaternion");
	REFUSED(d.rotation[0] = NAN, PBD_ERR_NOT_FINITE, "rotation");
	REFUSED(d.rotation[2] = -INFINITY, PBD_ERR_NOT_FINITE, "rotation");
	REFUSED(d.radius = 0.0f, PBD_ERR_INVALID_ARGUMENT, "radius");
	REFUSED(d.radius = -1.0f, PBD_ERR_INVALID_ARGUMENT, "radius");
	REFUSED(d.radius = 2e4f, PBD_ERR_INVALID_ARGUMENT, "radius");
	REFUSED(d.radius = NAN, PBD_ERR_NOT_FINITE, "radius");
	REFUSED((d.type = pbdShape_capsule, d.radius = 0.0f), PBD_ERR_INVALID_ARGUMENT, "radius");
	REFUSED((d.type = pbdShape_capsule, d.halfHeight = 0.0f), PBD_ERR_INVALID_ARGUMENT, "halfHeight");
	REFUSED((d.type = pbdShape_capsule, d.halfHeight = 1e5f), PBD_ERR_INVALID_ARGUMENT, "halfHeight");
	REFUSED((d.type = pbdShape_box, d.halfExtents[2] = 0.0f), PBD_ERR_INVALID_ARGUMENT, "halfExtents[2]");
	REFUSED((d.type = pbdShape_box, d.halfExtents[0] = INFINITY), PBD_ERR_NOT_FINITE, "halfExtents[0]");
	REFUSED(d.staticFriction = -0.1f, PBD_ERR_INVALID_ARGUMENT, "staticFriction");
	REFUSED(d.staticFriction = 10.5f, PBD_ERR_INVALID_ARGUMENT, "staticFriction");
	REFUSED(d.kineticFriction = NAN, PBD_ERR_NOT_FINITE, "kineticFriction");
	REFUSED(d.kineticFriction = -1.0f, PBD_ERR_INVALID_ARGUMENT, "kineticFriction");
	REFUSED(d.restitution = 1.5f, PBD_ERR_INVALID_ARGUMENT, "restitution");
	REFUSED(d.restitution = -0.01f, PBD_ERR_INVALID_ARGUMENT, "restitution");
#undef REFUSED

	/* nothing above changed the world */
	ENSURE(pbd_World_GetColliderCount(w) == 1);
	ENSURE(pbd_World_Hash(w) == hash);
	pbdColliderInfo after;
	ENSURE(pbd_World_GetColliderInfo(w, 0, &after) == PBD_OK);
	ENSURE(memcmp(&before, &after, sizeof before) == 0);
	/* and the same step from here as a world that never saw them */
	pbd_World_Step(w);
	ENSURE(pbd_World_GetColliderCount(w) == 1);

	/* sizes a shape does not use are not checked: a box with radius 0 is fine */
	d = pbd_DefaultColliderDef();
	d.type = pbdShape_box;
	d.radius = 0.0f;
	d.halfHeight = -3.0f;
	d.position[1] = -5.0f;
	ENSURE(pbd_World_AddCollider(w, &d) == 1);
	/* the boundaries themselves are accepted */
	d = pbd_DefaultColliderDef();
	d.radius = 1e4f;
	d.position[0] = -1e5f;
	d.staticFriction = 10.0f;
	d.kineticFriction = 0.0f;
	d.restitution = 1.0f;
	ENSURE(pbd_World_AddCollider(w, &d) == 2);
	pbd_DestroyWorld(w);
}

void Test_ColliderCapacityRefused(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 8;
	def.maxColliders = 2;
	pbdWorldId w = TestCreateWorld(&def);
	AddParticle(w, 0, 3, 0);
	ENSURE(AddSphere(w, 0, 0, 0, 0.5f) == 0);
	ENSURE(AddSphere(w, 5, 0, 0, 0.5f) == 1);
	pbd_World_Step(w);
	uint32_t hash = pbd_World_Hash(w);
	ENSURE(AddSphere(w, 9, 0, 0, 0.5f) == PBD_ERR_COLLIDER_CAPACITY);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "collider capacity") != NULL);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "2") != NULL);
	ENSURE(pbd_World_GetColliderCount(w) == 2);
	ENSURE(pbd_World_Hash(w) == hash);
	pbd_DestroyWorld(w);
	/* the default is 8 */
	pbdWorldId w2 = MakeWorld(8, 8);
	for (int i = 0; i < 8; ++i) ENSURE(AddSphere(w2, (float)i, 0, 0, 0.5f) == i);
	ENSURE(AddSphere(w2, 9, 0, 0, 0.5f) == PBD_ERR_COLLIDER_CAPACITY);
	pbd_DestroyWorld(w2);
}

void Test_ColliderInfoAndTransform(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = pbdShape_capsule;
	def.position[0] = 1.0f, def.position[1] = 2.0f, def.position[2] = 3.0f;
	def.rotation[0] = 0.0f, def.rotation[1] = 0.0f, def.rotation[2] = 0.0f, def.rotation[3] = 2.0f; /* not unit */
	def.radius = 0.25f;
	def.halfHeight = 0.75f;
	def.staticFriction = 0.9f;
	def.kineticFriction = 0.7f;
	def.restitution = 0.3f;
	ENSURE(pbd_World_AddCollider(w, &def) == 0);
	pbdColliderInfo info;
	ENSURE(pbd_World_GetColliderInfo(w, 0, &info) == PBD_OK);
	ENSURE(info.type == pbdShape_capsule);
	ENSURE(info.position[0] == 1.0f && info.position[1] == 2.0f && info.position[2] == 3.0f);
	ENSURE(info.rotation[0] == 0.0f && info.rotation[1] == 0.0f && info.rotation[2] == 0.0f && info.rotation[3] == 1.0f);
	ENSURE(info.radius == 0.25f && info.halfHeight == 0.75f);
	ENSURE(info.halfExtents[0] == 0.0f && info.halfExtents[1] == 0.0f && info.halfExtents[2] == 0.0f); /* unused */
	ENSURE(info.staticFriction == 0.9f && info.kineticFriction == 0.7f && info.restitution == 0.3f);

	ENSURE(pbd_World_SetColliderTransform(w, 0, -1.0f, 0.5f, 4.0f, 1.0f, 1.0f, 1.0f, 1.0f) == PBD_OK);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &info) == PBD_OK);
	ENSURE(info.position[0] == -1.0f && info.position[1] == 0.5f && info.position[2] == 4.0f);
	for (int k = 0; k < 4; ++k) ENSURE_NEAR(info.rotation[k], 0.5f, 1e-7);
	/* huge and tiny quaternions normalise without overflow or underflow */
	ENSURE(pbd_World_SetColliderTransform(w, 0, 0, 0, 0, 3e38f, 0.0f, 0.0f, 0.0f) == PBD_OK);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &info) == PBD_OK);
	ENSURE(info.rotation[0] == 1.0f && info.rotation[3] == 0.0f);
	ENSURE(pbd_World_SetColliderTransform(w, 0, 0, 0, 0, 0.0f, 1e-40f, 0.0f, 1e-40f) == PBD_OK);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &info) == PBD_OK);
	ENSURE_NEAR(info.rotation[1], sqrtf(0.5f), 1e-7);
	ENSURE_NEAR(info.rotation[3], sqrtf(0.5f), 1e-7);

	/* refused transforms leave the collider as it was */
	pbdColliderInfo kept = info;
	ENSURE(pbd_World_SetColliderTransform(w, 1, 0, 0, 0, 0, 0, 0, 1) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_SetColliderTransform(w, -1, 0, 0, 0, 0, 0, 0, 1) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_SetColliderTransform(w, 0, NAN, 0, 0, 0, 0, 0, 1) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetColliderTransform(w, 0, 0, 0, -3e5f, 0, 0, 0, 1) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetColliderTransform(w, 0, 0, 0, 0, 0, 0, 0, 0) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetColliderTransform(w, 0, 0, 0, 0, 0, INFINITY, 0, 1) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetColliderTransform(0, 0, 0, 0, 0, 0, 0, 0, 1) == PBD_ERR_INVALID_WORLD);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &info) == PBD_OK);
	ENSURE(memcmp(&kept, &info, sizeof info) == 0);

	ENSURE(pbd_World_GetColliderInfo(w, 1, &info) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_GetColliderInfo(w, 0, NULL) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(isnan(pbd_World_ColliderDistance(w, 1, 0, 0, 0)));
	ENSURE(isnan(pbd_World_ColliderDistance(w, 0, NAN, 0, 0)));
	ENSURE(isnan(pbd_World_ColliderDistance(0, 0, 0, 0, 0)));
	ENSURE(pbd_World_GetColliderCount(w) == 1);
	ENSURE(pbd_World_GetColliderCount(0) == PBD_ERR_INVALID_WORLD);
	pbd_DestroyWorld(w);
}

void Test_ColliderDistanceAnalytic(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	ENSURE(AddSphere(w, 1, 2, 3, 0.5f) == 0);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, 1, 2, 4), 0.5f, 1e-6);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, 1, 2, 3), -0.5f, 1e-6);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, 4, 6, 3), 4.5f, 1e-6);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, 1.2f, 2, 3), -0.3f, 1e-6);

	/* capsule lying along world x: rotated 90 degrees about z (local y -> world -x) */
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.25f;
	cap.halfHeight = 1.0f;
	AxisAngle(0, 0, 1, PI / 2, cap.rotation);
	ENSURE(pbd_World_AddCollider(w, &cap) == 1);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 1, 0.5f, 1.0f, 0.0f), 0.75f, 1e-5);  /* over the side */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 1, 0.3f, 0.0f, -2.0f), 1.75f, 1e-5); /* beside it */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 1, 2.0f, 0.0f, 0.0f), 0.75f, 1e-5);  /* past the cap */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 1, -5.0f, 3.0f, 0.0f), 4.75f, 1e-5); /* 3-4-5 from the other cap */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 1, 0.0f, 0.0f, 0.0f), -0.25f, 1e-5);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 1, 0.9f, 0.1f, 0.0f), -0.15f, 1e-5);

	/* box rotated 90 degrees about y: local (a, b, c) is world (c, b, -a) */
	float pos[3] = { 0, 0, 0 }, q[4];
	AxisAngle(0, 1, 0, PI / 2, q);
	ENSURE(AddBox(w, pos, q, 1.0f, 0.5f, 0.25f) == 2);
#define LOCAL(a, b, c) (c), (b), -(a)
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 2, LOCAL(2.0f, 1.0f, 0.5f)), sqrt(1.0 + 0.25 + 0.0625), 1e-5); /* corner */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 2, LOCAL(1.5f, 0.9f, 0.0f)), sqrt(0.25 + 0.16), 1e-5);       /* edge */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 2, LOCAL(0.0f, 0.0f, 1.0f)), 0.75f, 1e-5);                     /* face */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 2, LOCAL(0.9f, 0.1f, 0.0f)), -0.1f, 1e-5);                     /* inside: nearest face */
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 2, LOCAL(0.0f, 0.0f, 0.0f)), -0.25f, 1e-5);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 2, LOCAL(-0.5f, -0.45f, 0.1f)), -0.05f, 1e-5);
#undef LOCAL
	/* a moved collider is measured where it is now */
	ENSURE(pbd_World_SetColliderTransform(w, 0, 0, 10, 0, 0, 0, 0, 1) == PBD_OK);
	ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, 0, 12, 0), 1.5f, 1e-6);
	pbd_DestroyWorld(w);
}

void Test_ColliderRayCast(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	float t = 0.0f;
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, -1, &t) == -1); /* no colliders */
	ENSURE(t == -1.0f);
	ENSURE(AddSphere(w, 0, 0, -5, 1.0f) == 0);
	float pos[3] = { 0, 0, -10 }, id[4] = { 0, 0, 0, 1 };
	ENSURE(AddBox(w, pos, id, 3.0f, 3.0f, 3.0f) == 1);
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.position[0] = 10.0f;
	cap.radius = 0.5f;
	cap.halfHeight = 2.0f;
	ENSURE(pbd_World_AddCollider(w, &cap) == 2);

	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, -1, &t) == 0); /* the sphere is in front of the box */
	ENSURE_NEAR(t, 4.0f, 1e-5);
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, -7, &t) == 0); /* t is a distance, whatever |d| */
	ENSURE_NEAR(t, 4.0f, 1e-5);
	ENSURE(pbd_World_RayCastColliders(w, 2, 0, 0, 0, 0, -1, &t) == 1); /* beside the sphere: the box face */
	ENSURE_NEAR(t, 7.0f, 1e-5);
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, -5, 0, 0, -1, &t) == 1); /* from inside the sphere: seen through */
	ENSURE_NEAR(t, 2.0f, 1e-5);
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, 1, &t) == -1); /* away from everything */
	/* sphere grazing at an angle: from (0, 0, 0) toward (0, 0.6, -5): hits at the analytic root */
	{
		float dy = 0.6f, dz = -5.0f, len = sqrtf(dy * dy + dz * dz);
		double uy = dy / len, uz = dz / len;
		double b = 5.0 * -uz; /* (c - o) . u with c = (0, 0, -5) */
		double expect = b - sqrt(b * b - (25.0 - 1.0));
		ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, dy, dz, &t) == 0);
		ENSURE_NEAR(t, expect, 1e-4);
		(void)uy;
	}
	/* capsule: its side from -x, its top cap from above */
	ENSURE(pbd_World_RayCastColliders(w, 5, 1, 0, 1, 0, 0, &t) == 2);
	ENSURE_NEAR(t, 4.5f, 1e-5);
	ENSURE(pbd_World_RayCastColliders(w, 10, 10, 0, 0, -1, 0, &t) == 2);
	ENSURE_NEAR(t, 7.5f, 1e-5);
	ENSURE(pbd_World_RayCastColliders(w, 10.3f, 10, 0, 0, -1, 0, &t) == 2);
	ENSURE_NEAR(t, 8.0 - sqrt(0.25 - 0.09), 1e-5);
	/* a rotated box: 45 degrees about z, seen along -y from above its corner edge */
	float q[4];
	AxisAngle(0, 0, 1, PI / 4, q);
	float bpos[3] = { 0, 0, 20 };
	ENSURE(AddBox(w, bpos, q, 1.0f, 1.0f, 1.0f) == 3);
	ENSURE(pbd_World_RayCastColliders(w, 0, 10, 20, 0, -1, 0, &t) == 3);
	ENSURE_NEAR(t, 10.0 - sqrt(2.0), 1e-5);
	/* bad rays */
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, 0, &t) == -1);
	ENSURE(pbd_World_RayCastColliders(w, NAN, 0, 0, 0, 0, -1, &t) == -1);
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, -INFINITY, &t) == -1);
	ENSURE(pbd_World_RayCastColliders(0, 0, 0, 0, 0, 0, -1, &t) == -1);
	ENSURE(pbd_World_RayCastColliders(w, 0, 0, 0, 0, 0, -1, NULL) == 0); /* t is optional */
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- contact */

/* A particle dropped on a shape ends at rest touching it: surface distance r (the
   particle radius) within 1% of the thickness, never below it on the way, and still. */
static void DropAndRest(pbdWorldId w, int particle, int collider, float expectX, float expectY, float expectZ, float tolXZ)
{
	const float r = Radius(w), tol = 0.02f * r; /* 1% of the thickness */
	for (int s = 0; s < 240; ++s) {
		pbd_World_Step(w);
		ENSURE(MinDistance(w, collider, particle, 1) >= r - tol);
	}
	const float* x = X(w) + 4 * particle;
	ENSURE_NEAR(pbd_World_ColliderDistance(w, collider, x[0], x[1], x[2]), r, tol);
	ENSURE(Speed(V(w) + 4 * particle) < 1e-3f);
	ENSURE_NEAR(x[0], expectX, tolXZ);
	ENSURE_NEAR(x[1], expectY, 2e-3);
	ENSURE_NEAR(x[2], expectZ, tolXZ);
}

void Test_ParticleRestsOnSphere(void)
{
	/* a little off the top: static friction (mu_s 0.5 > tan 5.7 deg) keeps it where it lands */
	pbdWorldId w = MakeWorld(8, 8);
	ENSURE(AddSphere(w, 0, 0, 0, 0.5f) == 0);
	int p = AddParticle(w, 0.05f, 1.5f, 0.0f);
	float rho = 0.5f + Radius(w);
	/* the impact's projection along the normal moves it out a few mm; it stays there */
	DropAndRest(w, p, 0, 0.05f, sqrtf(rho * rho - 0.05f * 0.05f), 0.0f, 0.01f);
	pbd_DestroyWorld(w);
	/* and with a thick particle (r = 5 cm) */
	w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_thickness, 0.1f);
	ENSURE(AddSphere(w, 1, 0, 0, 0.5f) == 0);
	p = AddParticle(w, 1.0f, 2.0f, 0.0f);
	DropAndRest(w, p, 0, 1.0f, 0.55f, 0.0f, 1e-5f);
	pbd_DestroyWorld(w);
}

void Test_ParticleRestsOnCapsule(void)
{
	/* lying along x (90 degrees about z), dropped onto its side and onto its cap */
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.2f;
	cap.halfHeight = 0.5f;
	cap.position[1] = 1.0f;
	AxisAngle(0, 0, 1, PI / 2, cap.rotation);
	ENSURE(pbd_World_AddCollider(w, &cap) == 0);
	int p = AddParticle(w, 0.3f, 2.0f, 0.0f);
	DropAndRest(w, p, 0, 0.3f, 1.2f + Radius(w), 0.0f, 1e-4f);
	pbd_DestroyWorld(w);

	w = MakeWorld(8, 8);
	cap.rotation[0] = cap.rotation[1] = cap.rotation[2] = 0.0f, cap.rotation[3] = 1.0f; /* upright */
	ENSURE(pbd_World_AddCollider(w, &cap) == 0);
	p = AddParticle(w, 0.0f, 3.0f, 0.0f);
	DropAndRest(w, p, 0, 0.0f, 1.7f + Radius(w), 0.0f, 1e-5f);
	pbd_DestroyWorld(w);
}

void Test_ParticleRestsOnBox(void)
{
	/* turned 30 degrees about y, so the local frame matters; the top face stays level */
	pbdWorldId w = MakeWorld(8, 8);
	float pos[3] = { 0.0f, 0.5f, 0.0f }, q[4];
	AxisAngle(0, 1, 0, PI / 6, q);
	ENSURE(AddBox(w, pos, q, 0.5f, 0.25f, 0.5f) == 0);
	int p = AddParticle(w, 0.1f, 2.0f, 0.2f);
	DropAndRest(w, p, 0, 0.1f, 0.75f + Radius(w), 0.2f, 1e-4f);
	pbd_DestroyWorld(w);
}

/* The test: a 30 x 30 cloth dropped on a sphere settles over it with no particle
   inside sphere + r by more than 1% of the thickness, and no edge through the sphere. */
void Test_ClothSettlesOnSphere(void)
{
	pbdWorldId w = MakeWorld(1000, 8000);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_groundHeight, -0.6f);
	const float R = 0.4f;
	float centre[3] = { 0.0f, 0.0f, 0.0f };
	ENSURE(AddSphere(w, centre[0], centre[1], centre[2], R) == 0);
	float origin[3] = { -0.75f, 0.8f, -0.75f }, u[3] = { 1.5f, 0, 0 }, v[3] = { 0, 0, 1.5f };
	int first = AddCloth(w, origin, u, v, 30, 30);
	ENSURE(first == 0);
	const int n = 900;
	const float r = Radius(w), tol = 0.02f * r;
	float worst = 3.4e38f, worstEdge = 3.4e38f;
	float midBefore[3] = { 0, 0, 0 };
	const int mid = first + 15 * 30 + 15;
	for (int s = 0; s < 600; ++s) {
		pbd_World_Step(w);
		float d = MinDistance(w, 0, first, n);
		if (d < worst) worst = d;
		float e = MinEdgeDistance(w, centre);
		if (e < worstEdge) worstEdge = e;
		if (s == 499) memcpy(midBefore, X(w) + 4 * mid, sizeof midBefore);
	}
	ENSURE(worst >= r - tol);
	ENSURE(worstEdge >= R);
	/* it lies on the sphere: some particles touch it (the edges, kept out too, lift the
	   particles of a 5 cm grid by up to sqrt(rho^2 + (L/2)^2) - rho = 0.8 mm) */
	ENSURE(MinDistance(w, 0, first, n) <= r + 0.002f);
	/* it has come to rest, draped over the top, and does not creep (friction holds) */
	float fastest = 0.0f;
	for (int i = 0; i < n; ++i) {
		float sp = Speed(V(w) + 4 * i);
		if (sp > fastest) fastest = sp;
	}
	ENSURE(fastest < 0.05f);
	const float* top = X(w) + 4 * mid;
	ENSURE(top[1] > R);
	for (int k = 0; k < 3; ++k) ENSURE_NEAR(top[k], midBefore[k], 1e-3);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- friction */

/* A particle at rest on the top face of a box tilted by theta slides iff mu_s < tan theta
   (Coulomb; positional friction: the tangential travel g h^2 sin theta against mu_s times
   the depth g h^2 cos theta). Returns how far it went along the slope in 60 steps. */
static float SlideOnTiltedBox(float theta, float muS, float muK)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef box = pbd_DefaultColliderDef();
	box.type = pbdShape_box;
	box.halfExtents[0] = 5.0f, box.halfExtents[1] = 0.1f, box.halfExtents[2] = 5.0f;
	AxisAngle(0, 0, 1, theta, box.rotation);
	box.staticFriction = muS;
	box.kineticFriction = muK;
	pbd_World_AddCollider(w, &box);
	/* on the top face at local (0, 0.1 + r, 0) */
	float h = 0.1f + Radius(w);
	float px = (float)(-sin(theta) * h), py = (float)(cos(theta) * h);
	int p = AddParticle(w, px, py, 0.0f);
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	const float* x = X(w) + 4 * p;
	float along = (float)((x[0] - px) * cos(theta) + (x[1] - py) * sin(theta)); /* up the slope */
	float off = pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) - Radius(w);
	pbd_DestroyWorld(w);
	return fabsf(off) < 1e-4f ? -along : NAN; /* NAN if it left the face */
}

void Test_ColliderStaticFrictionThreshold(void)
{
	const double theta = 20.0 * PI / 180.0; /* tan = 0.364 */
	float held = SlideOnTiltedBox((float)theta, 0.40f, 0.30f);
	ENSURE(isfinite(held) && fabsf(held) < 1e-5f);
	float slid = SlideOnTiltedBox((float)theta, 0.33f, 0.30f);
	ENSURE(isfinite(slid) && slid > 0.01f);
	float steeper = SlideOnTiltedBox((float)(30.0 * PI / 180.0), 0.5f, 0.4f); /* tan 30 = 0.577 > 0.5 */
	ENSURE(isfinite(steeper) && steeper > 0.01f);
	float flat = SlideOnTiltedBox((float)(30.0 * PI / 180.0), 0.6f, 0.4f);
	ENSURE(isfinite(flat) && fabsf(flat) < 1e-5f);
}

/* Sliding, the particle accelerates at g (sin - mu_k cos) down the slope: after n steps
   of semi-implicit Euler it has gone a h^2 n (n + 1) / 2. */
void Test_ColliderKineticFrictionClosedForm(void)
{
	const double theta = 25.0 * PI / 180.0, g = 9.81, h = 1.0 / 60.0;
	const double muKs[] = { 0.0, 0.2, 0.4 };
	for (int k = 0; k < 3; ++k) {
		float slid = SlideOnTiltedBox((float)theta, 0.0f, (float)muKs[k]);
		double a = g * (sin(theta) - muKs[k] * cos(theta));
		double expect = a * h * h * 60.0 * 61.0 / 2.0;
		ENSURE(isfinite(slid));
		ENSURE_NEAR(slid, expect, 0.01 * expect + 1e-5);
	}
}

/* A box sliding sideways under a resting particle carries it (friction acts on the motion
   relative to the collider's surface): the particle ends up moving with it. */
void Test_ColliderFrictionCarries(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	ENSURE(AddBox(w, pos, id, 1.0f, 0.1f, 1.0f) == 0);
	int p = AddParticle(w, 0.0f, 0.1f + Radius(w), 0.0f);
	const float U = 0.5f, dt = pbd_World_GetParam(w, pbdParam_dt);
	float bx = 0.0f;
	for (int s = 0; s < 90; ++s) {
		bx += U * dt;
		ENSURE(pbd_World_SetColliderTransform(w, 0, bx, 0, 0, 0, 0, 0, 1) == PBD_OK);
		pbd_World_Step(w);
		const float* x = X(w) + 4 * p;
		ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
	}
	const float* x = X(w) + 4 * p;
	ENSURE_NEAR(V(w)[4 * p], U, 1e-3);      /* moving with the box */
	ENSURE_NEAR(V(w)[4 * p + 1], 0.0f, 1e-3); /* and still on it */
	float rel = x[0] - bx;
	/* kinetic while it catches up (mu_k g = 3.9 m/s^2: 0.13 s), static after */
	for (int s = 0; s < 30; ++s) {
		bx += U * dt;
		pbd_World_SetColliderTransform(w, 0, bx, 0, 0, 0, 0, 0, 1);
		pbd_World_Step(w);
	}
	ENSURE_NEAR(X(w)[4 * p] - bx, rel, 1e-4);
	ENSURE(rel < 0.0f && rel > -0.05f); /* it lagged a little while it slipped */
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- restitution */

/* A particle hitting a collider at speed u leaves it at e u along the normal. */
void Test_ColliderRestitution(void)
{
	const float es[] = { 0.0f, 0.5f, 0.8f, 1.0f };
	for (int shape = 0; shape < 3; ++shape) {
		for (int k = 0; k < 4; ++k) {
			pbdWorldId w = MakeWorld(8, 8);
			pbdColliderDef def = pbd_DefaultColliderDef();
			def.type = shape;
			def.radius = 0.5f;
			def.halfHeight = 0.5f;
			def.restitution = es[k];
			def.position[1] = -0.5f; /* top surface at y = 0 for all three */
			if (shape == pbdShape_capsule) {
				def.position[1] = -0.5f;
				AxisAngle(1, 0, 0, PI / 2, def.rotation); /* lying along z */
			}
			pbd_World_AddCollider(w, &def);
			int p = AddParticle(w, 0.0f, Radius(w) + 0.001f, 0.0f);
			pbd_World_SetVelocity(w, p, 0.0f, -4.0f, 0.0f);
			pbd_World_Step(w); /* hits during this step at 4 + g dt */
			float impact = 4.0f + 9.81f / 60.0f;
			ENSURE(MinDistance(w, 0, p, 1) >= Radius(w) - 1e-5f);
			ENSURE_NEAR(V(w)[4 * p + 1], es[k] * impact, 0.01 * impact * es[k] + 1e-4);
			ENSURE_NEAR(V(w)[4 * p], 0.0f, 1e-4);
			/* the bounce then rises to about (e u)^2 / 2g */
			if (es[k] > 0.0f) {
				float top = -1.0f;
				for (int s = 0; s < 120; ++s) {
					pbd_World_Step(w);
					if (X(w)[4 * p + 1] > top) top = X(w)[4 * p + 1];
				}
				float rise = es[k] * impact * es[k] * impact / (2.0f * 9.81f);
				ENSURE_NEAR(top - Radius(w), rise, 0.05f * rise + 0.01f);
			}
			pbd_DestroyWorld(w);
		}
	}
}

/* A paddle moving up at U into a particle at rest sends it off at (1 + e) U: restitution
   acts on the velocity relative to the collider. */
void Test_ColliderRestitutionMovingPaddle(void)
{
	const float es[] = { 0.0f, 0.5f, 1.0f };
	for (int k = 0; k < 3; ++k) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		pbdColliderDef def = pbd_DefaultColliderDef();
		def.type = pbdShape_box;
		def.halfExtents[0] = 1.0f, def.halfExtents[1] = 0.05f, def.halfExtents[2] = 1.0f;
		def.restitution = es[k];
		def.position[1] = -0.05f - 0.02f; /* top 2 cm below the particle's contact height */
		pbd_World_AddCollider(w, &def);
		int p = AddParticle(w, 0.0f, Radius(w), 0.0f);
		const float U = 3.0f, dt = pbd_World_GetParam(w, pbdParam_dt);
		float y = def.position[1];
		y += U * dt;
		pbd_World_SetColliderTransform(w, 0, 0, y, 0, 0, 0, 0, 1); /* 5 cm this step: it hits */
		pbd_World_Step(w);
		ENSURE_NEAR(V(w)[4 * p + 1], (1.0f + es[k]) * U, 0.01f * U);
		ENSURE(MinDistance(w, 0, p, 1) >= Radius(w) - 1e-5f);
		pbd_DestroyWorld(w);
	}
}

/* ---------------------------------------------------------------- tunnelling */

/* A 1 cm plate: a particle at 60 m/s (1 m per step) and a plate at 60 m/s into a resting
   particle both end on the side they started, with one substep and with four. */
void Test_ThinBoxNoTunnelling(void)
{
	for (int substeps = 1; substeps <= 4; substeps *= 4) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		pbdColliderDef plate = pbd_DefaultColliderDef();
		plate.type = pbdShape_box;
		plate.halfExtents[0] = 2.0f, plate.halfExtents[1] = 0.005f, plate.halfExtents[2] = 2.0f;
		plate.staticFriction = plate.kineticFriction = 10.0f; /* it stops where it lands: on the plate */
		AxisAngle(0, 0, 1, 0.3, plate.rotation);         /* tilted, so the local frame matters */
		ENSURE(pbd_World_AddCollider(w, &plate) == 0);
		const float up[3] = { (float)-sin(0.3), (float)cos(0.3), 0.0f }; /* the plate's normal */
		int p = AddParticle(w, 0.0f, 0.5f, 0.0f);
		pbd_World_SetVelocity(w, p, 0.0f, -60.0f, 0.0f);
		for (int s = 0; s < 30; ++s) {
			pbd_World_Step(w);
			const float* x = X(w) + 4 * p;
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
			ENSURE(x[0] * up[0] + x[1] * up[1] > 0.0f); /* on the side it came from */
		}
		pbd_DestroyWorld(w);
	}
	for (int substeps = 1; substeps <= 4; substeps *= 4) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		float pos[3] = { 0, -0.3f, 0 }, id[4] = { 0, 0, 0, 1 };
		ENSURE(AddBox(w, pos, id, 2.0f, 0.005f, 2.0f) == 0);
		int p = AddParticle(w, 0.1f, 0.0f, 0.0f);
		const float dt = pbd_World_GetParam(w, pbdParam_dt);
		float y = pos[1];
		for (int s = 0; s < 10; ++s) {
			y += 60.0f * dt;
			pbd_World_SetColliderTransform(w, 0, 0, y, 0, 0, 0, 0, 1);
			pbd_World_Step(w);
			const float* x = X(w) + 4 * p;
			ENSURE(x[1] > y); /* carried on top, not left behind */
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
		}
		ENSURE_NEAR(V(w)[4 * p + 1], 60.0f, 0.5f);
		pbd_DestroyWorld(w);
	}
	/* starting already within r of the plate (pushed there, say, by its cloth) and thrown
	   through it: it keeps to the side it started on */
	for (int substeps = 1; substeps <= 4; substeps *= 4) {
		pbdWorldId w = MakeWorld(8, 8);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
		ENSURE(AddBox(w, pos, id, 2.0f, 0.005f, 2.0f) == 0);
		int p = AddParticle(w, 0.0f, 0.005f + 0.6f * Radius(w), 0.0f);
		pbd_World_SetVelocity(w, p, 0.0f, -60.0f, 0.0f);
		for (int s = 0; s < 5; ++s) {
			pbd_World_Step(w);
			const float* x = X(w) + 4 * p;
			ENSURE(x[1] > 0.0f);
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
		}
		pbd_DestroyWorld(w);
	}
	/* a small sphere thrown at 30 m/s (0.5 m per step, ten radii) at a particle on its path:
	   the step that reaches it ends with the centre 2 cm past the particle's place, yet the
	   particle is in front of it, and rides there */
	pbdWorldId w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	ENSURE(AddSphere(w, -0.98f, 0.0f, 0.0f, 0.05f) == 0);
	int p = AddParticle(w, 0.0f, 0.0f, 0.0f);
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	float sx = -0.98f;
	for (int s = 0; s < 20; ++s) {
		sx += 30.0f * dt;
		pbd_World_SetColliderTransform(w, 0, sx, 0, 0, 0, 0, 0, 1);
		pbd_World_Step(w);
		const float* x = X(w) + 4 * p;
		ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
		ENSURE(x[0] > sx); /* in front of it */
	}
	ENSURE_NEAR(V(w)[4 * p], 30.0f, 0.1f);
	pbd_DestroyWorld(w);
}

/* Particles are balls of radius r, so a box is felt rounded by r at its edges and corners:
   a particle gliding diagonally past a vertical edge at 1.2 r is not touched (a square-
   cornered box grown by r would reach to 1.41 r), one at 0.8 r is deflected. */
static float PassBoxEdge(float clearance)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	AddBox(w, pos, id, 0.5f, 0.5f, 0.5f);
	/* along (1, 0, -1) / sqrt 2, closest to the edge x = z = 0.5 at distance clearance */
	const float r = Radius(w), c = clearance * r / sqrtf(2.0f), s0 = 0.2f;
	int p = AddParticle(w, 0.5f + c - s0, 0.0f, 0.5f + c + s0);
	const float v = 1.0f / sqrtf(2.0f);
	pbd_World_SetVelocity(w, p, v, 0.0f, -v);
	for (int s = 0; s < 30; ++s) pbd_World_Step(w);
	float turn = fabsf(V(w)[4 * p] - v) + fabsf(V(w)[4 * p + 2] + v);
	pbd_DestroyWorld(w);
	return turn;
}

void Test_BoxEdgesAreRounded(void)
{
	ENSURE(PassBoxEdge(1.2f) < 1e-4f); /* untouched (v = (p - x) / h rounds by ~3e-6) */
	ENSURE(PassBoxEdge(0.8f) > 1e-2f); /* touched */
}

/* Seed 000's projection for the edge constraint C = |q - s| - rho, q = (1-t) p_a + t p_b:
   dp_a = w_a (1-t) (-C) n / (w_a (1-t)^2 + w_b t^2), dp_b likewise with w_b t. A rope
   segment lying across the top of a small sphere, ends 1 and 4 kg, off-centre (t = 0.3):
   one projection puts q on the surface and splits the move by those weights. */
void Test_EdgeProjectionMassWeighted(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	const float R = 0.1f, r = Radius(w), rho = R + r, y = 0.05f;
	ENSURE(AddSphere(w, 0, 0, 0, R) == 0);
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = -0.3f, def.start[1] = y;
	def.end[0] = 0.7f, def.end[1] = y;
	def.segments = 1;
	int a = pbd_World_AddChain(w, &def), b = a + 1;
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.0f); /* only the collider acts */
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	pbd_World_SetMass(w, a, 1.0f);
	pbd_World_SetMass(w, b, 4.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f); /* one projection: then the tilted edge's closest point moves */
	pbd_World_Step(w);
	const double wa = 1.0, wb = 0.25, t = 0.3, C = y - rho;
	const double denom = wa * (1 - t) * (1 - t) + wb * t * t;
	const float* x = X(w);
	ENSURE_NEAR(x[4 * a + 1], y - wa * (1 - t) * C / denom, 1e-5);
	ENSURE_NEAR(x[4 * b + 1], y - wb * t * C / denom, 1e-5);
	ENSURE_NEAR(x[4 * a], -0.3f, 1e-6); /* straight up: the normal at the closest point */
	ENSURE_NEAR(x[4 * b], 0.7f, 1e-6);
	/* the point at t is on the surface now */
	float q[3];
	for (int k = 0; k < 3; ++k) q[k] = (float)((1 - t) * x[4 * a + k] + t * x[4 * b + k]);
	ENSURE_NEAR(sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]), rho, 1e-5);
	pbd_DestroyWorld(w);
}

/* A sphere swept at 10 m/s into a hanging 20 x 20 cloth: no edge ever passes through it,
   and the cloth in its path stays in front of it. */
void Test_MovingSphereSweepsCloth(void)
{
	pbdWorldId w = MakeWorld(400, 4000);
	float origin[3] = { -1.0f, 2.0f, 0.0f }, u[3] = { 2.0f, 0, 0 }, v[3] = { 0, -2.0f, 0 };
	int first = AddCloth(w, origin, u, v, 20, 20);
	for (int i = 0; i < 20; ++i) pbd_World_SetInvMass(w, first + i, 0.0f); /* top row pinned */
	const float R = 0.15f, r = Radius(w);
	/* start so that the sphere's front is 3 mm short of the cloth at the start of a step:
	   that step carries it 16.7 cm, past the cloth plane by more than its radius */
	const float dt = pbd_World_GetParam(w, pbdParam_dt), speed = 10.0f;
	float c[3] = { 0.03f, 1.02f, -(R + r + 0.003f) - 3.0f * speed * dt };
	ENSURE(AddSphere(w, c[0], c[1], c[2], R) == 0);
	int front = 0;
	for (int s = 0; s < 60; ++s) {
		if (c[2] < 0.45f) c[2] += speed * dt;
		ENSURE(pbd_World_SetColliderTransform(w, 0, c[0], c[1], c[2], 0, 0, 0, 1) == PBD_OK);
		pbd_World_Step(w);
		ENSURE(MinEdgeDistance(w, c) >= R);
		ENSURE(MinDistance(w, 0, first, 400) >= r - 0.02f * r);
		const float* x = X(w);
		for (int i = first; i < first + 400; ++i) {
			float dx = x[4 * i] - c[0], dy = x[4 * i + 1] - c[1];
			if (dx * dx + dy * dy < 0.8f * R * 0.8f * R) {
				ENSURE(x[4 * i + 2] > c[2]); /* in the sphere's path: ahead of it */
				front += 1;
			}
		}
	}
	ENSURE(front > 0); /* the cloth was in its path */
	ENSURE(c[2] > 0.4f); /* and the sphere did go far past the cloth's rest plane */
	pbd_DestroyWorld(w);
}

/* A pointer drag: a cloth's top corners pulled at 4 m/s across a bar (a capsule about as
   thick as the cloth's cells) lying in its way, just below the corners. The cloth has to
   slide up and over it; no edge may cut through. Without the edge test the bar threads
   straight through the cloth between its particles. */
void Test_ClothDraggedOverCapsule(void)
{
	pbdWorldId w = MakeWorld(400, 4000);
	float origin[3] = { -0.8f, 1.3f, -0.6f }, u[3] = { 1.6f, 0, 0 }, v[3] = { 0, -1.6f, 0 };
	int first = AddCloth(w, origin, u, v, 20, 20); /* cells 8.4 cm */
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.08f;
	cap.halfHeight = 1.5f;
	cap.position[1] = 1.0f;
	AxisAngle(0, 0, 1, PI / 2, cap.rotation); /* along x, across the cloth's path */
	ENSURE(pbd_World_AddCollider(w, &cap) == 0);
	pbdAttachmentId a = pbd_World_AddAttachment(w, first, origin[0], origin[1], origin[2], 1.0f);
	pbdAttachmentId b = pbd_World_AddAttachment(w, first + 19, origin[0] + 1.6f, origin[1], origin[2], 1.0f);
	ENSURE(a > 0 && b > 0);
	const float dt = pbd_World_GetParam(w, pbdParam_dt), r = Radius(w);
	float z = origin[2];
	const float core0[3] = { -1.5f, 1.0f, 0.0f }, core1[3] = { 1.5f, 1.0f, 0.0f };
	int touching = 0;
	for (int s = 0; s < 90; ++s) {
		if (z < 1.5f) z += 4.0f * dt;
		pbd_World_MoveAttachment(w, a, origin[0], origin[1], z);
		pbd_World_MoveAttachment(w, b, origin[0] + 1.6f, origin[1], z);
		pbd_World_Step(w);
		float d = MinDistance(w, 0, first, 400);
		ENSURE(d >= r - 0.02f * r);
		touching += d < r + 0.005f;
		/* every edge against the capsule's core segment */
		const float* x = X(w);
		for (int j = 0; j < 20; ++j) {
			for (int i = 0; i < 20; ++i) {
				int p = first + j * 20 + i;
				if (i + 1 < 20) ENSURE(SegmentSegmentDistance(x + 4 * p, x + 4 * (p + 1), core0, core1) >= cap.radius - 1e-4f);
				if (j + 1 < 20) ENSURE(SegmentSegmentDistance(x + 4 * p, x + 4 * (p + 20), core0, core1) >= cap.radius - 1e-4f);
			}
		}
	}
	ENSURE(touching >= 5); /* it did drag over the bar for a while */
	/* and it went over: the whole cloth is past the bar now */
	const float* x = X(w);
	for (int i = first; i < first + 400; ++i) ENSURE(x[4 * i + 2] > 0.0f);
	pbd_DestroyWorld(w);
}

/* An edge thrown at a small sphere that lies between its two particles, fast enough to
   carry the edge past the sphere's centre in one step (0.15 m against a radius of 0.1):
   at the end of that step the closest point says "behind", but the edge came from the
   front, and that is where it must stay. */
void Test_EdgeCannotJumpPastSmallSphere(void)
{
	for (int substeps = 1; substeps <= 2; ++substeps) {
		pbdWorldId w = MakeWorld(8, 32);
		pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
		pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
		const float R = 0.1f, r = Radius(w);
		ENSURE(AddSphere(w, 0, 0, 0, R) == 0);
		/* a 2 x 3 cloth whose middle edge runs along x at y = 0, 1.5 cm short of the sphere;
		   the rows at y = +-0.5 pass beside it, so the edge stays caught, symmetric */
		const float speed = 9.0f * (float)substeps, z0 = -(R + r) - 0.015f;
		float origin[3] = { -0.5f, 0.5f, z0 }, u[3] = { 1.0f, 0, 0 }, v[3] = { 0, -1.0f, 0 };
		int first = AddCloth(w, origin, u, v, 2, 3);
		for (int i = 0; i < 6; ++i) pbd_World_SetVelocity(w, first + i, 0.0f, 0.0f, speed);
		const float centre[3] = { 0, 0, 0 };
		for (int s = 0; s < 20; ++s) {
			pbd_World_Step(w);
			const float* x = X(w);
			const float *a = x + 4 * (first + 2), *b = x + 4 * (first + 3);
			ENSURE(SegmentDistance(a, b, centre) >= R);
			ENSURE(0.5f * (a[2] + b[2]) < 0.0f); /* the middle edge is still in front */
		}
		pbd_DestroyWorld(w);
	}
}

/* A thin paddle spinning at 6 rad/s through a row of particles: the rotation is
   interpolated per substep and no particle is left inside it. */
void Test_RotatingPaddleKeepsParticlesOut(void)
{
	pbdWorldId w = MakeWorld(64, 64);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 2.0f);
	float pos[3] = { 0, 0, 0 }, id[4] = { 0, 0, 0, 1 };
	ENSURE(AddBox(w, pos, id, 1.0f, 0.01f, 0.3f) == 0);
	int first = -1;
	for (int i = 0; i < 10; ++i) {
		int p = AddParticle(w, 0.1f + 0.09f * (float)i, 0.1f, 0.0f);
		if (first < 0) first = p;
	}
	const float dt = pbd_World_GetParam(w, pbdParam_dt);
	for (int s = 0; s < 40; ++s) {
		float q[4];
		AxisAngle(0, 0, 1, 6.0 * dt * (s + 1), q);
		pbd_World_SetColliderTransform(w, 0, 0, 0, 0, q[0], q[1], q[2], q[3]);
		pbd_World_Step(w);
		/* the paddle in the plane z = 0 at angle a: local x = (cos a, sin a), local y = (-sin a, cos a) */
		double a = 6.0 * dt * (s + 1);
		float ax = (float)cos(a), ay = (float)sin(a);
		for (int i = 0; i < 10; ++i) {
			const float* x = X(w) + 4 * (first + 2 * i);
			ENSURE(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]) >= Radius(w) - 1e-4f);
			/* within the paddle's reach, on its leading face: counter-clockwise, that is
			   local +y beside the +x arm and local -y beside the -x arm */
			float lx = x[0] * ax + x[1] * ay, ly = -x[0] * ay + x[1] * ax;
			if (lx * lx + ly * ly < 0.95f * 0.95f) ENSURE(ly * lx > 0.0f);
		}
	}
	ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- robustness */

static uint32_t s_rng = 1;
static uint32_t RandInt(void) { return TestXorshift32(&s_rng) & 0x7fffffff; }
static float RandRange(float lo, float hi) { return lo + (hi - lo) * (float)(RandInt() >> 7) / (float)(1 << 24); }

void Test_ColliderHostileFuzzFinite(void)
{
	s_rng = 29;
	for (int trial = 0; trial < 30; ++trial) {
		pbdWorldId w = MakeWorld(300, 3000);
		pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
		float origin[3] = { RandRange(-2, 2), RandRange(-2, 2), RandRange(-2, 2) }, u[3] = { 1, 0, 0 }, v[3] = { 0, 0, 1 };
		AddCloth(w, origin, u, v, 10, 10);
		pbdChainDef chain = pbd_DefaultChainDef();
		chain.segments = 20;
		chain.mass = 1e-6f;
		pbd_World_AddChain(w, &chain);
		for (int c = 0; c < 4; ++c) {
			pbdColliderDef def = pbd_DefaultColliderDef();
			def.type = (int)(RandInt() % 3);
			for (int k = 0; k < 3; ++k) def.position[k] = RandRange(-2, 2);
			for (int k = 0; k < 4; ++k) def.rotation[k] = RandRange(-1, 1);
			def.radius = RandRange(1e-4f, 2.0f);
			def.halfHeight = RandRange(1e-4f, 2.0f);
			for (int k = 0; k < 3; ++k) def.halfExtents[k] = RandRange(1e-4f, 2.0f);
			def.restitution = RandRange(0, 1);
			def.staticFriction = RandRange(0, 10);
			def.kineticFriction = RandRange(0, 10);
			pbd_World_AddCollider(w, &def);
		}
		int n = pbd_World_GetParticleCount(w);
		for (int op = 0; op < 150; ++op) {
			int i = (int)(RandInt() % (uint32_t)n);
			switch (RandInt() % 8) {
			case 0:
				pbd_World_SetColliderTransform(w, (int)(RandInt() % 4), RandRange(-1e5f, 1e5f), RandRange(-3, 3), RandRange(-3, 3),
											   RandRange(-1, 1), RandRange(-1, 1), RandRange(-1, 1), RandRange(-1, 1));
				break;
			case 1:
				pbd_World_SetColliderTransform(w, (int)(RandInt() % 4), RandRange(-2, 2), RandRange(-2, 2), RandRange(-2, 2),
											   RandRange(-1, 1), RandRange(-1, 1), RandRange(-1, 1), RandRange(-1, 1));
				break;
			case 2: pbd_World_SetInvMass(w, i, RandInt() % 2 ? 0.0f : 1e6f); break;
			case 3: pbd_World_SetPosition(w, i, RandRange(-3, 3), RandRange(-3, 3), RandRange(-3, 3)); break;
			case 4: pbd_World_SetVelocity(w, i, RandRange(-1e4f, 1e4f), RandRange(-1e4f, 1e4f), 3); break;
			case 5: pbd_World_SetParam(w, pbdParam_thickness, RandRange(0.0001f, 1.0f)); break;
			case 6: pbd_World_SetParam(w, pbdParam_substeps, (float)(1 + RandInt() % 4)); break;
			default: pbd_World_Step(w); break;
			}
			ENSURE(TestAllFinite(w));
		}
		pbd_DestroyWorld(w);
	}
}

/* Same inputs, same bits on every build (native SIMD, scalar, sanitizers, wasm): a scene
   with every shape, a moving and rotating collider, restitution and a cloth over them. */
#define PBD_COLLIDER_DETERMINISM_HASH 0x20471342u
void Test_ColliderDeterminismHash(void)
{
	pbdWorldId w = MakeWorld(1200, 12000);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 2.0f);
	/* the chain falls onto the cloth: with collisions between objects (on by default since they
	   exist) the hash would move; they have their own tests and hash (test_self_collision.c) */
	pbd_World_SetParam(w, pbdParam_collisions, 0.0f);
	float origin[3] = { -0.8f, 1.2f, -0.8f }, u[3] = { 1.6f, 0, 0 }, v[3] = { 0, 0, 1.6f };
	int first = AddCloth(w, origin, u, v, 24, 24);
	pbd_World_SetInvMass(w, first, 0.0f);
	ENSURE(AddSphere(w, 0.2f, 0.5f, 0.1f, 0.3f) == 0);
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.1f;
	cap.halfHeight = 0.6f;
	cap.position[0] = -0.4f, cap.position[1] = 0.3f;
	cap.restitution = 0.5f;
	AxisAngle(0.6f, 0.0f, 0.8f, 1.1, cap.rotation);
	ENSURE(pbd_World_AddCollider(w, &cap) == 1);
	float bpos[3] = { 0.5f, 0.15f, -0.4f }, q[4];
	AxisAngle(0, 1, 0, 0.4, q);
	ENSURE(AddBox(w, bpos, q, 0.3f, 0.15f, 0.2f) == 2);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 1.5f;
	chain.end[0] = 0.5f;
	chain.end[1] = 1.6f;
	chain.segments = 25;
	pbd_World_AddChain(w, &chain);
	for (int s = 0; s < 150; ++s) {
		float angle = 0.02f * (float)s;
		float qr[4] = { 0.0f, 0.1f * angle, 0.0f, 1.0f }; /* normalised by the engine */
		pbd_World_SetColliderTransform(w, 0, 0.2f + 0.005f * (float)s, 0.5f, 0.1f - 0.004f * (float)s, qr[0], qr[1], qr[2], qr[3]);
		pbd_World_Step(w);
	}
	uint32_t hash = pbd_World_Hash(w);
	printf("  collider determinism hash 0x%08x\n", hash);
	ENSURE(TestAllFinite(w));
	ENSURE(hash == PBD_COLLIDER_DETERMINISM_HASH);
	pbd_DestroyWorld(w);
}

/* pbd_World_SetColliderMaterial: a live change reaches the next contact (the bounce follows
   the new restitution, e u), and refused values change nothing. */
void Test_ColliderMaterialSetLive(void)
{
	pbdWorldId w = MakeWorld(8, 8);
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.radius = 0.5f;
	def.position[1] = -0.5f; /* top at y = 0 */
	ENSURE(pbd_World_AddCollider(w, &def) == 0);
	int p = AddParticle(w, 0.0f, Radius(w) + 0.001f, 0.0f);
	pbdColliderInfo before, after;
	ENSURE(pbd_World_GetColliderInfo(w, 0, &before) == PBD_OK);
	uint32_t hash = pbd_World_Hash(w);
	ENSURE(pbd_World_SetColliderMaterial(w, 1, 0.5f, 0.4f, 0.5f) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_SetColliderMaterial(w, -1, 0.5f, 0.4f, 0.5f) == PBD_ERR_INVALID_COLLIDER);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, 0.5f, 0.4f, 1.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "restitution") != NULL);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, NAN, 0.4f, 0.5f) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, 0.5f, -0.1f, 0.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "kineticFriction") != NULL);
	ENSURE(pbd_World_SetColliderMaterial(w, 0, 11.0f, 0.4f, 0.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &after) == PBD_OK);
	ENSURE(memcmp(&before, &after, sizeof before) == 0 && pbd_World_Hash(w) == hash);

	ENSURE(pbd_World_SetColliderMaterial(w, 0, 0.7f, 0.6f, 0.8f) == PBD_OK);
	ENSURE(pbd_World_GetColliderInfo(w, 0, &after) == PBD_OK);
	ENSURE(after.staticFriction == 0.7f && after.kineticFriction == 0.6f && after.restitution == 0.8f);
	pbd_World_SetVelocity(w, p, 0.0f, -4.0f, 0.0f);
	pbd_World_Step(w);
	float impact = 4.0f + 9.81f / 60.0f;
	ENSURE_NEAR(V(w)[4 * p + 1], 0.8f * impact, 0.01 * impact);
	pbd_DestroyWorld(w);
}
