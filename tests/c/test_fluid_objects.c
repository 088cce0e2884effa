/* test_fluid_objects.c -- the fluid's emitters and drains (families/fluid_emit.c) and its velocity
   passes (families/fluid_velocity.c), on their own: the emitter and drain tests call
   pbd_Fluid_EmitAndDrain as the family's start does; the velocity tests give the family
   brute-force neighbour lists (every live fluid pair closer than h, the layout of neighbours/grid.h)
   and the kernel constants of the contract, so each result is checked against a closed form or a
   sum done here independently. */
#include "test.h"
#include "test_fluid_objects.h"

#include "families/fluid_state.h"

#include <stdlib.h>
#include <string.h>

#define D 0.02f /* fluid.spacing's default */

static pbdWorldId FluidWorld(int maxParticles, int maxFluid)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = maxParticles;
	def.maxFluidParticles = maxFluid;
	def.maxAttachments = 16;
	return TestCreateWorld(&def);
}

static int AddBlock(pbdWorldId id, float lx, float ly, float lz, float ux, float uy, float uz, int capacity)
{
	pbdFluidDef def = pbd_DefaultFluidDef();
	def.lower[0] = lx, def.lower[1] = ly, def.lower[2] = lz;
	def.upper[0] = ux, def.upper[1] = uy, def.upper[2] = uz;
	def.capacity = capacity;
	return pbd_World_AddFluid(id, &def);
}

static void EmitFor(pbdWorldId id, float dt)
{
	pbdWorld* w = pbd_GetWorld(id);
	pbdStepContext ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.dt = dt, ctx.h = dt, ctx.substeps = 1, ctx.passes = 1, ctx.alpha = 1.0f;
	pbd_Fluid_EmitAndDrain(w, pbd_FluidState(w), &ctx);
}

static int Active(pbdWorldId id, int object)
{
	pbdObjectInfo info;
	if (pbd_World_GetObjectInfo(id, object, &info) != PBD_OK) return -1;
	return info.activeParticles;
}

static int AllFinite(pbdWorldId id)
{
	pbdWorld* w = pbd_GetWorld(id);
	for (int i = 0; i < 4 * w->particleCount; ++i) {
		if (!isfinite(w->x[i]) || !isfinite(w->v[i])) return 0;
	}
	return 1;
}

/* ---- emitters ---- */

/* One disc: the nozzle plane's lattice points within the radius (5 at r = d: the centre and its four
   lattice neighbours; 9 at 1.5 d, the diagonals at sqrt(2) d joining; 13 at 2 d), all in the plane
   through the nozzle perpendicular to the (normalised) direction, d apart, at speed x direction. */
void Test_FluidEmitterDiscPattern(void)
{
	const float radii[3] = { D, 1.5f * D, 2.0f * D };
	const int expected[3] = { 5, 9, 13 };
	for (int c = 0; c < 3; ++c) {
		pbdWorldId id = FluidWorld(256, 200);
		const int first = AddBlock(id, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 200); /* empty block: all parked */
		ENSURE(first == 0);
		ENSURE(Active(id, 0) == 0);
		pbdEmitterDef e = pbd_DefaultEmitterDef();
		e.object = 0;
		e.position[0] = 0.3f, e.position[1] = 0.5f, e.position[2] = -0.2f;
		e.direction[0] = 1.0f, e.direction[1] = 2.0f, e.direction[2] = 2.0f; /* length 3: normalised by the call */
		e.speed = 2.0f;
		e.radius = radii[c];
		ENSURE(pbd_World_AddEmitter(id, &e) == 0);
		ENSURE(pbd_World_GetEmitterCount(id) == 1);
		EmitFor(id, D / 2.0f * 1.0001f); /* the stream moves d (and a hair): one disc, at the nozzle */
		const int n = Active(id, 0);
		ENSURE(n == expected[c]);
		pbdWorld* w = pbd_GetWorld(id);
		const float dir[3] = { 1.0f / 3.0f, 2.0f / 3.0f, 2.0f / 3.0f };
		const float invMass = 1.0f / (1000.0f * D * D * D);
		for (int i = 0; i < n; ++i) {
			const float* x = w->x + 4 * i;
			const float r[3] = { x[0] - e.position[0], x[1] - e.position[1], x[2] - e.position[2] };
			const float along = r[0] * dir[0] + r[1] * dir[1] + r[2] * dir[2];
			ENSURE_NEAR(along, 0.0f, 1e-5f);
			ENSURE(sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) <= radii[c] + 1e-5f);
			ENSURE_NEAR(x[3], invMass, invMass * 1e-6f);
			ENSURE((w->phase[i] & (PBD_PHASE_INACTIVE | PBD_PHASE_NO_COLLIDE)) == 0 && (w->phase[i] & PBD_PHASE_FLUID) != 0);
			for (int k = 0; k < 3; ++k) ENSURE_NEAR(w->v[4 * i + k], 2.0f * dir[k], 1e-5f);
			float nearest = 1e9f;
			for (int j = 0; j < n; ++j) {
				if (j != i) nearest = fminf(nearest, TestDistance(w->x, i, j));
			}
			ENSURE_NEAR(nearest, D, 1e-5f); /* on the lattice of spacing d */
		}
		ENSURE((w->phase[n] & PBD_PHASE_INACTIVE) != 0); /* the next slot still parked */
		ENSURE(pbd_FluidState(w)->emitted == n && pbd_FluidState(w)->full == 0);
		pbd_DestroyWorld(id);
	}
}

