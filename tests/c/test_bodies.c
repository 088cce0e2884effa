/* Body tests (builders/body.c): pbd_World_AddBody makes what pbd_BodyCounts promised for every
   shape and type, its particles are where the lattice and the body's transform put them with the
   body's mass, velocity and contact radius, a given tet mesh is turned right way out, and every
   refusal names what is wrong and leaves the world exactly as it was. */
#include "builders/tetmesh.h"
#include "test.h"
#include "test_body_helpers.h"
#include "world/core.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

static pbdWorldId BodyWorld(int particles)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxSkinVertices = 4 * particles;
	def.maxSkinTriangles = 8 * particles;
	def.maxTets = 8 * particles;
	def.maxObjects = 32;
	return TestCreateWorld(&def);
}

/* A unit cube cut into 5 tets: the corners 0, 3, 5, 6 (vertex x + 2y + 4z) each cut off, and the
   tet of the 4 others in the middle; as given, some are inverted. */
static const float s_cubeVertices[24] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1 };
static const uint32_t s_cubeTets[20] = { 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7 };

static pbdBodyDef TetsDef(int type, const float* v, int32_t nv, const uint32_t* t, int32_t nt)
{
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.type = type;
	def.shape = pbdBodyShape_tets;
	def.vertices = v;
	def.vertexCount = nv;
	def.indices = t;
	def.indexCount = 4 * nt;
	return def;
}

/* pbd_BodyCounts says exactly what pbd_World_AddBody adds, for every shape and both types, and
   the counts have their closed forms. */
