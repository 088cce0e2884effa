/* Tests in test_recovery.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_RECOVERY(X)              \
	X(DisplacementBoundTeleport)           \
	X(DisplacementBoundReachesTarget)      \
	X(DisplacementBoundHeavyDamping)       \
	X(DisplacementBoundDefaultsInCloth)    \
	X(TethersBoundEveryPinIsland)          \
	X(HangingClothHasNoSeam)               \
	X(TetherIslandsFollowTheMesh)
