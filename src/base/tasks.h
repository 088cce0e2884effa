/* base/tasks.h -- the team of threads a step runs on, and the one primitive the step uses:
   a parallel loop over fixed-size blocks (Box2D v3's solver stages, as fork-join).

   Participant 0 of a step is the thread that called pbd_World_Step; participants 1..n-1 are
   host threads parked in pbd_Team_Work (pthreads natively, Web Workers or worker_threads in
   wasm). The step stays serial code; where it has independent work it calls
   pbd_Parallel_For, which publishes the loop, claims blocks alongside the helpers and
   returns when every block is done: the join is the barrier between two stages.

   Same bits for any thread count: the blocks of one loop write disjoint data (a colour's
   constraints share no particle; a particle block owns its particles), the block size never
   depends on the number of threads, and nothing is summed across blocks inside a loop. So
   which participant ran a block, and when, cannot change a result. */
#ifndef PBD_TASKS_H
#define PBD_TASKS_H

#include "minipbd.h"

#include <stdint.h>

/// 0 in the single-thread wasm (no atomics): no team ever steps there, so code that only a team's step runs is
/// left out of it (the element's weight, tests/browser/weight.test.mjs); 1 everywhere else.
#if defined(__wasm__) && !defined(__wasm_atomics__)
#define PBD_HAS_TEAM 0
#else
#define PBD_HAS_TEAM 1
#endif

struct pbdWorld;

/// Items per block of the particle loops (predict, velocities, commit): large enough that a
/// block costs far more than claiming it, small enough to balance 100k particles over 16 threads.
#define PBD_PARTICLE_BLOCK 1024
/// Constraints per block of a colour whose family names no block size.
#define PBD_DEFAULT_BLOCK 512
/// Constraints (or particles) per unit of a step taken in slices (world/step.c), unless the
/// family names its own: a unit of the heaviest scenes stays within a few ms in wasm.
#define PBD_SLICE_ITEMS 4096
/// Work per unit of a stage that a step taken in slices cuts by its work rather than its constraints (the
/// contacts stage's neighbour searches, the step's start: the fluid's emit, drain and sort): pair tests of a
/// search, entries of the fluid's lists, rows moved. A unit stops at the first item boundary (a particle's
/// slot, a disc row) at or past it, so it does at most this plus one item's work.
#define PBD_SLICE_WORK (1 << 18)

/// The body of a parallel loop: items [begin, end) of the loop's range.
typedef void pbdBlockFn(void* data, int32_t begin, int32_t end);

/// Runs fn over [0, count) in blocks of `block` items (the last may be shorter). With the
/// world's team (while it steps with more than one thread) the blocks are shared out;
/// otherwise they run here, in order. Returns when all are done.
void pbd_Parallel_For(struct pbdWorld* world, int32_t count, int32_t block, pbdBlockFn* fn, void* data);

/// The team's size (participant 0 included).
int32_t pbd_Team_MaxThreads(const pbdTeam* team);

/// Takes the world's team for the step (or slice) about to run: 1 if it now steps with
/// world->threads participants, 0 if alone (no team, one thread, or the team busy with
/// another world: the same bits either way).
int pbd_Team_Begin(struct pbdWorld* world);
/// Gives the team back (after pbd_Team_Begin returned 1); the helpers go back to sleep.
void pbd_Team_End(struct pbdWorld* world);

#endif
