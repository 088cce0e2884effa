/* Tests in test_contact_scenes.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_CONTACT_SCENES(X)          \
	X(SelfCollisionTwoLayersOnGround)       \
	X(SelfCollisionTwoLayersPinnedCorners)  \
	X(SelfCollisionClothFoldsOntoItself)    \
	X(CollisionsBetweenObjectsTwoCloths)    \
	X(CollisionsBetweenObjectsRopeOnCloth)  \
	X(CollisionFilterLetsObjectsPass)       \
	X(CollisionsCostNothingAlone)           \
	X(SelfCollisionPairReuse)               \
	X(CollisionsPairReuse)                  \
	X(SelfCollisionSearchesLessAtRest)      \
	X(SelfCollisionDeterminismHash)
