/* Surface tests (a triangle surface, an OBJ model's path into a body): the ray-parity inside
   test against an independent winding number, for a cube turned every which way, an octahedron
   whose vertices lie on the rays' rows and a torus with its hole; good surfaces load with their
   closed-form particle counts; open, flipped, non-manifold, self-intersecting and degenerate
   surfaces become the bodies a person expects; what no reading makes a body of is refused,
   naming what is wrong. The generalized winding number (builders/winding.h) against closed
   forms, its tree against the exact sum, the deterministic arctangent against libm's. */
#include "base/detmath.h"
#include "builders/surface.h"
#include "builders/winding.h"
#include "test.h"
#include "test_body_helpers.h"

#include <stdlib.h>
#include <string.h>

static pbdLattice s_lat;

/* The lattice pbd_World_AddBody fits to a surface (body.c PlanSurface): resolution cubic cells
   along the longest side of its bounds, the others to cover it, centred on it. */
static void FitLattice(pbdLattice* lat, const TestMesh* m, int res)
{
	float lo[3], hi[3];
	for (int a = 0; a < 3; ++a) lo[a] = hi[a] = m->v[a];
	for (int i = 1; i < m->vertexCount; ++i) {
		for (int a = 0; a < 3; ++a) {
			lo[a] = fminf(lo[a], m->v[3 * i + a]);
			hi[a] = fmaxf(hi[a], m->v[3 * i + a]);
		}
	}
	float longest = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
	const float s = longest / (float)res;
	int32_t n[3];
	float origin[3];
	const float spacing[3] = { s, s, s };
	for (int a = 0; a < 3; ++a) {
		n[a] = (int32_t)ceilf((hi[a] - lo[a]) / s - 1e-4f);
		n[a] = n[a] < 1 ? 1 : n[a];
		origin[a] = 0.5f * (lo[a] + hi[a]) - 0.5f * (float)n[a] * s;
	}
	pbd_Lattice_Init(lat, n, origin, spacing);
	pbd_Surface_FillLattice(lat, m->v, m->t, m->triangleCount);
	pbd_Lattice_Finish(lat);
}

/* Cells where ray parity and the winding number disagree. */
static int Disagreements(const pbdLattice* lat, const TestMesh* m, int* inside)
{
	int bad = 0;
	*inside = 0;
	for (int k = 0; k < lat->n[2]; ++k) {
		for (int j = 0; j < lat->n[1]; ++j) {
			for (int i = 0; i < lat->n[0]; ++i) {
				const double p[3] = { lat->origin[0] + (i + 0.5) * lat->spacing[0], lat->origin[1] + (j + 0.5) * lat->spacing[1],
									  lat->origin[2] + (k + 0.5) * lat->spacing[2] };
				const int wind = TestWinding(m, p) > 0.5;
				*inside += wind;
				if (wind != pbd_Lattice_HasCell(lat, i, j, k)) printf("  cell %d %d %d: winding %.9f, lattice %d\n", i, j, k, TestWinding(m, p), pbd_Lattice_HasCell(lat, i, j, k));
				bad += wind != pbd_Lattice_HasCell(lat, i, j, k);
			}
		}
	}
	return bad;
}

static void RotateMesh(TestMesh* m, const float q[4])
{
	for (int i = 0; i < m->vertexCount; ++i) {
		const float* v = m->v + 3 * i;
		const float t[3] = { 2.0f * (q[1] * v[2] - q[2] * v[1]), 2.0f * (q[2] * v[0] - q[0] * v[2]), 2.0f * (q[0] * v[1] - q[1] * v[0]) };
		const float r[3] = { v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]), v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]),
							 v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0]) };
		memcpy(m->v + 3 * i, r, sizeof r);
	}
}