/* Rate: discs x speed / d per second. 2 m/s for 1 s at d = 0.02 is 100 discs of 5 (the float sum
   of 60 steps of speed dt may stop a hair short of the 100th). */
void Test_FluidEmitterRate(void)
{
	pbdWorldId id = FluidWorld(1024, 1000);
	ENSURE(AddBlock(id, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1000) == 0);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 0, e.speed = 2.0f, e.radius = D;
	e.position[1] = 1.0f;
	ENSURE(pbd_World_AddEmitter(id, &e) == 0);
	for (int s = 0; s < 60; ++s) EmitFor(id, 1.0f / 60.0f);
	const int n = Active(id, 0);
	ENSURE(n == 500 || n == 495);
	/* Switched off, it adds nothing; on again, it goes on. */
	e.enabled = 0;
	ENSURE(pbd_World_SetEmitter(id, 0, &e) == PBD_OK);
	for (int s = 0; s < 10; ++s) EmitFor(id, 1.0f / 60.0f);
	ENSURE(Active(id, 0) == n);
	pbd_DestroyWorld(id);
}

/* Capacity 12, discs of 5: two discs, then 2 of the third; full is set, nothing moves; later
   steps add nothing and change nothing while the object is full. */
void Test_FluidEmitterCapacityKeepsEverything(void)
{
	pbdWorldId id = FluidWorld(64, 12);
	ENSURE(AddBlock(id, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 12) == 0);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 0, e.speed = 1.0f, e.radius = D;
	ENSURE(pbd_World_AddEmitter(id, &e) == 0);
	pbdWorld* w = pbd_GetWorld(id);
	pbdFluid* f = pbd_FluidState(w);
	EmitFor(id, 2.0001f * D); /* two discs */
	ENSURE(Active(id, 0) == 10 && f->full == 0);
	float before[4 * 10];
	memcpy(before, w->x, sizeof before);
	EmitFor(id, 1.0001f * D);
	ENSURE(Active(id, 0) == 12 && f->full == 1 && f->emitted == 12);
	ENSURE(memcmp(before, w->x, sizeof before) == 0);
	float all[4 * 12];
	memcpy(all, w->x, sizeof all);
	for (int s = 0; s < 20; ++s) {
		EmitFor(id, 0.5f);
		ENSURE(f->full == 1 && Active(id, 0) == 12);
	}
	ENSURE(memcmp(all, w->x, sizeof all) == 0);
	ENSURE(pbd_FluidState(w)->emitters[0].travelled < D); /* no backlog waiting to burst out */
	pbd_DestroyWorld(id);
}

/* ---- drains ---- */

/* cloth A (object 0), a fluid block (object 1), cloth B (object 2); a drain takes the fluid's
   lower half. The survivors close up in order, every cloth index keeps its particle, attachments
   follow their particles and the one on a drained particle is removed (its id refused). */
