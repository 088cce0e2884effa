/* Volume family tests: the signed tet volume C = V - V0 of seed 001, projected with seed 000's
   mass-weighted formula (2.2), checked against that formula computed in double; k' per pass;
   pins; the 4-wide lanes against the plain loop; inverted, flat and collapsed tets; the
   colouring's invariant; lattice soft bodies resting on the ground and turned inside out; and a
   determinism hash that every build (native, scalar, sanitizers, wasm) must reach. The soft
   bodies are made here from the builder primitives (builders/builder.h) and the families'
   building calls (test_soft_helpers.c), so the tests do not depend on the body builders. */
#include "test_volume.h"
#include "test_scenes.h"
#include "test_soft_helpers.h"
#include "test.h"
#include "families/distance_state.h"
#include "families/volume_state.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

static const float* Pos(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }

/* A world with only the volume family acting: no gravity, ground, tethers or damping. */
static pbdWorldId QuietWorld(int particles)
{
	pbdWorldId w = TestSoftWorld(particles);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	return w;
}

/* One pass of seed 000 (2.2) on the tet (x0..x3) in double: dp_i = -k w_i C / sum_j w_j |g_j|^2 g_i. */
static void ReferenceProjection(double x[4][3], const double wi[4], double V0, double k)
{
	double e[3][3], g[4][3];
	for (int m = 0; m < 3; ++m) {
		for (int c = 0; c < 3; ++c) e[m][c] = x[m + 1][c] - x[0][c];
	}
	const int cyc[3][2] = { { 1, 2 }, { 2, 0 }, { 0, 1 } }; /* g1 = e2 x e3, g2 = e3 x e1, g3 = e1 x e2, over 6 */
	for (int m = 0; m < 3; ++m) {
		const double *a = e[cyc[m][0]], *b = e[cyc[m][1]];
		g[m + 1][0] = (a[1] * b[2] - a[2] * b[1]) / 6.0;
		g[m + 1][1] = (a[2] * b[0] - a[0] * b[2]) / 6.0;
		g[m + 1][2] = (a[0] * b[1] - a[1] * b[0]) / 6.0;
	}
	for (int c = 0; c < 3; ++c) g[0][c] = -(g[1][c] + g[2][c] + g[3][c]);
	const double V = e[0][0] * g[1][0] + e[0][1] * g[1][1] + e[0][2] * g[1][2];
	double den = 0.0;
	for (int m = 0; m < 4; ++m) den += wi[m] * (g[m][0] * g[m][0] + g[m][1] * g[m][1] + g[m][2] * g[m][2]);
	const double s = -k * (V - V0) / den;
	for (int m = 0; m < 4; ++m) {
		for (int c = 0; c < 3; ++c) x[m][c] += s * wi[m] * g[m][c];
	}
}

static const float s_tet[12] = { 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f };
static const int32_t s_tetIndices[4] = { 0, 1, 2, 3 };

/* The tet's particles as doubles, and their committed volume. */
static void ReadTet(pbdWorldId w, int first, double x[4][3])
{
	const float* p = Pos(w);
	for (int m = 0; m < 4; ++m) {
		for (int c = 0; c < 3; ++c) x[m][c] = p[4 * (first + m) + c];
	}
}

static double TetVolume(pbdWorldId w, int first)
{
	const float* p = Pos(w);
	return TestVolume6(p + 4 * first, p + 4 * (first + 1), p + 4 * (first + 2), p + 4 * (first + 3)) / 6.0;
}

/* ---------------------------------------------------------------- closed forms */

