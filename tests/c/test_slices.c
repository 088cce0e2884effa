/* Steps taken in slices of bounded work (world/step.c), and the contact radius's bound that keeps the
   neighbour search's work per particle bounded (minipbd.h PBD_MAX_RADIUS_SPACINGS). */
#include "test.h"
#include "families/family.h"
#include "families/contacts.h"
#include "families/fluid_state.h"
#include "base/tasks.h"

#include <math.h>
#include <string.h>

static pbdWorldId SliceWorld(int32_t particles)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	return TestCreateWorld(&def);
}

/* A refused call leaves the world as it was: positions and velocities (the hash), the parameters and their
   version, the objects and their radii. */
typedef struct WorldPrint {
	uint32_t hash;
	int32_t particles, objects, paramVersion;
	float thickness, radius[4];
} WorldPrint;

static WorldPrint Print(pbdWorldId id)
{
	const pbdWorld* w = pbd_GetWorld(id);
	WorldPrint p;
	memset(&p, 0, sizeof p);
	p.hash = pbd_World_Hash(id);
	p.particles = w->particleCount, p.objects = w->objectCount, p.paramVersion = w->paramVersion;
	p.thickness = w->params[pbdParam_thickness];
	for (int32_t o = 0; o < w->objectCount && o < 4; ++o) p.radius[o] = pbd_World_GetObjectRadius(id, o);
	return p;
}

static int Same(WorldPrint a, WorldPrint b) { return memcmp(&a, &b, sizeof a) == 0; }

static int Says(pbdWorldId w, const char* text)
{
	const char* m = pbd_World_GetLastErrorMessage(w);
	if (strstr(m, text) != NULL) return 1;
	printf("  message \"%s\" does not say \"%s\"\n", m, text);
	return 0;
}

/* The bound where each value enters: the thickness (against every chain and cloth), a new cloth or chain
   (against the world's thickness), a body's particleRadius (against its lattice) and pbd_World_SetObjectRadius
   (against the object's own spacing). Exactly the limit is taken, the next float up is refused with a message
   naming the value and the limit, and the world is unchanged. */
