/* Instrument tests: what the page reads besides positions -- normals and triangles, the ray pick,
   the heat map's relative errors, the convergence curve in closed form (seed 000 2.2) -- and
   DeterminismHash, the same bits on every build (tests/node/engine.test.mjs reads its constant
   from this file). */
#include "test_physics_helpers.h"
#include "test_scenes.h"

void Test_NormalsUnitLength(void)
{
	pbdWorldId w = MakeWorld(100, 1000);
	AddCloth(w, 10, 10, 1.0f);
	pbd_World_UpdateNormals(w);
	const float* n = (const float*)pbd_World_GetBuffer(w, pbdBuffer_normals, NULL);
	for (int i = 0; i < 100; ++i) {
		/* flat cloth in the xy plane, front face toward +z */
		ENSURE_NEAR(n[4 * i + 2], 1.0f, 1e-6);
	}
	int count = 0;
	const uint32_t* t = (const uint32_t*)pbd_World_GetBuffer(w, pbdBuffer_triangles, &count);
	ENSURE(count == 2 * 9 * 9 && t != NULL);
	for (int i = 0; i < 3 * count; ++i) ENSURE(t[i] < 100);
	pbd_DestroyWorld(w);
}

void Test_RayPickNearest(void)
{
	pbdWorldId w = MakeWorld(100, 1000);
	AddCloth(w, 10, 10, 1.0f); /* x in [-1, 1], y in [-1, 1], z = 0 */
	const float* x = X(w);
	int target = 5 * 10 + 3;
	int hit = pbd_World_RayPick(w, x[4 * target], x[4 * target + 1] + 0.01f, 5.0f, 0, 0, -1, 0.05f);
	ENSURE(hit == target);
	ENSURE(pbd_World_RayPick(w, 10, 10, 5, 0, 0, -1, 0.05f) == -1);
	ENSURE(pbd_World_RayPick(w, x[0], x[1], 5, 0, 0, 1, 0.05f) == -1); /* behind the ray */
	ENSURE(pbd_World_RayPick(w, 0, 0, 5, NAN, 0, -1, 0.05f) == -1);
	pbd_DestroyWorld(w);
}

/* The heat map's numbers: each end of a stretched pair reports C / rest. */
void Test_ErrorBufferRelative(void)
{
	pbdWorldId w = MakeWorld(3, 2);
	pbdChainDef def = pbd_DefaultChainDef();
	def.end[0] = 2.0f;
	def.segments = 2; /* rest 1 each */
	pbd_World_AddChain(w, &def);
	pbd_World_SetPosition(w, 2, 2.5f, 0.0f, 0.0f); /* second link 1.5 long: error 0.5 */
	ENSURE(pbd_World_UpdateErrors(w) == PBD_OK);
	int count = 0;
	const float* e = (const float*)pbd_World_GetBuffer(w, pbdBuffer_errors, &count);
	ENSURE(count == 3);
	ENSURE_NEAR(e[0], 0.0f, 1e-7);
	ENSURE_NEAR(e[1], 0.5f, 1e-6);
	ENSURE_NEAR(e[2], 0.5f, 1e-6);
	pbd_DestroyWorld(w);
}

/* The convergence curve of a lone constraint is the closed form of seed 000 2.2:
   after pass i the relative error is (1 - k')^i C0 / rest, ending at (1 - k) C0 / rest. */
void Test_ConvergenceCurveClosedForm(void)
{
	pbdWorldId w = MakeWorld(2, 1);
	AddPair(w, 0, 0, 0, 1, 0, 0);
	pbd_World_SetPosition(w, 1, 1.4f, 0.0f, 0.0f); /* C0 / rest = 0.4 */
	pbd_World_SetParam(w, pbdParam_stiffnessChain, 0.75f);
	pbd_World_SetParam(w, pbdParam_iterations, 5.0f);
	pbd_World_SetParam(w, pbdParam_recordConvergence, 1.0f);
	pbd_World_Step(w);
	int count = 0;
	const float* curve = (const float*)pbd_World_GetBuffer(w, pbdBuffer_convergence, &count);
	ENSURE(count == 5);
	double kp = pbd_PassStiffness(0.75f, 5);
	for (int i = 0; i < 5; ++i) ENSURE_NEAR(curve[i], 0.4 * pow(1.0 - kp, i + 1), 2e-6);
	ENSURE_NEAR(curve[4], 0.25 * 0.4, 2e-6);
	/* off: nothing recorded */
	pbd_World_SetParam(w, pbdParam_recordConvergence, 0.0f);
	pbd_World_Step(w);
	ENSURE(pbd_World_GetCount(w, pbdBuffer_convergence) == 0);
	pbd_DestroyWorld(w);
}

/* Same inputs, same bits: on every build (native SIMD, native scalar, sanitizers,
   wasm SIMD) this scene hashes to the same constant. A change to the solver's
   arithmetic must update the constant on purpose. */
void Test_DeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneDeterminism); /* test_scenes.c */
	uint32_t hash = pbd_World_Hash(w);
	printf("  determinism hash 0x%08x\n", hash);
	ENSURE(TestPinnedHash(hash, PBD_DETERMINISM_HASH));
	pbd_DestroyWorld(w);
}
