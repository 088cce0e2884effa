/* Tests in test_shapes.c: X(Name) for each void Test_Name(void). Shape-matched bodies
   (families/shapes.c, Mueller et al. 2005) built from box lattices of particles. */
#define TEST_LIST_SHAPES(X)
