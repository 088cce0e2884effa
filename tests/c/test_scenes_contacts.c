/* The pinned contact scenes of test_scenes.h, built on the contact tests' helpers
   (test_contacts.h): SelfCollisionDeterminismHash's two layers (test_contact_scenes.c, whose other
   scenes build their layers here too) and ContactRadiusDeterminismHash's mixed radii
   (test_contact_radius.c). */
#include "test_scenes.h"
#include "test_contacts.h"

TestLayers TestTwoLayers(int contacts, int pinCorners)
{
	const float t = TEST_LAYERS_THICKNESS, spacing = TEST_LAYERS_SPACING;
	const int n = TEST_LAYERS_RES;
	TestLayers sc;
	sc.w = MakeWorld(2 * n * n, 0);
	pbd_World_SetParam(sc.w, pbdParam_thickness, t);
	pbd_World_SetParam(sc.w, pbdParam_selfCollision, contacts == 1 ? 1.0f : 0.0f);
	if (contacts == 0) pbd_World_SetParam(sc.w, pbdParam_collisions, 0.0f);
	pbd_World_SetParam(sc.w, pbdParam_substeps, 5.0f);
	pbd_World_SetParam(sc.w, pbdParam_iterations, 4.0f);
	const float L = spacing * (float)(n - 1);
	const float u[3] = { L, 0, 0 }, v[3] = { 0, 0, L };
	const float base = pinCorners ? 0.5f : 0.5f * t; /* on the ground: centres at the radius */
	sc.lower = AddCloth(sc.w, n, -0.5f * L, base, -0.5f * L, u, v);
	sc.upper = AddCloth(sc.w, n, -0.5f * L + 0.5f * spacing, base + 3.0f * t, -0.5f * L + 0.5f * spacing, u, v);
	sc.n = n * n;
	if (pinCorners) {
		const int corners[4] = { 0, n - 1, n * (n - 1), n * n - 1 };
		for (int k = 0; k < 4; ++k) pbd_World_SetInvMass(sc.w, sc.lower + corners[k], 0.0f);
	}
	return sc;
}

/* ---------------------------------------------------------------- SelfCollisionDeterminismHash */

/* TwoLayers(1, 1) with friction: the lower cloth pinned at its corners, self-collision on,
   5 substeps x 4 passes. */
static pbdWorldId BuildSelfCollision(void)
{
	pbdWorldId w = TestTwoLayers(1, 1).w;
	pbd_World_SetParam(w, pbdParam_selfFriction, 0.3f);
	return w;
}

const TestScene g_sceneSelfCollision = { "self-collision", BuildSelfCollision, NULL, 150, PBD_SELF_COLLISION_HASH };

/* ---------------------------------------------------------------- ContactRadiusDeterminismHash */

/* Radii that differ: a cloth (thickness / 2), a rope of radius 0.02 and loose pairs of 0.035
   falling onto it, a box collider, the ground, self-collision on. */
static pbdWorldId BuildRadii(void)
{
	pbdWorldId w = MakeWorld(600, 0);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 4.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 3.0f);
	const float u[3] = { 0.6f, 0, 0 }, v[3] = { 0, 0, 0.6f };
	const int cloth = AddCloth(w, 16, -0.3f, 0.4f, -0.3f, u, v);
	pbd_World_SetInvMass(w, cloth, 0.0f);
	pbd_World_SetInvMass(w, cloth + 15, 0.0f);
	AddChain(w, -0.25f, 0.6f, 0.0f, 0.25f, 0.65f, 0.05f, 20);
	pbd_World_SetObjectRadius(w, 1, 0.02f);
	for (int k = 0; k < 6; ++k) {
		AddChain(w, -0.2f + 0.07f * (float)k, 0.8f + 0.05f * (float)k, 0.1f, -0.15f + 0.07f * (float)k, 0.85f, 0.12f, 1);
		pbd_World_SetObjectRadius(w, 2 + k, 0.035f);
	}
	pbdColliderDef box = pbd_DefaultColliderDef();
	box.type = pbdShape_box;
	box.position[1] = 0.1f;
	box.halfExtents[0] = box.halfExtents[1] = box.halfExtents[2] = 0.1f;
	pbd_World_AddCollider(w, &box);
	return w;
}

const TestScene g_sceneContactRadii = { "contact radii", BuildRadii, NULL, 150, PBD_CONTACT_RADIUS_HASH };
