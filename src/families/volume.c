/* families/volume.c -- the signed volume of soft bodies' tets as a family (seed 001's volume
   constraint, C = V - V0; the kernels and their arithmetic are in volume_solve.c).

   Each object's tets are one group with its own stiffness k (pbdKind_volume, scene
   "soft.stiffness.volume"), turned into k' = 1 - (1 - k)^(1/ns) once per step (seed 000 section
   2.2); a group at k' = 0 is left out of the step. At building a group is coloured (world/
   graph_colouring.h, 4 particles per tet, 32 colours: 24 tets meet at an interior vertex of a
   Kuhn-split lattice) and sorted by colour, so each colour is solved 4 wide; the few tets that
   need a 33rd colour are the group's overflow set, a serial colour solved after the others.
   Soft bodies' edges are distance constraints (kind pbdKind_edge, the distance family): this
   family holds the volumes only.

   Why tet edges plus signed volume, rather than the stable neo-Hookean pair (tr(F^T F) - 3 and
   det F - 1 per tet): the volume constraint is seed 001's; the edges reuse the distance family's
   coloured 4-wide kernel; it is the algorithm of TenMinutePhysics' browser soft body, so a peer
   written in plain JavaScript is the same algorithm; and the signed C = V - V0 has one rest state,
   so a tet turned inside out is pushed back through flat to positive volume (an unsigned |V| - V0
   has a second, inverted one). The edges hold the shape, the volumes the volume: a 30 cm cube of
   6^3 cells resting on the ground keeps its volume to 0.1% (tests/c/test_volume.c).

   Cells (parameter volumeSweeps > 0, the default; 0 is the tet by tet model above, which scenes of
   version 2 and older keep). A soft body squeezed to half its height by a plate kept 0.76 of its
   volume tet by tet (issue 22; tests/c/test_press.c), for three reasons, each measured:
   - Locking. A Kuhn lattice of n^3 cells has 6 n^3 tets but only 3 (n + 1)^3 coordinates (1,296
     against 1,029 at n = 6): the tets' volumes alone already fix every motion but the rigid ones,
     so no squeeze keeps them all. One constraint per cell (216) leaves the lattice free to flow.
   - The edges. Projected once a pass they hold the lattice's shape as firmly as the volume holds
     its size (k' 0.5 against 1 at the default k), and a squeezed lattice spring keeps its shape by
     losing volume: the interior kept 0.87. The cells are swept `volumeSweeps` times a pass, each
     sweep over-relaxed (PBD_VOLUME_OVERRELAX) at the stiffness that gives k' over the sweeps
     (seed 000's formula again), so the volume converges within the pass: 0.99 at 8 sweeps.
   - The walls. The colliders and the ground come after the volumes in a pass and take a particle that
     is in a wall out along its normal, their friction holding it where it was along the wall. What
     the volumes had moved such particles by, into the wall or along it, was undone, so the layer of
     cells against the plate kept 0.5 of its volume. Each substep the walls service gives every lattice
     particle its two nearest walls within reach, linearised (findContacts); the walls unit that
     starts a pass finds the particles in a wall, which the cells then read where the wall will put
     them and move along it only; free particles the sweeps take past a wall are put back on it.
     Particles in a wall are left where they are, so the colliders and the ground still find them as
     deep and give them the friction and the bounce they did.
   - Inside a cell. One constraint per cell lets its 6 tets trade volume, and a squeezed cell turned
     some of them inside out (8 of 1,296 at edges 1, 219-331 at a fifth of the height). Each pass ends
     with a guard: every tet below PBD_VOLUME_GUARD of its rest volume is projected back to it, an
     inequality projected only when violated (seed 000 section 2).
   0.76 becomes 0.996-1.000 at half height with no tet inverted, for the default material and the
   built-in ones (edges 0.3 to 1, and the clay's plasticity), and a soft cube set on a ball stays on
   it as it did. */
#include "families/volume_state.h"
#include "world/graph_colouring.h"
#include "base/tasks.h"
#include "services/boundary.h"
#include "services/materials.h"

#include <float.h>
#include <string.h>

/* ---------------------------------------------------------------- building */