void Test_BodyCountsMatchAddBody(void)
{
	TestMesh cube = TestCube(0.5f), torus = TestTorus(1.0f, 0.4f, 24, 12);
	pbdBodyDef defs[10];
	int32_t expected[10][5]; /* particles, edges, tets, skin vertices, skin triangles; -1: not checked */
	int count = 0;
	pbdBodyDef d = pbd_DefaultBodyDef(); /* soft box, 4 cells a side */
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ 125, (int32_t)TestBoxEdges(4, 4, 4), 384, 6 * 25, 6 * 32 }, sizeof expected[0]);
	d.type = PBD_OBJECT_RIGID, d.resolution = 3; /* the benchmark's rigid box: 64 particles, a plain box skin */
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ 64, 0, 0, 24, 12 }, sizeof expected[0]);
	d = pbd_DefaultBodyDef(), d.halfExtents[0] = 1.0f, d.halfExtents[1] = 0.5f, d.halfExtents[2] = 0.25f;
	defs[count] = d; /* 4 x 2 x 1 cells */
	memcpy(expected[count++], (int32_t[5]){ 30, (int32_t)TestBoxEdges(4, 2, 1), 48, 2 * (3 * 2 + 5 * 2 + 5 * 3), 4 * (2 + 4 + 8) }, sizeof expected[0]);
	d = pbd_DefaultBodyDef(), d.shape = pbdBodyShape_ball, d.resolution = 4;
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ -1, -1, 6 * 32, 362, 720 }, sizeof expected[0]);
	d.type = PBD_OBJECT_RIGID;
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ -1, 0, 0, 362, 720 }, sizeof expected[0]);
	defs[count] = TestSurfaceDef(&cube, PBD_OBJECT_SOFT, 4); /* every cell of the cube's lattice is inside */
	memcpy(expected[count++], (int32_t[5]){ 125, (int32_t)TestBoxEdges(4, 4, 4), 384, 8, 12 }, sizeof expected[0]);
	defs[count] = TestSurfaceDef(&torus, PBD_OBJECT_SOFT, 12);
	memcpy(expected[count++], (int32_t[5]){ -1, -1, -1, 24 * 12, 2 * 24 * 12 }, sizeof expected[0]);
	defs[count] = TestSurfaceDef(&torus, PBD_OBJECT_RIGID, 12);
	memcpy(expected[count++], (int32_t[5]){ -1, 0, 0, 24 * 12, 2 * 24 * 12 }, sizeof expected[0]);
	defs[count] = TetsDef(PBD_OBJECT_SOFT, s_cubeVertices, 8, s_cubeTets, 5);
	memcpy(expected[count++], (int32_t[5]){ 8, 18, 5, 8, 12 }, sizeof expected[0]);
	defs[count] = TetsDef(PBD_OBJECT_RIGID, s_cubeVertices, 8, s_cubeTets, 5);
	memcpy(expected[count++], (int32_t[5]){ 8, 0, 0, 8, 12 }, sizeof expected[0]);
	pbdWorldId w = BodyWorld(8000);
	for (int i = 0; i < count; ++i) {
		pbdBodyCounts c;
		ENSURE(pbd_BodyCounts(&defs[i], &c) == PBD_OK);
		const int32_t got[5] = { c.particles, c.edges, c.tets, c.skinVertices, c.skinTriangles };
		for (int k = 0; k < 5; ++k) {
			if (expected[i][k] >= 0 && got[k] != expected[i][k]) printf("  body %d count %d: %d, expected %d\n", i, k, got[k], expected[i][k]);
			ENSURE(expected[i][k] < 0 || got[k] == expected[i][k]);
		}
		const int particles = pbd_World_GetParticleCount(w), constraints = pbd_World_GetConstraintCount(w);
		const int skinV = pbd_World_GetCount(w, pbdBuffer_skinPositions), skinT = pbd_World_GetCount(w, pbdBuffer_skinTriangles);
		const int first = pbd_World_AddBody(w, &defs[i]);
		if (first < 0) printf("  body %d: %s\n", i, pbd_World_GetLastErrorMessage(w));
		ENSURE(first == particles);
		pbdObjectInfo info;
		ENSURE(pbd_World_GetObjectInfo(w, pbd_World_GetObjectCount(w) - 1, &info) == PBD_OK);
		ENSURE(info.type == defs[i].type && info.firstParticle == first && info.particleCount == c.particles);
		ENSURE(info.constraintCount == c.edges && info.tetCount == c.tets && info.triangleCount == 0 && info.lineCount == 0);
		ENSURE(info.firstSkinVertex == skinV && info.skinVertexCount == c.skinVertices);
		ENSURE(info.firstSkinTriangle == skinT && info.skinTriangleCount == c.skinTriangles);
		ENSURE(pbd_World_GetParticleCount(w) == particles + c.particles && pbd_World_GetConstraintCount(w) == constraints + c.edges);
		ENSURE(pbd_World_GetCount(w, pbdBuffer_skinPositions) == skinV + c.skinVertices);
		ENSURE(pbd_World_GetCount(w, pbdBuffer_skinTriangles) == skinT + c.skinTriangles);
		ENSURE(pbd_World_GetCount(w, pbdBuffer_triangles) == 0); /* bodies draw their skin, not the cloth mesh */
	}
	pbd_DestroyWorld(w);
	TestMeshFree(&cube), TestMeshFree(&torus);
}

/* The particles: at position + R (lattice corner), in the lattice's order (k, j, i; i fastest);
   the body's mass spread evenly; its velocity; no self-collision; the contact radius. */