void Test_SurfaceInsideMatchesWinding(void)
{
	uint32_t rng = 99;
	int total = 0;
	for (int trial = 0; trial < 12; ++trial) {
		TestMesh cube = TestCube(1.0f);
		float q[4], n = 0.0f;
		for (int k = 0; k < 4; ++k) q[k] = (float)(TestXorshift32(&rng) >> 8) / 8388608.0f - 1.0f, n += q[k] * q[k];
		for (int k = 0; k < 4; ++k) q[k] /= sqrtf(n);
		if (trial == 0) q[0] = q[1] = q[2] = 0.0f, q[3] = 1.0f; /* axis-aligned: rows of rays along the faces' diagonals */
		RotateMesh(&cube, q);
		FitLattice(&s_lat, &cube, 3 + trial);
		int inside;
		const int bad = Disagreements(&s_lat, &cube, &inside);
		total += inside;
		TestMeshFree(&cube);
		ENSURE(bad == 0);
	}
	/* an octahedron: at odd resolutions its vertices (+-1, 0, 0) lie on the middle row's ray */
	for (int res = 3; res <= 9; res += 2) {
		TestMesh oct = TestOctahedron(1.0f);
		FitLattice(&s_lat, &oct, res);
		int inside;
		const int bad = Disagreements(&s_lat, &oct, &inside);
		TestMeshFree(&oct);
		ENSURE(bad == 0 && inside > 0);
	}
	/* a torus: rays cross it four times through its hole */
	for (int res = 6; res <= 30; res += 8) {
		TestMesh torus = TestTorus(1.0f, 0.35f, 32, 12);
		FitLattice(&s_lat, &torus, res);
		int inside;
		const int bad = Disagreements(&s_lat, &torus, &inside);
		TestMeshFree(&torus);
		ENSURE(bad == 0 && inside > 0);
		ENSURE(!pbd_Lattice_HasCell(&s_lat, s_lat.n[0] / 2, s_lat.n[1] / 2, s_lat.n[2] / 2)); /* the hole */
	}
	ENSURE(total > 0);
}

/* Good surfaces load with their closed-form counts: the cube's 4^3 cells all inside (125
   particles), the octahedron's 8 cells around its centre at 4 a side (27), the torus's cells
   those the winding number puts inside. */
void Test_SurfaceGoodLoads(void)
{
	pbdBodyCounts c;
	TestMesh cube = TestCube(0.7f), oct = TestOctahedron(1.0f), torus = TestTorus(1.0f, 0.35f, 32, 12);
	pbdBodyDef def = TestSurfaceDef(&cube, PBD_OBJECT_SOFT, 4);
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_OK && c.particles == 125 && c.tets == 6 * 64 && c.skinVertices == 8 && c.skinTriangles == 12);
	def = TestSurfaceDef(&oct, PBD_OBJECT_SOFT, 4);
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_OK && c.particles == 27 && c.tets == 6 * 8 && c.skinVertices == 6 && c.skinTriangles == 8);
	def = TestSurfaceDef(&torus, PBD_OBJECT_RIGID, 20);
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_OK);
	FitLattice(&s_lat, &torus, 20);
	int inside;
	ENSURE(Disagreements(&s_lat, &torus, &inside) == 0);
	ENSURE(c.particles == s_lat.cornerCount && s_lat.cellCount == inside && c.edges == 0 && c.tets == 0);
	/* the same through a world, with the mesh checked in its scratch */
	pbdWorldDef wd = pbd_DefaultWorldDef();
	wd.maxParticles = 4000;
	pbdWorldId w = TestCreateWorld(&wd);
	ENSURE(pbd_World_AddBody(w, &def) == 0 && pbd_World_GetParticleCount(w) == c.particles);
	pbd_DestroyWorld(w);
	TestMeshFree(&cube), TestMeshFree(&oct), TestMeshFree(&torus);
}

/* Particles of a surface body through pbd_BodyCounts, -1 when refused. */
static int32_t Particles(const TestMesh* m, int resolution)
{
	pbdBodyDef def = TestSurfaceDef(m, PBD_OBJECT_SOFT, resolution);
	pbdBodyCounts c;
	return pbd_BodyCounts(&def, &c) == PBD_OK ? c.particles : -1;
}

/* What used to be refused (or cut) and is now a body the way a person expects (the winding
   number for what is not closed, degenerate triangles left out, crossings counted for closed
   parts through each other): a cube with a triangle missing, with a flipped triangle, with a
   triangle repeating a vertex or without area, two cubes through each other, two cubes sharing
   an edge (four triangles on it). The cube at resolution 4 is 4^3 cells, 125 particles. */
