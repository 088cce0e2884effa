/* Tests in test_volume.c: X(Name) for each void Test_Name(void). The volume family (signed tet
   volume, seed 001) in closed form, its colouring, lattice soft bodies at rest and turned inside
   out, and the determinism hash of a soft-body scene. */
#ifndef PBD_TEST_VOLUME_H
#define PBD_TEST_VOLUME_H

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

#endif
