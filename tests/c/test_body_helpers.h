/* test_body_helpers.h -- what the body tests share (test_bodies.c, test_surface.c, test_skin.c,
   test_body_motion.c, test_scenes.c): the bodies' world, closed surfaces made here (cube,
   octahedron, torus), an independent inside test (the winding number from solid angles, not ray
   parity), and a snapshot of a world that a refused call must leave exactly as it was. */
#ifndef PBD_TEST_BODY_HELPERS_H
#define PBD_TEST_BODY_HELPERS_H

#include "minipbd.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The bodies' scenes' world (test_body_motion.c, and BodyDeterminismHash's scene in test_scenes.c):
   room for a few bodies, the scene format's 10 substeps x 1 pass. */
static inline pbdWorldId TestMotionWorld(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 4000;
	def.maxSkinVertices = 4000;
	def.maxSkinTriangles = 8000;
	def.maxTets = 16000;
	def.maxObjects = 16;
	return pbd_CreateWorld(&def);
}

typedef struct TestMesh {
	float* v;      ///< 3 per vertex
	uint32_t* t;   ///< 3 per triangle
	int32_t vertexCount, triangleCount;
} TestMesh;

static inline void TestMeshFree(TestMesh* m)
{
	free(m->v);
	free(m->t);
	memset(m, 0, sizeof *m);
}

static inline TestMesh TestMeshAlloc(int32_t vertices, int32_t triangles)
{
	TestMesh m;
	m.v = calloc((size_t)vertices * 3, sizeof(float));
	m.t = calloc((size_t)triangles * 3, sizeof(uint32_t));
	m.vertexCount = vertices;
	m.triangleCount = triangles;
	return m;
}

/* The cube [-h, h]^3: vertex x + 2y + 4z (bits), 12 triangles counter-clockwise seen from outside. */
static inline TestMesh TestCube(float h)
{
	TestMesh m = TestMeshAlloc(8, 12);
	for (int i = 0; i < 8; ++i) {
		m.v[3 * i] = (i & 1) ? h : -h;
		m.v[3 * i + 1] = (i & 2) ? h : -h;
		m.v[3 * i + 2] = (i & 4) ? h : -h;
	}
	static const uint32_t quads[6][4] = { { 0, 4, 6, 2 }, { 1, 3, 7, 5 }, { 0, 1, 5, 4 }, { 2, 6, 7, 3 }, { 0, 2, 3, 1 }, { 4, 5, 7, 6 } };
	for (int f = 0; f < 6; ++f) {
		const uint32_t* q = quads[f];
		const uint32_t tri[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
		memcpy(m.t + 6 * f, tri, sizeof tri);
	}
	return m;
}

/* The octahedron |x| + |y| + |z| <= r: vertices +x, -x, +y, -y, +z, -z. */
static inline TestMesh TestOctahedron(float r)
{
	TestMesh m = TestMeshAlloc(6, 8);
	for (int a = 0; a < 3; ++a) {
		m.v[3 * (2 * a) + a] = r;
		m.v[3 * (2 * a + 1) + a] = -r;
	}
	for (int o = 0; o < 8; ++o) {
		const uint32_t x = (o & 1) ? 1u : 0u, y = (o & 2) ? 3u : 2u, z = (o & 4) ? 5u : 4u;
		const int negatives = (o & 1) + ((o >> 1) & 1) + ((o >> 2) & 1);
		/* (x, y, z) winds outward in an octant with an even number of negative axes */
		uint32_t* t = m.t + 3 * o;
		t[0] = x, t[1] = (negatives & 1) ? z : y, t[2] = (negatives & 1) ? y : z;
	}
	return m;
}

/* A torus about the z axis: tube of radius r around the circle of radius R, nu x nv quads. */
static inline TestMesh TestTorus(float R, float r, int nu, int nv)
{
	TestMesh m = TestMeshAlloc(nu * nv, 2 * nu * nv);
	const double pi = 3.14159265358979323846;
	for (int i = 0; i < nu; ++i) {
		for (int j = 0; j < nv; ++j) {
			const double phi = 2.0 * pi * i / nu, theta = 2.0 * pi * j / nv;
			float* p = m.v + 3 * (i * nv + j);
			p[0] = (float)((R + r * cos(theta)) * cos(phi));
			p[1] = (float)((R + r * cos(theta)) * sin(phi));
			p[2] = (float)(r * sin(theta));
		}
	}
	for (int i = 0; i < nu; ++i) {
		for (int j = 0; j < nv; ++j) {
			const uint32_t a = (uint32_t)(i * nv + j), b = (uint32_t)(((i + 1) % nu) * nv + j);
			const uint32_t c = (uint32_t)(((i + 1) % nu) * nv + (j + 1) % nv), d = (uint32_t)(i * nv + (j + 1) % nv);
			uint32_t* t = m.t + 6 * (i * nv + j);
			t[0] = a, t[1] = b, t[2] = c, t[3] = a, t[4] = c, t[5] = d;
		}
	}
	return m;
}

/* The winding number of a closed surface about p: the sum of its triangles' solid angles
   (Van Oosterom and Strackee 1983) over 4 pi. About 1 inside, 0 outside. */
static inline double TestWinding(const TestMesh* m, const double p[3])
{
	double sum = 0.0;
	for (int32_t t = 0; t < m->triangleCount; ++t) {
		double a[3], b[3], c[3];
		for (int k = 0; k < 3; ++k) {
			a[k] = m->v[3 * m->t[3 * t] + k] - p[k];
			b[k] = m->v[3 * m->t[3 * t + 1] + k] - p[k];
			c[k] = m->v[3 * m->t[3 * t + 2] + k] - p[k];
		}
		const double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
		const double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
		const double det = a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
		const double ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2], ac = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
		const double bc = b[0] * c[0] + b[1] * c[1] + b[2] * c[2];
		sum += 2.0 * atan2(det, la * lb * lc + ab * lc + ac * lb + bc * la);
	}
	return sum / (4.0 * 3.14159265358979323846);
}