void Test_BodyParticles(void)
{
	pbdWorldId w = BodyWorld(1000);
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.position[0] = 1.0f, def.position[1] = 2.0f, def.position[2] = 3.0f;
	def.rotation[1] = 0.70710678f, def.rotation[3] = 0.70710678f; /* 90 degrees about y: (x, y, z) -> (z, y, -x) */
	def.velocity[0] = 0.5f, def.velocity[2] = -1.0f;
	def.mass = 2.0f;
	const int first = pbd_World_AddBody(w, &def);
	ENSURE(first == 0 && pbd_World_GetParticleCount(w) == 125);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const float* v = pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	const pbdWorld* world = pbd_GetWorld(w);
	int p = 0;
	for (int k = 0; k <= 4; ++k) {
		for (int j = 0; j <= 4; ++j) {
			for (int i = 0; i <= 4; ++i, ++p) {
				const float lx = -0.5f + 0.25f * i, ly = -0.5f + 0.25f * j, lz = -0.5f + 0.25f * k;
				ENSURE_NEAR(x[4 * p], 1.0f + lz, 1e-6);
				ENSURE_NEAR(x[4 * p + 1], 2.0f + ly, 1e-6);
				ENSURE_NEAR(x[4 * p + 2], 3.0f - lx, 1e-6);
				ENSURE(x[4 * p + 3] == 1.0f / (2.0f / 125.0f));
				ENSURE(v[4 * p] == 0.5f && v[4 * p + 1] == 0.0f && v[4 * p + 2] == -1.0f);
				ENSURE((world->phase[p] & PBD_PHASE_SELF) == 0 && (world->phase[p] & PBD_PHASE_OBJECT_MASK) == 0);
			}
		}
	}
	ENSURE(pbd_World_GetObjectRadius(w, 0) == 0.125f); /* half the lattice spacing */
	def.particleRadius = 0.03f;
	def.position[0] = 5.0f;
	ENSURE(pbd_World_AddBody(w, &def) == 125);
	ENSURE(pbd_World_GetObjectRadius(w, 1) == 0.03f);
	ENSURE((world->phase[125] & PBD_PHASE_OBJECT_MASK) == 1);
	pbd_DestroyWorld(w);
}

/* A given tet mesh: inverted tets are turned (two vertices swapped) so every rest volume is
   positive; a tet of zero volume, an index out of range or a vertex in no tet is refused. */
void Test_BodyGivenTets(void)
{
	static uint8_t mem[4096];
	ENSURE(pbd_TetMesh_Bytes(8, 5) <= sizeof mem);
	pbdTetMesh m;
	pbd_TetMesh_Init(&m, mem, 8, s_cubeTets, 5);
	memcpy(m.x, s_cubeVertices, sizeof s_cubeVertices);
	pbdBodyError e;
	ENSURE(pbd_TetMesh_Build(&m, &e) == PBD_OK);
	int flipped = 0;
	for (int t = 0; t < 5; ++t) {
		int32_t q[4];
		pbd_TetMesh_Tet(&m, t, q);
		float corners[24];
		memcpy(corners, s_cubeVertices, sizeof corners);
		ENSURE(TestTetVolume(corners, q) > 0.0);
		flipped += m.flip[t];
	}
	ENSURE(flipped > 0 && flipped < 5); /* the mesh as given had both */
	ENSURE(m.edgeCount == 18 && m.faceCount == 12 && m.boundaryVertexCount == 8);
	ENSURE_NEAR(m.shortestEdge, 1.0f, 1e-6);

	pbdBodyCounts c;
	uint32_t bad[20];
	memcpy(bad, s_cubeTets, sizeof bad);
	bad[9] = 8; /* tet 2 names vertex 8 of 8 */
	pbdBodyDef def = TetsDef(PBD_OBJECT_SOFT, s_cubeVertices, 8, bad, 5);
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_ERR_INVALID_ARGUMENT && strstr(pbd_GetLastErrorMessage(), "tet 2 has vertex index 8"));
	memcpy(bad, s_cubeTets, sizeof bad);
	bad[8] = 1, bad[9] = 2, bad[10] = 3, bad[11] = 0; /* tet 2 = (1, 2, 3, 0): a face of the cube, flat */
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_ERR_INVALID_ARGUMENT && strstr(pbd_GetLastErrorMessage(), "tet 2 has zero volume"));
	def.indexCount = 16; /* without the middle tet, the four corner tets still touch every vertex */
	memcpy(bad, s_cubeTets, sizeof bad);
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_OK && c.tets == 4 && c.skinTriangles == 16);
	def.indexCount = 4; /* one tet: vertices 3, 5, 6, 7 are in none */
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_ERR_INVALID_ARGUMENT && strstr(pbd_GetLastErrorMessage(), "tet vertex 3 is in no tet"));
	def.indexCount = 18;
	ENSURE(pbd_BodyCounts(&def, &c) == PBD_ERR_INVALID_ARGUMENT && strstr(pbd_GetLastErrorMessage(), "not 4 per tet"));
	ENSURE(c.particles == 0 && c.tets == 0); /* a refusal zeroes the counts */
}

