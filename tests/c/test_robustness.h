/* Tests in test_robustness.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_ROBUSTNESS(X)      \
	X(CapacityRefusedWorldUnchanged) \
	X(BadInputRefused)               \
	X(StaleHandles)                  \
	X(DegenerateGeometryFinite)      \
	X(HostileFuzzFinite)
