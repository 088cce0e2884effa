/* Tests in test_shapes_scenes.c: X(Name) for each void Test_Name(void). Shape-matched bodies
   with gravity, the ground and each other: resting, stacking, plasticity, the hash. */
#define TEST_LIST_SHAPES_SCENES(X)         \
	X(ShapesBoxRestsFlat)                  \
	X(ShapesTenBoxStack)                   \
	X(ShapesPlasticBarKeepsBend)           \
	X(ShapesDeterminismHash)
