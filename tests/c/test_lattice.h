/* Tests in test_lattice.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_LATTICE(X)         \
	X(LatticeBoxCounts)              \
	X(LatticeBallCounts)             \
	X(LatticeTetsAndEdges)           \
	X(LatticeBoundaryClosed)         \
	X(LatticeEmbedding)