void Test_RadiusBoundRefused(void)
{
	pbdWorldId w = SliceWorld(20000);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = 65, cloth.resolutionV = 33; /* steps 1/64 and 1/32 m: the finer one counts */
	ENSURE(pbd_World_AddCloth(w, &cloth) == 0);
	const float s = pbd_GetWorld(w)->objectSpacing[0];
	ENSURE(s == 1.0f / 64.0f);
	ENSURE(pbd_World_SetParam(w, pbdParam_thickness, 4.0f * s) == PBD_OK);
	WorldPrint before = Print(w);
	ENSURE(pbd_World_SetParam(w, pbdParam_thickness, nextafterf(4.0f * s, 1.0f)) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "thickness 0.0625 m is over 4 x the 0.015625 m between object 0's particles: at most 0.0625 m"));
	ENSURE(Says(w, "a contact radius reaches at most 2 particle spacings"));
	ENSURE(Same(before, Print(w)));
	ENSURE(pbd_World_SetParam(w, pbdParam_thickness, 1.0f) == PBD_ERR_INVALID_ARGUMENT); /* the format's old limit */
	ENSURE(Same(before, Print(w)));
	/* a cloth's own radius: 2 of its steps; 0 goes back to thickness / 2 (checked too) */
	ENSURE(pbd_World_SetObjectRadius(w, 0, 2.0f * s) == PBD_OK);
	before = Print(w);
	ENSURE(pbd_World_SetObjectRadius(w, 0, nextafterf(2.0f * s, 1.0f)) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "radius 0.03125 m is over 2 x the 0.015625 m between object 0's particles"));
	ENSURE(Same(before, Print(w)));
	ENSURE(pbd_World_SetObjectRadius(w, 0, 0.0f) == PBD_OK);

	/* a chain finer than the thickness allows is refused; once the thickness is lowered it is taken */
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.segments = 100; /* 0.01 m segments: thickness at most 0.04 m */
	before = Print(w);
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "thickness 0.0625 m is over 4 x the 0.01 m between this chain's particles: at most 0.04 m"));
	ENSURE(Same(before, Print(w)));
	ENSURE(pbd_World_SetParam(w, pbdParam_thickness, 0.04f) == PBD_OK);
	ENSURE(pbd_World_AddChain(w, &chain) == 65 * 33);
	/* now the chain bounds the thickness too */
	ENSURE(pbd_World_SetParam(w, pbdParam_thickness, 0.05f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "between object 1's particles: at most 0.04 m"));
	/* a cloth finer than the thickness allows */
	cloth.resolutionU = cloth.resolutionV = 129; /* 1/128 m: at most 0.03125 m */
	ENSURE(pbd_World_AddCloth(w, &cloth) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "between this cloth's particles: at most 0.03125 m"));

	/* a body: particleRadius at most 2 lattice spacings (a 1 m box at resolution 24: 1/24 m) */
	pbdBodyDef box = pbd_DefaultBodyDef();
	box.type = PBD_OBJECT_RIGID, box.shape = pbdBodyShape_box;
	box.halfExtents[0] = box.halfExtents[1] = box.halfExtents[2] = 0.5f;
	box.position[1] = 2.0f;
	box.resolution = 24;
	box.particleRadius = 1.0f; /* the format's old limit */
	before = Print(w);
	ENSURE(pbd_World_AddBody(w, &box) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "body particleRadius 1 m is over 2 x the 0.0416667 m of its lattice spacing: at most 0.0833333 m"));
	ENSURE(Same(before, Print(w)));
	box.particleRadius = 2.0f * (1.0f / 24.0f);
	const int first = pbd_World_AddBody(w, &box);
	ENSURE(first > 0);
	ENSURE(pbd_World_SetObjectRadius(w, 2, nextafterf(box.particleRadius, 1.0f)) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(Says(w, "between object 2's particles"));
	/* a body set to radius 0 takes thickness / 2, which its lattice bounds as well */
	ENSURE(pbd_World_SetObjectRadius(w, 2, 0.0f) == PBD_OK);
	ENSURE(pbd_World_SetParam(w, pbdParam_thickness, 0.04f) == PBD_OK);
	pbd_DestroyWorld(w);
}

/* Objects are added between steps: between the slices of one, every builder is refused (the step's units keep
   their data in the world's scratch, which the builders use) and the world is unchanged; after it they work. */
void Test_BuildersBetweenSlicesRefused(void)
{
	pbdWorldId w = SliceWorld(5000);
	pbdClothDef cloth = pbd_DefaultClothDef();
	ENSURE(pbd_World_AddCloth(w, &cloth) == 0);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	ENSURE(pbd_World_StepSlice(w, 3) > 0);
	const WorldPrint before = Print(w);
	ENSURE(pbd_World_AddCloth(w, &cloth) == PBD_ERR_STEP_IN_PROGRESS);
	ENSURE(Says(w, "pbd_World_AddCloth waits for the step's end"));
	pbdChainDef chain = pbd_DefaultChainDef();
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_STEP_IN_PROGRESS);
	pbdBodyDef body = pbd_DefaultBodyDef();
	ENSURE(pbd_World_AddBody(w, &body) == PBD_ERR_STEP_IN_PROGRESS);
	ENSURE(pbd_World_FindPairs(w) == PBD_ERR_STEP_IN_PROGRESS);
	ENSURE(Same(before, Print(w)));
	ENSURE(pbd_World_Step(w) == PBD_OK); /* finishes the step in progress */
	ENSURE(pbd_World_AddChain(w, &chain) > 0);
	pbd_DestroyWorld(w);
}