void Test_SurfaceForgives(void)
{
	TestMesh m = TestCube(0.5f);
	ENSURE(Particles(&m, 4) == 125);
	m.triangleCount -= 1; /* open: one triangle removed */
	ENSURE(Particles(&m, 4) == 125);
	m.triangleCount -= 1; /* the whole +z face missing: from the centres of the cells next to it the
							 hole subtends at most 4 asin(0.25 / 0.265625) = 0.39 of 4 pi, w >= 0.61 */
	ENSURE(Particles(&m, 4) == 125);
	m.triangleCount += 2;
	uint32_t t = m.t[3 * 5 + 1];
	m.t[3 * 5 + 1] = m.t[3 * 5 + 2], m.t[3 * 5 + 2] = t; /* triangle 5 (half the -y face) flipped */
	/* it counts against: w = 1 - 2 omega / 4 pi, below 0.5 for cells next to it that see more than
	   a quarter of their sky in it; the layers behind stay */
	const int32_t flipped = Particles(&m, 4);
	printf("  cube with a flipped triangle: %d particles\n", flipped);
	ENSURE(flipped >= 100 && flipped < 125);
	TestMeshFree(&m);

	/* degenerate triangles added to a closed cube are left out: it stays closed (ray parity) */
	m = TestCube(0.5f);
	TestMesh d = TestMeshAlloc(9, 14);
	memcpy(d.v, m.v, 24 * sizeof(float));
	d.v[24] = 0.5f, d.v[25] = 0.5f, d.v[26] = 0.0f; /* the middle of edge 3-7: a sliver 3, 9, 7 */
	memcpy(d.t, m.t, 36 * sizeof(uint32_t));
	const uint32_t extra[6] = { 1, 1, 2, 3, 8, 7 };
	memcpy(d.t + 36, extra, sizeof extra);
	ENSURE(Particles(&d, 4) == 125);
	static pbdLattice plain, withExtra;
	pbdSurface s;
	uint8_t* mem = malloc(pbd_Surface_Bytes(9, 14));
	pbdBodyError e;
	FitLattice(&plain, &m, 5);
	ENSURE(pbd_Surface_Prepare(&s, d.v, 9, d.t, 14, mem, pbd_Surface_Bytes(9, 14), &e) == PBD_OK && s.closed == 1 && s.skipped == 2 &&
		   s.triangleCount == 12);
	withExtra = plain;
	pbd_Surface_Fill(&s, &withExtra);
	ENSURE(memcmp(plain.cell, withExtra.cell, sizeof plain.cell) == 0);
	free(mem);
	TestMeshFree(&d), TestMeshFree(&m);

	/* two closed cubes through each other (self-intersecting, yet every edge run once each way): the
	   crossing count is 2 in the overlap, which is kept (parity would have cut it out). Together a
	   1.5 x 1 x 1 box: at resolution 6, 6 x 4 x 4 cells, 7 x 5 x 5 particles */
	TestMesh over = TestMeshAlloc(16, 24);
	m = TestCube(0.5f);
	for (int i = 0; i < 8; ++i) {
		memcpy(over.v + 3 * i, m.v + 3 * i, 3 * sizeof(float));
		memcpy(over.v + 3 * (8 + i), m.v + 3 * i, 3 * sizeof(float));
		over.v[3 * (8 + i)] += 0.5f;
	}
	for (int i = 0; i < 36; ++i) over.t[i] = m.t[i], over.t[36 + i] = m.t[i] + 8;
	ENSURE(Particles(&over, 6) == 175);
	TestMeshFree(&over), TestMeshFree(&m);

	/* two cubes sharing an edge: each cube's cells */
	TestMesh two = TestMeshAlloc(14, 24);
	TestMesh a = TestCube(0.5f);
	memcpy(two.v, a.v, 24 * sizeof(float));
	memcpy(two.t, a.t, 36 * sizeof(uint32_t));
	uint32_t map[8];
	for (int i = 0, next = 8; i < 8; ++i) {
		if (i == 0 || i == 4) map[i] = i == 0 ? 3u : 7u;
		else {
			map[i] = (uint32_t)next;
			two.v[3 * next] = a.v[3 * i] + 1.0f, two.v[3 * next + 1] = a.v[3 * i + 1] + 1.0f, two.v[3 * next + 2] = a.v[3 * i + 2];
			next += 1;
		}
	}
	for (int i = 0; i < 36; ++i) two.t[36 + i] = map[a.t[i]];
	/* a 2 x 2 x 1 box of unit cells at resolution 2: cells (0, 0) and (1, 1) kept, 2 x 8 corners less the 2 shared */
	ENSURE(Particles(&two, 2) == 14);
	TestMeshFree(&two), TestMeshFree(&a);
}

