/* families/volume_state.h -- the volume family's state. Only the family's own files read it
   (volume.c: building, hooks, the public volume query; volume_solve.c: the kernels). Tests may
   look too. */
#ifndef PBD_VOLUME_STATE_H
#define PBD_VOLUME_STATE_H

#include "families/volume.h"
#include "families/family.h"

/// Colours per group. 24 tets meet at an interior vertex of a Kuhn-split lattice, so 16 colours
/// leave a third of the tets in the overflow set and 32 leave 0-4% (docs/architecture.md, graph colouring).
#define PBD_VOLUME_COLOURS 32

/// A tet is skipped in a pass when the w-weighted mean of its |G_i|^2 (G_i = 6 grad_i V) is below
/// this share of the plain mean at rest (the gradients at 1% of their rest length: a tet collapsed
/// toward a segment or a point, or every vertex pinned, or all four coincident: no 0/0). With the
/// check, no projection moves a vertex farther than the tet's diameter plus 100 rest sizes, since
/// |V| <= diameter |grad_i V| bounds the V part and the check the V0 part of -C w_i grad_i V / sum.
#define PBD_VOLUME_DEGENERATE 1e-4f

/// One object's tets (one pbd_Volume_AddTets call): the unit a stiffness applies to. Sorted by
/// colour at building: colour c is [colourEnd[c - 1], colourEnd[c]) (colourEnd[-1] = first),
/// the overflow set runs from colourEnd[colourCount - 1] to first + count.
typedef struct pbdVolumeGroup {
	int32_t first, count;
	int32_t object;
	float stiffness; ///< k in [0, 1]; k' for the pass count each step
	int32_t colourCount;
	int32_t colourEnd[PBD_VOLUME_COLOURS];
} pbdVolumeGroup;

/// One colour of this step: tets [first, end) at k' = k.
typedef struct pbdVolumeColour {
	int32_t first, end;
	int32_t serial;
	float k;
} pbdVolumeColour;

typedef struct pbdVolume {
	int32_t count, maxTets;
	int32_t* tets;       ///< 4 particle indices per tet, oriented so that the rest volume is >= 0
	/* The solver works with six times the signed volume, V6 = (x1 - x0) . ((x2 - x0) x (x3 - x0)),
	   and the unscaled gradients G_i = 6 grad_i V: the projection -k' C w_i grad_i V / sum w |grad V|^2
	   is then -k' (V6 - rest6) w_i G_i / sum w |G|^2, with no 1/6 anywhere. */
	float* rest6;        ///< 6 V0, from the positions at building
	float* degenerate;   ///< PBD_VOLUME_DEGENERATE x mean |G_i|^2 at rest: skipped when sum w |G|^2 <= it x sum w
	pbdVolumeGroup* groups;
	int32_t groupCount, maxGroups;
	pbdVolumeColour* colours; ///< rebuilt in start: the groups with k' > 0
	int32_t colourCount, maxColours;
} pbdVolume;

static inline pbdVolume* pbd_VolumeState(const pbdWorld* world) { return (pbdVolume*)world->families[pbdFamily_volume]; }

/* volume_solve.c */
/// Projects tets [from, end) one by one (serial colours, the rest of a colour, the scalar build).
void pbd_Volume_SolveRange(const pbdVolume* v, float* p, int32_t from, int32_t end, float k);
/// Projects tets [from, end) of one colour (no shared particle) four at a time, the rest one by
/// one; the same bits as pbd_Volume_SolveRange.
void pbd_Volume_SolveColour4(const pbdVolume* v, float* p, int32_t from, int32_t end, float k);
/// V6 = 6 x the signed volume of the tet (a, b, c, d) in `x` (float4 per particle), in the
/// solver's own arithmetic, so that a tet at its rest positions has C = 0 exactly; *gradients
/// (may be NULL) receives the plain mean of |G_i|^2.
float pbd_Volume_Six(const float* x, const int32_t* tet, float* gradients);

#endif
