/* test_clusters.h -- a particle cluster for the contact tests (test_contact_radius.c,
   test_mass_ratio.c): an n x n x n lattice of particles held by distance constraints between
   every pair of lattice neighbours (edges, face and body diagonals), a small stiff 3D body made
   with the builders' own calls (builders/builder.h), so these tests need no body builder. */
#ifndef PBD_TEST_CLUSTERS_H
#define PBD_TEST_CLUSTERS_H

#include "builders/builder.h"
#include "families/distance.h"
#include "test.h"

/// Adds the cluster as one object: particle (i, j, k) at origin + spacing (i, j, k), index
/// first + (k n + j) n + i, each of mass `mass`, contact radius `radius` (0: thickness / 2).
/// Returns the first particle, or a negative pbdError.
static inline int TestAddCluster(pbdWorldId id, int n, float ox, float oy, float oz, float spacing, float mass, float radius)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL || n < 1) return PBD_ERR_INVALID_ARGUMENT;
	const int64_t particles = (int64_t)n * n * n;
	if (pbd_Builder_CheckRoom(w, particles, 13 * particles, 0, 0) != PBD_OK) return PBD_ERR_PARTICLE_CAPACITY;
	const int first = w->particleCount;
	const int object = w->objectCount;
	pbd_Builder_BeginObject(w, PBD_OBJECT_CHAIN); /* no tets, no skin: nothing of a soft body but its edges */
	for (int k = 0; k < n; ++k) {
		for (int j = 0; j < n; ++j) {
			for (int i = 0; i < n; ++i) {
				pbd_Builder_AddParticle(w, ox + spacing * (float)i, oy + spacing * (float)j, oz + spacing * (float)k, 1.0f / mass);
			}
		}
	}
	/* the 13 neighbour directions of a lattice point with a positive first non-zero component */
	static const int dirs[13][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 0 }, { 1, -1, 0 },
									 { 1, 0, 1 }, { 1, 0, -1 }, { 0, 1, 1 }, { 0, 1, -1 }, { 1, 1, 1 },
									 { 1, 1, -1 }, { 1, -1, 1 }, { 1, -1, -1 } };
	pbd_Distance_BeginGroup(w, pbdKind_edge, object);
	for (int k = 0; k < n; ++k) {
		for (int j = 0; j < n; ++j) {
			for (int i = 0; i < n; ++i) {
				for (int d = 0; d < 13; ++d) {
					const int a = i + dirs[d][0], b = j + dirs[d][1], c = k + dirs[d][2];
					if (a < 0 || a >= n || b < 0 || b >= n || c < 0 || c >= n) continue;
					pbd_Distance_Add(w, first + (k * n + j) * n + i, first + (c * n + b) * n + a);
				}
			}
		}
	}
	pbd_Distance_EndGroup(w, 0, first, (int32_t)particles);
	pbd_Builder_EndObject(w);
	w->objectSpacing[object] = spacing; /* what bounds its radius (minipbd.h PBD_MAX_RADIUS_SPACINGS) */
	pbd_World_SetObjectRadius(id, object, radius);
	return first;
}

#endif
