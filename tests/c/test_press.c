/* Bodies under a press (issue 22 item 5). A plate (a kinematic box collider, default friction) is lowered
   over 1 s onto a soft cube resting on the ground (0.3 m lattice of 6^3 cells, 1 kg, the scene defaults:
   10 substeps x 1 pass), to half or a fifth of its lattice height, held there 1 s, then lifted at 1 m/s.
   An incompressible jelly keeps its volume whatever its shape, so under the plate it must get wider; the
   press runs for the default material (edges 1) and each built-in one (the jelly scene's edges 0.3 to
   0.6, the clay's edges 1 with its plasticity). The cells' volume model (volume.c) is what holds it:
   solved tet by tet (volumeSweeps 0, scenes of version 2) the same cube keeps 0.76 of its volume. */
#include "test_press.h"
#include "test.h"
#include "families/volume_state.h"
#include "world/core.h"
#include "services/boundary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Material {
	const char* name;
	float edge;
	int plastic; /* the clay's plasticity: yield 0.03, creep 10 /s, max 1 (builtin-scenes.js) */
} Material;

static const Material s_materials[] = {
	{ "default (edges 1)", 1.0f, 0 },  { "yellow jelly (edges 0.3)", 0.3f, 0 }, { "green ball (edges 0.4)", 0.4f, 0 },
	{ "red jelly (edges 0.5)", 0.5f, 0 }, { "blue ball (edges 0.6)", 0.6f, 0 },  { "clay (edges 1, plastic)", 1.0f, 1 },
};
#define MATERIALS ((int)(sizeof s_materials / sizeof s_materials[0]))

typedef struct Pressed {
	double volume, after;      /* share of the rest volume under the plate, and 1 s after the lift began */
	int inverted, invertedAfter;
	float restWidth, width;    /* along x, particle centres */
	float restHeight, afterHeight; /* along y, 2 s after the lift began */
	float escaped;             /* highest particle above the plate's lower face minus the radius while pressed (<= 0) */
} Pressed;

static void Extent(pbdWorldId w, int axis, float* lo, float* hi)
{
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	*lo = 1e9f, *hi = -1e9f;
	for (int i = 0; i < pbd_World_GetParticleCount(w); ++i) {
		*lo = fminf(*lo, x[4 * i + axis]);
		*hi = fmaxf(*hi, x[4 * i + axis]);
	}
}

static float Size(pbdWorldId w, int axis)
{
	float lo, hi;
	Extent(w, axis, &lo, &hi);
	return hi - lo;
}

