/* Tests in test_rotation.c: X(Name) for each void Test_Name(void). pbd_ExtractRotation
   (families/rotation.c, Mueller et al. 2016) against rotations built in closed form. */
#define TEST_LIST_ROTATION(X)              \
	X(RotationRecoversRandomRotations)     \
	X(RotationRecoversStretchedRotations)  \
	X(RotationWarmStartConverges)          \
	X(RotationDegenerateMatrices)
