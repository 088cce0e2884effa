/* Tests in test_projection.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_PROJECTION(X)         \
	X(MassWeightedSplit)                \
	X(MassWeightedSplitRandom)          \
	X(PinnedEndTakesNothing)            \
	X(PinsNeverMove)                    \
	X(PassStiffnessClosedForm)          \
	X(ResidualIndependentOfPasses)      \
	X(ObjectStiffness)                  \
	X(AttachmentPullsAndReleases)       \
	X(PinnedStaysWhileNeighbourDragged)
