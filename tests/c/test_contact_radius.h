/* Tests in test_contact_radius.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_CONTACT_RADIUS(X)              \
	X(ContactRadiusPairsMatchBruteForce)         \
	X(ContactRadiusPairSeparatesToSum)           \
	X(ContactSeparatingPairStaysListed)          \
	X(ContactRadiusRestsOnPinnedAtSum)           \
	X(ContactRadiusGroundHeight)                 \
	X(ContactRadiusColliders)                    \
	X(ContactRadiusPressedClusters)              \
	X(ContactRadiusChangeTakesEffectNextStep)    \
	X(ContactRadiusDeterminismHash)