/* The refusal of a broken surface: through pbd_BodyCounts and through a world, with the same words. */
static int Refuses(const TestMesh* m, int resolution, int code, const char* words)
{
	pbdBodyDef def = TestSurfaceDef(m, PBD_OBJECT_SOFT, resolution);
	pbdBodyCounts c;
	const int counted = pbd_BodyCounts(&def, &c);
	const char* msg = pbd_GetLastErrorMessage();
	if (counted != code || strstr(msg, words) == NULL) {
		printf("  expected %d \"%s\", got %d \"%s\"\n", code, words, counted, msg);
		return 0;
	}
	pbdWorldDef wd = pbd_DefaultWorldDef();
	wd.maxParticles = 2000;
	pbdWorldId w = TestCreateWorld(&wd);
	const int added = pbd_World_AddBody(w, &def);
	const int ok = added == code && strstr(pbd_World_GetLastErrorMessage(w), words) != NULL && pbd_World_GetParticleCount(w) == 0 &&
				   pbd_World_GetObjectCount(w) == 0 && pbd_World_GetCount(w, pbdBuffer_skinPositions) == 0;
	pbd_DestroyWorld(w);
	return ok;
}

void Test_SurfaceRefusals(void)
{
	TestMesh m = TestCube(0.5f);
	m.v[3 * 2 + 1] = NAN;
	ENSURE(Refuses(&m, 4, PBD_ERR_NOT_FINITE, "surface vertex 2 is not finite"));
	m.v[3 * 2 + 1] = 2e5f;
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "surface vertex 2 lies beyond"));
	TestMeshFree(&m);

	m = TestCube(0.5f);
	m.t[7] = 8;
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "triangle 2 has vertex index 8, out of range"));
	TestMeshFree(&m);

	/* inside out (closed, consistently wound the wrong way): still refused */
	m = TestCube(0.5f);
	for (int i = 0; i < m.triangleCount; ++i) {
		const uint32_t t = m.t[3 * i + 1];
		m.t[3 * i + 1] = m.t[3 * i + 2], m.t[3 * i + 2] = t;
	}
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "the surface is inside out"));
	TestMeshFree(&m);

	/* every triangle without area: nothing is left */
	m = TestCube(0.5f);
	for (int i = 0; i < m.triangleCount; ++i) m.t[3 * i + 2] = m.t[3 * i + 1];
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "every triangle of the surface is degenerate"));
	TestMeshFree(&m);

	/* counts: refused before anything is read */
	m = TestCube(0.5f);
	m.vertexCount = PBD_BODY_MAX_VERTICES + 1;
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "4 to 100000 vertices"));
	m.vertexCount = 8, m.triangleCount = PBD_BODY_MAX_TRIANGLES + 1;
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "4 to 200000 triangles"));
	m.triangleCount = 3;
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "4 to 200000 triangles"));
	TestMeshFree(&m);

	/* a torus at one cell: its centre is the hole */
	m = TestTorus(1.0f, 0.3f, 16, 8);
	ENSURE(Refuses(&m, 1, PBD_ERR_INVALID_ARGUMENT, "no lattice cell has its centre inside"));
	TestMeshFree(&m);
}

/* ---------------------------------------------------------------- the winding number */

