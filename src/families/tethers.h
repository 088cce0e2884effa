/* families/tethers.h -- the tethers' rebuild on its own, for tests: the grid search it uses
   against the reference (every particle against every pin), which must give the same bits. */
#ifndef PBD_TETHERS_H
#define PBD_TETHERS_H

#include "services/reach.h" /* PBD_TETHER_EXTRA: the layout of the tethers' record */
#include "world/core.h"

/// How the tethers are found (tethers_build.c), all to the same bits: the step's way (a grid per pin island, else one
/// grid over every pin where those do not fit the scratch, else every pin); every particle against every pin (the
/// reference the others are checked against); one grid over every pin (else every pin: the step's fallback).
typedef enum pbdTetherSearch { pbdTetherSearch_step = 0, pbdTetherSearch_reference = 1, pbdTetherSearch_oneGrid = 2 } pbdTetherSearch;

/// Finds every particle's tethers by `method` (pbdTetherSearch) into anchor/rest [particleCount] and extraAnchor/extraRest
/// [PBD_TETHER_EXTRA * stride] (slot e of particle i at e * stride + i; -1 = none; stride >=
/// particleCount). Uses the world's scratch. Returns the extra slots some particle uses.
int32_t pbd_Tethers_Find(pbdWorld* w, int method, int32_t* anchor, float* rest, int32_t* extraAnchor, float* extraRest,
						 int32_t stride);

#endif
