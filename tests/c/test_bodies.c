/* Body tests: the Kuhn lattice (counts in closed form, every tet positive and the tets tiling the
   cells, edges each once and exactly the tets' edges, colourable for the 4-wide solver, a closed
   outward boundary), and pbd_World_AddBody (counts as pbd_BodyCounts promised, the particles'
   state, refusals that leave the world exactly as it was). */
#include "builders/lattice.h"
#include "builders/surface.h"
#include "builders/tetmesh.h"
#include "test.h"
#include "test_body_helpers.h"
#include "world/core.h"
#include "world/graph_colouring.h"

#include <stdlib.h>
#include <string.h>

static pbdLattice s_lat; /* 48 KB: static, not on the test's stack */

static void BoxLattice(pbdLattice* lat, int nx, int ny, int nz, float s)
{
	const int32_t n[3] = { nx, ny, nz };
	const float origin[3] = { -0.5f * s * nx, -0.5f * s * ny, -0.5f * s * nz }, spacing[3] = { s, s, s };
	pbd_Lattice_Init(lat, n, origin, spacing);
	pbd_Lattice_Box(lat);
	pbd_Lattice_Finish(lat);
}

static void BallLattice(pbdLattice* lat, int res, float r)
{
	const int32_t n[3] = { res, res, res };
	const float s = 2.0f * r / (float)res, origin[3] = { -r, -r, -r }, spacing[3] = { s, s, s };
	pbd_Lattice_Init(lat, n, origin, spacing);
	pbd_Lattice_Ball(lat, r);
	pbd_Lattice_Finish(lat);
}

/* Edges of a full nx x ny x nz Kuhn lattice: the 3 axis directions, the face diagonals of the 3
   planes, the main diagonals. */
static int64_t BoxEdges(int64_t nx, int64_t ny, int64_t nz)
{
	return nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz + nx * ny * (nz + 1) +
		   nx * (ny + 1) * nz + (nx + 1) * ny * nz + nx * ny * nz;
}

void Test_LatticeBoxCounts(void)
{
	static const int sizes[][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 3, 3, 3 }, { 5, 5, 5 }, { 4, 2, 1 }, { 7, 3, 5 }, { 48, 48, 48 } };
	for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; ++c) {
		const int nx = sizes[c][0], ny = sizes[c][1], nz = sizes[c][2];
		BoxLattice(&s_lat, nx, ny, nz, 0.1f);
		ENSURE(s_lat.cellCount == nx * ny * nz);
		ENSURE(s_lat.cornerCount == (nx + 1) * (ny + 1) * (nz + 1));
		ENSURE(s_lat.edgeCount == BoxEdges(nx, ny, nz));
	}
	/* one cube: its 12 edges, 6 face diagonals and the main diagonal */
	BoxLattice(&s_lat, 1, 1, 1, 1.0f);
	ENSURE(s_lat.edgeCount == 19);
}

/* A ball of 4 cells a side: the cells whose centre (odd multiples of r/4 on each axis) lies
   inside are the 8 around the centre and the 3 x 8 with one coordinate at 3r/4: 32. */
void Test_LatticeBallCounts(void)
{
	BallLattice(&s_lat, 4, 1.0f);
	ENSURE(s_lat.cellCount == 32);
	BallLattice(&s_lat, 1, 1.0f);
	ENSURE(s_lat.cellCount == 1 && s_lat.cornerCount == 8 && s_lat.edgeCount == 19);
	/* against a count made here, cell by cell and corner by corner */
	for (int res = 2; res <= 12; res += 5) {
		BallLattice(&s_lat, res, 0.7f);
		int cells = 0, corners = 0;
		const float s = 1.4f / (float)res;
		for (int k = 0; k < res; ++k) {
			for (int j = 0; j < res; ++j) {
				for (int i = 0; i < res; ++i) {
					const float x = -0.7f + ((float)i + 0.5f) * s, y = -0.7f + ((float)j + 0.5f) * s, z = -0.7f + ((float)k + 0.5f) * s;
					cells += x * x + y * y + z * z < 0.49f;
				}
			}
		}
		for (int k = 0; k <= res; ++k) {
			for (int j = 0; j <= res; ++j) {
				for (int i = 0; i <= res; ++i) {
					int used = 0;
					for (int c = 0; c < 8; ++c) used |= pbd_Lattice_HasCell(&s_lat, i - (c & 1), j - ((c >> 1) & 1), k - (c >> 2));
					corners += used;
					ENSURE((pbd_Lattice_Corner(&s_lat, i, j, k) >= 0) == used);
				}
			}
		}
		ENSURE(s_lat.cellCount == cells);
		ENSURE(s_lat.cornerCount == corners);
	}
}

