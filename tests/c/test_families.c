/* Family tests: each constraint family proves its own arithmetic in closed form,
   each against slips that no earlier test caught, found by mutating the family's
   code (tools/mutate.sh keeps the list and checks that every one is caught): a collider
   moving a pin (w = 0), tetherSlack ignored, the sign of wind lift flipped, the tearing
   threshold off by the rest length. Only the public API (minipbd.h) is used, so the tests
   hold whatever file a family lives in.

   Each world switches off everything but the family under test (no gravity, no ground, no
   tethers, stiffness 0 for every distance kind, so a constraint never shortens what a test
   arranged), with TestCreateWorld's 1 substep x 10 passes unless a test sets its own split. */
#include "minipbd.h"
#include "test.h"

#include <string.h>

#define PI 3.14159265358979323846

static const float* Pos(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL); }
static const float* Vel(pbdWorldId w) { return (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL); }

static pbdWorldId FamWorld(int particles)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxConstraints = 8 * particles + 16;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	for (int k = 0; k < pbdKind_count; ++k) pbd_World_SetParam(w, (pbdParam)(pbdParam_stiffnessStretch + k), 0.0f);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f); /* particle radius r = 1 cm */
	return w;
}

/* A one-segment chain from a to its partner b (stiffness 0, so the pair never pulls); the
   partner is pinned, and so is a when pinA. Returns a's index. */
static int AddPair(pbdWorldId w, const float a[3], const float b[3], int pinA, float mass)
{
	pbdChainDef def = pbd_DefaultChainDef();
	memcpy(def.start, a, sizeof def.start);
	memcpy(def.end, b, sizeof def.end);
	def.segments = 1;
	def.mass = mass;
	int first = pbd_World_AddChain(w, &def);
	pbd_World_SetInvMass(w, first + 1, 0.0f);
	if (pinA) pbd_World_SetInvMass(w, first, 0.0f);
	return first;
}

/* A cloth of nu x nv particles at o + u i/(nu-1) + v j/(nv-1), of `mass` kg each. */
static void AddGrid(pbdWorldId w, const float o[3], const float u[3], const float v[3], int nu, int nv, float mass)
{
	pbdClothDef def = pbd_DefaultClothDef();
	memcpy(def.origin, o, sizeof def.origin);
	memcpy(def.axisU, u, sizeof def.axisU);
	memcpy(def.axisV, v, sizeof def.axisV);
	def.resolutionU = nu, def.resolutionV = nv;
	def.mass = mass;
	pbd_World_AddCloth(w, &def);
}

static int PinUnmoved(pbdWorldId w, int i, const float before[4])
{
	const float* v = Vel(w) + 4 * i;
	return memcmp(Pos(w) + 4 * i, before, 4 * sizeof(float)) == 0 && v[0] == 0.0f && v[1] == 0.0f && v[2] == 0.0f;
}

/* ---------------------------------------------------------------- colliders */

/* Sphere R 0.3; capsule R 0.2 along y, half length 0.3; box half extents 0.2, 0.3, 0.25. */
static int AddShape(pbdWorldId w, int type, const float c[3])
{
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = type;
	memcpy(def.position, c, sizeof def.position);
	def.radius = type == pbdShape_sphere ? 0.3f : 0.2f;
	def.halfHeight = 0.3f;
	def.halfExtents[0] = 0.2f, def.halfExtents[1] = 0.3f, def.halfExtents[2] = 0.25f;
	return pbd_World_AddCollider(w, &def);
}

/* A pin inside a collider is never pushed out (seed 000: w = 0 => dp = 0), while a free
   particle beside it is pushed out along the gradient to exactly the particle radius from
   the surface in one step: C = sdf - r = 0 (colliders.c, "started inside the shape"). */
