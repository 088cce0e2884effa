/* fuzz_api.c -- libFuzzer harness over the public C API (src/minipbd.h).

   The fuzzer's bytes are decoded (fuzz_input.h) into a sequence of calls on up to three
   worlds: create (any capacities), destroy and re-create, add chains, cloths, bodies (box, ball,
   tets, surface; good and broken meshes), attachments and colliders, move and remove them, set particle state, any parameter to any float, object
   stiffness, step, search pairs, update normals and errors, statistics, ray picks and every
   read-only query, with valid, boundary, stale and hostile handles and indices. After every
   call (fuzz_world.c):
     - it succeeded, or returned a negative pbdError with a message naming it; a refused call
       left every world exactly as it was (hash, counts, the bytes of positions and
       velocities, parameters, colliders, objects);
     - a call on one world left the others exactly as they were;
     - what a successful call reports agrees with the world (counts grow by what
       pbd_ChainCounts / pbd_ClothCounts / pbd_BodyCounts promise, a parameter reads back as
       set, ...), and pbd_BodyCounts refuses a def AddBody refused, capacities aside;
     - after a step every position and velocity is finite, within the world bound and the
       speed bound, and no pin (w = 0) moved.
   Work is bounded per input (FUZZ_WORK_BUDGET) so one input runs in well under a second.

     make fuzz                          10 minutes (FUZZ_SECONDS=600) over tests/fuzz/corpus
     build/fuzz_api FILE...             replays inputs (a crash reproducer, the corpus)
     FUZZ_TRACE=1 build/fuzz_api FILE   prints every call as it is made */
#include "fuzz_input.h"
#include "fuzz_world.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- state and trace */

static Fuzz s_fuzz;
static int s_trace = -1;

#define TRACE_LINES 48
static char s_traceRing[TRACE_LINES][200];
static int s_traceCount;

/* Every call is written to a ring of recent lines, printed when a check fails (the call
   sequence of a crash), or at once with FUZZ_TRACE=1. */
void Trace(const char* fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	char* line = s_traceRing[s_traceCount++ % TRACE_LINES];
	vsnprintf(line, sizeof s_traceRing[0], fmt, args);
	va_end(args);
	if (s_trace) fprintf(stderr, "fuzz: %s\n", line);
}

void FuzzFail(const char* file, int line, const char* fmt, ...)
{
	fprintf(stderr, "\nfuzz: CHECK FAILED at %s:%d after %d calls: ", file, line, s_fuzz.calls);
	va_list args;
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\nfuzz: the last calls, oldest first:\n");
	int first = s_traceCount > TRACE_LINES ? s_traceCount - TRACE_LINES : 0;
	for (int i = first; i < s_traceCount; ++i) fprintf(stderr, "  %s\n", s_traceRing[i % TRACE_LINES]);
	fprintf(stderr, "fuzz: last error message: %s\n", FuzzLastError(0));
	abort();
}

/* ---------------------------------------------------------------- handles */

FuzzSlot* SlotOf(Fuzz* f, pbdWorldId id)
{
	for (int i = 0; i < FUZZ_SLOTS; ++i) {
		if (id > 0 && f->slot[i].id == id) return &f->slot[i];
	}
	return NULL;
}

/* A world handle: mostly the current slot's world, sometimes another slot's, a destroyed
   one, or a handle that was never valid (its generation or index changed, 0, negative). */
pbdWorldId ReadWorld(Fuzz* f)
{
	uint8_t s = FuzzU8(&f->in);
	pbdWorldId current = f->slot[f->current].id;
	if (s < FUZZ_WORLD_CURRENT) return current;
	if (s < FUZZ_WORLD_OTHER) return f->slot[s % FUZZ_SLOTS].id;
	if (s < FUZZ_WORLD_STALE) return f->staleCount > 0 ? f->stale[s % f->staleCount] : 0;
	switch (s % 6) {
	case 0: return 0;
	case 1: return -1;
	case 2: return INT32_MIN;
	case 3: return (pbdWorldId)(((uint32_t)current + 0x10000u) & 0x7fffffffu); /* same slot, next generation */
	case 4: return (current & ~0xffff) | 0xffff;                        /* an index past every slot */
	default: return (pbdWorldId)FuzzU32(&f->in);
	}
}

