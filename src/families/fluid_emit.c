/* families/fluid_emit.c -- emitters (hoses) and drains: a fluid object's live range grows into its
   parked slots and closes up again.

   A fluid object owns the particles [first, first + capacity) from its creation (builders/fluid.c):
   the first `active` are live, the rest parked (w = 0, PBD_PHASE_INACTIVE | NO_COLLIDE). Emitting
   takes the next parked slots; draining removes live particles and moves the survivors down,
   keeping their order, so the live range stays [first, first + active) and no index outside the
   object ever changes. Attachments follow (family.h particlesMoved); the rest of the engine reads
   the live count from the object info (activeParticles).

   Emitter geometry: the nozzle is a disc of `radius` across `direction`; each time the stream has
   moved one lattice spacing d it lays one disc of particles on the square lattice of spacing d
   in the nozzle's plane (the points within the radius, the centre always), so the stream leaves
   at the rest spacing of the fluid in all three directions and is neither compressed nor torn
   when it starts (seed 002: a density far from rho0 is what the solve has to fight). The rate is
   discs x speed / d particles per second. */
#include "families/fluid_state.h"
#include "families/fluid_params.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- moving and parking particles (also used by fluid_sort.c) ---- */

void pbd_Fluid_MoveParticle(pbdWorld* w, pbdFluid* f, int32_t from, int32_t to)
{
	if (from == to) return;
	pbdParticleArray arrays[PBD_FLUID_PARTICLE_ARRAYS];
	const int32_t count = pbd_Fluid_ParticleArrays(w, f, arrays);
	for (int32_t a = 0; a < count; ++a) {
		uint8_t* b = (uint8_t*)arrays[a].base;
		memcpy(b + (size_t)to * arrays[a].width, b + (size_t)from * arrays[a].width, arrays[a].width);
	}
}

static void Set4(float* a, int32_t i, float x, float y, float z, float ww)
{
	if (a == NULL) return;
	a[4 * i + 0] = x, a[4 * i + 1] = y, a[4 * i + 2] = z, a[4 * i + 3] = ww;
}

/* Clears what a slot carries besides its position, velocity and phase. */
static void ClearSlot(pbdWorld* w, pbdFluid* f, int32_t i)
{
	Set4(w->n, i, 0.0f, 0.0f, 0.0f, 0.0f);
	Set4(w->force, i, 0.0f, 0.0f, 0.0f, 0.0f);
	if (w->errors != NULL) w->errors[i] = 0.0f;
	if (w->densities != NULL) w->densities[i] = 0.0f;
	if (f->density != NULL) f->density[i] = 0.0f;
	if (f->lambda != NULL) f->lambda[i] = 0.0f;
	if (f->sheetMemory != NULL) memset(f->sheetMemory + PBD_SHEET_MEMORY * i, 0, PBD_SHEET_MEMORY * sizeof(int32_t));
	Set4(f->delta, i, 0.0f, 0.0f, 0.0f, 0.0f);
	Set4(f->omega, i, 0.0f, 0.0f, 0.0f, 0.0f);
	Set4(f->scratchV, i, 0.0f, 0.0f, 0.0f, 0.0f);
}

void pbd_Fluid_Park(pbdWorld* w, int32_t i, uint32_t object, const float at[3])
{
	pbdFluid* f = pbd_FluidState(w);
	/* The same phase word the builder gives a parked slot: object, group, SELF, FLUID. */
	const uint32_t phase = (object & PBD_PHASE_OBJECT_MASK) | ((object << PBD_PHASE_GROUP_SHIFT) & PBD_PHASE_GROUP_MASK) |
						   PBD_PHASE_SELF | PBD_PHASE_FLUID;
	Set4(w->x, i, at[0], at[1], at[2], 0.0f);
	Set4(w->p, i, at[0], at[1], at[2], 0.0f);
	Set4(w->rest0, i, at[0], at[1], at[2], 0.0f);
	Set4(w->v, i, 0.0f, 0.0f, 0.0f, 0.0f);
	w->phase[i] = phase | PBD_PHASE_INACTIVE | PBD_PHASE_NO_COLLIDE;
	ClearSlot(w, f, i);
}

/* ---- drains ---- */

static int Inside(const pbdDrain* d, const float* x)
{
	return x[0] >= d->lower[0] && x[0] <= d->upper[0] && x[1] >= d->lower[1] && x[1] <= d->upper[1] && x[2] >= d->lower[2] &&
		   x[2] <= d->upper[2];
}

/* ---- emitters ---- */

