/* bench_native_world.h -- bench_native's solid worlds, built from a plan file (bench_native_world.c). */
#ifndef BENCH_NATIVE_WORLD_H
#define BENCH_NATIVE_WORLD_H

#include "minipbd.h"

/// The world the plan file at `path` describes; exits with a message (status 2: a bad file, 1: the engine
/// refused an operation) otherwise.
pbdWorldId BenchWorld_Load(const char* path);
/// Prints the record fields "bodies":N,"tets":N, of world w (its objects and their tets).
void BenchWorld_PrintCounts(pbdWorldId w);

#endif
