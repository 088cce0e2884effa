/* bench_native_world.h -- bench_native's solid and fluid worlds, built from a plan file (bench_native_world.c). */
#ifndef BENCH_NATIVE_WORLD_H
#define BENCH_NATIVE_WORLD_H

#include "minipbd.h"

/// The world the plan file at `path` describes; exits with a message (status 2: a bad file, 1: the engine
/// refused an operation) otherwise.
pbdWorldId BenchWorld_Load(const char* path);
/// Prints the record fields "bodies":N,"tets":N, of world w (its objects and their tets).
void BenchWorld_PrintCounts(pbdWorldId w);

/// Live fluid particles of world w (its fluid objects' activeParticles), -1 when it has no fluid object.
int BenchWorld_FluidParticles(pbdWorldId w);
/// Prints the record fields "density_error<suffix>", "max_density<suffix>", mean density and neighbours and
/// the dropped neighbours of stats s (pbd_World_GetFluidStats); ok = 0: nulls and "stats_error", the
/// engine's last message on w.
void BenchWorld_PrintFluidStats(pbdWorldId w, const pbdFluidStats* s, int ok, const char* suffix);

#endif
