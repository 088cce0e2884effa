/* The threads stress test (issue 12 item 6): one team shared by two worlds stepped alternately,
   whole or in slices interleaved between them (so the team changes hands inside a step), each
   with a thread count changed between steps; cloths, chains and a fluid block added, and
   attachments added, moved and removed between steps; a world destroyed while the helpers are
   parked and a new one made and stepped; the team stopped and a new one started. Every hash of
   the sequence must equal a replay of the same sequence alone. */
#include "test_threads.h"
#include "test.h"

#include <stdlib.h>

#ifndef __EMSCRIPTEN__
#include "host/threads.h"
#endif

enum { STRESS_STEPS = 60 };

static pbdWorldId StressWorld(int ground)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 3000;
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

static int AddStressCloth(pbdWorldId w, float y, int n)
{
	pbdClothDef c = pbd_DefaultClothDef();
	c.origin[0] = -0.5f, c.origin[1] = y, c.origin[2] = -0.5f;
	c.axisU[0] = 1.0f, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
	c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = 1.0f;
	c.resolutionU = c.resolutionV = n;
	return pbd_World_AddCloth(w, &c);
}

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

/* Steps world w once: whole, or when `slice` > 0 in slices of it alternating with the other
   world's slices (the other's step in progress goes on; its own step is finished here). */
static int StressStep(pbdWorldId w, pbdWorldId other, int slice)
{
	if (slice == 0) return pbd_World_Step(w) == PBD_OK;
	int32_t left;
	do {
		left = pbd_World_StepSlice(w, slice);
		if (other > 0 && left > 0) pbd_World_StepSlice(other, 1);
	} while (left > 0);
	return left == 0;
}

/* Threads for world `which` at step s: every count in [1, max] by turns, different per world. */
static int StressThreads(int which, int s, int max) { return 1 + (s * (which ? 5 : 3) + which) % max; }

/* The sequence; threaded 0: alone, hashes[2 s] and hashes[2 s + 1] after step s of the two worlds
   (world a is replaced at step 30). 1 when every call succeeded. */
static int RunStress(int threaded, uint32_t* hashes)
{
	pbdThreads* team = NULL;
	int maxThreads = 8;
#ifndef __EMSCRIPTEN__
	if (threaded && (team = pbd_Threads_Start(maxThreads)) == NULL) return 0;
#else
	if (threaded) return 0;
#endif
	pbdWorldId a = StressWorld(1), b = StressWorld(1);
	int ok = a > 0 && b > 0 && AddStressCloth(a, 1.0f, 16) >= 0 && AddStressChain(b, -0.3f) >= 0;
	pbdAttachmentId grabA = 0, grabB = 0;
	for (int s = 0; ok && s < STRESS_STEPS; ++s) {
		if (s == 30) {
			/* a's helpers are parked (a finished its step): destroy it, make and step another */
			pbd_DestroyWorld(a);
			a = StressWorld(0);
			ok = a > 0 && AddStressCloth(a, 0.8f, 12) >= 0 && AddStressChain(a, 0.2f) >= 0;
		}
#ifndef __EMSCRIPTEN__
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
#endif
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
		/* whole steps, then slices of 1, 3 and 5 units interleaved with the other world's */
		const int slice = (s % 4) == 0 ? 0 : 2 * (s % 4) - 1;
		ok = ok && StressStep(a, b, slice) && StressStep(b, a, (s % 3) == 0 ? 0 : 2);
		hashes[2 * s] = pbd_World_Hash(a);
		hashes[2 * s + 1] = pbd_World_Hash(b);
	}
	ok = ok && TestAllFinite(a) && TestAllFinite(b);
	pbd_DestroyWorld(a);
	pbd_DestroyWorld(b);
#ifndef __EMSCRIPTEN__
	pbd_Threads_Stop(team);
#endif
	return ok;
}

void Test_ThreadsStressSharedTeam(void)
{
#ifndef __EMSCRIPTEN__
	uint32_t alone[2 * STRESS_STEPS], threaded[2 * STRESS_STEPS];
	ENSURE(RunStress(0, alone));
	ENSURE(RunStress(1, threaded));
	for (int i = 0; i < 2 * STRESS_STEPS; ++i) {
		if (alone[i] != threaded[i]) printf("  step %d, world %c: 0x%08x alone, 0x%08x threaded\n", i / 2, 'a' + i % 2, alone[i], threaded[i]);
		ENSURE(alone[i] == threaded[i]);
	}
	/* the sequence moved: a replay that hashed the same world every step would prove nothing */
	ENSURE(alone[0] != alone[2 * STRESS_STEPS - 2] && alone[1] != alone[2 * STRESS_STEPS - 1]);
#endif
}
