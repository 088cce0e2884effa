/* world/step.c -- the step, as the named stages of core.h's pbdStage, following seed 000. This file and that
   enum are the one statement of the algorithm; the other places that describe it (families/family.h, the
   families' files, docs/architecture.md) point here. The constraint families (families/family.h) plug into the
   stages through the registry, each stage calling the hook of its name; this file holds only what belongs to
   every particle (prediction, the velocity update, damping, the bounds and the commit) and the order of things:

     start              per step: start hooks (k' for the pass count, shares, tethers, the shapes' rest
                        normals; the fluid's emit, drain and sort)
     per substep of h = dt / substeps:
       predict          forces hooks (wind) into world->force, then
                        v* = v + h w f_ext;  p = x + h v*                   (2.1)
       contacts         findContacts hooks: particle pairs, the fluid's lists, collider frames, ground flags
       solve            ns Gauss-Seidel passes; in each, every family in registry order,
                        colour by colour; each constraint moves
                        dp_i = -k' w_i C / sum_j w_j |grad_j C|^2 grad_i C   (2.2)
                        with k' = 1 - (1 - k)^(1/ns) so the stiffness seen after ns
                        passes is k whatever ns is; then the convergence record
       update           update hooks: tearing, plasticity (soft edges, rigid shapes),
                        the shapes family's mass scaling undone
       velocities       v = (p - x) / h                                     (2.3), then the
                        velocities hooks in reverse registry order: restitution (ground, colliders),
                        the fluid's vorticity and XSPH
       commit           damping, speed bound (velocity and displacement), world bound, x = p
     end                per step: end hooks (colliders: the motion's start moves to its end)

   Damping and restitution act after v is recomputed from positions. Seed 001's snippet
   damps v before that recomputation, which throws the damping away. */
#include "families/family.h"
#include "base/simd.h"
#include "base/tasks.h"

#include <math.h>

#define FOR_EACH_FAMILY(f) for (int f = 0; f < pbdFamily_count; ++f)

/* ---------------------------------------------------------------- predict */

typedef struct PredictBlock {
	pbdWorld* w;
	pbdF4 hg;
	float h;
	int forced;
	float* previous; ///< the step's first substep, pbd_World_KeepPrevious: x copied here as it is read
} PredictBlock;

static void PredictParticles(void* data, int32_t begin, int32_t end)
{
	const PredictBlock* b = data;
	pbdWorld* w = b->w;
	const pbdF4 hg = b->hg;
	const pbdF4 h = pbdF4_Splat(b->h);
	const pbdF4 zero = pbdF4_Splat(0.0f);
	for (int i = begin; i < end; ++i) {
		pbdF4 x = pbdF4_Load(w->x + 4 * i);
		pbdF4 v = pbdF4_Load(w->v + 4 * i);
		if (b->previous != NULL) pbdF4_Store(b->previous + 4 * i, x);
		float invMass = pbdF4_Get(x, 3);
		/* w f_ext = g for every particle that has mass to move; pins (w = 0) get none. */
		v = pbdF4_Add(v, invMass > 0.0f ? hg : zero);
		if (b->forced && invMass > 0.0f) v = pbdF4_Add(v, pbdF4_Mul(pbdF4_Splat(b->h * invMass), pbdF4_Load(w->force + 4 * i)));
		pbdF4_Store(w->v + 4 * i, v);
		pbdF4_Store(w->p + 4 * i, pbdF4_Add(x, pbdF4_Mul(h, v))); /* v.w = 0 keeps p.w = x.w = w */
	}
}

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
	/* the positions the renderer blends from: the committed x of the last step, after this step's start (emitters,
	   drains and the fluid's cell sort have moved particles between slots there), read here anyway */
	float* previous = w->keepPrevious && ctx->substep == 0 ? w->previous : NULL;
	PredictBlock b = { w, pbdF4_Set(ctx->h * g[0], ctx->h * g[1], ctx->h * g[2], 0.0f), ctx->h, w->forceActive, previous };
	pbd_Parallel_For(w, w->particleCount, PBD_PARTICLE_BLOCK, PredictParticles, &b);
}

/* ---------------------------------------------------------------- the step's start, contacts */