int pbd_Volume_CheckRoom(pbdWorld* w, int64_t tets)
{
	const pbdVolume* v = pbd_VolumeState(w);
	if (tets > 0 && v->groupCount >= v->maxGroups) {
		return pbd_SetWorldError(w, PBD_ERR_OBJECT_CAPACITY, "already %d tet groups (capacity %d)", v->groupCount, v->maxGroups);
	}
	if (tets < 0 || v->count + tets > v->maxTets) {
		return pbd_SetWorldError(w, PBD_ERR_CONSTRAINT_CAPACITY, "needs %lld tets, %d of %d left", (long long)tets,
								 v->maxTets - v->count, v->maxTets);
	}
	return PBD_OK;
}

/* The tets are copied into the state before the scratch is touched, so a builder may hand over
   tets it keeps in the world's scratch (they are gone after this call: read pbd_Volume_Tet). */
const int32_t pbd_VolumeKuhn[6][4] = { { 0, 1, 3, 7 }, { 0, 1, 7, 5 }, { 0, 2, 7, 3 }, { 0, 2, 6, 7 }, { 0, 4, 5, 7 }, { 0, 4, 7, 6 } };

/* The group's cells from its tets (6 a cell in pbd_VolumeKuhn's order, before the tets' sort), coloured
   and sorted by colour as the tets are; `copy` has room for 8 ints a cell. */
static void AddCells(pbdVolume* v, pbdVolumeGroup* g, const int32_t* tets, int32_t cellCount, void* masks, size_t maskBytes,
					 uint8_t* colour, int32_t* order, int32_t* copy)
{
	g->firstCell = v->cellCount;
	g->cellCount = cellCount;
	g->cellColourCount = 0;
	int32_t* mine = v->cells + 8 * (size_t)g->firstCell;
	for (int32_t c = 0; c < cellCount; ++c) {
		const int32_t* run = tets + 24 * (size_t)c;
		for (int t = 0; t < 6; ++t) {
			for (int m = 0; m < 4; ++m) mine[8 * c + pbd_VolumeKuhn[t][m]] = run[4 * t + m];
		}
	}
	v->cellCount += cellCount;
	pbdColouringInput in = pbd_GraphColourInputFlat(mine, 8, 8, cellCount);
	in.firstParticle = g->firstParticle;
	in.particleCount = g->particleCount;
	in.maxColours = PBD_VOLUME_CELL_COLOURS;
	pbdColouring out;
	if (pbd_GraphColour(&in, masks, maskBytes, colour, order, &out) >= 0) {
		memcpy(copy, mine, 32 * (size_t)cellCount);
		for (int32_t dst = 0; dst < cellCount; ++dst) memcpy(mine + 8 * dst, copy + 8 * order[dst], 32);
		g->cellColourCount = out.colourCount;
		for (int c = 0; c < out.colourCount; ++c) g->cellColourEnd[c] = g->firstCell + out.colourStart[c + 1];
	} /* else (cannot happen with the reserved scratch and a builder's indices): one serial set, in order */
}

