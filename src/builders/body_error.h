/* builders/body_error.h -- a refusal as a value, for the body builder's checks (body.c,
   surface.c, tetmesh.c). pbd_BodyCounts has no world to keep a message and pbd_World_AddBody has
   one, so the checks write (code, text) here and the entry point hands it to pbd_SetError or
   pbd_SetWorldError. */
#ifndef PBD_BODY_ERROR_H
#define PBD_BODY_ERROR_H

#include "minipbd.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pbdBodyError {
	int code; ///< a pbdError
	char text[200];
} pbdBodyError;

/// Records the refusal and returns code.
int pbd_BodyFail(pbdBodyError* e, int code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/// Bytes of `count` int32 rounded up to 8, so the arrays carved one after the other stay aligned.
static inline size_t pbd_BodyInts(size_t count) { return (count * sizeof(int32_t) + 7u) & ~(size_t)7u; }

#endif
