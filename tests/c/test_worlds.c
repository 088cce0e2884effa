/* Worlds are independent: no state of the core is shared between them. */
#include "test.h"
#include "base/tasks.h"

#include <stddef.h>
#include <string.h>

#define WORLD_STEPS 60

/* A hanging cloth with a pin, a chain, a sphere swept through the cloth, wind and tearing:
   a step that goes through every family with state. */
static pbdWorldId Scene(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 600;
	pbdWorldId w = TestCreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = 12;
	cloth.resolutionV = 12;
	cloth.origin[1] = 1.5f;
	int first = pbd_World_AddCloth(w, &cloth);
	pbd_World_SetInvMass(w, first, 0.0f);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 2.0f;
	chain.end[1] = 2.0f;
	pbd_World_AddChain(w, &chain);
	pbdColliderDef sphere = pbd_DefaultColliderDef();
	sphere.radius = 0.2f;
	sphere.position[1] = 1.0f;
	sphere.restitution = 0.5f;
	pbd_World_AddCollider(w, &sphere);
	pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(w, pbdParam_windZ, 3.0f);
	pbd_World_SetParam(w, pbdParam_tearStretch, 1.0f);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	pbd_World_AddAttachment(w, first + 11, 1.2f, 1.6f, 0.2f, 0.5f);
	return w;
}

static void Advance(pbdWorldId w, int step)
{
	pbd_World_SetColliderTransform(w, 0, 0.02f * (float)step, 1.0f, 0.01f * (float)step, 0, 0, 0, 1);
	pbd_World_Step(w);
}

/* Two worlds stepped in turn, each refused calls on the other between its steps: each ends
   exactly where the same scene alone does, keeps its own step count and its own last error,
   and the message for calls without a world stays apart from both. */
void Test_WorldsAreIndependent(void)
{
	uint32_t alone[WORLD_STEPS + 1];
	pbdWorldId r = Scene();
	alone[0] = pbd_World_Hash(r);
	for (int s = 0; s < WORLD_STEPS; ++s) {
		Advance(r, s);
		alone[s + 1] = pbd_World_Hash(r);
	}
	ENSURE(strcmp(pbd_World_GetLastErrorMessage(r), "ok") == 0);
	pbd_DestroyWorld(r);

	pbdWorldId a = Scene(), b = Scene();
	ENSURE(a > 0 && b > 0 && a != b);
	ENSURE(pbd_World_SetParam(-7, pbdParam_dt, 0.01f) == PBD_ERR_INVALID_WORLD); /* no world: the other message */
	char noWorld[256];
	snprintf(noWorld, sizeof noWorld, "%s", pbd_GetLastErrorMessage());
	ENSURE(strstr(noWorld, "world id -7") != NULL);
	for (int s = 0; s < WORLD_STEPS; ++s) {
		Advance(a, s);
		ENSURE(pbd_World_SetParam(b, pbdParam_dt, 5.0f) == PBD_ERR_INVALID_ARGUMENT);
		if (s % 2 == 0) Advance(b, s / 2);
		ENSURE(pbd_World_AddAttachment(a, 100000, 0, 0, 0, 1) == PBD_ERR_INVALID_PARTICLE);
		ENSURE(strstr(pbd_World_GetLastErrorMessage(b), "dt must be in") != NULL);
		ENSURE(strstr(pbd_World_GetLastErrorMessage(a), "particle 100000") != NULL);
		ENSURE(strcmp(pbd_GetLastErrorMessage(), noWorld) == 0);
		ENSURE(pbd_World_Hash(a) == alone[s + 1]);
		ENSURE(pbd_World_Hash(b) == alone[s / 2 + 1]);
	}
	pbdStats sa, sb;
	ENSURE(pbd_World_GetStats(a, &sa) == PBD_OK && pbd_World_GetStats(b, &sb) == PBD_OK);
	ENSURE(sa.steps == WORLD_STEPS && sb.steps == WORLD_STEPS / 2);
	/* a destroyed world's id no longer reads a message of its own */
	pbd_DestroyWorld(a);
	ENSURE(strcmp(pbd_World_GetLastErrorMessage(a), pbd_ErrorString(PBD_ERR_INVALID_WORLD)) == 0);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(b), "dt must be in") != NULL);
	pbd_DestroyWorld(b);
}

/* A mass changes between steps only (particles.c): between the slices of a step it is refused and changes nothing,
   and the step ends as the same step taken whole; after it, the pin is made and never moves. Before the refusal a
   particle pinned between slices kept its old share of its constraints until the step's end and moved (the fuzzer:
   tests/fuzz/corpus/repro-7-pin-between-slices). */
void Test_MassBetweenSlicesRefused(void)
{
	pbdWorldId whole = Scene(), sliced = Scene();
	const int pin = 30; /* a cloth particle with constraints all round */
	pbd_World_Step(whole);
	ENSURE(pbd_World_StepSlice(sliced, 2) > 0); /* the step's start and the first prediction */
	ENSURE(pbd_World_SetInvMass(sliced, pin, 0.0f) == PBD_ERR_STEP_IN_PROGRESS);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(sliced), "a step taken in slices is in progress: particle 30's mass") != NULL);
	ENSURE(pbd_World_SetMass(sliced, pin, 2.0f) == PBD_ERR_STEP_IN_PROGRESS);
	ENSURE(pbd_World_Step(sliced) == PBD_OK); /* finishes the step in progress */
	ENSURE(pbd_World_Hash(sliced) == pbd_World_Hash(whole));

	ENSURE(pbd_World_SetInvMass(sliced, pin, 0.0f) == PBD_OK); /* between steps */
	int32_t n = 0;
	const float* x = pbd_World_GetBuffer(sliced, pbdBuffer_positions, &n);
	const float at[3] = { x[4 * pin], x[4 * pin + 1], x[4 * pin + 2] };
	for (int s = 0; s < 20; ++s) {
		while (pbd_World_StepSlice(sliced, 3) > 0) ENSURE(pbd_World_SetInvMass(sliced, pin, 1.0f) == PBD_ERR_STEP_IN_PROGRESS);
		x = pbd_World_GetBuffer(sliced, pbdBuffer_positions, &n);
		ENSURE(x[4 * pin] == at[0] && x[4 * pin + 1] == at[1] && x[4 * pin + 2] == at[2] && x[4 * pin + 3] == 0.0f);
	}
	pbd_DestroyWorld(whole);
	pbd_DestroyWorld(sliced);
}

