/* Inflatable tests: the built-in sphere's counts and closedness; one projection of the
   overpressure constraint (Mueller et al. 2007 4.4) against seed 000's formula in double; the
   volume at rest at k_pressure V0 for two pressures and two resolutions; a balloon pressed by a
   kinematic box keeps its volume; closed meshes jittered never give a NaN and broken ones are
   refused with a message; the same bits on any thread count. */
#include "test_inflatables.h"
#include "test.h"
#include "families/inflatables.h"
#include "test_fluid_helpers.h"

#include <stdlib.h>
#include <string.h>

#ifndef __EMSCRIPTEN__
#include "host/threads.h"
#define TEST_THREADS 1
#else
#define TEST_THREADS 0
#endif

static pbdWorldId InflatableWorld(int particles, float gravity)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxTriangles = 4 * particles;
	def.maxConstraints = 8 * particles;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_gravityY, gravity);
	pbd_World_SetParam(w, pbdParam_groundEnabled, gravity != 0.0f ? 1.0f : 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	return w;
}

static int AddBalloon(pbdWorldId w, float y, float radius, int n, float pressure)
{
	pbdInflatableDef def = pbd_DefaultInflatableDef();
	def.center[1] = y;
	def.radius = radius;
	def.resolution = n;
	def.pressure = pressure;
	return pbd_World_AddInflatable(w, &def);
}

void Test_InflatableSphereCounts(void)
{
	for (int n = 1; n <= 6; ++n) {
		int32_t p, c, t;
		pbd_InflatableCounts(n, &p, &c, &t);
		ENSURE(p == 10 * n * n + 2 && t == 20 * n * n && c == 60 * n * n);
		pbdWorldId w = InflatableWorld(p, 0.0f);
		ENSURE(AddBalloon(w, 0.0f, 1.0f, n, 1.0f) == 0); /* closed and oriented, or refused */
		pbdObjectInfo info;
		ENSURE(pbd_World_GetObjectInfo(w, 0, &info) == PBD_OK);
		ENSURE(info.type == PBD_OBJECT_INFLATABLE && info.particleCount == p && info.triangleCount == t && info.constraintCount == c);
		/* every vertex on the sphere; the enclosed volume that of the inscribed polyhedron: below 4/3 pi and
		   approaching it as 1 - O(1/n^2) */
		const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		for (int i = 0; i < p; ++i) ENSURE_NEAR(sqrt(x[4 * i] * x[4 * i] + x[4 * i + 1] * x[4 * i + 1] + x[4 * i + 2] * x[4 * i + 2]), 1.0, 1e-5);
		double v[3];
		ENSURE(pbd_GetInflatableVolume(w, 0, v) == PBD_OK);
		ENSURE(v[0] < 4.18879020478639 && v[0] > 4.18879020478639 * (1.0 - 2.0 / (n * n)));
		ENSURE_NEAR(v[0], v[1], 1e-6 * v[1]);
		if (n == 1) ENSURE_NEAR(v[0], 2.53615071, 1e-5); /* the unit icosahedron's circumradius-1 volume */
		pbd_DestroyWorld(w);
	}
	int32_t p = -1;
	pbd_InflatableCounts(0, &p, NULL, NULL);
	ENSURE(p == 0);
}

/* One step of one pass, everything else off: the particles move as seed 000 2.2 says for C = V - k V0 with
   grad_i V = 1/6 sum of the incident triangles' cross products (computed here in double). */