pbdAttachmentId ReadAttachment(Fuzz* f, pbdWorldId world)
{
	FuzzSlot* slot = SlotOf(f, world);
	uint8_t s = FuzzU8(&f->in);
	if (slot != NULL && slot->attachmentCount > 0 && s < 0xe0) return slot->attachment[s % slot->attachmentCount];
	switch (s % 4) {
	case 0: return 0;
	case 1: return -1;
	case 2: return 1; /* slot 0, generation 0: never handed out */
	default: return (pbdAttachmentId)FuzzU32(&f->in);
	}
}

void Remember(FuzzSlot* slot, pbdAttachmentId id)
{
	if (slot->attachmentCount < FUZZ_MAX_IDS) slot->attachment[slot->attachmentCount++] = id;
	else slot->attachment[(uint32_t)id % FUZZ_MAX_IDS] = id;
}

int Particles(pbdWorldId world)
{
	int n = pbd_World_GetParticleCount(world);
	return n > 0 ? n : 0;
}

int Colliders(pbdWorldId world)
{
	int n = pbd_World_GetColliderCount(world);
	return n > 0 ? n : 0;
}

/* ---------------------------------------------------------------- checks around a call */

void TakeAll(Fuzz* f)
{
	for (int i = 0; i < FUZZ_SLOTS; ++i) {
		FuzzSnapshotTake(&f->slot[i].before, f->slot[i].id);
		if (f->slot[i].before.valid) f->work += FUZZ_SNAPSHOT_COST * f->slot[i].before.particles;
	}
}

/* After a call on `target` (0: on none): the other worlds are exactly as they were, and so is
   `target` when the call was refused or only reads. */
static void CheckOthers(Fuzz* f, pbdWorldId target, int unchanged, const char* what)
{
	for (int i = 0; i < FUZZ_SLOTS; ++i) {
		FuzzSlot* s = &f->slot[i];
		if (s->id == 0) continue;
		/* the addressed world's hash too (a refusal must not move it); the others' bytes suffice */
		if (unchanged || s->id != target) FuzzSnapshotSame(&s->before, s->id, s->id == target, what);
	}
}

void Unchanged(Fuzz* f, pbdWorldId world, const char* what) { CheckOthers(f, world, 1, what); }

int Result(Fuzz* f, int rc, pbdWorldId world, int reads, const char* what)
{
	if (rc < 0) FuzzCheckRefusal(rc, world, what);
	else FUZZ_CHECK(world == 0 || SlotOf(f, world) != NULL, "%s accepted world handle %d, which is not alive", what, world);
	CheckOthers(f, world, reads || rc < 0, what);
	return rc;
}

void SameParticles(const FuzzSlot* s, pbdWorldId world, const char* what)
{
	const FuzzSnapshot* b = &s->before;
	int32_t n = 0;
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, &n);
	const float* v = pbd_World_GetBuffer(world, pbdBuffer_velocities, NULL);
	FUZZ_CHECK(n == b->particles, "%s changed the particle count", what);
	FUZZ_CHECK(n == 0 || (memcmp(x, b->x, (size_t)n * 16) == 0 && memcmp(v, b->v, (size_t)n * 16) == 0),
			   "%s moved particles", what);
	FUZZ_CHECK(pbd_World_Hash(world) == b->hash, "%s changed the hash", what);
}

/* ---------------------------------------------------------------- driver */

static void OpSelect(Fuzz* f)
{
	f->current = FuzzU8(&f->in) % FUZZ_SLOTS;
	Trace("select slot %d (w%d)", f->current, f->slot[f->current].id);
}