/* A fluid's parked slots (w = 0) are capacity, not pins: no fluid particle is tethered to them. Before, a block with
   room for a hose had every live particle tethered to the slots at the block's corner (pulled back toward it), and
   the step that built the tethers took O(live x parked): 25 s in wasm for 195,112 particles and 4,888 slots. */
void Test_FluidNotTethered(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = def.maxFluidParticles = 4000;
	pbdWorldId w = TestCreateWorld(&def);
	pbdFluidDef fluid = pbd_DefaultFluidDef();
	fluid.upper[0] = fluid.upper[1] = fluid.upper[2] = 0.2f; /* 10^3 particles of 2 cm */
	fluid.capacity = 3000;
	ENSURE(pbd_World_AddFluid(w, &fluid) == 0);
	ENSURE(pbd_World_Step(w) == PBD_OK);
	pbdWorld* world = pbd_GetWorld(w);
	ENSURE(pbd_families[pbdFamily_tethers]->count(world, pbd_FamilyState(world, pbdFamily_tethers)) == 0);
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- heavy scenes in slices */

/* The scenes whose step was hardest to cut (bench/heavy-scenes.mjs has the format's full-size ones), small enough for
   every build of the tests; `budget` (world->sliceBudget, PBD_SLICE_WORK in a real world) cuts them as finely as the
   full-size ones are cut at PBD_SLICE_WORK. */
typedef enum HeavyScene { HeavyFluid, HeavyHose, HeavyCloth, HeavyBoxes, HeavyCount } HeavyScene;
static const char* const s_heavyNames[HeavyCount] = { "fluid, smoothing radius 4 spacings", "hose at full rate",
													   "thick self-collision cloth", "overlapping boxes, radius 2 spacings" };

static pbdWorldId HeavyWorld(HeavyScene scene, int32_t size)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 70000;
	if (scene == HeavyFluid || scene == HeavyHose) def.maxFluidParticles = 60000;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_substeps, 2.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 2.0f);
	const float d = 0.02f;
	switch (scene) {
	case HeavyFluid: { /* size^3 particles, h = 4 d (~270 neighbours), room for more (parked slots) */
		pbd_World_SetParam(w, pbdParam_fluidSmoothingRadius, 4.0f * d);
		pbdFluidDef f = pbd_DefaultFluidDef();
		const float half = 0.5f * d * (float)size;
		f.lower[0] = f.lower[2] = -half, f.upper[0] = f.upper[2] = half;
		f.upper[1] = d * (float)size;
		f.capacity = size * size * size + 1000;
		pbd_World_AddFluid(w, &f);
		break;
	}
	case HeavyHose: { /* the largest nozzle at the largest speed into `size` slots, a drain on the floor */
		pbdFluidDef f = pbd_DefaultFluidDef();
		f.upper[0] = f.upper[1] = f.upper[2] = 0.1f;
		f.capacity = size;
		pbd_World_AddFluid(w, &f);
		pbdEmitterDef e = pbd_DefaultEmitterDef();
		e.object = 0;
		e.position[1] = 1.0f;
		e.speed = 50.0f;
		e.radius = 1.0f;
		pbd_World_AddEmitter(w, &e);
		const float lo[3] = { -10.0f, -1.0f, -10.0f }, hi[3] = { 10.0f, 0.05f, 10.0f };
		pbd_World_AddDrain(w, lo, hi);
		break;
	}
	case HeavyCloth: { /* size x size over 1 m, thickness 4 grid steps, self-collision, dropped onto itself */
		pbdClothDef c = pbd_DefaultClothDef();
		c.resolutionU = c.resolutionV = size;
		c.axisU[0] = 1.0f, c.axisV[1] = 0.0f, c.axisV[2] = 1.0f;
		c.origin[1] = 0.3f;
		pbd_World_SetParam(w, pbdParam_thickness, 4.0f * (1.0f / (float)(size - 1)));
		pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
		pbd_World_AddCloth(w, &c);
		pbd_World_SetInvMass(w, 0, 0.0f);
		break;
	}
	default: { /* two boxes of size^3 cells overlapping by half, particle radius 2 lattice spacings */
		for (int k = 0; k < 2; ++k) {
			pbdBodyDef b = pbd_DefaultBodyDef();
			b.type = PBD_OBJECT_RIGID, b.shape = pbdBodyShape_box;
			b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.25f;
			b.position[0] = 0.25f * (float)k, b.position[1] = 0.5f;
			b.resolution = size;
			b.particleRadius = 2.0f * (0.5f / (float)size);
			pbd_World_AddBody(w, &b);
		}
		break;
	}
	}
	return w;
}

