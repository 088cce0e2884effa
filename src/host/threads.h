/* host/threads.h -- a team of POSIX threads for native hosts (tests, benchmarks, the native
   replayer): the native counterpart of web/js/engine/thread-worker.js. Not in the wasm builds. */
#ifndef PBD_HOST_THREADS_H
#define PBD_HOST_THREADS_H

#include "minipbd.h"

typedef struct pbdThreads pbdThreads;

/// A team of maxThreads participants with maxThreads - 1 pthreads parked in pbd_Team_Work;
/// NULL when maxThreads is out of [1, PBD_MAX_THREADS] or a thread cannot be started.
pbdThreads* pbd_Threads_Start(int32_t maxThreads);
pbdTeam* pbd_Threads_Team(pbdThreads* threads);
/// Stops the team (no world may be stepping on it), joins the threads, frees everything.
void pbd_Threads_Stop(pbdThreads* threads);

#endif