/* Two unit vectors spanning the nozzle's plane: t1 = normalise(dir x a) with a the axis least
   along dir (a fixed choice, so the disc pattern is the same on every build), t2 = dir x t1. */
static void NozzleFrame(const float dir[3], float t1[3], float t2[3])
{
	const float ax = fabsf(dir[0]), ay = fabsf(dir[1]), az = fabsf(dir[2]);
	float a[3] = { 0.0f, 0.0f, 0.0f };
	if (ax <= ay && ax <= az) a[0] = 1.0f;
	else if (ay <= az) a[1] = 1.0f;
	else a[2] = 1.0f;
	float c[3] = { dir[1] * a[2] - dir[2] * a[1], dir[2] * a[0] - dir[0] * a[2], dir[0] * a[1] - dir[1] * a[0] };
	const float inv = 1.0f / sqrtf(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
	t1[0] = c[0] * inv, t1[1] = c[1] * inv, t1[2] = c[2] * inv;
	t2[0] = dir[1] * t1[2] - dir[2] * t1[1];
	t2[1] = dir[2] * t1[0] - dir[0] * t1[2];
	t2[2] = dir[0] * t1[1] - dir[1] * t1[0];
}

/* Lattice points (a, b) of the disc, |(a, b)| d <= radius: visited row by row (b, then a), the same
   order on every build. A hair of tolerance keeps a point exactly on the rim in. */
static int32_t DiscReach(float radius, float d)
{
	int32_t n = 0;
	while ((float)(n + 1) * d <= radius * 1.000001f && n < 1000) n += 1;
	return n;
}

static int InDisc(int32_t a, int32_t b, float radius, float d)
{
	const float x = (float)a * d, y = (float)b * d;
	return x * x + y * y <= radius * radius * 1.000002f;
}

/* The disc's lattice points from row *row, column *col on (DISC_START: its first), at most `budget` visited (the work
   added to *work): 1 when the disc is laid, 0 when the object ran out of parked slots, 2 when the budget ran out
   first (*row, *col: the point to go on from). The whole disc in one call is EmitDisc below. */
#define DISC_START INT32_MIN
static int EmitDiscFrom(pbdWorld* w, pbdFluid* f, pbdFluidObject* o, const pbdEmitterDef* e, float along, float invMass,
						int32_t* row, int32_t* col, int64_t budget, int64_t* work)
{
	const float d = pbd_Fluid_Spacing(w);
	float t1[3], t2[3];
	NozzleFrame(e->direction, t1, t2);
	const float c[3] = { e->position[0] + e->direction[0] * along, e->position[1] + e->direction[1] * along,
						 e->position[2] + e->direction[2] * along };
	const float v[3] = { e->speed * e->direction[0], e->speed * e->direction[1], e->speed * e->direction[2] };
	const uint32_t object = (uint32_t)o->object;
	const uint32_t phase = (object & PBD_PHASE_OBJECT_MASK) | ((object << PBD_PHASE_GROUP_SHIFT) & PBD_PHASE_GROUP_MASK) |
						   PBD_PHASE_SELF | PBD_PHASE_FLUID;
	const int32_t n = DiscReach(e->radius, d);
	if (*row == DISC_START) *row = -n, *col = -n;
	int64_t visited = 0;
	for (int32_t b = *row; b <= n; ++b) {
		for (int32_t a = b == *row ? *col : -n; a <= n; ++a) {
			if (visited >= budget) {
				*row = b, *col = a, *work += visited;
				return 2;
			}
			visited += 1;
			if (!InDisc(a, b, e->radius, d)) continue;
			if (o->active >= o->capacity) {
				*work += visited;
				return 0;
			}
			const int32_t i = o->first + o->active;
			const float sa = (float)a * d, sb = (float)b * d;
			const float px = c[0] + t1[0] * sa + t2[0] * sb;
			const float py = c[1] + t1[1] * sa + t2[1] * sb;
			const float pz = c[2] + t1[2] * sa + t2[2] * sb;
			Set4(w->x, i, px, py, pz, invMass);
			Set4(w->p, i, px, py, pz, invMass);
			Set4(w->rest0, i, px, py, pz, 0.0f);
			Set4(w->v, i, v[0], v[1], v[2], 0.0f);
			w->phase[i] = phase;
			ClearSlot(w, f, i);
			o->active += 1;
			f->emitted += 1;
		}
	}
	*work += visited;
	return 1;
}

static pbdFluidObject* FluidObject(pbdFluid* f, int32_t object)
{
	for (int32_t k = 0; k < f->objectCount; ++k) {
		if (f->objects[k].object == object) return &f->objects[k];
	}
	return NULL;
}

/* Live counts changed: what holds indices or the live range must know (contacts' kept lists,
   the family's own lists). Inverse masses of fluid particles concern no other family (no
   distance constraint, tether or shape holds a fluid particle), so massVersion and pinVersion
   stay: bumping them would make the cloth rebuild its shares at every step a hose runs. */
static void RangesChanged(pbdWorld* w, pbdFluid* f)
{
	w->positionVersion += 1;
	f->listsValid = 0;
}

/* ---- in slice units ---- */

/* pbd_Fluid_EmitAndDrain one bounded unit at a time (fluid.c Fluid_PrepareStepUnit), the same steps in the same order:
   per fluid object, the drains' marks (newIndex in the scratch, which the family holds until the object is done),
   the survivors' moves (one forward sweep, cut anywhere: a survivor only moves down), the freed slots parked, the
   rest of newIndex and the attachments' remap; then per emitter, its discs point by point. The cursor lives in the
   family (startStep: the part of the object; startItem: the object or emitter; startRow: the particle, or the disc's
   row and startCol its column); an emitter's travel is added once (startBefore >= 0 from then).
   A drain removes the live particles of an object inside it; the survivors move down in order (a stable compaction:
   every survivor's new index is at most its old one, so one forward sweep never overwrites a particle it has still
   to read). Freed slots are parked where the object's parked slots already wait (the builder put them at the
   block's lower corner); a full object has none, so they go to its first slot's position before the drain: a point
   of the scene either way, and fixed for the step. */
enum { DrainMark, DrainMove, DrainPark, DrainEnd, Emit };

void pbd_Fluid_EmitAndDrainBegin(pbdWorld* w, pbdFluid* f)
{
	(void)w;
	f->full = 0;
	f->startStep = f->drainCount > 0 ? DrainMark : Emit;
	f->startItem = 0;
	f->startRow = 0;
	f->startCol = DISC_START;
	f->startRemoved = 0;
	f->startChanged = 0;
	f->startBefore = -1;
}

int pbd_Fluid_EmitAndDrainUnit(pbdWorld* w, pbdFluid* f, const pbdStepContext* ctx, int64_t budget, int64_t* work)
{
	int64_t done = 0;
	while (f->startStep != Emit) {
		if (f->startItem >= f->objectCount) {
			f->drained += f->startRemoved;
			if (f->startRemoved > 0) RangesChanged(w, f);
			f->startStep = Emit, f->startItem = 0, f->startRow = DISC_START;
			break;
		}
		pbdFluidObject* o = &f->objects[f->startItem];
		int32_t* newIndex = (int32_t*)pbd_Scratch_Take(w, pbdScratch_fluid);
		if (newIndex == NULL || w->scratchBytes < (size_t)o->capacity * sizeof(int32_t)) {
			f->startItem += 1, f->startStep = DrainMark, f->startRow = 0; /* DrainObject's refusal: nothing drained */
			continue;
		}
		if (done >= budget) break;
		const int32_t from = f->startRow;
		const int64_t most = budget - done;
		switch (f->startStep) {
		case DrainMark: {
			if (from == 0) f->startKept = 0, f->startCount = 0, pbd_Scratch_Hold(w, pbdScratch_fluid);
			const int32_t to = (int64_t)o->active - from < most ? o->active : from + (int32_t)most;
			for (int32_t k = from; k < to; ++k) {
				const float* x = w->x + 4 * (o->first + k);
				int gone = 0;
				for (int32_t d = 0; d < f->drainCount && !gone; ++d) gone = Inside(&f->drains[d], x);
				newIndex[k] = gone ? -1 : o->first + f->startKept;
				if (gone) f->startCount += 1;
				else f->startKept += 1;
			}
			done += to - from, f->startRow = to;
			if (to < o->active) break;
			if (f->startCount == 0) { /* nothing removed: the object is left as it was */
				pbd_Scratch_Release(w, pbdScratch_fluid);
				f->startItem += 1, f->startRow = 0;
				break;
			}
			const int32_t parkedFrom = o->first + (o->active < o->capacity ? o->active : 0);
			memcpy(f->startAt, w->x + 4 * parkedFrom, sizeof f->startAt);
			f->startStep = DrainMove, f->startRow = 0;
			break;
		}
		case DrainMove: {
			const int32_t to = (int64_t)o->active - from < most ? o->active : from + (int32_t)most;
			for (int32_t k = from; k < to; ++k) {
				if (newIndex[k] >= 0) pbd_Fluid_MoveParticle(w, f, o->first + k, newIndex[k]);
			}
			done += to - from, f->startRow = to;
			if (to >= o->active) f->startStep = DrainPark, f->startRow = f->startKept;
			break;
		}
		case DrainPark: {
			const int32_t to = (int64_t)o->active - from < most ? o->active : from + (int32_t)most;
			for (int32_t k = from; k < to; ++k) pbd_Fluid_Park(w, o->first + k, (uint32_t)o->object, f->startAt);
			done += to - from, f->startRow = to;
			if (to >= o->active) f->startStep = DrainEnd, f->startRow = o->active;
			break;
		}
		default: { /* DrainEnd */
			const int32_t to = (int64_t)o->capacity - from < most ? o->capacity : from + (int32_t)most;
			for (int32_t k = from; k < to; ++k) newIndex[k] = o->first + k; /* parked slots stay */
			done += to - from, f->startRow = to;
			if (to < o->capacity) break;
			pbd_Families_ParticlesMoved(w, o->first, o->capacity, newIndex);
			o->active = f->startKept;
			w->objects[o->object].activeParticles = f->startKept;
			f->startRemoved += f->startCount;
			pbd_Scratch_Release(w, pbdScratch_fluid);
			f->startItem += 1, f->startStep = DrainMark, f->startRow = 0;
			break;
		}
		}
	}
	if (f->startStep == Emit) {
		const float d = pbd_Fluid_Spacing(w);
		const float invMass = 1.0f / pbd_Fluid_ParticleMass(w);
		while (f->startItem < f->emitterCount) {
			pbdEmitter* em = &f->emitters[f->startItem];
			pbdFluidObject* o = em->def.enabled ? FluidObject(f, em->def.object) : NULL;
			if (o == NULL) {
				f->startItem += 1, f->startBefore = -1;
				continue;
			}
			if (f->startBefore < 0) {
				em->travelled += em->def.speed * ctx->dt;
				f->startBefore = o->active;
				f->startRow = DISC_START;
			}
			int fitted = 1;
			while (em->travelled >= d) {
				if (done >= budget) break;
				int64_t visited = 0;
				fitted = EmitDiscFrom(w, f, o, &em->def, em->travelled - d, invMass, &f->startRow, &f->startCol, budget - done, &visited);
				done += visited;
				if (fitted == 2) break; /* more of this disc */
				f->startRow = DISC_START;
				if (!fitted) {
					/* as pbd_Fluid_EmitAndDrain: the stream waits at the nozzle */
					f->full = 1;
					while (em->travelled >= d) em->travelled -= d;
					break;
				}
				em->travelled -= d;
			}
			if (fitted == 2 || (em->travelled >= d && fitted)) break; /* the budget ran out */
			w->objects[o->object].activeParticles = o->active;
			f->startChanged |= o->active != f->startBefore;
			f->startItem += 1, f->startBefore = -1;
		}
		if (f->startItem >= f->emitterCount) {
			if (f->startChanged) RangesChanged(w, f);
			*work += done;
			return 1;
		}
	}
	*work += done;
	return 0;
}

/* The drains, then the hoses, at a step's start: the units above without a budget, so the whole step and its slices
   run one code. */
void pbd_Fluid_EmitAndDrain(pbdWorld* w, pbdFluid* f, const pbdStepContext* ctx)
{
	f->full = 0;
	if (f->objectCount == 0) return;
	int64_t work = 0;
	pbd_Fluid_EmitAndDrainBegin(w, f);
	while (!pbd_Fluid_EmitAndDrainUnit(w, f, ctx, INT64_MAX, &work)) {
	}
}

/* ---- the public API ---- */

pbdEmitterDef pbd_DefaultEmitterDef(void)
{
	pbdEmitterDef def;
	memset(&def, 0, sizeof def);
	def.direction[1] = -1.0f;
	def.speed = 1.0f;
	def.radius = 0.05f;
	def.enabled = 1;
	def.internalValue = PBD_COOKIE;
	return def;
}

/* PBD_OK and `out` the def with its direction normalised, or the refusal naming the field. */
static int CheckEmitter(pbdWorld* w, const pbdEmitterDef* def, pbdEmitterDef* out)
{
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetWorldError(w, PBD_ERR_BAD_DEF, "use pbd_DefaultEmitterDef()");
	pbdFluid* f = pbd_FluidState(w);
	if (def->object < 0 || def->object >= w->objectCount || FluidObject(f, def->object) == NULL) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "emitter object %d is not a fluid object", def->object);
	}
	int err = pbd_CheckVec(w, def->position, "emitter position");
	if (err != PBD_OK) return err;
	for (int k = 0; k < 3; ++k) {
		if (!pbd_IsFinite(def->direction[k]) || fabsf(def->direction[k]) > 1e5f) {
			return pbd_SetWorldError(w, pbd_IsFinite(def->direction[k]) ? PBD_ERR_INVALID_ARGUMENT : PBD_ERR_NOT_FINITE,
									 "emitter direction[%d] must be finite and within +-1e5", k);
		}
	}
	const float dx = def->direction[0], dy = def->direction[1], dz = def->direction[2];
	const float len2 = dx * dx + dy * dy + dz * dz;
	if (!(len2 > 1e-12f)) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "emitter direction must not be zero");
	if (!pbd_IsFinite(def->speed)) return pbd_SetWorldError(w, PBD_ERR_NOT_FINITE, "emitter speed must be finite");
	if (!(def->speed > 0.0f && def->speed <= PBD_EMITTER_MAX_SPEED)) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "emitter speed must be in (0, %g] m/s, got %g", (double)PBD_EMITTER_MAX_SPEED, (double)def->speed);
	}
	const float d = pbd_Fluid_Spacing(w);
	if (!pbd_IsFinite(def->radius)) return pbd_SetWorldError(w, PBD_ERR_NOT_FINITE, "emitter radius must be finite");
	if (!(def->radius >= 0.5f * d && def->radius <= 1.0f)) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "emitter radius must be in [%g, 1] m (half the spacing), got %g",
								 (double)(0.5f * d), (double)def->radius);
	}
	*out = *def;
	const float inv = 1.0f / sqrtf(len2);
	out->direction[0] = dx * inv, out->direction[1] = dy * inv, out->direction[2] = dz * inv;
	out->enabled = def->enabled != 0;
	return PBD_OK;
}

