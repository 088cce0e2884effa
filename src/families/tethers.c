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

/* The reach of particle i: the intersection of its tethers' balls, |q - p_pin| <= rest (1 + slack).
   Why the pointer needs it: the attachment is solved after the tethers, so a target past the reach wins every
   pass, and the whole excess lands in the grabbed particle's few edges, since its neighbours are held by their own
   tethers (the built-in cloth's corner pulled 0.5 m into the floor: its edge 0.05 -> 0.55 m, 1,000%), which opens
   the grid for the cloth to pass through itself. A pointer whose target is first moved to the nearest point of the
   reach pulls the particle only as far as the cloth can follow without stretching (Kim, Chentanez and Mueller
   2012: the tethers' bound is the rest pose's reach along a flat cloth). The nearest point of an intersection of
   balls is found by Dykstra's alternating projections (Boyle and Dykstra 1986), which converge to the projection
   onto the intersection; plain alternating projections only reach some point of it, and at the corner of the
   lens two balls make (a corner hanging under its pin, where its two pins' spheres cross) that point was 0.35 m
   to the side of the nearest one and held the corner's edge at 190%. PBD_REACH_ROUNDS rounds, the nearest pin's
   ball last, then the nearest pin's ball once more so its bound holds exactly. Nothing moves (not a bit) when the
   target is within every ball, when the particle has no tether (an object with no pin) or with tethers off
   (solver.tethers 0: no reach). */
#define PBD_REACH_ROUNDS 16

static int ProjectIntoBall(float* q, const float* c, float radius)
{
	const float dx = q[0] - c[0], dy = q[1] - c[1], dz = q[2] - c[2];
	const float d2 = dx * dx + dy * dy + dz * dz;
	if (!(d2 > radius * radius)) return 0;
	const float f = radius / sqrtf(d2);
	q[0] = c[0] + dx * f, q[1] = c[1] + dy * f, q[2] = c[2] + dz * f;
	return 1;
}

int pbd_Tethers_Reach(const pbdWorld* w, int32_t i, float target[3])
{
	const pbdTethers* t = pbd_FamilyState(w, pbdFamily_tethers);
	if (t->pinVersion != w->pinVersion || !(t->k > 0.0f) || i < 0 || i >= w->particleCount || t->anchor[i] < 0) return 0;
	const float slack = 1.0f + w->params[pbdParam_tetherSlack];
	/* the balls, the other islands' first and the nearest pin's last, as SolveTethers orders them */
	const float* centre[1 + PBD_TETHER_EXTRA];
	float radius[1 + PBD_TETHER_EXTRA];
	int n = 0, outside = 0;
	for (int e = 0; e < t->extraSlots; ++e) {
		const int a = t->extraAnchor[e * t->capacity + i];
		if (a < 0) continue;
		centre[n] = w->p + 4 * a;
		radius[n++] = t->extraRest[e * t->capacity + i] * slack;
	}
	centre[n] = w->p + 4 * t->anchor[i];
	radius[n++] = t->rest[i] * slack;
	for (int k = 0; k < n; ++k) {
		const float dx = target[0] - centre[k][0], dy = target[1] - centre[k][1], dz = target[2] - centre[k][2];
		outside |= !(dx * dx + dy * dy + dz * dz <= radius[k] * radius[k]);
	}
	if (!outside) return 0;
	float q[3] = { target[0], target[1], target[2] }, inc[1 + PBD_TETHER_EXTRA][3] = { { 0.0f } };
	for (int round = 0; round < PBD_REACH_ROUNDS; ++round) {
		for (int k = 0; k < n; ++k) {
			float y[3] = { q[0] + inc[k][0], q[1] + inc[k][1], q[2] + inc[k][2] };
			q[0] = y[0], q[1] = y[1], q[2] = y[2];
			ProjectIntoBall(q, centre[k], radius[k]);
			inc[k][0] = y[0] - q[0], inc[k][1] = y[1] - q[1], inc[k][2] = y[2] - q[2];
		}
	}
	ProjectIntoBall(q, centre[n - 1], radius[n - 1]);
	target[0] = q[0], target[1] = q[1], target[2] = q[2];
	return 1;
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
	return t->extraRest != NULL ? t : NULL;
}

static void Tethers_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdTethers* t = state;
	if (t->pinVersion != w->pinVersion) pbd_Tethers_Build(w, t, 0);
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