void Test_InflatableOneProjectionClosedForm(void)
{
	pbdWorldId w = InflatableWorld(42, 0.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_collisions, 0.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessStretch, 0.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessBend, 0.0f);
	ENSURE(AddBalloon(w, 0.0f, 0.5f, 2, 1.3f) == 0);
	pbd_World_SetMass(w, 3, 0.004f);
	pbd_World_SetInvMass(w, 7, 0.0f);
	const int n = pbd_World_GetParticleCount(w), nt = 80;
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const uint32_t* tri = (const uint32_t*)pbd_World_GetBuffer(w, pbdBuffer_triangles, NULL);
	double p[42][3], g[42][3], wi[42], V6 = 0.0;
	memset(g, 0, sizeof g);
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < 3; ++k) p[i][k] = x[4 * i + k];
		wi[i] = x[4 * i + 3];
	}
	for (int t = 0; t < nt; ++t) {
		const double *a = p[tri[3 * t]], *b = p[tri[3 * t + 1]], *c = p[tri[3 * t + 2]];
		const double* q[3] = { a, b, c };
		for (int k = 0; k < 3; ++k) {
			const double *u = q[(k + 1) % 3], *v = q[(k + 2) % 3];
			double cr[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
			if (k == 0) V6 += a[0] * cr[0] + a[1] * cr[1] + a[2] * cr[2];
			for (int d = 0; d < 3; ++d) g[tri[3 * t + k]][d] += cr[d] / 6.0;
		}
	}
	double den = 0.0;
	for (int i = 0; i < n; ++i) den += wi[i] * (g[i][0] * g[i][0] + g[i][1] * g[i][1] + g[i][2] * g[i][2]);
	const double C = V6 / 6.0 - 1.3 * V6 / 6.0, s = C / den;
	ENSURE(pbd_World_Step(w) == PBD_OK);
	x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < 3; ++k) ENSURE_NEAR(x[4 * i + k], p[i][k] - s * wi[i] * g[i][k], 2e-6);
	}
	ENSURE(x[4 * 7] == (float)p[7][0]); /* pinned */
	pbd_DestroyWorld(w);
}

/* Inflated at k_pressure 1 and 1.5 at two resolutions, no gravity, its edges at the default stiffness (they
   pull back as the surface stretches): at rest it encloses k_pressure V0 within 1%. */
void Test_InflatableRestVolume(void)
{
	const float pressures[2] = { 1.0f, 1.5f };
	const int resolutions[2] = { 3, 6 };
	for (int r = 0; r < 2; ++r) {
		for (int k = 0; k < 2; ++k) {
			pbdWorldId w = InflatableWorld(400, 0.0f);
			pbd_World_SetParam(w, pbdParam_damping, 2.0f);
			ENSURE(AddBalloon(w, 1.0f, 0.3f, resolutions[r], pressures[k]) == 0);
			for (int s = 0; s < 300; ++s) ENSURE(pbd_World_Step(w) == PBD_OK);
			double v[3];
			ENSURE(pbd_GetInflatableVolume(w, 0, v) == PBD_OK);
			ENSURE_NEAR(v[0], pressures[k] * v[1], 0.01 * pressures[k] * v[1]);
			ENSURE(v[2] == pressures[k]);
			pbd_DestroyWorld(w);
		}
	}
}

/* A balloon on the ground, a kinematic box lowered onto it to squash it to 60% of its height: its volume
   stays within 2% of V0 (the surface bulges out at the sides instead). */
