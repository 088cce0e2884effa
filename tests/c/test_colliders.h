/* Tests in test_colliders.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLLIDERS(X)          \
	X(ColliderBadDefRefused)            \
	X(ColliderCapacityRefused)          \
	X(ColliderInfoAndTransform)         \
	X(ColliderDistanceAnalytic)         \
	X(ColliderRayCast)                  \
	X(ParticleRestsOnSphere)            \
	X(ParticleRestsOnCapsule)           \
	X(ParticleRestsOnBox)               \
	X(ClothSettlesOnSphere)             \
	X(ColliderStaticFrictionThreshold)  \
	X(ColliderKineticFrictionClosedForm)\
	X(ColliderFrictionCarries)          \
	X(ColliderRestitution)              \
	X(ColliderMaterialSetLive)          \
	X(ColliderRestitutionMovingPaddle)  \
	X(ThinBoxNoTunnelling)              \
	X(BoxEdgesAreRounded)               \
	X(MovingSphereSweepsCloth)          \
	X(ClothDraggedOverCapsule)          \
	X(EdgeCannotJumpPastSmallSphere)    \
	X(EdgeProjectionMassWeighted)       \
	X(RotatingPaddleKeepsParticlesOut)  \
	X(ColliderHostileFuzzFinite)        \
	X(ColliderDeterminismHash)