static Pressed Press(const Material* m, float share, int sweeps)
{
	Pressed out;
	memset(&out, 0, sizeof out);
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 1000, def.maxTets = 4000, def.maxColliders = 2, def.maxObjects = 2;
	def.maxSkinVertices = 4000, def.maxSkinTriangles = 8000;
	pbdWorldId w = pbd_CreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_volumeSweeps, (float)sweeps);
	const float half = 0.15f, r = 0.025f; /* r: half the lattice spacing, the body's contact radius */
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_SOFT, b.shape = pbdBodyShape_box, b.resolution = 6, b.mass = 1.0f;
	b.position[1] = half + r + 0.001f;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = half;
	if (pbd_World_AddBody(w, &b) != 0) return out;
	pbd_World_SetObjectStiffness(w, 0, pbdKind_edge, m->edge);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_volume, 1.0f);
	if (m->plastic) pbd_World_SetObjectPlasticity(w, 0, 0.03f, 10.0f, 1.0f);
	/* a plate wide enough for the cube spread to a fifth of its height (0.67 m across) */
	pbdColliderDef c = pbd_DefaultColliderDef();
	c.type = pbdShape_box;
	c.halfExtents[0] = c.halfExtents[2] = 1.5f, c.halfExtents[1] = 0.05f;
	const float top = 2.0f * half + 2.0f * r + 0.01f, bottom = 2.0f * r + share * 2.0f * half; /* its lower face */
	c.position[1] = top + 0.05f;
	if (pbd_World_AddCollider(w, &c) != 0) return out;
	const int n = 60;
	for (int s = 0; s < n; ++s) pbd_World_Step(w);
	out.restWidth = Size(w, 0), out.restHeight = Size(w, 1);
	for (int s = 1; s <= n; ++s) {
		pbd_World_SetColliderTransform(w, 0, 0.0f, top + (bottom - top) * ((float)s / n) + 0.05f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
		pbd_World_Step(w);
	}
	out.escaped = -1e9f;
	for (int s = 0; s < n; ++s) {
		pbd_World_Step(w);
		float lo, hi;
		Extent(w, 1, &lo, &hi);
		out.escaped = fmaxf(out.escaped, hi - (bottom - r));
	}
	double v[3];
	pbd_World_GetObjectVolume(w, 0, v);
	out.volume = v[0] / v[1], out.inverted = (int)v[2];
	out.width = Size(w, 0);
	for (int s = 1; s <= n; ++s) { /* lifted at 1 m/s */
		pbd_World_SetColliderTransform(w, 0, 0.0f, bottom + 0.05f + (float)s / n, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
		pbd_World_Step(w);
	}
	pbd_World_GetObjectVolume(w, 0, v);
	out.after = v[0] / v[1], out.invertedAfter = (int)v[2];
	for (int s = 0; s < n; ++s) pbd_World_Step(w); /* it overshoots and wobbles: its height a second later */
	out.afterHeight = Size(w, 1);
	if (!TestAllFinite(w)) out.volume = out.after = NAN;
	pbd_DestroyWorld(w);
	return out;
}

static void Print(const Material* m, float share, const Pressed* p)
{
	printf("  %-26s to %.0f%%: %.4f of its volume, %d tets inverted, %.3f m wide (%.3f at rest); 1 s after the lift "
		   "%.4f, %d inverted; 2 s after, %.3f m tall (%.3f at rest)\n",
		   m->name, 100.0 * share, p->volume, p->inverted, (double)p->width, (double)p->restWidth, p->after, p->invertedAfter,
		   (double)p->afterHeight, (double)p->restHeight);
}

/* A material pressed to `share` of its height: it bulges (at least 1.2 x as wide), keeps its volume within 2% with
   no tet inverted, and 1 s after the plate leaves is within 1% of its rest volume with none inverted; 2 s after,
   the elastic ones stand within 5% of their rest height again, the clay stays squashed (plasticity keeps what the
   press did). No particle gets past the plate. The default material (edges 1, s_materials[0]), which no built-in
   scene uses, is held to all of it but the tets inverted under the plate: pressed near half its height it ends
   some holds with a few, at depths that move with the last bit of the cell's arithmetic (docs/physics.md); they
   are printed. */
static void EnsureBulges(const Material* m, float share)
{
	const Pressed p = Press(m, share, 8);
	Print(m, share, &p);
	ENSURE(fabs(p.volume - 1.0) <= 0.02 && (p.inverted == 0 || m == &s_materials[0]));
	ENSURE(p.width >= 1.2f * p.restWidth);
	ENSURE(p.escaped <= 1e-4f);
	ENSURE(fabs(p.after - 1.0) <= 0.01 && p.invertedAfter == 0);
	if (m->plastic) ENSURE(p.afterHeight < 0.7f * p.restHeight);
	else ENSURE(fabsf(p.afterHeight / p.restHeight - 1.0f) <= 0.05f);
}

/* Pressed to half its height: every material (issue 22 item 5: every built-in one) as above. */
void Test_PressHalfHeightKeepsVolume(void)
{
	for (int k = 0; k < MATERIALS; ++k) EnsureBulges(&s_materials[k], 0.5f);
	/* tet by tet, as scenes of version 2 build it, the red jelly folds instead (issue 22: 0.76) */
	const Pressed old = Press(&s_materials[3], 0.5f, 0);
	Print(&s_materials[3], 0.5f, &old);
	ENSURE(old.volume < 0.8);
}

/* The same at depths around half (0.45 to 0.55 of its height), so no one depth's luck passes it: the count of
   inverted tets is chaotic in the details (docs/physics.md). Native only (TEST_LIST_LONG: 24 presses). */
void Test_PressAroundHalfKeepsVolume(void)
{
	static const float shares[4] = { 0.45f, 0.48f, 0.52f, 0.55f };
	for (int d = 0; d < 4; ++d) {
		for (int k = 0; k < MATERIALS; ++k) EnsureBulges(&s_materials[k], shares[d]);
	}
}

/* Pressed to a fifth of its height (where it must spread to 2.2 x its width to keep its volume; under the
   plate it may lose some and turn tets inside out), every elastic material is, 1 s after the plate
   leaves, within 1% of its rest volume with no tet inverted, and 2 s after within 5% of its rest height
   (it overshoots to 1.2 x and wobbles in between). No particle gets past the plate. The clay keeps its
   squeeze, and some tets inverted in it (26 of 1,296): printed, not held to this. */
void Test_PressFifthHeightRecovers(void)
{
	for (int k = 0; k < MATERIALS; ++k) {
		const Material* m = &s_materials[k];
		const Pressed p = Press(m, 0.2f, 8);
		Print(m, 0.2f, &p);
		ENSURE(p.escaped <= 1e-4f);
		ENSURE(fabs(p.after - 1.0) <= 0.01 || m->plastic);
		if (m->plastic) continue;
		ENSURE(p.invertedAfter == 0);
		ENSURE(fabsf(p.afterHeight / p.restHeight - 1.0f) <= 0.05f);
	}
}

/* ---------------------------------------------------------------- the cells' pieces */

/* One cell, one sweep, no walls: a box body of one lattice cell (8 particles, 6 tets), its corners moved off the
   cube, stepped once with nothing else acting (no gravity, ground, tethers, contacts; edges at stiffness 0). Each
   corner must end where seed 000's projection of the cell's constraint C = V - V0 (V the sum of its 6 Kuhn tets)
   puts it, computed here in double from the moved corners: dp_i = -k C w_i grad_i / sum_j w_j |grad_j|^2, with k the
   over-relaxation 1.5 (one sweep at volume stiffness 1). Tet by tet (volumeSweeps 0) the same moves differ. */
void Test_PressCellClosedForm(void)
{
	static const double moved[8][3] = { { 0.01, -0.02, 0.0 }, { 0.0, 0.03, -0.01 }, { -0.02, 0.0, 0.02 }, { 0.01, 0.01, 0.01 },
										 { 0.0, -0.01, 0.03 }, { 0.02, 0.0, 0.0 }, { -0.01, 0.02, -0.02 }, { 0.03, -0.03, 0.01 } };
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 16, def.maxTets = 12, def.maxObjects = 1, def.maxSkinVertices = 64, def.maxSkinTriangles = 64;
	pbdWorldId w = pbd_CreateWorld(&def);
	const float knobs[][2] = { { pbdParam_gravityY, 0.0f }, { pbdParam_groundEnabled, 0.0f }, { pbdParam_tethers, 0.0f },
							   { pbdParam_collisions, 0.0f }, { pbdParam_substeps, 1.0f }, { pbdParam_iterations, 1.0f },
							   { pbdParam_volumeSweeps, 1.0f } };
	for (size_t k = 0; k < sizeof knobs / sizeof knobs[0]; ++k) ENSURE(pbd_World_SetParam(w, (pbdParam)knobs[k][0], knobs[k][1]) == PBD_OK);
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_SOFT, b.shape = pbdBodyShape_box, b.resolution = 1, b.mass = 0.8f;
	b.position[1] = 1.0f;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.1f;
	ENSURE(pbd_World_AddBody(w, &b) == 0 && pbd_World_GetParticleCount(w) == 8);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_edge, 0.0f);
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	/* the rest volume and the moved corners, in double; corner v of the cell is the particle at (v & 1, v >> 1 & 1,
	   v >> 2) of the lattice, which ranks its corners x fastest: particle v */
	double q[8][3], rest = 0.0, now = 0.0, G[8][3] = { { 0 } };
	for (int v = 0; v < 8; ++v) {
		for (int a = 0; a < 3; ++a) q[v][a] = x[4 * v + a];
		ENSURE(fabs(q[v][0] - (v & 1 ? 0.1 : -0.1)) < 1e-6 && fabs(q[v][2] - (v >> 2 ? 0.1 : -0.1)) < 1e-6);
	}
	for (int pass = 0; pass < 2; ++pass) {
		for (int t = 0; t < 6; ++t) {
			const int32_t* k = pbd_VolumeKuhn[t];
			double e[3][3], g[3][3];
			for (int j = 0; j < 3; ++j)
				for (int a = 0; a < 3; ++a) e[j][a] = q[k[j + 1]][a] - q[k[0]][a];
			for (int j = 0; j < 3; ++j) { /* g_j = e_{j+1} x e_{j+2} */
				const double* u = e[(j + 1) % 3];
				const double* s = e[(j + 2) % 3];
				g[j][0] = u[1] * s[2] - u[2] * s[1], g[j][1] = u[2] * s[0] - u[0] * s[2], g[j][2] = u[0] * s[1] - u[1] * s[0];
			}
			const double v6 = e[0][0] * g[0][0] + e[0][1] * g[0][1] + e[0][2] * g[0][2];
			if (pass == 0) {
				rest += v6;
				continue;
			}
			now += v6;
			for (int j = 0; j < 3; ++j)
				for (int a = 0; a < 3; ++a) G[k[j + 1]][a] += g[j][a], G[k[0]][a] -= g[j][a];
		}
		if (pass == 0) {
			for (int v = 0; v < 8; ++v) {
				for (int a = 0; a < 3; ++a) q[v][a] += moved[v][a];
				pbd_World_SetPosition(w, v, (float)q[v][0], (float)q[v][1], (float)q[v][2]);
				for (int a = 0; a < 3; ++a) q[v][a] = x[4 * v + a]; /* as float32 holds them */
			}
		}
	}
	ENSURE_NEAR(rest, 6.0 * 0.2 * 0.2 * 0.2, 1e-6);
	ENSURE(fabs(now - rest) > 1e-3 * rest); /* the move changed the volume */
	double den = 0.0;
	const double wi = 8.0 / 0.8; /* every corner 0.1 kg */
	for (int v = 0; v < 8; ++v) den += wi * (G[v][0] * G[v][0] + G[v][1] * G[v][1] + G[v][2] * G[v][2]);
	const double s = 1.5 * (now - rest) / den;
	pbd_World_Step(w);
	x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	double worst = 0.0;
	for (int v = 0; v < 8; ++v)
		for (int a = 0; a < 3; ++a) worst = fmax(worst, fabs(x[4 * v + a] - (q[v][a] - s * wi * G[v][a])));
	printf("  one cell, one sweep: corners within %.2e m of seed 000's projection (moved by up to %.3f m)\n", worst,
		   fabs(s) * wi * 0.05);
	ENSURE(worst < 2e-6);
	pbd_DestroyWorld(w);
}