/* What a step taken in units of 1 did, stage by stage (pbdStage_start: the step's start). */
typedef struct SliceRecord {
	int32_t units[pbdStage_count];
	int64_t work[pbdStage_count], maxWork[pbdStage_count];
	int32_t contactsRun, lastContactsUnits, maxContactsUnits; /* units of one contacts stage */
	int32_t worstEstimate;                                    /* percent: the first unit's count of the units left */
	int64_t maxPairs; /* the most pairs a contacts stage found (the contacts' list, the fluid's lists) */
} SliceRecord;

/* The pairs the last contacts stage of world `w` found: the contacts' list (kept or searched), or the fluid's lists'
   (half their entries, from the family's statistics). */
static int64_t StagePairs(const pbdWorld* w)
{
	const pbdFluid* f = pbd_FluidState(w);
	if (f->objectCount > 0) return (int64_t)((double)f->meanNeighbours * (double)f->fluidCount) / 2;
	const pbdContacts* c = pbd_ContactsState(w);
	return c->pairCount + c->dropped;
}

/* `steps` steps of `whole` in one go and of `sliced` in units of 1, the same scene: after each, the same bits. While
   a step is in progress the units left are at least 1, and at its first unit they are an estimate of the step's
   units (worstEstimate: the largest error, in percent of the units). 0 on a difference. */
static int StepBoth(pbdWorldId whole, pbdWorldId sliced, int steps, SliceRecord* r)
{
	memset(r, 0, sizeof *r);
	const pbdWorld* w = pbd_GetWorld(sliced);
	for (int s = 0; s < steps; ++s) {
		pbd_World_Step(whole);
		int32_t left = 0, first = -1, units = 0, lastStage = -1;
		do {
			const int32_t stage = pbd_World_StepStage(sliced);
			left = pbd_World_StepSlice(sliced, 1);
			if (left < 0 || (left > 0) != pbd_StepInProgress(w)) return 0;
			units += 1;
			if (first < 0) first = left + 1;
			r->units[stage] += 1;
			r->work[stage] += w->sliceWork;
			if (w->sliceWork > r->maxWork[stage]) r->maxWork[stage] = w->sliceWork;
			if (stage == pbdStage_contacts) {
				r->contactsRun = lastStage == pbdStage_contacts ? r->contactsRun + 1 : 1;
				r->lastContactsUnits = r->contactsRun;
				if (r->contactsRun > r->maxContactsUnits) r->maxContactsUnits = r->contactsRun;
			}
			if (lastStage == pbdStage_contacts && stage != pbdStage_contacts && StagePairs(w) > r->maxPairs) r->maxPairs = StagePairs(w);
			lastStage = stage;
		} while (left > 0);
		if (pbd_World_Hash(whole) != pbd_World_Hash(sliced)) {
			printf("  step %d: sliced 0x%08x, whole 0x%08x\n", s, pbd_World_Hash(sliced), pbd_World_Hash(whole));
			return 0;
		}
		const int32_t error = (int32_t)(100.0 * fabs((double)first - (double)units) / (double)units);
		if (s > 0 && error > r->worstEstimate) r->worstEstimate = error; /* the first step has no last stage to count by */
	}
	return 1;
}