void pbd_Volume_AddTets(pbdWorld* w, int32_t object, const int32_t* tets, int32_t count, int32_t firstParticle,
						int32_t particleCount, int cells)
{
	pbdVolume* v = pbd_VolumeState(w);
	if (count <= 0) return;
	PBD_ASSERT(v->count + count <= v->maxTets && v->groupCount < v->maxGroups); /* pbd_Volume_CheckRoom said so */
	pbdVolumeGroup* g = &v->groups[v->groupCount++];
	g->first = v->count;
	g->count = count;
	g->object = object;
	g->stiffness = w->params[pbdParam_stiffnessVolume];
	g->colourCount = 0;
	g->firstParticle = firstParticle;
	g->particleCount = particleCount;
	g->cellCount = 0;
	g->firstSlot = v->slotCount;
	int32_t* mine = v->tets + 4 * (size_t)g->first;
	memcpy(mine, tets, 16 * (size_t)count);
	v->count += count;

	/* Greedy colours in the builder's order, then the stable sort by colour, overflow last. */
	pbdPool scratch = { w->scratch, w->scratchBytes, 0 };
	const size_t maskBytes = pbd_GraphColourScratchBytes(particleCount);
	void* masks = pbd_PoolAlloc(&scratch, maskBytes, 1);
	uint8_t* colour = pbd_PoolAlloc(&scratch, (size_t)count, 1);
	int32_t* order = pbd_PoolAlloc(&scratch, (size_t)count, sizeof(int32_t));
	int32_t* copy = pbd_PoolAlloc(&scratch, 4 * (size_t)count, sizeof(int32_t));
	if (cells && count % 6 == 0 && copy != NULL) {
		PBD_ASSERT(v->cellCount + count / 6 <= v->maxCells && v->slotCount + particleCount <= v->maxSlots);
		AddCells(v, g, mine, count / 6, masks, maskBytes, colour, order, copy);
		v->slotCount += particleCount;
		for (int32_t c = g->firstCell; c < g->firstCell + g->cellCount; ++c) {
			float meanGradient = 0.0f;
			v->cellRest6[c] = pbd_Volume_CellSix(w->x, v->cells + 8 * (size_t)c, &meanGradient);
			v->cellDegenerate[c] = PBD_VOLUME_DEGENERATE * meanGradient;
		}
	}
	pbdColouringInput in = pbd_GraphColourInputFlat(mine, 4, 4, count);
	in.firstParticle = firstParticle;
	in.particleCount = particleCount;
	in.maxColours = PBD_VOLUME_COLOURS;
	pbdColouring out;
	PBD_ASSERT(copy != NULL);
	if (copy != NULL && pbd_GraphColour(&in, masks, maskBytes, colour, order, &out) >= 0) {
		memcpy(copy, mine, 16 * (size_t)count);
		for (int32_t dst = 0; dst < count; ++dst) memcpy(mine + 4 * dst, copy + 4 * order[dst], 16);
		g->colourCount = out.colourCount;
		for (int c = 0; c < out.colourCount; ++c) g->colourEnd[c] = g->first + out.colourStart[c + 1];
	} /* else (cannot happen with the reserved scratch and a builder's indices): one serial set, in order */

	for (int32_t t = g->first; t < g->first + count; ++t) {
		float meanGradient = 0.0f;
		v->rest6[t] = pbd_Volume_Six(w->x, v->tets + 4 * t, &meanGradient);
		v->degenerate[t] = PBD_VOLUME_DEGENERATE * meanGradient;
	}
	if (object >= 0 && object < w->maxObjects) {
		pbdObjectInfo* info = &w->objects[object];
		if (info->tetCount == 0) info->firstTet = g->first;
		info->tetCount += count;
	}
}

int32_t pbd_Volume_Count(const pbdWorld* w) { return pbd_VolumeState(w)->count; }

const int32_t* pbd_Volume_Tet(const pbdWorld* w, int32_t t) { return pbd_VolumeState(w)->tets + 4 * (size_t)t; }

static void Volume_SetStiffness(pbdWorld* w, void* state, int32_t object, int32_t kind, float k)
{
	if (kind != pbdKind_volume) return;
	pbdVolume* v = state;
	for (int g = 0; g < v->groupCount; ++g) {
		if (object < 0 || v->groups[g].object == object) v->groups[g].stiffness = k;
	}
}

/* ---------------------------------------------------------------- the public query */

int pbd_World_GetObjectVolume(pbdWorldId id, int object, double* out)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (object < 0 || object >= w->objectCount) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "object %d of %d", object, w->objectCount);
	}
	if (out == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "out is NULL");
	const pbdVolume* v = pbd_VolumeState(w);
	double now = 0.0, rest = 0.0, inverted = 0.0;
	for (int g = 0; g < v->groupCount; ++g) {
		const pbdVolumeGroup* group = &v->groups[g];
		if (group->object != object) continue;
		for (int32_t t = group->first; t < group->first + group->count; ++t) {
			const float V6 = pbd_Volume_Six(w->x, v->tets + 4 * t, NULL);
			now += (double)V6 / 6.0;
			rest += (double)v->rest6[t] / 6.0;
			inverted += V6 <= 0.0f;
		}
	}
	out[0] = now, out[1] = rest, out[2] = inverted;
	return PBD_OK;
}

/* ---------------------------------------------------------------- hooks */

/* A step's colours of a group: its tet colours and overflow; or, solved by cells, the walls unit, the cell
   colours and overflow, and the guard's tet colours and overflow. */
#define COLOURS_PER_GROUP (1 + (PBD_VOLUME_CELL_COLOURS + 1) + (PBD_VOLUME_COLOURS + 1))