void Test_FamilyColliderPinInsideStaysStill(void)
{
	for (int type = 0; type < pbdShape_count; ++type) {
		pbdWorldId w = FamWorld(8);
		const float c[3] = { 0.1f, 1.0f, -0.2f }, r = 0.01f;
		ENSURE(AddShape(w, type, c) == 0);
		float pin[3] = { c[0] - 0.05f, c[1] + 0.04f, c[2] + 0.03f }, pinPartner[3] = { c[0] - 50.0f, c[1], c[2] };
		/* the free particle's partner lies along +x, the way it is pushed, so the edge between
		   them never reaches into the shape past the particle itself */
		float free[3] = { c[0] + 0.1f, c[1] + 0.05f, c[2] + 0.02f }, freePartner[3] = { c[0] + 50.0f, c[1] + 0.05f, c[2] + 0.02f };
		int p = AddPair(w, pin, pinPartner, 1, 1.0f), f = AddPair(w, free, freePartner, 0, 1.0f);
		ENSURE(pbd_World_ColliderDistance(w, 0, pin[0], pin[1], pin[2]) < 0.0f);
		ENSURE(pbd_World_ColliderDistance(w, 0, free[0], free[1], free[2]) < 0.0f);
		float before[4];
		memcpy(before, Pos(w) + 4 * p, sizeof before);
		pbd_World_Step(w);
		ENSURE(PinUnmoved(w, p, before));
		const float* x = Pos(w) + 4 * f;
		ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]), r, 5e-7);
		if (type == pbdShape_box) { /* out through the nearest face, +x */
			ENSURE_NEAR(x[0], c[0] + 0.2f + r, 1e-6);
			ENSURE(x[1] == free[1] && x[2] == free[2]);
		}
		/* the free particle leaves with the push's velocity; the pin stays, step after step */
		for (int s = 0; s < 5; ++s) {
			pbd_World_Step(w);
			ENSURE(PinUnmoved(w, p, before));
		}
		pbd_DestroyWorld(w);
	}
}

/* Each shape swept through a pin in one step (pbd_World_SetColliderTransform, 60 m/s), at 1
   and 4 substeps: the pin stays bit for bit with zero velocity; a free particle head-on in
   the same path is carried in front of the collider, at exactly r from its end surface. */
void Test_FamilyColliderSweepsPastPin(void)
{
	for (int type = 0; type < pbdShape_count; ++type) {
		for (int sub = 1; sub <= 4; sub += 3) {
			pbdWorldId w = FamWorld(8);
			pbd_World_SetParam(w, pbdParam_substeps, (float)sub);
			if (sub > 1) pbd_World_SetParam(w, pbdParam_iterations, 3.0f);
			const float a[3] = { -0.5f, 1.0f, 0.0f }, b[3] = { 0.5f, 1.0f, 0.0f }, r = 0.01f;
			ENSURE(AddShape(w, type, a) == 0);
			/* sphere: both on its centre line; capsule and box: side by side on its face */
			float dy = type == pbdShape_sphere ? 0.0f : 0.1f, dz = type == pbdShape_box ? 0.05f : 0.0f;
			float pin[3] = { 0.0f, 1.0f + dy, dz }, pinPartner[3] = { 0.0f, 1.0f + dy, 50.0f };
			float free[3] = { 0.1f, 1.0f - dy, -dz }, freePartner[3] = { 50.0f, 1.0f - dy, -dz };
			int p = AddPair(w, pin, pinPartner, 1, 1.0f), f = AddPair(w, free, freePartner, 0, 1.0f);
			float before[4];
			memcpy(before, Pos(w) + 4 * p, sizeof before);
			ENSURE(pbd_World_SetColliderTransform(w, 0, b[0], b[1], b[2], 0, 0, 0, 1) == PBD_OK);
			pbd_World_Step(w);
			ENSURE(PinUnmoved(w, p, before));
			const float* x = Pos(w) + 4 * f;
			ENSURE(x[0] > b[0]); /* pushed along, not jumped over */
			ENSURE_NEAR(pbd_World_ColliderDistance(w, 0, x[0], x[1], x[2]), r, 1e-6);
			pbd_World_Step(w); /* the collider now rests past the pin */
			ENSURE(PinUnmoved(w, p, before));
			pbd_DestroyWorld(w);
		}
	}
}

/* The edge test (colliders.c, seed 001 section 4.3) moves an edge's ends by
   w_a (1-t) / (w_a (1-t)^2 + w_b t^2): a sphere or capsule stopping across the middle of an
   edge whose one end is pinned pushes the free end only, and the pin stays bit for bit. */
