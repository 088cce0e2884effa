/* bench_native.c -- native half of `make bench` (bench/bench.mjs runs the wasm half).

   Builds the benchmark cloth with the C API exactly as web/js/minipbd.js builds the
   same scene in wasm (same parameters, same float conversions, same capacities), warms
   up, times RUNS batches of STEPS steps each and prints one JSON line per case:

     {"case":"cloth-100x100","impl":"native","particles":10000,"constraints":59002,
      "passes":10,"warmup_steps":30,"steps_per_run":100,"runs":[ms/step, ...],
      "ms_median":..,"proj_per_s":..,"max_stretch":..,"hash_after_warmup":"0x..",
      "hash_final":"0x..","compiler":"..","target":".."}

   usage: bench_native [--impl NAME] RES WARMUP RUNS STEPS [RES WARMUP RUNS STEPS ...]
     RES     cloth resolution per side (RES x RES particles)
     WARMUP  steps before timing (the hash after them is the cross-check with wasm)
     RUNS    timed batches (the median of their ms/step is reported)
     STEPS   steps per batch
   Exit status 2 on bad arguments, 1 if the engine refuses something. */
#include "minipbd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RUNS 100

/* Mirrors web/js/minipbd.js World.build() for the scene bench.mjs hands to wasm:
   JS numbers are doubles that reach the wasm f32 parameters rounded once, so every
   value here is written as a double literal and converted with (float). */
#define SCENE_DT (1.0 / 60.0)
#define SCENE_GRAVITY_Y (-9.81)
#define SCENE_MASS 0.01
#define SCENE_SIZE 2.0
#define SCENE_ORIGIN_X (-1.0)
#define SCENE_ORIGIN_Y 2.5

static int Check(int result, const char* what)
{
	if (result < 0) {
		fprintf(stderr, "bench_native: %s failed: %s\n", what, pbd_GetLastErrorMessage());
		exit(1);
	}
	return result;
}

static double NowMs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int CompareDouble(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return (x > y) - (x < y);
}

