/* replay_calls.c -- replays, natively, the calls the JS engine made to the wasm build, and prints
   the hashes it asked for: so a Node test (tests/node/crossbuild.test.mjs) can check that every
   scene the page builds (cloth, chains, soft and rigid bodies, meshes, fluids with their hoses and
   drains, drags) reaches the same
   bits natively as in wasm, without a second scene loader in C.

   The log is text, one call per line: the function's name and its arguments as JS numbers
   (shortest round-trip decimal of a double; a float parameter gets (float) of it, which rounds
   exactly as wasm's f32 conversion does). pbdjs_CreateWorld's capacities (an array in minipbd.h PBD_CAPACITIES order)
   are written as pointer 0, their count, then "U n hex...". pbdjs_AddBody's two array pointers are written as 0 and
   the arrays follow on the same line: "F n hex..." (float32 bits) and "U n hex..." (uint32). Its cells
   (a surface's fill, done in parts by the page) are not logged: here the body fills itself, to the same
   cells (tests/c/test_surface.c SurfaceFillInParts).
   A line "pbd_World_Hash w" prints "hash <hex>". Unknown names are an error (exit 2), so a
   function the engine starts calling is never skipped silently.

   World ids are not renumbered: a handle is (generation << 16) | (slot + 1), so a fresh process
   that makes the same creates and destroys in the same order hands out the same ids as the wasm
   instance did (65537 for the first world). A log that starts mid-way or is written by hand with
   "world 1" names no live world; every call on it is refused and pbd_World_Hash of it is 0, which
   is how a hand-made log once printed "hash 00000000". So a call naming a world that is not live
   here stops the replay with a message (exit 2) instead of printing a hash of nothing.

   `replay_calls --threads N [log]` steps every world it creates on a team of N threads
   (host/threads.h): the hashes must not move (the threaded build: the same bits for any thread count).
   `--threads 2,3,4,8` (a list): a team of the largest, and every step (a pbdjs_StepN of n is n of them) on the
   list's next count in turn, so one replay steps every scene on each count, in every phase of its run (the block
   size never depends on the count: tasks.h), where one replay per count did the whole log again each time. */
#include "minipbd.h"
#include "host/threads.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The flat JS surface (the files of src/wasm) has no header: its prototypes, as there. */
pbdWorldId pbdjs_CreateWorld(const int32_t*, int);
int pbdjs_AddChain(pbdWorldId, float, float, float, float, float, float, int, float);
int pbdjs_AddCloth(pbdWorldId, float, float, float, float, float, float, float, float, float, int, int, float);
int pbdjs_AddCollider(pbdWorldId, int, float, float, float, float, float, float, float, float, float, float, float, float,
					  float, float, float);
int pbdjs_AddBody(pbdWorldId, int, int, float, float, float, float, float, float, float, float, float, float, float, float,
				  float, float, int, float, float, const float*, int, const uint32_t*, int, const uint64_t*);
int pbdjs_StepN(pbdWorldId, int);
int pbdjs_AddFluid(pbdWorldId, float, float, float, float, float, float, float, float, float, int);
int pbdjs_AddEmitter(pbdWorldId, int, float, float, float, float, float, float, float, float, int);
int pbdjs_SetEmitter(pbdWorldId, int, int, float, float, float, float, float, float, float, float, int);
int pbdjs_AddDrain(pbdWorldId, float, float, float, float, float, float);
int pbdjs_AddInflatable(pbdWorldId, float, float, float, float, int, const float*, int, const uint32_t*, int, float, float, float);
int pbdjs_SetInflatablePressure(pbdWorldId, int, float);

#define MAX_ARGS 32

static double a[MAX_ARGS];
static int argc_;

static int I(int k) { return (int)a[k]; }
static float F(int k) { return (float)a[k]; }

/* Reads "n hex..." after a tag into a fresh array of 32-bit words. */
static uint32_t* Words(char** save, int* n)
{
	char* tok = strtok_r(NULL, " \n", save);
	*n = tok ? atoi(tok) : 0;
	uint32_t* words = malloc(sizeof(uint32_t) * (size_t)(*n > 0 ? *n : 1));
	for (int i = 0; i < *n; ++i) {
		tok = strtok_r(NULL, " \n", save);
		words[i] = tok ? (uint32_t)strtoul(tok, NULL, 16) : 0;
	}
	return words;
}

/* The team the worlds step on (--threads), and the counts its steps take in turn. */
static pbdThreads* team;
static int counts[PBD_MAX_THREADS], countCount, nextCount;
static long stepsOn[PBD_MAX_THREADS + 1]; ///< steps taken on each count (printed at the end to stderr)

