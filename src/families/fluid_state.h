/* families/fluid_state.h -- the fluid family's state, shared by its files:
     fluid.c           the family's table, pool, parameters, walls, neighbour lists
     fluid_queries.c   the public queries: statistics, the densities buffer, one part of the substep alone
     fluid_solve.c     the density constraint (Macklin & Mueller 2013, seed 002): densities and lambda,
                       position corrections with s_corr, the solid particles' share (Macklin et al. 2014 7.1)
     fluid_sheets.c    thin solids (cloth): the side of the surface each fluid particle near one is held on
     fluid_guard.c     after the passes, no fluid particle's path in the substep crosses a cloth triangle
     fluid_sort.c      the fluid particles into cell order, every per-particle array moved with them
     fluid_emit.c      emitters (hoses) and drains: live ranges grow and close up
     fluid_velocity.c  vorticity confinement and XSPH viscosity, after the velocity update
   Only these files read it; tests may look. */
#ifndef PBD_FLUID_STATE_H
#define PBD_FLUID_STATE_H

#include "families/family.h"
#include "neighbours/grid.h"

/// A fluid object: particles [first, first + capacity) are its range, the first `active` live.
typedef struct pbdFluidObject {
	int32_t object;   ///< index into world->objects
	int32_t first, capacity, active;
} pbdFluidObject;

typedef struct pbdEmitter {
	pbdEmitterDef def;  ///< as given (direction normalised)
	float travelled;    ///< distance the stream has moved since its last disc (m)
} pbdEmitter;

typedef struct pbdDrain {
	float lower[3], upper[3];
} pbdDrain;

#define PBD_FLUID_WALL_SAMPLES 64

/// Constants of the kernels for the parameters of this step (fluid.c Fluid_PrepareStep).
typedef struct pbdFluidKernel {
	float d;          ///< particle spacing, fluid.spacing
	float h, h2;      ///< smoothing radius as used (fluid.smoothingRadius clamped to [d, 4 d]) and its square
	float rho0;       ///< fluid.restDensity
	float mass;       ///< of a fluid particle, rho0 d^3
	float poly6;      ///< W = poly6 (h^2 - r^2)^3: 315 / (64 pi h^9) fitted to the lattice (fluid.c Fluid_Lattice)
	float spiky;      ///< -45 / (pi h^6): grad W = spiky (h - r)^2 r / |r|
	float epsilon;    ///< the relaxation in the units of sum |grad C|^2 (fluid.relaxation x its rest-lattice value)
	float scorrK, scorrInvW; ///< s_corr = -k (W(r) / W(dq h))^n: k in lambda's units (fluid.scorrK / gradRest),
	                         ///< and 1 / (h^2 - (dq h)^2)^3 (W without its constant; 0 when s_corr is off)
	int32_t scorrN;
	float vorticity, viscosity;
	/* Added by the core helper (derived, fluid.c pbd_Fluid_UpdateKernel): */
	float d3;         ///< d^3: a fluid particle's volume, m / rho0
	float rhoScale;   ///< d^3 poly6: rho_i / rho0 = rhoScale sum_j s_j (h^2 - r^2)^3
	float gradScale;  ///< d^3 spiky: (m_j' / rho0) grad W = gradScale s_j (h - r)^2 r / |r|
	float gradRest;   ///< sum_j |grad_j C_i|^2 of a full rest lattice (the unit of lambda's denominator)
	float radius;     ///< a fluid particle's contact radius, d / 2
	float params[9];  ///< the fluid.* parameters these were computed from (a change recomputes them)
	/* The walls' share in the density (fluid.c Fluid_WallTable): rho_b(phi) / rho0 of a half-space of rest
	   lattice whose surface is phi from the particle, sampled at phi = k h / PBD_FLUID_WALL_SAMPLES. */
	float wall[PBD_FLUID_WALL_SAMPLES + 2];
	float wallInvStep; ///< PBD_FLUID_WALL_SAMPLES / h
} pbdFluidKernel;

/// Densities summed for the statistics: rho_i / rho0, max(rho_i / rho0 - 1, 0), the largest, over `count` particles.
typedef struct pbdDensitySums {
	double sum, error;
	float largest;
	int32_t count;
} pbdDensitySums;