void Test_FamilyColliderEdgeLeavesPinnedEnd(void)
{
	for (int type = pbdShape_sphere; type <= pbdShape_capsule; ++type) {
		pbdWorldId w = FamWorld(4);
		const float a[3] = { -0.5f, 1.0f, 0.0f }, b[3] = { 0.05f, 1.0f, 0.0f };
		pbdColliderDef def = pbd_DefaultColliderDef();
		def.type = type;
		memcpy(def.position, a, sizeof def.position);
		def.radius = 0.2f;
		def.halfHeight = 0.3f;
		ENSURE(pbd_World_AddCollider(w, &def) == 0);
		/* the edge crosses the path at its middle; both ends lie outside the path */
		float pin[3] = { 0.0f, 1.0f, 0.5f }, end[3] = { 0.0f, 1.0f, -0.5f };
		int p = AddPair(w, pin, end, 1, 1.0f);
		pbd_World_SetInvMass(w, p + 1, 1.0f); /* the far end is free */
		float before[4];
		memcpy(before, Pos(w) + 4 * p, sizeof before);
		ENSURE(pbd_World_SetColliderTransform(w, 0, b[0], b[1], b[2], 0, 0, 0, 1) == PBD_OK);
		pbd_World_Step(w);
		ENSURE(PinUnmoved(w, p, before));
		const float* x = Pos(w) + 4 * (p + 1);
		/* the edge went back to the side it came from: its middle is past the collider's
		   centre plus its radius, so the free end is pushed twice as far (lever 1/t, t = 1/2) */
		ENSURE(x[0] > 2.0f * (b[0] + 0.2f));
		pbd_DestroyWorld(w);
	}
}

/* ---------------------------------------------------------------- tethers */

/* A straight 6-segment chain pinned at particle 0; d receives the rest distances to the pin,
   d_i = i * 0.2 m (particles past index 3 take the scalar tail of the 4-wide tether loop). */
static pbdWorldId TetherChain(float slack, float tethers, double d[7])
{
	pbdWorldId w = FamWorld(8);
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = 0.1f, def.start[1] = 1.5f, def.start[2] = -0.2f;
	def.end[0] = 0.1f + 0.4f, def.end[1] = 1.5f - 1.0f, def.end[2] = -0.2f + 0.6928203f; /* |end - start| = 1.2 */
	def.segments = 6;
	def.mass = 0.5f;
	pbd_World_AddChain(w, &def);
	pbd_World_SetInvMass(w, 0, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, tethers);
	pbd_World_SetParam(w, pbdParam_tetherSlack, slack);
	for (int i = 0; i < 7; ++i) d[i] = TestDistance(Pos(w), 0, i);
	return w;
}

/* Particle i moved to pin + f d_i u_i, u_i a unit direction per particle. */
static void PlaceFromPin(pbdWorldId w, const double d[7], double f)
{
	const float* x = Pos(w);
	for (int i = 1; i < 7; ++i) {
		double ang = 0.9 * i, u[3] = { cos(ang) * 0.6, sin(ang) * 0.6, 0.8 };
		pbd_World_SetPosition(w, i, (float)(x[0] + f * d[i] * u[0]), (float)(x[1] + f * d[i] * u[1]),
							  (float)(x[2] + f * d[i] * u[2]));
	}
}

/* Kim et al. 2012 with slack s: C = |p - p_pin| - (1 + s) d <= 0. A particle pulled far
   out (3 d, every direction) comes back in one step at k = 1 to exactly (1 + s) d along the
   same line, for s = 0, 0.1, 0.5. */
void Test_FamilyTetherSlackReachedNotPassed(void)
{
	const float slacks[] = { 0.0f, 0.1f, 0.5f };
	for (int k = 0; k < 3; ++k) {
		double d[7];
		pbdWorldId w = TetherChain(slacks[k], 1.0f, d);
		pbd_World_SetParam(w, pbdParam_maxSpeed, 1e4f); /* up to 2.4 m back in one step: past the bound's 100 dt */
		PlaceFromPin(w, d, 3.0);
		float dir[7][3];
		for (int i = 1; i < 7; ++i) {
			for (int c = 0; c < 3; ++c) dir[i][c] = (float)((Pos(w)[4 * i + c] - Pos(w)[c]) / (3.0 * d[i]));
		}
		pbd_World_Step(w);
		const float* x = Pos(w);
		for (int i = 1; i < 7; ++i) {
			double limit = (1.0 + slacks[k]) * d[i];
			ENSURE_NEAR(TestDistance(x, 0, i), limit, 2e-6);
			for (int c = 0; c < 3; ++c) ENSURE_NEAR(x[4 * i + c], x[c] + limit * dir[i][c], 4e-6);
		}
		pbd_DestroyWorld(w);
	}
}

