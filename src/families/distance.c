/* families/distance.c -- distance constraints (stretch, shear, bend, chain) as a family.

   C = |p1 - p2| - d, grad C = +-n (seed 000 section 3). Each object's constraints of one kind
   form a group with its own stiffness k, turned into k' = 1 - (1 - k)^(1/ns) once per step
   (seed 000 section 2.2). A coloured group's colours are solved 4 wide (distance_colouring.c);
   its overflow set and the uncoloured groups (chains) are serial colours. The state
   (distance_state.h) is carved from the world's pool; builders, parameters, statistics
   and the colliders reach it through distance.h. Its update hook is tearing (tearing.c). */
#include "families/distance_state.h"
#include "base/simd.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- kernels */

/* dp1 = -w1/(w1+w2) C n, dp2 = +w2/(w1+w2) C n, scaled by k'. With n = d / |d| that is
   dp1 = -shareA s d, dp2 = +shareB s d for s = k' (|d| - rest) / |d|, where the shares
   w1/(w1+w2), w2/(w1+w2) are kept per constraint (UpdateShares), 0 when both ends are
   pinned or the constraint is torn. Coincident ends (|d| < 1e-9) have no gradient: s = 0.
   Every path below does exactly this arithmetic, in this order, so all agree to the bit. */
static void SolveDistanceRange(const pbdDistance* d, float* p, int from, int end, float k)
{
	const int32_t* ca = d->ca;
	const int32_t* cb = d->cb;
	const float *rest = d->rest, *shareA = d->shareA, *shareB = d->shareB;
	for (int c = from; c < end; ++c) {
		float* p1 = p + 4 * ca[c];
		float* p2 = p + 4 * cb[c];
		float dx = p1[0] - p2[0], dy = p1[1] - p2[1], dz = p1[2] - p2[2];
		float len = sqrtf(dx * dx + dy * dy + dz * dz); /* the 4-wide paths add a +0 w lane: same bits */
		float s = len >= 1e-9f ? k * (len - rest[c]) / len : 0.0f;
		float s1 = s * shareA[c], s2 = s * shareB[c];
		p1[0] -= s1 * dx;
		p1[1] -= s1 * dy;
		p1[2] -= s1 * dz;
		p2[0] += s2 * dx;
		p2[1] += s2 * dy;
		p2[2] += s2 * dz;
	}
}

/* The projection of four constraints of one colour (no shared particle, so the lanes are
   independent) given their eight particle addresses. Particles stay float4 (x, y, z, w):
   d = a - b per constraint with its w lane zeroed, the four squared lengths from one 4x4
   transpose of d*d, s computed 4 wide, then each lane's s * share broadcast back onto its
   own d. Only 8 shuffles for the transpose and 8 broadcasts, against 32 for transposing
   both ends in and out; the w lanes come back unchanged (w - s * 0). The pbdF4 operations
   are element-wise IEEE, so wasm SIMD, SSE and the scalar fallback give the same bits. */
