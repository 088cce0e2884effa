/* test_fluid_velocity.c -- the fluid's velocity passes (families/fluid_velocity.c): XSPH in closed
   form for a pair, its momentum and spread on a random block, vorticity confinement raising the curl
   of a stirred block, coincident particles, and the bits (the scalar and wasm builds run the same
   hash). The family is given brute-force neighbour lists (every live fluid pair closer than h, in
   the padded layout of neighbours/grid.h), the density pass's per-entry cache for them (entryGrad,
   entryAux, written out from the contract) and the contract's kernel constants, so the sums checked
   here are done independently of the engine's search, solve and kernel fitting. */
#include "test.h"
#include "test_fluid_objects.h"

#include "families/fluid_state.h"

#include <stdlib.h>
#include <string.h>

#define D 0.02f
#define PI_F 3.14159265f

typedef struct Rig {
	int32_t *start, *count, *indices;
	float *omega, *scratchV, *grad, *aux;
	float *poolGrad, *poolAux;
} Rig;

static pbdWorldId BlockWorld(int nx, int ny, int nz, int maxParticles)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = maxParticles;
	def.maxFluidParticles = maxParticles;
	pbdWorldId id = TestCreateWorld(&def);
	pbdFluidDef b = pbd_DefaultFluidDef();
	b.upper[0] = nx * D, b.upper[1] = ny * D, b.upper[2] = nz * D;
	if (pbd_World_AddFluid(id, &b) != 0) return 0;
	return id;
}

/* Kernel constants of the contract (docs/fluids.md): h = clamp(smoothingRadius, d, 4 d), Poly6
   315 / (64 pi h^9), spiky -45 / (pi h^6); lists of every live fluid pair within h on p = x. */
static void RigBuild(pbdWorld* w, pbdFluid* f, Rig* r)
{
	const float d = w->params[pbdParam_fluidSpacing];
	float h = w->params[pbdParam_fluidSmoothingRadius];
	h = h < d ? d : (h > 4.0f * d ? 4.0f * d : h);
	f->k.d = d, f->k.h = h, f->k.h2 = h * h;
	f->k.rho0 = w->params[pbdParam_fluidRestDensity];
	f->k.mass = f->k.rho0 * d * d * d;
	const float h3 = h * h * h;
	f->k.poly6 = 315.0f / (64.0f * PI_F * h3 * h3 * h3);
	f->k.spiky = -45.0f / (PI_F * h3 * h3);
	f->k.rhoScale = d * d * d * f->k.poly6;
	f->k.gradScale = d * d * d * f->k.spiky;
	f->k.vorticity = w->params[pbdParam_fluidVorticity];
	f->k.viscosity = w->params[pbdParam_fluidViscosity];
	const int n = w->particleCount;
	memcpy(w->p, w->x, 4 * sizeof(float) * (size_t)n);
	if (r->start == NULL) {
		r->start = calloc((size_t)n, sizeof(int32_t));
		r->count = calloc((size_t)n, sizeof(int32_t));
		r->indices = calloc((size_t)n * 84, sizeof(int32_t));
		r->omega = calloc((size_t)n * 4, sizeof(float));
		r->scratchV = calloc((size_t)n * 4, sizeof(float));
		r->grad = calloc((size_t)n * 84, sizeof(float));
		r->aux = calloc((size_t)n * 84, sizeof(float));
	}
	int32_t used = 0;
	for (int i = 0; i < n; ++i) {
		r->start[i] = used;
		r->count[i] = 0;
		if ((w->phase[i] & PBD_PHASE_FLUID) == 0 || (w->phase[i] & PBD_PHASE_INACTIVE) != 0) continue;
		for (int j = 0; j < n; ++j) {
			if (j == i || (w->phase[j] & PBD_PHASE_INACTIVE) != 0) continue;
			const float dx = w->p[4 * i] - w->p[4 * j], dy = w->p[4 * i + 1] - w->p[4 * j + 1], dz = w->p[4 * i + 2] - w->p[4 * j + 2];
			if (dx * dx + dy * dy + dz * dz < h * h && r->count[i] < 80) r->indices[used + r->count[i]++] = j;
		}
		/* the density pass's cache (fluid_state.h entryGrad, entryAux) as the contract defines it:
		   G = d^3 spiky (h - r)^2 / r for a fluid neighbour within h (0 for r = 0 and the padding),
		   aux = s_corr = 0 (off) */
		for (int t = 0; t < r->count[i]; ++t) {
			const int j = r->indices[used + t];
			const float dx = w->p[4 * i] - w->p[4 * j], dy = w->p[4 * i + 1] - w->p[4 * j + 1], dz = w->p[4 * i + 2] - w->p[4 * j + 2];
			const float len = sqrtf(dx * dx + dy * dy + dz * dz);
			r->grad[used + t] = len > 0.0f ? f->k.gradScale * (h - len) * (h - len) / len : 0.0f;
			r->aux[used + t] = 0.0f;
		}
		used += r->count[i];
		while (used & 3) r->grad[used] = 0.0f, r->aux[used] = 0.0f, r->indices[used++] = i; /* padded with i itself */
	}
	f->lists.start = r->start, f->lists.count = r->count, f->lists.indices = r->indices;
	f->lists.capacity = n * 84, f->lists.used = used, f->lists.dropped = 0;
	f->omega = r->omega, f->scratchV = r->scratchV;
	if (r->poolGrad == NULL) r->poolGrad = f->entryGrad, r->poolAux = f->entryAux;
	f->entryGrad = r->grad, f->entryAux = r->aux;
	f->listsValid = 1;
	f->gradCached = 1;
}