static double Median(const double* values, int n)
{
	double sorted[MAX_RUNS];
	memcpy(sorted, values, (size_t)n * sizeof *values);
	qsort(sorted, (size_t)n, sizeof *sorted, CompareDouble);
	return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

static pbdWorldId BuildCloth(int res)
{
	int32_t particles, constraints, triangles;
	pbd_ClothCounts(res, res, &particles, &constraints, &triangles);
	if (particles <= 0) {
		fprintf(stderr, "bench_native: bad cloth resolution %d\n", res);
		exit(2);
	}
	/* The capacities minipbd.js asks for: exact counts, 16 pointer attachments, one object. */
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = constraints;
	def.maxTriangles = triangles;
	def.maxLines = 1;
	def.maxAttachments = 16;
	def.maxObjects = 1;
	pbdWorldId w = Check(pbd_CreateWorld(&def), "pbd_CreateWorld");

	/* Parameters first, in World.build() order: objects take their stiffness from them. */
	static const struct {
		pbdParam param;
		double value;
	} params[] = {
		{ pbdParam_dt, SCENE_DT },
		{ pbdParam_substeps, 1.0 },
		{ pbdParam_iterations, 10.0 },
		{ pbdParam_damping, 0.0 },
		{ pbdParam_gravityX, 0.0 },
		{ pbdParam_gravityY, SCENE_GRAVITY_Y },
		{ pbdParam_gravityZ, 0.0 },
		{ pbdParam_groundEnabled, 1.0 },
		{ pbdParam_groundHeight, 0.0 },
		{ pbdParam_restitution, 0.2 },
		{ pbdParam_staticFriction, 0.4 },
		{ pbdParam_kineticFriction, 0.3 },
	};
	for (size_t i = 0; i < sizeof params / sizeof params[0]; ++i) {
		Check(pbd_World_SetParam(w, params[i].param, (float)params[i].value), "pbd_World_SetParam");
	}

	/* plane "xy", 2 m x 2 m: axisU = (w, 0, 0), axisV = (0, -h, 0) as in minipbd.js. */
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.origin[0] = (float)SCENE_ORIGIN_X;
	cloth.origin[1] = (float)SCENE_ORIGIN_Y;
	cloth.origin[2] = 0.0f;
	cloth.axisU[0] = (float)SCENE_SIZE;
	cloth.axisU[1] = 0.0f;
	cloth.axisU[2] = 0.0f;
	cloth.axisV[0] = 0.0f;
	cloth.axisV[1] = (float)-SCENE_SIZE;
	cloth.axisV[2] = 0.0f;
	cloth.resolutionU = res;
	cloth.resolutionV = res;
	cloth.mass = (float)SCENE_MASS;
	int first = Check(pbd_World_AddCloth(w, &cloth), "pbd_World_AddCloth");
	Check(pbd_World_SetObjectStiffness(w, 0, pbdKind_stretch, (float)1.0), "stiffness");
	Check(pbd_World_SetObjectStiffness(w, 0, pbdKind_shear, (float)1.0), "stiffness");
	Check(pbd_World_SetObjectStiffness(w, 0, pbdKind_bend, (float)0.1), "stiffness");
	/* Pinned at the two top corners: grid cells [0, 0] and [res - 1, 0]. */
	Check(pbd_World_SetInvMass(w, first + 0, 0.0f), "pin");
	Check(pbd_World_SetInvMass(w, first + res - 1, 0.0f), "pin");
	if (pbd_World_GetParticleCount(w) != particles || pbd_World_GetConstraintCount(w) != constraints) {
		fprintf(stderr, "bench_native: counts differ from pbd_ClothCounts\n");
		exit(1);
	}
	return w;
}

static const char* Target(void)
{
#if defined(__AVX512F__)
	return "x86-64 AVX-512";
#elif defined(__AVX2__)
	return "x86-64 AVX2";
#elif defined(__AVX__)
	return "x86-64 AVX";
#elif defined(__SSE2__)
	return "x86-64 SSE2";
#elif defined(__aarch64__)
	return "aarch64";
#else
	return "generic";
#endif
}

static void RunCase(const char* impl, int res, int warmup, int runs, int steps)
{
	pbdWorldId w = BuildCloth(res);
	const int particles = pbd_World_GetParticleCount(w);
	const int constraints = pbd_World_GetConstraintCount(w);
	const int passes = (int)pbd_World_GetParam(w, pbdParam_substeps) * (int)pbd_World_GetParam(w, pbdParam_iterations);

	for (int i = 0; i < warmup; ++i) Check(pbd_World_Step(w), "pbd_World_Step");
	const uint32_t hashWarm = pbd_World_Hash(w);

	double ms[MAX_RUNS];
	for (int r = 0; r < runs; ++r) {
		double t0 = NowMs();
		for (int i = 0; i < steps; ++i) Check(pbd_World_Step(w), "pbd_World_Step");
		ms[r] = (NowMs() - t0) / steps;
	}
	const double median = Median(ms, runs);
	pbdStats stats;
	Check(pbd_World_GetStats(w, &stats), "pbd_World_GetStats");
	const uint32_t hashFinal = pbd_World_Hash(w);
	/* proj/s: every constraint is projected once per pass. */
	const double projPerS = (double)constraints * passes / (median / 1000.0);

	printf("{\"case\":\"cloth-%dx%d\",\"impl\":\"%s\",\"particles\":%d,\"constraints\":%d,\"passes\":%d,"
		   "\"warmup_steps\":%d,\"steps_per_run\":%d,\"runs\":[",
		   res, res, impl, particles, constraints, passes, warmup, steps);
	for (int r = 0; r < runs; ++r) printf("%s%.17g", r ? "," : "", ms[r]);
	printf("],\"ms_median\":%.17g,\"proj_per_s\":%.17g,\"max_stretch\":%.9g,\"hash_after_warmup\":\"0x%08x\","
		   "\"hash_final\":\"0x%08x\",\"compiler\":\"gcc %s\",\"target\":\"%s\"}\n",
		   median, projPerS, (double)stats.maxStretch, hashWarm, hashFinal, __VERSION__, Target());
	fflush(stdout);
	pbd_DestroyWorld(w);
}

static int ParseInt(const char* s, int lo, int hi, const char* what)
{
	char* end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "bench_native: %s must be a whole number in [%d, %d], got \"%s\"\n", what, lo, hi, s);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char** argv)
{
	const char* impl = "native";
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "--impl") == 0) {
		impl = argv[i + 1];
		for (const char* c = impl; *c; ++c) {
			if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) {
				fprintf(stderr, "bench_native: --impl name must be plain text\n");
				return 2;
			}
		}
		i += 2;
	}
	if (argc - i < 4 || (argc - i) % 4 != 0) {
		fprintf(stderr, "usage: bench_native [--impl NAME] RES WARMUP RUNS STEPS [RES WARMUP RUNS STEPS ...]\n");
		return 2;
	}
	for (; i < argc; i += 4) {
		int res = ParseInt(argv[i], 2, 1024, "RES");
		int warmup = ParseInt(argv[i + 1], 0, 100000, "WARMUP");
		int runs = ParseInt(argv[i + 2], 1, MAX_RUNS, "RUNS");
		int steps = ParseInt(argv[i + 3], 1, 100000, "STEPS");
		RunCase(impl, res, warmup, runs, steps);
	}
	return 0;
}
