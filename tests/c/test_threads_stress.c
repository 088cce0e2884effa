/* The threads stress test: one team shared by two worlds stepped alternately,
   whole or in slices interleaved between them (so the team changes hands inside a step), each
   with a thread count changed between steps; cloths, chains and a fluid block added, and
   attachments added, moved and removed between steps; a world destroyed while the helpers are
   parked and a new one made and stepped; the team stopped and a new one started. Every hash of
   the sequence must equal a replay of the same sequence alone. */
#include "test_threads.h"
#include "test.h"
#include "base/tasks.h"

#include <stdlib.h>

#ifndef __EMSCRIPTEN__
#include "host/threads.h"
#else
/* the wasm test build has no host/threads.c: the sequence runs alone there, whole and sliced */
typedef struct pbdThreads pbdThreads;
static pbdThreads* pbd_Threads_Start(int32_t maxThreads) { return (void)maxThreads, NULL; }
static pbdTeam* pbd_Threads_Team(pbdThreads* threads) { return (void)threads, NULL; }
static void pbd_Threads_Stop(pbdThreads* threads) { (void)threads; }
#endif

enum { STRESS_STEPS = 60 };

static pbdWorldId StressWorld(int ground)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 12000;
	def.maxConstraints = 100000;
	def.maxFluidParticles = 800;
	def.maxObjects = 16;
	def.maxAttachments = 8;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, ground ? 1.0f : 0.0f);
	pbd_World_SetParam(w, pbdParam_substeps, 2.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 4.0f);
	return w;
}

static int AddStressCloth(pbdWorldId w, float y, int n) { return TestAddFlatCloth(w, y, n, 0.0f); }

static int AddStressChain(pbdWorldId w, float x)
{
	pbdChainDef c = pbd_DefaultChainDef();
	c.start[0] = x, c.start[1] = 1.2f;
	c.end[0] = x + 0.6f, c.end[1] = 1.4f;
	c.segments = 30;
	return pbd_World_AddChain(w, &c);
}

static int AddStressFluid(pbdWorldId w)
{
	pbdFluidDef f = pbd_DefaultFluidDef();
	f.lower[0] = -0.1f, f.lower[1] = 0.3f, f.lower[2] = -0.1f;
	f.upper[0] = 0.06f, f.upper[1] = 0.42f, f.upper[2] = 0.06f;
	return pbd_World_AddFluid(w, &f);
}

/* One step of each world: whole steps one after the other, or both in progress at once, a slice of
   a (sliceA units), a slice of b (sliceB), and so on until both are done; so with threads the
   team changes hands inside the worlds' steps. */
static int StressSteps(pbdWorldId a, pbdWorldId b, int sliceA, int sliceB)
{
	if (sliceA == 0) return pbd_World_Step(a) == PBD_OK && pbd_World_Step(b) == PBD_OK;
	int32_t leftA = 1, leftB = 1;
	while (leftA > 0 || leftB > 0) {
		if (leftA > 0) leftA = pbd_World_StepSlice(a, sliceA);
		if (leftB > 0) leftB = pbd_World_StepSlice(b, sliceB);
	}
	return leftA == 0 && leftB == 0;
}

/* Threads for world `which` at step s: every count in [1, max] by turns, different per world. */
static int StressThreads(int which, int s, int max) { return 1 + (s * (which ? 5 : 3) + which) % max; }

/* The sequence; threaded 0: alone; sliced 0: whole steps. hashes[2 s] and hashes[2 s + 1] after
   step s of the two worlds (world a is replaced at step 30). 1 when every call succeeded. */