static void RigFree(pbdFluid* f, Rig* r)
{
	free(r->start), free(r->count), free(r->indices), free(r->omega), free(r->scratchV), free(r->grad), free(r->aux);
	f->entryGrad = r->poolGrad, f->entryAux = r->poolAux;
	memset(&f->lists, 0, sizeof f->lists);
	f->omega = f->scratchV = NULL;
	f->listsValid = 0;
	f->gradCached = 0;
}

static void Velocities(pbdWorld* w, float h)
{
	pbdStepContext ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.dt = h, ctx.h = h, ctx.substeps = 1;
	pbd_Fluid_Velocities(w, pbd_FluidState(w), &ctx);
}

/* Two particles d apart: v_i' = v_i + c d^3 W(d) (v_j - v_i), both ways, from the old velocities. */
void Test_FluidXsphPairClosedForm(void)
{
	pbdWorldId id = BlockWorld(2, 1, 1, 8);
	ENSURE(id > 0);
	pbd_World_SetParam(id, pbdParam_fluidViscosity, 0.3f);
	pbd_World_SetParam(id, pbdParam_fluidVorticity, 0.0f);
	pbdWorld* w = pbd_GetWorld(id);
	pbdFluid* f = pbd_FluidState(w);
	Rig r = { 0 };
	RigBuild(w, f, &r);
	ENSURE(r.count[0] == 1 && r.count[1] == 1);
	const float v0[3] = { 1.0f, 0.0f, 0.25f }, v1[3] = { -1.0f, 0.5f, 0.0f };
	memcpy(w->v, v0, sizeof v0);
	memcpy(w->v + 4, v1, sizeof v1);
	Velocities(w, 1.0f / 60.0f);
	const double h = 0.04, t = h * h - (double)D * D;
	const double W = 315.0 / (64.0 * 3.14159265358979 * pow(h, 9.0)) * t * t * t;
	const double s = 0.3 * (double)D * D * D * W;
	ENSURE(s > 0.01 && s < 0.3);
	for (int k = 0; k < 3; ++k) {
		ENSURE_NEAR(w->v[k], v0[k] + s * (v1[k] - v0[k]), 1e-6);
		ENSURE_NEAR(w->v[4 + k], v1[k] + s * (v0[k] - v1[k]), 1e-6);
	}
	RigFree(f, &r);
	pbd_DestroyWorld(id);
}

static void MeanAndSpread(const pbdWorld* w, int n, double mean[3], double* spread)
{
	mean[0] = mean[1] = mean[2] = 0.0;
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < 3; ++k) mean[k] += w->v[4 * i + k];
	}
	for (int k = 0; k < 3; ++k) mean[k] /= n;
	*spread = 0.0;
	for (int i = 0; i < n; ++i) {
		for (int k = 0; k < 3; ++k) *spread += (w->v[4 * i + k] - mean[k]) * (w->v[4 * i + k] - mean[k]);
	}
	*spread /= n;
}

