/* test_fluid.c -- Position Based Fluids (Macklin & Mueller 2013, seed 002)
   in tanks of box colliders on the ground (d = 0.02 m, h = 2 d, rho0 = 1000). Each test checks a
   number the physics fixes: the rest density away from every boundary, the height a settled dam
   break must reach (its volume over the tank's base), the momentum of a closed system, the sort's
   invisibility to the physics, finiteness under a violent drag, and one hash for every build. */
#include "test.h"
#include "test_scenes.h"
#include "test_fluid.h"
#include "test_fluid_helpers.h"

#include <math.h>
#include <string.h>

/* The mean rho / rho0 of the fluid particles at least h from the free surface (the highest
   particle), the floor and the walls of a tank [0, L] x [0, D]: walls are not particles, so near
   them the estimate lacks the wall's half (seed 002's neighbour deficiency) and says nothing of
   compression. */
static double InteriorDensity(pbdWorldId w, float L, float D, int* counted, double* largest)
{
	pbd_World_UpdateDensities(w);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const float* rho = pbd_World_GetBuffer(w, pbdBuffer_densities, NULL);
	const float h = pbd_World_GetParam(w, pbdParam_fluidSmoothingRadius);
	int first;
	const int n = FluidRange(w, 0, &first);
	float top = 0.0f;
	for (int i = first; i < first + n; ++i) top = x[4 * i + 1] > top ? x[4 * i + 1] : top;
	double sum = 0.0;
	int k = 0;
	for (int i = first; i < first + n; ++i) {
		const float* p = x + 4 * i;
		if (p[1] > top - h || p[1] < h || p[0] < h || p[0] > L - h || p[2] < h || p[2] > D - h) continue;
		sum += rho[i];
		k += 1;
		if (largest != NULL && (k == 1 || rho[i] > *largest)) *largest = rho[i];
	}
	*counted = k;
	return k > 0 ? sum / k : 0.0;
}

/* Mean and spread (max - min) of the height of the top layer: the highest particle in each column
   of 2d x 2d over the base; `departure` (or NULL): the largest distance of a column's top from the mean. */
static void SurfaceHeight(pbdWorldId w, float L, float D, double* mean, double* spread, double* departure)
{
	enum { N = 64 };
	float top[N][N];
	const float d = 2.0f * pbd_World_GetParam(w, pbdParam_fluidSpacing);
	const int nx = (int)(L / d), nz = (int)(D / d);
	for (int a = 0; a < N; ++a)
		for (int b = 0; b < N; ++b) top[a][b] = -1.0f;
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	int first;
	const int n = FluidRange(w, 0, &first);
	for (int i = first; i < first + n; ++i) {
		int a = (int)(x[4 * i] / d), b = (int)(x[4 * i + 2] / d);
		a = a < 0 ? 0 : a >= nx ? nx - 1 : a;
		b = b < 0 ? 0 : b >= nz ? nz - 1 : b;
		if (x[4 * i + 1] > top[a][b]) top[a][b] = x[4 * i + 1];
	}
	double sum = 0.0, lo = 1e30, hi = -1e30;
	int k = 0;
	for (int a = 0; a < nx; ++a) {
		for (int b = 0; b < nz; ++b) {
			if (top[a][b] < 0.0f) continue;
			sum += top[a][b];
			lo = top[a][b] < lo ? top[a][b] : lo;
			hi = top[a][b] > hi ? top[a][b] : hi;
			k += 1;
		}
	}
	*mean = k > 0 ? sum / k : 0.0;
	*spread = hi - lo;
	if (departure != NULL) *departure = hi - *mean > *mean - lo ? hi - *mean : *mean - lo;
}

/* 3 substeps x 4 passes: at 2 x 4 the interior sits at 1.012 (Jacobi PBF is compressible at few
   passes, seed 002); 3 x 4 gives 1.005. */
