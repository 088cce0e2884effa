/* Cloth tests: tethers, wind, tearing, and a violent drag. */
#include "families/distance_state.h"
#include "families/tethers.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static pbdWorldId ClothWorld(int nu, int nv, int horizontal)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = nu * nv + 64;
	def.maxConstraints = 8 * (nu * nv + 64);
	pbdWorldId w = TestCreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.origin[0] = -1.0f, cloth.origin[1] = 2.5f, cloth.origin[2] = 0.0f;
	cloth.axisU[0] = 2.0f, cloth.axisU[1] = 0.0f, cloth.axisU[2] = 0.0f;
	if (horizontal) cloth.axisV[0] = 0.0f, cloth.axisV[1] = 0.0f, cloth.axisV[2] = 2.0f;
	else cloth.axisV[0] = 0.0f, cloth.axisV[1] = -2.0f, cloth.axisV[2] = 0.0f;
	cloth.resolutionU = nu;
	cloth.resolutionV = nv;
	cloth.mass = 0.01f;
	pbd_World_AddCloth(w, &cloth);
	return w;
}

static const float* Pos(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static const float* Vel(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL); }

static float MaxStretch(pbdWorldId w)
{
	pbdStats s;
	pbd_World_GetStats(w, &s);
	return s.maxStretch;
}

/* The case: a 316 x 316 (~100k particle) cloth hanging from its whole top edge
   at the default 10 passes. Plain Gauss-Seidel carries the pins' corrections only a few
   rows per pass, so without tethers the cloth stretches several times over; with
   tethers (the default) it stays within 2% of its rest length everywhere. */
static float HangFromTopEdge(int n, float tethers, int steps)
{
	pbdWorldId w = ClothWorld(n, n, 0);
	pbd_World_SetParam(w, pbdParam_tethers, tethers);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	for (int i = 0; i < n; ++i) pbd_World_SetInvMass(w, i, 0.0f); /* the top row */
	float worst = 0.0f;
	for (int s = 0; s < steps; ++s) {
		pbd_World_Step(w);
		float m = MaxStretch(w);
		if (m > worst) worst = m;
	}
	pbd_DestroyWorld(w);
	return worst;
}

void Test_TethersBoundStretch(void)
{
	float with = HangFromTopEdge(316, 1.0f, 90);
	float without = HangFromTopEdge(316, 0.0f, 30);
	printf("  316 x 316 hanging from the top edge, max stretch: %.4f with tethers, %.2f without\n", with, without);
	ENSURE(with <= 0.02f);
	ENSURE(without > 1.0f);
}

/* A horizontal cloth pinned along one edge swings down through 90 degrees and settles:
   tethers hold it within 2% once it has settled (during the swing itself the stretch
   is larger: that is dynamics, not the rest state). */
void Test_TethersSwingAndSettle(void)
{
	const int n = 100;
	pbdWorldId w = ClothWorld(n, n, 1);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_damping, 0.5f);
	for (int i = 0; i < n; ++i) pbd_World_SetInvMass(w, i, 0.0f);
	for (int s = 0; s < 1080; ++s) pbd_World_Step(w);
	pbdStats st;
	pbd_World_GetStats(w, &st);
	ENSURE(st.kineticEnergy < 0.05); /* settled */
	ENSURE(st.maxStretch <= 0.02f);
	pbd_DestroyWorld(w);
}

/* Two triangles moving face-on through still air: drag only (lift vanishes when the
   flow is along the normal), F = -1/2 rho A C_d v^2 n per triangle, a third per vertex. */
