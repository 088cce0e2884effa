/* families/tethers_state.h -- the tethers family's state, shared by its own files only: tethers.c (the family: the
   solve, the hooks) and tethers_build.c (finding each particle's pins, at the step after the pins changed: compiled
   for size in the wasm, Makefile WASM_COLD). Everything else goes through families/tethers.h, and the pointer's
   reach reads the state as services/reach.h's record (world->reach). */
#ifndef PBD_TETHERS_STATE_H
#define PBD_TETHERS_STATE_H

#include "families/tethers.h"
#include "services/reach.h"

/* The state is the reach's record (services/reach.h: each particle's anchor and rest to its nearest pin, the extra
   slots to its next nearest islands' pins, the pinVersion they were found for, k' of this step): the solve and the
   pointer's reach read the same fields, so the reach never sees other anchors, slots or k' than the solve. */
typedef pbdReachSource pbdTethers;

/* Finds every particle's tethers into t (reference = 1: every particle against every pin, the grid's check). */
void pbd_Tethers_Build(pbdWorld* w, pbdTethers* t, int reference);

#endif