/* Cells: at most one per 6 tets. Wall slots: a lattice group's particles, at most 8 per cell and no more than
   the world holds. */
static int32_t MaxCells(const pbdCapacity* cap) { return cap->maxTets / 6; }
static int32_t MaxSlots(const pbdCapacity* cap)
{
	const int64_t corners = 8 * (int64_t)MaxCells(cap);
	return corners < cap->maxParticles ? (int32_t)corners : cap->maxParticles;
}

static size_t Volume_Bytes(const pbdCapacity* cap)
{
	size_t T = (size_t)cap->maxTets, G = (size_t)cap->maxObjects, C = (size_t)MaxCells(cap), S = (size_t)MaxSlots(cap);
	return pbd_PoolBytes(1, sizeof(pbdVolume)) + pbd_PoolBytes(4 * T, sizeof(int32_t)) + 2 * pbd_PoolBytes(T, sizeof(float)) +
		   pbd_PoolBytes(G, sizeof(pbdVolumeGroup)) + pbd_PoolBytes(G * COLOURS_PER_GROUP, sizeof(pbdVolumeColour)) +
		   pbd_PoolBytes(G, sizeof(pbdVolumeBlock)) + 3 * pbd_PoolBytes(G + 1, sizeof(int32_t)) +
		   pbd_PoolBytes(8 * C, sizeof(int32_t)) + 2 * pbd_PoolBytes(C, sizeof(float)) +
		   2 * pbd_PoolBytes(8 * S, sizeof(float));
}

/* Colouring a group: a colour mask per particle of its range, per tet its colour, its place in the
   sorted order and a copy of its 4 indices. */
static size_t Volume_ScratchBytes(const pbdCapacity* cap)
{
	size_t T = (size_t)cap->maxTets;
	return pbd_PoolBytes(pbd_GraphColourScratchBytes(cap->maxParticles), 1) + pbd_PoolBytes(T, 1) +
		   pbd_PoolBytes(T, sizeof(int32_t)) + pbd_PoolBytes(4 * T, sizeof(int32_t));
}

static void* Volume_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t T = (size_t)cap->maxTets, G = (size_t)cap->maxObjects;
	pbdVolume* v = pbd_PoolAlloc(pool, 1, sizeof(pbdVolume));
	if (v == NULL) return NULL;
	v->maxTets = cap->maxTets;
	v->tets = pbd_PoolAlloc(pool, 4 * T, sizeof(int32_t));
	v->rest6 = pbd_PoolAlloc(pool, T, sizeof(float));
	v->degenerate = pbd_PoolAlloc(pool, T, sizeof(float));
	v->groups = pbd_PoolAlloc(pool, G, sizeof(pbdVolumeGroup));
	v->maxGroups = (int32_t)G;
	v->maxColours = (int32_t)(G * COLOURS_PER_GROUP);
	v->colours = pbd_PoolAlloc(pool, (size_t)v->maxColours, sizeof(pbdVolumeColour));
	v->blocks = pbd_PoolAlloc(pool, G, sizeof(pbdVolumeBlock));
	v->smallEntry = pbd_PoolAlloc(pool, G + 1, sizeof(int32_t));
	v->smallOffset = pbd_PoolAlloc(pool, G + 1, sizeof(int32_t));
	v->smallSettled = pbd_PoolAlloc(pool, G + 1, sizeof(int32_t));
	v->maxCells = MaxCells(cap);
	v->cells = pbd_PoolAlloc(pool, 8 * (size_t)v->maxCells, sizeof(int32_t));
	v->cellRest6 = pbd_PoolAlloc(pool, (size_t)v->maxCells, sizeof(float));
	v->cellDegenerate = pbd_PoolAlloc(pool, (size_t)v->maxCells, sizeof(float));
	v->maxSlots = MaxSlots(cap);
	v->planes = pbd_PoolAlloc(pool, 8 * (size_t)v->maxSlots, sizeof(float));
	v->held = pbd_PoolAlloc(pool, 8 * (size_t)v->maxSlots, sizeof(float));
	return v->held != NULL ? v : NULL;
}