void Test_WindDragClosedForm(void)
{
	pbdWorldId w = ClothWorld(2, 2, 1); /* 2 x 2 m square in the xz plane, normal along y */
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(w, pbdParam_drag, 0.8f);
	pbd_World_SetParam(w, pbdParam_lift, 0.5f);
	for (int c = 0; c < pbdKind_count; ++c) pbd_World_SetParam(w, (pbdParam)(pbdParam_stiffnessStretch + c), 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	const float v0 = 2.0f;
	for (int i = 0; i < 4; ++i) {
		pbd_World_SetMass(w, i, 1.0f);
		pbd_World_SetVelocity(w, i, 0.0f, v0, 0.0f);
	}
	pbd_World_Step(w);
	double h = pbd_World_GetParam(w, pbdParam_dt);
	double area = 2.0; /* each triangle: half of 2 x 2 */
	double f = 0.5 * 1.2 * area * 0.8 * v0 * v0; /* per triangle */
	/* triangles (0, 2, 1) and (1, 2, 3): particles 1 and 2 are in both */
	const float* v = Vel(w);
	ENSURE_NEAR(v[4 * 0 + 1], v0 - h * f / 3.0, 1e-4);
	ENSURE_NEAR(v[4 * 1 + 1], v0 - h * 2.0 * f / 3.0, 1e-4);
	ENSURE_NEAR(v[4 * 2 + 1], v0 - h * 2.0 * f / 3.0, 1e-4);
	ENSURE_NEAR(v[4 * 3 + 1], v0 - h * f / 3.0, 1e-4);
	ENSURE(v[0] == 0.0f && v[2] == 0.0f); /* no sideways force */
	pbd_DestroyWorld(w);
}

/* A flag in a steady wind is blown downstream, and drag never reverses motion. */
void Test_WindBlowsFlag(void)
{
	pbdWorldId w = ClothWorld(20, 20, 0); /* hangs in the xy plane */
	for (int j = 0; j < 20; ++j) pbd_World_SetInvMass(w, 20 * j, 0.0f); /* pole along the left edge */
	pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(w, pbdParam_windZ, 8.0f);
	for (int s = 0; s < 240; ++s) pbd_World_Step(w);
	const float* x = Pos(w);
	double meanZ = 0.0;
	for (int i = 0; i < 400; ++i) meanZ += x[4 * i + 2];
	meanZ /= 400.0;
	ENSURE(meanZ > 0.3); /* blown toward +z */
	for (int i = 0; i < 400 * 4; ++i) ENSURE(isfinite(x[i]));
	/* with the wind off, still air damps a swinging flag: energy goes down */
	pbd_World_SetParam(w, pbdParam_windZ, 0.0f);
	pbdStats a, b;
	pbd_World_Step(w);
	pbd_World_GetStats(w, &a);
	for (int s = 0; s < 240; ++s) pbd_World_Step(w);
	pbd_World_GetStats(w, &b);
	ENSURE(b.kineticEnergy + b.potentialEnergy < a.kineticEnergy + a.potentialEnergy);
	pbd_DestroyWorld(w);
}

static int TriangleHasTornEdge(pbdWorld* w, const uint32_t* t)
{
	const pbdDistance* d = pbd_DistanceState(w);
	/* a live triangle's three edges must each still be joined by a live constraint */
	for (int e = 0; e < 3; ++e) {
		int a = (int)t[e], b = (int)t[(e + 1) % 3];
		int joined = 0;
		for (int c = 0; c < d->count && !joined; ++c) {
			if (d->ca[c] == d->cb[c]) continue;
			joined = (d->ca[c] == a && d->cb[c] == b) || (d->ca[c] == b && d->cb[c] == a);
		}
		if (!joined) return 1;
	}
	return 0;
}

/* Pull a cloth apart by two corners: it tears, keeps every particle, and what is left
   of the mesh is valid triangles over live constraints. */
void Test_TearingKeepsParticlesAndValidTriangles(void)
{
	const int n = 16;
	pbdWorldId id = ClothWorld(n, n, 0);
	pbd_World_SetParam(id, pbdParam_tearStretch, 0.5f);
	pbd_World_SetParam(id, pbdParam_tethers, 0.0f);
	int count = pbd_World_GetParticleCount(id);
	int trianglesBefore = pbd_World_GetCount(id, pbdBuffer_triangles);
	int version = pbd_World_GetTopologyVersion(id);
	const float* x = Pos(id);
	pbdAttachmentId a = pbd_World_AddAttachment(id, 0, x[0], x[1], x[2], 1.0f);
	pbdAttachmentId b = pbd_World_AddAttachment(id, n - 1, x[4 * (n - 1)], x[4 * (n - 1) + 1], x[4 * (n - 1) + 2], 1.0f);
	for (int s = 0; s < 120; ++s) {
		float pull = 0.05f * (float)s; /* drag the two top corners apart, while tearing */
		pbd_World_MoveAttachment(id, a, -1.0f - pull, 2.5f, 0.0f);
		pbd_World_MoveAttachment(id, b, 1.0f + pull, 2.5f, 0.0f);
		pbd_World_Step(id);
	}
	pbdWorld* w = pbd_GetWorld(id);
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(id, 0, &info);
	printf("  torn constraints %d, triangles %d -> %d\n", info.tornConstraints, trianglesBefore, w->triangleCount);
	ENSURE(info.tornConstraints > 0);
	ENSURE(pbd_World_GetParticleCount(id) == count);
	ENSURE(w->triangleCount < trianglesBefore);
	ENSURE(info.triangleCount == w->triangleCount);
	ENSURE(pbd_World_GetTopologyVersion(id) > version);
	for (int t = 0; t < w->triangleCount; ++t) {
		const uint32_t* tri = w->triangles + 3 * t;
		ENSURE(tri[0] < (uint32_t)count && tri[1] < (uint32_t)count && tri[2] < (uint32_t)count);
		ENSURE(tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2]);
		ENSURE(!TriangleHasTornEdge(w, tri));
	}
	for (int i = 0; i < 4 * count; ++i) ENSURE(isfinite(w->x[i]) && isfinite(w->v[i]));
	pbd_DestroyWorld(id);
}