/* Steps world n times as pbdjs_StepN does, each step on the next of the counts when there is a team. */
static int StepN(pbdWorldId world, int n)
{
	if (team == NULL || countCount == 1) return pbdjs_StepN(world, n);
	for (int i = 0; i < n; ++i) {
		const int threads = counts[nextCount++ % countCount];
		if (pbd_World_SetThreads(world, pbd_Threads_Team(team), threads) != PBD_OK) {
			fprintf(stderr, "replay_calls: world %d refused %d threads\n", world, threads);
			exit(2);
		}
		const int err = pbd_World_Step(world);
		if (err != PBD_OK) return err;
		stepsOn[threads] += 1;
	}
	return PBD_OK;
}

static int Call(const char* name, const float* vertices, const uint32_t* indices)
{
#define IS(n) (strcmp(name, #n) == 0)
	if (IS(pbdjs_CreateWorld)) return pbdjs_CreateWorld((const int32_t*)indices, I(1)); /* the capacities: "U n hex..." */
	if (IS(pbd_DestroyWorld)) return pbd_DestroyWorld(I(0));
	if (IS(pbdjs_AddChain)) return pbdjs_AddChain(I(0), F(1), F(2), F(3), F(4), F(5), F(6), I(7), F(8));
	if (IS(pbdjs_AddCloth))
		return pbdjs_AddCloth(I(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), I(10), I(11), F(12));
	if (IS(pbdjs_AddCollider))
		return pbdjs_AddCollider(I(0), I(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13), F(14),
								 F(15), F(16));
	if (IS(pbdjs_AddBody))
		return pbdjs_AddBody(I(0), I(1), I(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13), F(14),
							 F(15), F(16), I(17), F(18), F(19), vertices, I(21), indices, I(23), NULL);
	if (IS(pbdjs_AddFluid)) return pbdjs_AddFluid(I(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), I(10));
	if (IS(pbdjs_AddEmitter)) return pbdjs_AddEmitter(I(0), I(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), I(10));
	if (IS(pbdjs_SetEmitter))
		return pbdjs_SetEmitter(I(0), I(1), I(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), I(11));
	if (IS(pbdjs_AddDrain)) return pbdjs_AddDrain(I(0), F(1), F(2), F(3), F(4), F(5), F(6));
	if (IS(pbdjs_AddInflatable))
		return pbdjs_AddInflatable(I(0), F(1), F(2), F(3), F(4), I(5), I(7) > 0 ? vertices : NULL, I(7), I(9) > 0 ? indices : NULL, I(9), F(10),
								   F(11), F(12));
	if (IS(pbdjs_SetInflatablePressure)) return pbdjs_SetInflatablePressure(I(0), I(1), F(2));
	if (IS(pbdjs_StepN)) return StepN(I(0), I(1));
	if (IS(pbd_World_Step)) return StepN(I(0), 1);
	if (IS(pbd_World_SetParam)) return pbd_World_SetParam(I(0), (pbdParam)I(1), F(2));
	if (IS(pbd_World_SetObjectStiffness)) return pbd_World_SetObjectStiffness(I(0), I(1), (pbdConstraintKind)I(2), F(3));
	if (IS(pbd_World_SetObjectRadius)) return pbd_World_SetObjectRadius(I(0), I(1), F(2));
	if (IS(pbd_World_SetObjectPlasticity)) return pbd_World_SetObjectPlasticity(I(0), I(1), F(2), F(3), F(4));
	if (IS(pbd_World_SetObjectFilter)) return pbd_World_SetObjectFilter(I(0), I(1), (uint32_t)I(2), (uint32_t)I(3));
	if (IS(pbd_World_SetInvMass)) return pbd_World_SetInvMass(I(0), I(1), F(2));
	if (IS(pbd_World_SetMass)) return pbd_World_SetMass(I(0), I(1), F(2));
	if (IS(pbd_World_SetPosition)) return pbd_World_SetPosition(I(0), I(1), F(2), F(3), F(4));
	if (IS(pbd_World_SetVelocity)) return pbd_World_SetVelocity(I(0), I(1), F(2), F(3), F(4));
	if (IS(pbd_World_AddAttachment)) return pbd_World_AddAttachment(I(0), I(1), F(2), F(3), F(4), F(5));
	if (IS(pbd_World_MoveAttachment)) return pbd_World_MoveAttachment(I(0), I(1), F(2), F(3), F(4));
	if (IS(pbd_World_RemoveAttachment)) return pbd_World_RemoveAttachment(I(0), I(1));
	if (IS(pbd_World_SetColliderTransform))
		return pbd_World_SetColliderTransform(I(0), I(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8));
	if (IS(pbd_World_SetColliderMaterial)) return pbd_World_SetColliderMaterial(I(0), I(1), F(2), F(3), F(4));
	if (IS(pbd_World_FindPairs)) return pbd_World_FindPairs(I(0));
	/* The fluid's queries change no state (RunFluidPart does: benchmarks only, never logged). */
	if (IS(pbd_World_UpdateDensities)) return pbd_World_UpdateDensities(I(0));
	if (IS(pbd_World_Hash)) {
		printf("hash %08x\n", (unsigned)pbd_World_Hash(I(0)));
		return 0;
	}
#undef IS
	fprintf(stderr, "replay_calls: unknown call %s\n", name);
	exit(2);
}