int pbd_World_AddEmitter(pbdWorldId id, const pbdEmitterDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdFluid* f = pbd_FluidState(w);
	if (f->emitterCount >= PBD_MAX_EMITTERS) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "already %d emitters (at most %d)", f->emitterCount, PBD_MAX_EMITTERS);
	}
	pbdEmitterDef checked;
	int err = CheckEmitter(w, def, &checked);
	if (err != PBD_OK) return err;
	pbdEmitter* e = &f->emitters[f->emitterCount];
	e->def = checked;
	e->travelled = 0.0f;
	return f->emitterCount++;
}

int pbd_World_SetEmitter(pbdWorldId id, int emitter, const pbdEmitterDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdFluid* f = pbd_FluidState(w);
	if (emitter < 0 || emitter >= f->emitterCount) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "emitter %d of %d", emitter, f->emitterCount);
	}
	pbdEmitterDef checked;
	int err = CheckEmitter(w, def, &checked);
	if (err != PBD_OK) return err;
	/* The stream keeps what it has travelled when it stays on the same object: moving or turning
	   a hose does not restart its rhythm (nor does switching it off and on). */
	if (f->emitters[emitter].def.object != checked.object) f->emitters[emitter].travelled = 0.0f;
	f->emitters[emitter].def = checked;
	return PBD_OK;
}

int pbd_World_GetEmitterCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return pbd_FluidState(w)->emitterCount;
}

int pbd_World_AddDrain(pbdWorldId id, const float lower[3], const float upper[3])
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdFluid* f = pbd_FluidState(w);
	if (lower == NULL || upper == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "drain corners must not be NULL");
	if (f->drainCount >= PBD_MAX_DRAINS) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "already %d drains (at most %d)", f->drainCount, PBD_MAX_DRAINS);
	}
	int err = pbd_CheckVec(w, lower, "drain lower");
	if (err == PBD_OK) err = pbd_CheckVec(w, upper, "drain upper");
	if (err != PBD_OK) return err;
	for (int k = 0; k < 3; ++k) {
		if (upper[k] < lower[k]) {
			return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "drain upper[%d] = %g is below lower[%d] = %g", k, (double)upper[k],
									 k, (double)lower[k]);
		}
	}
	pbdDrain* d = &f->drains[f->drainCount];
	memcpy(d->lower, lower, sizeof d->lower);
	memcpy(d->upper, upper, sizeof d->upper);
	return f->drainCount++;
}

int pbd_World_GetDrainCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return pbd_FluidState(w)->drainCount;
}
