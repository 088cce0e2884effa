/* services/crossing.h -- no particle's path crosses a sheet (a cloth's triangles) within a substep: the continuous
   test of crossing.c, for the families that keep particles on their side of a cloth (the fluid's guard, the
   particle contacts'). A caller builds the index of the sheets' triangles swept over the substep once, then guards
   its particles one by one (each particle's result its own: ranges of them on any thread, the same bits). */
#ifndef PBD_CROSSING_H
#define PBD_CROSSING_H

#include "neighbours/triangles.h"
#include "services/materials.h"
#include "world/core.h"

/* Rounds of the test for one particle at most (a round that puts it back starts another). */
#define PBD_CROSSING_ROUNDS 8

typedef struct pbdCrossing {
	pbdTriangleIndex index;
	const float* x;
	float* p;
	int32_t ranges[2 * PBD_MAX_OBJECTS]; ///< the sheets' triangles: first, count
	int32_t objects[PBD_MAX_OBJECTS];    ///< each range's object
	int32_t rangeCount;
} pbdCrossing;

/// 1 when some object is a sheet with triangles.
static inline int pbd_Crossing_AnySheet(const pbdWorld* w)
{
	for (int32_t o = 0; o < w->objectCount; ++o) {
		if (pbd_Material_IsSheet(w, o)) return 1;
	}
	return 0;
}

/// Grows box (lo[3], hi[3]) by particle i's path in the substep, x_i to p_i: the `within` boxes of a build.
static inline void pbd_Crossing_AddPath(const pbdWorld* w, int32_t i, float box[6])
{
	const float *xi = w->x + 4 * i, *pi = w->p + 4 * i;
	for (int k = 0; k < 3; ++k) {
		const float lo = xi[k] < pi[k] ? xi[k] : pi[k], hi = xi[k] < pi[k] ? pi[k] : xi[k];
		box[k] = lo < box[k] ? lo : box[k];
		box[3 + k] = hi > box[3 + k] ? hi : box[3 + k];
	}
}

/// The index of every sheet's triangles (services/materials.h pbd_Material_IsSheet) by the box each sweeps from x to
/// p, grown by `margin`, in cells of at least `cell`, those meeting one of `within`'s withinCount boxes (lo[3], hi[3]
/// each; NULL: all), in `scratch`
/// (pbd_TriangleIndex_ScratchBytes(maxTriangles)). Returns the triangles put in: 0, nothing to guard against.
int32_t pbd_Crossing_Build(pbdCrossing* crossing, pbdWorld* world, const float* within, int32_t withinCount, float margin, float cell,
						   void* scratch, size_t scratchBytes);

/// Particle i's path x_i -> p_i kept from crossing the sheets: at the first triangle it goes through, with ratio 0
/// the particle alone is put back at that point of the triangle, carried with it to the substep's end, `distance`
/// off it on the side it came from (halved each round); with ratio > 0 the particle and the triangle are pushed
/// apart along the triangle's normal by their inverse masses (the heavier split as if at most `ratio` times
/// heavier) to the point-triangle inequality (q - s) . n >= distance at the substep's end, s the point the path went
/// through: the triangle's corners move, so such calls go one particle after another on one thread. Again from x_i
/// while the new path meets another (at most PBD_CROSSING_ROUNDS). Triangles of object `own` (-1: none) and of
/// objects whose `meets` entry is 0 (NULL: every object) are not tested. Returns the rounds that moved it.
int32_t pbd_Crossing_Guard(const pbdCrossing* crossing, int32_t particle, float distance, int32_t own, const uint8_t* meets,
						   float ratio);

/// The same against the triangles of the index but those particle i is a corner of, whatever their object (a sheet's
/// own triangles: families/contacts_sheets.c's guard of a cloth against itself); ratio > 0.
int32_t pbd_Crossing_GuardOwn(const pbdCrossing* crossing, int32_t particle, float distance, float ratio);

#endif