/* One pass at k = 1 moves every vertex by exactly seed 000's dp_i, masses unequal. */
void Test_VolumeOneTetClosedForm(void)
{
	pbdWorldId w = QuietWorld(4);
	const float invMass[4] = { 1.0f, 0.5f, 2.0f, 0.25f };
	const int first = TestSoftObject(w, s_tet, invMass, 4, s_tetIndices, 1, 0);
	ENSURE(first == 0 && pbd_Volume_Count(pbd_GetWorld(w)) == 1);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	/* squash and shear it: V = 0.6 x 0.8 / 6 against V0 = 1/6 */
	pbd_World_SetPosition(w, 3, 0.2f, 0.1f, 0.6f);
	pbd_World_SetPosition(w, 2, -0.1f, 0.8f, 0.05f);
	double x[4][3];
	ReadTet(w, 0, x);
	const double wi[4] = { 1.0, 0.5, 2.0, 0.25 };
	ReferenceProjection(x, wi, 1.0 / 6.0, 1.0);
	ENSURE(pbd_World_Step(w) == PBD_OK);
	const float* p = Pos(w);
	for (int m = 0; m < 4; ++m) {
		for (int c = 0; c < 3; ++c) ENSURE_NEAR(p[4 * m + c], x[m][c], 2e-6);
	}
	/* the linearised step leaves a residual of second order in the error, then converges */
	const double after = fabs(TetVolume(w, 0) * 6.0 - 1.0);
	ENSURE(after > 0.0 && after < 0.5 * (1.0 - 0.48));
	for (int i = 0; i < 20; ++i) pbd_World_Step(w);
	ENSURE_NEAR(TetVolume(w, 0), 1.0 / 6.0, 2e-5);
	pbd_DestroyWorld(w);
}

/* ns passes of k' = 1 - (1 - k)^(1/ns) each (seed 000 2.2), and a pin (w = 0) never moves. */
void Test_VolumePassStiffnessAndPins(void)
{
	pbdWorldId w = QuietWorld(4);
	const float invMass[4] = { 0.0f, 1.0f, 3.0f, 0.5f };
	TestSoftObject(w, s_tet, invMass, 4, s_tetIndices, 1, 0);
	pbd_World_SetParam(w, pbdParam_stiffnessVolume, 0.6f);
	pbd_World_SetParam(w, pbdParam_iterations, 3.0f);
	pbd_World_SetPosition(w, 3, 0.1f, 0.2f, 2.0f); /* stretched: V = 2 V0 */
	double x[4][3];
	ReadTet(w, 0, x);
	const double wi[4] = { 0.0, 1.0, 3.0, 0.5 };
	const double kp = pbd_PassStiffness(0.6f, 3);
	ENSURE(kp > 0.26 && kp < 0.27); /* 1 - 0.4^(1/3) */
	for (int pass = 0; pass < 3; ++pass) ReferenceProjection(x, wi, 1.0 / 6.0, kp);
	pbd_World_Step(w);
	const float* p = Pos(w);
	for (int m = 0; m < 4; ++m) {
		for (int c = 0; c < 3; ++c) ENSURE_NEAR(p[4 * m + c], x[m][c], 2e-6);
	}
	ENSURE(p[0] == 0.0f && p[1] == 0.0f && p[2] == 0.0f);
	/* a linear constraint would keep exactly 1 - k of its error after the 3 passes; the cubic
	   volume keeps about that */
	ENSURE(fabs(TetVolume(w, 0) * 6.0 - 1.0) < 0.5 && fabs(TetVolume(w, 0) * 6.0 - 1.0) > 0.3);
	pbd_DestroyWorld(w);
}

/* Five disjoint copies of one tet form one colour: four go through the 4-wide kernel, the
   fifth through the plain loop. Every build must leave all five with the same bits, on the
   reference's values. */
