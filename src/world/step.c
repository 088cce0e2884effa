/* world/step.c -- the step, as named stages (core.h pbdStage), following seed 000. The
   constraint families (families/family.h) plug into the stages through the registry; this
   file holds only what belongs to every particle (prediction, the velocity update, damping,
   the bounds and the commit) and the order of things:

     per step           prepareStep hooks (k' for the pass count, shares, tethers, colliders)
     per substep of h = dt / substeps:
       predict          forces hooks (wind) into world->force, then
                        v* = v + h w f_ext;  p = x + h v*                   (2.1)
       contacts         prepareSubstep hooks: particle pairs, collider frames, ground flags
       solve            ns Gauss-Seidel passes; in each, every family in registry order,
                        colour by colour; each constraint moves
                        dp_i = -k' w_i C / sum_j w_j |grad_j C|^2 grad_i C   (2.2)
                        with k' = 1 - (1 - k)^(1/ns) so the stiffness seen after ns
                        passes is k whatever ns is; then the convergence record
       update           update hooks: tearing, plasticity (soft edges, rigid shapes),
                        the shapes family's mass scaling undone
       velocities       v = (p - x) / h                                     (2.3), then the
                        velocities hooks: restitution (ground, colliders)
       commit           damping, speed bound (velocity and displacement), world bound, x = p
     per step           endStep hooks (colliders: the motion's start moves to its end)

   Damping and restitution act after v is recomputed from positions. Seed 001's snippet
   damps v before that recomputation, which throws the damping away. */
#include "families/family.h"
#include "base/simd.h"

#include <math.h>

#define FOR_EACH_FAMILY(f) for (int f = 0; f < pbdFamily_count; ++f)

/* ---------------------------------------------------------------- predict */

static void Stage_Predict(pbdWorld* w, pbdStepContext* ctx)
{
	/* External forces other than gravity (wind) go through w: v* = v + h (g + w f). A family
	   that adds some sets forceActive; without any, v* = v + h g alone, so no +0 is added to
	   a -0 velocity (the bits stay those of the gravity-only step). */
	w->forceActive = 0;
	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->forces) pbd_families[f]->forces(w, w->families[f], ctx);
	}
	const float* g = &w->params[pbdParam_gravityX];
	const pbdF4 hg = pbdF4_Set(ctx->h * g[0], ctx->h * g[1], ctx->h * g[2], 0.0f);
	const pbdF4 h = pbdF4_Splat(ctx->h);
	const pbdF4 zero = pbdF4_Splat(0.0f);
	const int n = w->particleCount;
	const int forced = w->forceActive;
	for (int i = 0; i < n; ++i) {
		pbdF4 x = pbdF4_Load(w->x + 4 * i);
		pbdF4 v = pbdF4_Load(w->v + 4 * i);
		float invMass = pbdF4_Get(x, 3);
		/* w f_ext = g for every particle that has mass to move; pins (w = 0) get none. */
		v = pbdF4_Add(v, invMass > 0.0f ? hg : zero);
		if (forced && invMass > 0.0f) v = pbdF4_Add(v, pbdF4_Mul(pbdF4_Splat(ctx->h * invMass), pbdF4_Load(w->force + 4 * i)));
		pbdF4_Store(w->v + 4 * i, v);
		pbdF4_Store(w->p + 4 * i, pbdF4_Add(x, pbdF4_Mul(h, v))); /* v.w = 0 keeps p.w = x.w = w */
	}
}

/* ---------------------------------------------------------------- contacts */

static void Stage_Contacts(pbdWorld* w, pbdStepContext* ctx)
{
	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->prepareSubstep) pbd_families[f]->prepareSubstep(w, w->families[f], ctx);
	}
}

/* ---------------------------------------------------------------- solve */

/* Mean relative error of every family's constraints on the predicted positions. */
static float MeanError(const pbdWorld* w)
{
	double sum = 0.0;
	int32_t count = 0;
	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->error) pbd_families[f]->error(w, w->families[f], w->p, NULL, &sum, &count);
	}
	return count > 0 ? (float)(sum / count) : 0.0f;
}

