/* families/fluid_velocity.c -- the fluid's velocity passes, after v = (p - x) / h (the family's
   `velocities` hook): vorticity confinement, then XSPH viscosity (Macklin & Mueller 2013 section 5,
   eqs. 15-17; seed 002: "PBD projection dissipates kinetic energy ... vorticity confinement puts the
   lost rotation back, then one pass of velocity smoothing").

   Both are Jacobi over the live fluid particles: every new velocity is computed from the old ones
   (into fluid->scratchV) and written back after, so the result does not depend on the particle
   order or on how the range is split. Only fluid neighbours count: the solids' share in the fluid
   is the density constraint's (fluid_solve.c), and XSPH between fluid and cloth would drag the
   cloth with a force no one balances.

   Two passes over the lists, both from the velocities v of the velocity update (the paper's
   Algorithm 1 lines 21-22 apply both to the same v):
     pass 1, per particle: the curl omega_i and the XSPH sum (one gather of p and v per quad);
     pass 2, per particle: eta = grad |omega| from the neighbours' |omega_j|, and
             v_i' = v_i + XSPH_i + confinement_i.
   (Before, XSPH ran as a third pass on the confined velocities; the difference is XSPH's smoothing
   of the confinement push itself, one share c of it: the tests' curl, damping and momentum
   figures hold either way.)

   The gradient factor is not recomputed: the density pass (fluid_solve.c) leaves, for every entry
   of a fluid particle's list, G = (m_j' / rho0) spiky (h - r)^2 / r (fluid_state.h entryGrad;
   0 past h, on padding and for coincident pairs) and entryAux (s_corr <= 0 for a fluid neighbour,
   r > 0 for a live solid one: aux > 0 marks the solid entries). Its r is the one of the last
   density pass of the substep, before that pass's correction moved the particles: slightly older
   positions than the p these passes read for the direction r_ij, as the paper's lists are older
   than the positions they are used on (built once per substep). The sqrt and the division per
   entry go, and with them the per-lane phase lookups. The XSPH weight (h^2 - r^2)^3 is cheap and
   taken on the current r. When the lists were rebuilt since the last density pass (outside a
   step: the queries, a benchmark's parts) the density pass is run first (gradCached).

   Volumes: every SPH sum weights neighbour j by V_j = m / rho0 = d^3 (a lattice cell), not by
   m / rho_j: the density is held at rho0 inside the fluid by the solve, and with the unilateral
   constraint the sparse particles at the free surface have rho_j < rho0, whose m / rho_j would
   inflate exactly the neighbours with the least support. A constant V also keeps the XSPH pair
   terms equal and opposite, so it keeps momentum (Monaghan 1989's symmetric XSPH).

   Parameters, dimensionless (the same value means the same thing at any spacing or unit):
     fluid.viscosity c: v_i += c sum_j V W(r_ij) (v_j - v_i). sum_j V W ~ 1 (the kernel integrates
       to 1 over a lattice), so c is the share of the way to the neighbourhood's mean velocity that
       one pass goes: 0 = none, 1 = all of it (stable for c <= 1, the parameter's range).
     fluid.vorticity e: the paper's dv = dt eps (N x omega) with dt eps = e h (h the smoothing
       radius): each pass adds e times the velocity difference across one kernel radius that the
       local rotation |omega| stands for, turned toward the vortex core's tangent. Like XSPH it is
       a share per pass (the paper applies both once per step; here once per substep). It stays
       linear in omega: a force growing with |omega|^2 (eps = e h |omega|, tried first) feeds on
       itself and ran a stirred block from 5 to 430 /s in 10 passes at e = 0.5.
       Default 0.005, range [0, 0.1], measured with the PBF solve (2 x 4, damping 0.05): a settled
       0.24 m tank never quite rests (the Jacobi solve leaves a floor of ~0.21 J of jitter in
       1728 particles at e = 0) and confinement feeds on that jitter's curl: e = 0.005 keeps the
       floor (+7%, within its noise), 0.01 raises it 20%, 0.03 3.7x and growing, 0.3 30x (4 m/s),
       1 and 10 boil the tank at 16 and 95 m/s (the 100 m/s speed bound holding it). At 0.1 it
       stays under 1 m/s. A stirred tank keeps 6% more angular momentum after a second at 0.005,
       44% more at 0.03.

   4 wide: each particle's padded list (neighbours/grid.h) is read a quad at a time (the padding is
   the particle itself: G = 0, v_j - v_i = 0); the lane sums are added (l0 + l1) + (l2 + l3) at the
   end, the same order in the SIMD and the scalar build (base/simd.h), so both give the same bits.
   Only + - * / and sqrt. */
