/* families/fluid.c -- the fluid family: Position Based Fluids (Macklin & Mueller 2013, seed 002) in
   the one step, coupled both ways with every other particle (Macklin et al. 2014, "Unified Particle
   Physics", section 7.1). fluid_state.h lists the family's files; this one holds the table, the
   pool, the kernel constants and the neighbour lists (the public queries: fluid_queries.c).

   A step: start follows the parameters (kernel constants; a new rest density or spacing gives
   every fluid particle its new mass and radius), runs the drains and the emitters (fluid_emit.c) and
   every fluid.sortInterval steps puts the particles in cell order (fluid_sort.c). findContacts
   searches the neighbours once (the fluid's own grid over every particle within h, its filter
   ListsInput: fluid-fluid and fluid-solid pairs, never solid-solid) and the lists serve every pass and the
   velocity passes. Each pass solves three colours, each a Jacobi sweep over ranges of particles that
   writes only its own particles' entries (fluid_solve.c): 0 densities and lambda, 1 corrections of
   the fluid particles and of the solid ones with fluid neighbours, 2 the corrections applied. After
   the velocity update, vorticity confinement and XSPH (fluid_velocity.c).

   Parameters (minipbd.h, owner "fluid"), and why ours differ from the paper's numbers:
     smoothingRadius  used clamped to [d, 4 d]; 2 d (the default 0.04 at d = 0.02) gives 26 lattice
                      neighbours, ~30-35 once disordered: seed 002's "30-40 neighbours".
     relaxation       the paper's epsilon (MM13 eq. 11, "CFM", 600 in its units) depends on the units of
                      grad C; ours is relative to sum |grad C|^2 of a rest lattice, so 0.01 softens the
                      constraint by ~1% whatever d and h are.
     scorrK           MM13 eq. 13 uses k = 0.1 in its units of lambda (m = 1, rho0 = 6378); ours is in
                      units of a rest lattice's 1 / sum |grad C|^2, i.e. s_corr = -k (W / W(dq h))^n is the
                      lambda of a particle compressed by k. With the unilateral constraint the free surface
                      cannot clump, so s_corr is only the interior's guard against pairing; see the
                      default's comment in pbd_Fluid_UpdateKernel.
     scorrN, scorrDq  the paper's 4 and 0.2 (of h; 0.1-0.3 there).
   Kernel constants: Poly6's 315 / (64 pi h^9) makes the continuous integral 1, but the sum over a
   cubic lattice of spacing d differs from it (+1.0% at h = 2 d, -5% at 1.5 d): the constant is fitted
   so that a rest lattice has rho = rho0 exactly, so a block starts at rest and settles to the
   volume it was given (the dam-break test holds it to 3%). */
#include "base/tasks.h"
#include "families/fluid_state.h"
#include "families/fluid.h"
#include "neighbours/triangles.h"
#include "services/boundary.h"
#include "services/materials.h"

#include <math.h>
#include <string.h>

#define LIST_ENTRIES_PER_PARTICLE 80

/* ---------------------------------------------------------------- pool */

static int32_t Entries(const pbdCapacity* cap) { return (LIST_ENTRIES_PER_PARTICLE * cap->maxFluidParticles + 3) & ~3; }

static size_t Fluid_Bytes(const pbdCapacity* cap)
{
	size_t bytes = pbd_PoolBytes(1, sizeof(pbdFluid));
	if (cap->maxFluidParticles <= 0) return bytes;
	const size_t P = (size_t)cap->maxParticles, E = (size_t)Entries(cap), O = (size_t)cap->maxObjects;
	bytes += pbd_Grid_Bytes(cap->maxParticles) + pbd_NeighbourLists_Bytes(cap->maxParticles, Entries(cap));
	bytes += 2 * pbd_PoolBytes(P, sizeof(float)) + 6 * pbd_PoolBytes(P, 4 * sizeof(float)) + 4 * pbd_PoolBytes(P, 1);
	bytes += pbd_PoolBytes(P, PBD_SHEET_MEMORY * sizeof(int32_t));
	bytes += 3 * pbd_PoolBytes(E, sizeof(float)) + pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes(O, sizeof(float));
	return bytes;
}

