/* Tests in test_cloth.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_CLOTH(X)
