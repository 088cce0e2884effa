/* Scenes of the threads tests (test_threads.h): the cloth, chain, attachment and ground of
   DeterminismHash (test_instruments.c), tearing in a wind, soft bodies (volume and distance,
   test_volume.c), rigid and soft shapes (test_shapes_scenes.c), bodies on a cloth
   (test_body_motion.c), the fluid's dam break (test_fluid.c) and a hose over a cloth with a
   drain. Where a test pins a hash, the scene is that test's, step for step, and so is its hash. */
#include "test_threads.h"
#include "test_physics_helpers.h"
#include "test_fluid_helpers.h"
#include "test_soft_helpers.h"
#include "test_body_helpers.h"
#include "test_shapes_helpers.h"

/* ---------------------------------------------------------------- DeterminismHash */

static pbdAttachmentId s_grab, s_grabB;

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

/* ---------------------------------------------------------------- tearing in a wind */

/* A 16 x 16 flag torn by its two top corners dragged apart (test_cloth.c's tearing test) while a
   wind blows across it with drag on: the torn edges and the aerodynamic triangles change every
   step. */
static pbdWorldId BuildTearing(void)
{
	const int n = 16;
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = n * n + 64;
	def.maxConstraints = 8 * (n * n + 64);
	pbdWorldId w = TestCreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.origin[0] = -1.0f, cloth.origin[1] = 2.5f, cloth.origin[2] = 0.0f;
	cloth.axisU[0] = 2.0f, cloth.axisU[1] = 0.0f, cloth.axisU[2] = 0.0f;
	cloth.axisV[0] = 0.0f, cloth.axisV[1] = -2.0f, cloth.axisV[2] = 0.0f;
	cloth.resolutionU = cloth.resolutionV = n;
	cloth.mass = 0.01f;
	pbd_World_AddCloth(w, &cloth);
	pbd_World_SetParam(w, pbdParam_tearStretch, 0.5f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(w, pbdParam_windZ, 6.0f);
	pbd_World_SetParam(w, pbdParam_windX, 2.0f);
	const float* x = X(w);
	s_grab = pbd_World_AddAttachment(w, 0, x[0], x[1], x[2], 1.0f);
	s_grabB = pbd_World_AddAttachment(w, n - 1, x[4 * (n - 1)], x[4 * (n - 1) + 1], x[4 * (n - 1) + 2], 1.0f);
	return w;
}

static void DriveTearing(pbdWorldId w, int s)
{
	const float pull = 0.05f * (float)s;
	pbd_World_MoveAttachment(w, s_grab, -1.0f - pull, 2.5f, 0.0f);
	pbd_World_MoveAttachment(w, s_grabB, 1.0f + pull, 2.5f, 0.0f);
}

/* ---------------------------------------------------------------- soft bodies (VolumeDeterminismHash) */

static pbdWorldId BuildSoft(void)
{
	pbdWorldId id = TestSoftWorld(400);
	pbd_World_SetParam(id, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(id, pbdParam_stiffnessEdge, 0.7f);
	pbd_World_SetParam(id, pbdParam_stiffnessVolume, 0.9f);
	const float a[3] = { -0.1f, 0.3f, -0.05f }, b[3] = { 1.0f, 0.0051f, 0.0f };
	TestSoftLattice(id, 5, 3, 2, a, 0.04f, 0.01f);
	TestSoftLattice(id, 3, 3, 3, b, 0.05f, 0.02f);
	pbd_World_SetObjectPlasticity(id, 0, 0.01f, 10.0f, 0.5f);
	const float* x = X(id);
	for (int i = 0; i < 72; ++i) {
		const float rx = x[4 * i] - 0.0f, ry = x[4 * i + 1] - 0.36f;
		pbd_World_SetVelocity(id, i, 1.0f - 6.0f * ry, -1.0f + 6.0f * rx, 0.3f);
	}
	return id;
}

/* ---------------------------------------------------------------- shapes (ShapesDeterminismHash) */

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

/* ---------------------------------------------------------------- bodies on a cloth (BodyDeterminismHash) */

static pbdWorldId BuildBodies(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 4000;
	def.maxSkinVertices = 4000;
	def.maxSkinTriangles = 8000;
	def.maxTets = 16000;
	def.maxObjects = 16;
	pbdWorldId w = pbd_CreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.origin[0] = -1.0f, cloth.origin[1] = 0.8f, cloth.origin[2] = -1.0f;
	cloth.axisU[0] = 2.0f, cloth.axisV[1] = 0.0f, cloth.axisV[2] = 2.0f;
	cloth.resolutionU = cloth.resolutionV = 12;
	pbd_World_AddCloth(w, &cloth);
	pbd_World_SetInvMass(w, 0, 0.0f), pbd_World_SetInvMass(w, 11, 0.0f), pbd_World_SetInvMass(w, 132, 0.0f), pbd_World_SetInvMass(w, 143, 0.0f);
	pbdBodyDef soft = pbd_DefaultBodyDef();
	soft.position[1] = 1.5f, soft.halfExtents[0] = soft.halfExtents[1] = soft.halfExtents[2] = 0.2f, soft.resolution = 3;
	soft.rotation[2] = 0.2f;
	pbdBodyDef rigid = soft;
	rigid.type = PBD_OBJECT_RIGID, rigid.position[0] = 0.5f, rigid.shape = pbdBodyShape_ball, rigid.radius = 0.2f;
	TestMesh torus = TestTorus(0.25f, 0.1f, 16, 8);
	pbdBodyDef ring = TestSurfaceDef(&torus, PBD_OBJECT_SOFT, 8);
	ring.position[0] = -0.5f, ring.position[1] = 1.2f;
	pbd_World_AddBody(w, &soft), pbd_World_AddBody(w, &rigid), pbd_World_AddBody(w, &ring);
	pbd_World_SetObjectPlasticity(w, 3, 0.05f, 5.0f, 0.5f);
	TestMeshFree(&torus);
	return w;
}

/* ---------------------------------------------------------------- fluids */

static pbdWorldId BuildDamBreak(void)
{
	pbdWorldId w = FluidWorld(1000, 1000, 2, 4);
	FluidTank(w, 0.2f, 0.12f, 0.4f);
	AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.08f, 0.2f, 0.12f, 0);
	return w;
}

/* A 20 x 20 cloth pinned at its corners under a hose, a drain beside it on the ground: particles
   are emitted, land on the cloth (two-way coupling), run off and are removed; the fluid's live
   range and its neighbour lists change every step. */
static pbdWorldId BuildHose(void)
{
	pbdWorldId w = FluidWorld(400 + 1500, 1500, 3, 2);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbdClothDef c = pbd_DefaultClothDef();
	c.origin[0] = -0.2f, c.origin[1] = 0.3f, c.origin[2] = -0.2f;
	c.axisU[0] = 0.4f, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
	c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = 0.4f;
	c.resolutionU = c.resolutionV = 20;
	c.mass = 0.004f;
	pbd_World_AddCloth(w, &c);
	const int corners[4] = { 0, 19, 20 * 19, 20 * 20 - 1 };
	for (int q = 0; q < 4; ++q) pbd_World_SetInvMass(w, corners[q], 0.0f);
	AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1500);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 1, e.speed = 1.0f, e.radius = 0.04f;
	e.position[0] = 0.1f, e.position[1] = 0.45f, e.position[2] = 0.0f;
	e.direction[0] = 0.0f, e.direction[1] = -1.0f, e.direction[2] = 0.0f;
	pbd_World_AddEmitter(w, &e);
	const float lower[3] = { -1.0f, 0.0f, -1.0f }, upper[3] = { 1.0f, 0.1f, 1.0f };
	pbd_World_AddDrain(w, lower, upper);
	return w;
}