typedef void (*FuzzOpFn)(Fuzz*);
static const FuzzOpFn s_ops[FUZZ_OP_COUNT] = {
	[FUZZ_OP_CREATE_WORLD] = OpCreateWorld,
	[FUZZ_OP_DESTROY_WORLD] = OpDestroyWorld,
	[FUZZ_OP_ADD_CHAIN] = OpAddChain,
	[FUZZ_OP_ADD_CLOTH] = OpAddCloth,
	[FUZZ_OP_ADD_ATTACHMENT] = OpAddAttachment,
	[FUZZ_OP_MOVE_ATTACHMENT] = OpMoveAttachment,
	[FUZZ_OP_REMOVE_ATTACHMENT] = OpRemoveAttachment,
	[FUZZ_OP_ADD_COLLIDER] = OpAddCollider,
	[FUZZ_OP_SET_COLLIDER_XF] = OpSetColliderTransform,
	[FUZZ_OP_SET_COLLIDER_MAT] = OpSetColliderMaterial,
	[FUZZ_OP_SET_POSITION] = OpSetPosition,
	[FUZZ_OP_SET_VELOCITY] = OpSetVelocity,
	[FUZZ_OP_SET_MASS] = OpSetMass,
	[FUZZ_OP_SET_INV_MASS] = OpSetInvMass,
	[FUZZ_OP_SET_PARAM] = OpSetParam,
	[FUZZ_OP_SET_STIFFNESS] = OpSetStiffness,
	[FUZZ_OP_STEP] = OpStep,
	[FUZZ_OP_FIND_PAIRS] = OpFindPairs,
	[FUZZ_OP_UPDATE_NORMALS] = OpUpdateNormals,
	[FUZZ_OP_UPDATE_ERRORS] = OpUpdateErrors,
	[FUZZ_OP_GET_STATS] = OpGetStats,
	[FUZZ_OP_RAY_PICK] = OpRayPick,
	[FUZZ_OP_RAY_COLLIDERS] = OpRayColliders,
	[FUZZ_OP_COLLIDER_DISTANCE] = OpColliderDistance,
	[FUZZ_OP_QUERY] = OpQuery,
	[FUZZ_OP_SELECT] = OpSelect,
	[FUZZ_OP_ADD_BODY] = OpAddBody,
	[FUZZ_OP_UPDATE_SKIN] = OpUpdateSkin,
	[FUZZ_OP_ADD_FLUID] = OpAddFluid,
	[FUZZ_OP_ADD_EMITTER] = OpAddEmitter,
	[FUZZ_OP_ADD_DRAIN] = OpAddDrain,
	[FUZZ_OP_SET_THREADS] = OpSetThreads,
	[FUZZ_OP_STEP_SLICE] = OpStepSlice,
	[FUZZ_OP_SET_FILTER] = OpSetFilter,
};

static void DestroyAll(Fuzz* f)
{
	for (int i = 0; i < FUZZ_SLOTS; ++i) {
		if (f->slot[i].id != 0) {
			FUZZ_CHECK(pbd_DestroyWorld(f->slot[i].id) == PBD_OK, "could not destroy world %d at the end", f->slot[i].id);
			FUZZ_CHECK(!pbd_World_IsValid(f->slot[i].id), "world %d valid after destroy", f->slot[i].id);
			f->slot[i].id = 0;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	if (s_trace < 0) s_trace = getenv("FUZZ_TRACE") != NULL && getenv("FUZZ_TRACE")[0] == '1';
	Fuzz* f = &s_fuzz;
	FuzzSnapshot keep[FUZZ_SLOTS];
	for (int i = 0; i < FUZZ_SLOTS; ++i) keep[i] = f->slot[i].before; /* reuse the buffers */
	memset(f, 0, sizeof *f);
	for (int i = 0; i < FUZZ_SLOTS; ++i) f->slot[i].before = keep[i];
	f->in = (FuzzReader){ data, size, 0 };
	s_traceCount = 0;
	/* Every input starts with one small default world, so short inputs reach the step. */
	{
		pbdWorldDef def = pbd_DefaultWorldDef();
		def.maxParticles = 512;
		f->slot[0].id = pbd_CreateWorld(&def);
		FUZZ_CHECK(f->slot[0].id > 0, "the first world could not be made: %s", FuzzLastError(0));
		Trace("w%d = CreateWorld(maxParticles 512)", f->slot[0].id);
	}
	while (!FuzzDone(&f->in) && f->work < FUZZ_WORK_BUDGET) {
		int op = FuzzU8(&f->in) % FUZZ_OP_COUNT;
		TakeAll(f);
		s_ops[op](f);
		f->calls += 1;
		FUZZ_CHECK(FuzzLastError(0) != NULL, "no last error message");
	}
	DestroyAll(f);
	return 0;
}