static inline void Project4(float* a0, float* a1, float* a2, float* a3, float* b0, float* b1, float* b2, float* b3,
							pbdF4 restv, pbdF4 shareA, pbdF4 shareB, pbdF4 kv)
{
	const pbdF4 eps = pbdF4_Splat(1e-9f);
	pbdF4 A0 = pbdF4_Load(a0), A1 = pbdF4_Load(a1), A2 = pbdF4_Load(a2), A3 = pbdF4_Load(a3);
	pbdF4 B0 = pbdF4_Load(b0), B1 = pbdF4_Load(b1), B2 = pbdF4_Load(b2), B3 = pbdF4_Load(b3);
	pbdF4 d0 = pbdF4_ZeroW(pbdF4_Sub(A0, B0)), d1 = pbdF4_ZeroW(pbdF4_Sub(A1, B1));
	pbdF4 d2 = pbdF4_ZeroW(pbdF4_Sub(A2, B2)), d3 = pbdF4_ZeroW(pbdF4_Sub(A3, B3));
	pbdF4 q0 = pbdF4_Mul(d0, d0), q1 = pbdF4_Mul(d1, d1), q2 = pbdF4_Mul(d2, d2), q3 = pbdF4_Mul(d3, d3);
	pbdF4_Transpose(&q0, &q1, &q2, &q3);
	/* ((x2 + y2) + z2) + 0: the full transpose (all four rows used) compiles to the plain unpack
	   shuffles that V8 maps to single instructions; a 3-row one did not. */
	pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Add(q0, q1), q2), q3));
	pbdF4 s = pbdF4_Keep(pbdF4_GreaterEq(len, eps), pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, restv)), len));
	pbdF4 s1 = pbdF4_Mul(s, shareA), s2 = pbdF4_Mul(s, shareB);
	pbdF4_Store(a0, pbdF4_Sub(A0, pbdF4_Mul(pbdF4_SplatLane(s1, 0), d0)));
	pbdF4_Store(a1, pbdF4_Sub(A1, pbdF4_Mul(pbdF4_SplatLane(s1, 1), d1)));
	pbdF4_Store(a2, pbdF4_Sub(A2, pbdF4_Mul(pbdF4_SplatLane(s1, 2), d2)));
	pbdF4_Store(a3, pbdF4_Sub(A3, pbdF4_Mul(pbdF4_SplatLane(s1, 3), d3)));
	pbdF4_Store(b0, pbdF4_Add(B0, pbdF4_Mul(pbdF4_SplatLane(s2, 0), d0)));
	pbdF4_Store(b1, pbdF4_Add(B1, pbdF4_Mul(pbdF4_SplatLane(s2, 1), d1)));
	pbdF4_Store(b2, pbdF4_Add(B2, pbdF4_Mul(pbdF4_SplatLane(s2, 2), d2)));
	pbdF4_Store(b3, pbdF4_Add(B3, pbdF4_Mul(pbdF4_SplatLane(s2, 3), d3)));
}

/* A colour's regular batches (pbdGroup.colourRegularEnd): the addresses are a0 + j s and
   a0 + j s + o, so no index is loaded. On a grid cloth these are ~98% of the constraints. */
static void SolveDistanceRuns(const pbdDistance* d, float* p, int from, int end, int firstBatch, float k)
{
	const float *rest = d->rest, *shareA = d->shareA, *shareB = d->shareB;
	const int32_t *batchA = d->batchA, *batchStride = d->batchStride, *batchOffset = d->batchOffset;
	const pbdF4 kv = pbdF4_Splat(k);
	for (int c = from, b = firstBatch; c < end; c += 4, ++b) {
		float* a = p + batchA[b];
		const int32_t st = batchStride[b], o = batchOffset[b];
		Project4(a, a + st, a + 2 * st, a + 3 * st, a + o, a + st + o, a + 2 * st + o, a + 3 * st + o, pbdF4_Load(rest + c),
				 pbdF4_Load(shareA + c), pbdF4_Load(shareB + c), kv);
	}
}

/* The rest of a colour: four at a time through the index arrays, the last 0..3 one by one. */
static void SolveDistanceColour4(const pbdDistance* d, float* p, int from, int end, float k)
{
	const int32_t* ca = d->ca;
	const int32_t* cb = d->cb;
	const float *rest = d->rest, *shareA = d->shareA, *shareB = d->shareB;
	const pbdF4 kv = pbdF4_Splat(k);
	int c = from;
	for (; c + 4 <= end; c += 4) {
		Project4(p + 4 * ca[c], p + 4 * ca[c + 1], p + 4 * ca[c + 2], p + 4 * ca[c + 3], p + 4 * cb[c], p + 4 * cb[c + 1],
				 p + 4 * cb[c + 2], p + 4 * cb[c + 3], pbdF4_Load(rest + c), pbdF4_Load(shareA + c), pbdF4_Load(shareB + c), kv);
	}
	SolveDistanceRange(d, p, c, end, k);
}

/* ---------------------------------------------------------------- building */

int pbd_Distance_CheckRoom(pbdWorld* w, int64_t constraints)
{
	const pbdDistance* d = pbd_DistanceState(w);
	if (d->count + constraints > d->maxConstraints) {
		return pbd_SetWorldError(w, PBD_ERR_CONSTRAINT_CAPACITY, "needs %lld constraints, %d of %d left", (long long)constraints,
							d->maxConstraints - d->count, d->maxConstraints);
	}
	return PBD_OK;
}

