/* neighbours/grid.h -- the neighbour search over all particles: one cell-sorted grid, a search
   radius per particle (or per object, or one for all), the phase word per particle
   (world/core.h PBD_PHASE_*), and a filter given as data; two outputs in preallocated arrays:
   pairs, or per-particle neighbour lists. It knows no client: who meets whom is the filter's
   (the contacts family writes its rule in families/contacts.c, the fluid its rule in
   families/fluid.c).

   How to use it
   -------------
       size_t bytes = pbd_Grid_Bytes(maxParticles);                // its share of the pool
       pbd_Grid_Create(&grid, &pool, maxParticles);
       size_t sb = pbd_Grid_ScratchBytes(maxParticles);           // sorted copies, per build
       pbdGridInput in = { .positions = p, .rest = rest0, .phase = phase, .count = n, .radius = r,
                           .filter = { .exclude = PBD_PHASE_NO_COLLIDE, .restDistance = d } };
       pbd_Grid_Build(&grid, &in, scratch, sb);                   // counting sort by cell
       int32_t pairs = pbd_Grid_FindPairs(&grid, pairArray, capacity);
       // or: pbd_Grid_FindLists(world, &grid, &lists, work, workCapacity)

   Which pairs (i, j) are found (the filter, after CompactNSearch's activation table, Hoetzlein
   2014 / SPlisHSPlasH): |p_i - p_j| < (r_i + r_j) / 2, and
     - neither carries any bit of filter.exclude;
     - at least one carries every bit of filter.pairNeeds;
     - of one collision group (phase bits 8-15): both carry every bit of filter.groupNeeds;
     - groups g_i, g_j active in filter.activation (256 x 256, row g_i, column g_j; NULL: all);
     - not both pinned (w = 0: nothing would move), unless filter.keepPinned;
     - not rest-pose neighbours: same object (phase bits 0-7) and |rest_i - rest_j| <
       filter.restDistance (mesh neighbours are meant to be that close); with radii per
       particle and filter.restScale > 0, |rest_i - rest_j| < restScale (r_i + r_j) / 2 instead.
   Every rule is symmetric (the table must be), so j is in i's list exactly when i is in j's and
   (i, j) is a pair. The results are a pure function of the inputs (positions, radii, phases,
   filter): every build (native, scalar, wasm) and thread count finds the same pairs in the same
   order. */
#ifndef PBD_GRID_H
#define PBD_GRID_H

#include "base/pool.h"

#include <stddef.h>
#include <stdint.h>

struct pbdWorld;

/// Who meets whom (the rules above), as data.
typedef struct pbdGridFilter {
	uint32_t exclude;           ///< phase bits: a particle carrying any of them meets no one
	uint32_t pairNeeds;         ///< phase bits at least one of the two carries all of (0: any pair)
	uint32_t groupNeeds;        ///< phase bits both carry when of one collision group (0: any)
	const uint8_t* activation;  ///< 256 x 256, symmetric: groups a, b meet when activation[256 a + b]; NULL: all meet
	int32_t keepPinned;         ///< also pairs of two pinned (w = 0) particles
	float restDistance;         ///< > 0: same object and closer than this at rest: left out
	float restScale;            ///< > 0, radii per particle: same object and closer at rest than
	                            ///< restScale (r_i + r_j) / 2: left out (restDistance is then not read)
} pbdGridFilter;

typedef struct pbdGridInput {
	const float* positions;     ///< float4 per particle: x, y, z, w (w = 0: pinned)
	const float* rest;          ///< float4 rest positions, for filter.restDistance; NULL: no rest filter
	const uint32_t* phase;      ///< PBD_PHASE_* per particle; NULL: all PBD_PHASE_SELF (one group)
	int32_t count;
	float radius;               ///< one search radius for all, unless one of the next two is given
	const float* radii;         ///< per particle
	const float* objectRadius;  ///< per object, indexed by phase & PBD_PHASE_OBJECT_MASK
	int32_t orderOnly;          ///< the counting sort alone (cellStart, cellEntries: the fluid's sort into
	                            ///< cell order); nothing gathered into the scratch, so the grid cannot be searched
	int32_t leaveOut;           ///< 1: particles carrying filter.exclude are not put in the grid (the table is
	                            ///< sized for the others and no walk meets them); 0: sorted with the rest
	pbdGridFilter filter;       ///< read by every search of this build
} pbdGridInput;