/* The families whose hook runs in the start stage (start), in the contacts stage (findContacts) and in the
   velocities stage, from registry position `from` on: each is a slice unit of its own at least, so the self-contacts'
   search and the fluid's neighbour lists are two units, not one. */
static int HasStartHook(int32_t f) { return pbd_families[f]->start != NULL; }
static int HasContactsHook(int32_t f) { return pbd_families[f]->findContacts != NULL; }
static int HasVelocitiesHook(int32_t f) { return pbd_families[f]->velocities != NULL; }
static int32_t NextHook(int (*has)(int32_t), int32_t f)
{
	while (f < pbdFamily_count && !has(f)) ++f;
	return f;
}
static int32_t HooksFrom(int (*has)(int32_t), int32_t f)
{
	int32_t n = 0;
	for (; f < pbdFamily_count; ++f) n += has(f);
	return n;
}

/* One slice unit of the step's start (start hooks) or of the contacts stage (findContacts), or with `whole`
   all of it that is left: at the cursor w->sliceFamily, a unit of the family's hook cut by its work
   (startUnit, findContactsUnit: PBD_SLICE_WORK a unit) or its whole hook when it has none; a family's units run
   one after the other, nothing between them. Returns 1 when the stage is done. */
static int Stage_Families(pbdWorld* w, pbdStepContext* ctx, int whole, int contacts)
{
	int (*has)(int32_t) = contacts ? HasContactsHook : HasStartHook;
	int32_t f = NextHook(has, w->sliceFamily);
	while (f < pbdFamily_count) {
		const pbdFamily* family = pbd_families[f];
		int (*unit)(pbdWorld*, void*, const pbdStepContext*, int) = contacts ? family->findContactsUnit : family->startUnit;
		if (unit != NULL) {
			if (!unit(w, w->families[f], ctx, whole)) {
				w->sliceFamily = f; /* more of it */
				return 0;
			}
		} else if (contacts) {
			family->findContacts(w, w->families[f], ctx);
		} else {
			family->start(w, w->families[f], ctx);
		}
		f = NextHook(has, f + 1);
		if (!whole) break;
	}
	w->sliceFamily = f < pbdFamily_count ? f : 0;
	return f >= pbdFamily_count;
}

/* Slice units of the start stage (pbdStage_start) or a contacts stage from family `cursor` on: the one in progress
   (`current`: the family at the cursor may be part way) or one to come, as the families count them. At least 1. */
