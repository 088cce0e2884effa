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
   6^3 cells resting on the ground keeps its volume to 0.1% (tests/c/test_volume.c). */
#include "families/volume_state.h"
#include "world/graph_colouring.h"

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
void pbd_Volume_AddTets(pbdWorld* w, int32_t object, const int32_t* tets, int32_t count, int32_t firstParticle,
						int32_t particleCount)
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

static size_t Volume_Bytes(const pbdCapacity* cap)
{
	size_t T = (size_t)cap->maxTets, G = (size_t)cap->maxObjects;
	return pbd_PoolBytes(1, sizeof(pbdVolume)) + pbd_PoolBytes(4 * T, sizeof(int32_t)) + 2 * pbd_PoolBytes(T, sizeof(float)) +
		   pbd_PoolBytes(G, sizeof(pbdVolumeGroup)) + pbd_PoolBytes(G * (PBD_VOLUME_COLOURS + 1), sizeof(pbdVolumeColour));
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
	v->maxColours = (int32_t)(G * (PBD_VOLUME_COLOURS + 1));
	v->colours = pbd_PoolAlloc(pool, (size_t)v->maxColours, sizeof(pbdVolumeColour));
	return v->colours != NULL ? v : NULL;
}

static void AddColour(pbdVolume* v, int32_t first, int32_t end, int32_t serial, float k)
{
	if (end <= first) return;
	PBD_ASSERT(v->colourCount < v->maxColours);
	v->colours[v->colourCount++] = (pbdVolumeColour){ first, end, serial, k };
}

/* The colours of this step: each group that moves anything (k' > 0), its colours in order, then
   its overflow set (or the whole group, were it not coloured) as a serial colour. */
static void Volume_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdVolume* v = state;
	v->colourCount = 0;
	for (int g = 0; g < v->groupCount; ++g) {
		const pbdVolumeGroup* group = &v->groups[g];
		const float k = pbd_PassStiffness(group->stiffness, ctx->passes);
		if (!(k > 0.0f)) continue;
		int32_t from = group->first;
		for (int c = 0; c < group->colourCount; ++c) {
			AddColour(v, from, group->colourEnd[c], 0, k);
			from = group->colourEnd[c];
		}
		AddColour(v, from, group->first + group->count, 1, k);
	}
}

static int32_t Volume_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdVolume*)state)->colourCount; }

static int32_t Volume_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	const pbdVolumeColour* c = &((const pbdVolume*)state)->colours[colour];
	*serial = c->serial;
	return c->end - c->first;
}

static void Volume_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	const pbdVolume* v = state;
	const pbdVolumeColour* c = &v->colours[colour];
	if (c->serial) pbd_Volume_SolveRange(v, w->p, c->first + begin, c->first + end, c->k);
	else pbd_Volume_SolveColour4(v, w->p, c->first + begin, c->first + end, c->k);
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
	.colourCount = Volume_ColourCount,
	.colourSize = Volume_ColourSize,
	.solve = Volume_Solve,
	.setStiffness = Volume_SetStiffness,
	.error = Volume_Error,
	.count = Volume_CountHook,
};
