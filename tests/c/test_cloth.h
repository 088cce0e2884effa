/* Tests in test_cloth.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_CLOTH(X)                          \
	X(TethersBoundStretch)                          \
	X(TethersSwingAndSettle)                        \
	X(TethersRebuildMatchesBruteForce)              \
	X(TethersEveryPinIslandNumbered)               \
	X(ConstraintCountsEveryFamily)                  \
	X(WindDragClosedForm)                           \
	X(WindBlowsFlag)                                \
	X(TearingKeepsParticlesAndValidTriangles)       \
	X(ViolentDragStaysFinite)