/* A vertical cloth hanging under gravity from its two top corners with every distance
   constraint at stiffness 0: only the tethers hold it. Each particle falls until it is
   (1 + s) d from its nearest pin in the rest pose, never farther, and hangs taut there. */
void Test_FamilyTetherSlackHangingCloth(void)
{
	const float slacks[] = { 0.0f, 0.1f, 0.5f };
	for (int k = 0; k < 3; ++k) {
		pbdWorldId w = FamWorld(32);
		const float o[3] = { -0.5f, 2.0f, 0.0f }, u[3] = { 1.0f, 0.0f, 0.0f }, v[3] = { 0.0f, -0.8f, 0.0f };
		AddGrid(w, o, u, v, 6, 5, 0.01f);
		pbd_World_SetInvMass(w, 0, 0.0f);
		pbd_World_SetInvMass(w, 5, 0.0f);
		pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
		pbd_World_SetParam(w, pbdParam_tethers, 1.0f);
		pbd_World_SetParam(w, pbdParam_tetherSlack, slacks[k]);
		int anchor[30];
		double limit[30];
		for (int i = 0; i < 30; ++i) {
			double d0 = TestDistance(Pos(w), 0, i), d5 = TestDistance(Pos(w), 5, i);
			anchor[i] = d0 <= d5 ? 0 : 5; /* 6 columns: no particle is as near to both */
			limit[i] = (1.0 + slacks[k]) * (d0 <= d5 ? d0 : d5);
		}
		for (int s = 0; s < 120; ++s) {
			pbd_World_Step(w);
			for (int i = 0; i < 30; ++i) ENSURE(TestDistance(Pos(w), anchor[i], i) <= limit[i] + 2e-6);
		}
		for (int i = 0; i < 30; ++i) ENSURE_NEAR(TestDistance(Pos(w), anchor[i], i), limit[i], 1e-5);
		pbd_DestroyWorld(w);
	}
}

/* An inequality is projected only when violated (seed 000 section 1): a particle anywhere
   within (1 + s) d of its pin is left exactly where it is, for s = 0 (at 0.9 d) and s = 0.1,
   0.5 (between d and (1 + s) d). */
void Test_FamilyTetherInsideSlackUntouched(void)
{
	const float slacks[] = { 0.0f, 0.1f, 0.5f };
	for (int k = 0; k < 3; ++k) {
		double d[7];
		pbdWorldId w = TetherChain(slacks[k], 1.0f, d);
		PlaceFromPin(w, d, slacks[k] > 0.0f ? 1.0 + 0.9 * slacks[k] : 0.9);
		float before[7 * 4];
		memcpy(before, Pos(w), sizeof before);
		for (int i = 1; i < 7; ++i) ENSURE(TestDistance(before, 0, i) > (slacks[k] > 0.0f ? d[i] : 0.5 * d[i]));
		pbd_World_Step(w);
		ENSURE(memcmp(before, Pos(w), sizeof before) == 0);
		pbd_DestroyWorld(w);
	}
}

/* Soft tethers: one tether alone is linear along its line, so each pass leaves (1 - k') of
   the excess over (1 + s) d and a step leaves (1 - k')^ns = 1 - k of it, whatever ns is. */
