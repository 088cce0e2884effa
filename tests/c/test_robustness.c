/* Robustness tests: bad input refused with a clear message and the world unchanged (capacities,
   non-finite and out-of-range values, defs not from pbd_Default*Def), stale world handles, and no
   NaN or Inf out of a step for degenerate geometry or a fuzz of hostile (accepted) input. */
#include "test_physics_helpers.h"

void Test_CapacityRefusedWorldUnchanged(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 100;
	def.maxConstraints = 320; /* the 8 x 8 cloth uses 306 */
	def.maxAttachments = 2;
	pbdWorldId w = TestCreateWorld(&def);
	ENSURE(w > 0);
	ENSURE(AddCloth(w, 8, 8, 1.0f) == 0);
	for (int s = 0; s < 5; ++s) pbd_World_Step(w);
	uint32_t hash = pbd_World_Hash(w);
	int constraints = pbd_World_GetConstraintCount(w);
	int version = pbd_World_GetTopologyVersion(w);
	ENSURE(AddCloth(w, 8, 8, 1.0f) == PBD_ERR_PARTICLE_CAPACITY);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "particle capacity") != NULL);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.segments = 30;
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_CONSTRAINT_CAPACITY);
	ENSURE(pbd_World_GetParticleCount(w) == 64);
	ENSURE(pbd_World_GetConstraintCount(w) == constraints);
	ENSURE(pbd_World_GetTopologyVersion(w) == version);
	ENSURE(pbd_World_Hash(w) == hash);
	ENSURE(pbd_World_AddAttachment(w, 0, 0, 0, 0, 1) > 0);
	ENSURE(pbd_World_AddAttachment(w, 1, 0, 0, 0, 1) > 0);
	ENSURE(pbd_World_AddAttachment(w, 2, 0, 0, 0, 1) == PBD_ERR_ATTACHMENT_CAPACITY);
	pbd_DestroyWorld(w);
}