/* w by the tree over a mesh (its memory from malloc). */
static double TreeWinding(const TestMesh* m, const double q[3])
{
	void* mem = malloc(pbd_Winding_Bytes(m->triangleCount));
	pbdWindingTree tree;
	pbd_Winding_Build(&tree, mem, m->v, m->t, m->triangleCount);
	const double w = pbd_Winding_At(&tree, q);
	free(mem);
	return w;
}

/* Closed forms: a closed cube is 1 inside and 0 outside; the open cube without one face, seen
   from its centre, 5/6 (each face subtends a sixth of the sphere); the triangle (1,0,0),
   (0,1,0), (0,0,1) from the origin, one octant, pi/2, and seen from the other side -pi/2; a
   square of side 2a at height h on its axis, 4 asin(a^2 / (a^2 + h^2)), 2 pi / 3 for a = h. */
void Test_WindingClosedForms(void)
{
	TestMesh cube = TestCube(0.5f);
	const double centre[3] = { 0, 0, 0 }, off[3] = { 0.3, -0.2, 0.45 }, out[3] = { 0.7, 0.1, -0.2 }, far[3] = { 40, -30, 7 };
	ENSURE(fabs(pbd_Winding_Exact(cube.v, cube.t, 12, centre) - 1.0) < 1e-12);
	ENSURE(fabs(pbd_Winding_Exact(cube.v, cube.t, 12, off) - 1.0) < 1e-12);
	ENSURE(fabs(pbd_Winding_Exact(cube.v, cube.t, 12, out)) < 1e-12);
	ENSURE(fabs(pbd_Winding_Exact(cube.v, cube.t, 12, far)) < 1e-12);
	ENSURE(fabs(TreeWinding(&cube, off) - 1.0) < 1e-12 && fabs(TreeWinding(&cube, out)) < 1e-12);
	cube.triangleCount = 10; /* the +z face (the last two triangles) removed */
	const double w = pbd_Winding_Exact(cube.v, cube.t, 10, centre);
	printf("  open cube from its centre: %.15f (5/6 = %.15f)\n", w, 5.0 / 6.0);
	ENSURE(fabs(w - 5.0 / 6.0) < 1e-5 && fabs(TreeWinding(&cube, centre) - 5.0 / 6.0) < 1e-5);
	TestMeshFree(&cube);

	const float a[3] = { 1, 0, 0 }, b[3] = { 0, 1, 0 }, c[3] = { 0, 0, 1 };
	ENSURE(fabs(pbd_Winding_SolidAngle(a, b, c, centre) - 0.5 * PBD_PI) < 1e-14);
	const double beyond[3] = { 2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0 }; /* the mirror of the origin in the triangle's plane */
	ENSURE(fabs(pbd_Winding_SolidAngle(a, b, c, beyond) + 0.5 * PBD_PI) < 1e-14);
	const float s0[3] = { -1, -1, 0 }, s1[3] = { 1, -1, 0 }, s2[3] = { 1, 1, 0 }, s3[3] = { -1, 1, 0 };
	const double below[3] = { 0, 0, -1 };
	const double sq = pbd_Winding_SolidAngle(s0, s1, s2, below) + pbd_Winding_SolidAngle(s0, s2, s3, below);
	ENSURE(fabs(sq - 4.0 * asin(0.5)) < 1e-14 && fabs(sq - 2.0 * PBD_PI / 3.0) < 1e-14);
	/* on a vertex or on the triangle: 0, no NaN */
	const double at[3] = { 1, 0, 0 }, inPlane[3] = { 0.25, 0.25, 0.5 };
	ENSURE(pbd_Winding_SolidAngle(a, b, c, at) == 0.0);
	ENSURE(pbd_Winding_SolidAngle(a, b, c, inPlane) == 0.0); /* on the triangle: the mean of +-2 pi */
}

/* The tree against the exact sum: a torus of 4096 triangles with a band of them cut away (open),
   at points in and around it; and the inside decision (the tree, the exact sum where the tree
   comes near 0.5) equal to the exact sum's at every lattice cell, at several resolutions (the
   cut's plane has w ~ 0.5: at resolution 18 two cells there are 0.5014 exactly, 0.4987 by the
   tree alone). */
