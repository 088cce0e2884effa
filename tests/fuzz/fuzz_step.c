/* fuzz_step.c -- the calls of the API fuzzer that change particle state and settings, and the
   step itself: set position, velocity, mass and inverse mass, any parameter to any float,
   object stiffness, step, pair search. See fuzz_ops.c for the pattern. */
#include "fuzz_world.h"
#include "host/threads.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V3 "(%g, %g, %g)"
#define A3(v) (double)(v)[0], (double)(v)[1], (double)(v)[2]

/* ---------------------------------------------------------------- particles */

/* After a successful set on particle i: only its own x (xyz, or w) or v changed, to `want`. */
static void CheckParticle(Fuzz* f, pbdWorldId world, int i, const float* wantX, const float* wantV, const char* what)
{
	const FuzzSnapshot* b = &SlotOf(f, world)->before;
	int32_t n = 0;
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, &n);
	const float* v = pbd_World_GetBuffer(world, pbdBuffer_velocities, NULL);
	FUZZ_CHECK(n == b->particles && i >= 0 && i < n, "%s accepted particle %d of %d", what, i, n);
	for (int j = 0; j < n; ++j) {
		const float* ex = j == i ? wantX : b->x + 4 * j;
		const float* ev = j == i ? wantV : b->v + 4 * j;
		FUZZ_CHECK(memcmp(x + 4 * j, ex, 16) == 0, "%s(%d): particle %d's position is (%g, %g, %g, %g), expected (%g, %g, %g, %g)",
				   what, i, j, (double)x[4 * j], (double)x[4 * j + 1], (double)x[4 * j + 2], (double)x[4 * j + 3], (double)ex[0],
				   (double)ex[1], (double)ex[2], (double)ex[3]);
		FUZZ_CHECK(memcmp(v + 4 * j, ev, 16) == 0, "%s(%d): particle %d's velocity is " V3 ", expected " V3, what, i, j,
				   A3(v + 4 * j), A3(ev));
	}
}

static void OpSetVector(Fuzz* f, int velocity)
{
	const char* what = velocity ? "SetVelocity" : "SetPosition";
	pbdWorldId world = ReadWorld(f);
	int i = FuzzIndex(&f->in, Particles(world));
	float a[3];
	Floats(f, a, 3);
	int rc = velocity ? pbd_World_SetVelocity(world, i, a[0], a[1], a[2]) : pbd_World_SetPosition(world, i, a[0], a[1], a[2]);
	Trace("%s(w%d, %d, " V3 ") -> %d", what, world, i, A3(a), rc);
	if (Result(f, rc, world, 0, what) < 0) return;
	FUZZ_CHECK(InBound(a), "%s accepted " V3, what, A3(a));
	const FuzzSnapshot* b = &SlotOf(f, world)->before;
	float x[4], v[4];
	memcpy(x, b->x + 4 * i, sizeof x);
	memcpy(v, b->v + 4 * i, sizeof v);
	if (!velocity) memcpy(x, a, sizeof a);
	else if (x[3] != 0.0f) memcpy(v, a, sizeof a); /* pins keep no velocity */
	CheckParticle(f, world, i, x, v, what);
}

void OpSetPosition(Fuzz* f) { OpSetVector(f, 0); }
void OpSetVelocity(Fuzz* f) { OpSetVector(f, 1); }

