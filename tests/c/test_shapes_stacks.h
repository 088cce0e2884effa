/* Tests in test_shapes_stacks.c: X(Name) for each void Test_Name(void). Two rigid boxes, the upper one
   turned about the vertical and set aside, resting on each other, and twelve
   stacked by hand (issue 22 item 2). */
#define TEST_LIST_SHAPES_STACKS(X) \
	X(ShapesTurnedBoxRests)        \
	X(ShapesBoxOnTiltedBoxFrictionAngle) \
	X(ShapesBoxOnTiltedSoftBodyFrictionAngle) \
	X(ShapesBoxRestsInHammock) \
	X(ShapesTurnedBoxesRestLong)   \
	X(ShapesTwelveBoxStackStandsLong)
