/* services/reach.h -- how far a particle may be pulled: the reach of its tethers (Kim, Chentanez and Mueller 2012,
   "Long Range Attachments"), for the families that move a particle toward a target from outside the cloth's own
   constraints (the pointer's attachments, attachments.c). The tethers family (tethers.c) provides it at its create
   (world->reach): its state is this record, the anchors and rests its solve uses, so the reach reads the very
   values the solve does and never a copy. The attachments read it here and never call the tethers. A world without
   the tethers family has no reach (world->reach NULL): pbd_Reach_Clamp then moves nothing. */
#ifndef PBD_REACH_H
#define PBD_REACH_H

#include "world/core.h"

#define PBD_TETHER_EXTRA 3 /* tethers per particle beyond its nearest pin's: up to 4 islands */

/* Each particle to its nearest pin, rest distance in the rest pose; anchor -1 = none; and to
   the nearest pins of its next nearest islands, nearest first: slot e of particle i is
   extraAnchor/extraRest[e * capacity + i], -1 = none; extraSlots slots are used by some
   particle. Rebuilt at the step after the set of pins changed (the world's pinVersion moved).
   Written by the tethers family only (its state: families/tethers_state.h); read here. */
typedef struct pbdReachSource {
	int32_t* anchor;
	float* rest;
	int32_t* extraAnchor;
	float* extraRest;
	int32_t capacity;   ///< maxParticles: the stride of the extra slots
	int32_t extraSlots;
	int32_t pinVersion; ///< world->pinVersion the anchors were found for
	float k;            ///< k' of this step
} pbdReachSource;

/// Moves target[3] into particle i's reach: within every one of its tethers' balls (rest x (1 + tetherSlack) of
/// each tether's pin), the nearest pin's exactly. Returns 1 when it moved it; 0 (target untouched) when it was
/// within reach, when i has no tether, with tethers off or without the tethers family. Used by the attachments
/// (the pointer) during the solve.
int pbd_Reach_Clamp(const pbdWorld* w, int32_t i, float target[3]);

#endif