static void OpSetMassOrInverse(Fuzz* f, int inverse)
{
	const char* what = inverse ? "SetInvMass" : "SetMass";
	pbdWorldId world = ReadWorld(f);
	int i = FuzzIndex(&f->in, Particles(world));
	float m = FuzzFloat(&f->in);
	int rc = inverse ? pbd_World_SetInvMass(world, i, m) : pbd_World_SetMass(world, i, m);
	Trace("%s(w%d, %d, %g) -> %d", what, world, i, (double)m, rc);
	if (Result(f, rc, world, 0, what) < 0) return;
	/* docs/api.md: masses in [1e-6, 1e6] kg; inverse masses in [0, 1e6] */
	if (inverse) FUZZ_CHECK(m >= 0.0f && m <= 1e6f, "SetInvMass accepted %g", (double)m);
	else FUZZ_CHECK(m >= 1e-6f && m <= 1e6f, "SetMass accepted %g", (double)m);
	const FuzzSnapshot* b = &SlotOf(f, world)->before;
	float x[4], v[4];
	memcpy(x, b->x + 4 * i, sizeof x);
	memcpy(v, b->v + 4 * i, sizeof v);
	x[3] = inverse ? m : 1.0f / m;
	if (x[3] == 0.0f) v[0] = v[1] = v[2] = 0.0f; /* a pin has no velocity */
	CheckParticle(f, world, i, x, v, what);
}

void OpSetMass(Fuzz* f) { OpSetMassOrInverse(f, 0); }
void OpSetInvMass(Fuzz* f) { OpSetMassOrInverse(f, 1); }

/* ---------------------------------------------------------------- parameters */

/* A value for parameter p: any float, or one of its range's ends, its default, a point inside
   the range, or the float just outside an end. */
static float ParamValue(Fuzz* f, int p)
{
	uint8_t mode = FuzzU8(&f->in) % 8;
	pbdParamInfo info;
	if (mode < 3 || pbd_GetParamInfo(p, &info) != PBD_OK) return FuzzFloat(&f->in);
	switch (mode) {
	case 3: return info.minValue;
	case 4: return info.maxValue;
	case 5: return info.defaultValue;
	case 6: {
		float t = (float)FuzzU8(&f->in) / 255.0f;
		/* counts (substeps, passes) mostly small: the work bound skips steps that cost too much */
		if (info.flags & (PBD_PARAM_INTEGER | PBD_PARAM_BOOLEAN)) return roundf(info.minValue + t * t * t * (info.maxValue - info.minValue));
		return info.minValue + t * (info.maxValue - info.minValue);
	}
	default: return FuzzU8(&f->in) & 1 ? nextafterf(info.maxValue, INFINITY) : nextafterf(info.minValue, -INFINITY);
	}
}

void OpSetParam(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int p = FuzzIndex(&f->in, pbdParam_count);
	float value = ParamValue(f, p);
	int rc = pbd_World_SetParam(world, (pbdParam)p, value);
	Trace("SetParam(w%d, %d %s, %.9g) -> %d", world, p, pbd_ParamName(p) ? pbd_ParamName(p) : "?", (double)value, rc);
	if (Result(f, rc, world, 0, "SetParam") < 0) {
		if (p < 0 || p >= pbdParam_count) FUZZ_CHECK(rc == PBD_ERR_UNKNOWN_PARAM || rc == PBD_ERR_INVALID_WORLD, "SetParam(%d): %d", p, rc);
	}
	if (SlotOf(f, world) == NULL) return;
	/* One parameter table: the call accepts exactly what pbd_GetParamInfo describes. */
	pbdParamInfo info;
	int known = pbd_GetParamInfo(p, &info) == PBD_OK;
	int whole = known && (info.flags & (PBD_PARAM_INTEGER | PBD_PARAM_BOOLEAN));
	int valid = known && isfinite(value) && value >= info.minValue && value <= info.maxValue && (!whole || value == floorf(value));
	/* The one rule beyond the table: a thickness reaches at most 2 x PBD_MAX_RADIUS_SPACINGS spacings of every object
	   whose particles take thickness / 2 (params.c). A value in the row's range refused for it must say so. */
	if (valid && rc == PBD_ERR_INVALID_ARGUMENT && p == pbdParam_thickness) {
		const char* why = pbd_World_GetLastErrorMessage(world);
		FUZZ_CHECK(why != NULL && strstr(why, "particle spacings") != NULL, "SetParam(thickness, %.9g) refused for: %s", (double)value,
				   why ? why : "(no message)");
		return;
	}
	FUZZ_CHECK((rc >= 0) == valid, "SetParam(%s, %.9g) %s, but its table row says [%g, %g]%s", known ? info.name : "?", (double)value,
			   rc >= 0 ? "was accepted" : "was refused", known ? (double)info.minValue : 0.0, known ? (double)info.maxValue : 0.0,
			   whole ? ", whole" : "");
	if (rc < 0) return;
	FUZZ_CHECK(memcmp(&(float){ pbd_World_GetParam(world, (pbdParam)p) }, &value, sizeof value) == 0, "GetParam(%s) reads %g after setting %g",
			   info.name, (double)pbd_World_GetParam(world, (pbdParam)p), (double)value);
	const FuzzSnapshot* b = &SlotOf(f, world)->before;
	for (int q = 0; q < pbdParam_count; ++q) {
		if (q != p) FUZZ_CHECK(memcmp(&(float){ pbd_World_GetParam(world, (pbdParam)q) }, &b->params[q], sizeof(float)) == 0,
							   "SetParam(%s) changed %s", info.name, pbd_ParamName(q));
	}
	SameParticles(SlotOf(f, world), world, "SetParam");
}

