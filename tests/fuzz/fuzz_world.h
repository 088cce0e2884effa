/* fuzz_world.h -- what the API fuzzer knows about a world, and the checks it makes after every
   call (fuzz_world.c). Public API only (src/minipbd.h): the core's internals are free to move. */
#ifndef FUZZ_WORLD_H
#define FUZZ_WORLD_H

#include "minipbd.h"
#include "fuzz_input.h"

#include <stdint.h>

/// Work bounds per input, so one input runs in well under a second even under the sanitizers.
/// Capacities the harness asks for (the engine allows more): room for a world of 4096 particles and
/// its cloth's constraints, whose loops are several blocks (base/tasks.h), so threads take part.
#define FUZZ_MAX_PARTICLES 8192
#define FUZZ_MAX_CONSTRAINTS 32768
#define FUZZ_WORK_BUDGET 4000000.0 ///< particle and constraint updates per input (FuzzStepCost): ~0.25 s sanitized
#define FUZZ_SNAPSHOT_COST 5.0     ///< work per live particle per call: the snapshots and comparisons around it
#define FUZZ_MAX_CREATES 12         ///< worlds created per input
#define FUZZ_MAX_IDS 32             ///< attachment handles remembered per world (live and removed)
#define FUZZ_MAX_STALE 16           ///< destroyed world handles remembered

/// Everything a refused call must leave as it was (hash, counts, the bytes of the particle
/// buffers since a hash can collide, parameters, colliders and objects).
typedef struct FuzzSnapshot {
	int valid;
	uint32_t hash;
	int32_t particles, constraints, attachments, colliders, objects, triangles, lines, topology;
	int32_t skinVertices, skinTriangles;
	float params[pbdParam_count];
	pbdColliderInfo collider[PBD_MAX_COLLIDERS];
	pbdObjectInfo object[PBD_MAX_OBJECTS];
	char error[256]; ///< pbd_World_GetLastErrorMessage
	float* x; ///< positions, 4 floats per particle (grown as needed, kept between inputs)
	float* v; ///< velocities, likewise
	int32_t capacity; ///< particles x and v can hold
} FuzzSnapshot;

typedef struct FuzzSlot {
	pbdWorldId id;       ///< 0 when empty
	int32_t attachment[FUZZ_MAX_IDS]; ///< ids the world handed out, live or since removed
	int attachmentCount;
	FuzzSnapshot before;
	int midStep; ///< the last StepSlice left its step unfinished (builders are then refused, PBD_ERR_STEP_IN_PROGRESS)
} FuzzSlot;

/// The harness's state for one input (fuzz_api.c).
typedef struct Fuzz {
	FuzzReader in;
	FuzzSlot slot[FUZZ_SLOTS];
	int current; ///< the slot calls address by default
	pbdWorldId stale[FUZZ_MAX_STALE];
	int staleCount, creates;
	double work; ///< spent of FUZZ_WORK_BUDGET
	int calls;
} Fuzz;

