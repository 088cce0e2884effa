/* Tests in test_fluid.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_FLUID(X)      \
	X(FluidRestingTank)         \
	X(FluidTankComesToRest)     \
	X(FluidDamBreak)            \
	X(FluidDamBreakDefaultFriction) \
	X(FluidMomentum)            \
	X(FluidSortKeepsPhysics)    \
	X(FluidViolentInput)        \
	X(FluidDeterminismHash)