/* The grid's sorted copies (neighbours, sort), or the sort's permutation and rows after its build. */
static size_t Fluid_ScratchBytes(const pbdCapacity* cap)
{
	if (cap->maxFluidParticles <= 0) return 0;
	const size_t grid = pbd_Grid_ScratchBytes(cap->maxParticles);
	const size_t sort = (size_t)cap->maxFluidParticles * (2 * sizeof(int32_t) + 4 * sizeof(float)) + 64;
	/* the guard's (fluid_guard.c): the cloths' swept triangles */
	const size_t guard = pbd_TriangleIndex_ScratchBytes(cap->maxTriangles);
	const size_t most = grid > sort ? grid : sort;
	return most > guard ? most : guard;
}

static void* Fluid_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	pbdFluid* f = pbd_PoolAlloc(pool, 1, sizeof(pbdFluid));
	if (f == NULL) return NULL;
	f->maxFluidParticles = cap->maxFluidParticles;
	f->wallAlpha = 1.0f;
	if (cap->maxFluidParticles <= 0) return f;
	const size_t P = (size_t)cap->maxParticles, E = (size_t)Entries(cap), O = (size_t)cap->maxObjects;
	if (!pbd_Grid_Create(&f->grid, pool, cap->maxParticles)) return NULL;
	if (!pbd_NeighbourLists_Create(&f->lists, pool, cap->maxParticles, Entries(cap))) return NULL;
	f->entryCapacity = Entries(cap);
	f->density = pbd_PoolAlloc(pool, P, sizeof(float));
	f->lambda = pbd_PoolAlloc(pool, P, sizeof(float));
	f->delta = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	f->omega = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	f->scratchV = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	f->props = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	f->boundary = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	/* the entries' caches: written by each density pass before the correction reads them (fluid_solve.c) */
	f->entryGrad = pbd_PoolAllocUnset(pool, E, sizeof(float));
	f->entryAux = pbd_PoolAllocUnset(pool, E, sizeof(float));
	f->sheet = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	f->entrySide = pbd_PoolAlloc(pool, E, sizeof(float));
	f->nearSheet = pbd_PoolAlloc(pool, P, 1);
	f->sheetExtra = pbd_PoolAlloc(pool, P, 1);
	f->guardSpent = pbd_PoolAlloc(pool, P, 1);
	f->plainList = pbd_PoolAlloc(pool, P, 1);
	f->sheetMemory = pbd_PoolAlloc(pool, P, PBD_SHEET_MEMORY * sizeof(int32_t));
	f->order = pbd_PoolAlloc(pool, P, sizeof(int32_t));
	f->volume = pbd_PoolAlloc(pool, O, sizeof(float));
	return f->volume != NULL ? f : NULL;
}

int pbd_Fluid_CheckRoom(pbdWorld* w, int64_t capacity)
{
	pbdFluid* f = pbd_FluidState(w);
	if (f->objectCount >= PBD_MAX_FLUID_OBJECTS) {
		return pbd_SetWorldError(w, PBD_ERR_FLUID_CAPACITY, "already %d fluid objects (at most %d)", f->objectCount,
								 PBD_MAX_FLUID_OBJECTS);
	}
	if (f->reserved + capacity > f->maxFluidParticles) {
		return pbd_SetWorldError(w, PBD_ERR_FLUID_CAPACITY, "fluid needs %lld particles, %d of the world's %d fluid particles left",
								 (long long)capacity, f->maxFluidParticles - f->reserved, f->maxFluidParticles);
	}
	return PBD_OK;
}

void pbd_Fluid_AddObject(pbdWorld* w, int32_t object, int32_t first, int32_t capacity, int32_t active)
{
	pbdFluid* f = pbd_FluidState(w);
	pbdFluidObject* o = &f->objects[f->objectCount++];
	o->object = object;
	o->first = first;
	o->capacity = capacity;
	o->active = active;
	f->reserved += capacity;
	f->listsValid = 0;
	if (f->sheetMemory != NULL) memset(f->sheetMemory + (size_t)PBD_SHEET_MEMORY * first, 0, (size_t)capacity * PBD_SHEET_MEMORY * sizeof(int32_t));
	/* the builder gave the particles these parameters' mass and radius */
	f->massRho0 = w->params[pbdParam_fluidRestDensity];
	f->massSpacing = w->params[pbdParam_fluidSpacing];
}

/* ---------------------------------------------------------------- kernel */

/* Sums over the cubic lattice of spacing d around one of its points, within h: of (h^2 - r^2)^3
   (the point itself included) and of |d^3 spiky (h - r)^2|^2 (the others: |grad_j C|^2 at rest). */
