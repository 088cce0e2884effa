/* Tests in test_bodies.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_BODIES(X)          \
	X(BodyCountsMatchAddBody)        \
	X(BodyParticles)                 \
	X(BodyGivenTets)                 \
	X(BodyRefusedWorldUnchanged)     \
	X(BodyTooSmallForFloat)
