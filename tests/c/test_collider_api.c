/* Collider API tests: a def refused for each bad field with a message naming it, capacities, the
   info a collider reports and its transform (normalised quaternions, refusals that change nothing),
   the signed distance and the ray cast against analytic values; and, with every shape at once, no
   NaN or Inf under a fuzz of hostile input and ColliderDeterminismHash, the same bits on every build. */
#include "test_collider_helpers.h"
#include "test_scenes.h"

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
void Test_ColliderDeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneColliders); /* test_scenes_colliders.c */
	uint32_t hash = pbd_World_Hash(w);
	printf("  collider determinism hash 0x%08x\n", hash);
	ENSURE(TestAllFinite(w));
	ENSURE(TestPinnedHash(hash, PBD_COLLIDER_DETERMINISM_HASH));
	pbd_DestroyWorld(w);
}