/* A step taken in slices cuts each Gauss-Seidel pass into units of at most PBD_SLICE_ITEMS constraints of one colour
   (world/step.c), so no unit is a whole pass over a large cloth: a 200 x 200 cloth (about 240k distance constraints)
   takes at least constraints / PBD_SLICE_ITEMS units a pass. Within a pass the units left fall by one a unit (the
   colours' sizes are fixed there), the count is at least 1 until the step is done, and the step ends with the bits
   of the whole step. */
void Test_SliceUnitsBounded(void)
{
	pbdWorldId world[2];
	for (int k = 0; k < 2; ++k) {
		pbdWorldDef def = pbd_DefaultWorldDef();
		def.maxParticles = 200 * 200;
		world[k] = TestCreateWorld(&def);
		pbdClothDef cloth = pbd_DefaultClothDef();
		cloth.resolutionU = 200;
		cloth.resolutionV = 200;
		cloth.origin[1] = 1.5f;
		const int first = pbd_World_AddCloth(world[k], &cloth);
		ENSURE(first >= 0);
		pbd_World_SetInvMass(world[k], first, 0.0f);
		pbd_World_SetInvMass(world[k], first + 199, 0.0f);
	}
	const pbdWorldId whole = world[0], sliced = world[1];
	const int32_t constraints = pbd_World_GetConstraintCount(sliced);
	const int32_t substeps = (int32_t)pbd_World_GetParam(sliced, pbdParam_substeps);
	const int32_t passes = (int32_t)pbd_World_GetParam(sliced, pbdParam_iterations);
	ENSURE(constraints > 50 * PBD_SLICE_ITEMS);
	for (int step = 0; step < 2; ++step) {
		ENSURE(pbd_World_Step(whole) == PBD_OK);
		int32_t left = -1, solveUnits = 0, lastStage = -1, exact = 1;
		do {
			const int32_t stage = pbd_World_StepStage(sliced);
			const int32_t next = pbd_World_StepSlice(sliced, 1);
			ENSURE(next >= 0);
			if (stage == 2) { /* pbdStage_solve */
				solveUnits += 1;
				if (lastStage == 2 && next > 0 && pbd_World_StepStage(sliced) == 2) exact &= next == left - 1;
			}
			lastStage = stage;
			left = next;
		} while (left > 0);
		ENSURE(exact);
		ENSURE(solveUnits >= substeps * passes * (constraints / PBD_SLICE_ITEMS));
		ENSURE(pbd_World_Hash(sliced) == pbd_World_Hash(whole));
	}
	pbd_DestroyWorld(whole);
	pbd_DestroyWorld(sliced);
}

/* The capacity table (minipbd.h PBD_CAPACITIES) is pbdWorldDef: its rows are the def's int32 fields in order, up to
   the cookie; each refuses a negative value and one past its limit (a fluid's past maxParticles), naming its field,
   and a world of the defaults holds each default: 1024 particles, the 1025th refused. */
void Test_CapacityTable(void)
{
	const int n = pbd_CapacityCount();
	ENSURE(n * (int)sizeof(int32_t) == (int)offsetof(pbdWorldDef, internalValue));
	pbdCapacityInfo info;
	ENSURE(pbd_GetCapacityInfo(n, &info) == PBD_ERR_INVALID_ARGUMENT && pbd_GetCapacityInfo(-1, &info) == PBD_ERR_INVALID_ARGUMENT);
	for (int i = 0; i < n; ++i) {
		ENSURE(pbd_GetCapacityInfo(i, &info) == PBD_OK);
		ENSURE(info.offset == i * (int)sizeof(int32_t) && info.name[0] != 0 && strncmp(info.field, "max", 3) == 0);
		for (int bad = 0; bad < 2; ++bad) {
			pbdWorldDef def = pbd_DefaultWorldDef();
			int32_t value = bad == 0 ? -1 : (info.flags & PBD_CAPACITY_PART) ? 1025 : info.limit + 1;
			if (bad == 1 && (info.flags & PBD_CAPACITY_CLAMPED)) continue; /* cut to the limit instead */
			memcpy((char*)&def + info.offset, &value, sizeof value);
			ENSURE(pbd_CreateWorld(&def) == PBD_ERR_INVALID_ARGUMENT);
			ENSURE(strstr(pbd_GetLastErrorMessage(), info.field) != NULL);
		}
	}
	ENSURE(pbd_GetCapacityInfo(0, &info) == PBD_OK && strcmp(info.field, "maxParticles") == 0 && info.fixed == 1024);
	pbdWorldDef def = pbd_DefaultWorldDef();
	pbdWorldId w = pbd_CreateWorld(&def);
	ENSURE(w > 0);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.end[0] = 20.0f;
	chain.segments = 1023;
	ENSURE(pbd_World_AddChain(w, &chain) == 0);
	chain.segments = 1;
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_PARTICLE_CAPACITY);
	pbd_DestroyWorld(w);
}
