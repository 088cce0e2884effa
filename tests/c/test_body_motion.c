/* Bodies in motion, built by pbd_World_AddBody and run by the families: a spinning rigid body's
   skin stays on the frame its particles span; every shape of both types dropped on the ground
   comes to rest with its skin touching the ground (the skin lies a particle radius outside the
   particles, and the ground holds the particles a radius above it), soft ones keeping their
   volume with no tet inverted; and a scene of bodies hashes the same on every build. */
#include "test.h"
#include "test_scenes.h"
#include "test_body_helpers.h"

#include <stdlib.h>
#include <string.h>

static const float* Pos(pbdWorldId w) { return pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static const float* SkinPos(pbdWorldId w) { return pbd_World_GetBuffer(w, pbdBuffer_skinPositions, NULL); }

/* A rigid box of 4 x 4 x 4 particles spun about a tilted axis with gravity off: after a second
   its skin is where the frame of its corner particles puts it (x000 + sum u_a (x_a - x000), with
   u the skin vertex's rest coordinates in that frame). */
void Test_SkinFollowsRigidBody(void)
{
	pbdWorldId w = TestMotionWorld();
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.type = PBD_OBJECT_RIGID;
	def.resolution = 3;
	def.halfExtents[0] = def.halfExtents[1] = def.halfExtents[2] = 0.2f;
	def.position[1] = 2.0f;
	def.velocity[0] = 0.5f;
	ENSURE(pbd_World_AddBody(w, &def) == 0);
	pbd_World_UpdateSkin(w);
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, 0, &info);
	const int nv = info.skinVertexCount;
	ENSURE(nv == 24 && info.particleCount == 64);
	float* u = malloc((size_t)nv * 3 * sizeof(float));
	const float* x = Pos(w);
	for (int v = 0; v < nv; ++v) {
		for (int a = 0; a < 3; ++a) u[3 * v + a] = (SkinPos(w)[4 * v + a] - x[a]) / (2.0f * def.halfExtents[a]);
	}
	/* spin: v = v_c + omega x (x - c), omega = (1, 2, 0.5) rad/s */
	const float omega[3] = { 1.0f, 2.0f, 0.5f }, c[3] = { 0.0f, 2.0f, 0.0f };
	for (int i = 0; i < 64; ++i) {
		const float r[3] = { x[4 * i] - c[0], x[4 * i + 1] - c[1], x[4 * i + 2] - c[2] };
		pbd_World_SetVelocity(w, i, 0.5f + omega[1] * r[2] - omega[2] * r[1], omega[2] * r[0] - omega[0] * r[2],
							  omega[0] * r[1] - omega[1] * r[0]);
	}
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	pbd_World_UpdateSkin(w);
	/* corner particles: (i, j, k) is particle i + 4 j + 16 k */
	const float *o = x, *ax = x + 4 * 3, *ay = x + 4 * 12, *az = x + 4 * 48;
	double worst = 0.0, moved = 0.0;
	for (int v = 0; v < nv; ++v) {
		for (int a = 0; a < 3; ++a) {
			const double want = o[a] + u[3 * v] * (ax[a] - o[a]) + u[3 * v + 1] * (ay[a] - o[a]) + u[3 * v + 2] * (az[a] - o[a]);
			worst = fmax(worst, fabs(SkinPos(w)[4 * v + a] - want));
		}
	}
	moved = fabs(ax[1] - o[1]); /* the box's x edge, level at rest, has turned */
	free(u);
	pbd_DestroyWorld(w);
	ENSURE(moved > 0.05);
	ENSURE(worst < 1e-4);
}

/* Lowest skin vertex of an object. */
static float SkinBottom(pbdWorldId w, const pbdObjectInfo* info)
{
	float lo = 1e30f;
	for (int v = info->firstSkinVertex; v < info->firstSkinVertex + info->skinVertexCount; ++v) lo = fminf(lo, SkinPos(w)[4 * v + 1]);
	return lo;
}