void Test_FamilyTetherStiffnessPerPass(void)
{
	const float ks[] = { 0.5f, 0.8f };
	const int passes[] = { 1, 4, 10 };
	for (int a = 0; a < 2; ++a) {
		for (int b = 0; b < 3; ++b) {
			double d[7];
			pbdWorldId w = TetherChain(0.2f, ks[a], d);
			pbd_World_SetParam(w, pbdParam_iterations, (float)passes[b]);
			PlaceFromPin(w, d, 2.0 * 1.2); /* excess (2.4 - 1.2) d = 1.2 d */
			pbd_World_Step(w);
			for (int i = 1; i < 7; ++i) ENSURE_NEAR(TestDistance(Pos(w), 0, i) - 1.2 * d[i], (1.0 - ks[a]) * 1.2 * d[i], 1e-5);
			pbd_DestroyWorld(w);
		}
	}
}

/* ---------------------------------------------------------------- wind */

/* A flat plate at rest: a 2 x 2 cloth (two triangles of area A = 1/4 m^2
   each) of 0.1 kg particles, pitched at alpha to a wind of W = 8 m/s along +x: its edge U runs
   along (cos alpha, pitch sin alpha, 0), V along z. With v_rel = -W x and the plate normal
   n = (-pitch sin alpha, cos alpha, 0), the thin-plate model (wind.c, Keckeisen et al. 2004)
   gives per triangle, q = 1/2 rho A:
     drag F_d = -q C_d |v_rel| (v_rel . n) n = q C_d W^2 sin(alpha) (sin alpha, -pitch cos alpha, 0):
       downstream, and away from the face the air hits;
     lift F_l = (0, -pitch q C_l W^2 sin(alpha) cos(alpha), 0): across the flow, down for a plate
       that rises downstream (pitch +1: it turns the air up) and up for one that falls (pitch -1).
   A vertex gets a third of each triangle it is in: dv = h w n_tri F / 3 after one substep. */
static void WindPlate(double alphaDeg, float pitch, float cd, float cl)
{
	const double alpha = alphaDeg * PI / 180.0, W = 8.0, rho = 1.2, m = 0.1, area = 0.25;
	pbdWorldId w = FamWorld(8);
	float u[3] = { (float)cos(alpha), (float)(pitch * sin(alpha)), 0.0f }, v[3] = { 0.0f, 0.0f, 0.5f }, o[3];
	for (int c = 0; c < 3; ++c) o[c] = -0.5f * u[c] - 0.5f * v[c]; /* centred on 0: small coordinates, small rounding */
	AddGrid(w, o, u, v, 2, 2, (float)m);
	pbd_World_SetParam(w, pbdParam_airDensity, (float)rho);
	pbd_World_SetParam(w, pbdParam_windX, (float)W);
	pbd_World_SetParam(w, pbdParam_drag, cd);
	pbd_World_SetParam(w, pbdParam_lift, cl);
	const double q = 0.5 * rho * area, sa = sin(alpha), ca = cos(alpha);
	const double f[3] = { q * cd * W * W * sa * sa, -pitch * (q * cd * W * W * sa * ca + q * cl * W * W * sa * ca), 0.0 };
	int inTriangles[4] = { 0 };
	int32_t triangles = 0;
	const uint32_t* t = (const uint32_t*)pbd_World_GetBuffer(w, pbdBuffer_triangles, &triangles);
	for (int i = 0; i < 3 * triangles; ++i) inTriangles[t[i]] += 1;
	ENSURE(triangles == 2);
	pbd_World_Step(w);
	const double h = pbd_World_GetParam(w, pbdParam_dt);
	for (int i = 0; i < 4; ++i) {
		for (int c = 0; c < 3; ++c) {
			double expect = h / m * inTriangles[i] * f[c] / 3.0;
			ENSURE_NEAR(Vel(w)[4 * i + c], expect, 2e-6 + 2e-5 * fabs(expect));
		}
	}
	pbd_DestroyWorld(w);
}

void Test_FamilyWindDragAtAngle(void)
{
	for (int pitch = -1; pitch <= 1; pitch += 2) {
		WindPlate(30.0, (float)pitch, 1.0f, 0.0f);
		WindPlate(60.0, (float)pitch, 0.8f, 0.0f);
	}
}

void Test_FamilyWindLiftAtAngle(void)
{
	for (int pitch = -1; pitch <= 1; pitch += 2) {
		WindPlate(30.0, (float)pitch, 0.0f, 0.6f);
		WindPlate(60.0, (float)pitch, 0.0f, 1.5f);
		WindPlate(20.0, (float)pitch, 0.7f, 0.4f); /* both together add */
	}
}