typedef struct pbdFluid {
	int32_t maxFluidParticles; ///< 0: no fluid in this world (nothing else reserved)
	pbdFluidObject objects[PBD_MAX_FLUID_OBJECTS];
	int32_t objectCount;
	int32_t reserved;          ///< capacity of all fluid objects

	/* The neighbour search (neighbours/grid.h): its own grid, lists of every particle in the
	   search (fluid particles: fluid and solid neighbours within h; solid particles: their fluid
	   neighbours), built once per substep and read by every pass and the velocity passes. */
	pbdGrid grid;
	pbdNeighbourLists lists;
	int32_t listsValid;        ///< the lists match the current particle order and count

	/* Per particle (maxParticles), reused each pass: */
	float* density;   ///< rho / rho0 of fluid particles, from the last density pass
	float* lambda;    ///< lambda of fluid particles (0 for solids: they carry no density constraint)
	float* delta;     ///< float4: the Jacobi correction of this pass (fluid and solid particles)
	float* omega;     ///< float4: vorticity (fluid_velocity.c)
	float* scratchV;  ///< float4: new velocities before they are written back (XSPH)
	float* volume;    ///< per object: a solid particle's share in the fluid's density, (2 r_o)^3 / d^3 of a fluid particle
	/* Added by the core helper: */
	float* props;     ///< float4 per particle in the lists, this substep: (w_hat = w / w_fluid from x.w, so the
	                  ///< shapes family's stacking mass scaling does not bend buoyancy; share s = volume;
	                  ///< 1 fluid / 0 solid; contact radius)
	float* entryGrad; ///< per list entry of a fluid particle, from the density pass: gradScale s_j (h - r)^2 / r
	float* entryAux;  ///< per list entry: s_corr of a fluid neighbour, r of a solid one
	int32_t gradCached; ///< entryGrad / entryAux are for the current lists (a density pass ran since the build;
	                    ///< objects helper: fluid_velocity.c reads them)
	float* boundary;  ///< float4 per fluid particle, this substep: the nearest wall (ground, collider) within h as
	                  ///< the plane n . p + c = phi (n = 0, c = 2 h when none): the walls' density share
	float* sheet;     ///< float4 per cloth particle near the fluid, this substep (fluid_sheets.c): its surface's unit
	                  ///< normal and patch size l (longest incident edge); l = 0: no surface, the sphere contact
	float* entrySide; ///< per list entry of a fluid-cloth pair: the side of the cloth the fluid particle started
	                  ///< the substep on (+1 / -1); 0 for every other entry
	uint8_t* nearSheet; ///< per fluid particle: its list holds cloth particles, or it remembers some (the solve's sheet variant)
	int32_t* sheetMemory; ///< PBD_SHEET_MEMORY per fluid particle, kept from substep to substep and moved with the
	                      ///< particle: the cloth particles j it was nearest as +-(j + 1), the sign its side; 0 none
	uint8_t* sheetExtra;  ///< per fluid particle, this substep: bit e = its memory's entry e is no list entry but
	                      ///< still over j's patch (fluid_sheets.c): the solve holds it on its side all the same
	uint8_t* guardSpent;  ///< per fluid particle, this substep: the guard's rounds ran out (fluid_guard.c)
	int32_t sheetRemember; ///< FindSheets writes the memory (the step's search), not a query's
	int32_t sheetPairs; ///< fluid-cloth pairs of this substep (tests)
	int32_t* order;   ///< the particles the solve visits: live fluid particles (object by object, index order),
	                  ///< then solid particles with fluid neighbours
	int32_t orderCount, fluidCount; ///< all of order, its fluid part
	int32_t plain;                  ///< this substep's lists hold fluid only, all free (props all (1, 1, 1, r))
	uint8_t* plainList;             ///< per fluid particle, from the substep's first density pass: its list holds free
	                                ///< fluid particles only (fluid_solve.c Density takes their props as constants)
	int32_t entryCapacity;          ///< lists' capacity (80 x maxFluidParticles)
	float massRho0, massSpacing;    ///< fluid.restDensity and fluid.spacing the fluid particles' masses follow
	float wallAlpha;                ///< the colliders' share of their motion for the next BuildLists (1 outside the step)

	pbdFluidKernel k;
	int32_t paramVersion, massVersion;

	/* Emitters and drains (fluid_emit.c). */
	pbdEmitter emitters[PBD_MAX_EMITTERS];
	int32_t emitterCount;
	pbdDrain drains[PBD_MAX_DRAINS];
	int32_t drainCount;
	int32_t emitted, drained, full;

	/* Sorting (fluid_sort.c). */
	int32_t stepsSinceSort;
	int32_t sorts;            ///< sorts done (tests, benchmark)

	/* Statistics of the last substep's lists. */
	int32_t droppedNeighbours;
	float meanNeighbours;
	/* The step's start in slice units (fluid.c Fluid_PrepareStepUnit; fluid_emit.c, fluid_sort.c): the part in
	   progress (0: none) and within it the item (drain's object, emitter, sorted object), its part, array and row
	   (a disc's row and column), what the part carries over units, and this start's and the last start's units. */
	int32_t startPart, startItem, startStep, startArray, startRow, startCol, startCount;
	int32_t startKept, startRemoved, startChanged, startBefore, startUnits, lastStartUnits;
	float startAt[3];
	/* The contacts stage in slice units (fluid.c Fluid_ContactsUnit): the part in progress (0: none), the lists'
	   cursor, the next of the walls' particles, and the units of this stage and of the last (the estimate of the
	   next: family.h unitsLeft). */
	int32_t listsPart, wallsNext, listsUnits, lastListsUnits;
	pbdListsCursor listsCursor;
	/* pbd_Fluid_VelocitiesUnit's cursor within the velocities stage of a step taken in slices:
	   the part (0: not begun, 1: the first pass, 2: confinement, 3: the write-back), the fluid
	   object and its first particle of the next unit. */
	int32_t velPart, velObject, velBegin;
	/* The statistics the step measures when asked (pbd_World_SetFluidMeasure; fluid.c Fluid_VelocitiesUnit): asked,
	   the part (0: the velocities, 1: the measure), the next particle of the solve's order and the sums so far, and
	   the last measure's step (0: none) and values. */
	int32_t measureAsked, measurePart, measureNext, measuredStep;
	pbdDensitySums measuring, measured;
} pbdFluid;

