/* Tests in test_self_collision.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_SELF_COLLISION(X)          \
	X(HashGridCountingSort)                  \
	X(HashGridPairsMatchBruteForce)          \
	X(SelfCollisionPairOverflowFinite)       \
	X(SelfCollisionMassWeightedSplit)        \
	X(SelfCollisionFrictionClosedForm)       \
	X(SelfCollisionCoincidentFinite)            \
	X(SelfCollisionEdgesListedApart)