/* ---------------------------------------------------------------- large scenes

   A loop of fewer items than a block (base/tasks.h: 2048 particles, 1024 constraints) runs on
   participant 0 alone, so the small scenes above cannot catch a race: these share out every
   particle loop and the colours of each family in several blocks. */

/* A 96 x 96 cloth (9216 particles, 5 blocks; colours of ~2,000-7,000 edges) in a wind, pinned
   at a corner and dragged by another, a chain, the ground. */
static pbdWorldId BuildBigCloth(void)
{
	pbdWorldId w = MakeWorld(9400, 80000);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(w, pbdParam_windZ, 4.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	const int first = AddCloth(w, 96, 96, 1.2f);
	pbd_World_SetInvMass(w, first, 0.0f);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 1.5f, chain.end[1] = 1.6f, chain.end[0] = 0.8f;
	chain.segments = 60;
	pbd_World_AddChain(w, &chain);
	s_grab = pbd_World_AddAttachment(w, first + 95, 1.0f, 1.2f, 0.0f, 0.9f);
	return w;
}

static void DriveBigCloth(pbdWorldId w, int s)
{
	pbd_World_MoveAttachment(w, s_grab, 1.0f - 0.02f * (float)s, 1.2f, 0.01f * (float)s);
	if (s == 30) pbd_World_RemoveAttachment(w, s_grab);
}

/* A soft lattice of 12 x 12 x 12 cells (2197 particles, 10,368 tets and their edges) thrown
   spinning at the ground, plastic. */
static pbdWorldId BuildBigSoft(void)
{
	pbdWorldId id = TestSoftWorld(2300);
	pbd_World_SetParam(id, pbdParam_substeps, 4.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 2.0f);
	pbd_World_SetParam(id, pbdParam_stiffnessEdge, 0.7f);
	pbd_World_SetParam(id, pbdParam_stiffnessVolume, 0.9f);
	const float a[3] = { -0.3f, 0.1f, -0.3f };
	TestSoftLattice(id, 12, 12, 12, a, 0.05f, 0.01f);
	pbd_World_SetObjectPlasticity(id, 0, 0.01f, 10.0f, 0.5f);
	const float* x = X(id);
	for (int i = 0; i < 2197; ++i) pbd_World_SetVelocity(id, i, 1.0f - 4.0f * (x[4 * i + 1] - 0.4f), -2.0f + 4.0f * x[4 * i], 0.2f);
	return id;
}

/* A dam break of ~3,600 particles in a tank beside a 48 x 48 cloth. */
static pbdWorldId BuildBigFluid(void)
{
	pbdWorldId w = FluidWorld(2304 + 4000, 4000, 2, 3);
	FluidTank(w, 0.5f, 0.3f, 0.5f);
	AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.2f, 0.3f, 0.3f, 0);
	pbdClothDef c = pbd_DefaultClothDef();
	c.origin[0] = 0.6f, c.origin[1] = 0.5f, c.origin[2] = 0.0f;
	c.axisU[0] = 0.5f, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
	c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = 0.5f;
	c.resolutionU = c.resolutionV = 48;
	pbd_World_AddCloth(w, &c);
	return w;
}