void Test_WindingTreeMatchesExact(void)
{
	TestMesh torus = TestTorus(1.0f, 0.35f, 64, 32);
	/* cut away the triangles of the first 3 columns: an open tube */
	int32_t kept = 0;
	for (int32_t t = 0; t < torus.triangleCount; ++t) {
		if (t < 2 * 3 * 32) continue;
		memmove(torus.t + 3 * kept, torus.t + 3 * t, 3 * sizeof(uint32_t));
		kept += 1;
	}
	torus.triangleCount = kept;
	void* mem = malloc(pbd_Winding_Bytes(kept));
	pbdWindingTree tree;
	pbd_Winding_Build(&tree, mem, torus.v, torus.t, kept);
	ENSURE(tree.nodeCount > 1 && tree.nodeCount <= kept / 4 + 1);
	uint32_t rng = 7;
	double worst = 0.0;
	for (int i = 0; i < 2000; ++i) {
		double q[3];
		for (int k = 0; k < 3; ++k) q[k] = 3.0 * ((double)(TestXorshift32(&rng) >> 8) / 16777216.0 - 0.5);
		q[1] *= 0.5;
		const double d = fabs(pbd_Winding_At(&tree, q) - pbd_Winding_Exact(torus.v, torus.t, kept, q));
		worst = d > worst ? d : worst;
	}
	printf("  tree vs exact over 2000 points: largest difference %.3g\n", worst);
	ENSURE(worst < 1e-2); /* at beta = 3: 0.0058, points within a leaf's size of the surface */
	static pbdLattice lat;
	for (int res = 6; res <= 24; res += 6) {
		FitLattice(&lat, &torus, res);
		int bad = 0, inside = 0, near = 0;
		for (int k = 0; k < lat.n[2]; ++k) {
			for (int j = 0; j < lat.n[1]; ++j) {
				for (int i = 0; i < lat.n[0]; ++i) {
					const double q[3] = { lat.origin[0] + (i + 0.5) * lat.spacing[0], lat.origin[1] + (j + 0.5) * lat.spacing[1],
										  lat.origin[2] + (k + 0.5) * lat.spacing[2] };
					const int exact = pbd_Winding_Exact(torus.v, torus.t, kept, q) >= 0.5, fast = pbd_Winding_Inside(&tree, q);
					near += fabs(pbd_Winding_At(&tree, q) - 0.5) < PBD_WINDING_MARGIN;
					bad += exact != fast;
					inside += fast;
				}
			}
		}
		printf("  resolution %d: %d cells inside, %d summed exactly (w within %.2f of 0.5)\n", res, inside, near, PBD_WINDING_MARGIN);
		ENSURE(bad == 0 && inside > 0);
	}
	free(mem);
	TestMeshFree(&torus);
}

/* The deterministic arctangent against libm's, over every quadrant and the axes. */
void Test_WindingAtan2(void)
{
	uint32_t rng = 3;
	double worst = 0.0;
	for (int i = 0; i < 100000; ++i) {
		const double y = ((double)(TestXorshift32(&rng) >> 8) / 8388608.0 - 1.0) * pow(10.0, (int)(TestXorshift32(&rng) % 13) - 6);
		const double x = ((double)(TestXorshift32(&rng) >> 8) / 8388608.0 - 1.0) * pow(10.0, (int)(TestXorshift32(&rng) % 13) - 6);
		const double d = fabs(pbd_Atan2(y, x) - atan2(y, x));
		worst = d > worst ? d : worst;
	}
	ENSURE(worst < 4e-15);
	ENSURE(pbd_Atan2(0.0, 0.0) == 0.0 && pbd_Atan2(0.0, 1.0) == 0.0 && fabs(pbd_Atan2(0.0, -1.0) - PBD_PI) < 1e-15);
	ENSURE(fabs(pbd_Atan2(1.0, 0.0) - 0.5 * PBD_PI) < 1e-15 && fabs(pbd_Atan2(-1.0, 0.0) + 0.5 * PBD_PI) < 1e-15);
	ENSURE(fabs(pbd_Atan2(1.0, 1.0) - 0.25 * PBD_PI) < 1e-15 && fabs(pbd_Atan2(-1.0, -1.0) + 0.75 * PBD_PI) < 1e-15);
}

