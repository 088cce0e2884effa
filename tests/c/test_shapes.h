/* Tests in test_shapes.c: X(Name) for each void Test_Name(void). Shape-matched bodies
   (families/shapes.c, shapes_motion.c, Mueller et al. 2005) built from box lattices. */
#define TEST_LIST_SHAPES(X)                \
	X(ShapesRigidMotionIsFixedPoint)       \
	X(ShapesGoalsClosedForm)               \
	X(ShapesSpinKeepsAngularMomentum)      \
	X(ShapesDegenerateBodiesStayFinite)    \
	X(ShapesApi)
