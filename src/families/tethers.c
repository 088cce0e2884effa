/* families/tethers.c -- long-range attachments (Kim, Chentanez and Mueller 2012, "Long Range
   Attachments"). Gauss-Seidel carries a pin's correction only a few particles per pass,
   so a large hanging cloth stretches far beyond its rest length. A tether ties each
   particle to its nearest pin and forbids it to be farther from it than in the rest pose:
   an inequality constraint C = |p - p_pin| - d <= 0, projected only when violated
   (seed 000 section 1), moving the particle alone because the pin has w = 0.

   The bound holds for every pin, not only the nearest: no bending of a flat cloth without
   stretch takes a particle farther from any pin than in the rest pose. Tethers to the
   nearest pin alone leave a seam where the nearest pin changes (the middle column of a
   cloth pinned at its two top corners): each side is held from its own pin and nothing holds
   the sides to each other, so the sag gathers in the seam's edges (2.1% in the undisturbed
   built-in cloth, 4-7% after a drag, for good: at rest the seam edges' pull is undone by the
   tethers in every pass). So a particle is also tethered to the nearest pin of each of its
   next PBD_TETHER_EXTRA nearest pin islands (pins joined by a constraint are one island: a
   pinned edge is one, two pinned corners are two), as Unreal's Chaos cloth does (one tether
   per kinematic island, at most four). An object pinned in one place gets no extra tether
   and steps exactly as before. */
#include "families/family.h"
#include "families/tethers_state.h"
#include "services/materials.h"
#include "base/simd.h"

#include <math.h>

/* One tether of particle i to pin a, exactly as the 4-wide loop computes each lane. */
static void SolveTetherTo(pbdWorld* w, int i, int a, float rest, float k, float slack)
{
	if (a < 0) return;
	float* p = w->p + 4 * i;
	if (p[3] <= 0.0f) return;
	const float* q = w->p + 4 * a;
	float dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
	float len = sqrtf(dx * dx + dy * dy + dz * dz);
	float limit = rest * slack;
	if (len <= limit || len < 1e-9f) return;
	float s = k * (len - limit) / len;
	p[0] -= s * dx;
	p[1] -= s * dy;
	p[2] -= s * dz;
}

/* One set of tethers, particle i to anchors[i] at rests[i] (-1: none). Each tether moves only
   its own particle (the anchor is a pin), so tethers of consecutive particles are independent:
   four at a time, like a colour. A lane with no anchor uses itself as anchor, so its length is
   0 and it is masked out. Particles [begin, end): a split at a multiple of 4 gives the same
   bits as the whole range (a masked lane may turn a -0 coordinate into +0, so the lanes must be
   the same fours). (One loop over all the sets, loading and storing each four once, measured
   slower in wasm: 17.7 ms a step on the 316 x 316 bench cloth against 15.8.) */
static void SolveTetherSet(pbdWorld* w, const int32_t* anchors, const float* rests, int begin, int n, float k, float slack)
{
	/* Without SIMD the plain loop, as for the distance constraints: the same bits at a plain
	   loop's speed rather than the lanes' emulated one by one. */
	if (!PBD_SIMD) {
		for (int i = begin; i < n; ++i) SolveTetherTo(w, i, anchors[i], rests[i], k, slack);
		return;
	}
	const pbdF4 kv = pbdF4_Splat(k), slackv = pbdF4_Splat(slack), zero = pbdF4_Splat(0.0f), eps = pbdF4_Splat(1e-9f);
	float* p = w->p;
	int i = begin;
	for (; i + 4 <= n; i += 4) {
		const int32_t* anchor = anchors + i;
		if ((anchor[0] & anchor[1] & anchor[2] & anchor[3]) < 0) continue; /* all four untethered */
		/* A pin is the anchor other tethers read, from other blocks while threads share the colour
		   out (base/tasks.h), so its row is never written, not even with its own value. Pins have
		   no tether: a four with an untethered lane (the few around a pin) goes lane by lane, the
		   same bits as the lanes (SolveTetherTo is the scalar build's path), and the four lanes'
		   path below stays straight-line code (a branch on its stores cost the wasm 3 ms a step
		   on the 100k cloth, 17.6 -> 20.5). */
		if ((anchor[0] | anchor[1] | anchor[2] | anchor[3]) < 0) {
			for (int j = 0; j < 4; ++j) SolveTetherTo(w, i + j, anchor[j], rests[i + j], k, slack);
			continue;
		}
		const int a0 = anchor[0], a1 = anchor[1], a2 = anchor[2], a3 = anchor[3];
		pbdF4 px = pbdF4_Load(p + 4 * i), py = pbdF4_Load(p + 4 * i + 4), pz = pbdF4_Load(p + 4 * i + 8), pw = pbdF4_Load(p + 4 * i + 12);
		pbdF4 qx = pbdF4_Load(p + 4 * a0), qy = pbdF4_Load(p + 4 * a1), qz = pbdF4_Load(p + 4 * a2), qw = pbdF4_Load(p + 4 * a3);
		pbdF4_Transpose(&px, &py, &pz, &pw);
		pbdF4_Transpose(&qx, &qy, &qz, &qw);
		pbdF4 dx = pbdF4_Sub(px, qx), dy = pbdF4_Sub(py, qy), dz = pbdF4_Sub(pz, qz);
		pbdF4 len = pbdF4_Sqrt(pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz)));
		pbdF4 limit = pbdF4_Mul(pbdF4_Load(rests + i), slackv);
		pbdMask4 ok = pbdMask4_And(pbdMask4_And(pbdF4_Greater(pw, zero), pbdF4_Greater(len, limit)), pbdF4_GreaterEq(len, eps));
		/* s = 0 in masked lanes: p - 0 d leaves them as they are (a -0 may read back as +0) */
		pbdF4 s = pbdF4_Select(ok, pbdF4_Div(pbdF4_Mul(kv, pbdF4_Sub(len, limit)), len), zero);
		px = pbdF4_Sub(px, pbdF4_Mul(s, dx));
		py = pbdF4_Sub(py, pbdF4_Mul(s, dy));
		pz = pbdF4_Sub(pz, pbdF4_Mul(s, dz));
		pbdF4_Transpose(&px, &py, &pz, &pw);
		pbdF4_Store(p + 4 * i, px);
		pbdF4_Store(p + 4 * i + 4, py);
		pbdF4_Store(p + 4 * i + 8, pz);
		pbdF4_Store(p + 4 * i + 12, pw);
	}
	for (; i < n; ++i) SolveTetherTo(w, i, anchors[i], rests[i], k, slack);
}

