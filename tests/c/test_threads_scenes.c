/* Scenes of the threads tests (test_threads.h): the pinned scenes of test_scenes.h (the cloth,
   chain, attachment and ground of DeterminismHash, soft bodies, rigid and soft shapes, bodies on a
   cloth, the fluid's dam break: the hash tests' own builders, so their pinned hashes hold here
   too), and the threads tests' own: tearing in a wind, a hose over a cloth with a drain, and
   large scenes whose loops split into several blocks. */
#include "test_threads.h"
#include "test_physics_helpers.h"
#include "test_fluid_helpers.h"
#include "test_soft_helpers.h"
#include "test_body_helpers.h"
#include "test_shapes_helpers.h"

/* The drive's grabs, from the build (the scenes run one world at a time). */
static pbdAttachmentId s_grab, s_grabB;

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

/* ---------------------------------------------------------------- fluids */

/* A 64 x 64 cloth over a metre pinned at its corners under a hose, a drain on the ground: particles
   are emitted, land on the cloth (two-way coupling), run off and are removed; the fluid's live
   range and its neighbour lists change every step. 4096 + 1500 particles: several blocks. */
static pbdWorldId BuildHose(void)
{
	const int n = 64;
	pbdWorldId w = FluidWorld(n * n + 1500, 1500, 3, 2);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	TestAddFlatCloth(w, 0.3f, n, 0.004f);
	const int corners[4] = { 0, n - 1, n * (n - 1), n * n - 1 };
	for (int q = 0; q < 4; ++q) pbd_World_SetInvMass(w, corners[q], 0.0f);
	AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1500);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 1, e.speed = 1.0f, e.radius = 0.05f;
	e.position[0] = 0.3f, e.position[1] = 0.45f, e.position[2] = 0.0f;
	e.direction[0] = 0.0f, e.direction[1] = -1.0f, e.direction[2] = 0.0f;
	pbd_World_AddEmitter(w, &e);
	const float lower[3] = { -1.0f, 0.0f, -1.0f }, upper[3] = { 1.0f, 0.1f, 1.0f };
	pbd_World_AddDrain(w, lower, upper);
	return w;
}

/* ---------------------------------------------------------------- large scenes

   A loop of one block (base/tasks.h: PBD_PARTICLE_BLOCK particles, PBD_DEFAULT_BLOCK
   constraints) runs on participant 0 alone, and a step whose loops are all one block never
   wakes the helpers, so the small scenes above mostly check that threads change nothing of
   the serial path: these share out every particle loop and the colours of each family in
   several blocks. */

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
	if (s == 10) pbd_World_RemoveAttachment(w, s_grab);
}

/* A soft lattice of 16 x 16 x 16 cells (4913 particles, 24,576 tets and their edges) thrown
   spinning at the ground, plastic. */
static pbdWorldId BuildBigSoft(void)
{
	pbdWorldId id = TestSoftWorld(4913);
	pbd_World_SetParam(id, pbdParam_substeps, 4.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 2.0f);
	pbd_World_SetParam(id, pbdParam_stiffnessEdge, 0.7f);
	pbd_World_SetParam(id, pbdParam_stiffnessVolume, 0.9f);
	const float a[3] = { -0.3f, 0.1f, -0.3f };
	TestSoftLattice(id, 16, 16, 16, a, 0.04f, 0.01f);
	pbd_World_SetObjectPlasticity(id, 0, 0.01f, 10.0f, 0.5f);
	const float* x = X(id);
	for (int i = 0; i < 4913; ++i) pbd_World_SetVelocity(id, i, 1.0f - 4.0f * (x[4 * i + 1] - 0.4f), -2.0f + 4.0f * x[4 * i], 0.2f);
	return id;
}

/* A soft cube of 12^3 cells (2,197 particles, cell colours of ~216 in blocks of 128) built by the body
   builder, so solved by cells (volume.c), squeezed by a plate coming down at 2.4 m/s onto the ground: the
   cells' walls (two per particle), sweeps and guard over many blocks. */
