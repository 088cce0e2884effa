/* bench_native_stages.h -- bench_native's team of threads and its stage-by-stage timing (bench_native_stages.c). */
#ifndef BENCH_NATIVE_STAGES_H
#define BENCH_NATIVE_STAGES_H

#include "minipbd.h"

/// The stages pbd_World_StepStage names: predict .. commit, then the step's start and end (src/world/core.h pbdStage).
#define BENCH_STAGES 8

/// Starts the process's one team of `threads` participants (exits on failure).
void BenchThreads_Start(int threads);
/// The team's thread count, 0 when no team was started (no --threads).
int BenchThreads_Count(void);
/// World w steps on the team with all its threads (nothing without a team).
void BenchThreads_Attach(pbdWorldId w);
void BenchThreads_Stop(void);

/// Steps w `steps` whole steps one unit a call, adding each unit's host time (ms) to stageMs[its stage] and 1
/// to stageUnits[its stage]; returns the total ms.
double BenchStages_Step(pbdWorldId w, int steps, double* stageMs, int* stageUnits);
/// Prints "stage_ms":{name: ms per step, ...},"stage_units":{name: units per step, ...}, over `steps` steps.
void BenchStages_Print(const double* stageMs, const int* stageUnits, int steps);

#endif