void Test_BodiesRestOnGround(void)
{
	pbdWorldId w = TestMotionWorld();
	TestMesh torus = TestTorus(0.3f, 0.12f, 24, 10);
	static const float cubeV[24] = { 0, 0, 0, .4f, 0, 0, 0, .4f, 0, .4f, .4f, 0, 0, 0, .4f, .4f, 0, .4f, 0, .4f, .4f, .4f, .4f, .4f };
	static const uint32_t cubeT[20] = { 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7 };
	pbdBodyDef defs[8];
	for (int i = 0; i < 8; ++i) {
		defs[i] = pbd_DefaultBodyDef();
		defs[i].type = (i & 1) ? PBD_OBJECT_RIGID : PBD_OBJECT_SOFT;
		defs[i].position[0] = -3.5f + (float)i; /* a metre apart: they do not meet */
		defs[i].position[1] = 0.6f;
		defs[i].halfExtents[0] = defs[i].halfExtents[1] = defs[i].halfExtents[2] = 0.25f;
		defs[i].radius = 0.25f;
		defs[i].resolution = 4;
	}
	defs[2].shape = defs[3].shape = pbdBodyShape_ball;
	defs[4] = TestSurfaceDef(&torus, PBD_OBJECT_SOFT, 10), defs[5] = TestSurfaceDef(&torus, PBD_OBJECT_RIGID, 10);
	defs[4].position[0] = 0.5f, defs[5].position[0] = 1.5f;
	defs[4].position[1] = defs[5].position[1] = 0.6f;
	defs[4].rotation[0] = defs[5].rotation[0] = 0.70710678f, defs[4].rotation[3] = defs[5].rotation[3] = 0.70710678f; /* ring upright */
	for (int i = 6; i < 8; ++i) {
		defs[i].shape = pbdBodyShape_tets;
		defs[i].vertices = cubeV, defs[i].vertexCount = 8, defs[i].indices = cubeT, defs[i].indexCount = 20;
		defs[i].position[1] = 0.3f;
	}
	for (int i = 0; i < 8; ++i) {
		const int first = pbd_World_AddBody(w, &defs[i]);
		if (first < 0) printf("  body %d: %s\n", i, pbd_World_GetLastErrorMessage(w));
		ENSURE(first >= 0);
	}
	for (int s = 0; s < 240; ++s) pbd_World_Step(w); /* 4 s */
	ENSURE(TestAllFinite(w));
	pbd_World_UpdateSkin(w);
	pbdStats stats;
	pbd_World_GetStats(w, &stats);
	ENSURE(stats.kineticEnergy < 1e-3); /* at rest */
	for (int o = 0; o < 8; ++o) {
		pbdObjectInfo info;
		pbd_World_GetObjectInfo(w, o, &info);
		const float r = pbd_World_GetObjectRadius(w, o);
		float lowest = 1e30f;
		for (int i = info.firstParticle; i < info.firstParticle + info.particleCount; ++i) lowest = fminf(lowest, Pos(w)[4 * i + 1]);
		const float bottom = SkinBottom(w, &info);
		if (info.type == PBD_OBJECT_SOFT) {
			double vol[3];
			ENSURE(pbd_World_GetObjectVolume(w, o, vol) == PBD_OK);
			ENSURE(vol[2] == 0.0);                                /* no tet inverted */
			ENSURE(fabs(vol[0] - vol[1]) < 0.01 * vol[1]);        /* volume kept within 1% */
		}
		ENSURE(lowest > 0.9f * r && lowest < 1.1f * r);              /* the ground holds the particles at their radius */
		if (o < 4) ENSURE(fabsf(bottom) < 0.05f * r);                /* the skin, a radius out, touches the ground */
		else if (o == 6) ENSURE(bottom == lowest);                   /* a soft tet mesh's skin is its particles */
		else if (o == 7) ENSURE(fabsf(bottom - lowest) < 1e-3f * r); /* a rigid one's, moved by the body's transform */
		else ENSURE(bottom > 0.0f && bottom < 2.0f * r);             /* a surface lies over its inside cells */
	}
	TestMeshFree(&torus);
	pbd_DestroyWorld(w);
}

/* Bodies of every kind in one scene, a cloth under a soft and a rigid box: the same bits on every
   build (native, scalar, sanitised, wasm). */
void Test_BodyDeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneBodies); /* test_scenes.c */
	ENSURE(TestAllFinite(w));
	const uint32_t hash = pbd_World_Hash(w);
	printf("  bodies on a cloth: hash 0x%08x\n", hash);
	pbd_DestroyWorld(w);
	ENSURE(TestPinnedHash(hash, PBD_BODY_DETERMINISM_HASH));
}
