/* world/core.h -- the private world layout that the core's files share. */
#ifndef PBD_CORE_H
#define PBD_CORE_H

#include "minipbd.h"
#include "base/pool.h"

#include <math.h>
#include <stdint.h>

/* Marks a function of the flat JS surface (the files of src/wasm); tools/wasm-exports.sh exports them. */
#define PBDJS_API __attribute__((used, visibility("default")))

#define PBD_COOKIE 0x50424431 /* "PBD1": the def was made by its default function */

#ifdef NDEBUG
#define PBD_ASSERT(c) ((void)0)
#else
#include <assert.h>
#define PBD_ASSERT(c) assert(c)
#endif

/// The step's stages (Box2D solver.h style): with world/step.c, which runs them, the one statement of the
/// algorithm (seed 000 section 4). A step is start, then per substep predict .. commit, then end; each stage calls
/// the families' hooks of its name through the registry (families/family.h), in registry order (velocities: in
/// reverse). The numbers are public (pbd_World_StepStage, pbd_StageName): the substep's stages first, as before
/// the per-step ones were stages.
typedef enum pbdStage {
	pbdStage_predict,    ///< per substep: forces hooks (wind), then v* = v + h w f_ext, p = x + h v*
	pbdStage_contacts,   ///< findContacts hooks: particle pairs, the fluid's lists, collider frames, ground flags
	pbdStage_solve,      ///< ns Gauss-Seidel passes: every family's solve in registry order, colour by colour
	pbdStage_update,     ///< update hooks: tearing, plasticity; the render topology follows
	pbdStage_velocities, ///< v = (p - x) / h, then velocities hooks in reverse registry order: restitution, XSPH
	pbdStage_commit,     ///< damping, speed bound (after v is recomputed, so they last), world bound,
	                     ///< x = p: one sweep
	pbdStage_start,      ///< per step, before the first substep: start hooks (pass stiffness, emit, sort, tethers)
	pbdStage_end,        ///< per step, after the last substep's commit: end hooks (colliders: motion's start := end)
	pbdStage_count
} pbdStage;

/// Room for the registry's families (families/family.h PBD_FAMILIES; registry.c asserts it fits).
#define PBD_MAX_FAMILIES 16

/// Particle phase (the NVIDIA FleX idea): one word per particle saying which object it belongs
/// to, its collision group and flags, so that one neighbour search over all particles serves
/// self-collision, collisions between objects and (later) fluids, each filtering by phase.
#define PBD_PHASE_OBJECT_MASK 0xffu          ///< bits 0-7: object index (PBD_MAX_OBJECTS = 256)
#define PBD_PHASE_GROUP_SHIFT 8
#define PBD_PHASE_GROUP_MASK (0xffu << 8)    ///< bits 8-15: collision group (particles of one group
                                             ///< collide among themselves only with PBD_PHASE_SELF)
#define PBD_PHASE_SELF (1u << 16)            ///< collides with particles of its own group
#define PBD_PHASE_FLUID (1u << 17)           ///< a fluid particle (families/fluid.c): its density is constrained
#define PBD_PHASE_NO_COLLIDE (1u << 18)      ///< takes part in no particle contact
#define PBD_PHASE_INACTIVE (1u << 19)        ///< a parked slot of a fluid's capacity: w = 0, in no search, drawn by no one

/// An object's plasticity (minipbd.h pbd_World_SetObjectPlasticity); creep = 0: off.
typedef struct pbdPlasticity {
	float yield, creep, max;
} pbdPlasticity;

/// What the hooks know of the step in progress.
typedef struct pbdStepContext {
	float dt;          ///< step length
	float h;           ///< substep length dt / substeps
	int32_t substep, substeps;
	int32_t pass, passes; ///< Gauss-Seidel pass within the substep, and ns
	float alpha;       ///< (substep + 1) / substeps: the share of the step done at this substep's end
	int32_t recordConvergence;
} pbdStepContext;