void Test_InflatablePressedByBox(void)
{
	pbdWorldId w = InflatableWorld(400, -9.81f);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	/* rubber: a surface that cannot stretch cannot keep its volume squashed (the sphere holds the most for its area) */
	pbd_World_SetParam(w, pbdParam_stiffnessStretch, 0.05f);
	pbd_World_SetParam(w, pbdParam_stiffnessBend, 0.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 4.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	ENSURE(AddBalloon(w, 0.3f, 0.3f, 5, 1.0f) == 0);
	pbdColliderDef box = pbd_DefaultColliderDef();
	box.type = pbdShape_box;
	box.halfExtents[0] = box.halfExtents[1] = box.halfExtents[2] = 0.5f;
	box.position[1] = 1.2f;
	ENSURE(pbd_World_AddCollider(w, &box) >= 0);
	double lowest = 1e9;
	for (int s = 0; s < 240; ++s) {
		const float y = s < 120 ? 1.2f - 0.0035f * (float)s : 1.2f - 0.42f; /* its bottom from 0.7 to 0.28 m */
		pbd_World_SetColliderTransform(w, 0, 0.0f, y, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
		ENSURE(pbd_World_Step(w) == PBD_OK);
		ENSURE(TestAllFinite(w));
	}
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	double top = -1e9;
	for (int i = 0; i < pbd_World_GetParticleCount(w); ++i) top = x[4 * i + 1] > top ? x[4 * i + 1] : top, lowest = x[4 * i + 1] < lowest ? x[4 * i + 1] : lowest;
	ENSURE(top < 0.3 && top - lowest < 0.62 * 0.6); /* squashed */
	double v[3];
	ENSURE(pbd_GetInflatableVolume(w, 0, v) == PBD_OK);
	ENSURE_NEAR(v[0], v[1], 0.02 * v[1]);
	pbd_DestroyWorld(w);
}

/* A balloon of radius 8 cm (edges about the water's spacing d = 2 cm, so its particles keep the water out) weighing
   30% of the water its whole volume would displace, dropped on a tank of water 8 d deep: it floats, partly under
   the water's surface (the mean top of the columns clear of it, plus d / 2), its top out of it.
   Not yet held: the submerged volume Archimedes gives (m / rho0). The waterline a sphere of its volume would
   have is printed beside the surface: measured 3.6 cm (1.8 d) above it, the balloon rides high (the fluid counts
   each shell particle as solid of its spacing cubed, Macklin et al. 2014 7.1, and a shell is not a solid). */
void Test_InflatableFloats(void)
{
	const float D = 0.02f, L = 16 * D, H = 8 * D, R = 0.08f;
	pbdWorldId w = FluidWorld(6000, 4000, 2, 4);
	FluidTank(w, L, L, 0.5f);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	const float mass = 0.3f * 1000.0f * 4.18879020f * R * R * R;
	pbdInflatableDef def = pbd_DefaultInflatableDef();
	def.center[0] = def.center[2] = 0.5f * L, def.center[1] = H + R + D;
	def.radius = R, def.resolution = 4, def.mass = mass / 162.0f;
	const int first = pbd_World_AddInflatable(w, &def);
	ENSURE(first >= 0);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_stretch, 0.5f);
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, L, H, L, 0) >= 0);
	for (int s = 0; s < 300; ++s) ENSURE(pbd_World_Step(w) == PBD_OK);
	ENSURE(TestAllFinite(w));
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	float lo = 1e9f, hi = -1e9f, cx = 0.0f, cz = 0.0f;
	for (int i = first; i < first + 162; ++i) {
		lo = x[4 * i + 1] < lo ? x[4 * i + 1] : lo, hi = x[4 * i + 1] > hi ? x[4 * i + 1] : hi;
		cx += x[4 * i] / 162.0f, cz += x[4 * i + 2] / 162.0f;
	}
	/* the surface: the mean of the highest water particle over the columns d x d farther than 1.5 R from it */
	enum { N = 16 };
	float top[N][N];
	for (int k = 0; k < N * N; ++k) top[k / N][k % N] = -1.0f;
	pbdObjectInfo info;
	ENSURE(pbd_World_GetObjectInfo(w, 1, &info) == PBD_OK && info.type == PBD_OBJECT_FLUID);
	for (int i = info.firstParticle; i < info.firstParticle + info.activeParticles; ++i) {
		const int a = (int)(x[4 * i] / D), c = (int)(x[4 * i + 2] / D);
		if (a >= 0 && a < N && c >= 0 && c < N && x[4 * i + 1] > top[a][c]) top[a][c] = x[4 * i + 1];
	}
	double sum = 0.0;
	int columns = 0;
	for (int a = 1; a < N - 1; ++a) {
		for (int c = 1; c < N - 1; ++c) {
			const float dx = (a + 0.5f) * D - cx, dz = (c + 0.5f) * D - cz;
			if (top[a][c] < 0.0f || dx * dx + dz * dz < 2.25f * R * R) continue;
			sum += top[a][c], columns += 1;
		}
	}
	ENSURE(columns >= 20);
	const double surface = sum / columns + 0.5 * D;
	/* Archimedes' waterline. The skin has thickness: the water's particles stay r_f + c from the skin's centres
	   (fluid_solve.c's solid contact, c = pbd_Material_ContactRadius of the balloon, half the world's thickness
	   here), and the water's own edge is r_f beyond its centres (as `surface` above counts it), so the body the
	   water sees is the sphere of the skin's centres grown by c: radius r + c about the centres' mean, with r
	   from the volume the pressure holds now. The cap of depth h under it holds m / rho0,
	   pi h^2 (3 R - h) / 3 = m / rho0 with R = r + c, solved by bisection. */
	double v[3];
	ENSURE(pbd_GetInflatableVolume(w, 0, v) == PBD_OK);
	const double c = 0.5 * pbd_World_GetParam(w, pbdParam_thickness);
	double cy = 0.0, wide = 0.0;
	for (int i = first; i < first + 162; ++i) {
		const double dx = x[4 * i] - cx, dz = x[4 * i + 2] - cz, rr = sqrt(dx * dx + dz * dz);
		cy += x[4 * i + 1] / 162.0, wide = rr > wide ? rr : wide;
	}
	const double r = cbrt(v[0] / 4.18879020478639), Rw = r + c, want = mass / 1000.0;
	double a = 0.0, b = 2.0 * Rw;
	for (int k = 0; k < 60; ++k) {
		const double h = 0.5 * (a + b);
		if (3.14159265358979 * h * h * (3.0 * Rw - h) / 3.0 < want) a = h;
		else b = h;
	}
	const double waterline = cy - Rw + a;
	printf("  floating: surface %.4f m, centres' bottom %.4f, mean %.4f, top %.4f, widest %.4f; r %.4f + c %.4f; "
		   "Archimedes' waterline %.4f (cap %.4f of %.4f), off by %.2f layers\n",
		   surface, lo, cy, hi, wide, r, c, waterline, a, 2.0 * Rw, (waterline - surface) / D);
	/* floating, partly under water: its lowest centres 0.82 d under the surface (1.1 d while the walls pushed
	   twice and the water boiled, fluid_solve.c) */
	ENSURE(hi > surface + D && lo < surface - 0.5 * D);
	ENSURE(fabs(waterline - surface) <= D);       /* Archimedes within one fluid layer */
	pbd_DestroyWorld(w);
}