/* Still air only takes energy away. wind.c caps a triangle's push so that a substep cannot
   reverse the cloth's motion relative to the air; a vertex shares up to 6 triangles of the
   grid, so the cap must hold for their sum. A light horizontal cloth (10 x 10 particles over
   1 m^2) moving at (0.3, 2, 0) m/s through still air:
   - with every distance constraint off, one step leaves every vertex rising at 0 to 2 m/s
     (before the cap counted the 6 triangles, the middle ones came back at -3 m/s);
   - with the scene defaults (stiffness on, 10 substeps x 1 pass), the kinetic energy never
     exceeds its start over 2 s (before, a 1 g cloth jittered at the 100 m/s speed bound). */
static pbdWorldId LightCloth(float mass)
{
	pbdWorldId w = FamWorld(128);
	const float o[3] = { -0.5f, 0.0f, -0.5f }, u[3] = { 1.0f, 0.0f, 0.0f }, v[3] = { 0.0f, 0.0f, 1.0f };
	AddGrid(w, o, u, v, 10, 10, mass);
	pbd_World_SetParam(w, pbdParam_airDensity, 1.2f);
	pbd_World_SetParam(w, pbdParam_drag, 1.0f);
	pbd_World_SetParam(w, pbdParam_lift, 0.3f);
	for (int i = 0; i < 100; ++i) pbd_World_SetVelocity(w, i, 0.3f, 2.0f, 0.0f);
	return w;
}