struct pbdTeam;

typedef struct pbdWorld {
	int32_t generation;
	int32_t inUse;
	pbdPool pool;
	char lastError[256]; ///< the message of the last refused call on this world ("ok" until one)

	int32_t maxParticles, maxTriangles, maxLines, maxObjects;
	int32_t particleCount, triangleCount, lineCount, objectCount;
	int32_t topologyVersion;
	int32_t steps;

	float params[pbdParam_count];

	/* Particles: float4 each. x.w holds w = 1/m (the source of truth); p.w copies it
	   during prediction so the solver reads position and weight with one load. */
	float* x;
	float* p;
	float* v;
	float* n;
	float* previous;  ///< x at the start of the last step (pbd_World_KeepPrevious); a particle added or set since: its x
	int32_t keepPrevious;
	uint32_t* phase;  ///< PBD_PHASE_* per particle, set by the builders

	/* Change counters that families compare with the value they last saw, instead of each
	   family keeping a dirty flag that every setter must know about. */
	int32_t massVersion;     ///< any inverse mass changed (shares, contact filters)
	int32_t pinVersion;      ///< the set of pinned (w = 0) particles changed (tethers)
	int32_t positionVersion; ///< positions were set from outside the step (kept contact lists)
	int32_t paramVersion;    ///< a parameter changed (contacts: thickness, the filters)

	/* The services below the families (src/services/): the walls, ground and colliders (services/boundary.h). */
	struct pbdBoundary* boundary;
	/* Surfaces (services/surfaces.h), each set by the family that knows it at its create; NULL: none. */
	const struct pbdNormalSource* normals;
	const struct pbdEdgeSource* edges;
	/* The tethers' reach (services/reach.h), set by the tethers family at its create; NULL: none. */
	const struct pbdReachSource* reach;

	/* Constraint families' states, indexed by pbdFamilyId (families/family.h). */
	void* families[PBD_MAX_FAMILIES];

	uint32_t* triangles;
	uint32_t* lines;
	pbdObjectInfo* objects;
	/* Per object material (services/materials.h: contact radius, friction share, flags, collision filter;
	   pbd_World_SetObjectRadius, pbd_World_SetObjectFilter, pbd_World_SetObjectPlasticity): set by the builders and
	   the API, read by the families. A change moves paramVersion; a filter's, filterVersion too. */
	struct pbdMaterial* materials;
	int32_t filterVersion;
	float* objectSpacing;           ///< its particles' spacing, which bounds the radius (minipbd.h PBD_MAX_RADIUS_SPACINGS):
	                                ///< a chain's segment, a cloth's finer grid step, a body's finest lattice step or
	                                ///< shortest tet edge; fluids read fluid.spacing instead (pbd_ObjectSpacing)
	pbdPlasticity* plasticity;      ///< per object

	/* Instruments: per-particle relative error (pbd_World_UpdateErrors) and the mean
	   relative error after each pass of the last step (param recordConvergence). */
	float* errors;
	float* densities; ///< rho / rho0 per particle (fluid particles; 0 for others), after pbd_World_UpdateDensities
	float* convergence;
	int32_t convergenceCount;

	/* Rest positions (float4 each): tethers and self-collision filtering compare against them. */
	float* rest0;
	/* External force per particle (float4), filled by the forces hooks (wind) during prediction;
	   read only when forceActive was set by one of them in this substep. */
	float* force;
	int32_t forceActive;

	/* Scratch reserved at creation, the largest of the families' scratchBytes: colouring while
	   building, tethers at the step that rebuilds them, the hash grid's sorted arrays in the
	   contacts stage. It holds nothing from one hook to the next, but for a family whose slice units
	   keep data in it from one unit of a stage to the next (the contacts' grid, the fluid's lists
	   and sort): that family holds it meanwhile (scratchHolder, pbd_Scratch_Hold). No one else can
	   run in between: the step's stages run their families one after the other, and every public
	   call that uses the scratch waits for the step's end (pbd_CheckNoStep). No later call allocates. */
	uint8_t* scratch;
	size_t scratchBytes;
	int32_t scratchHolder; ///< 0, or the pbdScratchHolder whose slice units keep data in the scratch

	/* Threads (base/tasks.h): the team the world steps on and with how many participants;
	   teamActive while a step or slice holds it. */
	struct pbdTeam* team;
	int32_t threads;
	int32_t teamActive;
	/* A step taken in slices (pbd_World_StepSlice): begun (from BeginStep to the end of its last
	   unit: pbd_StepInProgress), the next stage unit (0: its start) and the step's context, fixed
	   when it began. */
	int32_t stepBegun;
	int32_t stepUnit;
	pbdStepContext stepContext;
	/* Within a stage unit cut finer (world/step.c, slices): the family, colour and first
	   constraint of the next slice unit of a Gauss-Seidel pass; the family of the next unit of the
	   step's start and the contacts stage. 0, 0, 0 between stage units. */
	int32_t sliceFamily, sliceColour, sliceBegin;
	/* The work of the last slice unit of a stage cut by its work (pair tests, list entries,
	   particles moved), for the tests that hold it bounded, and the work a unit aims at:
	   PBD_SLICE_WORK (tests set less, to cut small scenes into many units). */
	int64_t sliceWork, sliceBudget;
	/* A host thread's hold on the steps running on another (wasm/api.c pbdjs_StepNControlled: the threaded
	   page's runner worker): NULL but during such a call. See pbdStepControl. */
	struct pbdStepControl* stepControl;
} pbdWorld;