static int Refused(pbdWorldId w, const pbdBodyDef* def, int code, const char* words)
{
	const int rc = pbd_World_AddBody(w, def);
	const char* msg = pbd_World_GetLastErrorMessage(w);
	if (rc != code || strstr(msg, words) == NULL) {
		printf("  expected %d \"%s\", got %d \"%s\"\n", code, words, rc, msg);
		return 0;
	}
	/* pbd_BodyCounts refuses the same way with the same words (capacities aside: it has no world) */
	pbdBodyCounts c;
	const int counted = pbd_BodyCounts(def, &c);
	return code == PBD_ERR_PARTICLE_CAPACITY || code == PBD_ERR_TRIANGLE_CAPACITY ||
		   (counted == code && strstr(pbd_GetLastErrorMessage(), words) != NULL);
}

/* Every refusal names what is wrong and leaves the world exactly as it was: particles, velocities,
   hash, counts, objects, skin. */
void Test_BodyRefusedWorldUnchanged(void)
{
	pbdWorldId w = BodyWorld(200);
	pbdBodyDef good = pbd_DefaultBodyDef();
	good.resolution = 2;
	ENSURE(pbd_World_AddBody(w, &good) == 0);
	pbd_World_Step(w);
	pbd_World_UpdateSkin(w);
	TestWorldShot shot = TestShoot(w);
	TestMesh cube = TestCube(0.5f);
	pbdBodyCounts c;
	pbdBodyDef d = good;
	d.internalValue = 0;
	ENSURE(Refused(w, &d, PBD_ERR_BAD_DEF, "pbd_DefaultBodyDef"));
	ENSURE(pbd_World_AddBody(w, NULL) == PBD_ERR_BAD_DEF);
	d = good, d.type = PBD_OBJECT_CLOTH;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "body type"));
	d = good, d.shape = 4;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "body shape"));
	d = good, d.position[1] = NAN;
	ENSURE(Refused(w, &d, PBD_ERR_NOT_FINITE, "position[1] is not finite"));
	d = good, d.position[0] = 1e5f; /* the centre fits, the box does not */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "beyond"));
	d = good, d.velocity[2] = INFINITY;
	ENSURE(Refused(w, &d, PBD_ERR_NOT_FINITE, "velocity[2]"));
	d = good, d.rotation[3] = 0.0f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "zero length"));
	d = good, d.resolution = 0;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "resolution"));
	d = good, d.resolution = 49;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "resolution"));
	d = good, d.mass = 0.0f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "mass"));
	d = good, d.mass = 1e-6f; /* the body's mass is fine, 27 particles of it are not */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "kg each"));
	d = good, d.particleRadius = 1.5f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "particleRadius"));
	d = good, d.halfExtents[0] = d.halfExtents[1] = d.halfExtents[2] = 10.0f, d.resolution = 1; /* half a 20 m cell */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "particle radius would be"));
	d = good, d.position[0] = 99990.0f, d.halfExtents[0] = d.halfExtents[1] = d.halfExtents[2] = 0.002f; /* float steps 8 mm there */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "too small for float precision"));
	d.type = PBD_OBJECT_RIGID; /* no tets to lose, but its particles would sit on one another all the same */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "too small for float precision"));
	d = good, d.halfExtents[2] = -1.0f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "halfExtents[2]"));
	d = good, d.shape = pbdBodyShape_ball, d.radius = 0.0f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "radius"));
	d = good, d.resolution = 8; /* 729 particles: more than the world holds */
	ENSURE(Refused(w, &d, PBD_ERR_PARTICLE_CAPACITY, "particles"));
	d = TestSurfaceDef(&cube, PBD_OBJECT_SOFT, 2);
	d.indexCount = 35;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "3 per triangle"));
	d.indexCount = 36;
	for (int t = 0; t < 12; ++t) { /* every triangle flipped: inside out (an open surface is a body now) */
		const uint32_t k = cube.t[3 * t + 1];
		cube.t[3 * t + 1] = cube.t[3 * t + 2], cube.t[3 * t + 2] = k;
	}
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "the surface is inside out"));
	d = TetsDef(PBD_OBJECT_SOFT, s_cubeVertices, 8, s_cubeTets, 5);
	d.vertices = NULL;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "NULL"));
	TestMeshFree(&cube);
	ENSURE(TestSameAsShot(w, &shot));
	TestShotFree(&shot);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "NULL") != NULL);
	pbd_DestroyWorld(w);
	ENSURE(pbd_BodyCounts(&good, NULL) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_AddBody(0, &good) == PBD_ERR_INVALID_WORLD && pbd_BodyCounts(&good, &c) == PBD_OK);
}