/* The tethers to other islands first, the nearest pin's last, so that the nearest pin's bound
   holds exactly after every pass (the others are met as the passes converge on the
   intersection of the balls). Each tether moves only its own particle toward a pin (w = 0), so
   one set for every particle, then the next, is the same as all of a particle's in turn. */
static void SolveTethers(pbdWorld* w, const pbdTethers* t, int begin, int n)
{
	const float k = t->k, slack = 1.0f + w->params[pbdParam_tetherSlack];
	for (int e = 0; e < t->extraSlots; ++e) {
		SolveTetherSet(w, t->extraAnchor + e * t->capacity, t->extraRest + e * t->capacity, begin, n, k, slack);
	}
	SolveTetherSet(w, t->anchor, t->rest, begin, n, k, slack);
}

/* ---------------------------------------------------------------- family */

static size_t Tethers_Bytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return pbd_PoolBytes(1, sizeof(pbdTethers)) + pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(float)) +
		   pbd_PoolBytes(P * PBD_TETHER_EXTRA, sizeof(int32_t)) + pbd_PoolBytes(P * PBD_TETHER_EXTRA, sizeof(float));
}

/* Building lists an object's pins, their islands, and per island the nearest pin so far. */
static size_t Tethers_ScratchBytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return 3 * pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(float));
}

static void* Tethers_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	pbdTethers* t = pbd_PoolAlloc(pool, 1, sizeof(pbdTethers));
	if (t == NULL) return NULL;
	t->anchor = pbd_PoolAlloc(pool, P, sizeof(int32_t));
	t->rest = pbd_PoolAlloc(pool, P, sizeof(float));
	t->extraAnchor = pbd_PoolAlloc(pool, P * PBD_TETHER_EXTRA, sizeof(int32_t));
	t->extraRest = pbd_PoolAlloc(pool, P * PBD_TETHER_EXTRA, sizeof(float));
	t->capacity = (int32_t)P;
	t->extraSlots = 0;
	t->pinVersion = w->pinVersion - 1; /* never built */
	if (t->extraRest == NULL) return NULL;
	w->reach = t; /* the pointer's reach reads this state (services/reach.h) */
	return t;
}

static void Tethers_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdTethers* t = state;
	if (t->pinVersion != w->pinVersion) pbd_Tethers_Build(w, t, pbdTetherSearch_step);
	t->k = pbd_PassStiffness(w->params[pbdParam_tethers], ctx->passes);
}

static int32_t Tethers_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdTethers*)state)->k > 0.0f; }

static int32_t Tethers_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 0; /* each tether moves its own particle only */
	return w->particleCount;
}

static void Tethers_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	SolveTethers(w, state, begin, end);
}

/* The tethers the last build made (none before the first step, or with solver.tethers at 0). */
static int32_t Tethers_Count(const pbdWorld* w, const void* state)
{
	const pbdTethers* t = state;
	if (t->pinVersion != w->pinVersion || w->params[pbdParam_tethers] <= 0.0f) return 0;
	int32_t n = 0;
	for (int i = 0; i < w->particleCount; ++i) {
		n += t->anchor[i] >= 0;
		for (int e = 0; e < t->extraSlots; ++e) n += t->extraAnchor[e * t->capacity + i] >= 0;
	}
	return n;
}

const pbdFamily pbd_family_tethers = {
	.name = "tethers",
	.bytes = Tethers_Bytes,
	.scratchBytes = Tethers_ScratchBytes,
	.create = Tethers_Create,
	.start = Tethers_PrepareStep,
	.colourCount = Tethers_ColourCount,
	.colourSize = Tethers_ColourSize,
	.solve = Tethers_Solve,
	.count = Tethers_Count,
};
