/* Tests in test_neighbours.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_NEIGHBOURS(X)              \
	X(NeighbourCountingSort)                 \
	X(NeighbourPairsAndListsMatchBruteForce) \
	X(NeighbourAdversarialClouds)            \
	X(TriangleIndexMatchesBruteForce)
