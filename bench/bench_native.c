/* bench_native.c -- native half of `make bench` (bench/bench.mjs runs the wasm half and
   the JS peers).

   Builds the benchmark cloth (or a single-cloth scene described on the command line, such
   as the built-in cloth-100k) with the C API exactly as web/js/minipbd.js builds the same
   scene in wasm (same parameters, same float conversions, same capacities), sets the case's
   extra world parameters, warms up, times RUNS batches and prints one JSON line per case:

     {"case":"cloth-100x100","impl":"native","mode":"step","particles":10000,
      "constraints":59002,"passes":10,"warmup_steps":30,"steps_per_run":100,
      "runs":[ms/step, ...],"ms_median":..,"ms_min":..,"proj_per_s":..,
      "max_stretch":.. (after the warm-up),"max_stretch_final":.. (after the runs),
      "hash_after_warmup":"0x..","hash_final":"0x..","params":{..},"compiler":"..",
      "target":"..","simd":true}

   usage: bench_native [--impl NAME] [--threads N] CASE [CASE ...]
     --threads N one team of N threads (bench_native_stages.c) started once: every case's world steps on it with
                 N threads, and its record says "threads":N (without it: no team, no "threads")
     CASE is one argument, comma-separated key=value pairs:
       name=TEXT   the record's case name (default cloth-RESxRES)
       res=N       cloth resolution per side (RES x RES particles), required
       warmup=N    steps before timing (the hash after them is the cross-check with wasm)
       runs=N      timed batches (the median of their ms per step or call is reported)
       steps=N     steps (mode=step) or pbd_World_FindPairs calls (mode=findpairs) per batch
       mode=step|findpairs|rebuild|part|stages
                   step: time pbd_World_Step; findpairs: time pbd_World_FindPairs (hash
                   rebuild + pair search from the current positions) on the warmed-up cloth;
                   rebuild: the hash rebuild alone, through the engine's internal
                   pbd_HashGrid_Build (native only: wasm does not export it; a record with
                   "skipped" when the engine has no such function); part: pbd_World_RunFluidPart(PART)
                   per call on the warmed-up world (a fluid case; "skipped" when the engine refuses it);
                   stages: steps one unit a call (pbd_World_StepSlice(w, 1)), timing each unit's stage
                   (pbd_World_StepStage): the record adds "stage_ms" and "stage_units" per step
       part=N      the pbdFluidPart of mode=part (0 sort .. 5 viscosity)
       NAME=VALUE  any other key is a world parameter (pbd_ParamFromName), set after the
                   scene is built, in the order given (bench.mjs sets them in the same order)
     A scene other than the bench cloth (bench.mjs: the built-in cloth-100k) is described by:
       scene=TEXT          its name, printed in the record
       base.NAME=VALUE     a world parameter set before the cloth is built, after the bench
                           cloth's own (bench.mjs passes every parameter of the wasm world that
                           the scene built, so both worlds start from the same floats)
       cloth.origin=X:Y:Z, cloth.size=W:H, cloth.mass=M, cloth.stiffness=STRETCH:SHEAR:BEND,
       cloth.plane=xy|xz, cloth.pins=corners|top
                           the cloth as web/js/minipbd.js World.build() makes it: axisU = (W, 0, 0),
                           axisV = (0, -H, 0) for xy or (0, 0, H) for xz; pinned at the two top
                           corners or along the whole top row (j = 0)
     A solid case (bench/solid-cases.mjs): world=PATH, a plan file of the world's operations
       (bench_native_world.c) instead of res=N; its record also has "bodies" and "tets". A fluid case
       (bench/fluid-cases.mjs) is a plan too; its record has the fluid's live particles as "particles" and
       pbdFluidStats after the warm-up and at the end ("density_error_warmup", "density_error", ...).
     e.g. bench_native --impl native res=316,warmup=30,runs=7,steps=20,iterations=1
   Exit status 2 on bad arguments, 1 if the engine refuses something. */
#include "bench_native_stages.h"
#include "bench_native_world.h"
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

static pbdWorldId s_world; /* the world being built or run: its calls' messages are its own */