static void Fluid_Lattice(double d, double h, double spiky, double* sumW, double* sumGrad)
{
	const int32_t R = (int32_t)(h / d) + 1;
	double w = 0.0, g = 0.0;
	for (int32_t a = -R; a <= R; ++a) {
		for (int32_t b = -R; b <= R; ++b) {
			for (int32_t c = -R; c <= R; ++c) {
				const double r2 = d * d * (double)(a * a + b * b + c * c);
				if (!(r2 < h * h)) continue;
				const double q = h * h - r2;
				w += q * q * q;
				if (a == 0 && b == 0 && c == 0) continue;
				const double hr = h - sqrt(r2);
				const double gj = d * d * d * spiky * hr * hr;
				g += gj * gj;
			}
		}
	}
	*sumW = w;
	*sumGrad = g;
}

/* Walls (the ground, the colliders) are not particles, so a fluid particle beside one misses the
   wall side's share of its density (seed 002's neighbour deficiency) and the layers next to it are
   squeezed until the estimate reaches rho0: a tank of 6 layers settled 13% too low. So a wall counts
   as a half-space of rest lattice, the lattice continued through it (its first layer d from a
   particle resting on the surface at phi = d / 2, as a mirror image): rho_b(phi) / rho0 =
   rhoScale sum_{a, b, c >= 0} (h^2 - r^2)^3 over r = |(a d, b d, phi + d / 2 + c d)|, tabulated and
   read by linear interpolation (value and slope). A particle at rest on a wall then has rho = rho0
   exactly (Akinci et al. 2012's boundary particles, as a continuous wall). The wall takes no correction
   (it does not move) and carries no constraint of its own, so a particle's correction takes the wall's
   term once, lambda_i grad_i rho_b, as the projection of C_i asks (fluid_solve.c). */
static void Fluid_WallTable(pbdFluidKernel* k, double sumW)
{
	const double d = (double)k->d, h = (double)k->h;
	const int32_t R = (int32_t)(h / d) + 1;
	for (int32_t s = 0; s <= PBD_FLUID_WALL_SAMPLES + 1; ++s) {
		const double phi = h * (double)s / PBD_FLUID_WALL_SAMPLES;
		double sum = 0.0;
		for (int32_t a = -R; a <= R; ++a) {
			for (int32_t b = -R; b <= R; ++b) {
				for (int32_t c = 0; c <= R; ++c) {
					const double z = phi + 0.5 * d + (double)c * d;
					const double r2 = d * d * (double)(a * a + b * b) + z * z;
					if (!(r2 < h * h)) continue;
					const double q = h * h - r2;
					sum += q * q * q;
				}
			}
		}
		k->wall[s] = (float)(sum / sumW);
	}
	k->wallInvStep = (float)(PBD_FLUID_WALL_SAMPLES / h);
}

static const pbdParam s_kernelParams[9] = {
	pbdParam_fluidSpacing,  pbdParam_fluidSmoothingRadius, pbdParam_fluidRestDensity,
	pbdParam_fluidRelaxation, pbdParam_fluidScorrK,       pbdParam_fluidScorrN,
	pbdParam_fluidScorrDq,  pbdParam_fluidVorticity,      pbdParam_fluidViscosity,
};

void pbd_Fluid_UpdateKernel(pbdWorld* w, pbdFluid* f)
{
	pbdFluidKernel* k = &f->k;
	int changed = 0;
	for (int32_t q = 0; q < 9; ++q) changed |= k->params[q] != w->params[s_kernelParams[q]];
	if (!changed && k->d > 0.0f) return;
	for (int32_t q = 0; q < 9; ++q) k->params[q] = w->params[s_kernelParams[q]];
	const float d = w->params[pbdParam_fluidSpacing];
	float h = w->params[pbdParam_fluidSmoothingRadius];
	h = h < d ? d : h > 4.0f * d ? 4.0f * d : h; /* the arch's clamp: no NaN from h = 0, no 10^9 neighbours */
	k->d = d;
	k->d3 = d * d * d;
	k->h = h;
	k->h2 = h * h;
	k->rho0 = w->params[pbdParam_fluidRestDensity];
	k->mass = pbd_Fluid_ParticleMass(w);
	k->radius = 0.5f * d;
	const double pi = 3.14159265358979323846;
	const double spiky = -45.0 / (pi * pow((double)h, 6.0));
	double sumW, sumGrad;
	Fluid_Lattice((double)d, (double)h, spiky, &sumW, &sumGrad);
	/* d^3 poly6 sumW = 1: a rest lattice at rho0 (see the header) */
	k->poly6 = (float)(1.0 / ((double)k->d3 * sumW));
	k->rhoScale = (float)(1.0 / sumW);
	k->spiky = (float)spiky;
	k->gradScale = (float)((double)k->d3 * spiky);
	k->gradRest = (float)sumGrad;
	Fluid_WallTable(k, sumW);
	k->epsilon = w->params[pbdParam_fluidRelaxation] * k->gradRest;
	/* s_corr = -k (W(r) / W(dq h))^n with k in units of 1 / gradRest (header). h = d leaves no lattice
	   neighbour within h: gradRest = 0 and s_corr is off. */
	const double dq = (double)w->params[pbdParam_fluidScorrDq] * (double)h;
	const double qq = (double)h * (double)h - dq * dq;
	const int on = sumGrad > 0.0 && w->params[pbdParam_fluidScorrK] > 0.0f && qq > 0.0;
	k->scorrK = on ? (float)((double)w->params[pbdParam_fluidScorrK] / sumGrad) : 0.0f;
	k->scorrInvW = on ? (float)(1.0 / (qq * qq * qq)) : 0.0f;
	k->scorrN = (int32_t)w->params[pbdParam_fluidScorrN];
	if (k->scorrN < 1) k->scorrN = 1;
	k->vorticity = w->params[pbdParam_fluidVorticity];
	k->viscosity = w->params[pbdParam_fluidViscosity];
	f->paramVersion += 1;
}

