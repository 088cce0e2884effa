/* Same bits for any thread count and any slicing (the threaded build's design contract:
   blocks never depend on the thread count, reductions summed in block order). Every scene of
   test_threads_scenes.c and test_threads_contacts.c (the pinned ones are test_scenes.h's) is hashed
   after its steps alone (the reference, and where a test pins a hash, that hash), on a team of 8
   with 1, 2, 3, 4 and 8 threads, and in slices of 1, 2 and 7 units. A loop whose blocks raced or
   whose sums followed the split would move a bit of some scene. The pthread parts are not in the
   wasm test build (it has no host/threads.c); the slices run there too. */
#include "test_threads.h"
#include "test.h"
#include "base/tasks.h"

#include <stdlib.h>

#ifndef __EMSCRIPTEN__
#include "host/threads.h"
#define TEST_THREADS 1
#else
#define TEST_THREADS 0
#endif

/* The sanitizer builds (build/test_tsan, build/test_san: 5 to 15 times slower) look for races
   and memory errors, not for a bit that moved: 8 steps of each scene, 2 and 4 threads,
   threaded slices only. The other builds run every scene's steps and check the pinned hashes. */
#if TEST_THREADS && TEST_LIGHT
static const int s_counts[] = { 2, 4 };
#elif TEST_THREADS
static const int s_counts[] = { 1, 2, 3, 4, 8 };
#endif
#define COUNTS ((int)(sizeof s_counts / sizeof s_counts[0]))

static int Steps(const ThreadScene* sc) { return TEST_LIGHT && sc->steps > 8 ? 8 : sc->steps; }
/* The hash a test pins for the scene, 0 when none applies (none, or fewer steps). */
static uint32_t Pinned(const ThreadScene* sc) { return Steps(sc) == sc->steps ? sc->pinned : 0; }

/* ---------------------------------------------------------------- running a scene */

/* Steps the world once, whole (slice 0) or `slice` units at a time; 0 on an error. */
static int StepBy(pbdWorldId w, int slice)
{
	if (slice == 0) return pbd_World_Step(w) == PBD_OK;
	int32_t left;
	do left = pbd_World_StepSlice(w, slice);
	while (left > 0);
	return left == 0;
}

static int s_onTeam; /* scenes run whose particle loops are several blocks (base/tasks.h) */
/* The references of ThreadsSameBitsAnyCount, for the slices (0: not run yet). */
static uint32_t s_reference[64];

/* The scene's hash after its steps on `team` with `threads` (team NULL: alone), `slice` units at a
   time; 0 when a call failed or a value is not finite. */
static uint32_t RunScene(const ThreadScene* sc, pbdTeam* team, int threads, int slice)
{
	pbdWorldId w = sc->build();
	if (w <= 0) return 0;
	int ok = 1;
	if (team != NULL) ok = pbd_World_SetThreads(w, team, threads) == PBD_OK && pbd_World_GetThreads(w) == threads;
	if (team == NULL && slice == 0) s_onTeam += pbd_World_GetParticleCount(w) >= 2 * PBD_PARTICLE_BLOCK;
	for (int s = 0; ok && s < Steps(sc); ++s) {
		if (sc->drive != NULL) sc->drive(w, s);
		ok = StepBy(w, slice);
	}
	const uint32_t hash = ok && TestAllFinite(w) ? pbd_World_Hash(w) : 0;
	pbd_DestroyWorld(w);
	return hash;
}

static uint32_t Reference(const ThreadScene* sc)
{
	const uint32_t hash = RunScene(sc, NULL, 1, 0);
	printf("  %-20s 0x%08x%s\n", sc->name, hash, Pinned(sc) ? " (pinned)" : "");
	return hash;
}

/* 1 when every thread count gives `reference`. */
static int SameForThreads(const ThreadScene* sc, uint32_t reference)
{
#if TEST_THREADS
	pbdThreads* threads = pbd_Threads_Start(8);
	if (threads == NULL) return 0;
	int same = 1;
	for (int k = 0; k < COUNTS; ++k) {
		const uint32_t hash = RunScene(sc, pbd_Threads_Team(threads), s_counts[k], 0);
		if (hash != reference) printf("  %s, %d threads: 0x%08x\n", sc->name, s_counts[k], hash), same = 0;
	}
	pbd_Threads_Stop(threads);
	return same;
#else
	(void)sc, (void)reference;
	return 1;
#endif
}

/* 1 when slices of 1, 2 and 7 units give `reference` alone, and (natively) slices of 1 and 7 on
   3 threads: each slice takes the team and gives it back. */
static int SameForSlices(const ThreadScene* sc, uint32_t reference)
{
	static const int slices[] = { 1, 2, 7 };
	int same = 1;
	for (int k = 0; k < 3 && !TEST_LIGHT; ++k) {
		const uint32_t hash = RunScene(sc, NULL, 1, slices[k]);
		if (hash != reference) printf("  %s, slices of %d: 0x%08x\n", sc->name, slices[k], hash), same = 0;
	}
#if TEST_THREADS
	pbdThreads* threads = pbd_Threads_Start(3);
	if (threads == NULL) return 0;
	for (int k = 0; k < 3; k += 2) {
		const uint32_t hash = RunScene(sc, pbd_Threads_Team(threads), 3, slices[k]);
		if (hash != reference) printf("  %s, slices of %d on 3 threads: 0x%08x\n", sc->name, slices[k], hash), same = 0;
	}
	pbd_Threads_Stop(threads);
#endif
	return same;
}

void Test_ThreadsSameBitsAnyCount(void)
{
	int same = 1;
	s_onTeam = 0;
	for (int i = 0; i < g_threadSceneCount; ++i) {
		const ThreadScene* sc = g_threadScenes[i];
		const uint32_t reference = Reference(sc);
		ENSURE(reference != 0 && (Pinned(sc) == 0 || TestPinnedHash(reference, Pinned(sc))));
		s_reference[i] = reference;
		same &= SameForThreads(sc, reference);
	}
	ENSURE(same);
	ENSURE(s_onTeam >= 4); /* the large cloth, soft body, fluid and the hose: else little was shared out */
}

void Test_ThreadsSlicesSameBits(void)
{
	int same = 1;
	for (int i = 0; i < g_threadSceneCount; ++i) {
		const ThreadScene* sc = g_threadScenes[i];
		const uint32_t reference = s_reference[i] != 0 ? s_reference[i] : RunScene(sc, NULL, 1, 0);
		ENSURE(reference != 0 && (Pinned(sc) == 0 || TestPinnedHash(reference, Pinned(sc))));
		same &= SameForSlices(sc, reference);
	}
	ENSURE(same);
}

void Test_ThreadsContactsSameBits(void)
{
	int same = 1;
	for (int i = 0; i < g_threadContactSceneCount; ++i) {
		const ThreadScene* sc = g_threadContactScenes[i];
		const uint32_t reference = Reference(sc);
		ENSURE(reference != 0 && (Pinned(sc) == 0 || TestPinnedHash(reference, Pinned(sc))));
		same &= SameForThreads(sc, reference);
		same &= SameForSlices(sc, reference);
	}
	ENSURE(same);
}
