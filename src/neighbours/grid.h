/* neighbours/grid.h -- the neighbour search over all particles: one cell-sorted grid, a search
   radius per particle (or per object, or one for all), the phase word per particle
   (world/core.h PBD_PHASE_*), producing either pairs or per-particle neighbour lists in
   preallocated arrays.

   Users: the contacts family (families/contacts.c: self-collision and collisions between
   objects, as pairs) and the fluid family (families/fluid.c: neighbour lists, CompactNSearch
   style: Hoetzlein 2014 / SPlisHSPlasH, built once per substep and read by every pass).

   How to use it
   -------------
       size_t bytes = pbd_Grid_Bytes(maxParticles);                // its share of the pool
       pbd_Grid_Create(&grid, &pool, maxParticles);
       size_t sb = pbd_Grid_ScratchBytes(maxParticles);           // sorted copies, per build
       pbdGridInput in = { .positions = p, .rest = rest0, .phase = phase, .count = n, .radius = r };
       pbd_Grid_Build(&grid, &in, scratch, sb);                   // counting sort by cell
       pbdGridFilter f = pbd_Grid_ContactFilter(1, 1, thickness); // self and other groups
       int32_t pairs = pbd_Grid_FindPairs(&grid, &f, pairArray, capacity);
       // or: pbd_Grid_FindLists(&grid, &f, &lists)

   Which pairs (i, j) are found: |p_i - p_j| < (r_i + r_j) / 2, and
     - neither carries PBD_PHASE_NO_COLLIDE;
     - of one collision group (phase bits 8-15) only with filter.sameGroup and both carrying
       PBD_PHASE_SELF; of different groups only with filter.otherGroups;
     - not both pinned (w = 0: nothing would move), unless filter.keepPinned;
     - not rest-pose neighbours: same object (phase bits 0-7) and |rest_i - rest_j| <
       filter.restDistance (mesh neighbours are meant to be that close); with radii per
       particle and filter.restScale > 0, |rest_i - rest_j| < restScale (r_i + r_j) / 2 instead.
     - with filter.fluid = 0, neither carries PBD_PHASE_FLUID; with filter.fluid = 1 the fluid's
       rule instead (see the field).
   Every rule is symmetric, so j is in i's list exactly when i is in j's and (i, j) is a pair.
   The results are a pure function of the inputs (positions, radii, phases): every build
   (native, scalar, wasm) finds the same pairs in the same order. */
#ifndef PBD_GRID_H
#define PBD_GRID_H

#include "base/pool.h"

#include <stddef.h>
#include <stdint.h>

/// The grid: its own arrays from the pool, the sorted copies in a scratch handed to each build.
typedef struct pbdGrid {
	int32_t maxParticles;
	int32_t tableSize;    ///< buckets reserved, a power of two >= 2 maxParticles
	int32_t* cellStart;   ///< tableSize + 1: bucket b's slots are [cellStart[b], cellStart[b + 1])
	int32_t* cellEntries; ///< the particle in each sorted slot
	/* The last build: particle data gathered in slot order (in the build's scratch). */
	float *x, *y, *z, *w, *rx, *ry, *rz, *radius;
	uint32_t* phase;
	int32_t count;   ///< particles sorted
	int32_t buckets; ///< buckets used, the smallest power of two >= 2 count (<= tableSize)
	float cellSize, invCell;
	float uniformRadius; ///< the one radius, or 0 when radii differ (radius[] holds them)
	int32_t hasRest;
	uint32_t phaseAnd, phaseOr; ///< of every phase word: whether the rules can take the fast path
	int32_t dropped;  ///< pairs of the last pbd_Grid_FindPairs beyond its capacity
} pbdGrid;

typedef struct pbdGridInput {
	const float* positions;     ///< float4 per particle: x, y, z, w (w = 0: pinned)
	const float* rest;          ///< float4 rest positions, for filter.restDistance; NULL: no rest filter
	const uint32_t* phase;      ///< PBD_PHASE_* per particle; NULL: all PBD_PHASE_SELF (one group, all meet)
	int32_t count;
	float radius;               ///< one search radius for all, unless one of the next two is given
	const float* radii;         ///< per particle
	const float* objectRadius;  ///< per object, indexed by phase & PBD_PHASE_OBJECT_MASK
	struct pbdWorld* world;     ///< pbd_Grid_FindFluidLists: the step's threads share the search out
	                            ///< (base/tasks.h; the same lists); NULL: all of it here
	int32_t orderOnly;          ///< pbd_Grid_Build: the counting sort alone (cellStart, cellEntries: the fluid's sort into
	                            ///< cell order); nothing gathered into the scratch, so the grid cannot be searched
} pbdGridInput;

