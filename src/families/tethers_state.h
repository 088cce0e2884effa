/* families/tethers_state.h -- the tethers family's state, shared by its own files only: tethers.c (the family: the
   solve, the reach, the hooks) and tethers_build.c (finding each particle's pins, at the step after the pins changed:
   compiled for size in the wasm, Makefile WASM_COLD). Everything else goes through families/tethers.h. */
#ifndef PBD_TETHERS_STATE_H
#define PBD_TETHERS_STATE_H

#include "families/tethers.h"

/* Each particle to its nearest pin, rest distance in the rest pose; anchor -1 = none; and to
   the nearest pins of its next nearest islands, nearest first: slot e of particle i is
   extraAnchor/extraRest[e * capacity + i], -1 = none; extraSlots slots are used by some
   particle. Rebuilt at the step after the set of pins changed (the world's pinVersion moved). */
typedef struct pbdTethers {
	int32_t* anchor;
	float* rest;
	int32_t* extraAnchor;
	float* extraRest;
	int32_t capacity;   ///< maxParticles: the stride of the extra slots
	int32_t extraSlots;
	int32_t pinVersion; ///< world->pinVersion the anchors were found for
	float k;            ///< k' of this step
} pbdTethers;

/* Finds every particle's tethers into t (reference = 1: every particle against every pin, the grid's check). */
void pbd_Tethers_Build(pbdWorld* w, pbdTethers* t, int reference);

#endif
