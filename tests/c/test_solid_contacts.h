/* Tests in test_solid_contacts.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_SOLID_CONTACTS(X) \
	X(SolidsRestOnColliders)        \
	X(EveryPairingOfObjectsCollides)