void Test_VolumeLanesMatchScalar(void)
{
	pbdWorldId w = QuietWorld(20);
	float xyz[60], invMass[20];
	int32_t tets[20];
	for (int c = 0; c < 5; ++c) {
		memcpy(xyz + 12 * c, s_tet, sizeof s_tet);
		xyz[12 * c + 9] = 0.3f, xyz[12 * c + 10] = -0.2f, xyz[12 * c + 11] = 1.7f; /* built stretched: V0 = 1.7/6 */
		for (int m = 0; m < 4; ++m) tets[4 * c + m] = 4 * c + m, invMass[4 * c + m] = 1.0f + 0.5f * (float)m;
	}
	TestSoftObject(w, xyz, invMass, 20, tets, 5, 0);
	const pbdVolume* v = pbd_VolumeState(pbd_GetWorld(w));
	ENSURE(v->groupCount == 1 && v->groups[0].colourCount == 1 && v->groups[0].colourEnd[0] == 5);
	for (int c = 0; c < 5; ++c) {
		pbd_World_SetPosition(w, 4 * c + 3, 0.25f, 0.1f, 0.5f); /* squashed to V = 0.5/6 */
		pbd_World_SetPosition(w, 4 * c + 1, 1.0f, -0.3f, 0.2f);
		pbd_World_SetVelocity(w, 4 * c + 2, 0.5f, 0.25f, -1.0f);
	}
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessVolume, 0.8f);
	double x[4][3];
	ReadTet(w, 0, x);
	const double wi[4] = { 1.0, 1.5, 2.0, 2.5 };
	const double h = 1.0 / 60.0;
	for (int m = 0; m < 4; ++m) x[m][1] += -9.81 * h * h; /* p = x + h (v + h g) */
	x[2][0] += 0.5 * h, x[2][1] += 0.25 * h, x[2][2] += -1.0 * h;
	ReferenceProjection(x, wi, 1.7 / 6.0, 0.8);
	pbd_World_Step(w);
	const float* p = Pos(w);
	for (int m = 0; m < 4; ++m) {
		for (int c = 0; c < 3; ++c) ENSURE_NEAR(p[4 * m + c], x[m][c], 2e-6);
	}
	for (int i = 0; i < 30; ++i) pbd_World_Step(w);
	p = Pos(w);
	for (int c = 1; c < 5; ++c) ENSURE(memcmp(p, p + 16 * c, 16 * sizeof(float)) == 0);
	pbd_DestroyWorld(w);
}

/* A squashed tet recovers V0; one vertex mirrored through the opposite face (V = -V0, every edge
   at its rest length) is pushed back out to +V0, not toward -V0; a tet pressed flat comes back
   too. With its edges and some damping, so that the recovery's momentum dies out. */
