/* Tests in test_body_motion.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_BODY_MOTION(X)     \
	X(SkinFollowsRigidBody)          \
	X(BodiesRestOnGround)            \
	X(BodyDeterminismHash)
