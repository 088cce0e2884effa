/* Tests in test_families.c: X(Name) for each void Test_Name(void). Each family proves its own
   arithmetic in closed form; tools/mutate.sh checks that they fail when the
   family's code is slipped. */
#define TEST_LIST_FAMILIES(X)              \
	X(FamilyColliderPinInsideStaysStill)   \
	X(FamilyColliderSweepsPastPin)         \
	X(FamilyColliderEdgeLeavesPinnedEnd)   \
	X(FamilyTetherSlackReachedNotPassed)   \
	X(FamilyTetherSlackHangingCloth)       \
	X(FamilyTetherInsideSlackUntouched)    \
	X(FamilyTetherStiffnessPerPass)        \
	X(FamilyWindDragAtAngle)               \
	X(FamilyWindLiftAtAngle)               \
	X(FamilyWindNeverReverses)             \
	X(FamilyTearThresholdRelative)         \
	X(FamilyGroundPinAndRadius)            \
	X(FamilyAttachmentPerPass3D)