void Test_FluidRestingTank(void)
{
	const float L = 0.24f, D = 0.24f;
	pbdWorldId w = FluidWorld(4000, 4000, 3, 4);
	FluidTank(w, L, D, 0.4f);
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, L, 0.2f, D, 0) >= 0);
	pbd_World_SetParam(w, pbdParam_damping, 2.0f);
	int first;
	const int n = FluidRange(w, 0, &first);
	ENSURE(n == 12 * 10 * 12);
	for (int s = 0; s < 180; ++s) pbd_World_Step(w);
	ENSURE(TestAllFinite(w));
	int counted;
	const double rho = InteriorDensity(w, L, D, &counted, NULL);
	const double closest = FluidClosestPair(pbd_World_GetBuffer(w, pbdBuffer_positions, NULL), first, n);
	pbdFluidStats st;
	ENSURE(pbd_World_GetFluidStats(w, &st) == PBD_OK);
	printf("  resting tank: interior rho/rho0 %.4f over %d particles, closest pair %.3f d, mean %.4f max %.4f error %.5f, %.1f neighbours\n",
		   rho, counted, closest / 0.02, st.meanDensity, st.maxDensity, st.densityError, st.meanNeighbours);
	ENSURE(counted > 100);
	ENSURE_NEAR(rho, 1.0, 0.01);
	ENSURE(closest > 0.3 * 0.02);
	ENSURE(st.particles == n && st.capacity == n);
	pbd_DestroyWorld(w);
}

/* A tank left alone comes to rest (issue 22 item 3): a block of water 0.4 x `depth` x 0.2 m, at rest on the lattice,
   in a frictionless tank, at `substeps` x 4 passes and fluid.relaxation `relaxation`, run 5 s (300 steps). Writes the
   rms particle speed, the interior's mean and largest rho / rho0 (InteriorDensity: over h = 2 d from the walls, the
   floor and the top), the closest pair in spacings, and the surface's largest departure from its mean
   (SurfaceHeight's columns) in spacings. */
static void SettleTank(float depth, int substeps, float relaxation, double* rms, double* mean, double* largest, double* closest,
					   double* flat)
{
	const float L = 0.4f, D = 0.2f, d = 0.02f;
	pbdWorldId w = FluidWorld(4000, 4000, substeps, 4);
	FluidTank(w, L, D, 1.0f);
	pbd_World_SetParam(w, pbdParam_fluidRelaxation, relaxation);
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, L, depth, D, 0) >= 0);
	int first;
	const int n = FluidRange(w, 0, &first);
	for (int s = 0; s < 300; ++s) pbd_World_Step(w);
	ENSURE(TestAllFinite(w));
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const float* v = pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	double v2 = 0.0;
	for (int i = first; i < first + n; ++i)
		v2 += (double)v[4 * i] * v[4 * i] + (double)v[4 * i + 1] * v[4 * i + 1] + (double)v[4 * i + 2] * v[4 * i + 2];
	*rms = sqrt(v2 / n);
	int counted;
	*mean = InteriorDensity(w, L, D, &counted, largest);
	ENSURE(counted > 50); /* 96 at 0.1 m: one layer, less a margin h along the walls */
	*closest = FluidClosestPair(x, first, n) / d;
	double surface, spread;
	SurfaceHeight(w, L, D, &surface, &spread, flat);
	*flat /= d;
	pbd_DestroyWorld(w);
}

/* Issue 22 item 3, at the tank scenes' solver (web/js/format/builtin-scenes.js FLUID_SOLVER: 3 substeps x 4 passes,
   fluid.relaxation 0.1), every figure the issue asks at 0.1, 0.2 and 0.3 m: rms speed <= 1 cm/s after 5 s, the
   interior within 1% of rho0 on average and 5% at worst, no pair closer than half a spacing, the surface flat within
   half a spacing. Measured: 0.34 / 0.67 / 0.59 cm/s; interior 1.0010 / 1.0057 / 1.0093 (largest 1.0067 / 1.0279 /
   1.0483); closest 0.81 / 0.71 / 0.65 d.

   Then why it takes that solver, at the split the scenes had before, 2 x 4 (docs/fluids.md "Still water"). The 0.3 m
   tank there keeps 3.0 cm/s, its interior 2.0% over rho0 (11% at the floor). What is left of the boil is particle
   by particle, not a flow: over cells of 10 cm the mean velocity is 3.5 mm/s (measured). Jacobi overshoot: each
   particle takes the whole of every neighbour's projection (seed 002), so the finest modes are pushed past their
   rest and back. epsilon (MM13 eq. 11) under-relaxes each projection by 1 / (1 + relaxation): at 0.1 the boil halves
   (3.0 -> 1.4 cm/s) for 0.2% more compression (1.0204 -> 1.0220). Held: at 2 x 4 the softer constraint boils at most
   0.6 x, compressed at most 0.5% more; the compression is the substeps' to fix. */