/* A new rest density or spacing: every live fluid particle gets the mass rho0 d^3 and the radius d / 2. */
static void FollowMass(pbdWorld* w, pbdFluid* f)
{
	const float mass = pbd_Fluid_ParticleMass(w), d = pbd_Fluid_Spacing(w);
	const float invMass = 1.0f / mass;
	int changed = 0;
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* obj = &f->objects[o];
		for (int32_t i = obj->first; i < obj->first + obj->active; ++i) {
			changed |= w->x[4 * i + 3] != invMass;
			w->x[4 * i + 3] = invMass;
		}
		changed |= w->materials[obj->object].radius != 0.5f * d;
		w->materials[obj->object].radius = 0.5f * d; /* its own object's material */
	}
	if (changed) {
		w->massVersion += 1;
		w->paramVersion += 1;
		f->massVersion += 1;
	}
}

/* ---------------------------------------------------------------- walls */

/* Each live fluid particle's nearest wall within h on `positions`: the ground plane and every
   collider at the substep's end (alpha: the colliders' interpolation, 1 outside the step), as the
   plane n . p + c = phi through the closest surface point; the passes move the particle along it. */
typedef struct WallsBlock {
	pbdFluid* f;
	const float* positions;
	pbdWalls walls;
	int32_t offset; /* the block's range starts here in f->order (a slice unit's part of it) */
} WallsBlock;

/* Each fluid particle's nearest wall is its own: shared out in blocks (base/tasks.h). */
static void WallsOf(void* data, int32_t begin, int32_t end)
{
	const WallsBlock* wb = data;
	pbdFluid* f = wb->f;
	const float far = 2.0f * f->k.h;
	for (int32_t o = wb->offset + begin; o < wb->offset + end; ++o) {
		const int32_t i = f->order[o];
		const float* p = wb->positions + 4 * i;
		float n[3];
		const float best = pbd_Walls_Nearest(&wb->walls, p, far, n);
		float* b = f->boundary + 4 * i;
		b[0] = n[0], b[1] = n[1], b[2] = n[2];
		b[3] = best < far ? best - ((n[0] * p[0] + n[1] * p[1]) + n[2] * p[2]) : far;
	}
}

/* The walls of the fluid particles order[begin, end): the boundary's table (services/boundary.h) at `alpha`. */
static void FindWalls(pbdWorld* w, pbdFluid* f, const float* positions, float alpha, int32_t begin, int32_t end)
{
	WallsBlock b = { f, positions, pbd_Boundary_Walls(w, alpha), begin };
	pbd_Parallel_For(w, end - begin, 512, WallsOf, &b);
}

/* ---------------------------------------------------------------- lists */

static void BuildOrder(pbdWorld* w, pbdFluid* f);

/* The lists' search input: every particle's `positions`, in the fluid's grid of one radius h. The fluid's
   rule as the grid's filter (grid.h): a pair when at least one is fluid (a solid particle meets fluid ones
   only: the solids' shares), neither NO_COLLIDE nor a parked slot; groups, SELF, pins and rest poses are not
   read. The excluded are left out of the grid: a fluid's parked slots, all at one point and possibly
   thousands, are then in no neighbourhood and their lists are empty without a look. */