static double TetVolume(const pbdLattice* lat, const float* corner, const int32_t* t)
{
	(void)lat;
	const float *a = corner + 3 * t[0], *b = corner + 3 * t[1], *c = corner + 3 * t[2], *d = corner + 3 * t[3];
	const double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	const double e3[3] = { d[0] - a[0], d[1] - a[1], d[2] - a[2] };
	return (e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) + e1[1] * (e2[2] * e3[0] - e2[0] * e3[2]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0])) / 6.0;
}

/* Corner positions by rank. */
static float* CornerPositions(const pbdLattice* lat)
{
	float* x = malloc((size_t)lat->cornerCount * 3 * sizeof(float));
	for (int k = 0; k <= lat->n[2]; ++k) {
		for (int j = 0; j <= lat->n[1]; ++j) {
			for (int i = 0; i <= lat->n[0]; ++i) {
				const int32_t r = pbd_Lattice_Corner(lat, i, j, k);
				if (r >= 0) pbd_Lattice_CornerPosition(lat, i, j, k, x + 3 * r);
			}
		}
	}
	return x;
}

static int CompareEdge(const void* a, const void* b)
{
	const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return x < y ? -1 : x > y;
}

typedef struct EdgeList {
	int64_t* key;
	int32_t count;
} EdgeList;

static void CollectEdge(void* user, int32_t a, int32_t b)
{
	EdgeList* e = user;
	const int64_t lo = a < b ? a : b, hi = a < b ? b : a;
	e->key[e->count++] = lo << 32 | hi;
}

/* Every tet positive, together exactly filling the kept cells; the edges each once, exactly the
   tets' edges; and colourable in 16 colours with nothing left over (the distance family's limit). */
static void CheckLattice(const pbdLattice* lat)
{
	const int32_t T = 6 * lat->cellCount;
	int32_t* tets = malloc((size_t)T * 4 * sizeof(int32_t));
	float* x = CornerPositions(lat);
	pbd_Lattice_Tets(lat, 0, tets);
	double total = 0.0, smallest = 1e30;
	for (int32_t t = 0; t < T; ++t) {
		const double v = TetVolume(lat, x, tets + 4 * t);
		total += v;
		smallest = v < smallest ? v : smallest;
	}
	const double cell = (double)lat->spacing[0] * lat->spacing[1] * lat->spacing[2];
	EdgeList fromTets = { malloc((size_t)T * 6 * sizeof(int64_t)), 0 }, edges = { malloc((size_t)(lat->edgeCount + 1) * sizeof(int64_t)), 0 };
	for (int32_t t = 0; t < T; ++t) {
		for (int a = 0; a < 4; ++a) {
			for (int b = a + 1; b < 4; ++b) CollectEdge(&fromTets, tets[4 * t + a], tets[4 * t + b]);
		}
	}
	qsort(fromTets.key, (size_t)fromTets.count, sizeof(int64_t), CompareEdge);
	int32_t unique = 0;
	for (int32_t i = 0; i < fromTets.count; ++i) {
		if (i == 0 || fromTets.key[i] != fromTets.key[i - 1]) fromTets.key[unique++] = fromTets.key[i];
	}
	pbd_Lattice_Edges(lat, 0, CollectEdge, &edges);
	/* the 4-wide solver's colouring of these edges, in the order given */
	int32_t* ends = malloc((size_t)(edges.count + 1) * 2 * sizeof(int32_t));
	for (int32_t i = 0; i < edges.count; ++i) ends[2 * i] = (int32_t)(edges.key[i] >> 32), ends[2 * i + 1] = (int32_t)(edges.key[i] & 0xffffffff);
	pbdColouringInput in = pbd_GraphColourInputFlat(ends, 2, 2, edges.count);
	in.particleCount = lat->cornerCount;
	in.maxColours = 16;
	const size_t bytes = pbd_GraphColourScratchBytes(lat->cornerCount);
	void* scratch = malloc(bytes);
	uint8_t* colour = malloc((size_t)edges.count + 1);
	pbdColouring out;
	const int colours = pbd_GraphColour(&in, scratch, bytes, colour, NULL, &out);
	qsort(edges.key, (size_t)edges.count, sizeof(int64_t), CompareEdge);
	const int sameEdges = edges.count == unique && memcmp(edges.key, fromTets.key, (size_t)unique * sizeof(int64_t)) == 0;
	free(tets), free(x), free(fromTets.key), free(edges.key), free(ends), free(scratch), free(colour);
	ENSURE(smallest > 0.0);
	ENSURE_NEAR(total, lat->cellCount * cell, 1e-6 * lat->cellCount * cell); /* float corners */
	ENSURE(edges.count == lat->edgeCount);
	ENSURE(sameEdges);
	ENSURE(colours > 0 && colours <= 16 && out.overflowCount == 0);
}

