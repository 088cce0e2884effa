/* Contact scenes of the threads tests (test_threads.h): the two self-colliding layers of
   SelfCollisionDeterminismHash (test_contact_scenes.c) and the mixed radii of
   ContactRadiusDeterminismHash (test_contact_radius.c), each that test's scene step for step,
   so the threaded and sliced runs must reach its pinned hash. */
#include "test_threads.h"
#include "test_contacts.h"

/* TwoLayers(1, 1) with friction: two 20 x 20 cloths 3 thicknesses apart, the lower pinned at its
   corners, self-collision on, 5 substeps x 4 passes. */
static pbdWorldId BuildTwoLayers(void)
{
	const float t = 0.02f, spacing = 0.012f;
	const int n = 20;
	pbdWorldId w = MakeWorld(2 * n * n, 0);
	pbd_World_SetParam(w, pbdParam_thickness, t);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 5.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	const float L = spacing * (float)(n - 1);
	const float u[3] = { L, 0, 0 }, v[3] = { 0, 0, L };
	const int lower = AddCloth(w, n, -0.5f * L, 0.5f, -0.5f * L, u, v);
	AddCloth(w, n, -0.5f * L + 0.5f * spacing, 0.5f + 3.0f * t, -0.5f * L + 0.5f * spacing, u, v);
	const int corners[4] = { 0, n - 1, n * (n - 1), n * n - 1 };
	for (int k = 0; k < 4; ++k) pbd_World_SetInvMass(w, lower + corners[k], 0.0f);
	pbd_World_SetParam(w, pbdParam_selfFriction, 0.3f);
	return w;
}

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

const ThreadScene g_threadContactScenes[] = {
	{ "self-collision", BuildTwoLayers, NULL, 150, 0x67f3af04u }, /* PBD_SELF_COLLISION_HASH */
	{ "contact radii", BuildRadii, NULL, 150, 0x8cd027fbu },       /* PBD_CONTACT_RADIUS_HASH */
};
const int g_threadContactSceneCount = (int)(sizeof g_threadContactScenes / sizeof g_threadContactScenes[0]);