static pbdGridInput ListsInput(pbdWorld* w, const pbdFluid* f, const float* positions)
{
	pbdGridInput in;
	memset(&in, 0, sizeof in);
	in.positions = positions;
	in.phase = w->phase;
	in.count = w->particleCount;
	in.radius = f->k.h; /* one radius: the grid's uniform fast path */
	in.leaveOut = 1;
	in.filter.exclude = PBD_PHASE_NO_COLLIDE | PBD_PHASE_INACTIVE;
	in.filter.pairNeeds = PBD_PHASE_FLUID;
	in.filter.keepPinned = 1;
	return in;
}

int pbd_Fluid_BuildLists(pbdWorld* w, pbdFluid* f, const float* positions)
{
	f->listsValid = 0;
	f->gradCached = 0; /* entryAux becomes the build's pair array */
	f->orderCount = f->fluidCount = 0;
	if (f->maxFluidParticles <= 0) return 0;
	const pbdGridInput in = ListsInput(w, f, positions);
	/* the pairs go through entryAux (int32 here): the density pass refills it from the new lists */
	if (!pbd_Grid_Build(&f->grid, &in, pbd_Scratch_Take(w, pbdScratch_fluid), w->scratchBytes) ||
		!pbd_Grid_FindLists(w, &f->grid, &f->lists, (int32_t*)f->entryAux, f->entryCapacity)) {
		return 0;
	}
	BuildOrder(w, f);
	pbd_Fluid_FindSheets(w, f);
	FindWalls(w, f, positions, f->wallAlpha, 0, f->fluidCount);
	f->wallAlpha = 1.0f; /* outside the step: the colliders where they stand */
	return 1;
}

/* After the lists: the solids' shares, the props and the solve's order (live fluid particles object by object,
   then the solid particles with fluid neighbours); the lists are valid. */
static void BuildOrder(pbdWorld* w, pbdFluid* f)
{
	/* a solid particle's share in the density: (2 r_o)^3 of fluid, in units of d^3 (Macklin 2014 7.1) */
	for (int32_t o = 0; o < w->objectCount; ++o) {
		const float r = pbd_Material_ContactRadius(w, o), s = (r + r) / f->k.d;
		f->volume[o] = w->objects[o].type == PBD_OBJECT_FLUID ? 1.0f : s * s * s;
	}
	const float mass = f->k.mass;
	int32_t count = 0, pinned = 0;
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* obj = &f->objects[o];
		for (int32_t i = obj->first; i < obj->first + obj->active; ++i) {
			float* pr = f->props + 4 * i;
			pr[0] = w->x[4 * i + 3] > 0.0f ? 1.0f : 0.0f;
			pinned += !(pr[0] > 0.0f);
			pr[1] = 1.0f;
			pr[2] = 1.0f;
			pr[3] = f->k.radius;
			f->order[count++] = i;
		}
	}
	f->fluidCount = count;
	for (int32_t i = 0; i < w->particleCount; ++i) {
		if ((w->phase[i] & PBD_PHASE_FLUID) || f->lists.count[i] == 0) continue;
		const uint32_t o = w->phase[i] & PBD_PHASE_OBJECT_MASK;
		float* pr = f->props + 4 * i;
		pr[0] = w->x[4 * i + 3] * mass; /* x.w, not p.w: see fluid_state.h props */
		pr[1] = f->volume[o];
		pr[2] = 0.0f;
		pr[3] = pbd_Material_ContactRadius(w, (int32_t)o);
		f->order[count++] = i;
	}
	f->orderCount = count;
	/* no solid in any list and every fluid particle free: every entry's props are (1, 1, 1, r), which the density
	   pass then takes as constants instead of gathering them (fluid_solve.c Density) */
	f->plain = count == f->fluidCount && pinned == 0;
	f->listsValid = 1;
}

/* ---------------------------------------------------------------- hooks */

static void Fluid_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdFluid* f = state;
	if (f->objectCount == 0) return;
	pbd_Fluid_UpdateKernel(w, f);
	if (f->k.rho0 != f->massRho0 || f->k.d != f->massSpacing) {
		f->massRho0 = f->k.rho0;
		f->massSpacing = f->k.d;
		FollowMass(w, f);
	}
	pbd_Fluid_EmitAndDrain(w, f, ctx);
	const int32_t interval = (int32_t)w->params[pbdParam_fluidSortInterval];
	if (interval > 0 && ++f->stepsSinceSort >= interval) {
		f->stepsSinceSort = 0;
		pbd_Fluid_Sort(w, f);
	}
}

