/* Tests in test_collider_api.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLLIDER_API(X) \
	X(ColliderBadDefRefused)      \
	X(ColliderCapacityRefused)    \
	X(ColliderInfoAndTransform)   \
	X(ColliderDistanceAnalytic)   \
	X(ColliderRayCast)            \
	X(ColliderHostileFuzzFinite)  \
	X(ColliderDeterminismHash)