/* Random velocities in a 6^3 block: each XSPH pass lowers the spread about the mean, and the mean
   (all masses equal: the momentum) stays, to float rounding. Two coincident particles stay finite. */
void Test_FluidXsphDampsSpreadKeepsMomentum(void)
{
	pbdWorldId id = BlockWorld(6, 6, 6, 216);
	ENSURE(id > 0);
	pbd_World_SetParam(id, pbdParam_fluidViscosity, 0.5f);
	pbd_World_SetParam(id, pbdParam_fluidVorticity, 0.0f);
	pbdWorld* w = pbd_GetWorld(id);
	pbdFluid* f = pbd_FluidState(w);
	memcpy(w->x + 4 * 1, w->x, 3 * sizeof(float)); /* particle 1 on top of particle 0 */
	Rig r = { 0 };
	RigBuild(w, f, &r);
	uint32_t seed = 12345;
	for (int i = 0; i < 216; ++i) {
		for (int k = 0; k < 3; ++k) w->v[4 * i + k] = (float)(TestXorshift32(&seed) % 2001) / 1000.0f - 1.0f;
	}
	double mean0[3], spread0;
	MeanAndSpread(w, 216, mean0, &spread0);
	double spread = spread0;
	for (int pass = 0; pass < 5; ++pass) {
		Velocities(w, 1.0f / 60.0f);
		double mean[3], s;
		MeanAndSpread(w, 216, mean, &s);
		for (int k = 0; k < 3; ++k) ENSURE_NEAR(mean[k], mean0[k], 1e-6);
		ENSURE(s < spread * 0.95);
		spread = s;
	}
	ENSURE(spread < 0.5 * spread0);
	for (int i = 0; i < 4 * 216; ++i) ENSURE(isfinite(w->v[i]));
	RigFree(f, &r);
	pbd_DestroyWorld(id);
}

/* The SPH curl of the test's own: sum_j d^3 grad_i W_ij x (v_j - v_i), averaged in |.| over the
   particles at least h inside the block (full neighbourhoods). */
static double MeanCurl(const pbdWorld* w, int n, float h, float lo, float hi)
{
	double sum = 0.0;
	int count = 0;
	const double spiky = -45.0 / (3.14159265358979 * pow(h, 6.0)), V = (double)D * D * D;
	for (int i = 0; i < n; ++i) {
		const float* xi = w->x + 4 * i;
		if (xi[0] < lo || xi[0] > hi || xi[1] < lo || xi[1] > hi || xi[2] < lo || xi[2] > hi) continue;
		double c[3] = { 0.0, 0.0, 0.0 };
		for (int j = 0; j < n; ++j) {
			const double r[3] = { xi[0] - w->x[4 * j], xi[1] - w->x[4 * j + 1], xi[2] - w->x[4 * j + 2] };
			const double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
			if (j == i || len >= h || len == 0.0) continue;
			const double g = V * spiky * (h - len) * (h - len) / len;
			const double dv[3] = { w->v[4 * j] - w->v[4 * i], w->v[4 * j + 1] - w->v[4 * i + 1], w->v[4 * j + 2] - w->v[4 * i + 2] };
			c[0] += g * (r[1] * dv[2] - r[2] * dv[1]);
			c[1] += g * (r[2] * dv[0] - r[0] * dv[2]);
			c[2] += g * (r[0] * dv[1] - r[1] * dv[0]);
		}
		sum += sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
		count += 1;
	}
	return sum / count;
}

/* A vortex about the vertical axis through a 10^3 block (angular speed 10 / (1 + r^2 / R^2)^2 rad/s),
   smoothed by XSPH each pass: with vorticity confinement the mean |curl| after 10 passes is higher
   than without (the rotation XSPH smears out is pushed back toward the core). Returns it; -1 if
   anything went wrong or a velocity is not finite. */