void Test_LatticeTetsAndEdges(void)
{
	BoxLattice(&s_lat, 1, 1, 1, 1.0f);
	CheckLattice(&s_lat);
	if (g_testFailed) return;
	BoxLattice(&s_lat, 6, 3, 4, 0.25f);
	CheckLattice(&s_lat);
	if (g_testFailed) return;
	BallLattice(&s_lat, 9, 1.0f);
	CheckLattice(&s_lat);
	if (g_testFailed) return;
	TestMesh torus = TestTorus(1.0f, 0.4f, 24, 12);
	const int32_t n[3] = { 16, 16, 6 };
	const float origin[3] = { -1.4f, -1.4f, -0.45f }, spacing[3] = { 0.175f, 0.175f, 0.15f };
	pbd_Lattice_Init(&s_lat, n, origin, spacing);
	pbd_Surface_FillLattice(&s_lat, torus.v, torus.t, torus.triangleCount);
	pbd_Lattice_Finish(&s_lat);
	TestMeshFree(&torus);
	ENSURE(s_lat.cellCount > 0);
	CheckLattice(&s_lat);
}

typedef struct FaceList {
	uint32_t* t;
	int32_t count;
} FaceList;

static void CollectFace(void* user, int32_t dir, int32_t i, int32_t j, int32_t k, const int32_t tri[6])
{
	(void)dir, (void)i, (void)j, (void)k;
	FaceList* f = user;
	for (int c = 0; c < 6; ++c) f->t[3 * 2 * f->count + c] = (uint32_t)tri[c];
	f->count += 1;
}

/* The boundary faces of a lattice form a closed, consistently oriented surface (the surface
   checks of a given OBJ pass on it) that encloses exactly the kept cells' volume. */
static void CheckBoundary(const pbdLattice* lat, int32_t expectedFaces)
{
	const int32_t faces = pbd_Lattice_BoundaryFaces(lat, NULL, NULL);
	FaceList f = { malloc((size_t)faces * 6 * sizeof(uint32_t)), 0 };
	pbd_Lattice_BoundaryFaces(lat, CollectFace, &f);
	float* x = CornerPositions(lat);
	const size_t bytes = pbd_Surface_CheckBytes(lat->cornerCount, 2 * faces);
	void* mem = malloc(bytes);
	pbdBodyError e;
	int rc = pbd_Surface_CheckClosed(x, lat->cornerCount, f.t, 2 * faces, mem, bytes, &e);
	const double volume = pbd_Surface_Volume(x, f.t, 2 * faces);
	const double cell = (double)lat->spacing[0] * lat->spacing[1] * lat->spacing[2];
	free(f.t), free(x), free(mem);
	if (rc != PBD_OK) printf("  %s\n", e.text);
	ENSURE(rc == PBD_OK);
	ENSURE(expectedFaces < 0 || faces == expectedFaces);
	ENSURE_NEAR(volume, lat->cellCount * cell, 1e-6 * lat->cellCount * cell);
}

void Test_LatticeBoundaryClosed(void)
{
	BoxLattice(&s_lat, 3, 2, 5, 0.1f);
	CheckBoundary(&s_lat, 2 * (3 * 2 + 2 * 5 + 3 * 5));
	if (g_testFailed) return;
	BallLattice(&s_lat, 7, 1.0f);
	CheckBoundary(&s_lat, -1);
	if (g_testFailed) return;
	/* two cubes touching along an edge only: not a manifold, so its edge is shared by four triangles */
	const int32_t n[3] = { 2, 2, 1 };
	const float origin[3] = { 0, 0, 0 }, spacing[3] = { 1, 1, 1 };
	pbd_Lattice_Init(&s_lat, n, origin, spacing);
	s_lat.cell[0] = 1u;                 /* cell (0, 0, 0) */
	s_lat.cell[1] = 2u;                 /* cell (1, 1, 0) */
	pbd_Lattice_Finish(&s_lat);
	ENSURE(pbd_Lattice_BoundaryFaces(&s_lat, NULL, NULL) == 12);
}

/* Embedding: a point inside a kept cell gets non-negative weights that reproduce it; a point
   outside (a skin vertex beyond the particles) extrapolates and still reproduces it. */
