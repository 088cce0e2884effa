/* families/family.h -- the one interface every constraint family implements, and the
   registry the step walks (Box2D v3's joint dispatch, as a table of functions).

   A family is one kind of constraint (distance, volume, tethers, attachments, fluid, particle
   contacts, shapes, colliders, ground, wind) in its own files of src/families/ (a few share a
   private <family>_state.h, the family's state and what its files share, below all of them:
   distance.c + distance_colouring.c + tearing.c + plasticity.c; fluid*.c; shapes*.c + rotation.c),
   behind the table below. Its state is its own struct, carved
   from the world's pool at creation; no other file reads it (builders and the API go through the
   functions the family's header declares, e.g. families/distance.h). A family includes no other
   family's header: what families need of each other is a service below them (src/services/:
   boundary, materials, surfaces) or a hook of this table (particlesMoved).

   The step calls the hooks stage by stage, each hook in the stage of its name (start, forces in
   predict, findContacts, solve, update, velocities, end), in the order of PBD_FAMILIES: the order
   of the stages and what happens between them is written once, in core.h's pbdStage and
   world/step.c. On demand: error (per-particle relative error: heat map, convergence, stats).

   Colours. A family's constraints of one pass are split into colours, solved one colour
   after the other. A colour that is not `serial` holds constraints that share no particle,
   so any range [begin, end) of it may be solved on its own (the threads of a later issue
   take blocks of a colour; the result does not depend on the split, to the bit when the
   split keeps the family's 4-wide lanes together: tethers at multiples of 4). A serial colour's
   constraints may share particles and are solved in order, by one worker.

   Adding a family: its file (and header, if builders or the API call it), one line in
   PBD_FAMILIES, its parameters in minipbd.h's PBD_PARAMS (owner = its name), its
   scene-format module and its strings on the JS side. The pool, the step and the
   statistics find it through the registry. */
#ifndef PBD_FAMILY_H
#define PBD_FAMILY_H

#include "world/core.h"

/// The registry: one line per family, in solve order. The order is part of the physics
/// (Gauss-Seidel) and of the determinism hashes: attachments (the pointer) first, so the
/// cloth's constraints share its pull in the same pass (solved after them, the grabbed
/// particle ended every pass on the target and its few edges took the whole lag: a corner
/// moved at 2 m/s stretched them 150%, 39% solved first; attachments do nothing with none held,
/// so no scene's bits move), then distance constraints (cloth, chains, soft-body
/// edges), soft-body volumes, tethers, the fluid, shape matching (after the pointer and the
/// fluid, so their corrections become the rigid body's motion), particle contacts, colliders,
/// and the ground last among the solvers, so that no particle ends
/// a pass below it (seed 000 section 1: inequalities projected when violated); wind (forces
/// only) and the skin (render surfaces, no hook in the step) solve nothing.
/// The contacts come after the shape matching, as the colliders and the ground do: solved before
/// it, a pair's friction (which cancels the touching particles' travel) was shared out over the
/// body by the fit, so a box on a box crept down any slope, by g sin(theta) h (1 - f) / f a
/// substep at steady speed (f the fit's share of the touching particles' pull): 3.8 cm in 10 s
/// at 3 degrees, with mu 0.2. Solved after it, the box holds to 11 degrees and slides at 12
/// (atan 0.2 = 11.3; tests/c/test_shapes_stacks.c). A contact's push then reaches the rest of
/// the body at the next fit, a pass later.
#define PBD_FAMILIES(X) \
	X(attachments)      \
	X(distance)         \
	X(volume)           \
	X(inflatables)      \
	X(tethers)          \
	X(fluid)            \
	X(shapes)           \
	X(contacts)         \
	X(colliders)        \
	X(ground)           \
	X(wind)             \
	X(skin)

typedef enum pbdFamilyId {
#define PBD_X_FAMILY_ID(name) pbdFamily_##name,
	PBD_FAMILIES(PBD_X_FAMILY_ID)
#undef PBD_X_FAMILY_ID
	pbdFamily_count
} pbdFamilyId;

/// Capacities of a world (its definition with the defaults applied): what families size
/// their share of the pool from. Its fields are minipbd.h's PBD_CAPACITIES (maxFluidParticles 0: no fluid).
typedef struct pbdCapacity {
#define PBD_X_FIELD(field, name, fixed, perParticle, limit, flags) int32_t field;
	PBD_CAPACITIES(PBD_X_FIELD)
#undef PBD_X_FIELD
} pbdCapacity;