int main(int argc, char** argv)
{
	int threads = 1, arg = 1;
	counts[countCount++] = 1;
	if (argc > 2 && strcmp(argv[1], "--threads") == 0) {
		arg = 3;
		countCount = 0;
		for (const char* p = argv[2]; countCount < PBD_MAX_THREADS;) {
			char* end = NULL;
			const long n = strtol(p, &end, 10);
			if (end == p || n < 1 || n > PBD_MAX_THREADS || (*end != ',' && *end != '\0')) {
				fprintf(stderr, "replay_calls: --threads %s: counts in [1, %d], separated by commas\n", argv[2],
						PBD_MAX_THREADS);
				return 2;
			}
			counts[countCount++] = (int)n;
			if (n > threads) threads = (int)n;
			if (*end == '\0') break;
			p = end + 1;
		}
	}
	team = threads > 1 ? pbd_Threads_Start(threads) : NULL;
	if (threads > 1 && team == NULL) {
		fprintf(stderr, "replay_calls: cannot start %d threads\n", threads);
		return 2;
	}
	FILE* in = argc > arg ? fopen(argv[arg], "r") : stdin;
	if (in == NULL) {
		fprintf(stderr, "replay_calls: cannot open %s\n", argv[arg]);
		return 2;
	}
	char* line = NULL;
	size_t cap = 0;
	int lineNumber = 0;
	while (getline(&line, &cap, in) > 0) {
		lineNumber += 1;
		char* save = NULL;
		char* name = strtok_r(line, " \n", &save);
		if (name == NULL) continue;
		argc_ = 0;
		uint32_t *vertices = NULL, *indices = NULL;
		int nv = 0, ni = 0;
		for (char* tok; (tok = strtok_r(NULL, " \n", &save)) != NULL;) {
			if (strcmp(tok, "F") == 0) vertices = Words(&save, &nv);
			else if (strcmp(tok, "U") == 0) indices = Words(&save, &ni);
			else if (argc_ < MAX_ARGS) a[argc_++] = strtod(tok, NULL);
		}
		/* the float32 bits into floats (memcpy: no aliasing of a uint32 array as float) */
		float* floats = malloc(sizeof(float) * (size_t)(nv > 0 ? nv : 1));
		if (vertices != NULL) memcpy(floats, vertices, sizeof(float) * (size_t)nv);
		if (strcmp(name, "pbdjs_CreateWorld") != 0 && (argc_ < 1 || !pbd_World_IsValid(I(0)))) {
			fprintf(stderr,
					"replay_calls: line %d: %s names world %d, which is not live here (ids are what pbdjs_CreateWorld "
					"returned, in log order from 65537; the log must hold every create and destroy from the start)\n",
					lineNumber, name, argc_ > 0 ? I(0) : 0);
			exit(2);
		}
		const int result = Call(name, vertices != NULL ? floats : NULL, indices); /* refusals are part of the log too */
		if (team != NULL && strcmp(name, "pbdjs_CreateWorld") == 0 && pbd_World_IsValid(result) &&
			pbd_World_SetThreads(result, pbd_Threads_Team(team), counts[0]) != PBD_OK) {
			fprintf(stderr, "replay_calls: line %d: world %d refused %d threads\n", lineNumber, result, counts[0]);
			exit(2);
		}
		free(floats);
		free(vertices);
		free(indices);
	}
	free(line);
	if (countCount > 1) { /* so a caller can check every count stepped */
		fprintf(stderr, "steps on");
		for (int k = 0; k < countCount; ++k) {
			fprintf(stderr, " %d threads: %ld%s", counts[k], stepsOn[counts[k]], k + 1 < countCount ? "," : "\n");
		}
	}
	pbd_Threads_Stop(team); /* every world is idle: the log's calls have all returned */
	return 0;
}
