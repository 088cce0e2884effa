/* Tests in test_neighbour_rules.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_NEIGHBOUR_RULES(X) \
	X(NeighbourPhaseRules)           \
	X(NeighbourRadiiMean)            \
	X(NeighbourCapacity)             \
	X(NeighbourActivationTable)