void pbd_Distance_BeginGroup(pbdWorld* w, pbdConstraintKind kind, int32_t object)
{
	pbdDistance* d = pbd_DistanceState(w);
	PBD_ASSERT(d->groupCount < d->maxGroups); /* maxGroups = maxObjects * kinds */
	pbdGroup* g = &d->groups[d->groupCount];
	g->first = d->count;
	g->count = 0;
	g->kind = kind;
	g->object = object;
	g->stiffness = w->params[pbd_kindParam[kind]];
	g->colourCount = 0;
}

void pbd_Distance_Add(pbdWorld* w, int32_t a, int32_t b)
{
	pbdDistance* d = pbd_DistanceState(w);
	const float *pa = w->x + 4 * a, *pb = w->x + 4 * b;
	float dx = pa[0] - pb[0], dy = pa[1] - pb[1], dz = pa[2] - pb[2];
	int32_t c = d->count++;
	d->ca[c] = a;
	d->cb[c] = b;
	d->rest[c] = sqrtf(dx * dx + dy * dy + dz * dz);
	d->massVersion = w->massVersion - 1; /* the new constraint's shares are computed at the next step */
}

void pbd_Distance_EndGroup(pbdWorld* w, int colour, int32_t firstParticle, int32_t particleCount)
{
	pbdDistance* d = pbd_DistanceState(w);
	pbdGroup* g = &d->groups[d->groupCount];
	g->count = d->count - g->first;
	if (g->count == 0) return;
	if (colour) pbd_ColourGroup(w, d, g, firstParticle, particleCount);
	memcpy(d->restOriginal + g->first, d->rest + g->first, (size_t)g->count * sizeof(float));
	d->groupCount += 1;
}

int32_t pbd_Distance_Count(const pbdWorld* w) { return pbd_DistanceState(w)->count; }

/* Its kinds are stretch, shear, bend, chain and soft-body edges; others match no group. */
static void Distance_SetStiffness(pbdWorld* w, void* state, int32_t object, int32_t kind, float k)
{
	pbdDistance* d = state;
	for (int g = 0; g < d->groupCount; ++g) {
		if ((object < 0 || d->groups[g].object == object) && d->groups[g].kind == (int32_t)kind) d->groups[g].stiffness = k;
	}
}

int32_t pbd_Distance_GroupCount(const pbdWorld* w) { return pbd_DistanceState(w)->groupCount; }

int pbd_Distance_StructuralEdges(const pbdWorld* w, int32_t group, pbdEdges* edges)
{
	const pbdDistance* d = pbd_DistanceState(w);
	const pbdGroup* g = &d->groups[group];
	if (g->kind != pbdKind_stretch && g->kind != pbdKind_chain) return 0;
	edges->a = d->ca;
	edges->b = d->cb;
	edges->first = g->first;
	edges->end = g->first + g->count;
	edges->object = g->object;
	return 1;
}

static const pbdEdgeSource s_edges = { pbd_Distance_GroupCount, pbd_Distance_StructuralEdges };

/* ---------------------------------------------------------------- statistics */