static int32_t FamiliesUnitsFrom(const pbdWorld* w, int32_t stage, int32_t cursor, int current)
{
	int (*has)(int32_t) = stage == pbdStage_contacts ? HasContactsHook : HasStartHook;
	int64_t n = 0;
	for (int32_t f = NextHook(has, cursor); f < pbdFamily_count; f = NextHook(has, f + 1)) {
		const pbdFamily* family = pbd_families[f];
		const int32_t k = family->unitsLeft != NULL ? family->unitsLeft(w, w->families[f], stage, current && f == cursor) : 1;
		n += k > 0 ? k : 1;
	}
	return n < 1 ? 1 : n < 0x3fffffff ? (int32_t)n : 0x3fffffff;
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

/* A colour's range [begin, end) that is not serial, shared out in blocks: its constraints share
   no particle, so the blocks may run in any order on any thread (families/family.h, Colours). */
typedef struct ColourBlock {
	pbdWorld* w;
	const pbdFamily* family;
	void* state;
	const pbdStepContext* ctx;
	int32_t colour, begin;
} ColourBlock;

static void SolveColour(void* data, int32_t begin, int32_t end)
{
	const ColourBlock* b = data;
	b->family->solve(b->w, b->state, b->ctx, b->colour, b->begin + begin, b->begin + end);
}

/* Constraints per slice unit of a family (family.h sliceSize): a multiple of its block, so a
   unit's blocks are those a thread would have taken. */
static int32_t SliceSize(const pbdWorld* w, int32_t f)
{
	const pbdFamily* family = pbd_families[f];
	if (family->sliceItems != NULL) {
		const int32_t items = family->sliceItems(w, w->families[f]);
		return items > 0 ? items : 1;
	}
	if (family->sliceSize < 0) return 0x7fffffff;
	const int32_t block = family->blockSize > 0 ? family->blockSize : PBD_DEFAULT_BLOCK;
	const int32_t items = family->sliceSize > 0 ? family->sliceSize : PBD_SLICE_ITEMS;
	return items <= block ? block : items / block * block;
}

/* Moves the pass's cursor (family, colour, first constraint) to the next range that has work,
   starting at the cursor itself; returns 0 when the pass has none left. The colours' sizes do
   not change within a pass (the contacts stage fixed them). */
static int NextRange(const pbdWorld* w, int32_t* family, int32_t* colour, int32_t* begin, int32_t* size, int32_t* serial)
{
	for (; *family < pbdFamily_count; ++*family, *colour = 0, *begin = 0) {
		const pbdFamily* fam = pbd_families[*family];
		if (fam->solve == NULL) continue;
		const void* state = w->families[*family];
		const int32_t colours = fam->colourCount(w, state);
		for (; *colour < colours; ++*colour, *begin = 0) {
			*size = fam->colourSize(w, state, *colour, serial);
			if (*begin < *size) return 1;
		}
	}
	return 0;
}

/* Slice units from the cursor to the end of the pass (at least 1: a pass with nothing to solve
   is still the unit that records its convergence). */
static int32_t PassUnitsFrom(const pbdWorld* w, int32_t family, int32_t colour, int32_t begin)
{
	int32_t units = 0, size, serial;
	while (NextRange(w, &family, &colour, &begin, &size, &serial)) {
		const int32_t slice = SliceSize(w, family);
		units += (size - begin - 1) / slice + 1;
		begin = size;
	}
	return units > 0 ? units : 1;
}

/* One unit of a Gauss-Seidel pass (ctx->pass): from the cursor, a range of at most the family's
   slice size of one colour, or with `whole` the rest of that colour. Each family solves its
   colours one after the other; a colour is one call (the kernels loop inside the family), or
   with threads its blocks, so the dispatch costs a few indirect calls per family and colour,
   never per constraint. Cutting a colour into ranges changes no bit: a colour that is not
   serial may be solved in any ranges (family.h), a serial one is solved in order, range after
   range, as in one call. The registry's order is the physics' order: the ground comes last in
   every pass, so no particle ends the solve below it. Returns 1 when the pass is done. */
static int SolvePassUnit(pbdWorld* w, pbdStepContext* ctx, int whole)
{
	int32_t size = 0, serial = 0;
	if (NextRange(w, &w->sliceFamily, &w->sliceColour, &w->sliceBegin, &size, &serial)) {
		const pbdFamily* family = pbd_families[w->sliceFamily];
		void* state = w->families[w->sliceFamily];
		const int32_t c = w->sliceColour, begin = w->sliceBegin;
		const int32_t slice = SliceSize(w, w->sliceFamily);
		const int32_t end = whole || size - begin <= slice ? size : begin + slice;
		if (serial || !w->teamActive) family->solve(w, state, ctx, c, begin, end);
		else {
			ColourBlock b = { w, family, state, ctx, c, begin };
			pbd_Parallel_For(w, end - begin, family->blockSize > 0 ? family->blockSize : PBD_DEFAULT_BLOCK, SolveColour, &b);
		}
		w->sliceBegin = end;
		if (NextRange(w, &w->sliceFamily, &w->sliceColour, &w->sliceBegin, &size, &serial)) return 0;
	}
	w->sliceFamily = w->sliceColour = w->sliceBegin = 0;
	/* The convergence curve (seed 001 section 4.4): mean error after every pass. */
	if (ctx->recordConvergence && w->convergenceCount < PBD_MAX_CONVERGENCE) {
		w->convergence[w->convergenceCount++] = MeanError(w);
	}
	return 1;
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

typedef struct ParticleBlock {
	pbdWorld* w;
	const pbdStepContext* ctx;
} ParticleBlock;

static void UpdateVelocities(void* data, int32_t begin, int32_t end)
{
	const ParticleBlock* b = data;
	pbdWorld* w = b->w;
	const pbdF4 h = pbdF4_Splat(b->ctx->h);
	for (int i = begin; i < end; ++i) {
		pbdF4 x = pbdF4_Load(w->x + 4 * i);
		pbdF4 p = pbdF4_Load(w->p + 4 * i);
		pbdF4_Store(w->v + 4 * i, pbdF4_Div(pbdF4_Sub(p, x), h)); /* w lane: (w - w) / h = 0 */
	}
}

/* v = (p - x) / h, then the families' velocity passes in reverse registry order: the ground,
   projected last in every pass, sets its bounce first and the colliders theirs after it, so
   a particle that bounced off both in one substep keeps the collider's, as before the
   registry (the recorded hashes happen not to depend on it; other scenes could). One slice unit
   for v and one per family hook (with `whole`, all): the cursor w->sliceFamily counts the
   units done, 0 the sweep, k the k-th hook from the registry's end. Returns 1 when done. */
static int Stage_Velocities(pbdWorld* w, pbdStepContext* ctx, int whole)
{
	int32_t k = w->sliceFamily;
	do {
		if (k == 0) {
			ParticleBlock b = { w, ctx };
			pbd_Parallel_For(w, w->particleCount, PBD_PARTICLE_BLOCK, UpdateVelocities, &b);
			k = 1;
		} else {
			/* the next family with a hook, from the registry's end */
			int32_t f = pbdFamily_count - k;
			while (f >= 0 && !HasVelocitiesHook(f)) --f;
			if (f < 0) break;
			const pbdFamily* family = pbd_families[f];
			if (family->velocitiesUnit != NULL && !family->velocitiesUnit(w, w->families[f], ctx, whole)) break; /* more of it */
			if (family->velocitiesUnit == NULL) family->velocities(w, w->families[f], ctx);
			k = pbdFamily_count - f + 1;
		}
	} while (whole);
	/* done when no hook is left below the cursor */
	int32_t f = pbdFamily_count - k;
	while (f >= 0 && !HasVelocitiesHook(f)) --f;
	w->sliceFamily = f >= 0 ? k : 0;
	return f < 0;
}

/* Slice units of the velocities stage from its cursor (at least 1). */
static int32_t VelocitiesUnitsFrom(int32_t cursor)
{
	if (cursor == 0) return 1 + HooksFrom(HasVelocitiesHook, 0);
	int32_t n = 0;
	for (int32_t f = pbdFamily_count - cursor; f >= 0; --f) n += HasVelocitiesHook(f);
	return n;
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
static void CommitParticles(void* data, int32_t begin, int32_t end)
{
	const ParticleBlock* b = data;
	pbdWorld* w = b->w;
	const pbdStepContext* ctx = b->ctx;
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
	for (int i = begin; i < end; ++i) {
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

static void Stage_Commit(pbdWorld* w, pbdStepContext* ctx)
{
	ParticleBlock b = { w, ctx };
	pbd_Parallel_For(w, w->particleCount, PBD_PARTICLE_BLOCK, CommitParticles, &b);
}

/* ---------------------------------------------------------------- end */

static void Stage_End(pbdWorld* w, pbdStepContext* ctx)
{
	FOR_EACH_FAMILY(f)
	{
		if (pbd_families[f]->end) pbd_families[f]->end(w, w->families[f], ctx);
	}
}

/* ---------------------------------------------------------------- step */

/* A step is a sequence of stage units, so that it can be taken in slices (pbd_World_StepSlice)
   with the same bits as in one go, and timed stage by stage (pbd_World_StepStage: the
   benchmark's scaling per stage):
     unit 0                    start
     per substep s, from 1 + s (ns + 5):
       +0                      predict
       +1                      contacts
       +2 .. +ns + 1           solve: Gauss-Seidel pass 0 .. ns - 1
       +ns + 2                 update
       +ns + 3                 velocities
       +ns + 4                 commit
     the last, 1 + substeps (ns + 5)   end
   The stages are the named ones of core.h's pbdStage, in that order. A slice cuts them finer, so
   that no unit is a whole pass, search or sort over a large cloth or fluid: the page that steps in
   slices answers its input between units (a click within 200 ms at the format's limits).
     a pass       slice units of at most a family's slice size of one colour (SolvePassUnit);
     the start,   per family, its hook, or when it has one its hook cut by its work
     contacts     (startUnit, findContactsUnit: the fluid's emit, drain and sort, the contacts'
                  grid and pair search, the fluid's grid and lists): units of about PBD_SLICE_WORK
                  pair tests, list entries or rows each, never more than that and one item (a
                  particle's slot, an O(n) build): world->sliceWork says how much a unit did;
     velocities   v, then each family's hook (the fluid's in blocks of particles).
   A whole step (pbd_Solver_Step) runs each colour, search and sort in one go, shared out over
   the step's threads; a step taken in slices of any size ends on its bits. The start runs
   BeginStep once however many slices it takes (stepBegun). */
#define UNITS_PER_SUBSTEP(ctx) ((ctx)->passes + 5)
static int32_t UnitCount(const pbdStepContext* ctx) { return 2 + ctx->substeps * UNITS_PER_SUBSTEP(ctx); }

/* The stage of unit `unit`, and its substep and pass (the end: the last substep's). */
static int32_t UnitStage(const pbdStepContext* ctx, int32_t unit, int32_t* substep, int32_t* pass)
{
	*substep = 0, *pass = 0;
	if (unit == 0) return pbdStage_start;
	if (unit == UnitCount(ctx) - 1) {
		*substep = ctx->substeps - 1;
		return pbdStage_end;
	}
	const int32_t k = (unit - 1) % UNITS_PER_SUBSTEP(ctx);
	*substep = (unit - 1) / UNITS_PER_SUBSTEP(ctx);
	if (k < 2) return k == 0 ? pbdStage_predict : pbdStage_contacts;
	if (k < ctx->passes + 2) {
		*pass = k - 2;
		return pbdStage_solve;
	}
	return pbdStage_update + (k - ctx->passes - 2);
}

/* Slice units left in the step in progress, counted with the colours' sizes of now: the passes
   of later substeps are counted with this substep's contacts, so the count may change when a
   contacts stage finds more or fewer pairs. At least 1 while the step is in progress. */
static int32_t SliceUnitsLeft(const pbdWorld* w)
{
	const pbdStepContext* ctx = &w->stepContext;
	const int32_t total = UnitCount(ctx);
	int32_t s, pass;
	if (w->stepUnit >= total) return 0;
	int64_t units = 0;
	int32_t passUnits = -1; /* a whole pass's, counted once */
	for (int32_t unit = w->stepUnit; unit < total; ++unit) {
		const int32_t stage = UnitStage(ctx, unit, &s, &pass);
		const int current = unit == w->stepUnit;
		const int32_t cursor = current ? w->sliceFamily : 0;
		if (stage == pbdStage_solve) {
			if (current) units += PassUnitsFrom(w, w->sliceFamily, w->sliceColour, w->sliceBegin);
			else units += passUnits >= 0 ? passUnits : (passUnits = PassUnitsFrom(w, 0, 0, 0));
		} else if (stage == pbdStage_contacts || stage == pbdStage_start) {
			units += FamiliesUnitsFrom(w, stage, cursor, current);
		} else if (stage == pbdStage_velocities) {
			units += VelocitiesUnitsFrom(cursor);
		} else {
			units += 1;
		}
	}
	return units < 0x7fffffff ? (int32_t)units : 0x7fffffff;
}

static void BeginStep(pbdWorld* w)
{
	pbdStepContext* ctx = &w->stepContext;
	ctx->substeps = (int)w->params[pbdParam_substeps];
	ctx->passes = (int)w->params[pbdParam_iterations];
	ctx->dt = w->params[pbdParam_dt];
	ctx->h = ctx->dt / (float)ctx->substeps;
	ctx->substep = 0;
	ctx->pass = 0;
	ctx->alpha = 0.0f;
	ctx->recordConvergence = w->params[pbdParam_recordConvergence] != 0.0f;
	w->convergenceCount = 0;
	w->stepBegun = 1;
	w->stepUnit = 0;
	w->sliceFamily = w->sliceColour = w->sliceBegin = 0;
}

/* Runs one slice unit of stage unit `unit` (with `whole`, all that is left of it); returns 1
   when the stage unit is done. */
static int RunUnit(pbdWorld* w, int32_t unit, int whole)
{
	pbdStepContext* ctx = &w->stepContext;
	int32_t s, pass;
	const int32_t stage = UnitStage(ctx, unit, &s, &pass);
	ctx->substep = s;
	ctx->pass = pass;
	/* colliders move a share of their motion each substep, so a fast drag sweeps through
	   the cloth in steps instead of teleporting past it */
	ctx->alpha = unit == 0 ? 0.0f : (float)(s + 1) / (float)ctx->substeps;
	w->sliceWork = 0;
	switch (stage) {
	case pbdStage_start: return Stage_Families(w, ctx, whole, 0);
	case pbdStage_predict: Stage_Predict(w, ctx); break;
	case pbdStage_contacts: return Stage_Families(w, ctx, whole, 1);
	case pbdStage_solve: return SolvePassUnit(w, ctx, whole);
	case pbdStage_update: Stage_Update(w, ctx); break;
	case pbdStage_velocities: return Stage_Velocities(w, ctx, whole);
	case pbdStage_commit: Stage_Commit(w, ctx); break;
	default: Stage_End(w, ctx); break;
	}
	return 1;
}

/* Runs at most `units` slice units of the step in progress (beginning one if none is), or with
   `whole` the rest of the step; returns the units left, 0 when the step is done. */
static int32_t Advance(pbdWorld* w, int32_t units, int whole)
{
	if (!w->stepBegun) BeginStep(w); /* once a step, however many slices its start (unit 0) takes */
	const int32_t total = UnitCount(&w->stepContext);
	pbdStepControl* control = w->stepControl;
	if (control != NULL) __atomic_store_n(&control->unitTotal, total, __ATOMIC_RELAXED);
	const int threaded = pbd_Team_Begin(w);
	while ((whole || units-- > 0) && w->stepUnit < total) {
		/* a host abandoning the world stops a whole step between two stage units (a pass at most) */
		if (control != NULL && __atomic_load_n(&control->request, __ATOMIC_RELAXED) == PBD_STEP_STOP_NOW) break;
		if (RunUnit(w, w->stepUnit, whole)) w->stepUnit++;
		if (control != NULL) __atomic_store_n(&control->unitDone, w->stepUnit, __ATOMIC_RELAXED);
	}
	if (threaded) pbd_Team_End(w);
	if (w->stepUnit < total) return SliceUnitsLeft(w);
	w->stepUnit = 0;
	w->stepBegun = 0;
	w->steps += 1;
	return 0;
}

void pbd_Solver_Step(pbdWorld* w) { Advance(w, 0, 1); }

int pbd_CheckNoStep(pbdWorld* w, const char* what)
{
	if (!pbd_StepInProgress(w)) return PBD_OK;
	return pbd_SetWorldError(w, PBD_ERR_STEP_IN_PROGRESS, "%s waits for the step's end (pbd_World_Step or more slices)", what);
}

int pbd_World_Step(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbd_Solver_Step(w);
	return PBD_OK;
}

int32_t pbd_World_StepSlice(pbdWorldId id, int32_t units)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (units < 1) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "units %d: at least 1", (int)units);
	return Advance(w, units, 0);
}

int32_t pbd_World_StepStage(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (w->stepUnit == 0) return pbdStage_start; /* the next unit begins a step, or is part of its start */
	int32_t s, pass;
	return UnitStage(&w->stepContext, w->stepUnit, &s, &pass);
}

const char* pbd_StageName(int32_t stage)
{
	static const char* const names[pbdStage_count] = { "predict", "contacts", "solve", "update", "velocities", "commit", "start", "end" };
	return stage >= 0 && stage < pbdStage_count ? names[stage] : NULL;
}

int pbd_World_SetThreads(pbdWorldId id, pbdTeam* team, int32_t threads)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	const int32_t max = pbd_Team_MaxThreads(team);
	if (threads < 1 || threads > max) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "threads %d: the team has %d", (int)threads, (int)max);
	}
	w->team = team;
	w->threads = threads;
	return PBD_OK;
}

int32_t pbd_World_GetThreads(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->threads;
}
