/* Tests in test_fluid_coupling.c: X(Name) for each void Test_Name(void).
*/
#define TEST_LIST_FLUID_COUPLING(X) \
	X(FluidBuoyancy)                \
	X(FluidBuoyancyRatios)          \
	X(FluidDraggedBoxNoLeak)         \
	X(FluidOnCloth)                 \
	X(FluidHoseOnHammock)           \
	X(FluidSolidsHash)