/* fuzz_api.c: handles, the trace and the checks around a call */
void Trace(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
FuzzSlot* SlotOf(Fuzz* f, pbdWorldId id);
pbdWorldId ReadWorld(Fuzz* f);
pbdAttachmentId ReadAttachment(Fuzz* f, pbdWorldId world);
void Remember(FuzzSlot* slot, pbdAttachmentId id);
int Particles(pbdWorldId world);
int Colliders(pbdWorldId world);
void TakeAll(Fuzz* f);
/// Ends a call on `world` that returned `rc`: a refusal (rc < 0) is a pbdError with its message
/// and changed no world; a success on a handle the harness does not hold as live is a bug; the
/// worlds the call did not address (all of them when `reads`) are exactly as they were.
int Result(Fuzz* f, int rc, pbdWorldId world, int reads, const char* what);
/// After a call that only reads `world` (or no world): every world is exactly as it was, but the
/// addressed one's last error message (a refused read sets it).
void Unchanged(Fuzz* f, pbdWorldId world, const char* what);
/// The addressed world's particles (positions, velocities, hash) are exactly as before.
void SameParticles(const FuzzSlot* s, pbdWorldId world, const char* what);

/* The calls, one per FuzzOp: fuzz_ops.c (worlds, objects, attachments, colliders), fuzz_step.c
   (particle state, parameters, stiffness, the step, pair search), fuzz_query.c (read-only),
   fuzz_bodies.c (bodies and their skin). */
void OpCreateWorld(Fuzz* f);
void OpDestroyWorld(Fuzz* f);
void OpAddChain(Fuzz* f);
void OpAddCloth(Fuzz* f);
void OpAddAttachment(Fuzz* f);
void OpMoveAttachment(Fuzz* f);
void OpRemoveAttachment(Fuzz* f);
void OpAddCollider(Fuzz* f);
void OpSetColliderTransform(Fuzz* f);
void OpSetColliderMaterial(Fuzz* f);
void OpSetPosition(Fuzz* f);
void OpSetVelocity(Fuzz* f);
void OpSetMass(Fuzz* f);
void OpSetInvMass(Fuzz* f);
void OpSetParam(Fuzz* f);
void OpSetStiffness(Fuzz* f);
void OpSetFilter(Fuzz* f);
void OpStep(Fuzz* f);
void OpSetThreads(Fuzz* f);
void OpStepSlice(Fuzz* f);
void OpFindPairs(Fuzz* f);
void OpUpdateNormals(Fuzz* f);
void OpUpdateErrors(Fuzz* f);
void OpGetStats(Fuzz* f);
void OpRayPick(Fuzz* f);
void OpRayColliders(Fuzz* f);
void OpColliderDistance(Fuzz* f);
void OpQuery(Fuzz* f);
/* fuzz_bodies.c */
void OpAddBody(Fuzz* f);
void OpUpdateSkin(Fuzz* f);
/* fuzz_fluids.c */
void OpAddFluid(Fuzz* f);
void OpAddEmitter(Fuzz* f);
void OpAddDrain(Fuzz* f);
/// n floats from the input (FuzzFloat).
void Floats(Fuzz* f, float* out, int n);
/// A count for segments and resolutions: mostly small, sometimes large or hostile.
int32_t ReadCount(Fuzz* f);
/// Finite and within the world bound (1e5) on each axis.
int InBound(const float* x);

/// Aborts with the call trace (fuzz_api.c) when `cond` fails. Formats like printf.
#define FUZZ_CHECK(cond, ...)                                \
	do {                                                     \
		if (!(cond)) FuzzFail(__FILE__, __LINE__, __VA_ARGS__); \
	} while (0)

void FuzzFail(const char* file, int line, const char* fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));

/// The engine's last error message. One place, so a per-world error call
/// changes one line.
const char* FuzzLastError(pbdWorldId world);

void FuzzSnapshotTake(FuzzSnapshot* s, pbdWorldId world);
/// Checks that `world` is exactly as in `s` (counts, the bytes of positions and velocities,
/// parameters, colliders, objects); if the call `addressed` it, its hash too, otherwise its last
/// error message too (errors of one world never leak into another); `what` names the call.
void FuzzSnapshotSame(const FuzzSnapshot* s, pbdWorldId world, int addressed, const char* what);
void FuzzSnapshotFree(FuzzSnapshot* s);

/// A refused call: the code is one of pbdError's negative values with a message.
void FuzzCheckRefusal(int rc, pbdWorldId world, const char* what);
/// After a step: every position and velocity finite, inside the world bound, no faster than
/// maxSpeed; pins (w = 0 before the step) exactly where they were with no velocity; inverse
/// masses and counts unchanged.
void FuzzCheckAfterStep(const FuzzSnapshot* before, pbdWorldId world);
/// Estimated work of `steps` steps of `world` (particle and constraint updates).
double FuzzStepCost(pbdWorldId world, int steps, const FuzzSnapshot* s);

#endif
