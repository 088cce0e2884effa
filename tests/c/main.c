/* Test runner: `test_native [--builds-subset] [filter]` runs the tests whose names contain filter.
   The same file builds natively, with sanitizers, with the scalar SIMD fallback and to wasm (run
   by Node). Native runs every test; `--builds-subset` (the other builds' runs in `make test-c`)
   leaves out the long physics scenarios of TEST_LIST_LONG below, whose physics native checked and
   whose bits those builds check through the pinned hashes (docs/tests.md, "What each build runs"). */
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
#include "test_knots.h"
#include "test_volume.h"
#include "test_press.h"
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
#include "test_shapes_stacks.h"
#include "test_solid_contacts.h"
#include "test_contact_sheets.h"
#include "test_fluid.h"
#include "test_fluid_objects.h"
#include "test_fluid_coupling.h"
#include "test_fluid_sheets.h"
#include "test_threads.h"
#include "test_slices.h"
#include "test_inflatables.h"
#include "test_previous.h"

#define TEST_LIST(X)                                                                                                  \
	TEST_LIST_PROJECTION(X) TEST_LIST_INTEGRATION(X) TEST_LIST_ROBUSTNESS(X) TEST_LIST_INSTRUMENTS(X)                 \
	TEST_LIST_COLOURING(X) TEST_LIST_COLLIDER_API(X) TEST_LIST_COLLIDER_SHAPES(X) TEST_LIST_COLLIDER_FRICTION(X)      \
	TEST_LIST_COLLIDER_EDGES(X) TEST_LIST_SELF_COLLISION(X) TEST_LIST_CONTACT_SCENES(X) TEST_LIST_CLOTH(X)            \
	TEST_LIST_WORLDS(X) TEST_LIST_FAMILIES(X) TEST_LIST_GRAPH_COLOURING(X) TEST_LIST_NEIGHBOURS(X)                    \
	TEST_LIST_NEIGHBOUR_RULES(X) TEST_LIST_RECOVERY(X) TEST_LIST_KNOTS(X) TEST_LIST_VOLUME(X) TEST_LIST_PRESS(X)                         \
	TEST_LIST_PLASTICITY_SOFT(X) TEST_LIST_CONTACT_RADIUS(X) TEST_LIST_MASS_RATIO(X) TEST_LIST_ROTATION(X)            \
	TEST_LIST_SHAPES(X) TEST_LIST_LATTICE(X) TEST_LIST_BODIES(X) TEST_LIST_SURFACE(X) TEST_LIST_SKIN(X) TEST_LIST_BODY_MOTION(X) \
	TEST_LIST_SHAPES_SCENES(X) TEST_LIST_SHAPES_STACKS(X) TEST_LIST_SOLID_CONTACTS(X) TEST_LIST_CONTACT_SHEETS(X) TEST_LIST_FLUID(X) TEST_LIST_FLUID_COUPLING(X) TEST_LIST_FLUID_SHEETS(X) \
	TEST_LIST_FLUID_OBJECTS(X) \
	TEST_LIST_THREADS(X) TEST_LIST_SLICES(X) TEST_LIST_INFLATABLES(X) TEST_LIST_PREVIOUS(X)

#define DECLARE(name) void Test_##name(void);
TEST_LIST(DECLARE)
#undef DECLARE

static const TestCase s_tests[] = {
#define ENTRY(name) { #name, Test_##name },
	TEST_LIST(ENTRY)
#undef ENTRY
};

/* The long physics scenarios (seconds of CPU each natively, 5 to 10 times that under ASan): each
   re-checks a property of the physics (a stack standing 60 s, water settling flat, a cloth's
   stretch) that does not depend on the build, so native checking it is enough. `--builds-subset`
   leaves them out. A test belongs here only when
   - it compares no pinned hash (the runner fails one that does: every build must reach those
     bits, the scalar and wasm builds' proof that they compute what native does), and
   - it checks no build-specific kernel (4-wide lanes against the plain loop, SIMD against scalar,
     a closed form that depends on float rounding, the neighbour search against brute force), and
   - the tests that remain run every line of src/ it runs, so ASan and UBSan still see every path
     (checked with gcov when the list was drawn up: docs/tests.md says how; FluidRestingTank stays
     out, the only test that reads pbd_World_UpdateDensities).
   Naming a test that does not exist fails to compile (Test_##name). */
