/* Tests in test_bodies.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_BODIES(X)          \
	X(LatticeBoxCounts)              \
	X(LatticeBallCounts)             \
	X(LatticeTetsAndEdges)           \
	X(LatticeBoundaryClosed)         \
	X(LatticeEmbedding)              \
	X(BodyCountsMatchAddBody)        \
	X(BodyParticles)                 \
	X(BodyGivenTets)                 \
	X(BodyRefusedWorldUnchanged)