/* What a host thread and the steps running on another share (wasm/api.c pbdjs_StepNControlled): the host writes
   `request`, the steps write the rest, each word alone and atomically (__atomic builtins on plain int32_t, so the
   layout is the one JS reads with Atomics). request: 0 run on; 1 stop after the step in progress; 2 stop at the next
   stage unit, mid-step (only for a world about to be destroyed: pbd_DestroyWorld takes a world mid-step, and a later
   pbd_World_Step would finish the step). stepsDone: steps ended of this call; unitDone and unitTotal: the stage
   units of the step in progress (world/step.c UnitCount), for a progress bar within a long step. */
typedef struct pbdStepControl {
	int32_t request, stepsDone, unitDone, unitTotal;
} pbdStepControl;
enum { PBD_STEP_RUN = 0, PBD_STEP_STOP_AFTER = 1, PBD_STEP_STOP_NOW = 2 };

pbdWorld* pbd_GetWorld(pbdWorldId id);
/// Sets the message of a refused call that has no world (pbd_GetLastErrorMessage) and returns code.
int pbd_SetError(int code, const char* fmt, ...);
/// Sets the world's message of a refused call on it (pbd_World_GetLastErrorMessage) and returns code.
int pbd_SetWorldError(pbdWorld* world, int code, const char* fmt, ...);

/* Finite and within the bound that keeps products of positions finite in float. */
#define PBD_COORD_LIMIT 1e5f
static inline int pbd_IsFinite(float v) { return v == v && v - v == 0.0f; }
static inline int pbd_IsCoord(float v) { return pbd_IsFinite(v) && v <= PBD_COORD_LIMIT && v >= -PBD_COORD_LIMIT; }
/// PBD_OK, or an error naming `what` when a component of v is not a coordinate (pbd_IsCoord).
int pbd_CheckVec(pbdWorld* world, const float v[3], const char* what);

/* Public entry points start with this: a stale or invalid id is refused with a message. */
#define PBD_GET_WORLD_OR_RETURN(w, id)                                                \
	pbdWorld* w = pbd_GetWorld(id);                                                   \
	if (w == NULL) return pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)(id))

