/* Tests in test_contact_sheets.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_CONTACT_SHEETS(X)  \
	X(BodiesStayOnClothAnyResolution) \
	X(BodiesStayOnClothEverywhereLong)
