/* Tests in test_colouring.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLOURING(X)          \
	X(ColouringSharesNoParticle)        \
	X(RegularBatchesMatchConstraints)   \
	X(ColouredSolveMatchesTextbook)