static inline pbdFluid* pbd_FluidState(const pbdWorld* world) { return (pbdFluid*)world->families[pbdFamily_fluid]; }

/* fluid_solve.c */
/// Adds rho_i / rho0 at `positions` (the current lists) of the solve's order entries [begin, end) to *sums.
void pbd_Fluid_SumDensities(const pbdFluid* fluid, const float* positions, int32_t begin, int32_t end, pbdDensitySums* sums);

/* fluid.c */
/// Kernel constants from the parameters (every step, and on demand for the queries).
void pbd_Fluid_UpdateKernel(pbdWorld* world, pbdFluid* fluid);
/// Builds the grid over every particle's `positions` (float4) and the lists, the solve's order and props,
/// and each fluid particle's nearest wall (colliders at wallAlpha of their motion); 0 if the build was refused.
int pbd_Fluid_BuildLists(pbdWorld* world, pbdFluid* fluid, const float* positions);

/* fluid_solve.c: each over particles order[begin .. end) (fluid->order: the live fluid particles first,
   then the solid ones with fluid neighbours; threads take ranges; no range writes what another reads in
   the same call). */
/// density[i] and lambda[i] of the fluid particles order[begin .. end) (end <= fluidCount), from `positions`;
/// caches each list entry's gradient factor and s_corr (or r) for the correction that follows.
/// `learned`: a later pass of the substep, which may read what the first wrote (plainList).
void pbd_Fluid_SolveDensity(pbdWorld* world, pbdFluid* fluid, const float* positions, int32_t begin, int32_t end, int learned);
/// delta[i] of the particles in [begin, end) (fluid, and solid with fluid neighbours) from lambda.
void pbd_Fluid_SolveCorrect(pbdWorld* world, pbdFluid* fluid, const float* positions, int32_t begin, int32_t end);
/// positions[i] += delta[i] for [begin, end).
void pbd_Fluid_Apply(pbdWorld* world, pbdFluid* fluid, float* positions, int32_t begin, int32_t end);
/// rho_i / rho0 of live fluid particle i on `positions` with the current lists (writes nothing).
float pbd_Fluid_DensityAt(const pbdFluid* fluid, const float* positions, int32_t i);