/* Random closed meshes (the sphere jittered) step without a NaN, thrown about at any pressure; broken ones
   (a triangle gone, one flipped, one repeated, a repeated corner, no area, a vertex of no triangle, an index out
   of range) are refused with a message and leave the world as it was. */
void Test_InflatableMeshesRefusedOrFinite(void)
{
	uint32_t seed = 0x1234567u;
	for (int round = 0; round < 8; ++round) {
		const int n = 1 + (int)(TestXorshift32(&seed) % 3);
		int32_t nv, nt;
		pbd_InflatableCounts(n, &nv, NULL, &nt);
		pbdWorldId src = InflatableWorld(nv, 0.0f);
		ENSURE(AddBalloon(src, 0.0f, 0.4f, n, 1.0f) == 0);
		const float* x = (const float*)pbd_World_GetBuffer(src, pbdBuffer_positions, NULL);
		float* v = malloc(sizeof(float) * 3 * (size_t)(nv + 1));
		uint32_t* idx = malloc(sizeof(uint32_t) * 3 * (size_t)(nt + 1));
		for (int i = 0; i < nv; ++i) {
			for (int k = 0; k < 3; ++k) v[3 * i + k] = x[4 * i + k] * (1.0f + 0.3f * (float)(TestXorshift32(&seed) % 1000) / 1000.0f);
		}
		memcpy(idx, pbd_World_GetBuffer(src, pbdBuffer_triangles, NULL), sizeof(uint32_t) * 3 * (size_t)nt);
		pbd_DestroyWorld(src);

		pbdWorldId w = InflatableWorld(2 * nv + 2, -9.81f);
		pbdInflatableDef def = pbd_DefaultInflatableDef();
		def.vertices = v, def.vertexCount = nv, def.indices = idx, def.triangleCount = nt;
		def.center[1] = 1.0f;
		def.pressure = 0.2f + 3.0f * (float)(TestXorshift32(&seed) % 100) / 100.0f;
		ENSURE(pbd_World_AddInflatable(w, &def) == 0);
		const int t = (int)(TestXorshift32(&seed) % (uint32_t)nt);
		uint32_t keep[3];
		memcpy(keep, idx + 3 * t, sizeof keep);
		for (int broken = 0; broken < 7; ++broken) {
			pbdInflatableDef bad = def;
			memcpy(idx + 3 * t, keep, sizeof keep);
			if (broken == 0) bad.triangleCount = nt - 1, memcpy(idx + 3 * t, idx + 3 * (nt - 1), sizeof keep);
			if (broken == 1) idx[3 * t + 1] = keep[2], idx[3 * t + 2] = keep[1];
			if (broken == 2) memcpy(idx + 3 * nt, idx, sizeof keep), bad.triangleCount = nt + 1;
			if (broken == 3) idx[3 * t + 1] = keep[0];
			if (broken == 4) memcpy(v + 3 * nv, v + 3 * keep[0], 3 * sizeof(float)), bad.vertexCount = nv + 1;
			if (broken == 5) idx[3 * t + 2] = (uint32_t)nv + 5;
			if (broken == 6) bad.mass = 0.0f / 0.0f;
			const int before = pbd_World_GetParticleCount(w);
			const int rc = pbd_World_AddInflatable(w, &bad);
			if (rc >= 0) printf("  broken mesh %d accepted\n", broken);
			ENSURE(rc < 0 && strlen(pbd_World_GetLastErrorMessage(w)) > 10 && pbd_World_GetParticleCount(w) == before);
		}
		memcpy(idx + 3 * t, keep, sizeof keep);
		for (int i = 0; i < nv; ++i) {
			const float s = (float)(TestXorshift32(&seed) % 2000) / 100.0f - 10.0f;
			pbd_World_SetVelocity(w, i, s, -s, 0.5f * s);
		}
		for (int s = 0; s < 60; ++s) ENSURE(pbd_World_Step(w) == PBD_OK);
		ENSURE(TestAllFinite(w));
		double vol[3];
		ENSURE(pbd_GetInflatableVolume(w, 0, vol) == PBD_OK && vol[0] == vol[0]);
		/* crushed flat onto one point: skipped, never a NaN */
		for (int i = 0; i < nv; ++i) pbd_World_SetPosition(w, i, 0.0f, 0.5f, 0.0f);
		for (int s = 0; s < 5; ++s) ENSURE(pbd_World_Step(w) == PBD_OK);
		ENSURE(TestAllFinite(w));
		pbd_DestroyWorld(w);
		free(v), free(idx);
	}
}

