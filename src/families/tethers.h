/* families/tethers.h -- the tethers' rebuild on its own, for tests: the grid search it uses
   against the reference (every particle against every pin), which must give the same bits. */
#ifndef PBD_TETHERS_H
#define PBD_TETHERS_H

#include "world/core.h"

#define PBD_TETHER_EXTRA 3 /* tethers per particle beyond its nearest pin's: up to 4 islands */

/// Finds every particle's tethers as the step's rebuild does (reference = 0) or by checking
/// every pin (reference = 1) into anchor/rest [particleCount] and extraAnchor/extraRest
/// [PBD_TETHER_EXTRA * stride] (slot e of particle i at e * stride + i; -1 = none; stride >=
/// particleCount). Uses the world's scratch. Returns the extra slots some particle uses.
int32_t pbd_Tethers_Find(pbdWorld* w, int reference, int32_t* anchor, float* rest, int32_t* extraAnchor, float* extraRest,
						 int32_t stride);

/// Moves target[3] into particle i's reach: within every one of its tethers' balls (rest x (1 + tetherSlack) of
/// each tether's pin), the nearest pin's exactly. Returns 1 when it moved it; 0 (target untouched) when it was
/// within reach, when i has no tether or with tethers off. Used by the attachments (the pointer) during the solve.
int pbd_Tethers_Reach(const pbdWorld* w, int32_t i, float target[3]);

#endif