/* The walls of the cells: the two nearest walls within reach, nearest first, each with its outward normal; none
   past reach. The ground at 0 and a box plate whose lower face is at 0.3. */
void Test_PressWallsNearestTwo(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 8, def.maxColliders = 2;
	pbdWorldId id = pbd_CreateWorld(&def);
	pbdColliderDef c = pbd_DefaultColliderDef();
	c.type = pbdShape_box;
	c.halfExtents[0] = c.halfExtents[2] = 1.0f, c.halfExtents[1] = 0.05f;
	c.position[1] = 0.35f;
	ENSURE(pbd_World_AddCollider(id, &c) == 0);
	const pbdWalls walls = pbd_Boundary_Walls(pbd_GetWorld(id), 1.0f);
	float phi[2], n[6];
	const float low[3] = { 0.2f, 0.1f, -0.3f }, high[3] = { 0.2f, 0.25f, -0.3f }, far[3] = { 0.2f, 0.1f, 5.0f };
	pbd_Walls_NearestTwo(&walls, low, 1.0f, phi, n); /* the ground first */
	ENSURE_NEAR(phi[0], 0.1, 1e-6);
	ENSURE_NEAR(phi[1], 0.2, 1e-6);
	ENSURE(n[0] == 0.0f && n[1] == 1.0f && n[2] == 0.0f && fabsf(n[4] + 1.0f) < 1e-6f);
	pbd_Walls_NearestTwo(&walls, high, 1.0f, phi, n); /* the plate first */
	ENSURE_NEAR(phi[0], 0.05, 1e-6);
	ENSURE_NEAR(phi[1], 0.25, 1e-6);
	ENSURE(fabsf(n[1] + 1.0f) < 1e-6f && n[4] == 1.0f); /* the plate's normal turned by its (unit) rotation */
	pbd_Walls_NearestTwo(&walls, low, 0.15f, phi, n); /* the plate past reach */
	ENSURE_NEAR(phi[0], 0.1, 1e-6);
	ENSURE(phi[1] == 0.15f && n[3] == 0.0f && n[4] == 0.0f && n[5] == 0.0f);
	pbd_Walls_NearestTwo(&walls, far, 1.0f, phi, n); /* beside the plate: its corner is 4 m away */
	ENSURE_NEAR(phi[0], 0.1, 1e-6);
	ENSURE(phi[1] == 1.0f);
	pbd_DestroyWorld(id);
}