/* Gauss-Seidel passes. Each family solves its colours one after the other, each colour in
   one call (the kernels loop inside the family), so the dispatch costs a few indirect calls
   per family and colour, never per constraint. The registry's order is the physics' order:
   the ground comes last in every pass, so no particle ends the solve below it. */
static void Stage_Solve(pbdWorld* w, pbdStepContext* ctx)
{
	for (int pass = 0; pass < ctx->passes; ++pass) {
		ctx->pass = pass;
		FOR_EACH_FAMILY(f)
		{
			const pbdFamily* family = pbd_families[f];
			if (family->solve == NULL) continue;
			void* state = w->families[f];
			const int32_t colours = family->colourCount(w, state);
			for (int32_t c = 0; c < colours; ++c) {
				int32_t serial = 0;
				const int32_t size = family->colourSize(w, state, c, &serial);
				if (size > 0) family->solve(w, state, ctx, c, 0, size);
			}
		}
		/* The convergence curve (seed 001 section 4.4): mean error after every pass. */
		if (ctx->recordConvergence && w->convergenceCount < PBD_MAX_CONVERGENCE) {
			w->convergence[w->convergenceCount++] = MeanError(w);
		}
	}
}

/* ---------------------------------------------------------------- update */

static void Stage_Update(pbdWorld* w, pbdStepContext* ctx)
{
	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->update) pbd_families[f]->update(w, w->families[f], ctx);
	}
}

/* ---------------------------------------------------------------- velocities */

/* v = (p - x) / h, then the families' velocity passes in reverse registry order: the ground,
   projected last in every pass, sets its bounce first and the colliders theirs after it, so
   a particle that bounced off both in one substep keeps the collider's, as before the
   registry (the recorded hashes happen not to depend on it; other scenes could). */
static void Stage_Velocities(pbdWorld* w, pbdStepContext* ctx)
{
	const pbdF4 h = pbdF4_Splat(ctx->h);
	const int n = w->particleCount;
	for (int i = 0; i < n; ++i) {
		pbdF4 x = pbdF4_Load(w->x + 4 * i);
		pbdF4 p = pbdF4_Load(w->p + 4 * i);
		pbdF4_Store(w->v + 4 * i, pbdF4_Div(pbdF4_Sub(p, x), h)); /* w lane: (w - w) / h = 0 */
	}
	for (int f = pbdFamily_count - 1; f >= 0; --f) {
		if (pbd_families[f]->velocities) pbd_families[f]->velocities(w, w->families[f], ctx);
	}
}

/* ---------------------------------------------------------------- commit */

/* The velocity passes and the commit in one sweep over the particles, since each touches a
   particle's own v and p only (at 100k particles and 10 substeps the two separate sweeps
   cost 2.3 ms a step natively, this one 0.8 with its fast path). Per particle, in this order:
     damping      v <- v / (1 + c h): unconditionally stable and exact to apply after the
                  velocity update, so damping carries into the next prediction;
     speed bound  |v| <= maxSpeed keeps hostile inputs (huge drags, tiny masses) finite;
                  it bounds the displacement as well: within a substep no particle moves
                  more than maxSpeed h from where it started. When |p - x| > maxSpeed h, p is
                  pulled back along p - x to that distance and v is scaled by the same factor,
                  so v stays the (damped) velocity (p - x) / h of seed 000 (2.3) and a target
                  teleported far away is followed at maxSpeed, not jumped to in one substep;
     world bound  a particle thrown past +-1e5 stops there;
     commit       x = p. */