void Test_BadInputRefused(void)
{
	pbdWorldDef bad = { 0 };
	ENSURE(pbd_CreateWorld(&bad) == PBD_ERR_BAD_DEF);
	ENSURE(pbd_CreateWorld(NULL) == PBD_ERR_BAD_DEF);
	pbdWorldDef neg = pbd_DefaultWorldDef();
	neg.maxParticles = -5;
	ENSURE(pbd_CreateWorld(&neg) == PBD_ERR_INVALID_ARGUMENT);
	pbdWorldId w = MakeWorld(16, 16);
	AddPair(w, 0, 0, 0, 1, 0, 0);
	uint32_t hash = pbd_World_Hash(w);
	ENSURE(pbd_World_SetParam(w, pbdParam_dt, NAN) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetParam(w, pbdParam_dt, INFINITY) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetParam(w, pbdParam_dt, -1.0f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "dt") != NULL);
	ENSURE(pbd_World_SetParam(w, pbdParam_iterations, 2.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetParam(w, pbdParam_iterations, 0.0f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetParam(w, (pbdParam)999, 1.0f) == PBD_ERR_UNKNOWN_PARAM);
	ENSURE(pbd_World_GetParam(w, pbdParam_iterations) == 10.0f);
	ENSURE(pbd_World_SetMass(w, 0, 0.0f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetMass(w, 0, NAN) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetInvMass(w, 0, -1.0f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetInvMass(w, 2, 1.0f) == PBD_ERR_INVALID_PARTICLE);
	ENSURE(pbd_World_SetPosition(w, 0, NAN, 0, 0) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_SetPosition(w, 0, 1e30f, 0, 0) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_SetVelocity(w, -1, 0, 0, 0) == PBD_ERR_INVALID_PARTICLE);
	ENSURE(pbd_World_AddAttachment(w, 0, INFINITY, 0, 0, 1) == PBD_ERR_NOT_FINITE);
	ENSURE(pbd_World_AddAttachment(w, 0, 0, 0, 0, 1.5f) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_AddAttachment(w, 7, 0, 0, 0, 1.0f) == PBD_ERR_INVALID_PARTICLE);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.segments = 0;
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_INVALID_ARGUMENT);
	chain.segments = 2;
	chain.start[0] = NAN;
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_NOT_FINITE);
	pbdChainDef notDefault = { { 0 }, { 1, 0, 0 }, 2, 1.0f, 0 };
	ENSURE(pbd_World_AddChain(w, &notDefault) == PBD_ERR_BAD_DEF);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = 1;
	ENSURE(pbd_World_AddCloth(w, &cloth) == PBD_ERR_INVALID_ARGUMENT);
	cloth.resolutionU = 100000;
	cloth.resolutionV = 100000; /* overflow bait */
	ENSURE(pbd_World_AddCloth(w, &cloth) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(pbd_World_Hash(w) == hash); /* nothing above changed the world */
	ENSURE(pbd_World_GetParticleCount(w) == 2);
	pbd_DestroyWorld(w);
}

void Test_StaleHandles(void)
{
	pbdWorldId w = MakeWorld(4, 4);
	ENSURE(pbd_World_IsValid(w));
	ENSURE(pbd_DestroyWorld(w) == PBD_OK);
	ENSURE(!pbd_World_IsValid(w));
	ENSURE(pbd_World_Step(w) == PBD_ERR_INVALID_WORLD);
	ENSURE(pbd_DestroyWorld(w) == PBD_ERR_INVALID_WORLD);
	ENSURE(pbd_World_GetBuffer(w, pbdBuffer_positions, NULL) == NULL);
	pbdWorldId w2 = MakeWorld(4, 4); /* reuses the slot with a new generation */
	ENSURE(w2 != w && !pbd_World_IsValid(w) && pbd_World_IsValid(w2));
	ENSURE(pbd_World_Step(0) == PBD_ERR_INVALID_WORLD && pbd_World_Step(-7) == PBD_ERR_INVALID_WORLD);
	pbd_DestroyWorld(w2);
}

void Test_DegenerateGeometryFinite(void)
{
	pbdWorldId w = MakeWorld(64, 256);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	/* zero-length chain: every particle coincident. No contact radius is within PBD_MAX_RADIUS_SPACINGS spacings of
	   particles 0 m apart, so it is refused, naming the thickness, and the world is as it was */
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[1] = 1.0f;
	chain.end[0] = 0.0f;
	chain.end[1] = 1.0f;
	chain.segments = 5;
	ENSURE(pbd_World_AddChain(w, &chain) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "thickness 0.0001 m is over 4 x the 0 m between this chain's particles") != NULL);
	/* zero-area cloth: both axes along x, its rows on top of each other: refused the same way */
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.axisV[0] = 1.0f;
	cloth.axisV[1] = 0.0f;
	cloth.resolutionU = 4;
	cloth.resolutionV = 4;
	ENSURE(pbd_World_AddCloth(w, &cloth) == PBD_ERR_INVALID_ARGUMENT);
	ENSURE(strstr(pbd_World_GetLastErrorMessage(w), "this cloth's particles") != NULL);
	ENSURE(pbd_World_GetParticleCount(w) == 0 && pbd_World_GetObjectCount(w) == 0);
	/* the same geometry by hand: a chain and a cloth built as usual, every particle then put on one point (rest
	   lengths stay, the contacts see coincident particles) */
	chain.end[0] = 1.0f;
	ENSURE(pbd_World_AddChain(w, &chain) >= 0);
	cloth.axisV[0] = 0.0f;
	cloth.axisV[1] = -1.0f;
	ENSURE(pbd_World_AddCloth(w, &cloth) >= 0);
	pbd_World_SetParam(w, pbdParam_selfCollision, 1.0f);
	for (int i = 0; i < pbd_World_GetParticleCount(w); ++i) pbd_World_SetPosition(w, i, 0.0f, 1.0f, 0.0f);
	for (int s = 0; s < 100; ++s) pbd_World_Step(w);
	ENSURE(TestAllFinite(w));
	pbd_World_UpdateNormals(w);
	const float* n = (const float*)pbd_World_GetBuffer(w, pbdBuffer_normals, NULL);
	for (int i = 0; i < 4 * pbd_World_GetParticleCount(w); ++i) ENSURE(isfinite(n[i]));
	pbd_DestroyWorld(w);
}

static float RandRange(float lo, float hi) { return lo + (hi - lo) * Rand01(); }

/* Whatever the (accepted) input, no NaN or Inf leaves a step. */
void Test_HostileFuzzFinite(void)
{
	SeedRand(11);
	for (int trial = 0; trial < 40; ++trial) {
		pbdWorldId w = MakeWorld(300, 3000);
		pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
		AddCloth(w, 10, 10, RandRange(-5, 5));
		pbdChainDef chain = pbd_DefaultChainDef();
		chain.segments = 20;
		chain.mass = 1e-6f;
		pbd_World_AddChain(w, &chain);
		/* every subsystem on: colliders of each shape, self-collision, wind, tearing */
		for (int c = 0; c < 3; ++c) {
			pbdColliderDef col = pbd_DefaultColliderDef();
			col.type = c;
			col.position[0] = RandRange(-2, 2), col.position[1] = RandRange(-1, 3), col.position[2] = RandRange(-1, 1);
			pbd_World_AddCollider(w, &col);
		}
		pbd_World_SetParam(w, pbdParam_selfCollision, (float)(trial % 2));
		pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
		pbd_World_SetParam(w, pbdParam_windX, RandRange(-50, 50));
		pbd_World_SetParam(w, pbdParam_tearStretch, trial % 3 == 0 ? 0.2f : 0.0f);
		int n = pbd_World_GetParticleCount(w);
		for (int op = 0; op < 200; ++op) {
			int i = RandInt() % n;
			switch (RandInt() % 10) {
			case 7: /* a collider teleported anywhere, turned any way */
				pbd_World_SetColliderTransform(w, (int)(RandInt() % 3), RandRange(-1e5f, 1e5f), RandRange(-10, 10), RandRange(-10, 10),
											   RandRange(-1, 1), RandRange(-1, 1), RandRange(-1, 1), RandRange(-1, 1));
				break;
			case 8:
				pbd_World_SetParam(w, pbdParam_thickness, RandRange(0.0001f, 1.0f));
				break;
			case 0: pbd_World_SetMass(w, i, RandRange(1e-6f, 1e6f)); break;
			case 1: pbd_World_SetInvMass(w, i, RandInt() % 2 ? 0.0f : 1e6f); break;
			case 2: pbd_World_SetPosition(w, i, RandRange(-1e5f, 1e5f), RandRange(-1e5f, 1e5f), 0); break;
			case 3: pbd_World_SetVelocity(w, i, RandRange(-1e5f, 1e5f), RandRange(-1e5f, 1e5f), 3); break;
			case 4: pbd_World_AddAttachment(w, i, RandRange(-1e5f, 1e5f), 0, RandRange(-1e5f, 1e5f), 1.0f); break;
			case 5: pbd_World_SetParam(w, (pbdParam)(RandInt() % pbdParam_count), RandRange(-10, 1000)); break;
			case 6: pbd_World_SetParam(w, pbdParam_dt, RandRange(1e-5f, 1.0f)); break;
			default: pbd_World_Step(w); break;
			}
			ENSURE(TestAllFinite(w));
		}
		pbd_DestroyWorld(w);
	}
}