void Test_FluidDrainKeepsIndicesAndAttachments(void)
{
	pbdWorldId id = FluidWorld(512, 100);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.origin[0] = 2.0f, cloth.origin[1] = 1.0f, cloth.origin[2] = 0.0f;
	cloth.axisU[0] = 0.3f, cloth.axisU[1] = 0.0f, cloth.axisU[2] = 0.0f;
	cloth.axisV[0] = 0.0f, cloth.axisV[1] = 0.0f, cloth.axisV[2] = 0.3f;
	cloth.resolutionU = cloth.resolutionV = 4;
	ENSURE(pbd_World_AddCloth(id, &cloth) == 0);
	const int first = AddBlock(id, 0.0f, 0.0f, 0.0f, 4 * D, 4 * D, 4 * D, 80); /* 64 live, 16 parked */
	ENSURE(first == 16 && Active(id, 1) == 64);
	cloth.origin[0] = -2.0f;
	ENSURE(pbd_World_AddCloth(id, &cloth) == 96);
	pbdWorld* w = pbd_GetWorld(id);
	float before[4 * 112];
	memcpy(before, w->x, sizeof before);
	/* Lattice order: x slowest, so particle first + 16 a + 4 b + c sits at ((a, b, c) + 1/2) d. */
	const int drained = first + 16 * 0 + 4 * 1 + 2; /* y = 1.5 d: in the drain */
	const int survivor = first + 16 * 3 + 4 * 3 + 1; /* y = 3.5 d: stays, moves down */
	pbdAttachmentId onCloth = pbd_World_AddAttachment(id, 100, -1.9f, 2.0f, 0.1f, 1.0f);
	pbdAttachmentId onDrained = pbd_World_AddAttachment(id, drained, 0.0f, 1.0f, 0.0f, 1.0f);
	pbdAttachmentId onSurvivor = pbd_World_AddAttachment(id, survivor, 0.07f, 0.5f, 0.03f, 1.0f);
	ENSURE(onCloth > 0 && onDrained > 0 && onSurvivor > 0 && pbd_World_GetAttachmentCount(id) == 3);
	const float lower[3] = { -1.0f, -1.0f, -1.0f }, upper[3] = { 1.0f, 2.0f * D, 1.0f };
	ENSURE(pbd_World_AddDrain(id, lower, upper) == 0 && pbd_World_GetDrainCount(id) == 1);
	const int version = w->positionVersion;
	EmitFor(id, 1.0f / 60.0f);
	ENSURE(Active(id, 1) == 32);
	ENSURE(pbd_FluidState(w)->drained == 32 && w->positionVersion == version + 1);
	ENSURE(memcmp(before, w->x, 4 * 16 * sizeof(float)) == 0);                     /* cloth A */
	ENSURE(memcmp(before + 4 * 96, w->x + 4 * 96, 4 * 16 * sizeof(float)) == 0);    /* cloth B */
	/* The survivors (y = 2.5 d, 3.5 d) in their old order. */
	int k = first;
	for (int i = first; i < first + 64; ++i) {
		if (before[4 * i + 1] <= 2.0f * D) continue;
		ENSURE(memcmp(before + 4 * i, w->x + 4 * k, 4 * sizeof(float)) == 0);
		k += 1;
	}
	ENSURE(k == first + 32);
	for (int i = first + 32; i < first + 80; ++i) {
		ENSURE((w->phase[i] & PBD_PHASE_INACTIVE) != 0 && w->x[4 * i + 3] == 0.0f && w->v[4 * i + 1] == 0.0f);
	}
	/* The drained particle's attachment is gone; the others still pull their particles. */
	ENSURE(pbd_World_GetAttachmentCount(id) == 2);
	ENSURE(pbd_World_MoveAttachment(id, onDrained, 0.0f, 0.0f, 0.0f) < 0);
	ENSURE(pbd_World_RemoveAttachment(id, onDrained) < 0);
	const int moved = first + 8 * 3 + 4 * (3 - 2) + 1; /* the survivor's new index: 8 survivors per x row */
	ENSURE(memcmp(before + 4 * survivor, w->x + 4 * moved, 3 * sizeof(float)) == 0);
	ENSURE(pbd_World_MoveAttachment(id, onCloth, -1.9f, 2.0f, 0.1f) == PBD_OK);
	pbd_World_SetParam(id, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(id, pbdParam_fluidVorticity, 0.0f);
	pbd_World_SetParam(id, pbdParam_fluidViscosity, 0.0f);
	const float y100 = w->x[4 * 100 + 1], ySurvivor = w->x[4 * moved + 1];
	for (int s = 0; s < 30; ++s) pbd_World_Step(id);
	ENSURE(w->x[4 * 100 + 1] > y100 + 0.3f); /* pulled up toward y = 2 */
	/* The drain keeps working in every step and takes the particles the solve pushes under 2 d,
	   so the survivor's index moves again; its attachment follows it. With gravity off nothing else
	   lifts a fluid particle: the highest live one is the attached survivor, pulled toward y = 0.5. */
	float top = 0.0f;
	for (int i = first; i < first + Active(id, 1); ++i) top = w->x[4 * i + 1] > top ? w->x[4 * i + 1] : top;
	ENSURE(top > ySurvivor + 0.2f);
	ENSURE(pbd_World_GetAttachmentCount(id) == 2);
	ENSURE(AllFinite(id));
	pbd_DestroyWorld(id);
}

/* Bad emitters and drains are refused with a message naming the field; nothing changes. */
void Test_FluidEmitterDrainRefusals(void)
{
	pbdWorldId id = FluidWorld(256, 100);
	pbdChainDef chain = pbd_DefaultChainDef();
	ENSURE(pbd_World_AddChain(id, &chain) == 0);
	ENSURE(AddBlock(id, 0.0f, 0.0f, 0.0f, 2 * D, 2 * D, 2 * D, 50) > 0);
	pbdWorld* w = pbd_GetWorld(id);
	pbdFluid* f = pbd_FluidState(w);
	const size_t bytes = sizeof *f;
	pbdFluid* copy = malloc(bytes);
	memcpy(copy, f, bytes);
	struct {
		int field; /* 0 object, 1 position, 2 direction, 3 speed, 4 radius */
		float value;
		const char* word;
	} bad[] = {
		{ 0, 0.0f, "not a fluid" },   { 0, 7.0f, "not a fluid" },   { 0, -1.0f, "not a fluid" },  { 1, NAN, "position" },
		{ 1, 2e5f, "position" },      { 2, 0.0f, "direction" },     { 2, INFINITY, "direction" }, { 3, 0.0f, "speed" },
		{ 3, 50.5f, "speed" },        { 3, NAN, "speed" },          { 3, -1.0f, "speed" },        { 4, 0.4f * D, "radius" },
		{ 4, 1.5f, "radius" },        { 4, NAN, "radius" },
	};
	for (size_t c = 0; c < sizeof bad / sizeof bad[0]; ++c) {
		pbdEmitterDef e = pbd_DefaultEmitterDef();
		e.object = 1;
		switch (bad[c].field) {
		case 0: e.object = (int)bad[c].value; break;
		case 1: e.position[1] = bad[c].value; break;
		case 2: e.direction[0] = e.direction[1] = e.direction[2] = bad[c].value; break;
		case 3: e.speed = bad[c].value; break;
		default: e.radius = bad[c].value; break;
		}
		ENSURE(pbd_World_AddEmitter(id, &e) < 0);
		ENSURE(strstr(pbd_World_GetLastErrorMessage(id), bad[c].word) != NULL);
		ENSURE(memcmp(copy, f, bytes) == 0);
	}
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 1;
	ENSURE(pbd_World_SetEmitter(id, 0, &e) < 0); /* no emitter 0 yet */
	for (int k = 0; k < PBD_MAX_EMITTERS; ++k) ENSURE(pbd_World_AddEmitter(id, &e) == k);
	ENSURE(pbd_World_AddEmitter(id, &e) < 0 && strstr(pbd_World_GetLastErrorMessage(id), "emitters") != NULL);
	e.speed = 0.0f;
	memcpy(copy, f, bytes);
	ENSURE(pbd_World_SetEmitter(id, 3, &e) < 0 && memcmp(copy, f, bytes) == 0);
	ENSURE(pbd_World_AddEmitter(id, NULL) < 0);
	const float lo[3] = { 0.0f, 0.0f, 0.0f }, hi[3] = { 1.0f, -1.0f, 1.0f }, nan3[3] = { 0.0f, NAN, 0.0f };
	ENSURE(pbd_World_AddDrain(id, lo, hi) < 0 && strstr(pbd_World_GetLastErrorMessage(id), "below") != NULL);
	ENSURE(pbd_World_AddDrain(id, nan3, hi) < 0 && strstr(pbd_World_GetLastErrorMessage(id), "drain lower") != NULL);
	ENSURE(memcmp(copy, f, bytes) == 0);
	for (int k = 0; k < PBD_MAX_DRAINS; ++k) ENSURE(pbd_World_AddDrain(id, lo, lo) == k);
	ENSURE(pbd_World_AddDrain(id, lo, lo) < 0 && strstr(pbd_World_GetLastErrorMessage(id), "drains") != NULL);
	free(copy);
	pbd_DestroyWorld(id);
	/* A world without fluid has no fluid object to feed. */
	pbdWorldId plain = FluidWorld(64, 0);
	e = pbd_DefaultEmitterDef();
	ENSURE(pbd_World_AddEmitter(plain, &e) < 0 && pbd_World_GetEmitterCount(plain) == 0);
	pbd_DestroyWorld(plain);
}

/* A hose at full rate (50 m/s, radius 1 m: thousands of particles a disc) into a capacity of 600,
   with a drain under it taking what falls: every step stays finite, full is reported, nothing is
   lost past the capacity. */
void Test_FluidHoseFullRateStaysFinite(void)
{
	pbdWorldId id = FluidWorld(1024, 600);
	ENSURE(AddBlock(id, 0.0f, 0.1f, 0.0f, 4 * D, 0.1f + 4 * D, 4 * D, 600) == 0);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 0, e.speed = 50.0f, e.radius = 1.0f;
	e.position[1] = 0.5f;
	ENSURE(pbd_World_AddEmitter(id, &e) == 0);
	const float lower[3] = { -10.0f, -10.0f, -10.0f }, upper[3] = { 10.0f, 0.05f, 10.0f };
	ENSURE(pbd_World_AddDrain(id, lower, upper) == 0);
	pbdWorld* w = pbd_GetWorld(id);
	pbdFluid* f = pbd_FluidState(w);
	int sawFull = 0, sawDrain = 0;
	for (int s = 0; s < 60; ++s) {
		EmitFor(id, 1.0f / 60.0f);
		sawFull |= f->full;
		ENSURE(Active(id, 0) <= 600 && Active(id, 0) >= 0);
		pbd_World_Step(id);
		ENSURE(AllFinite(id));
	}
	sawDrain = f->drained > 0;
	ENSURE(sawFull && sawDrain);
	ENSURE(f->emitted - f->drained == Active(id, 0) - 64);
	pbd_DestroyWorld(id);
}

/* A grab on a parked slot is refused with a message and changes nothing; once the hose has brought
   that slot to life, the same call holds it. (A parked slot has w = 0 and sits at the block's lower
   corner: an attachment on it would pull nothing now and an arbitrary new particle later.) */
void Test_FluidAttachmentRefusesParkedSlot(void)
{
	pbdWorldId id = FluidWorld(64, 40);
	const int first = AddBlock(id, 0.0f, 0.0f, 0.0f, 2 * D, 2 * D, 2 * D, 40); /* 8 live, 32 parked */
	ENSURE(first == 0 && Active(id, 0) == 8);
	const int parked = first + 8;
	ENSURE(pbd_World_AddAttachment(id, parked - 1, 0.0f, 1.0f, 0.0f, 1.0f) > 0); /* the last live one */
	ENSURE(pbd_World_GetAttachmentCount(id) == 1);
	ENSURE(pbd_World_AddAttachment(id, parked, 0.0f, 1.0f, 0.0f, 1.0f) == PBD_ERR_INVALID_PARTICLE);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(id), "parked") != NULL);
	ENSURE(pbd_World_AddAttachment(id, first + 39, 0.0f, 1.0f, 0.0f, 1.0f) < 0);
	ENSURE(pbd_World_GetAttachmentCount(id) == 1);
	/* One disc of 5 (radius d) fills slots 8..12; slot 8 is live and may now be held. */
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 0, e.speed = 1.5f, e.radius = D;
	e.position[1] = 0.5f;
	ENSURE(pbd_World_AddEmitter(id, &e) == 0);
	EmitFor(id, 1.0f / 60.0f); /* travelled 0.025: one disc (0.005 left over) */
	ENSURE(Active(id, 0) == 13);
	ENSURE(pbd_World_AddAttachment(id, parked, 0.0f, 1.0f, 0.0f, 1.0f) > 0);
	ENSURE(pbd_World_AddAttachment(id, first + 13, 0.0f, 1.0f, 0.0f, 1.0f) < 0); /* still parked */
	ENSURE(pbd_World_GetAttachmentCount(id) == 2);
	pbd_DestroyWorld(id);
}
