/* Heavy on light (families/contacts.c): a contact splits its correction as if the heavier
   particle were at most PBD_CONTACT_MASS_RATIO = 10 times heavier. The split in closed form
   (exact within the ratio, clamped past it, pins kept), and a cluster of 10 kg particles
   dropped on a cloth of 10 g ones, which holds at 10 and 20 substeps within the bounds
   contacts.c states, and falls through with the exact split. */
#include "test_clusters.h"
#include "test_contacts.h"

/* Two free particles of two objects (chains of one segment, stiffness 0, the partners far
   away), 0.05 apart with radii 0.04 each (overlap 0.03), no gravity: after one step the
   lighter has moved its share of 0.03 away from the heavier. Mass ratio 5: the exact split,
   5/6 and 1/6. Ratio 1000: as if 10, 10/11 and 1/11. Against a pin (ratio "infinite"), the
   free one takes it all. */
static void Split(float heavy, float light, int pinHeavy, float expectLight, float expectHeavy)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 4;
	def.maxObjects = 2;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	pbdChainDef chain = pbd_DefaultChainDef();
	chain.segments = 1;
	chain.start[1] = 1.0f, chain.end[0] = -1.0f, chain.end[1] = 1.0f;
	chain.mass = heavy;
	pbd_World_AddChain(w, &chain);
	chain.start[0] = 0.05f, chain.end[0] = 1.05f;
	chain.mass = light;
	pbd_World_AddChain(w, &chain);
	for (int o = 0; o < 2; ++o) {
		pbd_World_SetObjectStiffness(w, o, pbdKind_chain, 0.0f);
		pbd_World_SetObjectRadius(w, o, 0.04f);
	}
	if (pinHeavy) pbd_World_SetInvMass(w, 0, 0.0f);
	pbd_World_Step(w);
	const float* x = Pos(w);
	ENSURE_NEAR(x[8] - 0.05f, 0.03 * expectLight, 1e-6);
	ENSURE_NEAR(-x[0], 0.03 * expectHeavy, 1e-6);
	pbd_DestroyWorld(w);
}

void Test_MassRatioContactSplitClosedForm(void)
{
	Split(0.05f, 0.01f, 0, 5.0 / 6.0, 1.0 / 6.0);
	if (g_testFailed) return;
	Split(0.1f, 0.01f, 0, 10.0 / 11.0, 1.0 / 11.0); /* at the ratio: exact */
	if (g_testFailed) return;
	Split(10.0f, 0.01f, 0, 10.0 / 11.0, 1.0 / 11.0); /* 1000: as if 10 */
	if (g_testFailed) return;
	Split(10.0f, 0.01f, 1, 1.0, 0.0);
}

/* The scene of contacts.c's table: a 3 x 3 x 3 cluster (spacing 5 cm, radius 3 cm) of
   particles `ratio` times the cloth's 10 g, dropped 0.3 m onto a 1 m, 41 x 41 cloth pinned at
   its corners (tethers on, particle radius 0.005), 1 pass per substep, 5 s. Returns 0 if the
   cluster fell through (some step found its centre below the cloth's centre particle), else 1
   with the final sag of the cloth's centre and the cloth's largest stretch. */
static int HeavyOnLight(float ratio, int substeps, float massRatio, float* sag, float* stretch, float* speed)
{
	const int res = 41, n = 3;
	const float hs = 0.05f, hr = 0.03f;
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = res * res + n * n * n;
	def.maxConstraints = 8 * res * res + 13 * n * n * n;
	def.maxObjects = 2;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_substeps, (float)substeps);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_ContactsState(pbd_GetWorld(w))->massRatio = massRatio;
	const float u[3] = { 1.0f, 0, 0 }, v[3] = { 0, 0, 1.0f };
	const int cloth = AddCloth(w, res, -0.5f, 1.0f, -0.5f, u, v); /* 0.01 kg per particle */
	const int corners[4] = { 0, res - 1, res * (res - 1), res * res - 1 };
	for (int k = 0; k < 4; ++k) pbd_World_SetInvMass(w, cloth + corners[k], 0.0f);
	const float L = hs * (float)(n - 1);
	const int first = TestAddCluster(w, n, -0.5f * L, 1.0f + 0.005f + hr + 0.3f, -0.5f * L, hs, 0.01f * ratio, hr);
	const int centre = cloth + (res / 2) * res + res / 2, middle = first + 13; /* (1, 1, 1) */
	int held = first >= 0;
	for (int s = 0; s < 300 && held; ++s) {
		pbd_World_Step(w);
		const float* x = Pos(w);
		held = x[4 * middle + 1] > x[4 * centre + 1];
	}
	pbdStats stats;
	pbd_World_GetStats(w, &stats);
	*sag = 1.0f - Pos(w)[4 * centre + 1];
	*stretch = stats.maxStretch;
	const float* vel = (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	*speed = sqrtf(vel[4 * middle] * vel[4 * middle] + vel[4 * middle + 1] * vel[4 * middle + 1] + vel[4 * middle + 2] * vel[4 * middle + 2]);
	held = held && TestAllFinite(w);
	pbd_DestroyWorld(w);
	return held;
}

void Test_MassRatioHeavyClusterOnLightCloth(void)
{
	float sag, stretch, speed;
	const float ratios[2] = { 100.0f, 1000.0f };
	for (int k = 0; k < 2; ++k) {
		ENSURE(HeavyOnLight(ratios[k], 10, PBD_CONTACT_MASS_RATIO, &sag, &stretch, &speed));
		printf("  ratio %g, 10 substeps: sag %.2f cm, stretch %.1f%%, speed %.3f m/s\n", (double)ratios[k], 100.0 * sag,
			   100.0 * stretch, (double)speed);
		ENSURE(sag < 0.04f && stretch < 0.10f && speed < 0.05f);
		ENSURE(HeavyOnLight(ratios[k], 20, PBD_CONTACT_MASS_RATIO, &sag, &stretch, &speed));
		printf("  ratio %g, 20 substeps: sag %.2f cm, stretch %.1f%%, speed %.3f m/s\n", (double)ratios[k], 100.0 * sag,
			   100.0 * stretch, (double)speed);
		ENSURE(sag < 0.025f && stretch < 0.05f && speed < 0.05f);
		/* the exact split lets it through, or (since the contacts keep solid particles on their side of a cloth's
		   triangles, contacts_sheets.c) holds it with the cloth stretched past the bound: 44% at 100, through at 1000 */
		const int held = HeavyOnLight(ratios[k], 10, INFINITY, &sag, &stretch, &speed);
		printf("  ratio %g, 10 substeps, exact split: %s, sag %.2f cm, stretch %.1f%%, speed %.3f m/s\n", (double)ratios[k],
			   held ? "held" : "through", 100.0 * sag, 100.0 * stretch, (double)speed);
		ENSURE(!held || stretch > 0.2f);
	}
}