/* The statistics of the substep's lists. */
static void ListsStats(pbdFluid* f)
{
	int64_t neighbours = 0;
	for (int32_t o = 0; o < f->fluidCount; ++o) neighbours += f->lists.count[f->order[o]];
	f->meanNeighbours = f->fluidCount > 0 ? (float)((double)neighbours / (double)f->fluidCount) : 0.0f;
	f->droppedNeighbours = f->lists.dropped;
}

/* The step's start (Fluid_PrepareStep) in slice units of bounded work (family.h startUnit), with its bits:
     kernel  the parameters followed (kernel constants; a new rest density or spacing: every live particle's mass,
             O(n)), one unit
     emit    the drains and the emitters (fluid_emit.c), about PBD_SLICE_WORK particles (or disc points) a unit
     sort    every fluid.sortInterval steps the particles into cell order (fluid_sort.c): an object's grid (O(n)),
             then its rows, about PBD_SLICE_WORK a unit
   A whole step (whole from the start) runs Fluid_PrepareStep itself; `whole` part way finishes the parts left. */
enum { StartNone, StartEmit, StartSort };

static int Fluid_PrepareStepUnit(pbdWorld* w, void* state, const pbdStepContext* ctx, int whole)
{
	pbdFluid* f = state;
	if (f->startPart == StartNone) {
		if (whole) {
			Fluid_PrepareStep(w, f, ctx);
			f->lastStartUnits = 1;
			return 1;
		}
		if (f->objectCount == 0) return 1;
		pbd_Fluid_UpdateKernel(w, f);
		if (f->k.rho0 != f->massRho0 || f->k.d != f->massSpacing) {
			f->massRho0 = f->k.rho0;
			f->massSpacing = f->k.d;
			FollowMass(w, f);
			w->sliceWork += f->reserved;
		}
		pbd_Fluid_EmitAndDrainBegin(w, f);
		f->startPart = StartEmit;
		f->startUnits = 1;
		return 0;
	}
	const int64_t budget = whole ? INT64_MAX : w->sliceBudget;
	for (;;) {
		int64_t work = 0;
		int done;
		if (f->startPart == StartEmit) {
			done = pbd_Fluid_EmitAndDrainUnit(w, f, ctx, budget, &work);
			if (done) {
				const int32_t interval = (int32_t)w->params[pbdParam_fluidSortInterval];
				if (interval > 0 && ++f->stepsSinceSort >= interval) {
					f->stepsSinceSort = 0;
					pbd_Fluid_SortBegin(w, f);
					f->startPart = StartSort;
					done = 0;
				}
			}
		} else {
			done = pbd_Fluid_SortUnit(w, f, budget, &work);
		}
		w->sliceWork += work;
		f->startUnits += 1;
		if (done) {
			f->startPart = StartNone;
			f->lastStartUnits = f->startUnits;
			return 1;
		}
		if (!whole) return 0;
	}
}

static void Fluid_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdFluid* f = state;
	if (f->objectCount == 0) return;
	f->sheetRemember = 1; /* the step's search moves the sheet memory on; a query's does not */
	const int built = (f->wallAlpha = ctx->alpha, pbd_Fluid_BuildLists(w, f, w->p));
	f->sheetRemember = 0;
	if (!built) return;
	ListsStats(f);
}

/* The contacts stage (Fluid_PrepareSubstep) in slice units of bounded work (family.h findContactsUnit), with its bits:
     grid    pbd_Fluid_BuildLists's start and the grid's build into the scratch (O(n + table)), which the family
             then holds until the lists are done
     lists   pbd_Grid_ListsUnit: the half search over whole slots, about PBD_SLICE_WORK candidates a unit,
             then its passes (counts, layout, scatter, padding) about PBD_SLICE_WORK slots or pairs a unit
     order   the solids' shares, the props, the solve's order (O(n))
     sheets  the cloth near the fluid (fluid_sheets.c: O(its entries))
     walls   the nearest wall of about PBD_SLICE_WORK / (1 + colliders) fluid particles a unit, then the statistics
   A whole step (whole from the start) runs Fluid_PrepareSubstep itself, the search shared out over the step's
   threads (the same lists); `whole` part way finishes the parts left. */
enum { PartNone, PartLists, PartOrder, PartSheets, PartWalls };