static void Stage_Commit(pbdWorld* w, pbdStepContext* ctx)
{
	const float c = w->params[pbdParam_damping];
	const pbdF4 damp = pbdF4_Splat(1.0f / (1.0f + c * ctx->h));
	const float maxSpeed = w->params[pbdParam_maxSpeed];
	const float maxSpeed2 = maxSpeed * maxSpeed;
	const float maxMove = maxSpeed * ctx->h;
	const float maxMove2 = maxMove * maxMove;
	const float limit = PBD_COORD_LIMIT;
	/* Fast path: no |v| component reaches maxSpeed / 2 (so |v|^2 <= 3/4 maxSpeed^2), no |p - x|
	   component reaches maxSpeed h / 2 and no |p| component passes the limit: nothing to bound.
	   Otherwise the exact checks below, so the result is the same either way. The w lanes
	   compare against +inf: never. */
	const float inf = 1.0f / 0.0f;
	const pbdF4 vCap = pbdF4_Set(0.5f * maxSpeed, 0.5f * maxSpeed, 0.5f * maxSpeed, inf);
	const pbdF4 dCap = pbdF4_Set(0.5f * maxMove, 0.5f * maxMove, 0.5f * maxMove, inf);
	const pbdF4 pCap = pbdF4_Set(limit, limit, limit, inf);
	const int n = w->particleCount;
	for (int i = 0; i < n; ++i) {
		float* vi = w->v + 4 * i;
		float* p = w->p + 4 * i;
		const float* xi = w->x + 4 * i;
		const pbdF4 v = pbdF4_Mul(pbdF4_Load(vi), damp);
		const pbdF4 pp = pbdF4_Load(p);
		const pbdF4 d = pbdF4_Sub(pp, pbdF4_Load(xi));
		pbdF4_Store(vi, v);
		/* !(|v| < cap) also catches NaN, which then goes the exact way */
		if ((pbdF4_LessBits(pbdF4_Abs(v), vCap) & pbdF4_LessBits(pbdF4_Abs(d), dCap) & pbdF4_LessBits(pbdF4_Abs(pp), pCap)) ==
			0xfu) {
			pbdF4_Store(w->x + 4 * i, pp);
			continue;
		}
		float dx = p[0] - xi[0], dy = p[1] - xi[1], dz = p[2] - xi[2];
		float d2 = dx * dx + dy * dy + dz * dz;
		if (d2 > maxMove2) {
			float f = maxMove / sqrtf(d2);
			p[0] = xi[0] + dx * f;
			p[1] = xi[1] + dy * f;
			p[2] = xi[2] + dz * f;
			vi[0] *= f;
			vi[1] *= f;
			vi[2] *= f;
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

typedef void (*pbdStageFn)(pbdWorld*, pbdStepContext*);

static const pbdStageFn s_stages[pbdStage_count] = {
	[pbdStage_predict] = Stage_Predict,
	[pbdStage_contacts] = Stage_Contacts,
	[pbdStage_solve] = Stage_Solve,
	[pbdStage_update] = Stage_Update,
	[pbdStage_velocities] = Stage_Velocities,
	[pbdStage_commit] = Stage_Commit,
};

void pbd_Solver_Step(pbdWorld* w)
{
	pbdStepContext ctx;
	ctx.substeps = (int)w->params[pbdParam_substeps];
	ctx.passes = (int)w->params[pbdParam_iterations];
	ctx.dt = w->params[pbdParam_dt];
	ctx.h = ctx.dt / (float)ctx.substeps;
	ctx.substep = 0;
	ctx.pass = 0;
	ctx.alpha = 0.0f;
	ctx.recordConvergence = w->params[pbdParam_recordConvergence] != 0.0f;
	w->convergenceCount = 0;

	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->prepareStep) pbd_families[f]->prepareStep(w, w->families[f], &ctx);
	}
	for (int s = 0; s < ctx.substeps; ++s) {
		ctx.substep = s;
		/* colliders move a share of their motion each substep, so a fast drag sweeps through
		   the cloth in steps instead of teleporting past it */
		ctx.alpha = (float)(s + 1) / (float)ctx.substeps;
		ctx.pass = 0;
		for (int stage = 0; stage < pbdStage_count; ++stage) s_stages[stage](w, &ctx);
	}
	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->endStep) pbd_families[f]->endStep(w, w->families[f], &ctx);
	}
	w->steps += 1;
}

int pbd_World_Step(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbd_Solver_Step(w);
	return PBD_OK;
}
