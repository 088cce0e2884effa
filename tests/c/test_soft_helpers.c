/* Soft bodies for the C tests (test_soft_helpers.h), made from the builder primitives
   (builders/builder.h) and the families' building calls, so that the volume and plasticity tests
   do not depend on the body builders (builders/body.c). */
#include "test_soft_helpers.h"
#include "test.h"
#include "builders/builder.h"
#include "families/distance.h"
#include "families/volume.h"

#include <stdlib.h>
#include <string.h>

static int CompareEdge(const void* a, const void* b)
{
	const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return x < y ? -1 : x > y;
}

int TestSoftObject(pbdWorldId id, const float* xyz, const float* invMass, int n, const int32_t* tets, int tetCount, int edges)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return PBD_ERR_INVALID_WORLD;
	int64_t* keys = malloc(sizeof(int64_t) * 6 * (size_t)(tetCount > 0 ? tetCount : 1));
	int32_t* abs = malloc(sizeof(int32_t) * 4 * (size_t)(tetCount > 0 ? tetCount : 1));
	int edgeCount = 0;
	if (edges) {
		static const int pairs[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 } };
		for (int t = 0; t < tetCount; ++t) {
			for (int e = 0; e < 6; ++e) {
				int64_t a = tets[4 * t + pairs[e][0]], b = tets[4 * t + pairs[e][1]];
				keys[edgeCount++] = a < b ? a * n + b : b * n + a;
			}
		}
		qsort(keys, (size_t)edgeCount, sizeof(int64_t), CompareEdge);
		int unique = 0;
		for (int e = 0; e < edgeCount; ++e) {
			if (unique == 0 || keys[e] != keys[unique - 1]) keys[unique++] = keys[e];
		}
		edgeCount = unique;
	}
	int err = pbd_Builder_CheckRoom(w, n, edgeCount, 0, 0);
	if (err == PBD_OK) err = pbd_Volume_CheckRoom(w, tetCount);
	if (err != PBD_OK) {
		free(keys), free(abs);
		return err;
	}
	const int object = w->objectCount;
	pbd_Builder_BeginObject(w, PBD_OBJECT_SOFT);
	const int first = w->particleCount;
	for (int i = 0; i < n; ++i) pbd_Builder_AddParticle(w, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], invMass[i]);
	if (edgeCount > 0) {
		pbd_Distance_BeginGroup(w, pbdKind_edge, object);
		for (int e = 0; e < edgeCount; ++e) pbd_Distance_Add(w, first + (int)(keys[e] / n), first + (int)(keys[e] % n));
		pbd_Distance_EndGroup(w, 1, first, n);
	}
	for (int k = 0; k < 4 * tetCount; ++k) abs[k] = first + tets[k];
	pbd_Volume_AddTets(w, object, abs, tetCount, first, n, 0);
	pbd_Builder_EndObject(w);
	free(keys), free(abs);
	return first;
}

double TestVolume6(const float* a, const float* b, const float* c, const float* d)
{
	double e1[3], e2[3], e3[3];
	for (int k = 0; k < 3; ++k) e1[k] = (double)b[k] - a[k], e2[k] = (double)c[k] - a[k], e3[k] = (double)d[k] - a[k];
	return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) + e1[1] * (e2[2] * e3[0] - e2[0] * e3[2]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
}

int TestSoftLattice(pbdWorldId id, int nx, int ny, int nz, const float origin[3], float spacing, float particleMass)
{
	const int n = (nx + 1) * (ny + 1) * (nz + 1), cells = nx * ny * nz;
	float* xyz = malloc(sizeof(float) * 3 * (size_t)n);
	float* invMass = malloc(sizeof(float) * (size_t)n);
	int32_t* tets = malloc(sizeof(int32_t) * 24 * (size_t)cells);
#define LATTICE_INDEX(i, j, k) ((i) + (nx + 1) * ((j) + (ny + 1) * (k)))
	for (int k = 0; k <= nz; ++k) {
		for (int j = 0; j <= ny; ++j) {
			for (int i = 0; i <= nx; ++i) {
				float* p = xyz + 3 * LATTICE_INDEX(i, j, k);
				p[0] = origin[0] + spacing * (float)i, p[1] = origin[1] + spacing * (float)j, p[2] = origin[2] + spacing * (float)k;
				invMass[LATTICE_INDEX(i, j, k)] = 1.0f / particleMass;
			}
		}
	}
	/* Kuhn: one tet per path from corner (0,0,0) to (1,1,1) along the axes in the order of a
	   permutation; every cube is split alike, so neighbouring faces share their diagonal. */
	static const int perms[6][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 } };
	int t = 0;
	for (int k = 0; k < nz; ++k) {
		for (int j = 0; j < ny; ++j) {
			for (int i = 0; i < nx; ++i) {
				for (int p = 0; p < 6; ++p) {
					int c[3] = { i, j, k };
					int32_t* tet = tets + 4 * t++;
					tet[0] = LATTICE_INDEX(c[0], c[1], c[2]);
					for (int s = 0; s < 2; ++s) {
						c[perms[p][s]] += 1;
						tet[1 + s] = LATTICE_INDEX(c[0], c[1], c[2]);
					}
					tet[3] = LATTICE_INDEX(i + 1, j + 1, k + 1);
					if (TestVolume6(xyz + 3 * tet[0], xyz + 3 * tet[1], xyz + 3 * tet[2], xyz + 3 * tet[3]) < 0.0) {
						int32_t swap = tet[1];
						tet[1] = tet[2], tet[2] = swap;
					}
				}
			}
		}
	}
#undef LATTICE_INDEX
	int first = TestSoftObject(id, xyz, invMass, n, tets, t, 1);
	free(xyz), free(invMass), free(tets);
	return first;
}

pbdWorldId TestSoftWorld(int particles)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = 8 * particles;
	def.maxTets = 7 * particles;
	return TestCreateWorld(&def);
}