typedef struct pbdGridFilter {
	int32_t sameGroup;   ///< pairs within a collision group, between particles that both carry PBD_PHASE_SELF
	int32_t otherGroups; ///< pairs between particles of different groups
	int32_t keepPinned;  ///< also pairs of two pinned (w = 0) particles
	float restDistance;  ///< > 0: same object and closer than this at rest: left out
	float restScale;     ///< > 0, radii per particle: same object and closer at rest than
	                     ///< restScale (r_i + r_j) / 2: left out (restDistance is then not read)
	int32_t fluid;       ///< 1: the fluid's search (families/fluid.c): a pair when at least one carries
	                     ///< PBD_PHASE_FLUID and neither NO_COLLIDE nor INACTIVE; groups, SELF, pins and the
	                     ///< rest filter are not read, and two solid particles never pair. 0 (every other
	                     ///< user): no pair with a PBD_PHASE_FLUID particle (the fluid family owns those)
} pbdGridFilter;

/// Per-particle neighbour lists (CompactNSearch's layout, padded for 4-wide loops): particle i's
/// neighbours are indices[start[i] .. start[i] + count[i]); start[i] is a multiple of 4 and the
/// list is padded with i itself up to the next multiple of 4, so a 4-wide loop may read whole
/// quads and mask the lanes past count[i].
typedef struct pbdNeighbourLists {
	int32_t* start;   ///< per particle
	int32_t* count;   ///< per particle
	int32_t* indices; ///< capacity entries
	int32_t capacity;
	int32_t used;     ///< entries written, padding included
	int32_t dropped;  ///< neighbours that did not fit (those particles' lists are cut short)
} pbdNeighbourLists;

/// Pool bytes of neighbour lists for maxParticles particles and `capacity` entries (padding included).
size_t pbd_NeighbourLists_Bytes(int32_t maxParticles, int32_t capacity);
/// Carves the lists' arrays out of the pool; 0 if it is short (a sizing bug).
int pbd_NeighbourLists_Create(pbdNeighbourLists* lists, pbdPool* pool, int32_t maxParticles, int32_t capacity);

size_t pbd_Grid_Bytes(int32_t maxParticles);
/// Carves the grid's arrays out of the pool; 0 if it is short (a sizing bug).
int pbd_Grid_Create(pbdGrid* grid, pbdPool* pool, int32_t maxParticles);
/// Scratch one build needs for `count` particles (the sorted copies).
size_t pbd_Grid_ScratchBytes(int32_t count);
/// Sorts the particles by cell, cells of edge max radius (a hair more). Returns 1, or 0 with an
/// empty grid when the input is unusable: count over maxParticles, no radius > 0, scratch short.
int pbd_Grid_Build(pbdGrid* grid, const pbdGridInput* in, void* scratch, size_t scratchBytes);
/// The bucket a point falls in, for the grid as last built.
int32_t pbd_Grid_Bucket(const pbdGrid* grid, const float* point);

/// The contacts family's filter: same group (self-collision), other groups (collisions between
/// objects), pins never paired with pins, rest-pose neighbours closer than restDistance left out
/// (restScale 0: set it after for a rest distance that follows the radii).
pbdGridFilter pbd_Grid_ContactFilter(int32_t self, int32_t others, float restDistance);

