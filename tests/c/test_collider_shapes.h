/* Tests in test_collider_shapes.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLLIDER_SHAPES(X)   \
	X(ParticleRestsOnSphere)           \
	X(ParticleRestsOnCapsule)          \
	X(ParticleRestsOnBox)              \
	X(ClothSettlesOnSphere)            \
	X(ThinBoxNoTunnelling)             \
	X(BoxEdgesAreRounded)              \
	X(RotatingPaddleKeepsParticlesOut) \
	X(WallVelocityIsRigidMotion)