/* Signed volume of tet t (4 indices) over positions x (3 floats each), in double. */
static inline double TestTetVolume(const float* x, const int32_t* t)
{
	const float *a = x + 3 * t[0], *b = x + 3 * t[1], *c = x + 3 * t[2], *d = x + 3 * t[3];
	const double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	const double e3[3] = { d[0] - a[0], d[1] - a[1], d[2] - a[2] };
	return (e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) + e1[1] * (e2[2] * e3[0] - e2[0] * e3[2]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0])) / 6.0;
}

/* Edges of a full nx x ny x nz Kuhn lattice: the 3 axis directions, the face diagonals of the 3
   planes, the main diagonals. */
static inline int64_t TestBoxEdges(int64_t nx, int64_t ny, int64_t nz)
{
	return nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz + nx * ny * (nz + 1) +
		   nx * (ny + 1) * nz + (nx + 1) * ny * nz + nx * ny * nz;
}

/* A body def over a test mesh. */
static inline pbdBodyDef TestSurfaceDef(const TestMesh* m, int type, int resolution)
{
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.type = type;
	def.shape = pbdBodyShape_surface;
	def.vertices = m->v;
	def.vertexCount = m->vertexCount;
	def.indices = m->t;
	def.indexCount = 3 * m->triangleCount;
	def.resolution = resolution;
	return def;
}

/* ---------------------------------------------------------------- a world, before and after */

typedef struct TestWorldShot {
	uint32_t hash;
	int32_t particles, constraints, objects, topology, skinVertices, skinTriangles;
	float* x;
	float* v;
	float* skin; ///< skin positions (4 per vertex) then triangles (3 uint32 each), as bytes
	pbdObjectInfo object[16];
} TestWorldShot;

static inline TestWorldShot TestShoot(pbdWorldId w)
{
	TestWorldShot s;
	memset(&s, 0, sizeof s);
	s.hash = pbd_World_Hash(w);
	s.particles = pbd_World_GetParticleCount(w);
	s.constraints = pbd_World_GetConstraintCount(w);
	s.objects = pbd_World_GetObjectCount(w);
	s.topology = pbd_World_GetTopologyVersion(w);
	s.skinVertices = pbd_World_GetCount(w, pbdBuffer_skinPositions);
	s.skinTriangles = pbd_World_GetCount(w, pbdBuffer_skinTriangles);
	s.x = malloc((size_t)s.particles * 16 + 16);
	s.v = malloc((size_t)s.particles * 16 + 16);
	memcpy(s.x, pbd_World_GetBuffer(w, pbdBuffer_positions, NULL), (size_t)s.particles * 16);
	memcpy(s.v, pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL), (size_t)s.particles * 16);
	const size_t sv = (size_t)s.skinVertices * 16, st = (size_t)s.skinTriangles * 12;
	s.skin = malloc(sv + st + 16);
	if (sv) memcpy(s.skin, pbd_World_GetBuffer(w, pbdBuffer_skinPositions, NULL), sv);
	if (st) memcpy((uint8_t*)s.skin + sv, pbd_World_GetBuffer(w, pbdBuffer_skinTriangles, NULL), st);
	for (int o = 0; o < s.objects && o < 16; ++o) pbd_World_GetObjectInfo(w, o, &s.object[o]);
	return s;
}

/* 1 when the world is exactly as in the shot. */
static inline int TestSameAsShot(pbdWorldId w, const TestWorldShot* s)
{
	TestWorldShot now = TestShoot(w);
	int same = now.hash == s->hash && now.particles == s->particles && now.constraints == s->constraints &&
			   now.objects == s->objects && now.topology == s->topology && now.skinVertices == s->skinVertices &&
			   now.skinTriangles == s->skinTriangles;
	if (same) {
		same = memcmp(now.x, s->x, (size_t)s->particles * 16) == 0 && memcmp(now.v, s->v, (size_t)s->particles * 16) == 0 &&
			   memcmp(now.skin, s->skin, (size_t)s->skinVertices * 16 + (size_t)s->skinTriangles * 12) == 0 &&
			   memcmp(now.object, s->object, sizeof now.object) == 0;
	}
	free(now.x), free(now.v), free(now.skin);
	return same;
}

static inline void TestShotFree(TestWorldShot* s) { free(s->x), free(s->v), free(s->skin); }

#endif