void Test_LatticeEmbedding(void)
{
	BallLattice(&s_lat, 6, 1.0f);
	float* x = CornerPositions(&s_lat);
	uint32_t rng = 7;
	double worst = 0.0;
	int inside = 0;
	for (int s = 0; s < 2000; ++s) {
		float p[3];
		for (int a = 0; a < 3; ++a) p[a] = -1.3f + 2.6f * (float)(TestXorshift32(&rng) >> 8) / 16777216.0f;
		int32_t c[4];
		float w[4];
		pbd_Lattice_Embed(&s_lat, p, c, w);
		double q[3] = { 0, 0, 0 }, sum = 0.0, least = 1.0;
		for (int k = 0; k < 4; ++k) {
			sum += w[k];
			least = w[k] < least ? w[k] : least;
			for (int a = 0; a < 3; ++a) q[a] += (double)w[k] * x[3 * c[k] + a];
		}
		for (int a = 0; a < 3; ++a) worst = fabs(q[a] - p[a]) > worst ? fabs(q[a] - p[a]) : worst;
		if (fabs(sum - 1.0) > 1e-6) worst = 1.0;
		/* in a kept cell the weights are those of the tet that holds the point */
		float t[3];
		int32_t cell[3];
		for (int a = 0; a < 3; ++a) t[a] = (p[a] + 1.0f) / s_lat.spacing[0], cell[a] = (int32_t)floorf(t[a]);
		if (pbd_Lattice_HasCell(&s_lat, cell[0], cell[1], cell[2])) {
			inside += 1;
			if (least < -1e-6) worst = 1.0;
		}
	}
	free(x);
	ENSURE(inside > 500);
	ENSURE(worst < 1e-5);
}

/* ---------------------------------------------------------------- pbd_World_AddBody */

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
	memcpy(expected[count++], (int32_t[5]){ 125, (int32_t)BoxEdges(4, 4, 4), 384, 6 * 25, 6 * 32 }, sizeof expected[0]);
	d.type = PBD_OBJECT_RIGID, d.resolution = 3; /* the benchmark's rigid box: 64 particles, a plain box skin */
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ 64, 0, 0, 24, 12 }, sizeof expected[0]);
	d = pbd_DefaultBodyDef(), d.halfExtents[0] = 1.0f, d.halfExtents[1] = 0.5f, d.halfExtents[2] = 0.25f;
	defs[count] = d; /* 4 x 2 x 1 cells */
	memcpy(expected[count++], (int32_t[5]){ 30, (int32_t)BoxEdges(4, 2, 1), 48, 2 * (3 * 2 + 5 * 2 + 5 * 3), 4 * (2 + 4 + 8) }, sizeof expected[0]);
	d = pbd_DefaultBodyDef(), d.shape = pbdBodyShape_ball, d.resolution = 4;
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ -1, -1, 6 * 32, 362, 720 }, sizeof expected[0]);
	d.type = PBD_OBJECT_RIGID;
	defs[count] = d;
	memcpy(expected[count++], (int32_t[5]){ -1, 0, 0, 362, 720 }, sizeof expected[0]);
	defs[count] = TestSurfaceDef(&cube, PBD_OBJECT_SOFT, 4); /* every cell of the cube's lattice is inside */
	memcpy(expected[count++], (int32_t[5]){ 125, (int32_t)BoxEdges(4, 4, 4), 384, 8, 12 }, sizeof expected[0]);
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
		ENSURE(TetVolume(NULL, corners, q) > 0.0);
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
	d = good, d.halfExtents[2] = -1.0f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "halfExtents[2]"));
	d = good, d.shape = pbdBodyShape_ball, d.radius = 0.0f;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "radius"));
	d = good, d.resolution = 8; /* 729 particles: more than the world holds */
	ENSURE(Refused(w, &d, PBD_ERR_PARTICLE_CAPACITY, "particles"));
	d = TestSurfaceDef(&cube, PBD_OBJECT_SOFT, 2);
	d.indexCount = 35;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "3 per triangle"));
	d.indexCount = 33; /* one triangle short: open */
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "the surface is open"));
	d = TetsDef(PBD_OBJECT_SOFT, s_cubeVertices, 8, s_cubeTets, 5);
	d.vertices = NULL;
	ENSURE(Refused(w, &d, PBD_ERR_INVALID_ARGUMENT, "NULL"));
	TestMeshFree(&cube);
	ENSURE(TestSameAsShot(w, &shot));
	TestShotFree(&shot);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "NULL") != NULL);
	pbd_DestroyWorld(w);
	pbdBodyCounts c;
	ENSURE(pbd_BodyCounts(&good, NULL) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_AddBody(0, &good) == PBD_ERR_INVALID_WORLD && pbd_BodyCounts(&good, &c) == PBD_OK);
}
