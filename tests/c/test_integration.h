/* Tests in test_integration.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_INTEGRATION(X)     \
	X(FreeFallClosedForm)            \
	X(FreeFallSubsteps)              \
	X(NothingBelowGround)            \
	X(Restitution)                   \
	X(KineticFrictionClosedForm)     \
	X(StaticFrictionHolds)           \
	X(DampingSurvivesVelocityUpdate) \
	X(MomentumConserved)             \
	X(PendulumEnergyBounded)         \
	X(SpeedAndWorldBounds)