static float Length(const float* x, int32_t a, int32_t b)
{
	const float *pa = x + 4 * a, *pb = x + 4 * b;
	float dx = pa[0] - pb[0], dy = pa[1] - pb[1], dz = pa[2] - pb[2];
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

static void Distance_Stats(const pbdWorld* w, const void* state, pbdStats* s)
{
	const pbdDistance* d = state;
	double sumError = 0.0;
	for (int g = 0; g < d->groupCount; ++g) {
		const pbdGroup* group = &d->groups[g];
		/* Stretch is what the structural constraints report; bending and shear links
		   may lengthen while the cloth itself keeps its size. */
		int structural = group->kind == pbdKind_stretch || group->kind == pbdKind_chain;
		for (int c = group->first; c < group->first + group->count; ++c) {
			if (d->ca[c] == d->cb[c]) continue; /* torn */
			float len = Length(w->x, d->ca[c], d->cb[c]);
			float err = fabsf(len - d->rest[c]);
			sumError += err;
			if (err > s->maxError) s->maxError = err;
			if (structural && d->rest[c] > 0.0f) {
				float stretch = len / d->rest[c] - 1.0f;
				if (stretch > s->maxStretch) s->maxStretch = stretch;
			}
		}
	}
	int live = 0;
	for (int c = 0; c < d->count; ++c) live += d->ca[c] != d->cb[c];
	s->meanError = live > 0 ? (float)(sumError / live) : 0.0f;
}

/* ---------------------------------------------------------------- hooks */

static size_t Distance_Bytes(const pbdCapacity* cap)
{
	size_t C = (size_t)cap->maxConstraints, B = C / 4 + 1; /* regular batches: at most one per 4 constraints */
	size_t G = (size_t)cap->maxObjects * pbdKind_count;
	return pbd_PoolBytes(1, sizeof(pbdDistance)) + 2 * pbd_PoolBytes(C, sizeof(int32_t)) + 4 * pbd_PoolBytes(C, sizeof(float)) +
		   3 * pbd_PoolBytes(B, sizeof(int32_t)) + pbd_PoolBytes(G, sizeof(pbdGroup)) +
		   pbd_PoolBytes(G * (PBD_MAX_COLOURS + 1), sizeof(pbdDistanceColour));
}

static size_t Distance_ScratchBytes(const pbdCapacity* cap) { return pbd_ColouringScratchBytes(cap->maxParticles, cap->maxConstraints); }

static void* Distance_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t C = (size_t)cap->maxConstraints, B = C / 4 + 1;
	size_t G = (size_t)cap->maxObjects * pbdKind_count;
	pbdDistance* d = pbd_PoolAlloc(pool, 1, sizeof(pbdDistance));
	if (d == NULL) return NULL;
	d->maxConstraints = cap->maxConstraints;
	d->ca = pbd_PoolAlloc(pool, C, sizeof(int32_t));
	d->cb = pbd_PoolAlloc(pool, C, sizeof(int32_t));
	d->rest = pbd_PoolAlloc(pool, C, sizeof(float));
	d->restOriginal = pbd_PoolAlloc(pool, C, sizeof(float));
	d->shareA = pbd_PoolAlloc(pool, C, sizeof(float));
	d->shareB = pbd_PoolAlloc(pool, C, sizeof(float));
	d->batchA = pbd_PoolAlloc(pool, B, sizeof(int32_t));
	d->batchStride = pbd_PoolAlloc(pool, B, sizeof(int32_t));
	d->batchOffset = pbd_PoolAlloc(pool, B, sizeof(int32_t));
	d->maxBatches = (int32_t)B;
	d->groups = pbd_PoolAlloc(pool, G, sizeof(pbdGroup));
	d->maxGroups = (int32_t)G;
	d->maxColours = (int32_t)(G * (PBD_MAX_COLOURS + 1));
	d->colours = pbd_PoolAlloc(pool, (size_t)d->maxColours, sizeof(pbdDistanceColour));
	w->edges = &s_edges; /* the structural edges, for the colliders (services/surfaces.h) */
	return d->colours != NULL ? d : NULL;
}

/* Recomputes every constraint's shares from the current weights. */
static void UpdateShares(const pbdWorld* w, pbdDistance* d)
{
	for (int c = 0; c < d->count; ++c) {
		int a = d->ca[c], b = d->cb[c];
		float wa = w->x[4 * a + 3], wb = w->x[4 * b + 3], ws = wa + wb;
		int live = a != b && ws > 0.0f; /* torn, or both ends pinned: nothing moves */
		d->shareA[c] = live ? wa / ws : 0.0f;
		d->shareB[c] = live ? wb / ws : 0.0f;
	}
	d->massVersion = w->massVersion;
}

static void AddColour(pbdDistance* d, int32_t first, int32_t regularEnd, int32_t end, int32_t firstBatch, int32_t serial, float k)
{
	if (end <= first) return;
	PBD_ASSERT(d->colourCount < d->maxColours);
	pbdDistanceColour* c = &d->colours[d->colourCount++];
	c->first = first, c->regularEnd = regularEnd, c->end = end, c->firstBatch = firstBatch;
	c->serial = serial;
	c->k = k;
}

/* The shares follow the masses, and the colours of this step are those of the groups that
   move anything (k' > 0): each coloured group's colours in order, then its overflow set; an
   uncoloured group is one serial colour. */