/* A small lattice stops sweeping once it settles (volume.c): a cube resting on the ground ends each step settled,
   every cell then within 2 x PBD_VOLUME_SETTLED of its rest volume (the walls and the guard come after the sweep
   that settled it); the same cube under a plate coming down at 0.3 m/s does not settle, and sweeps on. */
void Test_PressSweepsStopWhenSettled(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 1000, def.maxTets = 4000, def.maxColliders = 1, def.maxObjects = 1;
	def.maxSkinVertices = 4000, def.maxSkinTriangles = 8000;
	pbdWorldId w = pbd_CreateWorld(&def);
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_SOFT, b.shape = pbdBodyShape_box, b.resolution = 6, b.mass = 1.0f;
	b.position[1] = 0.15f + 0.025f + 0.001f;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.15f;
	ENSURE(pbd_World_AddBody(w, &b) == 0);
	pbd_World_SetObjectStiffness(w, 0, pbdKind_edge, 0.5f);
	pbdColliderDef c = pbd_DefaultColliderDef();
	c.type = pbdShape_box;
	c.halfExtents[0] = c.halfExtents[2] = 1.5f, c.halfExtents[1] = 0.05f;
	const float top = 0.36f + 0.05f;
	c.position[1] = top;
	ENSURE(pbd_World_AddCollider(w, &c) == 0);
	const pbdWorld* world = pbd_GetWorld(w);
	const pbdVolume* v = pbd_VolumeState(world);
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	ENSURE(v->smallCount == 1 && v->smallSettled[0] == 1);
	double worst = 0.0;
	for (int32_t k = 0; k < v->cellCount; ++k) {
		const double C = fabs((double)pbd_Volume_CellSix(world->x, v->cells + 8 * k, NULL) / v->cellRest6[k] - 1.0);
		worst = C > worst ? C : worst;
	}
	printf("  at rest: settled, every cell within %.2g of its rest volume\n", worst);
	ENSURE(worst <= 2.0 * PBD_VOLUME_SETTLED);
	int pressing = 0;
	for (int s = 1; s <= 30; ++s) { /* 0.3 m/s: 15 cm in 30 steps */
		pbd_World_SetColliderTransform(w, 0, 0.0f, top - 0.005f * (float)s, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f);
		pbd_World_Step(w);
		if (s > 10) pressing += v->smallSettled[0] == 0;
	}
	printf("  pressed: unsettled after the last sweep in %d of the last 20 steps\n", pressing);
	ENSURE(pressing >= 15);
	pbd_DestroyWorld(w);
}

