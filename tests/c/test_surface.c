/* Surface tests (a closed triangle surface, an OBJ model's path into a body): the ray-parity
   inside test against an independent winding number, for a cube turned every which way, an
   octahedron whose vertices lie on the rays' rows and a torus with its hole; good surfaces load
   with their closed-form particle counts; every kind of broken surface is refused, naming what
   is wrong. */
#include "builders/lattice.h"
#include "builders/surface.h"
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
	m.t[7] = m.t[6];
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "triangle 2 is degenerate: it repeats a vertex"));
	TestMeshFree(&m);

	m = TestCube(0.5f);
	m.v[3 * 7] = m.v[3 * 5], m.v[3 * 7 + 1] = m.v[3 * 5 + 1] + 1e-13f, m.v[3 * 7 + 2] = m.v[3 * 5 + 2]; /* 7 onto 5 */
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "is degenerate: it has no area"));
	TestMeshFree(&m);

	m = TestCube(0.5f);
	m.triangleCount -= 1; /* one triangle removed */
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "the surface is open"));
	m.triangleCount += 1;
	uint32_t t = m.t[3 * 5 + 1];
	m.t[3 * 5 + 1] = m.t[3 * 5 + 2], m.t[3 * 5 + 2] = t; /* triangle 5 flipped */
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "inconsistent orientation"));
	for (int i = 0; i < m.triangleCount; ++i) {
		if (i == 5) continue;
		t = m.t[3 * i + 1], m.t[3 * i + 1] = m.t[3 * i + 2], m.t[3 * i + 2] = t; /* now all flipped */
	}
	ENSURE(Refuses(&m, 4, PBD_ERR_INVALID_ARGUMENT, "the surface is inside out"));
	TestMeshFree(&m);

	/* two cubes sharing an edge: that edge runs through four triangles */
	TestMesh two = TestMeshAlloc(14, 24);
	TestMesh a = TestCube(0.5f);
	memcpy(two.v, a.v, 24 * sizeof(float));
	memcpy(two.t, a.t, 36 * sizeof(uint32_t));
	/* the second cube, at (+1, +1, 0): its vertices 0 and 4 are the first's 3 and 7 */
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
	ENSURE(Refuses(&two, 4, PBD_ERR_INVALID_ARGUMENT, "shared by more than two triangles"));
	TestMeshFree(&two), TestMeshFree(&a);

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
