/* Tests in test_surface.c: X(Name) for each void Test_Name(void). */
#define TEST_LIST_SURFACE(X)         \
	X(SurfaceInsideMatchesWinding)   \
	X(SurfaceGoodLoads)              \
	X(SurfaceRefusals)               \
	X(SurfaceForgives)               \
	X(SurfaceFillInParts)            \
	X(WindingClosedForms)            \
	X(WindingTreeMatchesExact)       \
	X(WindingAtan2)
