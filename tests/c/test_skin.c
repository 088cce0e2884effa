/* Skin tests: at rest a body's skin is where it should be (the box at halfExtents + particle
   radius with flat outward normals, the sphere at radius + particle radius, a surface exactly as
   given, a tet mesh's boundary on its particles), it is closed and wound outward, and a soft
   body's skin follows any affine motion of its particles exactly (barycentric embedding). */
#include "builders/surface.h"
#include "test.h"
#include "test_body_helpers.h"

#include <stdlib.h>
#include <string.h>

static pbdWorldId SkinWorld(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 6000;
	def.maxSkinVertices = 6000;
	def.maxSkinTriangles = 12000;
	def.maxTets = 30000;
	return TestCreateWorld(&def);
}

static const float* SkinX(pbdWorldId w) { return pbd_World_GetBuffer(w, pbdBuffer_skinPositions, NULL); }
static const float* SkinN(pbdWorldId w) { return pbd_World_GetBuffer(w, pbdBuffer_skinNormals, NULL); }

/* Enclosed volume of an object's skin (divergence theorem), from its float4 positions. */
static double SkinVolume(pbdWorldId w, const pbdObjectInfo* info)
{
	const float* x = SkinX(w);
	const uint32_t* t = pbd_World_GetBuffer(w, pbdBuffer_skinTriangles, NULL);
	double v = 0.0;
	for (int i = info->firstSkinTriangle; i < info->firstSkinTriangle + info->skinTriangleCount; ++i) {
		const float *a = x + 4 * t[3 * i], *b = x + 4 * t[3 * i + 1], *c = x + 4 * t[3 * i + 2];
		v += ((double)a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) + (double)a[1] * ((double)b[2] * c[0] - (double)b[0] * c[2]) +
			  (double)a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) / 6.0;
	}
	return v;
}

/* The object's skin as a mesh of its own (vertices from 0), to run the surface checks on it. */
static int SkinClosed(pbdWorldId w, const pbdObjectInfo* info)
{
	TestMesh m = TestMeshAlloc(info->skinVertexCount, info->skinTriangleCount);
	const float* x = SkinX(w);
	const uint32_t* t = pbd_World_GetBuffer(w, pbdBuffer_skinTriangles, NULL);
	for (int i = 0; i < m.vertexCount; ++i) memcpy(m.v + 3 * i, x + 4 * (info->firstSkinVertex + i), 3 * sizeof(float));
	for (int i = 0; i < 3 * m.triangleCount; ++i) m.t[i] = t[3 * info->firstSkinTriangle + i] - (uint32_t)info->firstSkinVertex;
	const size_t bytes = pbd_Surface_CheckBytes(m.vertexCount, m.triangleCount);
	void* mem = malloc(bytes);
	pbdBodyError e;
	int rc = pbd_Surface_CheckInput(m.v, m.vertexCount, m.t, m.triangleCount, &e);
	if (rc == PBD_OK) rc = pbd_Surface_CheckClosed(m.v, m.vertexCount, m.t, m.triangleCount, mem, bytes, &e);
	if (rc != PBD_OK) printf("  skin: %s\n", e.text);
	free(mem);
	TestMeshFree(&m);
	return rc == PBD_OK;
}

static pbdObjectInfo Info(pbdWorldId w, int object)
{
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, object, &info);
	return info;
}

/* A box: every skin vertex on the box of halfExtents + r, on the face its normal names. */
static void CheckBoxSkin(int type, int resolution)
{
	pbdWorldId w = SkinWorld();
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.type = type;
	def.resolution = resolution;
	def.halfExtents[0] = 0.4f, def.halfExtents[1] = 0.2f, def.halfExtents[2] = 0.3f;
	def.position[0] = 1.0f, def.position[1] = 2.0f, def.position[2] = -1.0f;
	def.particleRadius = 0.05f;
	ENSURE(pbd_World_AddBody(w, &def) == 0);
	ENSURE(pbd_World_UpdateSkin(w) == PBD_OK);
	const pbdObjectInfo info = Info(w, 0);
	const float* x = SkinX(w);
	const float* n = SkinN(w);
	const float e[3] = { 0.45f, 0.25f, 0.35f };
	for (int i = 0; i < info.skinVertexCount; ++i) {
		const float p[3] = { x[4 * i] - 1.0f, x[4 * i + 1] - 2.0f, x[4 * i + 2] + 1.0f };
		int onFace = 0;
		for (int a = 0; a < 3; ++a) {
			ENSURE(fabsf(p[a]) <= e[a] + 1e-5f);
			/* a face vertex's normal is its face's: +-1 along the axis where it lies on the box */
			if (fabsf(n[4 * i + a]) > 0.9999f) {
				ENSURE_NEAR(fabsf(p[a]), e[a], 1e-5);
				ENSURE(p[a] * n[4 * i + a] > 0.0f);
				onFace += 1;
			}
		}
		ENSURE(onFace == 1);
	}
	ENSURE_NEAR(SkinVolume(w, &info), 8.0 * e[0] * e[1] * e[2], 1e-5);
	pbd_DestroyWorld(w);
}

