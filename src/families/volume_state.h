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

/// Colours of a group's cells: 8 corners each, 26 neighbours in a lattice; the greedy order of
/// pbd_Lattice_Tets gives 8. The rest, if any, are the group's serial overflow set.
#define PBD_VOLUME_CELL_COLOURS 32

/// The over-relaxation of the cells' sweeps (successive over-relaxation: each projection moves
/// omega times as far). Measured on the press (tests/c/test_press.c: a 0.3 m cube of 6^3 cells
/// pressed to half its height), the volume kept at 8 sweeps: 0.957 for the default material at
/// omega 1, 0.996-1.000 for every material at 1.5.
#define PBD_VOLUME_OVERRELAX 1.5f

/// A group of at least this many cells has its cell colours shared out among the step's threads; a smaller
/// one is swept as one serial unit, the small ones shared out among the threads (volume.c).
#define PBD_VOLUME_SHARED_CELLS 1024

/// A small lattice stops sweeping for the pass once a sweep found every cell within this share of its rest
/// volume (volume.c).
#ifndef PBD_VOLUME_SETTLED
#define PBD_VOLUME_SETTLED 1e-3f
#endif

/// The guard's floor: in the cells' model a tet below this share of its rest volume is projected back to it
/// at the end of every pass (volume.c). Measured on the press at a fifth of the height, tets inverted
/// after release: 398 of 1,296 with no guard, 45 at 0.05, 26 at 0.2 (the clay; 0 for the elastic
/// materials at 0.05 and above); at half height 0.2 leaves none inverted at edges 1 (2 at 0.05).
#define PBD_VOLUME_GUARD 0.2f

/// One object's tets (one pbd_Volume_AddTets call): the unit a stiffness applies to. Sorted by
/// colour at building: colour c is [colourEnd[c - 1], colourEnd[c]) (colourEnd[-1] = first),
/// the overflow set runs from colourEnd[colourCount - 1] to first + count. A lattice's group also
/// has cells [firstCell, firstCell + cellCount), sorted by colour likewise (cellColourEnd), and
/// the wall slots [firstSlot, firstSlot + particleCount) of its particles.
typedef struct pbdVolumeGroup {
	int32_t first, count;
	int32_t object;
	float stiffness; ///< k in [0, 1]; k' for the pass count each step
	int32_t colourCount;
	int32_t colourEnd[PBD_VOLUME_COLOURS];
	int32_t firstParticle, particleCount;
	int32_t firstCell, cellCount, cellColourCount;
	int32_t cellColourEnd[PBD_VOLUME_CELL_COLOURS];
	int32_t firstSlot;
} pbdVolumeGroup;

/// What a unit of the step's solve does.
enum { pbdVolumeUnit_tets, pbdVolumeUnit_walls, pbdVolumeUnit_cells, pbdVolumeUnit_guard };

/// One colour of this step: tets (or cells, or a group's particles for the walls unit) [first,
/// end) at k' = k; slot = the wall slot of particle i is i + slot.
typedef struct pbdVolumeColour {
	int32_t first, end;
	int32_t serial;
	float k;
	int32_t type, slot;
} pbdVolumeColour;

/// The cells of one group in this step: exposed colours [start, start + 1 + sweeps x count),
/// the walls unit then the group's `count` cell colours once per sweep, which are the step's
/// colours[entry], then colours[entry + 1 .. entry + count].
typedef struct pbdVolumeBlock {
	int32_t start, entry, count, guards;
} pbdVolumeBlock;

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
	int32_t tetColours;       ///< colours[0, tetColours): the groups solved tet by tet this step
	pbdVolumeBlock* blocks;   ///< then one block per large group solved cell by cell
	int32_t blockCount, exposed, sweeps;
	/* The small lattices solved by cells (volume.c), swept together from exposed colour smallStart on: lattice j's
	   walls unit, cells and guard are colours[smallEntry[j] + 0, 1, 2], its items [smallOffset[j], smallOffset[j + 1]). */
	int32_t *smallEntry, *smallOffset;
	int32_t* smallSettled; ///< lattice j's last sweep this pass found every cell within PBD_VOLUME_SETTLED
	int32_t smallCount, smallStart;

	/* The cells of lattice groups: 8 corners (particle indices, corner v at (v & 1, v >> 1 & 1,
	   v >> 2) of the cell) and the sum of its 6 tets' rest6. */
	int32_t cellCount, maxCells;
	int32_t* cells;
	float* cellRest6;
	float* cellDegenerate; ///< as degenerate, for the cell's 8 gradients
	/* Per wall slot (a lattice group's particle), found each substep: its two nearest walls within
	   reach linearised, 4 floats each, clearance n . p + c >= 0 (n, c), n = 0 and c huge for none. */
	float* planes;
	/* Per wall slot, set by the walls unit that starts each pass, 8 floats: how far the walls will push the
	   particle out (xyz) and 1 when it is in one (it is held for the sweeps), then the unit normal of the
	   wall it is deepest in. */
	float* held;
	int32_t slotCount, maxSlots;
} pbdVolume;

static inline pbdVolume* pbd_VolumeState(const pbdWorld* world) { return (pbdVolume*)world->families[pbdFamily_volume]; }

/* volume_solve.c */
/// Projects tets [from, end) one by one (serial colours, the rest of a colour, the scalar build).
void pbd_Volume_SolveRange(const pbdVolume* v, float* p, int32_t from, int32_t end, float k);
/// Projects each of tets [from, end) whose volume is below floor x its rest volume onto that floor (an
/// inequality, projected only when violated: seed 000 section 2).
void pbd_Volume_GuardRange(const pbdVolume* v, float* p, int32_t from, int32_t end, float floor);
/// Projects tets [from, end) of one colour (no shared particle) four at a time, the rest one by
/// one; the same bits as pbd_Volume_SolveRange.
void pbd_Volume_SolveColour4(const pbdVolume* v, float* p, int32_t from, int32_t end, float k);
/// V6 = 6 x the signed volume of the tet (a, b, c, d) in `x` (float4 per particle), in the
/// solver's own arithmetic, so that a tet at its rest positions has C = 0 exactly; *gradients
/// (may be NULL) receives the plain mean of |G_i|^2.
float pbd_Volume_Six(const float* x, const int32_t* tet, float* gradients);
/// 6 x the volume of cell `cell` (8 corners) in `x`, and in *gradients (may be NULL) the mean |G_i|^2 of its
/// 8 corners.
float pbd_Volume_CellSix(const float* x, const int32_t* cell, float* gradients);
/// Projects cells [from, end) (serial or one colour) once at k: held corners along their wall, free ones kept
/// on their walls' side.
/// 1 when some cell was found off its rest volume by more than `settled` of it.
int32_t pbd_Volume_SolveCells(const pbdVolume* v, float* p, int32_t from, int32_t end, float k, int32_t slot, float settled);
/// The walls unit of a pass for particles [from, end): which particles are in one of their walls (held), how far
/// the walls will push them out and along which normal.
void pbd_Volume_HoldInWalls(const pbdVolume* v, const float* p, int32_t from, int32_t end, int32_t slot);

#endif
