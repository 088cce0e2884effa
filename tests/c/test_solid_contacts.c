/* test_solid_contacts.c -- every object collides with every other through the one
   neighbour search, and all of them with the colliders and the ground, each with its particles'
   own radius. One world holds a soft box, a rigid box, a soft ball resting on the rigid box, and a
   rope laid across the soft box; a second drops a soft and a rigid body onto a sphere and a box
   collider. The checks are the contact constraints themselves: after the bodies have settled, no
   two particles of different objects are closer than 0.9 (r_i + r_j) and none is closer to a
   collider's surface than 0.9 r_i; with collisions off the same scene interpenetrates (so the first
   check can fail). */
#include "test.h"
#include "test_solid_contacts.h"

#include <math.h>
#include <string.h>

static pbdWorldId SolidWorld(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 4000;
	def.maxTets = 8000;
	def.maxSkinVertices = 4000;
	def.maxSkinTriangles = 8000;
	def.maxObjects = 8;
	def.maxColliders = 4;
	pbdWorldId w = pbd_CreateWorld(&def); /* the scene format's defaults: 10 substeps x 1 pass */
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	return w;
}

static int AddBox(pbdWorldId w, int type, float x, float y, float z, float h, int res, float mass)
{
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = type;
	b.shape = pbdBodyShape_box;
	b.position[0] = x, b.position[1] = y, b.position[2] = z;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = h;
	b.resolution = res;
	b.mass = mass;
	return pbd_World_AddBody(w, &b);
}

static int AddBall(pbdWorldId w, int type, float x, float y, float z, float r, int res, float mass)
{
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = type;
	b.shape = pbdBodyShape_ball;
	b.position[0] = x, b.position[1] = y, b.position[2] = z;
	b.radius = r;
	b.resolution = res;
	b.mass = mass;
	return pbd_World_AddBody(w, &b);
}

/* Each particle's contact radius: its object's, or thickness / 2. */
static float Radius(pbdWorldId w, int object)
{
	float r = pbd_World_GetObjectRadius(w, object);
	return r > 0.0f ? r : 0.5f * pbd_World_GetParam(w, pbdParam_thickness);
}

/* The smallest |p_i - p_j| / (r_i + r_j) over particles of different objects (brute force). */
static double ClosestPair(pbdWorldId w, int* objA, int* objB)
{
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const int objects = pbd_World_GetObjectCount(w);
	double best = 1e30;
	for (int a = 0; a < objects; ++a) {
		for (int b = a + 1; b < objects; ++b) {
			pbdObjectInfo ia, ib;
			pbd_World_GetObjectInfo(w, a, &ia);
			pbd_World_GetObjectInfo(w, b, &ib);
			const double rs = (double)Radius(w, a) + (double)Radius(w, b);
			for (int i = ia.firstParticle; i < ia.firstParticle + ia.particleCount; ++i) {
				for (int j = ib.firstParticle; j < ib.firstParticle + ib.particleCount; ++j) {
					const double dx = x[4 * i] - x[4 * j], dy = x[4 * i + 1] - x[4 * j + 1], dz = x[4 * i + 2] - x[4 * j + 2];
					const double q = sqrt(dx * dx + dy * dy + dz * dz) / rs;
					if (q < best) best = q, *objA = a, *objB = b;
				}
			}
		}
	}
	return best;
}

/* A build step that must work, in a function that returns the world: 0 on failure. */
#define ADD_OR_ZERO(call)            \
	do {                             \
		if ((call) < 0) {            \
			pbd_DestroyWorld(w);     \
			return 0;                \
		}                            \
	} while (0)

/* The rope across the soft box, the soft ball on the rigid box: every pairing of kinds in one world. */
static pbdWorldId Pile(int collisions)
{
	pbdWorldId w = SolidWorld();
	pbd_World_SetParam(w, pbdParam_collisions, (float)collisions);
	/* placed clear of each other and of the ground (particle radii 3.75 cm for the boxes, 3 cm for the
	   ball): an overlap at the start would be resolved in one substep into a jump */
	ADD_OR_ZERO(AddBox(w, PBD_OBJECT_SOFT, -0.3f, 0.2f, 0.0f, 0.15f, 4, 1.0f));
	ADD_OR_ZERO(AddBox(w, PBD_OBJECT_RIGID, 0.3f, 0.2f, 0.0f, 0.15f, 4, 1.0f));
	ADD_OR_ZERO(AddBall(w, PBD_OBJECT_SOFT, 0.3f, 0.6f, 0.0f, 0.12f, 4, 0.5f));
	pbdChainDef rope = pbd_DefaultChainDef();
	rope.start[0] = -0.3f, rope.start[1] = 0.45f, rope.start[2] = -0.3f; /* across the box, over its rows */
	rope.end[0] = -0.3f, rope.end[1] = 0.45f, rope.end[2] = 0.3f;
	rope.segments = 30;
	rope.mass = 0.005f;
	ADD_OR_ZERO(pbd_World_AddChain(w, &rope));
	pbd_World_SetObjectRadius(w, 3, 0.01f);
	for (int i = 0; i < 180; ++i) pbd_World_Step(w);
	return w;
}

