/* families/attachments.h -- what other families need of the attachments (families/attachments.c). */
#ifndef PBD_ATTACHMENTS_H
#define PBD_ATTACHMENTS_H

#include "families/family.h"

/// Particles [first, first + count) were moved or removed (a fluid sorted or drained): the attachment
/// of the particle that was at first + k now holds newIndex[k], or is removed when newIndex[k] < 0
/// (its id is then refused like any removed attachment's). Attachments of other particles are untouched.
void pbd_Attachments_Remap(pbdWorld* world, int32_t first, int32_t count, const int32_t* newIndex);

#endif