void Test_FluidTankComesToRest(void)
{
	static const float depths[3] = { 0.1f, 0.2f, 0.3f };
	for (int k = 0; k < 3; ++k) {
		double rms = 0.0, mean = 0.0, largest = 0.0, closest = 0.0, flat = 0.0;
		SettleTank(depths[k], 3, 0.1f, &rms, &mean, &largest, &closest, &flat);
		printf("  3 x 4, relaxation 0.1, %.1f m deep, 5 s: rms speed %.4f m/s, interior rho/rho0 mean %.4f largest %.4f, "
			   "closest pair %.3f d, surface within %.2f d\n", (double)depths[k], rms, mean, largest, closest, flat);
		ENSURE(rms <= 0.01);
		ENSURE(fabs(mean - 1.0) <= 0.01 && largest <= 1.05);
		ENSURE(closest >= 0.5);
		ENSURE(flat <= 0.5);
	}
	pbdParamInfo info;
	ENSURE(pbd_GetParamInfo(pbdParam_fluidRelaxation, &info) == PBD_OK);
	double rms[2], mean[2], largest[2], closest, flat;
	const float relaxation[2] = { info.defaultValue, 0.1f }; /* 0.01, 0.1 */
	for (int k = 0; k < 2; ++k) {
		SettleTank(0.3f, 2, relaxation[k], &rms[k], &mean[k], &largest[k], &closest, &flat);
		printf("  2 x 4, relaxation %.2f, 0.3 m deep, 5 s: rms speed %.4f m/s, interior rho/rho0 mean %.4f largest %.4f\n",
			   (double)relaxation[k], rms[k], mean[k], largest[k]);
	}
	ENSURE(rms[1] <= 0.6 * rms[0]);
	ENSURE(mean[1] <= mean[0] + 0.005);
}

/* At the 2 substeps x 4 passes: 0.1154 m against 0.1200 (-3.8%; -2.3% while the walls pushed twice,
   fluid_solve.c). The height counts the water as the lattice it started as; settled after the fall, the water's
   particles pack differently at the same density: every layer below the top is within 0.6% of rho0, and the
   lowest 2 cm holds 227 particles where the lattice has 200 (measured). So the height is held to 5% and the
   density, the quantity the solve keeps, to 1% in every layer under the surface's. */
void Test_FluidDamBreak(void)
{
	const float L = 0.4f, D = 0.2f;
	pbdWorldId w = FluidWorld(4000, 4000, 2, 4);
	FluidTank(w, L, D, 0.6f);
	/* a column 0.16 x 0.3 x 0.2 in the corner: 8 x 15 x 10 = 1200 particles */
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.16f, 0.3f, D, 0) >= 0);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	int first;
	const int n = FluidRange(w, 0, &first);
	ENSURE(n == 1200);
	for (int s = 0; s < 600; ++s) pbd_World_Step(w);
	ENSURE(TestAllFinite(w));
	double mean, spread;
	SurfaceHeight(w, L, D, &mean, &spread, NULL);
	/* n particles of volume d^3 over L x D fill a layer of height H = n d^3 / (L D); a uniform layer's
	   centre of mass is at H / 2, so the water's height is twice its particles' mean height (a
	   measure that does not hang on which particle is on top of a column) */
	const double height = n * 0.02 * 0.02 * 0.02 / (L * D);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	double ySum = 0.0;
	for (int i = first; i < first + n; ++i) ySum += x[4 * i + 1];
	const double surface = 2.0 * ySum / n;
	/* the density of each layer 2 cm thick wholly under the top layer (incompressible: rho0) */
	pbd_World_UpdateDensities(w);
	const float* rho = pbd_World_GetBuffer(w, pbdBuffer_densities, NULL);
	double layer[8] = { 0 };
	int inLayer[8] = { 0 };
	for (int i = first; i < first + n; ++i) {
		const int b = (int)(x[4 * i + 1] / 0.02f);
		if (b >= 0 && b < 8) layer[b] += rho[i], inLayer[b] += 1;
	}
	int layers = 0;
	double worst = 0.0;
	for (int b = 0; b < 8 && (b + 2) * 0.02 < mean; ++b) {
		const double m = layer[b] / inLayer[b];
		worst = fabs(m - 1.0) > worst ? fabs(m - 1.0) : worst;
		layers += 1;
	}
	printf("  dam break: surface %.4f m (volume / base %.4f), top layer %.4f, spread %.4f m; %d layers under it, "
		   "density within %.4f of rho0\n", surface, height, mean, spread, layers, worst);
	ENSURE(layers >= 4);
	ENSURE(worst < 0.01);
	ENSURE_NEAR(surface / height, 1.0, 0.05);
	ENSURE(spread < 2.5 * 0.02); /* flat: the column tops within a few particles */
	pbd_DestroyWorld(w);
}

