/* families/tethers.h -- the tethers' rebuild on its own, for tests: the grid search it uses
   against the reference (every particle against every pin), which must give the same bits. */
#ifndef PBD_TETHERS_H
#define PBD_TETHERS_H

#include "services/reach.h" /* PBD_TETHER_EXTRA: the layout of the tethers' record */
#include "world/core.h"

/// Finds every particle's tethers as the step's rebuild does (reference = 0) or by checking
/// every pin (reference = 1) into anchor/rest [particleCount] and extraAnchor/extraRest
/// [PBD_TETHER_EXTRA * stride] (slot e of particle i at e * stride + i; -1 = none; stride >=
/// particleCount). Uses the world's scratch. Returns the extra slots some particle uses.
int32_t pbd_Tethers_Find(pbdWorld* w, int reference, int32_t* anchor, float* rest, int32_t* extraAnchor, float* extraRest,
						 int32_t stride);

#endif