/* A heavy scene stepped in slice units of 1 at `budget`: (a) every step ends on the whole step's bits; (b) no unit of
   a stage cut by its work does more than the budget and one item (a slot's candidates or pairs, an O(n) pass: at most
   the particle count); (c) the stages were cut as their work requires, measured apart from the units' own count:
   the contacts stage at least (its pairs or list pairs) / (budget + n) units, the step's start at least (particles
   emitted) / budget. */
static void HeavySliced(HeavyScene scene, int32_t size, int64_t budget, int steps)
{
	const pbdWorldId whole = HeavyWorld(scene, size), sliced = HeavyWorld(scene, size);
	pbdWorld* w = pbd_GetWorld(sliced);
	ENSURE(w->objectCount >= 1 && pbd_World_GetObjectCount(whole) == w->objectCount);
	w->sliceBudget = budget;
	SliceRecord r;
	ENSURE(StepBoth(whole, sliced, steps, &r));
	const int64_t n = w->particleCount;
	const int64_t pairs = r.maxPairs;
	if (scene == HeavyFluid || scene == HeavyHose) {
		const pbdFluid* f = pbd_FluidState(w);
		printf("  %s: %lld particles, %d live, %.0f neighbours; ", s_heavyNames[scene], (long long)n, f->fluidCount,
			   (double)f->meanNeighbours);
		if (scene == HeavyHose) {
			ENSURE(f->emitted > 0);
			ENSURE(r.units[pbdStage_start] >= f->emitted / budget); /* a unit of emission lays at most `budget` points */
			printf("%d emitted; ", f->emitted);
		}
	} else {
		ENSURE(pbd_ContactsState(w)->searches > 0);
		/* the boxes' rest normals, built at the first step's start: every particle of a lattice meets at least its 6
		   axis neighbours in the spacing's search, the surface's and the walk beneath it (shapes_sdf.c) */
		if (scene == HeavyBoxes) ENSURE(r.units[pbdStage_start] >= 18 * n / (budget + n));
		printf("  %s: %lld particles, %d searches; ", s_heavyNames[scene], (long long)n, pbd_ContactsState(w)->searches);
	}
	printf("contacts: %d units, largest stage %d (%lld pairs), work per unit <= %lld; start: %d units, work <= %lld; "
		   "units left off by <= %d%%\n",
		   r.units[pbdStage_contacts], r.maxContactsUnits, (long long)pairs, (long long)r.maxWork[pbdStage_contacts],
		   r.units[pbdStage_start], (long long)r.maxWork[pbdStage_start], r.worstEstimate);
	ENSURE(r.work[pbdStage_contacts] > 0);
	ENSURE(r.maxWork[pbdStage_contacts] <= budget + n);
	ENSURE(r.maxWork[pbdStage_start] <= budget + n);
	ENSURE(pairs > 3 * (budget + n)); /* so the next line says something */
	ENSURE(r.maxContactsUnits >= pairs / (budget + n));
	ENSURE(r.worstEstimate <= 100); /* the units left: an estimate (later substeps' contacts are counted as the last) */
	pbd_DestroyWorld(whole);
	pbd_DestroyWorld(sliced);
}

/* The four heavy scenes cut finely (a budget of 2,048: the full-size scenes at PBD_SLICE_WORK are cut as finely). */
void Test_SlicedHeavyScenesBounded(void)
{
	HeavySliced(HeavyFluid, 16, 2048, 2);
	if (g_testFailed) return;
	HeavySliced(HeavyHose, 20000, 2048, 2);
	if (g_testFailed) return;
	HeavySliced(HeavyCloth, 64, 2048, 3);
	if (g_testFailed) return;
	HeavySliced(HeavyBoxes, 8, 2048, 3);
}

/* A fluid with the largest smoothing radius at the real budget (PBD_SLICE_WORK): its contacts stage takes many
   units, each within the budget and a slot, with the whole step's bits. */
void Test_SlicedFluidRealBudget(void) { HeavySliced(HeavyFluid, 32, PBD_SLICE_WORK, 2); }