static pbdVolumeColour* AddColour(pbdVolume* v, int32_t first, int32_t end, int32_t serial, float k)
{
	PBD_ASSERT(v->colourCount < v->maxColours);
	pbdVolumeColour* c = &v->colours[v->colourCount++];
	*c = (pbdVolumeColour){ first, end, serial, k, pbdVolumeUnit_tets, 0 };
	return c;
}

/* The colours of this step: each group that moves anything (k' > 0) tet by tet, its colours in order, then its
   overflow set (or the whole group, were it not coloured) as a serial colour; then each large lattice group solved
   cell by cell (volumeSweeps > 0) as a block: its walls unit and its cell colours, the overflow last, which the
   exposed colours repeat once per sweep; then the small lattices together (below). Each sweep projects at the k
   that gives k' over the sweeps, times the over-relaxation.

   The small lattices (fewer cells than PBD_VOLUME_SHARED_CELLS: a few hundred cells are not worth a fork and join
   per colour) are each swept as one serial unit, its colours in order. Lattices share no particle, so their units
   are independent: the step's exposed colours take them all at once, one colour for their walls units, one per
   sweep, one for their guards, each of item count the small lattices' cells summed, lattice j owning the items
   [smallOffset[j], smallOffset[j + 1]). A range of items runs, whole, each lattice whose first item it holds: the
   threads take different lattices (16 soft cubes were one thread's, one after the other), and any split of the
   items runs each lattice once with the same arithmetic, so the same bits as lattice after lattice. */
static void Volume_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdVolume* v = state;
	v->colourCount = 0;
	v->blockCount = 0;
	v->smallCount = 0;
	v->smallOffset[0] = 0;
	v->sweeps = (int32_t)w->params[pbdParam_volumeSweeps];
	for (int pass = 0; pass < 2; ++pass) {
		for (int g = 0; g < v->groupCount; ++g) {
			const pbdVolumeGroup* group = &v->groups[g];
			const float k = pbd_PassStiffness(group->stiffness, ctx->passes);
			const int byCells = v->sweeps > 0 && group->cellCount > 0;
			if (!(k > 0.0f) || byCells != pass) continue;
			if (!byCells) {
				int32_t from = group->first;
				for (int c = 0; c < group->colourCount; ++c) {
					if (group->colourEnd[c] > from) AddColour(v, from, group->colourEnd[c], 0, k);
					from = group->colourEnd[c];
				}
				if (group->first + group->count > from) AddColour(v, from, group->first + group->count, 1, k);
				continue;
			}
			const int shared = group->cellCount >= PBD_VOLUME_SHARED_CELLS;
			pbdVolumeBlock* b = NULL;
			if (shared) {
				b = &v->blocks[v->blockCount++];
				b->entry = v->colourCount;
			} else { /* walls, cells, guard at smallEntry[j] + 0, 1, 2 */
				v->smallEntry[v->smallCount] = v->colourCount;
				v->smallOffset[v->smallCount + 1] = v->smallOffset[v->smallCount] + group->cellCount;
				v->smallCount += 1;
			}
			pbdVolumeColour* walls = AddColour(v, group->firstParticle, group->firstParticle + group->particleCount, !shared, 0.0f);
			walls->type = pbdVolumeUnit_walls;
			walls->slot = group->firstSlot - group->firstParticle;
			const float ks = PBD_VOLUME_OVERRELAX * pbd_PassStiffness(k, v->sweeps);
			/* a small lattice's cells are one serial unit, its colours in order (the same arithmetic in the same
			   order as colour by colour, so the same bits) */
			int32_t from = group->firstCell;
			for (int c = 0; c <= group->cellColourCount; ++c) {
				const int overflow = c == group->cellColourCount;
				const int32_t end = overflow ? group->firstCell + group->cellCount : group->cellColourEnd[c];
				if (end > from && (shared || overflow)) {
					const int32_t first = shared ? from : group->firstCell;
					pbdVolumeColour* cells = AddColour(v, first, end, overflow, ks);
					cells->type = pbdVolumeUnit_cells;
					cells->slot = walls->slot;
				}
				if (shared) from = end;
			}
			if (shared) b->count = v->colourCount - b->entry - 1;
			/* the guard, last, one serial unit: each of the group's tets below its floor pushed back to it (in
			   the tets' order; it moves only the few tets a squeeze nearly turns inside out) */
			pbdVolumeColour* guard = AddColour(v, group->first, group->first + group->count, 1, PBD_VOLUME_GUARD);
			guard->type = pbdVolumeUnit_guard;
			if (shared) b->guards = 1;
		}
		if (pass == 0) v->tetColours = v->colourCount;
	}
	int32_t exposed = v->tetColours;
	for (int b = 0; b < v->blockCount; ++b) {
		v->blocks[b].start = exposed;
		exposed += 1 + v->sweeps * v->blocks[b].count + v->blocks[b].guards;
	}
	v->smallStart = exposed;
	if (v->smallCount > 0) exposed += 1 + v->sweeps + 1;
	v->exposed = exposed;
}