static int Check(int result, const char* what)
{
	if (result < 0) {
		fprintf(stderr, "bench_native: %s failed: %s\n", what, s_world > 0 ? pbd_World_GetLastErrorMessage(s_world) : pbd_GetLastErrorMessage());
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

/* CPU time of the whole process (every thread): over wall time, the cores a run actually got. */
static double CpuMs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
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

#define MAX_PARAMS 16

enum { PINS_CORNERS, PINS_TOP };

typedef struct BenchCase {
	char name[64];
	char scene[32]; /* "" for the bench cloth */
	char world[512]; /* a solid case's plan file, "" for a cloth */
	int res, warmup, runs, steps;
	int mode; /* MODE_... */
	int part; /* mode=part: the pbdFluidPart */
	int paramCount;
	pbdParam param[MAX_PARAMS];
	char paramName[MAX_PARAMS][32];
	double value[MAX_PARAMS];
	/* the scene: base parameters and the cloth (defaults: the bench cloth, SCENE_*) */
	int baseCount;
	pbdParam baseParam[pbdParam_count];
	double baseValue[pbdParam_count];
	double origin[3], size[2], mass, stiffness[3];
	int planeXZ, pins;
} BenchCase;

static pbdWorldId BuildCloth(const BenchCase* bc)
{
	const int res = bc->res;
	int32_t particles, constraints, triangles;
	pbd_ClothCounts(res, res, &particles, &constraints, &triangles);
	if (particles <= 0) {
		fprintf(stderr, "bench_native: bad cloth resolution %d\n", res);
		exit(2);
	}
	/* The capacities minipbd.js asks for: exact counts, 16 pointer attachments, one
	   object, max(colliders, 1) colliders. */
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = constraints;
	def.maxTriangles = triangles;
	def.maxLines = 1;
	def.maxAttachments = 16;
	def.maxObjects = 1;
	def.maxColliders = 1;
	pbdWorldId w = s_world = Check(pbd_CreateWorld(&def), "pbd_CreateWorld");

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
		/* web/js/scene.js defaults for the solver's cloth options and the wind (off: density 0) */
		{ pbdParam_thickness, 0.01 },
		{ pbdParam_tethers, 1.0 },
		{ pbdParam_selfCollision, 0.0 },
		{ pbdParam_tearStretch, 0.0 },
		{ pbdParam_windX, 0.0 },
		{ pbdParam_windY, 0.0 },
		{ pbdParam_windZ, 0.0 },
		{ pbdParam_airDensity, 0.0 },
		{ pbdParam_drag, 1.0 },
		{ pbdParam_lift, 0.3 },
	};
	for (size_t i = 0; i < sizeof params / sizeof params[0]; ++i) {
		Check(pbd_World_SetParam(w, params[i].param, (float)params[i].value), "pbd_World_SetParam");
	}
	/* Another scene's parameters, as its wasm world has them (no parameter's effect depends on
	   the order they are set in before the cloth exists). */
	for (int i = 0; i < bc->baseCount; ++i) {
		Check(pbd_World_SetParam(w, bc->baseParam[i], (float)bc->baseValue[i]), "pbd_World_SetParam (base)");
	}

	/* axisU = (w, 0, 0), axisV = (0, -h, 0) for plane "xy" or (0, 0, h) for "xz", as in minipbd.js. */
	pbdClothDef cloth = pbd_DefaultClothDef();
	for (int k = 0; k < 3; ++k) cloth.origin[k] = (float)bc->origin[k];
	cloth.axisU[0] = (float)bc->size[0];
	cloth.axisU[1] = 0.0f;
	cloth.axisU[2] = 0.0f;
	cloth.axisV[0] = 0.0f;
	cloth.axisV[1] = bc->planeXZ ? 0.0f : (float)-bc->size[1];
	cloth.axisV[2] = bc->planeXZ ? (float)bc->size[1] : 0.0f;
	cloth.resolutionU = res;
	cloth.resolutionV = res;
	cloth.mass = (float)bc->mass;
	int first = Check(pbd_World_AddCloth(w, &cloth), "pbd_World_AddCloth");
	Check(pbd_World_SetObjectStiffness(w, 0, pbdKind_stretch, (float)bc->stiffness[0]), "stiffness");
	Check(pbd_World_SetObjectStiffness(w, 0, pbdKind_shear, (float)bc->stiffness[1]), "stiffness");
	Check(pbd_World_SetObjectStiffness(w, 0, pbdKind_bend, (float)bc->stiffness[2]), "stiffness");
	/* Pinned at the two top corners, grid cells [0, 0] and [res - 1, 0], or along the top row. */
	for (int i = 0; i < res; ++i) {
		if (bc->pins == PINS_TOP || i == 0 || i == res - 1) Check(pbd_World_SetInvMass(w, first + i, 0.0f), "pin");
	}
	/* World.build() ends by setting each kind's world stiffness to what the objects use. */
	Check(pbd_World_SetParam(w, pbdParam_stiffnessStretch, (float)bc->stiffness[0]), "pbd_World_SetParam");
	Check(pbd_World_SetParam(w, pbdParam_stiffnessShear, (float)bc->stiffness[1]), "pbd_World_SetParam");
	Check(pbd_World_SetParam(w, pbdParam_stiffnessBend, (float)bc->stiffness[2]), "pbd_World_SetParam");
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

/* The engine's own SIMD switch (src/simd.h): 0 in the -DPBD_SCALAR=1 build. */
#if defined(PBD_SCALAR) && PBD_SCALAR
#define BENCH_SIMD 0
#else
#define BENCH_SIMD 1
#endif

/* The hash rebuild alone (mode=rebuild) is internal to the engine (src/hash_grid.c), so it
   is reached by symbol name, weakly: the bench still builds, and says so, if the engine
   renames it. Assumed signature: void pbd_HashGrid_Build(pbdWorld*), with the world from
   pbd_GetWorld(id) (src/core.h). */
extern void BenchHashGridBuild(void* world) __asm__("pbd_HashGrid_Build") __attribute__((weak));
extern void* BenchGetWorld(pbdWorldId id) __asm__("pbd_GetWorld");

enum { MODE_STEP, MODE_FINDPAIRS, MODE_REBUILD, MODE_PART, MODE_STAGES };
static const char* const s_modeNames[] = { "step", "findpairs", "rebuild", "part", "stages" };

static void RunCase(const char* impl, const BenchCase* bc)
{
	if (bc->mode == MODE_REBUILD && BenchHashGridBuild == NULL) {
		printf("{\"case\":\"%s\",\"impl\":\"%s\",\"mode\":\"rebuild\",\"skipped\":\"the engine has no pbd_HashGrid_Build\"}\n",
			   bc->name, impl);
		fflush(stdout);
		return;
	}
	pbdWorldId w = s_world = bc->world[0] ? BenchWorld_Load(bc->world) : BuildCloth(bc);
	BenchThreads_Attach(w);
	for (int i = 0; i < bc->paramCount; ++i) {
		Check(pbd_World_SetParam(w, bc->param[i], (float)bc->value[i]), "pbd_World_SetParam");
	}
	const int fluid = BenchWorld_FluidParticles(w);
	const int particles = fluid >= 0 ? fluid : pbd_World_GetParticleCount(w);
	const int constraints = pbd_World_GetConstraintCount(w);
	const int passes = (int)pbd_World_GetParam(w, pbdParam_substeps) * (int)pbd_World_GetParam(w, pbdParam_iterations);

	for (int i = 0; i < bc->warmup; ++i) Check(pbd_World_Step(w), "pbd_World_Step");
	const uint32_t hashWarm = pbd_World_Hash(w);
	/* Stretch after the warm-up: the same simulated time on every implementation. */
	pbdStats warm;
	Check(pbd_World_GetStats(w, &warm), "pbd_World_GetStats");
	pbdFluidStats fluidWarm, fluidFinal;
	const int fluidWarmOk = fluid >= 0 && pbd_World_GetFluidStats(w, &fluidWarm) == PBD_OK;

	double ms[MAX_RUNS];
	double stageMs[BENCH_STAGES] = { 0 };
	int stageUnits[BENCH_STAGES] = { 0 };
	int pairs = -1;
	const double wall0 = NowMs(), cpu0 = CpuMs();
	for (int r = 0; r < bc->runs; ++r) {
		double t0 = NowMs();
		if (bc->mode == MODE_FINDPAIRS) {
			for (int i = 0; i < bc->steps; ++i) pairs = Check(pbd_World_FindPairs(w), "pbd_World_FindPairs");
		} else if (bc->mode == MODE_PART) {
			for (int i = 0; i < bc->steps; ++i) {
				if (pbd_World_RunFluidPart(w, bc->part) >= 0) continue;
				printf("{\"case\":\"%s\",\"impl\":\"%s\",\"mode\":\"part\",\"skipped\":\"pbd_World_RunFluidPart(%d) refused\"}\n",
					   bc->name, impl, bc->part);
				fflush(stdout);
				pbd_DestroyWorld(w);
				return;
			}
		} else if (bc->mode == MODE_REBUILD) {
			void* world = BenchGetWorld(w);
			for (int i = 0; i < bc->steps; ++i) BenchHashGridBuild(world);
		} else if (bc->mode == MODE_STAGES) {
			BenchStages_Step(w, bc->steps, stageMs, stageUnits);
		} else {
			for (int i = 0; i < bc->steps; ++i) Check(pbd_World_Step(w), "pbd_World_Step");
		}
		ms[r] = (NowMs() - t0) / bc->steps;
	}
	const double cpuPerWall = (CpuMs() - cpu0) / (NowMs() - wall0);
	const double median = Median(ms, bc->runs);
	double fastest = ms[0];
	for (int r = 1; r < bc->runs; ++r) fastest = ms[r] < fastest ? ms[r] : fastest;
	pbdStats stats;
	Check(pbd_World_GetStats(w, &stats), "pbd_World_GetStats");
	const uint32_t hashFinal = pbd_World_Hash(w);
	const int fluidFinalOk = fluid >= 0 && pbd_World_GetFluidStats(w, &fluidFinal) == PBD_OK;
	/* Pairs of the final state, when self-collision is part of the case (after the hash:
	   the search does not touch positions or velocities). */
	if ((bc->mode == MODE_STEP || bc->mode == MODE_STAGES) && pbd_World_GetParam(w, pbdParam_selfCollision) != 0.0f) {
		pairs = Check(pbd_World_FindPairs(w), "pbd_World_FindPairs");
	}

	printf("{\"case\":\"%s\",\"impl\":\"%s\",\"mode\":\"%s\",%s%s%s\"particles\":%d,\"constraints\":%d,\"passes\":%d,"
		   "\"warmup_steps\":%d,\"%s\":%d,",
		   bc->name, impl, s_modeNames[bc->mode], bc->scene[0] ? "\"scene\":\"" : "", bc->scene, bc->scene[0] ? "\"," : "",
		   particles, constraints, passes, bc->warmup,
		   bc->mode == MODE_STEP || bc->mode == MODE_STAGES ? "steps_per_run" : "calls_per_run", bc->steps);
	if (BenchThreads_Count() > 0) printf("\"threads\":%d,", BenchThreads_Count());
	if (bc->mode == MODE_STAGES) BenchStages_Print(stageMs, stageUnits, bc->runs * bc->steps);
	if (bc->world[0]) BenchWorld_PrintCounts(w);
	if (fluid >= 0) BenchWorld_PrintFluidStats(w, &fluidWarm, fluidWarmOk, "_warmup"), BenchWorld_PrintFluidStats(w, &fluidFinal, fluidFinalOk, "");
	printf("\"runs\":[");
	for (int r = 0; r < bc->runs; ++r) printf("%s%.17g", r ? "," : "", ms[r]);
	printf("],\"ms_median\":%.17g,\"ms_min\":%.17g,\"cpu_per_wall\":%.6g,", median, fastest, cpuPerWall);
	/* proj/s: every constraint is projected once per pass (steps only). */
	if (bc->mode != MODE_STEP && bc->mode != MODE_STAGES) printf("\"proj_per_s\":null,");
	else printf("\"proj_per_s\":%.17g,", (double)constraints * passes / (median / 1000.0));
	printf("\"max_stretch\":%.9g,\"max_stretch_final\":%.9g,\"hash_after_warmup\":\"0x%08x\",\"hash_final\":\"0x%08x\",",
		   (double)warm.maxStretch, (double)stats.maxStretch, hashWarm, hashFinal);
	if (pairs >= 0) printf("\"pairs\":%d,", pairs);
	printf("\"params\":{");
	for (int i = 0; i < bc->paramCount; ++i) printf("%s\"%s\":%.17g", i ? "," : "", bc->paramName[i], bc->value[i]);
	printf("},\"compiler\":\"gcc %s\",\"target\":\"%s\",\"simd\":%s}\n", __VERSION__, Target(), BENCH_SIMD ? "true" : "false");
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

/* Plain text for a JSON string: no quotes, backslashes or control characters. */
static int PlainText(const char* s)
{
	for (; *s; ++s) {
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20) return 0;
	}
	return 1;
}

static double ParseNumber(const char* s, const char* what)
{
	char* end;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !(v == v) || v - v != 0.0) {
		fprintf(stderr, "bench_native: %s must be a finite number, got \"%s\"\n", what, s);
		exit(2);
	}
	return v;
}

/* "X:Y:Z" (n numbers separated by ':') into out. */
static void ParseNumbers(const char* s, double* out, int n, const char* what)
{
	char buf[128];
	if (strlen(s) >= sizeof buf) {
		fprintf(stderr, "bench_native: %s is too long\n", what);
		exit(2);
	}
	strcpy(buf, s);
	char* at = buf;
	for (int i = 0; i < n; ++i) {
		char* colon = strchr(at, ':');
		if ((colon == NULL) != (i == n - 1)) {
			fprintf(stderr, "bench_native: %s needs %d numbers separated by ':', got \"%s\"\n", what, n, s);
			exit(2);
		}
		if (colon) *colon = '\0';
		out[i] = ParseNumber(at, what);
		at = colon ? colon + 1 : at;
	}
}

static void ParseCase(const char* spec, BenchCase* bc)
{
	char buf[4096];
	if (strlen(spec) >= sizeof buf) {
		fprintf(stderr, "bench_native: case spec too long\n");
		exit(2);
	}
	strcpy(buf, spec);
	memset(bc, 0, sizeof *bc);
	bc->res = -1;
	bc->warmup = 30;
	bc->runs = 7;
	bc->steps = 10;
	bc->origin[0] = SCENE_ORIGIN_X, bc->origin[1] = SCENE_ORIGIN_Y, bc->origin[2] = 0.0;
	bc->size[0] = bc->size[1] = SCENE_SIZE;
	bc->mass = SCENE_MASS;
	bc->stiffness[0] = 1.0, bc->stiffness[1] = 1.0, bc->stiffness[2] = 0.1;
	bc->pins = PINS_CORNERS;
	for (char* item = strtok(buf, ","); item != NULL; item = strtok(NULL, ",")) {
		char* eq = strchr(item, '=');
		if (eq == NULL || eq == item) {
			fprintf(stderr, "bench_native: \"%s\" in a case is not key=value\n", item);
			exit(2);
		}
		*eq = '\0';
		const char *key = item, *value = eq + 1;
		if (strcmp(key, "name") == 0) {
			if (strlen(value) == 0 || strlen(value) >= sizeof bc->name || !PlainText(value)) {
				fprintf(stderr, "bench_native: bad case name \"%s\"\n", value);
				exit(2);
			}
			strcpy(bc->name, value);
		} else if (strcmp(key, "res") == 0) {
			bc->res = ParseInt(value, 2, 1024, "res");
		} else if (strcmp(key, "warmup") == 0) {
			bc->warmup = ParseInt(value, 0, 100000, "warmup");
		} else if (strcmp(key, "runs") == 0) {
			bc->runs = ParseInt(value, 1, MAX_RUNS, "runs");
		} else if (strcmp(key, "steps") == 0) {
			bc->steps = ParseInt(value, 1, 100000, "steps");
		} else if (strcmp(key, "mode") == 0) {
			if (strcmp(value, "step") == 0) bc->mode = MODE_STEP;
			else if (strcmp(value, "findpairs") == 0) bc->mode = MODE_FINDPAIRS;
			else if (strcmp(value, "rebuild") == 0) bc->mode = MODE_REBUILD;
			else if (strcmp(value, "part") == 0) bc->mode = MODE_PART;
			else if (strcmp(value, "stages") == 0) bc->mode = MODE_STAGES;
			else {
				fprintf(stderr, "bench_native: mode must be step, findpairs, rebuild, part or stages, got \"%s\"\n", value);
				exit(2);
			}
		} else if (strcmp(key, "part") == 0) {
			bc->part = ParseInt(value, 0, pbdFluidPart_count - 1, "part");
		} else if (strcmp(key, "scene") == 0) {
			if (strlen(value) == 0 || strlen(value) >= sizeof bc->scene || !PlainText(value)) {
				fprintf(stderr, "bench_native: bad scene name \"%s\"\n", value);
				exit(2);
			}
			strcpy(bc->scene, value);
		} else if (strcmp(key, "world") == 0) {
			if (strlen(value) == 0 || strlen(value) >= sizeof bc->world) {
				fprintf(stderr, "bench_native: bad world file name \"%s\"\n", value);
				exit(2);
			}
			strcpy(bc->world, value);
		} else if (strncmp(key, "base.", 5) == 0) {
			int param = pbd_ParamFromName(key + 5);
			if (param < 0 || bc->baseCount == pbdParam_count) {
				fprintf(stderr, "bench_native: \"%s\" is not base.<a world parameter>\n", key);
				exit(2);
			}
			bc->baseParam[bc->baseCount] = (pbdParam)param;
			bc->baseValue[bc->baseCount] = ParseNumber(value, key);
			bc->baseCount += 1;
		} else if (strcmp(key, "cloth.origin") == 0) {
			ParseNumbers(value, bc->origin, 3, key);
		} else if (strcmp(key, "cloth.size") == 0) {
			ParseNumbers(value, bc->size, 2, key);
		} else if (strcmp(key, "cloth.mass") == 0) {
			bc->mass = ParseNumber(value, key);
		} else if (strcmp(key, "cloth.stiffness") == 0) {
			ParseNumbers(value, bc->stiffness, 3, key);
		} else if (strcmp(key, "cloth.plane") == 0) {
			if (strcmp(value, "xy") != 0 && strcmp(value, "xz") != 0) {
				fprintf(stderr, "bench_native: cloth.plane must be xy or xz, got \"%s\"\n", value);
				exit(2);
			}
			bc->planeXZ = strcmp(value, "xz") == 0;
		} else if (strcmp(key, "cloth.pins") == 0) {
			if (strcmp(value, "corners") != 0 && strcmp(value, "top") != 0) {
				fprintf(stderr, "bench_native: cloth.pins must be corners or top, got \"%s\"\n", value);
				exit(2);
			}
			bc->pins = strcmp(value, "top") == 0 ? PINS_TOP : PINS_CORNERS;
		} else {
			int param = pbd_ParamFromName(key);
			char* end;
			double v = strtod(value, &end);
			if (param < 0 || *value == '\0' || *end != '\0' || bc->paramCount == MAX_PARAMS || strlen(key) >= 32) {
				fprintf(stderr, "bench_native: \"%s=%s\" is not a known world parameter with a number\n", key, value);
				exit(2);
			}
			bc->param[bc->paramCount] = (pbdParam)param;
			strcpy(bc->paramName[bc->paramCount], key);
			bc->value[bc->paramCount] = v;
			bc->paramCount += 1;
		}
	}
	if (bc->res < 0 && bc->world[0] == '\0') {
		fprintf(stderr, "bench_native: a case needs res=N (or world=PATH)\n");
		exit(2);
	}
	if (bc->name[0] == '\0' && bc->world[0]) strcpy(bc->name, "solid");
	if (bc->name[0] == '\0') snprintf(bc->name, sizeof bc->name, "cloth-%dx%d", bc->res, bc->res);
}

int main(int argc, char** argv)
{
	const char* impl = "native";
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "--impl") == 0) {
		impl = argv[i + 1];
		if (!PlainText(impl)) {
			fprintf(stderr, "bench_native: --impl name must be plain text\n");
			return 2;
		}
		i += 2;
	}
	int threads = 0;
	if (i + 1 < argc && strcmp(argv[i], "--threads") == 0) {
		threads = ParseInt(argv[i + 1], 1, PBD_MAX_THREADS, "--threads");
		i += 2;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: bench_native [--impl NAME] [--threads N] CASE [CASE ...]   (CASE: res=N,warmup=N,runs=N,steps=N[,mode=step|findpairs|rebuild][,param=value...])\n");
		return 2;
	}
	/* Parse every case first: a typo in the last one must not cost the minutes of the first. */
	int count = argc - i;
	BenchCase* cases = calloc((size_t)count, sizeof *cases);
	if (cases == NULL) return 1;
	for (int k = 0; k < count; ++k) ParseCase(argv[i + k], &cases[k]);
	if (threads > 0) BenchThreads_Start(threads);
	for (int k = 0; k < count; ++k) RunCase(impl, &cases[k]);
	BenchThreads_Stop();
	free(cases);
	return 0;
}