/* The same dam break in a tank of the world's default materials (ground 0.4 / 0.3, walls 0.5 / 0.4):
   fluid.friction (default 0) keeps the water slipping along them, so it settles as flat and as
   high, and its wave runs ahead of the same dam break's with fluid.friction 1 (the solids' Coulomb
   friction on every fluid particle: it also settles, in the end, but slowly). `steps`: 600 to settle,
   or 9 when only the wave's front after 9 steps is wanted (the run with fluid.friction 1: its later
   steps asserted nothing, and were half the test's time). */
static void DamBreakWithFriction(float friction, int steps, double* surface, double* spread, float* front)
{
	const float L = 0.4f, D = 0.2f, H = 0.6f;
	pbdWorldId w = FluidWorld(4000, 4000, 2, 4);
	FluidWalls(w, L, D, H, 0); /* the colliders' default materials */
	if (friction >= 0.0f) pbd_World_SetParam(w, pbdParam_fluidFriction, friction);
	AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.16f, 0.3f, D, 0);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	int first;
	const int n = FluidRange(w, 0, &first);
	*front = 0.0f;
	for (int s = 0; s < steps; ++s) {
		pbd_World_Step(w);
		if (s != 8) continue;
		const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
		for (int i = first; i < first + n; ++i) *front = x[4 * i] > *front ? x[4 * i] : *front;
	}
	double mean;
	SurfaceHeight(w, L, D, &mean, spread, NULL);
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	double ySum = 0.0;
	for (int i = first; i < first + n; ++i) ySum += x[4 * i + 1];
	*surface = (2.0 * ySum / n) / (n * 0.02 * 0.02 * 0.02 / (L * D));
	if (!TestAllFinite(w)) *surface = 0.0;
	pbd_DestroyWorld(w);
}

void Test_FluidDamBreakDefaultFriction(void)
{
	double surface, spread, surface1, spread1;
	float front, front1;
	DamBreakWithFriction(-1.0f, 600, &surface, &spread, &front); /* fluid.friction as the table has it */
	DamBreakWithFriction(1.0f, 9, &surface1, &spread1, &front1);
	printf("  dam break, default materials: height / (volume / base) %.4f, spread %.4f m, front %.4f m at step 9; "
		   "with fluid.friction 1: front %.4f m\n", surface, spread, front, front1);
	ENSURE_NEAR(surface, 1.0, 0.05); /* as Test_FluidDamBreak's, whose packing this is */
	ENSURE(spread < 2.5 * 0.02);
	ENSURE(front1 < front - 0.01f); /* the share reaches the fluid's particles: friction holds the wave back (2 cm measured) */
}

/* Sum of m v over the fluid (one mass for all: sum of v) in double. */
static void Momentum(pbdWorldId w, int first, int n, double out[3])
{
	const float* v = pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	out[0] = out[1] = out[2] = 0.0;
	for (int i = first; i < first + n; ++i)
		for (int k = 0; k < 3; ++k) out[k] += v[4 * i + k];
}

/* Gravity, ground and damping off, no walls: only the density constraint acts, and its pair terms
   are equal and opposite (fluid_solve.c), so sum m v stays what it was while two blobs collide.
   Vorticity confinement adds a force on purpose (MM13 eq. 16, no reaction), so it is off here. */