static int Fluid_ContactsUnit(pbdWorld* w, void* state, const pbdStepContext* ctx, int whole)
{
	pbdFluid* f = state;
	if (f->listsPart == PartNone) {
		if (whole) {
			Fluid_PrepareSubstep(w, f, ctx);
			f->lastListsUnits = 1;
			return 1;
		}
		if (f->objectCount == 0) return 1;
		f->wallAlpha = ctx->alpha;
		f->listsValid = 0;
		f->gradCached = 0; /* entryAux becomes the build's pair array */
		f->orderCount = f->fluidCount = 0;
		if (f->maxFluidParticles <= 0) return 1;
		const pbdGridInput in = ListsInput(w, f, w->p);
		const int built = pbd_Grid_Build(&f->grid, &in, pbd_Scratch_Take(w, pbdScratch_fluid), w->scratchBytes) &&
						  pbd_Grid_ListsBegin(&f->grid, &f->lists, &f->listsCursor);
		w->sliceWork += f->listsCursor.work;
		if (!built) return 1; /* refused: as pbd_Fluid_BuildLists returning 0, no statistics */
		pbd_Scratch_Hold(w, pbdScratch_fluid);
		f->listsPart = PartLists;
		f->listsUnits = 1;
		return 0;
	}
	const int64_t budget = whole ? INT64_MAX : w->sliceBudget;
	for (;;) {
		switch (f->listsPart) {
		case PartLists: {
			const int done = pbd_Grid_ListsUnit(&f->grid, &f->lists, (int32_t*)f->entryAux, f->entryCapacity, &f->listsCursor,
													 budget);
			w->sliceWork += f->listsCursor.work;
			if (done) {
				pbd_Scratch_Release(w, pbdScratch_fluid);
				f->listsPart = PartOrder;
			}
			break;
		}
		case PartOrder:
			BuildOrder(w, f);
			w->sliceWork += w->particleCount;
			f->listsPart = PartSheets;
			break;
		case PartSheets:
			f->sheetRemember = 1;
			pbd_Fluid_FindSheets(w, f);
			f->sheetRemember = 0;
			w->sliceWork += f->orderCount;
			f->listsPart = PartWalls;
			f->wallsNext = 0;
			break;
		default: { /* PartWalls */
			const int64_t per = 1 + pbd_Boundary(w)->count;
			const int64_t most = budget / per > 0 ? budget / per : 1;
			const int32_t left = f->fluidCount - f->wallsNext;
			const int32_t n = left < most ? left : (int32_t)most;
			FindWalls(w, f, w->p, f->wallAlpha, f->wallsNext, f->wallsNext + n);
			f->wallsNext += n;
			w->sliceWork += n * per;
			if (f->wallsNext < f->fluidCount) break;
			f->wallAlpha = 1.0f; /* outside the step: the colliders where they stand */
			ListsStats(f);
			f->listsPart = PartNone;
			f->lastListsUnits = f->listsUnits + 1;
			return 1;
		}
		}
		f->listsUnits += 1;
		if (!whole) return 0;
	}
}

/* Units of the contacts stage: the last stage's for one to come, what is left of it for the one in progress. */
static int32_t Fluid_UnitsLeft(const pbdWorld* w, const void* state, int32_t stage, int begun)
{
	const pbdFluid* f = state;
	(void)w;
	const int contacts = stage == pbdStage_contacts;
	const int32_t last = contacts ? f->lastListsUnits : f->lastStartUnits;
	const int32_t was = last > 0 ? last : 1;
	if (!begun || (contacts ? f->listsPart == PartNone : f->startPart == StartNone)) return was;
	const int32_t done = contacts ? f->listsUnits : f->startUnits;
	return was - done > 1 ? was - done : 1;
}

/* One density constraint per live fluid particle. */
static int32_t Fluid_Count(const pbdWorld* w, const void* state)
{
	const pbdFluid* f = state;
	int32_t n = 0;
	for (int o = 0; o < f->objectCount; ++o) n += f->objects[o].active;
	return n;
}

static int32_t Fluid_ColourCount(const pbdWorld* w, const void* state)
{
	const pbdFluid* f = state;
	(void)w;
	return f->listsValid && f->fluidCount > 0 ? 3 : 0;
}

static int32_t Fluid_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	const pbdFluid* f = state;
	(void)w;
	*serial = 0;
	return colour == 0 ? f->fluidCount : f->orderCount;
}

static void Fluid_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbdFluid* f = state;
	if (colour == 0) pbd_Fluid_SolveDensity(w, f, w->p, begin, end, ctx->pass > 0);
	else if (colour == 1) pbd_Fluid_SolveCorrect(w, f, w->p, begin, end);
	else pbd_Fluid_Apply(w, f, w->p, begin, end);
}