/* The fluid's statistics measured by the steps (pbd_World_SetFluidMeasure): none before a measuring step; after it the
   same numbers whether the step ran whole or in units of 1 (the same sums in the same order), within a hair of what a
   search of their own finds on the committed positions (pbd_World_GetFluidStats), counts equal; and measuring moves
   no bit (a world that does not measure ends on the same hash). Readable between the units of a step too. */
void Test_FluidMeasuredByStep(void)
{
	const pbdWorldId whole = HeavyWorld(HeavyFluid, 12), sliced = HeavyWorld(HeavyFluid, 12), plain = HeavyWorld(HeavyFluid, 12);
	pbdFluidStats a, b, fresh;
	ENSURE(pbd_World_SetFluidMeasure(whole, 1) == PBD_OK && pbd_World_SetFluidMeasure(sliced, 1) == PBD_OK);
	ENSURE(pbd_World_GetMeasuredFluidStats(whole, &a) == 0 && a.particles > 0 && a.meanDensity == 0.0f);
	pbd_GetWorld(sliced)->sliceBudget = 2048;
	int units = 0, between = 0;
	for (int s = 0; s < 3; ++s) {
		pbd_World_Step(whole);
		pbd_World_Step(plain);
		int32_t left;
		do {
			left = pbd_World_StepSlice(sliced, 1);
			units += 1;
			between += left > 0 && pbd_World_GetMeasuredFluidStats(sliced, &b) == s; /* the last step's, mid-step */
		} while (left > 0);
	}
	ENSURE(pbd_World_Hash(whole) == pbd_World_Hash(plain) && pbd_World_Hash(sliced) == pbd_World_Hash(plain));
	ENSURE(pbd_World_GetMeasuredFluidStats(whole, &a) == 3 && pbd_World_GetMeasuredFluidStats(sliced, &b) == 3);
	ENSURE(memcmp(&a, &b, sizeof a) == 0);
	ENSURE(pbd_World_GetFluidStats(whole, &fresh) == PBD_OK);
	printf("  measured by the step: mean %.6f max %.6f error %.6f; searched: %.6f %.6f %.6f; %d units, %d readings between\n",
		   (double)a.meanDensity, (double)a.maxDensity, (double)a.densityError, (double)fresh.meanDensity, (double)fresh.maxDensity,
		   (double)fresh.densityError, units, between);
	ENSURE(a.particles == fresh.particles && a.capacity == fresh.capacity && a.emitted == fresh.emitted);
	ENSURE(a.meanDensity > 0.1f && fabsf(a.meanDensity - fresh.meanDensity) < 0.01f * fresh.meanDensity);
	ENSURE(fabsf(a.maxDensity - fresh.maxDensity) < 0.02f * fresh.maxDensity);
	ENSURE(fabsf(a.densityError - fresh.densityError) < 0.01f);
	ENSURE(between > units / 2);
	pbd_DestroyWorld(whole);
	pbd_DestroyWorld(sliced);
	pbd_DestroyWorld(plain);
}

/* Between the units of a sliced step the world takes any call: those that would use the scratch or rebuild the
   search state the step's units keep (builders, FindPairs, the fluid's queries) and a mass change are refused, the
   others (positions, velocities, parameters, radii, emitters, drains, colliders, attachments, the instruments) act,
   and the step's units stay within their memory (the sanitizer build runs this) and end finite. */
