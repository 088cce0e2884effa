/* Tests in test_instruments.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_INSTRUMENTS(X)  \
	X(NormalsUnitLength)          \
	X(RayPickNearest)             \
	X(ErrorBufferRelative)        \
	X(ConvergenceCurveClosedForm) \
	X(DeterminismHash)