/// The grid: its own arrays from the pool, the sorted copies in a scratch handed to each build.
typedef struct pbdGrid {
	int32_t maxParticles;
	int32_t tableSize;    ///< buckets reserved, a power of two >= 2 maxParticles
	int32_t* cellStart;   ///< tableSize + 1: bucket b's slots are [cellStart[b], cellStart[b + 1])
	int32_t* cellEntries; ///< the particle in each sorted slot
	/* The last build: particle data gathered in slot order (in the build's scratch); w, radius and
	   rx, ry, rz only when its filter or radii read them (else NULL). */
	float *x, *y, *z, *w, *rx, *ry, *rz, *radius;
	uint32_t* phase;
	int32_t* spare;       ///< the scratch after the gathered arrays (the lists' counts), spareArrays of them
	int32_t spareArrays;
	int32_t count;        ///< particles sorted (those in the grid)
	int32_t inputCount;   ///< the build's in->count
	int32_t buckets;      ///< buckets used, the smallest power of two >= 2 count (<= tableSize)
	float cellSize, invCell;
	float uniformRadius;  ///< the one radius, or 0 when radii differ (radius[] holds them)
	int32_t hasRest;
	uint32_t phaseAnd, phaseOr; ///< of every phase word in the grid: whether the rules can take the fast path
	pbdGridFilter filter; ///< the build's
	int32_t dropped;      ///< pairs of the last pbd_Grid_FindPairs beyond its capacity
} pbdGrid;

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
/// Scratch one build needs for `count` particles (the sorted copies): enough for pairs always, and for lists
/// when the build gathers at most one of w (pins filtered), radii (per particle) and rest positions.
size_t pbd_Grid_ScratchBytes(int32_t count);
/// Scratch for lists whatever the build gathers.
size_t pbd_Grid_ListsScratchBytes(int32_t count);
/// Sorts the particles by cell, cells of edge max radius (a hair more). Returns 1, or 0 with an
/// empty grid when the input is unusable: count over maxParticles, no radius > 0, scratch short.
int pbd_Grid_Build(pbdGrid* grid, const pbdGridInput* in, void* scratch, size_t scratchBytes);
/// The bucket a point falls in, for the grid as last built.
int32_t pbd_Grid_Bucket(const pbdGrid* grid, const float* point);

/// Each unordered pair once as (i, j), i < j, ordered by the sorted slot of the first met, then
/// neighbour row, then slot. Stores at most `capacity` and counts the rest in grid->dropped.
int32_t pbd_Grid_FindPairs(pbdGrid* grid, int32_t* pairs, int32_t capacity);
/// pbd_Grid_FindPairs in slice units: the grid's slots from *slot on, until about `budget` candidates are tested
/// (whole slots, at least one: a unit tests at most budget + one slot's candidates, which are at most the grid's
/// count), the pairs stored from pairs[2 stored] on and those past `capacity` counted in grid->dropped. Start with
/// *slot = 0, stored = 0 and grid->dropped = 0; *slot moves on (grid->count: done) and *work gets the candidates
/// tested. Returns the pairs stored in all: the same pairs, order and drops as pbd_Grid_FindPairs.
int32_t pbd_Grid_FindPairsUnit(pbdGrid* grid, int32_t* pairs, int32_t capacity, int32_t stored, int32_t* slot,
							   int64_t budget, int64_t* work);
/// pbd_Grid_FindPairs with the search shared out over the world's threads while it steps with
/// them (neighbours/grid_shared.c): the same pairs in the same order, the same drops. `pool`
/// (poolBytes, pbd_Grid_PairPoolBytes for the capacities) holds the blocks' chunks; too small,
/// or no threads: pbd_Grid_FindPairs.
int32_t pbd_Grid_FindPairsShared(struct pbdWorld* world, pbdGrid* grid, int32_t* pairs, int32_t capacity, void* pool,
								 size_t poolBytes);
/// Bytes of the pool pbd_Grid_FindPairsShared needs for maxParticles and `capacity` pairs.
size_t pbd_Grid_PairPoolBytes(int32_t maxParticles, int32_t capacity);

/// Every particle's neighbours into lists (neighbours/grid_lists.c), for the build's in->count particles
/// (those left out of the grid: empty lists): each pair found once (a half search) into `work`
/// (workCapacity int32, free during the call), then counted, laid out and scattered into both lists, each
/// list in its own deterministic order. With `world` stepping with its threads the half search is shared
/// out (the same lists); NULL: all of it here. Pairs beyond workCapacity are dropped from both lists,
/// lists past lists->capacity cut short; lists->dropped counts both. Returns 1, or 0 when the grid cannot
/// be searched (unusable input, scratch short: lists empty).
int pbd_Grid_FindLists(struct pbdWorld* world, pbdGrid* grid, pbdNeighbourLists* lists, int32_t* work,
					   int32_t workCapacity);

/// Where pbd_Grid_FindLists in slice units is (neighbours/grid_lists.c).
typedef struct pbdListsCursor {
	int32_t part;            ///< the pass in progress (done: the lists are those of pbd_Grid_FindLists)
	int32_t slot, pair;      ///< its next slot, or pair of the search's
	int32_t pairs, dropped;  ///< pairs found; neighbours dropped so far
	int32_t used;            ///< list entries laid out so far
	int32_t fast;            ///< the filter can refuse no pair of the grid
	int64_t work;            ///< the work of the last call: the lists emptied, candidates tested, slots, pairs
} pbdListsCursor;
/// pbd_Grid_FindLists's start after pbd_Grid_Build (O(count)): every list emptied; the build's scratch must then
/// stay untouched until the last unit (the caller holds it). Returns 0 when the grid cannot be searched (lists
/// empty, as pbd_Grid_FindLists), else 1 and the cursor for pbd_Grid_ListsUnit.
int pbd_Grid_ListsBegin(pbdGrid* grid, pbdNeighbourLists* lists, pbdListsCursor* cursor);
/// One slice unit of the lists after pbd_Grid_ListsBegin: the serial half search over whole slots until about
/// `budget` candidates are tested, then its passes over about `budget` slots or pairs each. 1 when the lists are
/// done: the same lists, entry for entry, as pbd_Grid_FindLists.
int pbd_Grid_ListsUnit(pbdGrid* grid, pbdNeighbourLists* lists, int32_t* work, int32_t workCapacity, pbdListsCursor* cursor,
					   int64_t budget);

#endif