void Test_CallsBetweenSliceUnits(void)
{
	uint32_t rng = 99;
	for (int scene = 0; scene < HeavyCount && !g_testFailed; ++scene) {
		static const int32_t sizes[HeavyCount] = { 10, 3000, 24, 4 };
		const pbdWorldId w = HeavyWorld((HeavyScene)scene, sizes[scene]);
		pbd_GetWorld(w)->sliceBudget = 512;
		pbdColliderDef ball = pbd_DefaultColliderDef();
		ball.radius = 0.1f;
		ENSURE(pbd_World_AddCollider(w, &ball) == 0);
		pbdAttachmentId grab = pbd_World_AddAttachment(w, 0, 0.0f, 1.0f, 0.0f, 0.5f);
		ENSURE(grab > 0);
		pbdClothDef cloth = pbd_DefaultClothDef();
		pbdBodyDef body = pbd_DefaultBodyDef();
		pbdFluidDef fluid = pbd_DefaultFluidDef();
		pbdFluidStats stats;
		for (int step = 0; step < 2; ++step) {
			int32_t left, call = 0;
			do {
				left = pbd_World_StepSlice(w, 1);
				ENSURE(left >= 0);
				const int32_t n = pbd_World_GetParticleCount(w);
				const int32_t i = (int32_t)(TestXorshift32(&rng) % (uint32_t)n);
				const float t = (float)(TestXorshift32(&rng) % 1000) * 0.001f;
				switch (call++ % 12) {
				case 0: ENSURE(pbd_World_SetPosition(w, i, t - 0.5f, 0.2f + t, 0.1f) == PBD_OK); break;
				case 1: ENSURE(pbd_World_SetVelocity(w, i, 0.0f, -t, 0.0f) == PBD_OK); break;
				case 2: pbd_World_SetParam(w, pbdParam_thickness, 0.001f + 0.01f * t); break;
				case 3: pbd_World_SetParam(w, pbdParam_fluidSmoothingRadius, 0.02f + 0.06f * t); break;
				case 4: pbd_World_SetObjectRadius(w, 0, 0.005f * t); break;
				case 5: ENSURE(pbd_World_SetColliderTransform(w, 0, t, 0.2f, 0.0f, 0, 0, 0, 1) == PBD_OK); break;
				case 6: pbd_World_MoveAttachment(w, grab, t, 1.0f, 0.0f); break; /* gone once a drain took its particle */
				case 7:
					ENSURE(pbd_World_UpdateErrors(w) == PBD_OK && pbd_World_UpdateNormals(w) == PBD_OK);
					ENSURE(pbd_World_UpdateSkin(w) == PBD_OK);
					break;
				case 8:
					if (left == 0) break; /* the refusals hold while a step is in progress */
					ENSURE(pbd_World_AddCloth(w, &cloth) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_AddBody(w, &body) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_AddFluid(w, &fluid) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_FindPairs(w) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_GetFluidStats(w, &stats) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_UpdateDensities(w) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_RunFluidPart(w, 0) == PBD_ERR_STEP_IN_PROGRESS);
					ENSURE(pbd_World_SetInvMass(w, i, 0.0f) == PBD_ERR_STEP_IN_PROGRESS);
					break;
				case 9:
					if (scene == HeavyHose || scene == HeavyFluid) {
						pbdEmitterDef e = pbd_DefaultEmitterDef();
						e.object = 0, e.position[1] = 0.5f, e.radius = 0.02f + 0.3f * t, e.speed = 1.0f + 40.0f * t;
						if (pbd_World_GetEmitterCount(w) < PBD_MAX_EMITTERS) pbd_World_AddEmitter(w, &e);
						else pbd_World_SetEmitter(w, 0, &e);
					}
					break;
				case 10:
					if (scene == HeavyHose || scene == HeavyFluid) {
						const float lo[3] = { -1.0f, -1.0f, -1.0f }, hi[3] = { 1.0f, 0.02f + t, 1.0f };
						if (pbd_World_GetDrainCount(w) < PBD_MAX_DRAINS) pbd_World_AddDrain(w, lo, hi);
					}
					break;
				default: {
					pbdStats st;
					ENSURE(pbd_World_GetStats(w, &st) == PBD_OK);
					break;
				}
				}
			} while (left > 0);
		}
		ENSURE(pbd_World_Step(w) == PBD_OK);
		ENSURE(TestAllFinite(w));
		pbd_DestroyWorld(w);
	}
}