#define TEST_LIST_LONG(X)                                                                                             \
	X(ShapesTenBoxStack) X(FluidHoseOnHammock) X(FluidDamBreakDefaultFriction) X(FluidBuoyancy)                       \
	X(TethersBoundStretch) X(TethersSwingAndSettle) X(InflatableFloats) X(FluidDamBreak)                              \
	X(MassRatioHeavyClusterOnLightCloth) X(ShapesTurnedBoxesRestLong)                \
	X(ShapesTwelveBoxStackStandsLong) X(KnotsFastDragLeavesNoKnot) X(FluidTankComesToRest)     \
	X(FluidBuoyancyRatios) X(FluidOnClothEverySplit) X(PressFifthHeightRecovers)    \
	X(PressAroundHalfKeepsVolume) X(BodiesStayOnClothEverywhereLong)

static const TestFn s_long[] = {
#define LONG_ENTRY(name) Test_##name,
	TEST_LIST_LONG(LONG_ENTRY)
#undef LONG_ENTRY
};

static int IsLong(TestFn fn)
{
	for (size_t i = 0; i < sizeof s_long / sizeof s_long[0]; ++i)
		if (s_long[i] == fn) return 1;
	return 0;
}

int g_pinnedHashes = 0;

/* What clock() measures: natively the process's CPU time; under Node, Emscripten's clock() is the wall clock
   (measured: FluidRestingTank 7.3 s by clock() on a loaded machine, 2.0 s of CPU by /usr/bin/time), so the wasm
   run's figures say so rather than pass for CPU time. */
#if defined(__EMSCRIPTEN__)
#define CLOCK_KIND "wall"
#else
#define CLOCK_KIND "CPU"
#endif

int main(int argc, char** argv)
{
	const int subset = argc > 1 && strcmp(argv[1], "--builds-subset") == 0;
	const char* filter = argc > 1 + subset ? argv[1 + subset] : "";
	int run = 0, failed = 0, skipped = 0;
	double totalMs = 0.0;
	for (size_t i = 0; i < sizeof s_tests / sizeof s_tests[0]; ++i) {
		if (strstr(s_tests[i].name, filter) == NULL) continue;
		const int isLong = IsLong(s_tests[i].fn);
		if (subset && isLong) {
			printf("skip %s (a long physics scenario: the native run checks it)\n", s_tests[i].name);
			skipped += 1;
			continue;
		}
		g_testFailed = 0;
		g_pinnedHashes = 0;
		/* CPU time (clock(): the process's, all its threads), so the slow tests show themselves in every log
		   without a profiler; a team's spinning threads count, as they cost the machine. */
		const clock_t t0 = clock();
		s_tests[i].fn();
		const double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
		if (isLong && g_pinnedHashes > 0) {
			printf("  FAILED: compares %d pinned hash(es), which every build must reach: not a TEST_LIST_LONG test\n",
				   g_pinnedHashes);
			g_testFailed = 1;
		}
		totalMs += ms;
		run += 1;
		if (g_testFailed) failed += 1;
		printf("%s %s (%.0f ms %s)\n", g_testFailed ? "FAIL" : "ok  ", s_tests[i].name, ms, CLOCK_KIND);
	}
#if defined(__EMSCRIPTEN__)
	const char* build = "wasm";
#elif defined(PBD_SCALAR) && PBD_SCALAR
	const char* build = "native-scalar";
#else
	const char* build = "native";
#endif
	printf("c tests (%s%s): %d passed, %d failed, %d skipped (%.1f s %s)\n", build, subset ? ", builds subset" : "",
		   run - failed, failed, skipped, totalMs / 1000.0, CLOCK_KIND);
	return failed == 0 && run > 0 ? 0 : 1;
}
