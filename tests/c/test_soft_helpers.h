/* test_soft_helpers.h -- soft bodies for the C tests (test_soft_helpers.c): lattice boxes of
   Kuhn-split cubes and free-form tet meshes, with their edges, built from the builder primitives. */
#ifndef PBD_TEST_SOFT_HELPERS_H
#define PBD_TEST_SOFT_HELPERS_H

#include "minipbd.h"

#include <stdint.h>

/// A soft object of n particles (xyz per particle, inverse masses) and its tets (4 indices each,
/// relative to the object's first particle), with every tet edge once as a pbdKind_edge
/// constraint when edges != 0. Returns the object's first particle, or a negative error.
int TestSoftObject(pbdWorldId world, const float* xyz, const float* invMass, int n, const int32_t* tets, int tetCount,
				   int edges);
/// A box of nx x ny x nz cubic cells of side `spacing`, corner at origin, each cell cut into the
/// 6 tets of the Kuhn (Freudenthal) split, all positive, with their edges; every particle of
/// `particleMass` kg. Particle (i, j, k) is first + i + (nx + 1) (j + (ny + 1) k).
int TestSoftLattice(pbdWorldId world, int nx, int ny, int nz, const float origin[3], float spacing, float particleMass);
/// A world for soft-body tests: capacities for `particles`, 8 constraints and 7 tets a particle.
pbdWorldId TestSoftWorld(int particles);

/// 6 x the signed volume of the tet (a, b, c, d), in double.
double TestVolume6(const float* a, const float* b, const float* c, const float* d);

#endif
