/* Tests in test_skin.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_SKIN(X)            \
	X(SkinBoxAtRest)                 \
	X(SkinBallAtRest)                \
	X(SkinSurfaceAndTetsAtRest)      \
	X(SkinFollowsSoftBody)
