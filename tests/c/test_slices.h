/* Tests in test_slices.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_SLICES(X) \
	X(RadiusBoundRefused) \
	X(BuildersBetweenSlicesRefused) \
	X(FluidNotTethered) \
	X(SlicedHeavyScenesBounded) \
	X(SlicedFluidRealBudget) \
	X(FluidMeasuredByStep) \
	X(CallsBetweenSliceUnits)
