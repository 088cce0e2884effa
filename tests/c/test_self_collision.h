/* Tests in test_self_collision.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_SELF_COLLISION(X)
