/* Tests in test_collider_edges.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLLIDER_EDGES(X)  \
	X(EdgeProjectionMassWeighted)    \
	X(MovingSphereSweepsCloth)       \
	X(ClothDraggedOverCapsule)       \
	X(EdgeCannotJumpPastSmallSphere)  \
	X(EdgeToTinyCapsuleCoreIsFinite)