/* Issue 22 item 7: a lattice spacing near float32's resolution where the body sits is refused, as a body too large
   is. Before, a closed 1 um cube (a spacing of 2.5e-7 m, two float steps at y = 1) was accepted and ended with every
   tet inverted. The bound is 1024 float steps (builders/body.c, CheckSpacing): spacing >= 1024 FLT_EPSILON |x|,
   |x| the body's largest coordinate, checked here on both sides of it; the same body at the origin is fine. */
void Test_BodyTooSmallForFloat(void)
{
	pbdWorldId w = BodyWorld(400);
	pbdBodyDef good = pbd_DefaultBodyDef();
	good.resolution = 2;
	good.position[1] = 1.0f;
	ENSURE(pbd_World_AddBody(w, &good) == 0);
	pbd_World_Step(w);
	pbd_World_UpdateSkin(w);
	TestWorldShot shot = TestShoot(w);
	TestMesh cube = TestCube(0.5e-6f);
	for (int type = PBD_OBJECT_SOFT; type <= PBD_OBJECT_RIGID; ++type) {
		pbdBodyDef d = TestSurfaceDef(&cube, type, 4);
		d.position[1] = 1.0f;
		ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "too small for float precision"));
		ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "2.5e-07 m") != NULL); /* names the spacing */
		d.position[1] = 1e-6f; /* at the origin float steps are 1e-13 m: the same cube is a body */
		pbdBodyCounts c;
		ENSURE(pbd_BodyCounts(&d, &c) == PBD_OK && c.particles == 125);
	}
	/* A box at y = 1 of half extent h and resolution 4: spacing h / 2, largest coordinate 1 + h. */
	const double least = 1024.0 * FLT_EPSILON; /* per metre from the origin */
	pbdBodyDef d = good;
	d.resolution = 4;
	d.halfExtents[0] = d.halfExtents[1] = d.halfExtents[2] = 2.5e-4f;
	ENSURE(0.5 * 2.5e-4 > least * (1.0 + 2.5e-4)); /* 1.25e-4 against 1.2210e-4 */
	pbdBodyCounts c;
	ENSURE(pbd_BodyCounts(&d, &c) == PBD_OK);
	d.halfExtents[0] = d.halfExtents[1] = d.halfExtents[2] = 2.4e-4f;
	ENSURE(0.5 * 2.4e-4 < least * (1.0 + 2.4e-4)); /* 1.2e-4 */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "too small for float precision"));
	ENSURE(TestSameAsShot(w, &shot));
	TestShotFree(&shot);
	TestMeshFree(&cube);
	pbd_DestroyWorld(w);
}
