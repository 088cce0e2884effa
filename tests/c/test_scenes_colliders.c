/* ColliderDeterminismHash's scene (test_collider_api.c) for test_scenes.h, built on the collider
   tests' helpers (test_collider_helpers.h): a cloth over every collider shape, a capsule with
   restitution, a turned box, a chain, and the sphere moved and turned every step. */
#include "test_scenes.h"
#include "test_collider_helpers.h"

static pbdWorldId BuildColliders(void)
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
	SCENE_ENSURE(AddSphere(w, 0.2f, 0.5f, 0.1f, 0.3f) == 0);
	pbdColliderDef cap = pbd_DefaultColliderDef();
	cap.type = pbdShape_capsule;
	cap.radius = 0.1f;
	cap.halfHeight = 0.6f;
	cap.position[0] = -0.4f, cap.position[1] = 0.3f;
	cap.restitution = 0.5f;
	AxisAngle(0.6f, 0.0f, 0.8f, 1.1, cap.rotation);
	SCENE_ENSURE(pbd_World_AddCollider(w, &cap) == 1);
	float bpos[3] = { 0.5f, 0.15f, -0.4f }, q[4];
	AxisAngle(0, 1, 0, 0.4, q);
	SCENE_ENSURE(AddBox(w, bpos, q, 0.3f, 0.15f, 0.2f) == 2);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 1.5f;
	chain.end[0] = 0.5f;
	chain.end[1] = 1.6f;
	chain.segments = 25;
	pbd_World_AddChain(w, &chain);
	return w;
}

static void DriveColliders(pbdWorldId w, int s)
{
	const float angle = 0.02f * (float)s;
	/* the rotation (0, 0.1 angle, 0, 1) is normalised by the engine */
	pbd_World_SetColliderTransform(w, 0, 0.2f + 0.005f * (float)s, 0.5f, 0.1f - 0.004f * (float)s, 0.0f, 0.1f * angle, 0.0f, 1.0f);
}

const TestScene g_sceneColliders = { "colliders", BuildColliders, DriveColliders, 150, PBD_COLLIDER_DETERMINISM_HASH };