/* Particle indices from outside are refused unless in [0, particleCount). */
#define PBD_CHECK_PARTICLE(w, i)                                                                                \
	if ((i) < 0 || (i) >= (w)->particleCount)                                                                   \
	return pbd_SetWorldError((w), PBD_ERR_INVALID_PARTICLE, "particle %d of %d", (int)(i), (w)->particleCount)

/// The spacing that bounds object `object`'s contact radius (minipbd.h PBD_MAX_RADIUS_SPACINGS; params.c).
float pbd_ObjectSpacing(const pbdWorld* world, int32_t object);
/// PBD_OK when `value` (a contact radius, or a thickness: a diameter) is at most `spacings` x `spacing`
/// (PBD_MAX_RADIUS_SPACINGS, twice that for a thickness); else PBD_ERR_INVALID_ARGUMENT with a message naming
/// the value (`name`), whose particles (`whose`) and the limit, and the world unchanged (params.c).
int pbd_CheckRadiusSpacing(pbdWorld* world, const char* name, float value, float spacings, float spacing, const char* whose);
/// Who keeps data in the world's scratch between the slice units of a stage (world->scratchHolder).
typedef enum pbdScratchHolder {
	pbdScratch_none = 0,
	pbdScratch_contacts, ///< the contacts' grid: sorted copies, from its build to the search's last unit
	pbdScratch_fluid,    ///< the fluid's grid and its lists' counts; its sort's permutation rows
	pbdScratch_shapes,   ///< a body's hash, walk and layers while its rest normals are built (shapes_sdf.c)
} pbdScratchHolder;

/// The world's scratch for `holder` (pbdScratch_none: a user that keeps nothing in it past its call): never while
/// another holder keeps data in it (an assertion: a public call that would use it between slices is refused before,
/// pbd_CheckNoStep, and a step runs its families' units one family after the other).
static inline uint8_t* pbd_Scratch_Take(pbdWorld* w, int32_t holder)
{
	PBD_ASSERT(w->scratchHolder == pbdScratch_none || w->scratchHolder == holder);
	return w->scratch;
}
/// From a unit that leaves data in the scratch for the next unit of its stage, until pbd_Scratch_Release.
static inline void pbd_Scratch_Hold(pbdWorld* w, int32_t holder)
{
	PBD_ASSERT(w->scratchHolder == pbdScratch_none || w->scratchHolder == holder);
	w->scratchHolder = holder;
}
static inline void pbd_Scratch_Release(pbdWorld* w, int32_t holder)
{
	if (w->scratchHolder == holder) w->scratchHolder = pbdScratch_none;
}

/// A step is in progress: begun by pbd_World_StepSlice and not yet ended (world/step.c).
static inline int pbd_StepInProgress(const pbdWorld* w) { return w->stepBegun != 0; }

/// PBD_OK, or PBD_ERR_STEP_IN_PROGRESS while a step taken in slices is in progress: the calls that add objects
/// or rebuild a family's search state (and use the world's scratch, which the step's units keep their data in
/// between slices: world/step.c) wait for its end. `what` names the call in the message (step.c).
int pbd_CheckNoStep(pbdWorld* world, const char* what);

void pbd_Solver_Step(pbdWorld* world);

/// The approach speed below which a contact does not bounce (the ground's, the colliders' restitution): what
/// gravity adds over two substeps of length h, 2 h |g|. Gravity is the step's parameter; families read it here.
static inline float pbd_RestingSpeed(const pbdWorld* w, float h)
{
	const float* g = &w->params[pbdParam_gravityX];
	return 2.0f * h * sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
}
/// The world-wide parameter of each constraint kind ("stiffness.<kind>"), world/tables.c: a new group of a
/// kind starts at its value, and setting it sets every object's constraints of that kind.
extern const pbdParam pbd_kindParam[pbdKind_count];
/// Every parameter to its default (world/tables.c).
void pbd_ResetParams(float* params);
/// The parameter table's row of `param` (0 <= param < pbdParam_count; world/tables.c).
const pbdParamInfo* pbd_ParamTableEntry(int param);


#endif
