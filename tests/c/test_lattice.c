/* Lattice tests (builders/lattice.h, the Kuhn-split cubic lattice bodies are made of): counts in
   closed form, every tet positive and the tets tiling the kept cells, edges each once and exactly
   the tets' edges, colourable in 16 colours for the 4-wide solver, a closed outward boundary, and
   the embedding of skin vertices. */
#include "builders/lattice.h"
#include "builders/surface.h"
#include "test.h"
#include "test_body_helpers.h"
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

void Test_LatticeBoxCounts(void)
{
	static const int sizes[][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 3, 3, 3 }, { 5, 5, 5 }, { 4, 2, 1 }, { 7, 3, 5 }, { 48, 48, 48 } };
	for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; ++c) {
		const int nx = sizes[c][0], ny = sizes[c][1], nz = sizes[c][2];
		BoxLattice(&s_lat, nx, ny, nz, 0.1f);
		ENSURE(s_lat.cellCount == nx * ny * nz);
		ENSURE(s_lat.cornerCount == (nx + 1) * (ny + 1) * (nz + 1));
		ENSURE(s_lat.edgeCount == TestBoxEdges(nx, ny, nz));
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
		const double v = TestTetVolume(x, tets + 4 * t);
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