void Test_FluidMomentum(void)
{
	pbdWorldId w = FluidWorld(2000, 2000, 2, 4);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_fluidVorticity, 0.0f);
	pbdFluidDef a = pbd_DefaultFluidDef(), b = pbd_DefaultFluidDef();
	const float lo[3] = { 0.0f, 0.0f, 0.0f }, hi[3] = { 0.12f, 0.12f, 0.12f };
	for (int k = 0; k < 3; ++k) {
		a.lower[k] = lo[k], a.upper[k] = hi[k];
		b.lower[k] = lo[k] + (k == 0 ? 0.2f : 0.03f), b.upper[k] = hi[k] + (k == 0 ? 0.2f : 0.03f);
	}
	a.velocity[0] = 1.0f;
	b.velocity[0] = -1.5f, b.velocity[1] = 0.2f;
	ENSURE(pbd_World_AddFluid(w, &a) >= 0 && pbd_World_AddFluid(w, &b) >= 0);
	const int n = pbd_World_GetParticleCount(w);
	ENSURE(n == 2 * 216);
	double before[3], after[3];
	Momentum(w, 0, n, before);
	float met = 0.0f;
	pbdFluidStats st;
	for (int s = 0; s < 60; ++s) {
		pbd_World_Step(w);
		pbd_World_GetFluidStats(w, &st);
		met = st.maxDensity > met ? st.maxDensity : met;
	}
	Momentum(w, 0, n, after);
	printf("  momentum: before (%.6f %.6f %.6f) after (%.6f %.6f %.6f), max rho %.3f\n", before[0], before[1], before[2],
		   after[0], after[1], after[2], met);
	ENSURE(met > 1.005f); /* they met and pressed on each other */
	for (int k = 0; k < 3; ++k) ENSURE_NEAR(after[k], before[k], 1e-5 * n); /* float noise: |sum v| ~ 100 */
	pbd_DestroyWorld(w);
}

/* A block dropped into a tank, run with a sort every step and with none: the order changes every
   sum's order, so the runs differ in the last bits and then chaotically in detail, but not in what
   the water does. An attachment on a particle (marked by its mass) follows it through every sort. */
static pbdWorldId SortWorld(int interval, pbdAttachmentId* id, int* marked)
{
	pbdWorldId w = FluidWorld(3000, 3000, 2, 4);
	FluidTank(w, 0.2f, 0.2f, 0.5f);
	pbd_World_SetParam(w, pbdParam_fluidSortInterval, (float)interval);
	pbd_World_SetParam(w, pbdParam_damping, 1.0f);
	const int first = AddFluidBlock(w, 0.0f, 0.05f, 0.0f, 0.2f, 0.17f, 0.2f, 0);
	*marked = first + 7;
	const float* x = pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const float wm = x[4 * *marked + 3];
	pbd_World_SetInvMass(w, *marked, 0.999f * wm);
	*id = pbd_World_AddAttachment(w, *marked, 0.1f, 0.3f, 0.1f, 1.0f);
	return w;
}

void Test_FluidSortKeepsPhysics(void)
{
	pbdAttachmentId ida, idb;
	int ma, mb;
	pbdWorldId a = SortWorld(1, &ida, &ma), b = SortWorld(0, &idb, &mb);
	ENSURE(ida > 0 && idb > 0);
	const float marker = 0.999f / pbd_World_GetParam(a, pbdParam_fluidRestDensity) / (0.02f * 0.02f * 0.02f);
	for (int s = 0; s < 120; ++s) pbd_World_Step(a), pbd_World_Step(b);
	int first;
	const int n = FluidRange(a, 0, &first);
	double ya = 0.0, yb = 0.0;
	const float* xa = pbd_World_GetBuffer(a, pbdBuffer_positions, NULL);
	const float* xb = pbd_World_GetBuffer(b, pbdBuffer_positions, NULL);
	int atTarget = -1, moved = 0;
	for (int i = first; i < first + n; ++i) {
		ya += xa[4 * i + 1], yb += xb[4 * i + 1];
		if (fabsf(xa[4 * i] - 0.1f) + fabsf(xa[4 * i + 1] - 0.3f) + fabsf(xa[4 * i + 2] - 0.1f) < 1e-3f) atTarget = i;
	}
	moved = atTarget != ma;
	pbdFluidStats sa, sb;
	pbd_World_GetFluidStats(a, &sa);
	pbd_World_GetFluidStats(b, &sb);
	printf("  sort: mean height %.5f / %.5f m, mean rho %.4f / %.4f; marked particle %d -> %d\n", ya / n, yb / n,
		   sa.meanDensity, sb.meanDensity, ma, atTarget);
	ENSURE(pbd_World_Hash(a) != pbd_World_Hash(b)); /* the sort did reorder */
	ENSURE_NEAR(ya / n, yb / n, 0.002);
	ENSURE_NEAR(sa.meanDensity, sb.meanDensity, 0.01);
	ENSURE(atTarget >= 0 && moved);
	ENSURE_NEAR(xa[4 * atTarget + 3], marker, 1e-6 * marker); /* the attached particle is the marked one */
	ENSURE(pbd_World_GetAttachmentCount(a) == 1);
	pbd_DestroyWorld(a);
	pbd_DestroyWorld(b);
}