void Test_VolumeSquashedAndInvertedRecover(void)
{
	const float targets[3][3] = { { 0.2f, 0.3f, 0.05f }, { 0.0f, 0.0f, -1.0f }, { 0.4f, 0.4f, 0.0f } };
	for (int s = 0; s < 3; ++s) {
		pbdWorldId w = QuietWorld(4);
		const float invMass[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
		TestSoftObject(w, s_tet, invMass, 4, s_tetIndices, 1, 1);
		ENSURE(pbd_World_GetConstraintCount(w) == 6);
		pbd_World_SetParam(w, pbdParam_damping, 5.0f);
		pbd_World_SetPosition(w, 3, targets[s][0], targets[s][1], targets[s][2]);
		ENSURE(s != 1 || TetVolume(w, 0) < -0.99 / 6.0);
		ENSURE(s != 2 || TetVolume(w, 0) == 0.0);
		for (int i = 0; i < 100; ++i) pbd_World_Step(w);
		ENSURE_NEAR(TetVolume(w, 0), 1.0 / 6.0, 2e-5); /* 1e-4 of V0: the passes' residual while it still moves */
		pbd_DestroyWorld(w);
	}
}

/* Collapsed (all four vertices coincident) and nearly collapsed tets have no gradient to follow:
   skipped, never 0/0 or a throw across the world. A tet built flat (V0 = 0) is held flat. */
void Test_VolumeDegenerateTetsStayFinite(void)
{
	const float one[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
	/* collapsed after building, exactly and to within 1e-6 m; five copies in one colour, so the
	   4-wide lanes and the plain loop both see it */
	for (int s = 0; s < 2; ++s) {
		pbdWorldId w = QuietWorld(20);
		float xyz[60], invMass[20];
		int32_t tets[20];
		for (int c = 0; c < 5; ++c) {
			memcpy(xyz + 12 * c, s_tet, sizeof s_tet);
			for (int m = 0; m < 4; ++m) tets[4 * c + m] = 4 * c + m, invMass[4 * c + m] = 1.0f;
		}
		TestSoftObject(w, xyz, invMass, 20, tets, 5, 0);
		uint32_t rng = 7;
		for (int i = 0; i < 20; ++i) {
			float j[3];
			for (int c = 0; c < 3; ++c) j[c] = s == 0 ? 0.0f : 1e-6f * ((float)(TestXorshift32(&rng) % 2001) / 1000.0f - 1.0f);
			pbd_World_SetPosition(w, i, 0.5f + j[0], 0.5f + j[1], 0.5f + j[2]);
		}
		for (int i = 0; i < 100; ++i) pbd_World_Step(w);
		ENSURE(TestAllFinite(w));
		const float* p = Pos(w);
		for (int i = 0; i < 20; ++i) {
			for (int c = 0; c < 3; ++c) ENSURE(fabsf(p[4 * i + c] - 0.5f) < 1e-5f);
		}
		pbd_DestroyWorld(w);
	}
	/* built collapsed, built flat */
	const float collapsed[12] = { 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3 };
	const float flat[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0 };
	const float* shapes[2] = { collapsed, flat };
	for (int s = 0; s < 2; ++s) {
		pbdWorldId w = QuietWorld(4);
		TestSoftObject(w, shapes[s], one, 4, s_tetIndices, 1, 0);
		pbd_World_SetPosition(w, 3, 1.0f, 1.0f, 0.3f);
		for (int i = 0; i < 100; ++i) pbd_World_Step(w);
		ENSURE(TestAllFinite(w));
		if (s == 1) ENSURE_NEAR(TetVolume(w, 0), 0.0, 1e-6); /* lifted to 0.05 m^3, held at 0 */
		pbd_DestroyWorld(w);
	}
	/* every vertex pinned: nothing to move, nothing divided */
	pbdWorldId w = QuietWorld(4);
	const float none[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	TestSoftObject(w, s_tet, none, 4, s_tetIndices, 1, 0);
	pbd_World_SetPosition(w, 3, 0.2f, 0.2f, 0.2f);
	pbd_World_Step(w);
	ENSURE(TestAllFinite(w) && Pos(w)[14] == 0.2f);
	pbd_DestroyWorld(w);
}

/* stiffness.volume sets every object; pbd_World_SetObjectStiffness one object; k = 0 is off. */
void Test_VolumeStiffnessPerObject(void)
{
	pbdWorldId w = QuietWorld(8);
	const float one[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
	TestSoftObject(w, s_tet, one, 4, s_tetIndices, 1, 0);
	float moved[12];
	memcpy(moved, s_tet, sizeof moved);
	for (int k = 0; k < 12; k += 3) moved[k] += 5.0f;
	TestSoftObject(w, moved, one, 4, s_tetIndices, 1, 0);
	ENSURE(pbd_World_SetObjectStiffness(w, 1, pbdKind_volume, 0.0f) == PBD_OK);
	pbd_World_SetPosition(w, 3, 0.0f, 0.0f, 0.5f);
	pbd_World_SetPosition(w, 7, 5.0f, 0.0f, 0.5f);
	for (int i = 0; i < 20; ++i) pbd_World_Step(w);
	ENSURE_NEAR(TetVolume(w, 0), 1.0 / 6.0, 1e-6);
	ENSURE_NEAR(TetVolume(w, 4), 0.5 / 6.0, 1e-7); /* off: left squashed */
	ENSURE(pbd_World_SetParam(w, pbdParam_stiffnessVolume, 1.0f) == PBD_OK); /* the world's value sets both */
	for (int i = 0; i < 20; ++i) pbd_World_Step(w);
	ENSURE_NEAR(TetVolume(w, 4), 1.0 / 6.0, 1e-6);
	pbd_DestroyWorld(w);
}

/* The heat map's value |V - V0| / V0 per particle, the largest over its tets; the mean error
   the convergence curve records; pbd_World_GetObjectVolume and its refusals. Two tets sharing the
   face (0, 1, 2) of the soft object, one stretched by half. */
void Test_VolumeErrorsAndQuery(void)
{
	pbdWorldId w = QuietWorld(8);
	const float one[5] = { 1.0f, 1.0f, 1.0f, 1.0f, 1.0f };
	pbdChainDef chain = pbd_DefaultChainDef(); /* particles 0, 1: no tets, away from the tets */
	chain.segments = 1;
	chain.start[1] = chain.end[1] = 5.0f;
	pbd_World_AddChain(w, &chain);
	float xyz[15];
	memcpy(xyz, s_tet, sizeof s_tet);
	xyz[12] = 0.0f, xyz[13] = 0.0f, xyz[14] = -1.0f;
	const int32_t tets[8] = { 0, 1, 2, 3, 0, 2, 1, 4 };
	ENSURE(TestSoftObject(w, xyz, one, 5, tets, 2, 0) == 2);
	pbd_World_SetPosition(w, 5, 0.0f, 0.0f, 1.5f); /* the first tet at V = 1.5 V0 */
	ENSURE(pbd_World_UpdateErrors(w) == PBD_OK);
	const float* e = (const float*)pbd_World_GetBuffer(w, pbdBuffer_errors, NULL);
	ENSURE(e[0] == 0.0f && e[1] == 0.0f && e[6] == 0.0f);
	for (int m = 2; m < 6; ++m) ENSURE_NEAR(e[m], 0.5, 1e-6);
	double out[3] = { -1, -1, -1 };
	ENSURE(pbd_World_GetObjectVolume(w, 1, out) == PBD_OK);
	ENSURE_NEAR(out[0], 2.5 / 6.0, 1e-7);
	ENSURE_NEAR(out[1], 2.0 / 6.0, 1e-7);
	ENSURE(out[2] == 0.0);
	pbd_World_SetPosition(w, 5, 0.0f, 0.0f, -1.0f); /* inverted onto the second */
	ENSURE(pbd_World_GetObjectVolume(w, 1, out) == PBD_OK);
	ENSURE_NEAR(out[0], 0.0, 1e-7);
	ENSURE(out[2] == 1.0);
	ENSURE(pbd_World_GetObjectVolume(w, 0, out) == PBD_OK); /* the chain: no tets */
	ENSURE(out[0] == 0.0 && out[1] == 0.0 && out[2] == 0.0);
	ENSURE(pbd_World_GetObjectVolume(w, 2, out) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "object 2 of 2") != NULL);
	ENSURE(pbd_World_GetObjectVolume(w, 1, NULL) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_GetObjectVolume(w + 1, 1, out) == PBD_ERR_INVALID_WORLD);
	/* the curve's mean over the chain (0) and the tets (0.5 and 0, at k = 0 nothing moves) */
	pbd_World_SetParam(w, pbdParam_stiffnessVolume, 0.0f);
	pbd_World_SetPosition(w, 5, 0.0f, 0.0f, 1.5f);
	pbd_World_SetParam(w, pbdParam_recordConvergence, 1.0f);
	pbd_World_Step(w);
	const float* curve = (const float*)pbd_World_GetBuffer(w, pbdBuffer_convergence, NULL);
	ENSURE_NEAR(curve[0], 0.5 / 3.0, 1e-6);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- colouring */

/* No two tets of a colour share a particle (what the 4-wide kernel relies on); the sort kept
   every tet (each rest volume still matches its positions); 32 colours hold a lattice. */
void Test_VolumeColoursShareNoParticle(void)
{
	pbdWorldId id = TestSoftWorld(2000);
	const float origin[3] = { 0.0f, 0.0f, 0.0f };
	ENSURE(TestSoftLattice(id, 6, 5, 7, origin, 0.1f, 0.01f) == 0);
	pbdWorld* w = pbd_GetWorld(id);
	const pbdVolume* v = pbd_VolumeState(w);
	ENSURE(v->count == 6 * 6 * 5 * 7 && v->groupCount == 1);
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(id, 0, &info);
	ENSURE(info.type == PBD_OBJECT_SOFT && info.firstTet == 0 && info.tetCount == v->count);
	const pbdVolumeGroup* g = &v->groups[0];
	ENSURE(g->colourCount >= 24 && g->colourCount <= PBD_VOLUME_COLOURS);
	uint8_t* seen = calloc((size_t)w->particleCount, 1);
	int32_t from = g->first;
	for (int c = 0; c < g->colourCount; ++c) {
		memset(seen, 0, (size_t)w->particleCount);
		for (int32_t t = from; t < g->colourEnd[c]; ++t) {
			for (int m = 0; m < 4; ++m) {
				const int32_t i = v->tets[4 * t + m];
				ENSURE(!seen[i]);
				seen[i] = 1;
			}
		}
		from = g->colourEnd[c];
	}
	free(seen);
	const int overflow = g->first + g->count - from;
	printf("  %d tets in %d colours, %d in the overflow set\n", v->count, g->colourCount, overflow);
	ENSURE(overflow * 25 <= v->count); /* at most 4% */
	for (int32_t t = 0; t < v->count; ++t) {
		const int32_t* tet = v->tets + 4 * t;
		const double V6 = TestVolume6(w->x + 4 * tet[0], w->x + 4 * tet[1], w->x + 4 * tet[2], w->x + 4 * tet[3]);
		ENSURE_NEAR(V6, 1e-3, 1e-9); /* every Kuhn tet is 1/6 of its cube, oriented positive */
		ENSURE(v->rest6[t] == pbd_Volume_Six(w->x, tet, NULL));
	}
	pbd_DestroyWorld(id);
}

/* ---------------------------------------------------------------- lattices */

/* Total volume of object 0 (out as pbd_World_GetObjectVolume) and the worst |length / rest - 1|
   of the world's distance constraints. */
static void Measure(pbdWorldId id, double out[3], double* maxStrain)
{
	pbd_World_GetObjectVolume(id, 0, out);
	const pbdDistance* d = pbd_DistanceState(pbd_GetWorld(id));
	const float* x = Pos(id);
	*maxStrain = 0.0;
	for (int c = 0; c < d->count; ++c) {
		const double e = fabs(TestDistance(x, d->ca[c], d->cb[c]) / d->rest[c] - 1.0);
		if (e > *maxStrain) *maxStrain = e;
	}
}

/* A jelly cube of 6^3 cells (30 cm, 1 kg) dropped onto the ground, resting there for 5 s under
   gravity at the scene defaults (10 substeps x 1 pass): its volume stays within 1% of the rest
   volume and no tet is inverted (the first test). */
void Test_VolumeLatticeRestsOnGround(void)
{
	pbdWorldId id = TestSoftWorld(400);
	pbd_World_SetParam(id, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 1.0f);
	const float origin[3] = { -0.15f, 0.05f, -0.15f };
	ENSURE(TestSoftLattice(id, 6, 6, 6, origin, 0.05f, 1.0f / 343.0f) == 0);
	double out[3], worst = 0.0, strain;
	for (int i = 0; i < 300; ++i) {
		pbd_World_Step(id);
		Measure(id, out, &strain);
		ENSURE(out[2] == 0.0);
		const double e = fabs(out[0] / out[1] - 1.0);
		if (e > worst) worst = e;
	}
	printf("  rest volume %.6f m^3, after 5 s %.6f (worst %.3f%%, at the landing)\n", out[1], out[0], 100.0 * worst);
	ENSURE_NEAR(out[1], 0.3 * 0.3 * 0.3, 1e-6);
	ENSURE(fabs(out[0] / out[1] - 1.0) < 0.01);
	float lowest = 1e9f;
	for (int i = 0; i < 343; ++i) lowest = fminf(lowest, Pos(id)[4 * i + 1]);
	ENSURE_NEAR(lowest, 0.005, 5e-4); /* resting on the ground at the particle radius (thickness / 2) */
	ENSURE(TestAllFinite(id));
	pbd_DestroyWorld(id);
}

/* The same cube turned inside out (x -> -x about its centre: every tet inverted, every edge at
   its rest length, so only the signed volumes push) comes back: every tet positive, the volume
   within 1% and every edge within 1% of its rest length (the "a fully inverted mesh
   recovers its rest shape"; an unsigned volume constraint would keep it as it is). */
void Test_VolumeMirroredCubeRecovers(void)
{
	pbdWorldId id = TestSoftWorld(400);
	pbd_World_SetParam(id, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(id, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(id, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(id, pbdParam_damping, 1.0f);
	const float origin[3] = { -0.15f, 1.0f, -0.15f };
	ENSURE(TestSoftLattice(id, 6, 6, 6, origin, 0.05f, 1.0f / 343.0f) == 0);
	for (int i = 0; i < 343; ++i) {
		const float* x = Pos(id) + 4 * i;
		pbd_World_SetPosition(id, i, -x[0], x[1], x[2]);
	}
	double out[3], strain;
	Measure(id, out, &strain);
	ENSURE(out[2] == 6.0 * 216 && strain < 1e-6);
	ENSURE_NEAR(out[0], -out[1], 1e-6);
	for (int i = 0; i < 120; ++i) pbd_World_Step(id);
	Measure(id, out, &strain);
	printf("  after 2 s: volume %.3f%% of rest, %g tets inverted, worst edge strain %.3f%%\n", 100.0 * out[0] / out[1], out[2],
		   100.0 * strain);
	ENSURE(out[2] == 0.0);
	ENSURE(fabs(out[0] / out[1] - 1.0) < 0.01);
	ENSURE(strain < 0.01);
	ENSURE(TestAllFinite(id));
	/* the control: without the volumes nothing pushes (every edge is at its rest length) */
	for (int i = 0; i < 343; ++i) {
		const float* x = Pos(id) + 4 * i;
		pbd_World_SetPosition(id, i, -x[0], x[1], x[2]);
		pbd_World_SetVelocity(id, i, 0.0f, 0.0f, 0.0f);
	}
	pbd_World_SetParam(id, pbdParam_stiffnessVolume, 0.0f);
	for (int i = 0; i < 120; ++i) pbd_World_Step(id);
	Measure(id, out, &strain);
	ENSURE(out[2] == 6.0 * 216);
	pbd_DestroyWorld(id);
}
/* ---------------------------------------------------------------- determinism */

/* A soft box thrown spinning onto the ground, its edges and volumes at stiffness < 1, plastic, at
   the scene defaults (10 substeps x 1 pass), and a second soft box resting further away: every
   build (native SIMD, scalar, sanitizers, wasm) must end on the same bits. Colours of 4n + 1..3
   tets and the serial path run too. */
void Test_VolumeDeterminismHash(void)
{
	pbdWorldId id = TestSceneRun(&g_sceneSoft); /* test_scenes.c: 180 steps */
	ENSURE(TestAllFinite(id));
	double out[3];
	pbd_World_GetObjectVolume(id, 0, out);
	ENSURE(out[2] == 0.0 && fabs(out[0] / out[1] - 1.0) < 0.05);
	/* the landing bent the plastic box for good, and only it */
	const pbdDistance* d = pbd_DistanceState(pbd_GetWorld(id));
	int crept[2] = { 0, 0 };
	for (int c = 0; c < d->count; ++c) crept[d->ca[c] >= 72] += d->rest[c] != d->restOriginal[c];
	printf("  %d edges of the plastic box crept, %d of the other\n", crept[0], crept[1]);
	ENSURE(crept[0] > 10 && crept[1] == 0);
	const uint32_t hash = pbd_World_Hash(id);
	printf("  soft-body determinism hash 0x%08x\n", hash);
	ENSURE(TestPinnedHash(hash, PBD_VOLUME_DETERMINISM_HASH));
	pbd_DestroyWorld(id);
}