/* World hash after 30 steps of one body `def` alone (a fresh world), 0 when refused. */
static uint32_t BodyHash(const pbdBodyDef* def)
{
	pbdWorldDef wd = pbd_DefaultWorldDef();
	wd.maxParticles = 40000, wd.maxTets = 300000, wd.maxSkinVertices = 200000, wd.maxSkinTriangles = 400000;
	pbdWorldId w = TestCreateWorld(&wd);
	uint32_t h = 0;
	if (pbd_World_AddBody(w, def) >= 0) {
		for (int i = 0; i < 30; ++i) pbd_World_Step(w);
		h = pbd_World_Hash(w);
	}
	pbd_DestroyWorld(w);
	return h;
}

/* A surface's fill in parts (pbd_BodyFill: what a page runs between frames) finds the cells the whole fill finds:
   an open torus (the winding number) filled a row a call, and a closed one (crossings, in Begin), give the counts
   and, as def->cells, the same world as a body that fills itself. Cells given are taken as they are: all set is the
   lattice's whole box, none is refused as no cell inside. */
void Test_SurfaceFillInParts(void)
{
	TestMesh torus = TestTorus(1.0f, 0.35f, 32, 12);
	for (int open = 1; open >= 0; --open) {
		TestMesh m = torus;
		if (open) m.triangleCount -= 12; /* one ring of quads gone: open */
		pbdBodyDef def = TestSurfaceDef(&m, PBD_OBJECT_SOFT, 20);
		pbdBodyCounts whole, parts;
		ENSURE(pbd_BodyCounts(&def, &whole) == PBD_OK);
		const int bytes = pbd_BodyFill_Bytes(&def);
		ENSURE(bytes > 0);
		pbdBodyFill* fill = malloc((size_t)bytes);
		ENSURE(pbd_BodyFill_Begin(fill, bytes - 1, &def) == PBD_ERR_INVALID_ARGUMENT);
		ENSURE(pbd_BodyFill_Begin(fill, bytes, &def) == PBD_OK);
		int calls = 0, left;
		while ((left = pbd_BodyFill_Run(fill, 1)) > 0) {
			ENSURE(pbd_BodyFill_Cells(fill) == NULL);
			calls += 1;
		}
		printf("  %s torus at resolution 20: %d particles, the fill in %d calls\n", open ? "open" : "closed", whole.particles, calls + 1);
		ENSURE(open ? calls >= 20 : calls == 0); /* a row a call: rows of the lattice (20 x ~7) */
		def.cells = pbd_BodyFill_Cells(fill);
		ENSURE(def.cells != NULL);
		ENSURE(pbd_BodyCounts(&def, &parts) == PBD_OK && memcmp(&whole, &parts, sizeof whole) == 0);
		const uint32_t given = BodyHash(&def);
		def.cells = NULL;
		ENSURE(given != 0 && given == BodyHash(&def));
		free(fill);
	}
	/* cells from elsewhere: any bits are some cells of the lattice */
	pbdBodyDef def = TestSurfaceDef(&torus, PBD_OBJECT_RIGID, 4);
	static uint64_t cells[PBD_BODY_FILL_ROWS];
	memset(cells, 0xff, sizeof cells);
	def.cells = cells;
	pbdBodyCounts c;
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_OK && c.particles == 5 * 5 * 3); /* the torus' box (2.7 x 2.7 x 0.7): 4 x 4 x 2 cells of 0.675 */
	memset(cells, 0, sizeof cells);
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_ERR_INVALID_ARGUMENT && strstr(pbd_GetLastErrorMessage(), "no lattice cell") != NULL);
	/* not a surface */
	pbdBodyDef box = pbd_DefaultBodyDef();
	ENSURE(pbd_BodyFill_Bytes(&box) == PBD_ERR_INVALID_ARGUMENT && strstr(pbd_GetLastErrorMessage(), "only a surface body") != NULL);
	TestMeshFree(&torus);
}