void Test_EveryPairingOfObjectsCollides(void)
{
	int a = -1, b = -1;
	pbdWorldId w = Pile(1);
	ENSURE(w > 0);
	const double q = ClosestPair(w, &a, &b);
	printf("  collisions on: closest pair %.3f (r_i + r_j), objects %d and %d\n", q, a, b);
	ENSURE(q >= 0.9);
	/* each pairing is really in contact (within 1.3 (r_i + r_j) somewhere), so the bound says something */
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	pbdObjectInfo ball, rope, rigid, soft;
	pbd_World_GetObjectInfo(w, 0, &soft);
	pbd_World_GetObjectInfo(w, 1, &rigid);
	pbd_World_GetObjectInfo(w, 2, &ball);
	pbd_World_GetObjectInfo(w, 3, &rope);
	double ballLow = 1e30, rigidTop = -1e30, ropeLowOverSoft = 1e30, softTop = -1e30;
	for (int i = 0; i < ball.particleCount; ++i) ballLow = fmin(ballLow, x[4 * (ball.firstParticle + i) + 1]);
	for (int i = 0; i < rigid.particleCount; ++i) rigidTop = fmax(rigidTop, x[4 * (rigid.firstParticle + i) + 1]);
	for (int i = 0; i < soft.particleCount; ++i) softTop = fmax(softTop, x[4 * (soft.firstParticle + i) + 1]);
	for (int i = 0; i < rope.particleCount; ++i) {
		const float* p = x + 4 * (rope.firstParticle + i);
		if (fabsf(p[0] + 0.3f) < 0.1f && fabsf(p[2]) < 0.1f) ropeLowOverSoft = fmin(ropeLowOverSoft, p[1]); /* over the top face */
	}
	printf("  soft ball lowest %.4f over rigid top %.4f; rope over the soft box %.4f, its top %.4f\n", ballLow, rigidTop,
		   ropeLowOverSoft, softTop);
	ENSURE(ballLow > rigidTop && ballLow < rigidTop + 0.1); /* resting on it, not fallen off nor floating */
	ENSURE(ropeLowOverSoft > softTop && ropeLowOverSoft < softTop + 0.06);
	for (int i = 0; i < 4 * pbd_World_GetParticleCount(w); ++i) ENSURE(isfinite(x[i]));
	pbd_DestroyWorld(w);

	/* the same scene without collisions between objects: they sink into each other */
	w = Pile(0);
	const double q0 = ClosestPair(w, &a, &b);
	printf("  collisions off: closest pair %.3f (r_i + r_j)\n", q0);
	ENSURE(q0 < 0.5);
	pbd_DestroyWorld(w);
}

void Test_SolidsRestOnColliders(void)
{
	pbdWorldId w = SolidWorld();
	pbdColliderDef sphere = pbd_DefaultColliderDef();
	sphere.type = pbdShape_sphere;
	sphere.position[0] = -0.4f, sphere.position[1] = 0.25f;
	sphere.radius = 0.25f;
	ENSURE(pbd_World_AddCollider(w, &sphere) == 0);
	pbdColliderDef box = pbd_DefaultColliderDef();
	box.type = pbdShape_box;
	box.position[0] = 0.4f, box.position[1] = 0.2f;
	box.halfExtents[0] = box.halfExtents[1] = box.halfExtents[2] = 0.2f;
	ENSURE(pbd_World_AddCollider(w, &box) == 1);
	ENSURE(AddBox(w, PBD_OBJECT_SOFT, -0.4f, 0.8f, 0.0f, 0.12f, 4, 1.0f) >= 0); /* onto the sphere */
	ENSURE(AddBall(w, PBD_OBJECT_RIGID, 0.4f, 0.8f, 0.0f, 0.1f, 4, 1.0f) >= 0); /* onto the box */
	int onSphere = 0, onBox = 0;
	double worst = 1e30;
	for (int s = 0; s < 240; ++s) {
		pbd_World_Step(w);
		if (s < 60) continue; /* landed */
		const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		for (int o = 0; o < 2; ++o) {
			pbdObjectInfo info;
			pbd_World_GetObjectInfo(w, o, &info);
			const float r = Radius(w, o);
			for (int i = info.firstParticle; i < info.firstParticle + info.particleCount; ++i) {
				for (int c = 0; c < 2; ++c) {
					const float d = pbd_World_ColliderDistance(w, c, x[4 * i], x[4 * i + 1], x[4 * i + 2]);
					worst = fmin(worst, d / r);
					if (s == 239 && d < 1.2f * r) {
						if (c == 0) onSphere += 1;
						else onBox += 1;
					}
				}
			}
		}
	}
	printf("  closest to a collider %.3f r; particles touching the sphere %d, the box %d\n", worst, onSphere, onBox);
	ENSURE(worst >= 0.9);
	ENSURE(onSphere > 0 && onBox > 0); /* both rest on their collider, not beside it */
	pbd_DestroyWorld(w);
}