static double Stirred(float vorticity, uint32_t* hash)
{
	pbdWorldId id = BlockWorld(10, 10, 10, 1000);
	if (id <= 0) return -1.0;
	pbd_World_SetParam(id, pbdParam_fluidViscosity, 0.05f);
	pbd_World_SetParam(id, pbdParam_fluidVorticity, vorticity);
	pbdWorld* w = pbd_GetWorld(id);
	pbdFluid* f = pbd_FluidState(w);
	Rig r = { 0 };
	RigBuild(w, f, &r);
	const float c = 5.0f * D, R = 0.06f;
	for (int i = 0; i < 1000; ++i) {
		const float dx = w->x[4 * i] - c, dz = w->x[4 * i + 2] - c;
		const float q = 1.0f + (dx * dx + dz * dz) / (R * R);
		const float om = 10.0f / (q * q); /* no libm here: the hash must not depend on a libc's expf */
		w->v[4 * i + 0] = -om * dz;
		w->v[4 * i + 2] = om * dx;
		w->v[4 * i + 1] = 0.01f * (float)(i % 7); /* a little vertical noise, so the curl is not planar */
	}
	for (int pass = 0; pass < 10; ++pass) Velocities(w, 1.0f / 60.0f);
	const double mean = MeanCurl(w, 1000, f->k.h, 2.0f * D, 8.0f * D);
	for (int i = 0; i < 4 * 1000; ++i) {
		if (!isfinite(w->v[i])) return -1.0;
	}
	if (hash != NULL) *hash = pbd_World_Hash(id);
	RigFree(f, &r);
	pbd_DestroyWorld(id);
	return mean;
}

void Test_FluidVorticityRaisesCurl(void)
{
	const double off = Stirred(0.0f, NULL), on = Stirred(0.05f, NULL);
	printf("  mean |curl|: vorticity 0: %.4f /s, 0.05: %.4f /s\n", off, on);
	ENSURE(off > 0.0 && on > 0.0);
	ENSURE(on > 1.1 * off); /* measured 3.61 and 4.12 /s */
}

/* Same bits on every build (native SIMD, scalar, wasm): the stirred block's hash after 10 passes of
   vorticity and XSPH. */
void Test_FluidVelocityHash(void)
{
	uint32_t hash = 0;
	ENSURE(Stirred(0.05f, &hash) > 0.0);
	printf("  fluid velocity hash 0x%08x\n", hash);
	ENSURE(TestPinnedHash(hash, 0x74d1771au)); /* since the passes read the density pass's cache, XSPH on the unconfined v */
}

/* The passes read the density pass's per-entry cache; lists rebuilt since (here the benchmark's
   neighbours part; also the queries) leave entryAux holding the build's pairs. The passes then run
   the density pass first: the same velocities, to the bit, as when it is run by hand. */
void Test_FluidVelocityCacheFollowsLists(void)
{
	float* v[2] = { NULL, NULL };
	const int n = 512;
	for (int run = 0; run < 2; ++run) {
		pbdWorldId id = BlockWorld(8, 8, 8, n);
		ENSURE(id > 0);
		pbd_World_SetParam(id, pbdParam_fluidVorticity, 0.05f);
		pbd_World_SetParam(id, pbdParam_fluidViscosity, 0.1f);
		for (int s = 0; s < 10; ++s) ENSURE(pbd_World_Step(id) == PBD_OK);
		ENSURE(pbd_World_RunFluidPart(id, pbdFluidPart_neighbours) == PBD_OK);
		ENSURE(pbd_FluidState(pbd_GetWorld(id))->gradCached == 0);
		if (run == 1) ENSURE(pbd_World_RunFluidPart(id, pbdFluidPart_density) == PBD_OK);
		ENSURE(pbd_World_RunFluidPart(id, pbdFluidPart_vorticity) == PBD_OK);
		ENSURE(pbd_World_RunFluidPart(id, pbdFluidPart_viscosity) == PBD_OK);
		v[run] = malloc(4 * sizeof(float) * (size_t)n);
		memcpy(v[run], pbd_GetWorld(id)->v, 4 * sizeof(float) * (size_t)n);
		pbd_DestroyWorld(id);
	}
	double moving = 0.0;
	for (int i = 0; i < 4 * n; ++i) {
		ENSURE(isfinite(v[0][i]));
		moving += fabs(v[0][i]);
	}
	ENSURE(moving > 0.0);
	ENSURE(memcmp(v[0], v[1], 4 * sizeof(float) * (size_t)n) == 0);
	free(v[0]), free(v[1]);
}
