/* world/step.c -- the step, as named stages (core.h pbdStage), following seed 000:

     per substep of h = dt / substeps:
       predict         v* = v + h w f_ext;  p = x + h v*            (2.1)
       contacts        clear contact flags (neighbour search lands here later)
       solve           ns Gauss-Seidel passes; each constraint moves
                       dp_i = -k' w_i C / sum_j w_j |grad_j C|^2 grad_i C   (2.2)
                       with k' = 1 - (1 - k)^(1/ns) so the stiffness seen after
                       ns passes is k whatever ns is
       velocities      v = (p - x) / h                              (2.3), restitution
       commit          velocity passes (damping, speed bound), x = p

   Damping and restitution act after v is recomputed from positions. Seed 001's
   snippet damps v before that recomputation, which throws the damping away.
*/
#include "world/core.h"
#include "base/simd.h"

#include <math.h>
#include <string.h>

typedef struct pbdStepContext {
	float h;                      ///< substep length
	int substep, substeps;
	int passes;                   ///< ns
	float kTether;                ///< k' of the tethers
	int windActive;
	int selfCollision;
	int recordConvergence;
	float kPass[PBD_MAX_OBJECTS * pbdKind_count]; ///< k' per constraint group
	float kAttach[PBD_MAX_ATTACHMENTS];
	float groundHeight;           ///< plane height plus particle radius
	int groundEnabled;
} pbdStepContext;

/* ---------------------------------------------------------------- predict */

static void Stage_Predict(pbdWorld* w, const pbdStepContext* ctx)
{
	const float* g = &w->params[pbdParam_gravityX];
	const pbdF4 hg = pbdF4_Set(ctx->h * g[0], ctx->h * g[1], ctx->h * g[2], 0.0f);
	const pbdF4 h = pbdF4_Splat(ctx->h);
	const pbdF4 zero = pbdF4_Splat(0.0f);
	const int n = w->particleCount;
	/* Wind is a force, so it goes through w: v* = v + h (g + w f_wind). */
	const int wind = ctx->windActive && pbd_Wind_Accumulate(w);
	for (int i = 0; i < n; ++i) {
		pbdF4 x = pbdF4_Load(w->x + 4 * i);
		pbdF4 v = pbdF4_Load(w->v + 4 * i);
		float invMass = pbdF4_Get(x, 3);
		/* w f_ext = g for every particle that has mass to move; pins (w = 0) get none. */
		v = pbdF4_Add(v, invMass > 0.0f ? hg : zero);
		if (wind && invMass > 0.0f) v = pbdF4_Add(v, pbdF4_Mul(pbdF4_Splat(ctx->h * invMass), pbdF4_Load(w->force + 4 * i)));
		pbdF4_Store(w->v + 4 * i, v);
		pbdF4_Store(w->p + 4 * i, pbdF4_Add(x, pbdF4_Mul(h, v))); /* v.w = 0 keeps p.w = x.w = w */
	}
}

/* ---------------------------------------------------------------- contacts */

static void Stage_Contacts(pbdWorld* w, const pbdStepContext* ctx)
{
	memset(w->contact, 0, (size_t)w->particleCount);
	if (w->tethersDirty) pbd_Tethers_Build(w);
	if (ctx->selfCollision) pbd_SelfCollision_Prepare(w);
	else w->pairCount = 0, w->pairsReusable = 0;
}

/* ---------------------------------------------------------------- solve */

/* Distance constraint C = |p1 - p2| - d, grad C = +-n (seed 000 section 3):
   dp1 = -w1/(w1+w2) C n, dp2 = +w2/(w1+w2) C n, scaled by k'. With n = d / |d| that is
   dp1 = -shareA s d, dp2 = +shareB s d for s = k' (|d| - rest) / |d|, where the shares
   w1/(w1+w2), w2/(w1+w2) are kept per constraint (pbd_UpdateShares), 0 when both ends are
   pinned or the constraint is torn. Coincident ends (|d| < 1e-9) have no gradient: s = 0.
   Every path below does exactly this arithmetic, in this order, so all agree to the bit. */
