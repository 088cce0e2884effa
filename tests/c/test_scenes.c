/* The pinned scenes of test_scenes.h built on the physics, soft, shapes, body and fluid tests'
   helpers: each is its hash test's scene step for step (the test named beside it). */
#include "test_scenes.h"
#include "test_physics_helpers.h"
#include "test_fluid_helpers.h"
#include "test_soft_helpers.h"
#include "test_body_helpers.h"
#include "test_shapes_helpers.h"

pbdWorldId TestSceneRun(const TestScene* scene)
{
	pbdWorldId w = scene->build();
	for (int s = 0; w > 0 && s < scene->steps; ++s) {
		if (scene->drive != NULL) scene->drive(w, s);
		pbd_World_Step(w);
	}
	return w;
}

/* ---------------------------------------------------------------- DeterminismHash (test_instruments.c) */

/* The dragged attachment's id, from the build to the drive (the scene's runs never overlap: the
   threads tests run one world at a time). */
static pbdAttachmentId s_grab;

/* A 24 x 24 cloth pinned at a corner with a heavy particle, a chain, the ground, damping, and an
   attachment dragged for 100 steps and then removed. */
static pbdWorldId BuildDeterminism(void)
{
	pbdWorldId w = MakeWorld(1200, 12000);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_damping, 0.3f);
	int first = AddCloth(w, 24, 24, 1.5f);
	pbd_World_SetInvMass(w, first, 0.0f);
	pbd_World_SetMass(w, first + 100, 0.5f);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 2.0f;
	chain.end[1] = 2.5f;
	chain.segments = 25;
	pbd_World_AddChain(w, &chain);
	s_grab = pbd_World_AddAttachment(w, first + 23, 1.0f, 2.0f, 0.5f, 0.7f);
	return w;
}

static void DriveDeterminism(pbdWorldId w, int s)
{
	if (s < 100) pbd_World_MoveAttachment(w, s_grab, 1.0f + 0.01f * (float)s, 2.0f, 0.5f - 0.02f * (float)s);
	if (s == 100) pbd_World_RemoveAttachment(w, s_grab);
}

const TestScene g_sceneDeterminism = { "determinism", BuildDeterminism, DriveDeterminism, 200, PBD_DETERMINISM_HASH };

/* ---------------------------------------------------------------- VolumeDeterminismHash (test_volume.c) */

/* A soft box thrown spinning onto the ground, its edges and volumes at stiffness < 1, plastic, at
   the scene defaults (10 substeps x 1 pass), and a second soft box resting further away. Colours
   of 4n + 1..3 tets and the serial path run too. */
static pbdWorldId BuildSoft(void)
{
	pbdWorldId id = TestSoftWorld(400);
	pbd_World_SetParam(id, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(id, pbdParam_stiffnessEdge, 0.7f);
	pbd_World_SetParam(id, pbdParam_stiffnessVolume, 0.9f);
	const float a[3] = { -0.1f, 0.3f, -0.05f }, b[3] = { 1.0f, 0.0051f, 0.0f };
	const int first = TestSoftLattice(id, 5, 3, 2, a, 0.04f, 0.01f);
	SCENE_ENSURE(first == 0 && TestSoftLattice(id, 3, 3, 3, b, 0.05f, 0.02f) == 72);
	SCENE_ENSURE(pbd_World_SetObjectPlasticity(id, 0, 0.01f, 10.0f, 0.5f) == PBD_OK);
	const float* x = X(id);
	for (int i = 0; i < 72; ++i) {
		/* thrown sideways and spinning about z */
		const float rx = x[4 * i] - 0.0f, ry = x[4 * i + 1] - 0.36f;
		pbd_World_SetVelocity(id, i, 1.0f - 6.0f * ry, -1.0f + 6.0f * rx, 0.3f);
	}
	return id;
}

const TestScene g_sceneSoft = { "soft bodies", BuildSoft, NULL, 180, PBD_VOLUME_DETERMINISM_HASH };

/* ---------------------------------------------------------------- ShapesDeterminismHash (test_shapes_scenes.c) */

/* Three boxes stacked, a lopsided body thrown at them spinning about a tilted axis, and a soft
   body (stiffness 0.5) with plasticity dropped beside them. */
static pbdWorldId BuildShapes(void)
{
	const float r = 0.025f;
	pbdWorldId w = ShapesWorld(256, 8);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_thickness, 2.0f * r);
	const int cube[3] = { 4, 4, 4 };
	for (int k = 0; k < 3; ++k) {
		const float at[3] = { 0.0f, 0.1f + 0.2f * (float)k, 0.0f };
		AddBoxBody(w, cube, 2.0f * r, at, s_noTurn, 1.0f);
	}
	const int lop[3] = { 4, 3, 2 };
	const float from[3] = { -0.8f, 0.5f, 0.05f };
	TestBody thrown = AddBoxBody(w, lop, 2.0f * r, from, s_noTurn, 0.5f);
	const float* x = X(w);
	const float axis[3] = { 0.26726124f, 0.53452248f, 0.80178373f }, omega = 12.0f;
	for (int i = thrown.first; i < thrown.first + thrown.count; ++i) {
		const float q[3] = { x[4 * i] - from[0], x[4 * i + 1] - from[1], x[4 * i + 2] - from[2] };
		pbd_World_SetVelocity(w, i, 3.0f + omega * (axis[1] * q[2] - axis[2] * q[1]), 1.0f + omega * (axis[2] * q[0] - axis[0] * q[2]),
							  omega * (axis[0] * q[1] - axis[1] * q[0]));
	}
	const int slab[3] = { 3, 2, 3 };
	const float beside[3] = { 0.5f, 0.4f, 0.0f };
	TestBody soft = AddBoxBody(w, slab, 2.0f * r, beside, s_noTurn, 0.8f);
	pbd_World_SetObjectStiffness(w, soft.object, pbdKind_shape, 0.5f);
	pbd_World_SetObjectPlasticity(w, soft.object, 0.02f, 2.0f, 0.5f);
	return w;
}

