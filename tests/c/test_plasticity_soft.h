/* Tests in test_plasticity_soft.c: X(Name) for each void Test_Name(void). Soft-body plasticity
   (seed 001 section 5.3; yield / creep / max per object) in closed form on one edge, and a bar
   bent and released. */
#define TEST_LIST_PLASTICITY_SOFT(X) \
	X(PlasticEdgeCreepClosedForm)    \
	X(PlasticOnlySoftEdges)          \
	X(PlasticBarKeepsBend)