const ThreadScene g_threadScenes[] = {
	{ "determinism", BuildDeterminism, DriveDeterminism, 200, 0x4a8bd6a1u }, /* PBD_DETERMINISM_HASH */
	{ "tearing in a wind", BuildTearing, DriveTearing, 120, 0 },
	{ "soft bodies", BuildSoft, NULL, 180, 0x3cb79eabu },                    /* PBD_VOLUME_DETERMINISM_HASH */
	{ "shapes", BuildShapes, NULL, 240, 0x63fbdd19u },                       /* PBD_SHAPES_DETERMINISM_HASH */
	{ "bodies on a cloth", BuildBodies, NULL, 150, 0x81f3ac8fu },            /* BodyDeterminismHash */
	{ "dam break", BuildDamBreak, NULL, 60, 0xfe962bceu },                   /* PBD_FLUID_HASH */
	{ "hose, cloth, drain", BuildHose, NULL, 120, 0 },
	{ "large cloth", BuildBigCloth, DriveBigCloth, 40, 0 },
	{ "large soft body", BuildBigSoft, NULL, 40, 0 },
	{ "large fluid", BuildBigFluid, NULL, 40, 0 },
};
const int g_threadSceneCount = (int)(sizeof g_threadScenes / sizeof g_threadScenes[0]);
