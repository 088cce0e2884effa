/* Tests in test_knots.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_KNOTS(X)         \
	X(KnotsGrabCannotPassReach) \
	X(KnotsReachIsNearestPointOfLens) \
	X(KnotsFastDragLeavesNoKnot) \
	X(KnotsCornerCannotPassThroughItsCloth)