void OpSetStiffness(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int object = FuzzIndex(&f->in, pbd_World_GetObjectCount(world) > 0 ? pbd_World_GetObjectCount(world) : 0);
	int kind = FuzzIndex(&f->in, pbdKind_count);
	float k = FuzzFloat(&f->in);
	int rc = pbd_World_SetObjectStiffness(world, object, (pbdConstraintKind)kind, k);
	Trace("SetObjectStiffness(w%d, object %d, kind %d, %g) -> %d", world, object, kind, (double)k, rc);
	if (Result(f, rc, world, 0, "SetObjectStiffness") < 0) return;
	FUZZ_CHECK(k >= 0.0f && k <= 1.0f && kind >= 0 && kind < pbdKind_count, "SetObjectStiffness accepted kind %d, %g", kind, (double)k);
	SameParticles(SlotOf(f, world), world, "SetObjectStiffness");
}

/* Every category and mask is valid (services/materials.h): accepted for an object of the world, read back as set,
   refused for any other index; the particles stay where they were either way. */
void OpSetFilter(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int object = FuzzIndex(&f->in, pbd_World_GetObjectCount(world) > 0 ? pbd_World_GetObjectCount(world) : 0);
	uint32_t category = FuzzU32(&f->in), mask = FuzzU32(&f->in);
	int rc = pbd_World_SetObjectFilter(world, object, category, mask);
	Trace("SetObjectFilter(w%d, object %d, 0x%08x, 0x%08x) -> %d", world, object, (unsigned)category, (unsigned)mask, rc);
	if (Result(f, rc, world, 0, "SetObjectFilter") < 0) return;
	uint32_t got[2] = { 0, 0 };
	FUZZ_CHECK(pbd_World_GetObjectFilter(world, object, got) == PBD_OK && got[0] == category && got[1] == mask,
			   "GetObjectFilter(%d) reads 0x%08x 0x%08x after setting 0x%08x 0x%08x", object, (unsigned)got[0], (unsigned)got[1],
			   (unsigned)category, (unsigned)mask);
	SameParticles(SlotOf(f, world), world, "SetObjectFilter");
}

/* ---------------------------------------------------------------- step */

void OpStep(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int steps = 1 + FuzzU8(&f->in) % 4;
	FuzzSlot* slot = SlotOf(f, world);
	double cost = slot ? FuzzStepCost(world, steps, &slot->before) : 0.0;
	if (f->work + cost > FUZZ_WORK_BUDGET) {
		Trace("Step(w%d) x %d skipped: %.3g of work, %.3g left", world, steps, cost, FUZZ_WORK_BUDGET - f->work);
		f->work = FUZZ_WORK_BUDGET; /* the input ends here */
		return;
	}
	f->work += cost;
	for (int s = 0; s < steps; ++s) {
		if (s > 0) TakeAll(f);
		int rc = pbd_World_Step(world);
		Trace("Step(w%d) -> %d", world, rc);
		if (Result(f, rc, world, 0, "Step") < 0) {
			FUZZ_CHECK(rc == PBD_ERR_INVALID_WORLD, "Step refused a live world: %d", rc);
			return;
		}
		slot->midStep = 0; /* a whole step ends the one taken in slices */
		FuzzCheckAfterStep(&slot->before, world);
	}
}