static pbdWorldId BuildBigPress(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 2200, def.maxTets = 6 * 1728, def.maxColliders = 1, def.maxObjects = 1;
	def.maxSkinVertices = 8000, def.maxSkinTriangles = 16000;
	pbdWorldId w = TestCreateWorld(&def);
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_SOFT, b.shape = pbdBodyShape_box, b.resolution = 12, b.mass = 4.0f;
	b.position[1] = 0.32f;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.3f;
	pbd_World_AddBody(w, &b);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_edge, 0.5f);
	pbdColliderDef c = pbd_DefaultColliderDef();
	c.type = pbdShape_box;
	c.halfExtents[0] = c.halfExtents[2] = 1.5f, c.halfExtents[1] = 0.05f;
	c.position[1] = 0.6f + 0.05f; /* on the cube's top particles from the first step */
	pbd_World_AddCollider(w, &c);
	return w;
}

static void DriveBigPress(pbdWorldId w, int s)
{
	pbd_World_SetColliderTransform(w, 0, 0.0f, 0.6f + 0.05f - 0.04f * (float)(s + 1), 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
}

/* Eight soft cubes of 3 to 6 cells a side (the small lattices, fewer than PBD_VOLUME_SHARED_CELLS cells each, which
   the threads take lattice by lattice: volume.c), in two layers, the upper one turned and dropped across the lower. */
static pbdWorldId BuildSoftPile(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 2000, def.maxTets = 6000, def.maxObjects = 8;
	def.maxSkinVertices = 8000, def.maxSkinTriangles = 16000;
	pbdWorldId w = TestCreateWorld(&def);
	for (int k = 0; k < 8; ++k) {
		pbdBodyDef b = pbd_DefaultBodyDef();
		b.type = PBD_OBJECT_SOFT, b.shape = pbdBodyShape_box, b.resolution = 3 + k % 4, b.mass = 1.0f;
		b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.12f;
		const int upper = k >= 4;
		b.position[0] = 0.3f * (float)(k % 4) - 0.45f + (upper ? 0.15f : 0.0f);
		b.position[1] = upper ? 0.5f : 0.14f;
		if (upper) b.rotation[1] = 0.2f, b.rotation[3] = 0.98f;
		pbd_World_AddBody(w, &b);
	}
	return w;
}

/* A dam break of ~3,600 particles in a tank beside a 48 x 48 cloth (5,900 particles). */
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

static const ThreadScene s_tearing = { "tearing in a wind", BuildTearing, DriveTearing, 120, 0 };
static const ThreadScene s_hose = { "hose, cloth, drain", BuildHose, NULL, 60, 0 };
static const ThreadScene s_bigCloth = { "large cloth", BuildBigCloth, DriveBigCloth, 16, 0 };
static const ThreadScene s_bigSoft = { "large soft body", BuildBigSoft, NULL, 16, 0 };
static const ThreadScene s_bigFluid = { "large fluid", BuildBigFluid, NULL, 16, 0 };
static const ThreadScene s_bigPress = { "large soft press", BuildBigPress, DriveBigPress, 4, 0 };
static const ThreadScene s_softPile = { "soft cubes piling", BuildSoftPile, NULL, 30, 0 };

/* The pinned scenes are the hash tests' own (test_scenes.h), not copies. */
const ThreadScene* const g_threadScenes[] = {
	&g_sceneDeterminism, &s_tearing, &g_sceneSoft, &g_sceneShapes, &g_sceneBodies, &g_sceneDamBreak, &s_hose,
	&s_bigCloth, &s_bigSoft, &s_bigFluid, &g_sceneColliders, &s_bigPress, &s_softPile,
};
const int g_threadSceneCount = (int)(sizeof g_threadScenes / sizeof g_threadScenes[0]);