/* Fast circles, release, re-grab, for 2,000 steps, with tearing and wind on: every value
   stays finite, nothing leaves the world bounds, and the energy stays bounded. */
void Test_ViolentDragStaysFinite(void)
{
	const int n = 24;
	pbdWorldId id = ClothWorld(n, n, 0);
	pbd_World_SetInvMass(id, 0, 0.0f);
	pbd_World_SetInvMass(id, n - 1, 0.0f);
	pbd_World_SetParam(id, pbdParam_tearStretch, 2.0f);
	pbd_World_SetParam(id, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(id, pbdParam_windX, 3.0f);
	const float* x = Pos(id);
	pbdAttachmentId grab = 0;
	double worstEnergy = 0.0;
	for (int s = 0; s < 2000; ++s) {
		int phase = s % 200;
		if (phase == 0) grab = pbd_World_AddAttachment(id, (s / 200) * 37 % (n * n), 0.0f, 1.0f, 0.0f, 1.0f);
		if (phase < 150 && grab > 0) {
			/* a 3 m loop every half second (~24 m/s at the pointer), traced as a polygon
			   so the test needs no libm */
			float ang = (float)(s % 30) / 30.0f;
			float cx = ang < 0.25f ? 1.0f - 8.0f * ang : ang < 0.75f ? -1.0f : -1.0f + 8.0f * (ang - 0.75f);
			float cy = ang < 0.5f ? 1.0f : -1.0f;
			pbd_World_MoveAttachment(id, grab, 1.5f * cx, 1.5f + 1.5f * cy, 0.5f * cx);
		}
		if (phase == 150 && grab > 0) {
			pbd_World_RemoveAttachment(id, grab);
			grab = 0;
		}
		pbd_World_Step(id);
		int count = pbd_World_GetParticleCount(id);
		for (int i = 0; i < 4 * count; ++i) ENSURE(isfinite(x[i]) && isfinite(Vel(id)[i]));
		pbdStats st;
		pbd_World_GetStats(id, &st);
		double e = st.kineticEnergy + st.potentialEnergy;
		if (e > worstEnergy) worstEnergy = e;
	}
	/* 576 particles of 10 g: kinetic energy at the speed bound (100 m/s) would be 28.8 kJ;
	   a bounded drag keeps it orders of magnitude below */
	printf("  worst total energy %.2f J\n", worstEnergy);
	ENSURE(worstEnergy < 500.0);
	pbd_DestroyWorld(id);
}

/* The statistics count every family's constraints: a cloth pinned along its top edge holds its distance
   constraints and, from the first step, a tether per free particle; the pointer adds an attachment.
   pbdStats.constraints is the sum over pbd_World_GetConstraintCounts, named by pbd_FamilyName. */
void Test_ConstraintCountsEveryFamily(void)
{
	const int n = 10;
	pbdWorldId w = ClothWorld(n, n, 0);
	for (int i = 0; i < n; ++i) pbd_World_SetInvMass(w, i, 0.0f);
	int32_t counts[32];
	const int families = pbd_World_GetConstraintCounts(w, counts, 32);
	ENSURE(families > 6 && families <= 32 && pbd_FamilyName(families) == NULL && pbd_FamilyName(-1) == NULL);
	int distance = -1, tethers = -1, attachments = -1;
	for (int f = 0; f < families; ++f) {
		if (strcmp(pbd_FamilyName(f), "distance") == 0) distance = f;
		if (strcmp(pbd_FamilyName(f), "tethers") == 0) tethers = f;
		if (strcmp(pbd_FamilyName(f), "attachments") == 0) attachments = f;
	}
	ENSURE(distance >= 0 && tethers >= 0 && attachments >= 0);
	ENSURE(counts[distance] == pbd_World_GetConstraintCount(w) && counts[distance] > 0);
	pbd_World_Step(w);
	pbd_World_AddAttachment(w, n * n - 1, 0.0f, 0.0f, 0.0f, 1.0f);
	pbd_World_GetConstraintCounts(w, counts, 32);
	ENSURE(counts[tethers] >= n * (n - 1)); /* each free particle to its nearest pin at least */
	ENSURE(counts[attachments] == 1);
	int64_t sum = 0;
	for (int f = 0; f < families; ++f) sum += counts[f];
	pbdStats s;
	ENSURE(pbd_World_GetStats(w, &s) == PBD_OK);
	ENSURE(s.constraints == sum && s.constraints > counts[distance]);
	pbd_DestroyWorld(w);
}

/* The tethers' rebuild searches a grid per pin island (and, where those do not fit the scratch, one grid over
   every pin); each must find what checking every particle against every pin finds, bit for bit: the same nearest pin (ties to the lower
   index), the same islands' pins (ties to the lower island) and rest lengths. Cloths on a
   regular lattice are full of exact ties; the patterns give one island (a pinned edge), a
   few (corners), hundreds of single pins (more than the four a particle is tied to),
   ragged pseudo-random islands, and a few long ones (rows, columns: a grid per island,
   pbd_Tethers_FindByIslands); two cloths share the world, one horizontal. */
static int TethersMatchReference(pbdWorldId id, int particles)
{
	pbdWorld* w = pbd_GetWorld(id);
	const int stride = particles;
	/* by method (families/tethers.h pbdTetherSearch): the step's, the reference, one grid over every pin */
	int32_t* anchor[3];
	float* rest[3];
	int32_t* extraAnchor[3];
	float* extraRest[3];
	int32_t slots[3];
	for (int r = 0; r < 3; ++r) {
		anchor[r] = malloc(sizeof(int32_t) * (size_t)particles);
		rest[r] = malloc(sizeof(float) * (size_t)particles);
		extraAnchor[r] = malloc(sizeof(int32_t) * (size_t)particles * PBD_TETHER_EXTRA);
		extraRest[r] = malloc(sizeof(float) * (size_t)particles * PBD_TETHER_EXTRA);
		memset(rest[r], 0, sizeof(float) * (size_t)particles);
		memset(extraRest[r], 0, sizeof(float) * (size_t)particles * PBD_TETHER_EXTRA);
		slots[r] = pbd_Tethers_Find(w, r, anchor[r], rest[r], extraAnchor[r], extraRest[r], stride);
	}
	int same = 1;
	for (int r = 0; r < 3; r += 2) {
		const int ref = pbdTetherSearch_reference;
		same &= slots[r] == slots[ref] && memcmp(anchor[r], anchor[ref], sizeof(int32_t) * (size_t)particles) == 0 &&
				memcmp(rest[r], rest[ref], sizeof(float) * (size_t)particles) == 0 &&
				memcmp(extraAnchor[r], extraAnchor[ref], sizeof(int32_t) * (size_t)particles * PBD_TETHER_EXTRA) == 0 &&
				memcmp(extraRest[r], extraRest[ref], sizeof(float) * (size_t)particles * PBD_TETHER_EXTRA) == 0;
	}
	int tethered = 0;
	for (int i = 0; i < particles; ++i) tethered += anchor[0][i] >= 0;
	printf("    %d tethered, %d extra slots: %s\n", tethered, slots[0], same ? "same" : "DIFFERENT");
	for (int r = 0; r < 3; ++r) free(anchor[r]), free(rest[r]), free(extraAnchor[r]), free(extraRest[r]);
	return same && tethered > 0;
}

void Test_TethersRebuildMatchesBruteForce(void)
{
	const int nu = 61, nv = 47, n = nu * nv;
	for (int pattern = 0; pattern < 8; ++pattern) {
		pbdWorldDef def = pbd_DefaultWorldDef();
		def.maxParticles = 2 * n + 64;
		def.maxConstraints = 8 * (2 * n + 64);
		pbdWorldId w = TestCreateWorld(&def);
		for (int c = 0; c < 2; ++c) {
			pbdClothDef cloth = pbd_DefaultClothDef();
			cloth.origin[0] = -1.0f + 3.0f * c, cloth.origin[1] = 2.5f, cloth.origin[2] = 0.3f;
			cloth.axisU[0] = 2.0f, cloth.axisU[1] = 0.0f, cloth.axisU[2] = 0.0f;
			if (c == 1) cloth.axisV[0] = 0.0f, cloth.axisV[1] = 0.0f, cloth.axisV[2] = 1.5f;
			else cloth.axisV[0] = 0.0f, cloth.axisV[1] = -1.5f, cloth.axisV[2] = 0.0f;
			cloth.resolutionU = nu;
			cloth.resolutionV = nv;
			cloth.mass = 0.01f;
			pbd_World_AddCloth(w, &cloth);
		}
		uint32_t seed = 12345u + (uint32_t)pattern;
		for (int c = 0; c < 2; ++c) {
			for (int j = 0; j < nv; ++j) {
				for (int i = 0; i < nu; ++i) {
					seed = seed * 1664525u + 1013904223u;
					int pin = 0;
					if (pattern == 0) pin = j == 0;                                                        /* the top edge */
					if (pattern == 1) pin = (i == 0 || i == nu - 1) && (j == 0 || j == nv - 1);            /* corners */
					if (pattern == 2) pin = i % 6 == 0 && j % 4 == 0;                                      /* single pins */
					if (pattern == 3) pin = (seed >> 16) % 23 == 0;                                        /* ragged islands */
					if (pattern == 4) pin = (i % 6 == 0 && j % 4 == 0) || j == 0 || (i > 20 && i < 28 && j > 10 && j < 30);
					if (pattern == 5) pin = i + j == nu / 2 || (i == nu - 1 && j == nv - 1) || (i == nu / 2 && j == nv / 2);
					if (pattern == 6) pin = j % 8 == 0 || (i == nu - 1 && j > 30);                           /* rows, a hook */
					if (pattern == 7) pin = i % 10 == 0 && j < 30;                                          /* columns */
					if (pin) pbd_World_SetInvMass(w, c * n + j * nu + i, 0.0f);
				}
			}
		}
		printf("  pattern %d:\n", pattern);
		ENSURE(TethersMatchReference(w, 2 * n));
		pbd_DestroyWorld(w);
	}
	/* In 3D (a soft box and a ball, each pin its own island: a body has no triangles or lines)
	   and along a chain, pseudo-random pins. */
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 8000;
	def.maxSkinVertices = 4 * 8000;
	def.maxSkinTriangles = 8 * 8000;
	def.maxTets = 8 * 8000;
	def.maxConstraints = 80000;
	pbdWorldId w = TestCreateWorld(&def);
	pbdBodyDef box = pbd_DefaultBodyDef();
	box.shape = pbdBodyShape_box;
	box.halfExtents[0] = 1.0f, box.halfExtents[1] = 0.5f, box.halfExtents[2] = 0.75f;
	box.resolution = 16;
	ENSURE(pbd_World_AddBody(w, &box) >= 0);
	pbdBodyDef ball = pbd_DefaultBodyDef();
	ball.shape = pbdBodyShape_ball;
	ball.position[0] = 3.0f, ball.position[1] = 1.0f;
	ball.radius = 0.8f;
	ball.resolution = 12;
	ENSURE(pbd_World_AddBody(w, &ball) >= 0);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.start[0] = -2.0f, chain.start[1] = 3.0f, chain.start[2] = 0.0f;
	chain.end[0] = 2.0f, chain.end[1] = 3.0f, chain.end[2] = 0.5f;
	chain.segments = 300;
	chain.mass = 0.01f;
	if (pbd_World_AddChain(w, &chain) < 0) printf("  %s\n", pbd_World_GetLastErrorMessage(w));
	ENSURE(pbd_World_GetObjectCount(w) == 3);
	const int particles = pbd_World_GetParticleCount(w);
	uint32_t seed = 777u;
	for (int i = 0; i < particles; ++i) {
		seed = seed * 1664525u + 1013904223u;
		if ((seed >> 16) % 37 == 0 || i % 97 == 0) pbd_World_SetInvMass(w, i, 0.0f);
	}
	printf("  bodies and a chain, %d particles:\n", particles);
	ENSURE(TethersMatchReference(w, particles));
	pbd_DestroyWorld(w);
}

/* Pins joined by a mesh edge are one island, apart ones are two: a 20 x 20 cloth pinned along rows 0 and 10 has two
   islands, so a particle under row 10 is tethered to its nearest pin in row 10 and to the nearest in row 0 (directly
   above it, 15 rows up), each at its rest distance. The islands' numbering once sent every member of the second row
   through its root's new number into the first island: one island, and no second tether. Every particle between or
   under the rows has both; none above row 0 exists. */
void Test_TethersEveryPinIslandNumbered(void)
{
	enum { N = 20 };
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = N * N;
	def.maxConstraints = 8 * N * N;
	pbdWorldId id = TestCreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = N, cloth.resolutionV = N;
	ENSURE(pbd_World_AddCloth(id, &cloth) == 0);
	for (int i = 0; i < N; ++i) pbd_World_SetInvMass(id, i, 0.0f), pbd_World_SetInvMass(id, 10 * N + i, 0.0f);
	pbdWorld* w = pbd_GetWorld(id);
	int32_t anchor[N * N], extraAnchor[N * N * PBD_TETHER_EXTRA];
	float rest[N * N], extraRest[N * N * PBD_TETHER_EXTRA];
	for (int method = 0; method < 3; ++method) {
		const int32_t slots = pbd_Tethers_Find(w, method, anchor, rest, extraAnchor, extraRest, N * N);
		ENSURE(slots == 1); /* two islands: one tether beyond the nearest */
		const int p = 15 * N + 5;
		ENSURE(anchor[p] == 10 * N + 5 && extraAnchor[p] == 5);
		const float s = 1.0f / (N - 1); /* the default cloth: 1 m wide and high */
		ENSURE(fabsf(rest[p] - 5 * s) < 1e-5f && fabsf(extraRest[p] - 15 * s) < 1e-5f);
		for (int q = N; q < N * N; ++q) {
			if (q / N == 10) continue;
			ENSURE(anchor[q] >= 0 && extraAnchor[q] >= 0 && (anchor[q] < N) != (extraAnchor[q] < N));
		}
	}
	pbd_DestroyWorld(id);
}
