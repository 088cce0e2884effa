/* Tests in test_volume.c: X(Name) for each void Test_Name(void). The volume family (signed tet
   volume, seed 001) in closed form, its colouring, lattice soft bodies at rest and turned inside
   out, and the determinism hash of a soft-body scene. */
#ifndef PBD_TEST_VOLUME_H
#define PBD_TEST_VOLUME_H

#include "minipbd.h"

#include <stdint.h>

#define TEST_LIST_VOLUME(X)              \
	X(VolumeOneTetClosedForm)            \
	X(VolumePassStiffnessAndPins)        \
	X(VolumeLanesMatchScalar)            \
	X(VolumeSquashedAndInvertedRecover)  \
	X(VolumeDegenerateTetsStayFinite)    \
	X(VolumeStiffnessPerObject)          \
	X(VolumeErrorsAndQuery)              \
	X(VolumeColoursShareNoParticle)      \
	X(VolumeLatticeRestsOnGround)        \
	X(VolumeMirroredCubeRecovers)        \
	X(VolumeDeterminismHash)

/* Soft bodies for the tests (the real builders are builders/body.c's). */
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

#endif
