/* test_contact_sheets.c -- a body set down on a cloth stays on it (families/contacts_sheets.c): the particle
   contacts see a cloth as spheres at its grid's corners, and a body particle small enough passes between four of
   them untouched (r + r_c < 0.71 s). The trampoline scene's cloth (2 m, 40 x 40, 0.6 g particles pinned at its
   corners, thickness 2 cm, 10 substeps x 1 pass) and a 0.24 m cube of 0.4 kg (soft: edges 0.5, volume 1; or
   rigid) set down 5 cm over it, at lattice resolutions 3-10: without the guard the soft cube at resolution 5
   (r = 2.4 cm, its lattice nearly the cloth's step) went through at each of three places, and rested everywhere
   else. With it: every cube ends on the cloth, above the cloth's particle under its centre, and at rest. */
#include "test.h"
#include "test_scenes.h"
#include "test_contact_sheets.h"

#include <math.h>
#include <stdio.h>

typedef struct Landing {
	float clearance; ///< the body's lowest particle over the cloth's particle nearest below it in xz (m)
	float centre;    ///< the body's centre over the cloth particle nearest its centre in xz (m)
	double energy;   ///< kinetic energy over the last step (J)
} Landing;

static Landing SetDown(int type, int resolution, float px, float pz, int apart)
{
	const int n = 40;
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = n * n + 1400;
	def.maxConstraints = 8 * n * n + 20000;
	def.maxTets = 8000, def.maxObjects = 2;
	def.maxSkinVertices = 8000, def.maxSkinTriangles = 16000;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_damping, 0.05f);
	pbd_World_SetParam(w, pbdParam_thickness, 0.02f);
	pbdClothDef c = pbd_DefaultClothDef();
	c.origin[0] = -1.0f, c.origin[1] = 0.9f, c.origin[2] = -1.0f;
	c.axisU[0] = 2.0f, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
	c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = 2.0f;
	c.resolutionU = c.resolutionV = n;
	c.mass = 0.0006f;
	SCENE_ENSURE(pbd_World_AddCloth(w, &c) == 0);
	const int corners[4] = { 0, n - 1, n * (n - 1), n * n - 1 };
	for (int k = 0; k < 4; ++k) pbd_World_SetInvMass(w, corners[k], 0.0f);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_bend, 0.02f);
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = type, b.shape = pbdBodyShape_box, b.resolution = resolution, b.mass = 0.4f;
	b.position[0] = px, b.position[1] = 0.9f + 0.12f + 0.05f, b.position[2] = pz;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.12f;
	SCENE_ENSURE(pbd_World_AddBody(w, &b) == n * n);
	if (type == PBD_OBJECT_SOFT) {
		pbd_World_SetObjectStiffness(w, 1, pbdKind_edge, 0.5f);
		pbd_World_SetObjectStiffness(w, 1, pbdKind_volume, 1.0f);
	}
	if (apart) pbd_World_SetObjectFilter(w, 1, 2u, ~1u); /* its filter does not meet the cloth's (category 1) */
	for (int s = 0; s < 300; ++s) pbd_World_Step(w);
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const int count = pbd_World_GetParticleCount(w);
	Landing l = { 1e30f, 0.0f, 0.0 };
	double cx = 0.0, cy = 0.0, cz = 0.0;
	for (int j = n * n; j < count; ++j) cx += x[4 * j], cy += x[4 * j + 1], cz += x[4 * j + 2];
	cx /= count - n * n, cy /= count - n * n, cz /= count - n * n;
	float best = 1e30f;
	int under = 0;
	for (int i = 0; i < n * n; ++i) {
		const float dx = x[4 * i] - (float)cx, dz = x[4 * i + 2] - (float)cz;
		if (dx * dx + dz * dz < best) best = dx * dx + dz * dz, under = i;
	}
	l.centre = (float)cy - x[4 * under + 1];
	for (int j = n * n; j < count; ++j) {
		float nearest = 1e30f;
		int below = 0;
		for (int i = 0; i < n * n; ++i) {
			const float dx = x[4 * i] - x[4 * j], dz = x[4 * i + 2] - x[4 * j + 2];
			if (dx * dx + dz * dz < nearest) nearest = dx * dx + dz * dz, below = i;
		}
		const float over = x[4 * j + 1] - x[4 * below + 1];
		l.clearance = over < l.clearance ? over : l.clearance;
	}
	pbdStats st;
	pbd_World_GetStats(w, &st);
	l.energy = st.kineticEnergy;
	SCENE_ENSURE(TestAllFinite(w));
	pbd_DestroyWorld(w);
	return l;
}

static void Cubes(const float (*places)[2], int placeCount, const int* resolutions, int resolutionCount)
{
	for (int type = PBD_OBJECT_SOFT; type <= PBD_OBJECT_RIGID; ++type) {
		for (int r = 0; r < resolutionCount; ++r) {
			const int res = resolutions[r];
			for (int k = 0; k < placeCount; ++k) {
				const Landing l = SetDown(type, res, places[k][0], places[k][1], 0);
				printf("  %s %2d at (%5.2f, %5.2f): lowest particle %+.3f m over the cloth, centre %+.3f, %.1e J after 5 s\n",
					   type == PBD_OBJECT_SOFT ? "soft " : "rigid", res, places[k][0], places[k][1], l.clearance, l.centre,
					   l.energy);
				ENSURE(l.centre > 0.05f);      /* on the cloth: its centre over the cloth's particle beneath */
				ENSURE(l.clearance > -0.02f);  /* no particle of it below the cloth (a thickness's slack for the sag) */
				ENSURE(l.energy < 1e-2);       /* at rest: 0.4 kg at 0.2 m/s is 8e-3 J */
				if (g_testFailed) return;
			}
		}
	}
}

/* Resolutions 5 (the one that went through) and 10 (the finest), soft and rigid, at one place; the long test: every
   resolution from 3 to 10 but 9, at two other places (28 cubes). */
void Test_BodiesStayOnClothAnyResolution(void)
{
	const float places[1][2] = { { 0.0f, -0.16f } };
	const int resolutions[2] = { 5, 10 };
	Cubes(places, 1, resolutions, 2);
	if (g_testFailed) return;
	/* the guard asks the collision filters as the pair contacts do: a cube whose filter does not meet the cloth's
	   falls through it (to the ground, 0.9 m below) */
	const Landing apart = SetDown(PBD_OBJECT_RIGID, 4, 0.0f, -0.16f, 1);
	printf("  rigid  4, its filter apart from the cloth's: centre %+.3f m over the cloth\n", apart.centre);
	ENSURE(apart.centre < -0.5f);
}

void Test_BodiesStayOnClothEverywhereLong(void)
{
	const float places[2][2] = { { 0.2f, 0.1f }, { -0.3f, 0.25f } };
	const int resolutions[7] = { 3, 4, 5, 6, 7, 8, 10 };
	Cubes(places, 2, resolutions, 7);
}