/* Exposed colour `colour` of the small lattices: their walls units (0), a sweep (1), or their guards (2). */
static int32_t SmallUnit(const pbdVolume* v, int32_t colour)
{
	const int32_t local = colour - v->smallStart;
	return local == 0 ? 0 : local <= v->sweeps ? 1 : 2;
}

/* Runs, whole, the small lattices whose first item is in [begin, end) (above), their units of kind `unit` (a sweep:
   number `sweep`). A lattice stops sweeping for the pass once a sweep found every cell within PBD_VOLUME_SETTLED of
   its rest volume: the sweeps left would move it by less (a body at rest or in flight settles after one or two, a
   pressed one takes them all). Its flag is its own, written by the one thread that ran its sweep and read after
   the colour's join, so every thread count and slicing stops it at the same sweep. */
static void SolveSmall(pbdWorld* w, pbdVolume* v, int32_t unit, int32_t sweep, int32_t begin, int32_t end)
{
	int32_t j = 0;
	while (j < v->smallCount && v->smallOffset[j] < begin) ++j;
	for (; j < v->smallCount && v->smallOffset[j] < end; ++j) {
		const pbdVolumeColour* c = &v->colours[v->smallEntry[j] + unit];
		if (unit == 0) pbd_Volume_HoldInWalls(v, w->p, c->first, c->end, c->slot);
		else if (unit == 2) pbd_Volume_GuardRange(v, w->p, c->first, c->end, c->k);
		else if (sweep == 0 || !v->smallSettled[j]) {
			v->smallSettled[j] = !pbd_Volume_SolveCells(v, w->p, c->first, c->end, c->k, c->slot, PBD_VOLUME_SETTLED);
		}
	}
}

/* The step's colour behind exposed colour `colour`. */
static const pbdVolumeColour* Unit(const pbdVolume* v, int32_t colour)
{
	if (colour < v->tetColours) return &v->colours[colour];
	int b = v->blockCount - 1;
	while (b > 0 && v->blocks[b].start > colour) --b;
	const pbdVolumeBlock* block = &v->blocks[b];
	const int32_t local = colour - block->start, swept = v->sweeps * block->count;
	if (local > swept) return &v->colours[block->entry + 1 + block->count + (local - 1 - swept)];
	return &v->colours[block->entry + (local == 0 ? 0 : 1 + (local - 1) % block->count)];
}

static int32_t Volume_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdVolume*)state)->exposed; }

static int32_t Volume_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	const pbdVolume* v = state;
	if (colour >= v->smallStart) {
		*serial = 0;
		return v->smallOffset[v->smallCount];
	}
	const pbdVolumeColour* c = Unit(state, colour);
	*serial = c->serial;
	return c->end - c->first;
}

static void Volume_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbdVolume* v = state;
	if (colour >= v->smallStart) {
		SolveSmall(w, v, SmallUnit(v, colour), colour - v->smallStart - 1, begin, end);
		return;
	}
	const pbdVolumeColour* c = Unit(v, colour);
	if (c->type == pbdVolumeUnit_walls) pbd_Volume_HoldInWalls(v, w->p, c->first + begin, c->first + end, c->slot);
	else if (c->type == pbdVolumeUnit_guard) pbd_Volume_GuardRange(v, w->p, c->first + begin, c->first + end, c->k);
	else if (c->type == pbdVolumeUnit_cells) pbd_Volume_SolveCells(v, w->p, c->first + begin, c->first + end, c->k, c->slot, 0.0f);
	else if (c->serial) pbd_Volume_SolveRange(v, w->p, c->first + begin, c->first + end, c->k);
	else pbd_Volume_SolveColour4(v, w->p, c->first + begin, c->first + end, c->k);
}