/* A box collider dragged through the tank at maxSpeed, and a block thrown at 1e4 m/s: every value
   stays finite, and the water stays in its tank's neighbourhood (the world bound is 1e5). */
void Test_FluidViolentInput(void)
{
	pbdWorldId w = FluidWorld(3000, 3000, 2, 4);
	FluidTank(w, 0.24f, 0.24f, 0.3f);
	ENSURE(AddFluidBlock(w, 0.0f, 0.0f, 0.0f, 0.24f, 0.16f, 0.24f, 0) >= 0);
	pbdFluidDef fast = pbd_DefaultFluidDef();
	fast.lower[0] = 0.05f, fast.lower[1] = 0.25f, fast.lower[2] = 0.05f;
	fast.upper[0] = 0.15f, fast.upper[1] = 0.3f, fast.upper[2] = 0.15f;
	fast.velocity[1] = -1e4f;
	ENSURE(pbd_World_AddFluid(w, &fast) >= 0);
	pbdColliderDef c = pbd_DefaultColliderDef();
	c.type = pbdShape_box;
	c.halfExtents[0] = 0.03f, c.halfExtents[1] = 0.1f, c.halfExtents[2] = 0.03f;
	c.position[0] = 0.02f, c.position[1] = 0.08f, c.position[2] = 0.12f;
	const int box = pbd_World_AddCollider(w, &c);
	ENSURE(box >= 0);
	const float speed = pbd_World_GetParam(w, pbdParam_maxSpeed), dt = pbd_World_GetParam(w, pbdParam_dt);
	for (int s = 0; s < 90; ++s) {
		/* back and forth across the tank at maxSpeed: 100 m/s, 1.7 m a step, far past the walls */
		const float x = (s & 1) ? 0.22f : 0.02f;
		(void)speed, (void)dt;
		pbd_World_SetColliderTransform(w, box, x, 0.08f, 0.12f + 0.1f * (float)((s / 2) % 2), 0.0f, 0.0f, 0.0f, 1.0f);
		pbd_World_Step(w);
		ENSURE(TestAllFinite(w));
	}
	pbdFluidStats st;
	ENSURE(pbd_World_GetFluidStats(w, &st) == PBD_OK);
	printf("  violent: max rho %.3f, mean %.3f, dropped neighbours %d\n", st.maxDensity, st.meanDensity, st.droppedNeighbours);
	ENSURE(isfinite(st.maxDensity) && isfinite(st.meanDensity));
	pbd_DestroyWorld(w);
}

/* The fluid's hash: a dam break of 480 particles in a tank with a sort every step, 60 steps at
   2 x 4; native, scalar (-DPBD_SCALAR=1, ASan) and wasm runs of this file must all reach it. */
void Test_FluidDeterminismHash(void)
{
	pbdWorldId w = TestSceneRun(&g_sceneDamBreak); /* test_scenes.c */
	const uint32_t hash = pbd_World_Hash(w);
	printf("  fluid hash 0x%08x\n", hash);
	ENSURE(TestAllFinite(w));
	ENSURE(TestPinnedHash(hash, PBD_FLUID_HASH));
	pbd_DestroyWorld(w);
}