#include "families/fluid_state.h"
#include "base/tasks.h"
#include "base/simd.h"

#include <math.h>
#include <string.h>

/* Four neighbours' float4 rows as x, y, z columns. */
static inline void Gather(const float* a, const int32_t* idx, pbdF4* x, pbdF4* y, pbdF4* z)
{
	pbdF4 r0 = pbdF4_Load(a + 4 * idx[0]), r1 = pbdF4_Load(a + 4 * idx[1]);
	pbdF4 r2 = pbdF4_Load(a + 4 * idx[2]), r3 = pbdF4_Load(a + 4 * idx[3]);
	pbdF4_Transpose(&r0, &r1, &r2, &r3);
	*x = r0, *y = r1, *z = r2;
}

static inline float Sum4(pbdF4 a) { return (pbdF4_Get(a, 0) + pbdF4_Get(a, 1)) + (pbdF4_Get(a, 2) + pbdF4_Get(a, 3)); }

/* Pass 1 for particle i: omega_i = curl v = sum_j V grad_i W_ij x (v_j - v_i) (the SPH curl; eq. 15
   has it as v_ij x grad_j W_ij, the same vector; V grad_i W_ij = G r_ij from the cache), with
   omega[4 i + 3] = |omega_i|; and scratchV_i = v_i + c V sum_j W_ij (v_j - v_i) (eq. 17). Both sums are
   taken whatever is on (`curl` and `xsph` only choose what is written): one loop with no test in it. It
   was three copies, one per pair of flags, meant to drop what is off; clang kept one out of line in the wasm
   with the flags as parameters, tested every quad, and this pass ran 2.0 x its native time there (1.35 x
   for the step). One loop, inlined into its block: 0.954 x the step at 8k, 0.952 x at 25k and 0.969 x at 25k
   2 x 4 in wasm (bench/ab.mjs --fluid --cpu, medians of 7, the same state), the element 0.1 KB heavier (the
   three copies inlined: 0.87 x and 0.94 x, but 0.6 KB heavier, over its 180 KB). */
static inline __attribute__((always_inline)) void Pass1(pbdWorld* w, pbdFluid* f, int32_t i, const int curl, const int xsph)
{
	const pbdFluidKernel* k = &f->k;
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* idx = f->lists.indices + start;
	const float* G = f->entryGrad + start;
	const float* A = f->entryAux + start;
	const float* pi = w->p + 4 * i;
	const float* v = w->v + 4 * i;
	const pbdF4 px = pbdF4_Splat(pi[0]), py = pbdF4_Splat(pi[1]), pz = pbdF4_Splat(pi[2]);
	const pbdF4 vx = pbdF4_Splat(v[0]), vy = pbdF4_Splat(v[1]), vz = pbdF4_Splat(v[2]);
	const pbdF4 zero = pbdF4_Splat(0.0f), h2 = pbdF4_Splat(k->h2);
	pbdF4 cx = zero, cy = zero, cz = zero, sx = zero, sy = zero, sz = zero;
	for (int32_t t = 0; t < n; t += 4) {
		pbdF4 X, Y, Z, dx, dy, dz;
		Gather(w->p, idx + t, &X, &Y, &Z);
		Gather(w->v, idx + t, &dx, &dy, &dz);
		const pbdF4 rx = pbdF4_Sub(px, X), ry = pbdF4_Sub(py, Y), rz = pbdF4_Sub(pz, Z);
		dx = pbdF4_Sub(dx, vx), dy = pbdF4_Sub(dy, vy), dz = pbdF4_Sub(dz, vz);
		const pbdMask4 fluid = pbdF4_GreaterEq(zero, pbdF4_Load(A + t));
		/* (G r) x dv */
		const pbdF4 g = pbdF4_Keep(fluid, pbdF4_Load(G + t));
		cx = pbdF4_Add(cx, pbdF4_Mul(g, pbdF4_Sub(pbdF4_Mul(ry, dz), pbdF4_Mul(rz, dy))));
		cy = pbdF4_Add(cy, pbdF4_Mul(g, pbdF4_Sub(pbdF4_Mul(rz, dx), pbdF4_Mul(rx, dz))));
		cz = pbdF4_Add(cz, pbdF4_Mul(g, pbdF4_Sub(pbdF4_Mul(rx, dy), pbdF4_Mul(ry, dx))));
		const pbdF4 r2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(rx, rx), pbdF4_Mul(ry, ry)), pbdF4_Mul(rz, rz));
		const pbdF4 q = pbdF4_Sub(h2, r2);
		const pbdF4 W = pbdF4_Keep(pbdMask4_And(fluid, pbdF4_Greater(q, zero)), pbdF4_Mul(pbdF4_Mul(q, q), q));
		sx = pbdF4_Add(sx, pbdF4_Mul(W, dx));
		sy = pbdF4_Add(sy, pbdF4_Mul(W, dy));
		sz = pbdF4_Add(sz, pbdF4_Mul(W, dz));
	}
	if (curl) {
		float* om = f->omega + 4 * i;
		om[0] = Sum4(cx), om[1] = Sum4(cy), om[2] = Sum4(cz);
		om[3] = sqrtf((om[0] * om[0] + om[1] * om[1]) + om[2] * om[2]);
	}
	/* c V poly6 = c rhoScale: poly6 is fitted so that d^3 poly6 sums to 1 over a rest lattice */
	const float cV = xsph ? k->viscosity * k->rhoScale : 0.0f;
	float* out = f->scratchV + 4 * i;
	out[0] = xsph ? v[0] + cV * Sum4(sx) : v[0];
	out[1] = xsph ? v[1] + cV * Sum4(sy) : v[1];
	out[2] = xsph ? v[2] + cV * Sum4(sz) : v[2];
	out[3] = v[3];
}