/* The largest change of any distance between two of the first n particles since x0. */
static double WorstPairChange(pbdWorldId w, const float* x0, int n)
{
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	double worst = 0.0;
	for (int i = 0; i < n; ++i)
		for (int j = i + 1; j < n; ++j) {
			double a = 0.0, b = 0.0;
			for (int k = 0; k < 3; ++k) {
				const double d = (double)x[4 * i + k] - x[4 * j + k], d0 = (double)x0[4 * i + k] - x0[4 * j + k];
				a += d * d, b += d0 * d0;
			}
			worst = fmax(worst, fabs(sqrt(a) - sqrt(b)));
		}
	return worst;
}

/* A rigid body pressed between two plates keeps its shape (issue 22 item 5): a rigid box (0.3 m, resolution 6,
   1 kg: 7^3 particles, r 2.5 cm) on a plate (a static box collider, the ground off), under a rigid slab (0.8 x 0.1
   x 0.8 m, resolution 8, r 5 cm) of `ratio` x its mass laid on it, 3 s at the scene defaults. No distance between
   two of the box's particles changes by 1 mm or more, at any step; the slab rests on the box (its lower layer
   within 1 mm of D above the box's upper one) and stays over it. The plate presses by weight: a kinematic plate
   driven into a rigid body can only deform it or pass into it (nothing resists an immovable plate), so the
   squeeze that tells is a heavy body's. Measured without the supports (contacts.c): at any step 2.1 mm under a
   slab of its own mass and 12.1 mm under 10 to 200 x (the cap of the mass ratio), the slab 5.4 mm into the box;
   with them 0.71 mm and 0.65 mm whatever the slab's mass (the split is the support's), the box alone 0.25 mm. */
