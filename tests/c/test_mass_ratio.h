/* Tests in test_mass_ratio.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_MASS_RATIO(X)              \
	X(MassRatioContactSplitClosedForm)       \
	X(MassRatioHeavyClusterOnLightCloth)
