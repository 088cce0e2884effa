/* Tests in test_collider_friction.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLLIDER_FRICTION(X)   \
	X(ColliderStaticFrictionThreshold)   \
	X(ColliderKineticFrictionClosedForm) \
	X(ColliderFrictionCarries)           \
	X(ColliderRestitution)               \
	X(ColliderMaterialSetLive)           \
	X(ColliderRestitutionMovingPaddle)