static int RunStress(int threaded, int sliced, uint32_t* hashes)
{
	pbdThreads* team = NULL;
	int maxThreads = 8;
	if (threaded && (team = pbd_Threads_Start(maxThreads)) == NULL) return 0;
	pbdWorldId a = StressWorld(1), b = StressWorld(1);
	/* 64 x 64 cloths: their loops are several blocks (base/tasks.h), so the helpers take part */
	int ok = a > 0 && b > 0 && AddStressCloth(a, 1.0f, 64) >= 0 && AddStressCloth(b, 1.5f, 64) >= 0 && AddStressChain(b, -0.3f) >= 0;
	pbdAttachmentId grabA = 0, grabB = 0;
	for (int s = 0; ok && s < STRESS_STEPS; ++s) {
		if (s == 30) {
			/* a's helpers are parked (a finished its step): destroy it, make and step another */
			pbd_DestroyWorld(a);
			a = StressWorld(0);
			ok = a > 0 && AddStressCloth(a, 0.8f, 70) >= 0 && AddStressChain(a, 0.2f) >= 0;
		}
		if (threaded && s == 45) {
			/* a new team: the worlds must be given it before they step again */
			pbd_Threads_Stop(team);
			maxThreads = 4;
			if ((team = pbd_Threads_Start(maxThreads)) == NULL) return 0;
		}
		if (threaded) {
			ok = ok && pbd_World_SetThreads(a, pbd_Threads_Team(team), StressThreads(0, s, maxThreads)) == PBD_OK;
			ok = ok && pbd_World_SetThreads(b, pbd_Threads_Team(team), StressThreads(1, s, maxThreads)) == PBD_OK;
		}
		if (s == 8) ok = ok && AddStressFluid(b) >= 0;
		if (s == 12) ok = ok && AddStressCloth(b, 0.6f, 10) >= 0;
		if (s == 14) ok = ok && AddStressChain(a, 0.1f) >= 0;
		if (s == 20) ok = ok && AddStressFluid(a) >= 0;
		if (s == 5 || s == 35) ok = ok && (grabA = pbd_World_AddAttachment(a, 3, 0.0f, 1.2f, 0.0f, 0.8f)) > 0;
		if (grabA > 0 && (s < 25 || s > 35)) ok = ok && pbd_World_MoveAttachment(a, grabA, 0.01f * (float)s, 1.2f, -0.01f * (float)s) == PBD_OK;
		if (s == 25 || s == 50) ok = ok && pbd_World_RemoveAttachment(a, grabA) == PBD_OK, grabA = 0;
		if (s == 16) ok = ok && (grabB = pbd_World_AddAttachment(b, 29, 0.4f, 1.5f, 0.0f, 1.0f)) > 0;
		if (grabB > 0) ok = ok && pbd_World_MoveAttachment(b, grabB, 0.4f - 0.02f * (float)(s - 16), 1.5f, 0.0f) == PBD_OK;
		if (s == 40) ok = ok && pbd_World_RemoveAttachment(b, grabB) == PBD_OK, grabB = 0;
		/* whole steps, or slices of 1, 3, 5 and 7 units of a interleaved with slices of 1 and 2 of b */
		ok = ok && StressSteps(a, b, sliced ? 1 + 2 * (s % 4) : 0, 1 + s % 2);
		ok = ok && pbd_World_GetParticleCount(a) >= 2 * PBD_PARTICLE_BLOCK && pbd_World_GetParticleCount(b) >= 2 * PBD_PARTICLE_BLOCK;
		hashes[2 * s] = pbd_World_Hash(a);
		hashes[2 * s + 1] = pbd_World_Hash(b);
	}
	ok = ok && TestAllFinite(a) && TestAllFinite(b);
	pbd_DestroyWorld(a);
	pbd_DestroyWorld(b);
	pbd_Threads_Stop(team);
	return ok;
}

static int SameSequence(const uint32_t* a, const uint32_t* b, const char* what)
{
	for (int i = 0; i < 2 * STRESS_STEPS; ++i) {
		if (a[i] != b[i]) {
			printf("  step %d, world %c: 0x%08x alone, 0x%08x %s\n", i / 2, 'a' + i % 2, a[i], b[i], what);
			return 0;
		}
	}
	return 1;
}

/* The reference is the sequence alone in whole steps; the same alone with the worlds' slices
   interleaved (every build), and threaded and interleaved (not in wasm), must match it. */
void Test_ThreadsStressSharedTeam(void)
{
	static uint32_t alone[2 * STRESS_STEPS], other[2 * STRESS_STEPS];
	ENSURE(RunStress(0, 0, alone));
	/* the sequence moved: a replay that hashed the same world every step would prove nothing */
	ENSURE(alone[0] != alone[2 * STRESS_STEPS - 2] && alone[1] != alone[2 * STRESS_STEPS - 1]);
	/* (not in the sanitizer builds: one thread, no race to find, and a third of their time) */
	ENSURE(TEST_LIGHT || (RunStress(0, 1, other) && SameSequence(alone, other, "in interleaved slices")));
#ifndef __EMSCRIPTEN__
	ENSURE(RunStress(1, 1, other) && SameSequence(alone, other, "threaded, in interleaved slices"));
#endif
}