void Test_FamilyWindNeverReverses(void)
{
	const float masses[] = { 1e-3f, 1e-4f, 1e-5f };
	for (int m = 0; m < 3; ++m) {
		pbdWorldId w = LightCloth(masses[m]);
		pbd_World_Step(w);
		for (int i = 0; i < 100; ++i) ENSURE(Vel(w)[4 * i + 1] >= -1e-5f && Vel(w)[4 * i + 1] <= 2.0f);
		pbd_DestroyWorld(w);
	}
	pbdWorldId w = LightCloth(1e-5f);
	pbd_World_SetParam(w, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessStretch, 1.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessShear, 1.0f);
	pbd_World_SetParam(w, pbdParam_stiffnessBend, 0.1f);
	pbdStats st;
	pbd_World_GetStats(w, &st);
	const double start = st.kineticEnergy;
	for (int s = 0; s < 120; ++s) {
		pbd_World_Step(w);
		pbd_World_GetStats(w, &st);
		ENSURE(st.kineticEnergy <= start);
	}
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- tearing */

/* A 2 x 2 cloth with rest lengths 0.25 m along U and 0.4 m along V (so (1 + s) rest,
   rest + s and s are three different lengths). stretchV = 0: particle 1 is pulled along U
   to factor (1 + s) 0.25, stretching edge 0-1 alone that far; stretchV = 1: the top row
   (particles 2, 3) is pulled along V to factor (1 + s) 0.4, stretching edges 0-2 and 1-3.
   Every other constraint stays below its threshold. Returns the torn count; *triangles
   receives what is left of the mesh. */
static int TearAt(float s, int stretchV, double factor, int* triangles)
{
	pbdWorldId w = FamWorld(8);
	const float o[3] = { 0.1f, 1.0f, 0.2f }, u[3] = { 0.25f, 0.0f, 0.0f }, v[3] = { 0.0f, 0.4f, 0.0f };
	AddGrid(w, o, u, v, 2, 2, 0.01f);
	pbd_World_SetParam(w, pbdParam_tearStretch, s);
	float len = (float)((1.0 + s) * factor * (stretchV ? 0.4 : 0.25));
	if (stretchV) {
		pbd_World_SetPosition(w, 2, o[0], o[1] + len, o[2]);
		pbd_World_SetPosition(w, 3, o[0] + 0.25f, o[1] + len, o[2]);
	} else {
		pbd_World_SetPosition(w, 1, o[0] + len, o[1], o[2]);
	}
	pbd_World_Step(w);
	pbdObjectInfo info;
	pbd_World_GetObjectInfo(w, 0, &info);
	*triangles = pbd_World_GetCount(w, pbdBuffer_triangles);
	pbd_DestroyWorld(w);
	return info.tornConstraints;
}

/* tearing.c: a constraint longer than (1 + tearStretch) rest breaks. 1% below survives, 1%
   above breaks, for tearStretch 0.5 and 2, along both rest lengths. */
void Test_FamilyTearThresholdRelative(void)
{
	const float ss[] = { 0.5f, 2.0f };
	for (int k = 0; k < 2; ++k) {
		for (int v = 0; v <= 1; ++v) {
			int triangles = -1;
			ENSURE(TearAt(ss[k], v, 0.99, &triangles) == 0);
			ENSURE(triangles == 2);
			ENSURE(TearAt(ss[k], v, 1.01, &triangles) == (v ? 2 : 1));
			ENSURE(triangles == (v ? 0 : 1)); /* edge 0-1 is in one triangle; 0-2 and 1-3 in one each */
		}
	}
}

/* ---------------------------------------------------------------- ground */

/* C = p.y - (height + r) >= 0 (step.c, SolveGround): a pin below the ground stays there bit
   for bit; a free particle beside it is lifted to exactly height + thickness / 2 and, moving
   on, never ends a step below it. */
void Test_FamilyGroundPinAndRadius(void)
{
	pbdWorldId w = FamWorld(8);
	pbd_World_SetParam(w, pbdParam_gravityY, -9.81f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 1.0f);
	pbd_World_SetParam(w, pbdParam_groundHeight, 0.3f);
	const float ground = 0.3f + 0.5f * 0.02f;
	float pin[3] = { 0.0f, 0.1f, 0.0f }, pinPartner[3] = { 0.0f, 0.1f, 50.0f };
	float free[3] = { 0.2f, 0.15f, 0.1f }, freePartner[3] = { 0.2f, 50.0f, 0.1f };
	int p = AddPair(w, pin, pinPartner, 1, 1.0f), f = AddPair(w, free, freePartner, 0, 1.0f);
	float before[4];
	memcpy(before, Pos(w) + 4 * p, sizeof before);
	pbd_World_Step(w);
	const float* x = Pos(w) + 4 * f;
	ENSURE_NEAR(x[1], ground, 1e-7);
	ENSURE(x[0] == free[0] && x[2] == free[2]); /* lifted straight up: no travel, no friction */
	for (int s = 0; s < 90; ++s) {
		ENSURE(PinUnmoved(w, p, before));
		ENSURE(x[1] >= ground);
		pbd_World_Step(w);
	}
	pbd_DestroyWorld(w);
}

/* ---------------------------------------------------------------- attachments */

/* An attachment is C = |p - t| with the target as a w = 0 end, so each pass moves the
   particle the fraction k' = 1 - (1 - k)^(1/ns) of the way, along all three axes and whatever
   its mass: p - t = (1 - k')^ns (p0 - t) after one step. */
void Test_FamilyAttachmentPerPass3D(void)
{
	const float ks[] = { 0.25f, 0.8f };
	const int passes[] = { 1, 3, 10 };
	for (int a = 0; a < 2; ++a) {
		for (int b = 0; b < 3; ++b) {
			pbdWorldId w = FamWorld(4);
			pbd_World_SetParam(w, pbdParam_iterations, (float)passes[b]);
			float p0[3] = { 0.1f, -0.2f, 0.3f }, partner[3] = { 0.1f, -0.2f, 50.0f }, t[3] = { 0.7f, 0.4f, -0.5f };
			int i = AddPair(w, p0, partner, 0, 3.0f); /* w = 1/3 */
			ENSURE(pbd_World_AddAttachment(w, i, t[0], t[1], t[2], ks[a]) > 0);
			pbd_World_Step(w);
			double kp = pbd_PassStiffness(ks[a], passes[b]), left = pow(1.0 - kp, passes[b]);
			for (int c = 0; c < 3; ++c) ENSURE_NEAR(Pos(w)[4 * i + c], t[c] + left * (p0[c] - t[c]), 2e-6);
			ENSURE_NEAR(left, 1.0 - ks[a], 2e-6);
			pbd_DestroyWorld(w);
		}
	}
}