static void SolveDistanceRange(pbdWorld* w, int from, int end, float k)
{
	float* p = w->p;
	const int32_t* ca = w->ca;
	const int32_t* cb = w->cb;
	const float *rest = w->rest, *shareA = w->shareA, *shareB = w->shareB;
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
static void SolveDistanceRuns(pbdWorld* w, int from, int end, int firstBatch, float k)
{
	float* p = w->p;
	const float *rest = w->rest, *shareA = w->shareA, *shareB = w->shareB;
	const int32_t *batchA = w->batchA, *batchStride = w->batchStride, *batchOffset = w->batchOffset;
	const pbdF4 kv = pbdF4_Splat(k);
	for (int c = from, b = firstBatch; c < end; c += 4, ++b) {
		float* a = p + batchA[b];
		const int32_t st = batchStride[b], o = batchOffset[b];
		Project4(a, a + st, a + 2 * st, a + 3 * st, a + o, a + st + o, a + 2 * st + o, a + 3 * st + o, pbdF4_Load(rest + c),
				 pbdF4_Load(shareA + c), pbdF4_Load(shareB + c), kv);
	}
}

/* The rest of a colour: four at a time through the index arrays, the last 0..3 one by one. */
static void SolveDistanceColour4(pbdWorld* w, int from, int end, float k)
{
	float* p = w->p;
	const int32_t* ca = w->ca;
	const int32_t* cb = w->cb;
	const float *rest = w->rest, *shareA = w->shareA, *shareB = w->shareB;
	const pbdF4 kv = pbdF4_Splat(k);
	int c = from;
	for (; c + 4 <= end; c += 4) {
		Project4(p + 4 * ca[c], p + 4 * ca[c + 1], p + 4 * ca[c + 2], p + 4 * ca[c + 3], p + 4 * cb[c], p + 4 * cb[c + 1],
				 p + 4 * cb[c + 2], p + 4 * cb[c + 3], pbdF4_Load(rest + c), pbdF4_Load(shareA + c), pbdF4_Load(shareB + c), kv);
	}
	SolveDistanceRange(w, c, end, k);
}

static void SolveDistanceGroup(pbdWorld* w, const pbdGroup* group, float k)
{
	const int end = group->first + group->count;
	/* Without SIMD (-DPBD_SCALAR=1) the plain loop is the fallback: the colours lie in array
	   order and a colour's own order changes no result, so it gives the same bits as the
	   4-wide paths below (the scalar test build checks it), at a plain loop's speed rather
	   than that of Project4 emulated lane by lane. */
	if (group->colourCount == 0 || !PBD_SIMD) {
		SolveDistanceRange(w, group->first, end, k);
		return;
	}
	int from = group->first;
	for (int colour = 0; colour < group->colourCount; ++colour) {
		const int regularEnd = group->colourRegularEnd[colour];
		SolveDistanceRuns(w, from, regularEnd, group->colourFirstBatch[colour], k);
		SolveDistanceColour4(w, regularEnd, group->colourEnd[colour], k);
		from = group->colourEnd[colour];
	}
	SolveDistanceRange(w, from, end, k); /* overflow set, if any */
}

/* Attachment: C = |p - t| with the target as a w = 0 end, so dp = -k' (p - t). */
static void SolveAttachments(pbdWorld* w, const pbdStepContext* ctx)
{
	for (int i = 0; i < w->maxAttachments; ++i) {
		const pbdAttachment* a = &w->attachments[i];
		if (a->particle < 0) continue;
		float* p = w->p + 4 * a->particle;
		if (p[3] <= 0.0f) continue; /* a pin does not follow the pointer */
		float k = ctx->kAttach[i];
		p[0] -= k * (p[0] - a->target[0]);
		p[1] -= k * (p[1] - a->target[1]);
		p[2] -= k * (p[2] - a->target[2]);
	}
}

/* Ground: the inequality C = p.y - h >= 0 is projected only when violated (seed 000
   section 1). Friction is positional (Macklin et al. 2014, "Unified Particle Physics",
   sec. 6.1): tangential travel this substep under mu_s * depth is cancelled (static),
   otherwise reduced by mu_k * depth (kinetic). */
static void SolveGround(pbdWorld* w, const pbdStepContext* ctx)
{
	if (!ctx->groundEnabled) return;
	const float ground = ctx->groundHeight;
	const float muS = w->params[pbdParam_staticFriction];
	const float muK = w->params[pbdParam_kineticFriction];
	const int n = w->particleCount;
	for (int i = 0; i < n; ++i) {
		float* p = w->p + 4 * i;
		if (p[1] >= ground || p[3] <= 0.0f) continue;
		float depth = ground - p[1];
		p[1] = ground;
		w->contact[i] = 1;
		const float* x = w->x + 4 * i;
		float tx = p[0] - x[0], tz = p[2] - x[2];
		float travel = sqrtf(tx * tx + tz * tz);
		if (travel < muS * depth) {
			p[0] = x[0];
			p[2] = x[2];
		} else if (travel > 0.0f) {
			float f = muK * depth / travel;
			if (f > 1.0f) f = 1.0f;
			p[0] -= tx * f;
			p[2] -= tz * f;
		}
	}
}

static void Stage_Solve(pbdWorld* w, const pbdStepContext* ctx)
{
	for (int pass = 0; pass < ctx->passes; ++pass) {
		for (int g = 0; g < w->groupCount; ++g) {
			const pbdGroup* group = &w->groups[g];
			float k = ctx->kPass[g];
			if (k > 0.0f) SolveDistanceGroup(w, group, k);
		}
		if (ctx->kTether > 0.0f) pbd_Tethers_Solve(w, ctx->kTether);
		SolveAttachments(w, ctx);
		if (w->pairCount > 0) pbd_SelfCollision_Solve(w);
		/* Colliders move a share of their motion each substep (alpha), so fast drags
		   sweep through the cloth in steps instead of teleporting past it. */
		if (w->colliderCount > 0) pbd_Colliders_Solve(w, (float)(ctx->substep + 1) / (float)ctx->substeps);
		/* Ground last in every pass, so no particle ends the solve below it. */
		SolveGround(w, ctx);
		/* The convergence curve (seed 001 section 4.4): mean error after every pass. */
		if (ctx->recordConvergence && w->convergenceCount < PBD_MAX_CONVERGENCE) {
			w->convergence[w->convergenceCount++] = pbd_MeanRelativeError(w);
		}
	}
}

/* ---------------------------------------------------------------- tear */

static void Stage_Tear(pbdWorld* w, const pbdStepContext* ctx)
{
	(void)ctx;
	if (w->params[pbdParam_tearStretch] > 0.0f) pbd_Tearing_Apply(w);
}

/* ---------------------------------------------------------------- velocities */

static void Stage_Velocities(pbdWorld* w, const pbdStepContext* ctx)
{
	const pbdF4 h = pbdF4_Splat(ctx->h);
	const float e = w->params[pbdParam_restitution];
	const float* g = &w->params[pbdParam_gravityX];
	/* Below this approach speed a contact is resting: bouncing it would make it jitter
	   (Mueller et al. 2020, "Detailed Rigid Body Simulation with XPBD", sec. 3.5). */
	const float restingSpeed = 2.0f * ctx->h * sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
	const int n = w->particleCount;
	for (int i = 0; i < n; ++i) {
		float approach = w->v[4 * i + 1]; /* v*.y before the solve */
		pbdF4 x = pbdF4_Load(w->x + 4 * i);
		pbdF4 p = pbdF4_Load(w->p + 4 * i);
		pbdF4 v = pbdF4_Div(pbdF4_Sub(p, x), h); /* w lane: (w - w) / h = 0 */
		pbdF4_Store(w->v + 4 * i, v);
		if (w->contact[i] && approach < -restingSpeed) {
			float bounce = -e * approach;
			if (w->v[4 * i + 1] < bounce) w->v[4 * i + 1] = bounce;
		}
	}
	if (w->colliderCount > 0) pbd_Colliders_Velocities(w, ctx->h);
}

/* ---------------------------------------------------------------- commit */

/* The velocity passes and the commit in one sweep over the particles, since each touches a
   particle's own v and p only (at 100k particles and 10 substeps the two separate sweeps
   cost 2.3 ms a step natively, this one 0.8 with its fast path). Per particle, in this order:
     damping      v <- v / (1 + c h): unconditionally stable and exact to apply after the
                  velocity update, so damping carries into the next prediction;
     speed bound  |v| <= maxSpeed keeps hostile inputs (huge drags, tiny masses) finite;
     world bound  a particle thrown past +-1e5 stops there;
     commit       x = p. */
static void Stage_Commit(pbdWorld* w, const pbdStepContext* ctx)
{
	const float c = w->params[pbdParam_damping];
	const pbdF4 damp = pbdF4_Splat(1.0f / (1.0f + c * ctx->h));
	const float maxSpeed = w->params[pbdParam_maxSpeed];
	const float maxSpeed2 = maxSpeed * maxSpeed;
	const float limit = 1e5f;
	/* Fast path: no |v| component reaches maxSpeed / 2 (so |v|^2 <= 3/4 maxSpeed^2) and no |p|
	   component passes the limit: nothing to bound. Otherwise the exact checks below, so the
	   result is the same either way. The w lanes compare against +inf: never. */
	const float inf = 1.0f / 0.0f;
	const pbdF4 vCap = pbdF4_Set(0.5f * maxSpeed, 0.5f * maxSpeed, 0.5f * maxSpeed, inf);
	const pbdF4 pCap = pbdF4_Set(limit, limit, limit, inf);
	const int n = w->particleCount;
	for (int i = 0; i < n; ++i) {
		float* vi = w->v + 4 * i;
		float* p = w->p + 4 * i;
		const pbdF4 v = pbdF4_Mul(pbdF4_Load(vi), damp);
		const pbdF4 pp = pbdF4_Load(p);
		pbdF4_Store(vi, v);
		/* !(|v| < cap) also catches NaN, which then goes the exact way */
		if ((pbdF4_LessBits(pbdF4_Abs(v), vCap) & pbdF4_LessBits(pbdF4_Abs(pp), pCap)) == 0xfu) {
			pbdF4_Store(w->x + 4 * i, pp);
			continue;
		}
		float s2 = vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2];
		if (s2 > maxSpeed2) {
			float f = maxSpeed / sqrtf(s2);
			vi[0] *= f;
			vi[1] *= f;
			vi[2] *= f;
		}
		for (int k = 0; k < 3; ++k) {
			if (p[k] > limit) { p[k] = limit; vi[k] = 0.0f; }
			if (p[k] < -limit) { p[k] = -limit; vi[k] = 0.0f; }
		}
		pbdF4_Store(w->x + 4 * i, pbdF4_Load(p));
	}
}

