/* Tests in test_previous.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_PREVIOUS(X)            \
	X(PreviousIsTheLastStepsStart)       \
	X(PreviousSkinBetweenSteps)
