/* Tests in test_graph_colouring.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_GRAPH_COLOURING(X)        \
	X(GraphColourMatchesDistanceColouring)  \
	X(GraphColourTetsGreedy)                \
	X(GraphColourGroupRange)