/* ---------------------------------------------------------------- step */

typedef void (*pbdStageFn)(pbdWorld*, const pbdStepContext*);

static const pbdStageFn s_stages[pbdStage_count] = {
	[pbdStage_predict] = Stage_Predict,
	[pbdStage_contacts] = Stage_Contacts,
	[pbdStage_solve] = Stage_Solve,
	[pbdStage_tear] = Stage_Tear,
	[pbdStage_velocities] = Stage_Velocities,
	[pbdStage_commit] = Stage_Commit,
};

void pbd_Solver_Step(pbdWorld* w)
{
	pbdStepContext ctx;
	int substeps = (int)w->params[pbdParam_substeps];
	ctx.passes = (int)w->params[pbdParam_iterations];
	ctx.h = w->params[pbdParam_dt] / (float)substeps;
	for (int g = 0; g < w->groupCount; ++g) ctx.kPass[g] = pbd_PassStiffness(w->groups[g].stiffness, ctx.passes);
	for (int i = 0; i < w->maxAttachments; ++i) {
		ctx.kAttach[i] = w->attachments[i].particle >= 0 ? pbd_PassStiffness(w->attachments[i].stiffness, ctx.passes) : 0.0f;
	}
	ctx.groundEnabled = w->params[pbdParam_groundEnabled] != 0.0f;
	/* particles are spheres of radius thickness / 2 against every surface */
	ctx.groundHeight = w->params[pbdParam_groundHeight] + 0.5f * w->params[pbdParam_thickness];
	ctx.kTether = pbd_PassStiffness(w->params[pbdParam_tethers], ctx.passes);
	ctx.windActive = w->params[pbdParam_airDensity] > 0.0f &&
					 (w->params[pbdParam_drag] > 0.0f || w->params[pbdParam_lift] > 0.0f) && w->triangleCount > 0;
	ctx.selfCollision = w->params[pbdParam_selfCollision] != 0.0f;
	ctx.substeps = substeps;
	ctx.recordConvergence = w->params[pbdParam_recordConvergence] != 0.0f;
	w->convergenceCount = 0;

	if (w->sharesDirty) pbd_UpdateShares(w);
	if (w->colliderCount > 0) pbd_Colliders_BeginStep(w);
	for (int s = 0; s < substeps; ++s) {
		ctx.substep = s;
		for (int stage = 0; stage < pbdStage_count; ++stage) {
			s_stages[stage](w, &ctx);
		}
	}
	if (w->colliderCount > 0) pbd_Colliders_EndStep(w);
	w->steps += 1;
}

int pbd_World_Step(pbdWorldId id)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
	pbd_Solver_Step(w);
	return PBD_OK;
}
