/* Steps taken in slices of bounded work (world/step.c), and the contact radius's bound that keeps the
   neighbour search's work per particle bounded (minipbd.h PBD_MAX_RADIUS_SPACINGS). */
#include "test.h"
#include "families/family.h"

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
	for (int32_t o = 0; o < w->objectCount && o < 4; ++o) p.radius[o] = w->objectRadius[o];
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