const TestScene g_sceneShapes = { "shapes", BuildShapes, NULL, 240, PBD_SHAPES_DETERMINISM_HASH };

/* ---------------------------------------------------------------- BodyDeterminismHash (test_body_motion.c) */

/* Bodies of every kind in one scene, a cloth under a soft and a rigid box and a soft torus. */
static pbdWorldId BuildBodies(void)
{
	pbdWorldId w = TestMotionWorld();
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.origin[0] = -1.0f, cloth.origin[1] = 0.8f, cloth.origin[2] = -1.0f;
	cloth.axisU[0] = 2.0f, cloth.axisV[1] = 0.0f, cloth.axisV[2] = 2.0f;
	cloth.resolutionU = cloth.resolutionV = 12;
	SCENE_ENSURE(pbd_World_AddCloth(w, &cloth) == 0);
	pbd_World_SetInvMass(w, 0, 0.0f), pbd_World_SetInvMass(w, 11, 0.0f), pbd_World_SetInvMass(w, 132, 0.0f), pbd_World_SetInvMass(w, 143, 0.0f);
	pbdBodyDef soft = pbd_DefaultBodyDef();
	soft.position[1] = 1.5f, soft.halfExtents[0] = soft.halfExtents[1] = soft.halfExtents[2] = 0.2f, soft.resolution = 3;
	soft.rotation[2] = 0.2f; /* tilted, normalised by the builder */
	pbdBodyDef rigid = soft;
	rigid.type = PBD_OBJECT_RIGID, rigid.position[0] = 0.5f, rigid.shape = pbdBodyShape_ball, rigid.radius = 0.2f;
	TestMesh torus = TestTorus(0.25f, 0.1f, 16, 8);
	pbdBodyDef ring = TestSurfaceDef(&torus, PBD_OBJECT_SOFT, 8);
	ring.position[0] = -0.5f, ring.position[1] = 1.2f;
	SCENE_ENSURE(pbd_World_AddBody(w, &soft) > 0 && pbd_World_AddBody(w, &rigid) > 0 && pbd_World_AddBody(w, &ring) > 0);
	pbd_World_SetObjectPlasticity(w, 3, 0.05f, 5.0f, 0.5f);
	TestMeshFree(&torus);
	return w;
}

const TestScene g_sceneBodies = { "bodies on a cloth", BuildBodies, NULL, 150, PBD_BODY_DETERMINISM_HASH };

/* ---------------------------------------------------------------- FluidDeterminismHash (test_fluid.c) */

/* A dam break of 480 particles in a tank with a sort every step, at 2 x 4. */
static pbdWorldId BuildDamBreak(void)
{
	pbdWorldId w = FluidWorld(1000, 1000, 2, 4);
	FluidTank(w, 0.2f, 0.12f, 0.4f);
	SCENE_ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.08f, 0.2f, 0.12f, 0) == 0);
	return w;
}

const TestScene g_sceneDamBreak = { "dam break", BuildDamBreak, NULL, 60, PBD_FLUID_HASH };