/* Pass 2 for particle i: eta_i = grad |omega| = sum_j V (|omega_j| - |omega_i|) grad_i W_ij,
   N = eta / |eta|, scratchV_i += e h (N x omega_i) (eq. 16, with the scaling in the header). */
static void Confine(pbdWorld* w, pbdFluid* f, int32_t i)
{
	const pbdFluidKernel* k = &f->k;
	const float* om = f->omega + 4 * i;
	if (!(om[3] > 0.0f)) return;
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* idx = f->lists.indices + start;
	const float* G = f->entryGrad + start;
	const float* A = f->entryAux + start;
	const float* pi = w->p + 4 * i;
	const pbdF4 px = pbdF4_Splat(pi[0]), py = pbdF4_Splat(pi[1]), pz = pbdF4_Splat(pi[2]);
	const pbdF4 zero = pbdF4_Splat(0.0f), si = pbdF4_Splat(om[3]);
	pbdF4 ex = zero, ey = zero, ez = zero;
	for (int32_t t = 0; t < n; t += 4) {
		const int32_t* q = idx + t;
		pbdF4 X, Y, Z;
		Gather(w->p, q, &X, &Y, &Z);
		const pbdF4 sj = pbdF4_Set(f->omega[4 * q[0] + 3], f->omega[4 * q[1] + 3], f->omega[4 * q[2] + 3], f->omega[4 * q[3] + 3]);
		const pbdMask4 fluid = pbdF4_GreaterEq(zero, pbdF4_Load(A + t));
		const pbdF4 s = pbdF4_Keep(fluid, pbdF4_Mul(pbdF4_Load(G + t), pbdF4_Sub(sj, si)));
		ex = pbdF4_Add(ex, pbdF4_Mul(s, pbdF4_Sub(px, X)));
		ey = pbdF4_Add(ey, pbdF4_Mul(s, pbdF4_Sub(py, Y)));
		ez = pbdF4_Add(ez, pbdF4_Mul(s, pbdF4_Sub(pz, Z)));
	}
	const float nx = Sum4(ex), ny = Sum4(ey), nz = Sum4(ez);
	const float n2 = (nx * nx + ny * ny) + nz * nz;
	if (!(n2 > 0.0f)) return; /* |omega| uniform around i: no core to confine toward */
	const float scale = k->vorticity * k->h / sqrtf(n2);
	float* out = f->scratchV + 4 * i;
	out[0] += scale * (ny * om[2] - nz * om[1]);
	out[1] += scale * (nz * om[0] - nx * om[2]);
	out[2] += scale * (nx * om[1] - ny * om[0]);
}

/* The lists and, for them, the density pass's per-entry cache (run it when the lists are newer). */
static int Ready(pbdWorld* w, pbdFluid* f)
{
	if (!(f->listsValid && f->lists.start != NULL && f->omega != NULL && f->scratchV != NULL && f->k.h > 0.0f && f->k.d > 0.0f)) {
		return 0;
	}
	if (!f->gradCached) pbd_Fluid_SolveDensity(w, f, w->p, 0, f->fluidCount, 0);
	return f->gradCached;
}

/* Both passes over the live fluid particles, then scratchV -> v (the Jacobi write-back). Each
   pass writes only its particle's omega and scratchV and reads the others' from the pass
   before, so each is shared out in particle blocks (base/tasks.h), same bits for any split. */
