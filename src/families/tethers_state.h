/* families/tethers_state.h -- the tethers family's state, shared by its own files only: tethers.c (the family: the
   solve, the hooks), tethers_build.c (finding each particle's pins, at the step after the pins changed) and
   tethers_grids.c (its searches; both compiled for size in the wasm, Makefile WASM_COLD). Everything else goes through families/tethers.h, and the pointer's
   reach reads the state as services/reach.h's record (world->reach). */
#ifndef PBD_TETHERS_STATE_H
#define PBD_TETHERS_STATE_H

#include "families/tethers.h"
#include "base/pool.h"
#include "services/reach.h"

/* The state is the reach's record (services/reach.h: each particle's anchor and rest to its nearest pin, the extra
   slots to its next nearest islands' pins, the pinVersion they were found for, k' of this step): the solve and the
   pointer's reach read the same fields, so the reach never sees other anchors, slots or k' than the solve. */
typedef pbdReachSource pbdTethers;

/* Finds every particle's tethers into t by `method` (pbdTetherSearch). */
void pbd_Tethers_Build(pbdWorld* w, pbdTethers* t, int method);

/* The squared rest distance every search compares, one expression so that every search meets the same ties. */
static inline float pbd_Tethers_Distance2(const float* r, const float* q)
{
	float dx = r[0] - q[0], dy = r[1] - q[1], dz = r[2] - q[2];
	return dx * dx + dy * dy + dz * dz;
}

/* Particles [first, end) of one object tethered as the reference does (tethers_build.c), through grids
   (tethers_grids.c): `pins` its pins ascending, island[k] pin k's island (0 .. islandCount - 1), islandBest and
   islandPin room per island; the grids in `scratch`. Each returns 0, having written no tether, when its grids do
   not fit. By a grid per island, the islands met through a grid of their boxes: */
int pbd_Tethers_FindByIslands(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
							  const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin, pbdPool* scratch);
/* By one grid over every pin: */
int pbd_Tethers_FindWithOneGrid(const pbdWorld* w, pbdTethers* t, int first, int end, const int32_t* pins, int pinCount,
								const int32_t* island, int islandCount, float* islandBest, int32_t* islandPin, pbdPool* scratch);

#endif
