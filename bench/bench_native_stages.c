/* bench_native_stages.c -- bench_native's threads: one team started once for the whole
   process (--threads N: pbd_Threads_Start), and the step timed stage by stage (mode=stages).

   Stage by stage: the step advanced one unit a call (pbd_World_StepSlice(w, 1)), the unit's stage read before
   the call (pbd_World_StepStage), the host clock around each call and the time added to that stage. Slicing
   changes no bit (src/world/step.c), so the hash after a stage-timed run is the hash after as many whole steps;
   the clock calls add a little to every unit (tens of ns against units of tens of us on the big cases). */
#include "bench_native_stages.h"
#include "host/threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pbdThreads* s_threads;
static int s_threadCount = 1;

static double StageNowMs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void BenchThreads_Start(int threads)
{
	s_threads = pbd_Threads_Start(threads);
	if (s_threads == NULL) {
		fprintf(stderr, "bench_native: could not start a team of %d threads\n", threads);
		exit(1);
	}
	s_threadCount = threads;
}

int BenchThreads_Count(void) { return s_threads ? s_threadCount : 0; }

void BenchThreads_Attach(pbdWorldId w)
{
	if (s_threads == NULL) return;
	if (pbd_World_SetThreads(w, pbd_Threads_Team(s_threads), s_threadCount) < 0) {
		fprintf(stderr, "bench_native: pbd_World_SetThreads(%d) failed: %s\n", s_threadCount, pbd_World_GetLastErrorMessage(w));
		exit(1);
	}
}

void BenchThreads_Stop(void)
{
	if (s_threads) pbd_Threads_Stop(s_threads);
	s_threads = NULL;
}

double BenchStages_Step(pbdWorldId w, int steps, double* stageMs, int* stageUnits)
{
	double total = 0.0;
	for (int i = 0; i < steps; ++i) {
		int32_t left;
		do {
			const int32_t stage = pbd_World_StepStage(w);
			if (stage < 0 || stage >= BENCH_STAGES) {
				fprintf(stderr, "bench_native: pbd_World_StepStage returned %d\n", (int)stage);
				exit(1);
			}
			const double t0 = StageNowMs();
			left = pbd_World_StepSlice(w, 1);
			const double ms = StageNowMs() - t0;
			if (left < 0) {
				fprintf(stderr, "bench_native: pbd_World_StepSlice failed: %s\n", pbd_World_GetLastErrorMessage(w));
				exit(1);
			}
			stageMs[stage] += ms;
			stageUnits[stage] += 1;
			total += ms;
		} while (left > 0);
	}
	return total;
}

void BenchStages_Print(const double* stageMs, const int* stageUnits, int steps)
{
	printf("\"stage_ms\":{");
	for (int s = 0; s < BENCH_STAGES; ++s) printf("%s\"%s\":%.17g", s ? "," : "", pbd_StageName(s), stageMs[s] / steps);
	printf("},\"stage_units\":{");
	for (int s = 0; s < BENCH_STAGES; ++s) printf("%s\"%s\":%.17g", s ? "," : "", pbd_StageName(s), (double)stageUnits[s] / steps);
	printf("},");
}