/* ---------------------------------------------------------------- the walls of the cells

   Each substep, on the predicted positions: every particle of a group solved by cells gets its two nearest
   walls (the ground or a collider at this substep's end, services/boundary.h; two, for a body pressed between
   the ground and a plate, whose middle is as near one as the other) within reach, two lattice spacings past
   its contact radius r (farther than a pass moves a particle of a body that keeps its shape), each as the
   plane of its clearance n . p + c >= 0 with c = phi - r - n . p (phi the distance to the surface). */
typedef struct WallsBlock {
	const pbdWorld* w;
	pbdVolume* v;
	pbdWalls walls;
	int32_t first, slot;
	float r, reach;
} WallsBlock;

static void WallsOf(void* data, int32_t begin, int32_t end)
{
	const WallsBlock* b = data;
	for (int32_t i = b->first + begin; i < b->first + end; ++i) {
		const float* p = b->w->p + 4 * i;
		float phi[2], n[6];
		pbd_Walls_NearestTwo(&b->walls, p, b->reach, phi, n);
		float* plane = b->v->planes + 8 * (size_t)(i + b->slot);
		for (int k = 0; k < 2; ++k, plane += 4) {
			const float* nk = n + 3 * k;
			if (phi[k] < b->reach) {
				plane[0] = nk[0], plane[1] = nk[1], plane[2] = nk[2];
				plane[3] = (phi[k] - b->r) - ((nk[0] * p[0] + nk[1] * p[1]) + nk[2] * p[2]);
			} else {
				plane[0] = plane[1] = plane[2] = 0.0f;
				plane[3] = FLT_MAX;
			}
		}
	}
}

static void Volume_FindContacts(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdVolume* v = state;
	if (!(w->params[pbdParam_volumeSweeps] > 0.0f) || v->cellCount == 0) return;
	WallsBlock b = { w, v, pbd_Boundary_Walls(w, ctx->alpha), 0, 0, 0.0f, 0.0f };
	for (int g = 0; g < v->groupCount; ++g) {
		const pbdVolumeGroup* group = &v->groups[g];
		if (group->cellCount == 0) continue;
		b.first = group->firstParticle;
		b.slot = group->firstSlot - group->firstParticle;
		b.r = pbd_Material_ContactRadius(w, group->object);
		b.reach = b.r + 2.0f * w->objectSpacing[group->object];
		pbd_Parallel_For(w, group->particleCount, 512, WallsOf, &b);
	}
}

/* |V - V0| / |V0| of each tet with a rest volume, the heat map's per-particle value the largest
   over the particle's tets. */
static void Volume_Error(const pbdWorld* w, const void* state, const float* x, float* perParticle, double* sum,
						 int32_t* count)
{
	const pbdVolume* v = state;
	double total = 0.0;
	int32_t live = 0;
	for (int32_t t = 0; t < v->count; ++t) {
		const float rest6 = v->rest6[t];
		if (!(rest6 != 0.0f)) continue;
		const int32_t* tet = v->tets + 4 * t;
		const float V6 = pbd_Volume_Six(x, tet, NULL);
		const float e = (V6 > rest6 ? V6 - rest6 : rest6 - V6) / (rest6 > 0.0f ? rest6 : -rest6);
		if (perParticle != NULL) {
			for (int m = 0; m < 4; ++m) {
				if (e > perParticle[tet[m]]) perParticle[tet[m]] = e;
			}
		}
		total += e;
		live += 1;
	}
	*sum += total;
	*count += live;
}

static int32_t Volume_CountHook(const pbdWorld* w, const void* state) { return pbd_Volume_Count(w); }

const pbdFamily pbd_family_volume = {
	.name = "volume",
	.bytes = Volume_Bytes,
	.scratchBytes = Volume_ScratchBytes,
	.create = Volume_Create,
	.start = Volume_PrepareStep,
	.findContacts = Volume_FindContacts,
	.colourCount = Volume_ColourCount,
	.colourSize = Volume_ColourSize,
	.solve = Volume_Solve,
	/* a cell costs 6 tets: blocks of 128 share a lattice's colours of a few hundred cells among threads */
	.blockSize = 128,
	.setStiffness = Volume_SetStiffness,
	.error = Volume_Error,
	.count = Volume_CountHook,
};