static void Distance_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdDistance* d = state;
	if (d->massVersion != w->massVersion) UpdateShares(w, d);
	d->colourCount = 0;
	for (int g = 0; g < d->groupCount; ++g) {
		const pbdGroup* group = &d->groups[g];
		const float k = pbd_PassStiffness(group->stiffness, ctx->passes);
		if (!(k > 0.0f)) continue;
		const int32_t end = group->first + group->count;
		int32_t from = group->first;
		for (int c = 0; c < group->colourCount; ++c) {
			AddColour(d, from, group->colourRegularEnd[c], group->colourEnd[c], group->colourFirstBatch[c], 0, k);
			from = group->colourEnd[c];
		}
		AddColour(d, from, from, end, 0, 1, k); /* the overflow set, or the whole uncoloured group */
	}
}

static int32_t Distance_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdDistance*)state)->colourCount; }

static int32_t Distance_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	const pbdDistanceColour* c = &((const pbdDistance*)state)->colours[colour];
	*serial = c->serial;
	return c->end - c->first;
}

/* Constraints [begin, end) of a colour: the regular batches that lie in the range, 4 wide
   without loading indices, then the rest of the colour 4 wide through the indices. A range
   that starts or ends inside a batch takes that batch's constraints in the range one by
   one, which gives the same bits (the lanes are independent). Without SIMD
   (-DPBD_SCALAR=1) the plain loop is the fallback: the colours lie in array order and a
   colour's own order changes no result, so it gives the same bits as the 4-wide paths (the
   scalar test build checks it), at a plain loop's speed rather than that of Project4
   emulated lane by lane. */
static void Distance_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	const pbdDistance* d = state;
	const pbdDistanceColour* c = &d->colours[colour];
	float* p = w->p;
	const int32_t lo = c->first + begin, hi = c->first + end;
	if (c->serial || !PBD_SIMD) {
		SolveDistanceRange(d, p, lo, hi, c->k);
		return;
	}
	const int32_t runEnd = hi < c->regularEnd ? hi : c->regularEnd;
	if (lo < runEnd) {
		int32_t a = c->first + ((lo - c->first + 3) & ~3); /* first batch boundary at or after lo */
		if (a > runEnd) a = runEnd;
		int32_t b = c->first + ((runEnd - c->first) & ~3); /* last batch boundary at or before runEnd */
		if (b < a) b = a;
		SolveDistanceRange(d, p, lo, a, c->k);
		SolveDistanceRuns(d, p, a, b, c->firstBatch + (a - c->first) / 4, c->k);
		SolveDistanceRange(d, p, b, runEnd, c->k);
	}
	SolveDistanceColour4(d, p, lo > c->regularEnd ? lo : c->regularEnd, hi, c->k);
}

/* Tearing (tearing.c): a constraint stretched past (1 + tearStretch) rest breaks. Plasticity
   (plasticity.c): a soft body's edges strained past its yield creep toward their length. */
static void Distance_Update(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	if (w->params[pbdParam_tearStretch] > 0.0f) pbd_Tearing_Apply(w, state);
	pbd_Plasticity_Apply(w, state, ctx);
}

/* |length - rest| / rest of each live constraint (torn ones and zero rest lengths skipped). */
static void Distance_Error(const pbdWorld* w, const void* state, const float* x, float* perParticle, double* sum,
						   int32_t* count)
{
	const pbdDistance* d = state;
	double total = 0.0;
	int32_t live = 0;
	for (int c = 0; c < d->count; ++c) {
		int a = d->ca[c], b = d->cb[c];
		if (a == b || !(d->rest[c] > 0.0f)) continue;
		float e = fabsf(Length(x, a, b) - d->rest[c]) / d->rest[c];
		if (perParticle != NULL) {
			if (e > perParticle[a]) perParticle[a] = e;
			if (e > perParticle[b]) perParticle[b] = e;
		}
		total += e;
		live += 1;
	}
	*sum += total;
	*count += live;
}

static int32_t Distance_CountHook(const pbdWorld* w, const void* state) { return pbd_Distance_Count(w); }

const pbdFamily pbd_family_distance = {
	.name = "distance",
	.bytes = Distance_Bytes,
	.scratchBytes = Distance_ScratchBytes,
	.create = Distance_Create,
	.start = Distance_PrepareStep,
	.colourCount = Distance_ColourCount,
	.colourSize = Distance_ColourSize,
	.solve = Distance_Solve,
	.update = Distance_Update,
	.setStiffness = Distance_SetStiffness,
	.error = Distance_Error,
	.count = Distance_CountHook,
	.stats = Distance_Stats,
};