void Test_SkinBoxAtRest(void)
{
	CheckBoxSkin(PBD_OBJECT_SOFT, 5);
	if (g_testFailed) return;
	CheckBoxSkin(PBD_OBJECT_RIGID, 3);
}

/* A ball: on the sphere of radius + r, closed, outward, normals along the radius. */
void Test_SkinBallAtRest(void)
{
	for (int type = PBD_OBJECT_SOFT; type <= PBD_OBJECT_RIGID; ++type) {
		pbdWorldId w = SkinWorld();
		pbdBodyDef def = pbd_DefaultBodyDef();
		def.type = type;
		def.shape = pbdBodyShape_ball;
		def.radius = 0.6f;
		def.resolution = 6;
		def.position[1] = 3.0f;
		def.rotation[0] = 0.3f, def.rotation[3] = 0.9f; /* normalised by the builder */
		ENSURE(pbd_World_AddBody(w, &def) == 0);
		pbd_World_UpdateSkin(w);
		const pbdObjectInfo info = Info(w, 0);
		const float r = 0.6f + pbd_World_GetObjectRadius(w, 0);
		ENSURE_NEAR(pbd_World_GetObjectRadius(w, 0), 0.1f, 1e-6); /* half of 1.2 m / 6 */
		const float* x = SkinX(w);
		const float* n = SkinN(w);
		for (int i = 0; i < info.skinVertexCount; ++i) {
			const float p[3] = { x[4 * i], x[4 * i + 1] - 3.0f, x[4 * i + 2] };
			const float len = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
			ENSURE_NEAR(len, r, 1e-5 * r);
			ENSURE((p[0] * n[4 * i] + p[1] * n[4 * i + 1] + p[2] * n[4 * i + 2]) / len > 0.99f);
		}
		ENSURE(SkinClosed(w, &info));
		const double sphere = 4.0 / 3.0 * 3.14159265358979 * r * r * r, v = SkinVolume(w, &info);
		ENSURE(v < sphere && v > 0.97 * sphere); /* inscribed 24 x 16 polyhedron */
		pbd_DestroyWorld(w);
	}
}

/* A surface: the given vertices, moved by the body's position and rotation; a tet mesh: its
   boundary, on the particles themselves. */
void Test_SkinSurfaceAndTetsAtRest(void)
{
	TestMesh torus = TestTorus(1.0f, 0.4f, 24, 12);
	for (int type = PBD_OBJECT_SOFT; type <= PBD_OBJECT_RIGID; ++type) {
		pbdWorldId w = SkinWorld();
		pbdBodyDef def = TestSurfaceDef(&torus, type, 16);
		def.position[0] = -2.0f, def.position[2] = 0.5f;
		def.rotation[1] = 1.0f, def.rotation[3] = 0.0f; /* half a turn about y: (x, y, z) -> (-x, y, -z) */
		ENSURE(pbd_World_AddBody(w, &def) == 0);
		pbd_World_UpdateSkin(w);
		const pbdObjectInfo info = Info(w, 0);
		ENSURE(info.skinVertexCount == torus.vertexCount && info.skinTriangleCount == torus.triangleCount);
		const float* x = SkinX(w);
		for (int i = 0; i < torus.vertexCount; ++i) {
			ENSURE_NEAR(x[4 * i], -2.0f - torus.v[3 * i], 1e-5);
			ENSURE_NEAR(x[4 * i + 1], torus.v[3 * i + 1], 1e-5);
			ENSURE_NEAR(x[4 * i + 2], 0.5f - torus.v[3 * i + 2], 1e-5);
		}
		ENSURE(SkinClosed(w, &info));
		pbd_DestroyWorld(w);
	}
	TestMeshFree(&torus);
	/* a unit cube in 5 tets: its 8 vertices and 12 boundary triangles */
	static const float v[24] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1 };
	static const uint32_t t[20] = { 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7 };
	for (int type = PBD_OBJECT_SOFT; type <= PBD_OBJECT_RIGID; ++type) {
		pbdWorldId w = SkinWorld();
		pbdBodyDef def = pbd_DefaultBodyDef();
		def.type = type, def.shape = pbdBodyShape_tets;
		def.vertices = v, def.vertexCount = 8, def.indices = t, def.indexCount = 20;
		def.position[1] = 1.0f;
		ENSURE(pbd_World_AddBody(w, &def) == 0);
		pbd_World_UpdateSkin(w);
		const pbdObjectInfo info = Info(w, 0);
		const float* px = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		ENSURE(info.skinVertexCount == 8 && info.skinTriangleCount == 12);
		for (int i = 0; i < 8; ++i) {
			for (int a = 0; a < 3; ++a) ENSURE(SkinX(w)[4 * i + a] == px[4 * i + a]);
		}
		ENSURE(SkinClosed(w, &info));
		ENSURE_NEAR(SkinVolume(w, &info), 1.0, 1e-6);
		pbd_DestroyWorld(w);
	}
}