typedef struct pbdFamily {
	const char* name;
	/// Pool bytes of the family's state for these capacities (sum of pbd_PoolBytes of each part).
	size_t (*bytes)(const pbdCapacity* cap);
	/// Bytes of the world's shared scratch the family needs at most at once (building, a
	/// contacts search). The scratch holds nothing from one hook to the next (but what a family's
	/// slice units keep in it within one stage: world/core.h pbd_Scratch_Hold), so the world
	/// reserves the largest need, not the sum.
	size_t (*scratchBytes)(const pbdCapacity* cap);
	/// Carves the state out of the pool (zeroed) and returns it; NULL only if the pool is short,
	/// which is a sizing bug (bytes() and create() disagree). NULL (with bytes NULL): no state.
	void* (*create)(pbdWorld* world, pbdPool* pool, const pbdCapacity* cap);

	/* Every hook below may be NULL; each runs in the stage of its name (core.h pbdStage, world/step.c). */
	/// Start stage, once a step: k' for the pass count, masses changed, collider motion, the fluid's emit and sort.
	void (*start)(pbdWorld* world, void* state, const pbdStepContext* ctx);
	/// Predict stage: external forces into world->force (setting world->forceActive), before the prediction.
	void (*forces)(pbdWorld* world, void* state, const pbdStepContext* ctx);
	/// Contacts stage, every substep: find contacts on the predicted positions, rebuild derived data.
	void (*findContacts)(pbdWorld* world, void* state, const pbdStepContext* ctx);
	/// The start and findContacts hooks in slice units (optional, each with its hook set as well): one
	/// unit of bounded work (about PBD_SLICE_WORK, base/tasks.h) of it, or with `whole` all that is left; 1 when
	/// done. The same bits as the hook. A unit that leaves data in the world's scratch for the next holds it
	/// (pbd_Scratch_Hold) until the last. A whole step calls them with `whole` from the start: the hook's own
	/// fast path (threads and all).
	int (*startUnit)(pbdWorld* world, void* state, const pbdStepContext* ctx, int whole);
	int (*findContactsUnit)(pbdWorld* world, void* state, const pbdStepContext* ctx, int whole);
	/// Slice units the family's work of the start stage (pbdStage_start) or contacts stage (pbdStage_contacts)
	/// will take: what is left of the one in progress when `begun`, else a whole one's, estimated from the last.
	/// At least 1. NULL: 1 a stage.
	int32_t (*unitsLeft)(const pbdWorld* world, const void* state, int32_t stage, int begun);
	/// Colours in a pass (0: nothing to solve now).
	int32_t (*colourCount)(const pbdWorld* world, const void* state);
	/// Constraints in colour `colour`; *serial = 1 when they may share particles.
	int32_t (*colourSize)(const pbdWorld* world, const void* state, int32_t colour, int32_t* serial);
	/// Projects constraints [begin, end) of colour `colour` once.
	void (*solve)(pbdWorld* world, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end);
	/// Constraints per block when the step's threads share out a colour that is not serial
	/// (base/tasks.h; a multiple of 4 for the 4-wide families); 0: PBD_DEFAULT_BLOCK.
	int32_t blockSize;
	/// Constraints per slice unit (world/step.c: a step taken in slices runs a pass in units of
	/// at most this many constraints of one colour; rounded down to a multiple of blockSize);
	/// 0: PBD_SLICE_ITEMS; -1: a colour is one unit (its solve keeps state across its range).
	int32_t sliceSize;
	/// When set, the slice size of now instead of sliceSize (at least 1, not rounded): a family
	/// whose cost per constraint varies (the fluid's with its neighbours) keeps its units even.
	int32_t (*sliceItems)(const pbdWorld* world, const void* state);
	/// Update stage, after the passes: tearing, plasticity.
	void (*update)(pbdWorld* world, void* state, const pbdStepContext* ctx);
	/// Velocities stage, after v = (p - x) / h, in reverse registry order (see world/step.c Stage_Velocities).
	void (*velocities)(pbdWorld* world, void* state, const pbdStepContext* ctx);
	/// The velocities hook in slice units (optional, with velocities set as well): one bounded
	/// unit of it (with `whole`, all that is left); 1 when done. The same bits as velocities.
	int (*velocitiesUnit)(pbdWorld* world, void* state, const pbdStepContext* ctx, int whole);
	/// End stage, once a step after the last substep: the colliders' motion's start moves to its end.
	void (*end)(pbdWorld* world, void* state, const pbdStepContext* ctx);
	/// Stiffness k in [0, 1] of its constraints of `kind` (pbdConstraintKind) that belong to `object`
	/// (object < 0: every object's); a kind the family does not hold is none of its business.
	void (*setStiffness)(pbdWorld* world, void* state, int32_t object, int32_t kind, float k);
	/// The constraints the family holds now (the statistics' count, pbd_World_GetConstraintCounts); NULL: none
	/// that last (contacts are found again every substep and are not counted).
	int32_t (*count)(const pbdWorld* world, const void* state);
	/// Adds the family's figures to the statistics (pbd_World_GetStats: the distance family's maxError,
	/// meanError and maxStretch), so the world reads them through the registry, not a family's header; NULL: none.
	void (*stats)(const pbdWorld* world, const void* state, pbdStats* stats);
	/// Particles [first, first + count) were moved or removed by the family that owns them (a fluid sorted or
	/// drained, in its start hook): the particle that was at first + k is now at newIndex[k], or gone when
	/// newIndex[k] < 0. A family that keeps particle indices across steps follows (attachments); NULL: none kept.
	void (*particlesMoved)(pbdWorld* world, void* state, int32_t first, int32_t count, const int32_t* newIndex);
	/// Relative error of each constraint measured on `positions` (float4 per particle):
	/// perParticle[i] = max(perParticle[i], error of each constraint on i) when perParticle is
	/// not NULL; adds the errors to *sum and their number to *count (mean error: convergence
	/// curve, statistics).
	void (*error)(const pbdWorld* world, const void* state, const float* positions, float* perParticle, double* sum,
				  int32_t* count);
} pbdFamily;

#define PBD_X_FAMILY_DECL(name) extern const pbdFamily pbd_family_##name;
PBD_FAMILIES(PBD_X_FAMILY_DECL)
#undef PBD_X_FAMILY_DECL

/// The registry, indexed by pbdFamilyId (families/registry.c).
extern const pbdFamily* const pbd_families[pbdFamily_count];

/// Tells every family of the registry that particles moved (pbdFamily particlesMoved; registry.c).
void pbd_Families_ParticlesMoved(pbdWorld* world, int32_t first, int32_t count, const int32_t* newIndex);

/// A family's state in a world.
static inline void* pbd_FamilyState(const pbdWorld* world, pbdFamilyId id) { return world->families[id]; }

#endif