/* The update stage, after the passes: no fluid particle's path crosses a cloth (fluid_guard.c). */
static void Fluid_Update(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	(void)ctx;
	pbd_Fluid_GuardSheets(w, state);
}

static void Fluid_Velocities(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdFluid* f = state;
	if (f->listsValid && f->fluidCount > 0) pbd_Fluid_Velocities(w, f, ctx);
}

/* Particles per slice unit: a unit of 1024 particles at about 30 neighbours each (dam-break) took
   about 1.3 ms in wasm, at 270 (the smoothing radius at 4 spacings) 74; so about 32k neighbour
   entries a unit, whatever the smoothing radius. Fixed within a substep (the lists are). */
static int32_t Fluid_SliceItems(const pbdWorld* w, const void* state)
{
	const pbdFluid* f = state;
	(void)w;
	const float mean = f->meanNeighbours > 32.0f ? f->meanNeighbours : 32.0f;
	const float items = 32768.0f / mean;
	return items >= 16.0f ? (int32_t)items : 16;
}

/* The velocities stage's hooks (XSPH viscosity, vorticity confinement), then, at the last substep of a step asked to
   (pbd_World_SetFluidMeasure), the fluid's statistics: rho_i / rho0 of every live particle at p, the positions the
   step commits (but where its speed or world bound clamps one), with this substep's lists, summed in the solve's
   order; about Fluid_SliceItems particles a unit. One density pass, O(list entries): a page gets its readout's
   numbers from the step (in slices, or on the threaded runner) instead of a neighbour search of its own
   (pbd_World_GetFluidStats, seconds at the format's limits). The state is not touched: the same bits. */
static int Fluid_VelocitiesUnit(pbdWorld* w, void* state, const pbdStepContext* ctx, int whole)
{
	pbdFluid* f = state;
	if (!(f->listsValid && f->fluidCount > 0)) return 1;
	const int32_t items = whole ? f->fluidCount : Fluid_SliceItems(w, f);
	if (f->measurePart == 0) {
		if (!pbd_Fluid_VelocitiesUnit(w, f, items, whole)) return 0;
		if (!(f->measureAsked && ctx->substep == ctx->substeps - 1)) return 1;
		f->measurePart = 1;
		f->measureNext = 0;
		memset(&f->measuring, 0, sizeof f->measuring);
		if (!whole) return 0;
	}
	const int32_t end = f->fluidCount - f->measureNext > items ? f->measureNext + items : f->fluidCount;
	pbd_Fluid_SumDensities(f, w->p, f->measureNext, end, &f->measuring);
	f->measureNext = end;
	if (f->measureNext < f->fluidCount) return 0;
	f->measured = f->measuring;
	f->measuredStep = w->steps + 1; /* the step this unit ends (counted after its last unit) */
	f->measurePart = 0;
	return 1;
}

/* C_i = max(rho_i / rho0 - 1, 0) of each live fluid particle on `positions`, with the lists of the
   last substep (none yet: nothing to report). */
static void Fluid_Error(const pbdWorld* w, const void* state, const float* positions, float* perParticle, double* sum,
						int32_t* count)
{
	const pbdFluid* f = state;
	(void)w;
	if (!f->listsValid) return;
	for (int32_t o = 0; o < f->fluidCount; ++o) {
		const int32_t i = f->order[o];
		const float rho = pbd_Fluid_DensityAt(f, positions, i);
		const float e = rho > 1.0f ? rho - 1.0f : 0.0f;
		if (perParticle != NULL && e > perParticle[i]) perParticle[i] = e;
		*sum += e;
		*count += 1;
	}
}

const pbdFamily pbd_family_fluid = {
	.name = "fluid",
	.bytes = Fluid_Bytes,
	.scratchBytes = Fluid_ScratchBytes,
	.create = Fluid_Create,
	.start = Fluid_PrepareStep,
	.startUnit = Fluid_PrepareStepUnit,
	.findContacts = Fluid_PrepareSubstep,
	.findContactsUnit = Fluid_ContactsUnit,
	.unitsLeft = Fluid_UnitsLeft,
	.colourCount = Fluid_ColourCount,
	.colourSize = Fluid_ColourSize,
	.blockSize = 256, /* about 30 neighbours a particle: 256 particles cost far more than claiming them */
	.sliceItems = Fluid_SliceItems,
	.solve = Fluid_Solve,
	.update = Fluid_Update,
	.velocities = Fluid_Velocities,
	.velocitiesUnit = Fluid_VelocitiesUnit,
	.error = Fluid_Error,
	.count = Fluid_Count,
};
