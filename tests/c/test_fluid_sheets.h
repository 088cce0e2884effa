/* Tests in test_fluid_sheets.c: X(Name) for each void Test_Name(void).
*/
#define TEST_LIST_FLUID_SHEETS(X) \
	X(FluidOnTightCloth) X(FluidPathThroughClosedForms) X(FluidClothSweptThroughTank) X(FluidOnClothEverySplit)
