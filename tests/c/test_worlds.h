/* Tests in test_worlds.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_WORLDS(X) \
	X(WorldsAreIndependent) \
	X(MassBetweenSlicesRefused) \
	X(SliceUnitsBounded) \
	X(CapacityTable)
