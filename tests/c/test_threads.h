/* test_threads.h -- the same bits for any thread count and any slicing:
   every family's scene hashed after its steps with 1, 2, 3, 4 and 8 threads (host/threads.h, not
   in the wasm test build) and taken in slices of 1, 2 and 7 units; a stress test of a team shared
   by two worlds while objects and attachments come and go. The scenes are the pinned scenes of
   test_scenes.h and the threads tests' own (test_threads_scenes.c, test_threads_contacts.c). */
#ifndef PBD_TEST_THREADS_H
#define PBD_TEST_THREADS_H

#include "minipbd.h"
#include "test_scenes.h"

#include <stdint.h>

/* 1 in the sanitizer builds (test_threads.c says what they leave out) */
#if defined(PBD_TEST_TSAN) || defined(__SANITIZE_ADDRESS__)
#define TEST_LIGHT 1
#else
#define TEST_LIGHT 0
#endif

/* A scene of test_scenes.h: its builder, drive, steps and pinned hash (0: none, the single-thread
   run is the reference). */
typedef TestScene ThreadScene;

extern const ThreadScene* const g_threadScenes[];
extern const int g_threadSceneCount;
extern const ThreadScene* const g_threadContactScenes[];
extern const int g_threadContactSceneCount;

#define TEST_LIST_THREADS(X) \
	X(ThreadsSameBitsAnyCount) \
	X(ThreadsSlicesSameBits) \
	X(ThreadsContactsSameBits) \
	X(ThreadsStressSharedTeam)

#endif