/* A soft body's skin is affine in its particles: move every particle by x -> A x + b and the
   skin moves by exactly that map (within float rounding), whatever A is (a rotation, a shear);
   move one particle and only the skin vertices embedded in it move. */
void Test_SkinFollowsSoftBody(void)
{
	TestMesh torus = TestTorus(1.0f, 0.4f, 24, 12);
	pbdBodyDef defs[3] = { pbd_DefaultBodyDef(), pbd_DefaultBodyDef(), TestSurfaceDef(&torus, PBD_OBJECT_SOFT, 14) };
	defs[1].shape = pbdBodyShape_ball;
	for (int d = 0; d < 3; ++d) {
		pbdWorldId w = SkinWorld();
		ENSURE(pbd_World_AddBody(w, &defs[d]) == 0);
		pbd_World_UpdateSkin(w);
		const pbdObjectInfo info = Info(w, 0);
		const int nv = info.skinVertexCount, np = info.particleCount;
		float* rest = malloc((size_t)nv * 4 * sizeof(float));
		memcpy(rest, SkinX(w), (size_t)nv * 4 * sizeof(float));
		/* a rotation of 40 degrees about (1, 2, 2)/3, a shear, a translation */
		const float c = 0.76604444f, s = 0.64278761f, u[3] = { 1.0f / 3.0f, 2.0f / 3.0f, 2.0f / 3.0f };
		float A[9];
		for (int i = 0; i < 3; ++i) {
			for (int j = 0; j < 3; ++j) {
				const float cross = (i == j) ? 0.0f : ((j == (i + 1) % 3) ? -u[(i + 2) % 3] : u[(i + 1) % 3]);
				A[3 * i + j] = (i == j ? c : 0.0f) + (1.0f - c) * u[i] * u[j] + s * cross;
			}
		}
		A[1] += 0.3f; /* shear x by y */
		const float b[3] = { 0.5f, -1.0f, 2.0f };
		const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		for (int p = 0; p < np; ++p) {
			const float* q = x + 4 * p;
			float y[3];
			for (int i = 0; i < 3; ++i) y[i] = A[3 * i] * q[0] + A[3 * i + 1] * q[1] + A[3 * i + 2] * q[2] + b[i];
			pbd_World_SetPosition(w, p, y[0], y[1], y[2]);
		}
		pbd_World_UpdateSkin(w);
		const float* sx = SkinX(w);
		double worst = 0.0;
		for (int v = 0; v < nv; ++v) {
			for (int i = 0; i < 3; ++i) {
				const double want = A[3 * i] * rest[4 * v] + A[3 * i + 1] * rest[4 * v + 1] + A[3 * i + 2] * rest[4 * v + 2] + b[i];
				worst = fmax(worst, fabs(sx[4 * v + i] - want));
			}
		}
		ENSURE(worst < 2e-5);
		/* one particle moved (the lattice's first, on its boundary): only the vertices that use it move */
		memcpy(rest, sx, (size_t)nv * 4 * sizeof(float));
		const int p = 0;
		pbd_World_SetPosition(w, p, x[4 * p] + 0.1f, x[4 * p + 1], x[4 * p + 2]);
		pbd_World_UpdateSkin(w);
		int moved = 0;
		for (int v = 0; v < nv; ++v) moved += memcmp(sx + 4 * v, rest + 4 * v, 3 * sizeof(float)) != 0;
		ENSURE(moved > 0 && moved < nv / 2);
		free(rest);
		pbd_DestroyWorld(w);
	}
	TestMeshFree(&torus);
}