/* ---------------------------------------------------------------- threads */

/* The harness's one team of 4 (host/threads.h), started at its first use and kept for the process,
   so the fuzzer steps worlds with 1 to 4 threads (the threaded build) without a thread start per input. */
#define FUZZ_TEAM_THREADS 4
static pbdThreads* s_team;

/* Threads (b & 7) - 1, -1..6, on the team or (b & 0x80) on none: 1..4 (1 without a team) are
   taken and read back; anything else is refused and leaves the world as it was. Nothing the
   world hashes changes either way. */
void OpSetThreads(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	const uint8_t b = FuzzU8(&f->in);
	const int threads = (int)(b & 7) - 1, alone = (b & 0x80) != 0;
	if (!alone && s_team == NULL) {
		s_team = pbd_Threads_Start(FUZZ_TEAM_THREADS);
		FUZZ_CHECK(s_team != NULL, "could not start a team of %d threads", FUZZ_TEAM_THREADS);
	}
	const int max = alone ? 1 : FUZZ_TEAM_THREADS;
	const int live = SlotOf(f, world) != NULL;
	const int32_t was = live ? pbd_World_GetThreads(world) : 0;
	const int rc = pbd_World_SetThreads(world, alone ? NULL : pbd_Threads_Team(s_team), threads);
	Trace("SetThreads(w%d, %s, %d) -> %d", world, alone ? "no team" : "team of 4", threads, rc);
	if (Result(f, rc, world, 1, "SetThreads") < 0) {
		FUZZ_CHECK(!live || threads < 1 || threads > max, "SetThreads refused %d threads (at most %d)", threads, max);
		FUZZ_CHECK(!live || pbd_World_GetThreads(world) == was, "a refused SetThreads changed the thread count");
		return;
	}
	FUZZ_CHECK(threads >= 1 && threads <= max, "SetThreads took %d threads (at most %d)", threads, max);
	FUZZ_CHECK(pbd_World_GetThreads(world) == threads, "GetThreads is %d after SetThreads(%d)", pbd_World_GetThreads(world), threads);
}

/* 1 + b % 8 units of the step in progress (or a new one): the units left, or 0 when the step
   finished. The state is checked as after a step (finite, in bounds, pins kept) when the step
   finished: in the middle of one, velocities are the prediction's v* or (p - x) / h before the
   commit bounds them (the fuzzer found 623 m/s there, legitimately), and the check comes with
   the slice or step that ends it. */
void OpStepSlice(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	const int units = 1 + FuzzU8(&f->in) % 8;
	FuzzSlot* slot = SlotOf(f, world);
	const double cost = slot ? FuzzStepCost(world, 1, &slot->before) : 0.0;
	if (f->work + cost > FUZZ_WORK_BUDGET) {
		f->work = FUZZ_WORK_BUDGET;
		return;
	}
	f->work += cost;
	const int32_t rc = pbd_World_StepSlice(world, units);
	Trace("StepSlice(w%d, %d) -> %d", world, units, rc);
	if (Result(f, rc, world, 0, "StepSlice") < 0) {
		FUZZ_CHECK(rc == PBD_ERR_INVALID_WORLD, "StepSlice refused a live world: %d", rc);
		return;
	}
	slot->midStep = rc > 0;
	if (rc == 0) FuzzCheckAfterStep(&slot->before, world);
}

void OpFindPairs(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	f->work += 30.0 * Particles(world);
	int rc = pbd_World_FindPairs(world);
	Trace("FindPairs(w%d) -> %d", world, rc);
	Result(f, rc, world, 1, "FindPairs");
}
