/* Tests in test_inflatables.c: X(Name) for each void Test_Name(void). Inflatables (families/
   inflatables.c, builders/inflatable.c): the overpressure constraint of Mueller et al. 2007 4.4. */
#ifndef PBD_TEST_INFLATABLES_H
#define PBD_TEST_INFLATABLES_H

#define TEST_LIST_INFLATABLES(X)          \
	X(InflatableSphereCounts)             \
	X(InflatableOneProjectionClosedForm)  \
	X(InflatableRestVolume)               \
	X(InflatablePressedByBox)             \
	X(InflatableFloats)                   \
	X(InflatableMeshesRefusedOrFinite)    \
	X(InflatableSameBitsAnyThreads)

#endif
