/* Tests in test_colliders.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_COLLIDERS(X)