/* fluid_sheets.c */
/// Cloth normals and patch sizes on x, and each fluid-cloth list entry's side (after the lists' build).
void pbd_Fluid_FindSheets(pbdWorld* world, pbdFluid* fluid);

/* fluid_guard.c */
/// After the passes: each fluid particle whose path x -> p crossed a cloth triangle's motion is put back on the side
/// it came from.
void pbd_Fluid_GuardSheets(pbdWorld* world, pbdFluid* fluid);

/* fluid_sort.c */
/// An array indexed by particle that outlives a substep, and its bytes per particle.
typedef struct pbdParticleArray {
	void* base;
	size_t width;
} pbdParticleArray;
#define PBD_FLUID_PARTICLE_ARRAYS 12
#define PBD_SHEET_MEMORY 4
/// Every array a fluid particle's slot owns from one step to the next: x, p, v, n, rest0, force, phase,
/// errors, densities and the family's density, lambda and sheet memory (delta, props, omega, scratchV and the lists are
/// rebuilt every substep). The sort permutes them and a drain's compaction moves them: one list for both.
/// Returns how many it wrote (arrays not carved yet are left out).
int32_t pbd_Fluid_ParticleArrays(pbdWorld* world, pbdFluid* fluid, pbdParticleArray out[PBD_FLUID_PARTICLE_ARRAYS]);
/// Reorders every fluid object's live particles by cell (all per-particle arrays follow; attachments are
/// remapped; the kept contact lists and the fluid's lists are marked stale).
void pbd_Fluid_Sort(pbdWorld* world, pbdFluid* fluid);
/// pbd_Fluid_Sort in slice units: begin, then units of a grid's build (O(an object's particles)) or about `budget`
/// rows moved each, their work added to *work; 1 when done. The same bits.
void pbd_Fluid_SortBegin(pbdWorld* world, pbdFluid* fluid);
int pbd_Fluid_SortUnit(pbdWorld* world, pbdFluid* fluid, int64_t budget, int64_t* work);

/* fluid_emit.c */
/// Drains, then emitters, for this step (start).
void pbd_Fluid_EmitAndDrain(pbdWorld* world, pbdFluid* fluid, const pbdStepContext* ctx);
/// pbd_Fluid_EmitAndDrain in slice units: begin, then units of about `budget` particles (drained, moved, parked,
/// or disc points visited) each, their work added to *work; 1 when done. The same bits.
void pbd_Fluid_EmitAndDrainBegin(pbdWorld* world, pbdFluid* fluid);
int pbd_Fluid_EmitAndDrainUnit(pbdWorld* world, pbdFluid* fluid, const pbdStepContext* ctx, int64_t budget, int64_t* work);
/// Moves particle `from` into slot `to` (every per-particle array of the world and the family), for
/// compaction and sorting; other families' records of particles are not touched (pbd_Families_ParticlesMoved tells them).
void pbd_Fluid_MoveParticle(pbdWorld* world, pbdFluid* fluid, int32_t from, int32_t to);
/// A parked slot: w = 0, phase INACTIVE | NO_COLLIDE | FLUID of its object, at rest at `at`.
void pbd_Fluid_Park(pbdWorld* world, int32_t particle, uint32_t object, const float at[3]);

/* fluid_velocity.c */
/// Vorticity confinement, then XSPH viscosity, on w->v of the live fluid particles (velocities hook).
void pbd_Fluid_Velocities(pbdWorld* world, pbdFluid* fluid, const pbdStepContext* ctx);
/// One slice unit of pbd_Fluid_Velocities (at most `items` particles of one of its parts; with
/// `whole`, all that is left); 1 when the velocities are done. The same bits as in one call.
int pbd_Fluid_VelocitiesUnit(pbdWorld* world, pbdFluid* fluid, int32_t items, int whole);
void pbd_Fluid_Vorticity(pbdWorld* world, pbdFluid* fluid, float h);
void pbd_Fluid_Viscosity(pbdWorld* world, pbdFluid* fluid);

#endif