/* Three balloons bumping each other on the ground: the same hash with 1, 2, 3 and 4 threads. */
static uint32_t ThreeBalloons(void* team, int threads)
{
	pbdWorldId w = InflatableWorld(1000, -9.81f);
	for (int b = 0; b < 3; ++b) {
		pbdInflatableDef def = pbd_DefaultInflatableDef();
		def.center[0] = 0.3f * (float)b - 0.3f, def.center[1] = 0.4f + 0.5f * (float)b;
		def.radius = 0.2f, def.resolution = 5, def.pressure = 1.0f + 0.2f * (float)b;
		if (pbd_World_AddInflatable(w, &def) < 0) return 0;
	}
#if TEST_THREADS
	if (team != NULL && pbd_World_SetThreads(w, team, threads) != PBD_OK) return 0;
#endif
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	const uint32_t hash = TestAllFinite(w) ? pbd_World_Hash(w) : 0;
	pbd_DestroyWorld(w);
	return hash;
}

void Test_InflatableSameBitsAnyThreads(void)
{
	const uint32_t reference = ThreeBalloons(NULL, 1);
	printf("  three balloons 0x%08x\n", reference);
	ENSURE(reference != 0);
#if TEST_THREADS
	pbdThreads* threads = pbd_Threads_Start(4);
	ENSURE(threads != NULL);
	for (int k = 1; k <= 4; ++k) ENSURE(ThreeBalloons(pbd_Threads_Team(threads), k) == reference);
	pbd_Threads_Stop(threads);
#endif
}