static void PressRigid(float ratio)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 600, def.maxObjects = 2, def.maxColliders = 1;
	pbdWorldId w = pbd_CreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbdColliderDef plate = pbd_DefaultColliderDef();
	plate.type = pbdShape_box;
	plate.halfExtents[0] = plate.halfExtents[2] = 1.0f, plate.halfExtents[1] = 0.05f;
	plate.position[1] = -0.05f; /* its upper face at y = 0 */
	ENSURE(pbd_World_AddCollider(w, &plate) == 0);
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_RIGID, b.resolution = 6, b.mass = 1.0f;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 0.15f;
	b.position[1] = 0.15f + 0.025f;
	ENSURE(pbd_World_AddBody(w, &b) == 0);
	const int n = pbd_World_GetParticleCount(w);
	b.halfExtents[0] = b.halfExtents[2] = 0.4f, b.halfExtents[1] = 0.05f;
	b.resolution = 8, b.mass = ratio;
	b.position[1] = 0.325f + 0.075f + 0.05f + 0.001f; /* the box's upper layer, D = 2.5 + 5 cm, the slab's half */
	ENSURE(pbd_World_AddBody(w, &b) == n);
	const int count = pbd_World_GetParticleCount(w);
	ENSURE(n == 343 && count == n + 162); /* 7^3, 9 x 2 x 9 */
	float* x0 = malloc(16 * (size_t)n);
	ENSURE(x0 != NULL);
	if (x0 == NULL) return;
	memcpy(x0, pbd_World_GetBuffer(w, pbdBuffer_positions, NULL), 16 * (size_t)n);
	double worst = 0.0;
	for (int s = 0; s < 180; ++s) {
		pbd_World_Step(w);
		worst = fmax(worst, WorstPairChange(w, x0, n));
	}
	ENSURE(TestAllFinite(w));
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	float boxTop = -1e9f, slabLow = 1e9f, slabX = 0.0f;
	for (int i = 0; i < count; ++i) {
		if (i < n) boxTop = fmaxf(boxTop, x[4 * i + 1]);
		else slabLow = fminf(slabLow, x[4 * i + 1]), slabX += x[4 * i] / (float)(count - n);
	}
	printf("  slab %3.0f x the box: largest change of a distance in the box %.3f mm; slab %.2f mm off D above it, %.2f mm "
		   "aside\n",
		   (double)ratio, 1e3 * worst, 1e3 * ((slabLow - boxTop) - 0.075), 1e3 * slabX);
	ENSURE(worst < 1e-3);
	ENSURE(fabsf((slabLow - boxTop) - 0.075f) < 1e-3f);
	ENSURE(fabsf(slabX) < 1e-3f);
	free(x0);
	pbd_DestroyWorld(w);
}

void Test_PressRigidBetweenPlates(void)
{
	const float ratios[] = { 1.0f, 10.0f, 40.0f, 200.0f };
	for (int k = 0; k < 4; ++k) PressRigid(ratios[k]);
}
