/* Test runner: `test_native [filter]` runs the tests whose names contain filter.
   The same file builds natively, with sanitizers, with the scalar SIMD fallback and
   to wasm (run by Node), so every physics check runs on every build. */
#include "test.h"

#include <string.h>
#include <time.h>

int g_testFailed = 0;

/* One header per test file, each with its TEST_LIST_* of X(Name) for void Test_Name(void);
   the tests run in this order. */
#include "test_projection.h"
#include "test_integration.h"
#include "test_robustness.h"
#include "test_instruments.h"
#include "test_colouring.h"
#include "test_collider_api.h"
#include "test_collider_shapes.h"
#include "test_collider_friction.h"
#include "test_collider_edges.h"
#include "test_self_collision.h"
#include "test_contact_scenes.h"
#include "test_cloth.h"
#include "test_worlds.h"
#include "test_families.h"
#include "test_graph_colouring.h"
#include "test_neighbours.h"
#include "test_neighbour_rules.h"
#include "test_recovery.h"
#include "test_volume.h"
#include "test_plasticity_soft.h"
#include "test_contact_radius.h"
#include "test_mass_ratio.h"
#include "test_rotation.h"
#include "test_shapes.h"
#include "test_lattice.h"
#include "test_bodies.h"
#include "test_surface.h"
#include "test_skin.h"
#include "test_body_motion.h"
#include "test_shapes_scenes.h"
#include "test_solid_contacts.h"
#include "test_fluid.h"
#include "test_fluid_objects.h"
#include "test_fluid_coupling.h"
#include "test_threads.h"
#include "test_slices.h"
#include "test_inflatables.h"

#define TEST_LIST(X)                                                                                                  \
	TEST_LIST_PROJECTION(X) TEST_LIST_INTEGRATION(X) TEST_LIST_ROBUSTNESS(X) TEST_LIST_INSTRUMENTS(X)                 \
	TEST_LIST_COLOURING(X) TEST_LIST_COLLIDER_API(X) TEST_LIST_COLLIDER_SHAPES(X) TEST_LIST_COLLIDER_FRICTION(X)      \
	TEST_LIST_COLLIDER_EDGES(X) TEST_LIST_SELF_COLLISION(X) TEST_LIST_CONTACT_SCENES(X) TEST_LIST_CLOTH(X)            \
	TEST_LIST_WORLDS(X) TEST_LIST_FAMILIES(X) TEST_LIST_GRAPH_COLOURING(X) TEST_LIST_NEIGHBOURS(X)                    \
	TEST_LIST_NEIGHBOUR_RULES(X) TEST_LIST_RECOVERY(X) TEST_LIST_VOLUME(X)                                            \
	TEST_LIST_PLASTICITY_SOFT(X) TEST_LIST_CONTACT_RADIUS(X) TEST_LIST_MASS_RATIO(X) TEST_LIST_ROTATION(X)            \
	TEST_LIST_SHAPES(X) TEST_LIST_LATTICE(X) TEST_LIST_BODIES(X) TEST_LIST_SURFACE(X) TEST_LIST_SKIN(X) TEST_LIST_BODY_MOTION(X) \
	TEST_LIST_SHAPES_SCENES(X) TEST_LIST_SOLID_CONTACTS(X) TEST_LIST_FLUID(X) TEST_LIST_FLUID_COUPLING(X) TEST_LIST_FLUID_OBJECTS(X) \
	TEST_LIST_THREADS(X) TEST_LIST_SLICES(X) TEST_LIST_INFLATABLES(X)

#define DECLARE(name) void Test_##name(void);
TEST_LIST(DECLARE)
#undef DECLARE

static const TestCase s_tests[] = {
#define ENTRY(name) { #name, Test_##name },
	TEST_LIST(ENTRY)
#undef ENTRY
};

int main(int argc, char** argv)
{
	const char* filter = argc > 1 ? argv[1] : "";
	int run = 0, failed = 0;
	double totalMs = 0.0;
	for (size_t i = 0; i < sizeof s_tests / sizeof s_tests[0]; ++i) {
		if (strstr(s_tests[i].name, filter) == NULL) continue;
		g_testFailed = 0;
		/* CPU time (clock(): the process's, all its threads), so the slow tests show themselves in every log
		   without a profiler; a team's spinning threads count, as they cost the machine. */
		const clock_t t0 = clock();
		s_tests[i].fn();
		const double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
		totalMs += ms;
		run += 1;
		if (g_testFailed) failed += 1;
		printf("%s %s (%.0f ms CPU)\n", g_testFailed ? "FAIL" : "ok  ", s_tests[i].name, ms);
	}
#if defined(__EMSCRIPTEN__)
	const char* build = "wasm";
#elif defined(PBD_SCALAR) && PBD_SCALAR
	const char* build = "native-scalar";
#else
	const char* build = "native";
#endif
	printf("c tests (%s): %d passed, %d failed (%.1f s CPU)\n", build, run - failed, failed, totalMs / 1000.0);
	return failed == 0 && run > 0 ? 0 : 1;
}