/// Each unordered pair once as (i, j), i < j, ordered by the sorted slot of the first met, then
/// neighbour row, then slot. Stores at most `capacity` and counts the rest in grid->dropped.
int32_t pbd_Grid_FindPairs(pbdGrid* grid, const pbdGridFilter* filter, int32_t* pairs, int32_t capacity);
/// pbd_Grid_FindPairs in slice units: the grid's slots from *slot on, until about `budget` candidates are tested
/// (whole slots, at least one: a unit tests at most budget + one slot's candidates, which are at most the grid's
/// count), the pairs stored from pairs[2 stored] on and those past `capacity` counted in grid->dropped. Start with
/// *slot = 0, stored = 0 and grid->dropped = 0; *slot moves on (grid->count: done) and *work gets the candidates
/// tested. Returns the pairs stored in all: the same pairs, order and drops as pbd_Grid_FindPairs.
int32_t pbd_Grid_FindPairsUnit(pbdGrid* grid, const pbdGridFilter* filter, int32_t* pairs, int32_t capacity, int32_t stored,
							   int32_t* slot, int64_t budget, int64_t* work);
/// Every particle's neighbours into lists (start and count for each of the build's particles).
/// Returns the neighbours stored, in all.
int32_t pbd_Grid_FindLists(pbdGrid* grid, const pbdGridFilter* filter, pbdNeighbourLists* lists);

/// The fluid's lists in one call (neighbours/grid_lists.c): builds the grid from `in` (one radius,
/// in->radius; no rest filter) over the particles in the search only and lists the same neighbours
/// as pbd_Grid_Build + pbd_Grid_FindLists with filter.fluid = 1, in the same padded layout, each
/// list in its own deterministic order. scratch as for pbd_Grid_Build; work: workCapacity int32 for
/// the pairs (each found once), free during the call. Returns 1, or 0 when the input is unusable
/// (as pbd_Grid_Build; lists then empty).
/// pbd_Grid_FindPairs with the search shared out over the world's threads while it steps with
/// them (neighbours/grid_shared.c): the same pairs in the same order, the same drops. `pool`
/// (poolBytes, pbd_Grid_PairPoolBytes for the capacities) holds the blocks' chunks; too small,
/// or no threads: pbd_Grid_FindPairs.
int32_t pbd_Grid_FindPairsShared(struct pbdWorld* world, pbdGrid* grid, const pbdGridFilter* filter, int32_t* pairs,
								 int32_t capacity, void* pool, size_t poolBytes);
/// Bytes of the pool pbd_Grid_FindPairsShared needs for maxParticles and `capacity` pairs.
size_t pbd_Grid_PairPoolBytes(int32_t maxParticles, int32_t capacity);
int pbd_Grid_FindFluidLists(pbdGrid* grid, const pbdGridInput* in, pbdNeighbourLists* lists, void* scratch,
							size_t scratchBytes, int32_t* work, int32_t workCapacity);

/// Where pbd_Grid_FindFluidLists in slice units is (neighbours/grid_lists.c).
typedef struct pbdFluidListsCursor {
	int32_t part;            ///< the pass in progress (done: the lists are those of pbd_Grid_FindFluidLists)
	int32_t slot, pair;      ///< its next slot, or pair of the search's
	int32_t pairs, dropped;  ///< pairs found; neighbours dropped so far
	int32_t used;            ///< list entries laid out so far
	int32_t count, fast;     ///< in->count (the scratch's layout), every particle in the search fluid
	int64_t work;            ///< the work of the last call: the build's particles, candidates tested, slots, pairs
} pbdFluidListsCursor;
/// pbd_Grid_FindFluidLists's build (one call: O(count + table)): every list emptied and the grid built into the
/// scratch, which must then stay untouched until the last unit (the caller holds it). Returns 0 on unusable input
/// (lists empty, as pbd_Grid_FindFluidLists), else 1 and the cursor for pbd_Grid_FluidListsUnit.
int pbd_Grid_FluidListsBegin(pbdGrid* grid, const pbdGridInput* in, pbdNeighbourLists* lists, void* scratch,
							 size_t scratchBytes, pbdFluidListsCursor* cursor);
/// One slice unit of the lists after pbd_Grid_FluidListsBegin: the serial half search over whole slots until about
/// `budget` candidates are tested, then its passes over about `budget` slots or pairs each. 1 when the lists are
/// done: the same lists, entry for entry, as pbd_Grid_FindFluidLists (its serial search; the shared one is the same).
int pbd_Grid_FluidListsUnit(pbdGrid* grid, pbdNeighbourLists* lists, int32_t* work, int32_t workCapacity,
							pbdFluidListsCursor* cursor, int64_t budget);

#endif