typedef struct VelocityBlock {
	pbdWorld* w;
	pbdFluid* f;
	int32_t first;
	int curl, xsph;
} VelocityBlock;

#define PBD_FLUID_VELOCITY_BLOCK 256

static void Pass1Block(void* data, int32_t begin, int32_t end)
{
	const VelocityBlock* b = data;
	for (int32_t i = b->first + begin; i < b->first + end; ++i) Pass1(b->w, b->f, i, b->curl, b->xsph);
}

static void ConfineBlock(void* data, int32_t begin, int32_t end)
{
	const VelocityBlock* b = data;
	for (int32_t i = b->first + begin; i < b->first + end; ++i) Confine(b->w, b->f, i);
}

static void WriteBackBlock(void* data, int32_t begin, int32_t end)
{
	const VelocityBlock* b = data;
	for (int32_t i = b->first + begin; i < b->first + end; ++i) memcpy(b->w->v + 4 * i, b->f->scratchV + 4 * i, 3 * sizeof(float));
}

static void ForEachObject(pbdWorld* w, pbdFluid* f, const int curl, const int xsph, pbdBlockFn* fn)
{
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* ob = &f->objects[o];
		VelocityBlock b = { w, f, ob->first, curl, xsph };
		pbd_Parallel_For(w, ob->active, PBD_FLUID_VELOCITY_BLOCK, fn, &b);
	}
}

static void Run(pbdWorld* w, pbdFluid* f, const int curl, const int xsph)
{
	if (!Ready(w, f)) return;
	ForEachObject(w, f, curl, xsph, Pass1Block);
	if (curl) ForEachObject(w, f, curl, xsph, ConfineBlock);
	ForEachObject(w, f, curl, xsph, WriteBackBlock);
}

void pbd_Fluid_Vorticity(pbdWorld* w, pbdFluid* f, float h)
{
	(void)h; /* the substep length: not read, the push is a share per pass (see the header) */
	Run(w, f, 1, 0);
}

void pbd_Fluid_Viscosity(pbdWorld* w, pbdFluid* f) { Run(w, f, 0, 1); }

void pbd_Fluid_Velocities(pbdWorld* w, pbdFluid* f, const pbdStepContext* ctx)
{
	(void)ctx;
	const int curl = f->k.vorticity > 0.0f, xsph = f->k.viscosity > 0.0f;
	if (curl || xsph) Run(w, f, curl, xsph);
}

/* The velocities in slice units (world/step.c): the parts of Run one after the other, each in
   ranges of at most `items` particles of one object. Each part writes only its particles' own
   omega, scratchV or v and reads the others' from the part before (see above), so cutting a
   part into ranges changes no bit, as its threads' blocks do not. */
int pbd_Fluid_VelocitiesUnit(pbdWorld* w, pbdFluid* f, int32_t items, int whole)
{
	const int curl = f->k.vorticity > 0.0f, xsph = f->k.viscosity > 0.0f;
	if (f->velPart == 0) {
		if (!(curl || xsph) || !Ready(w, f)) return 1;
		f->velPart = 1, f->velObject = 0, f->velBegin = 0;
	}
	do {
		if (f->velPart == 2 && !curl) f->velPart = 3;
		if (f->velObject >= f->objectCount) {
			f->velObject = 0, f->velBegin = 0;
			if (++f->velPart > 3) break;
			continue;
		}
		const pbdFluidObject* ob = &f->objects[f->velObject];
		const int32_t left = ob->active - f->velBegin;
		/* the write-back is a copy: one unit for each object */
		const int32_t n = whole || f->velPart == 3 || left <= items ? left : items;
		if (n > 0) {
			VelocityBlock b = { w, f, ob->first + f->velBegin, curl, xsph };
			pbd_Parallel_For(w, n, PBD_FLUID_VELOCITY_BLOCK, f->velPart == 1 ? Pass1Block : f->velPart == 2 ? ConfineBlock : WriteBackBlock, &b);
		}
		f->velBegin += n > 0 ? n : 0;
		if (f->velBegin >= ob->active) f->velObject += 1, f->velBegin = 0;
		if (n > 0 && !whole) break;
	} while (f->velPart <= 3);
	/* done when the write-back has no object left */
	while (f->velPart == 3 && f->velObject < f->objectCount && f->objects[f->velObject].active <= 0) f->velObject += 1;
	if (f->velPart > 3 || (f->velPart == 3 && f->velObject >= f->objectCount)) {
		f->velPart = 0, f->velObject = 0, f->velBegin = 0;
		return 1;
	}
	return 0;
}
