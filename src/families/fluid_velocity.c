/* families/fluid_velocity.c -- the fluid's velocity passes, after v = (p - x) / h (the family's
   `velocities` hook): vorticity confinement, then XSPH viscosity (Macklin & Mueller 2013 section 5,
   eqs. 15-17; seed 002: "PBD projection dissipates kinetic energy ... vorticity confinement puts the
   lost rotation back, then one pass of velocity smoothing").

   Both are Jacobi over the live fluid particles: every new velocity is computed from the old ones
   (into fluid->scratchV) and written back after, so the result does not depend on the particle
   order or on how the range is split. They read the substep's neighbour lists (built by fluid.c on
   the predicted positions; a neighbour that moved past h in the solve contributes 0) and the
   positions p the solve left. Only fluid neighbours count: the solids' share in the fluid is the
   density constraint's (fluid_solve.c), and XSPH between fluid and cloth would drag the cloth with
   a force no one balances.

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

   4 wide: each particle's padded list (neighbours/grid.h) is read a quad at a time, lanes past the
   count or not fluid masked; the lane sums are added (l0 + l1) + (l2 + l3) at the end, the same
   order in the SIMD and the scalar build (base/simd.h), so both give the same bits. Only + - * /
   and sqrt. */
#include "families/fluid_internal.h"
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

/* One quad of particle i's list: r = p_i - p_j and the lanes that count (a live fluid neighbour,
   inside the list, 0 < |r| < h). */
typedef struct Quad {
	const int32_t* idx;
	pbdF4 rx, ry, rz, r2;
	pbdMask4 live;
} Quad;

static inline Quad LoadQuad(const pbdWorld* w, const pbdNeighbourLists* L, int32_t i, int32_t q, pbdF4 pi[3], float h2)
{
	Quad o;
	o.idx = L->indices + L->start[i] + q;
	const int32_t left = L->count[i] - q;
	float ok[4];
	for (int l = 0; l < 4; ++l) {
		const uint32_t ph = w->phase[o.idx[l]];
		ok[l] = (l < left && (ph & PBD_PHASE_FLUID) != 0 && (ph & PBD_PHASE_INACTIVE) == 0) ? 1.0f : 0.0f;
	}
	pbdF4 x, y, z;
	Gather(w->p, o.idx, &x, &y, &z);
	o.rx = pbdF4_Sub(pi[0], x), o.ry = pbdF4_Sub(pi[1], y), o.rz = pbdF4_Sub(pi[2], z);
	o.r2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(o.rx, o.rx), pbdF4_Mul(o.ry, o.ry)), pbdF4_Mul(o.rz, o.rz));
	const pbdF4 zero = pbdF4_Splat(0.0f);
	o.live = pbdMask4_And(pbdF4_Greater(pbdF4_Set(ok[0], ok[1], ok[2], ok[3]), pbdF4_Splat(0.5f)),
						  pbdMask4_And(pbdF4_Greater(o.r2, zero), pbdF4_Greater(pbdF4_Splat(h2), o.r2)));
	return o;
}

/* The spiky gradient's scale: grad_i W(r_ij) = g r_ij with g = spiky (h - |r|)^2 / |r| (0 on dead
   lanes; |r| replaced by 1 there first, so no lane divides by 0). */
static inline pbdF4 SpikyScale(const Quad* o, const pbdFluidKernel* k)
{
	const pbdF4 r = pbdF4_Sqrt(pbdF4_Select(o->live, o->r2, pbdF4_Splat(1.0f)));
	const pbdF4 hr = pbdF4_Sub(pbdF4_Splat(k->h), r);
	return pbdF4_Keep(o->live, pbdF4_Div(pbdF4_Mul(pbdF4_Splat(k->spiky), pbdF4_Mul(hr, hr)), r));
}

static inline void Splat3(const float* a, pbdF4 out[3])
{
	out[0] = pbdF4_Splat(a[0]), out[1] = pbdF4_Splat(a[1]), out[2] = pbdF4_Splat(a[2]);
}

/* omega_i = curl v at i = sum_j V grad_i W_ij x (v_j - v_i) (the SPH curl; eq. 15 has it as
   v_ij x grad_j W_ij, the same vector). omega[4 i + 3] = |omega_i|. */
static void Curl(pbdWorld* w, pbdFluid* f, int32_t i)
{
	const pbdFluidKernel* k = &f->k;
	const pbdNeighbourLists* L = &f->lists;
	pbdF4 pi[3], vi[3];
	Splat3(w->p + 4 * i, pi);
	Splat3(w->v + 4 * i, vi);
	pbdF4 cx = pbdF4_Splat(0.0f), cy = cx, cz = cx;
	for (int32_t q = 0; q < L->count[i]; q += 4) {
		const Quad o = LoadQuad(w, L, i, q, pi, k->h2);
		const pbdF4 g = SpikyScale(&o, k);
		pbdF4 vx, vy, vz;
		Gather(w->v, o.idx, &vx, &vy, &vz);
		vx = pbdF4_Sub(vx, vi[0]), vy = pbdF4_Sub(vy, vi[1]), vz = pbdF4_Sub(vz, vi[2]);
		/* (g r) x dv */
		cx = pbdF4_Add(cx, pbdF4_Mul(g, pbdF4_Sub(pbdF4_Mul(o.ry, vz), pbdF4_Mul(o.rz, vy))));
		cy = pbdF4_Add(cy, pbdF4_Mul(g, pbdF4_Sub(pbdF4_Mul(o.rz, vx), pbdF4_Mul(o.rx, vz))));
		cz = pbdF4_Add(cz, pbdF4_Mul(g, pbdF4_Sub(pbdF4_Mul(o.rx, vy), pbdF4_Mul(o.ry, vx))));
	}
	const float V = k->d * k->d * k->d;
	float* om = f->omega + 4 * i;
	om[0] = V * Sum4(cx), om[1] = V * Sum4(cy), om[2] = V * Sum4(cz);
	om[3] = sqrtf(om[0] * om[0] + om[1] * om[1] + om[2] * om[2]);
}

/* eta_i = grad |omega| at i = sum_j V (|omega_j| - |omega_i|) grad_i W_ij; N = eta / |eta|;
   v_i += e h (N x omega_i) (eq. 16, with the scaling in the header). */
static void Confine(pbdWorld* w, pbdFluid* f, int32_t i)
{
	const pbdFluidKernel* k = &f->k;
	const pbdNeighbourLists* L = &f->lists;
	const float* om = f->omega + 4 * i;
	const float* v = w->v + 4 * i;
	float* out = f->scratchV + 4 * i;
	out[0] = v[0], out[1] = v[1], out[2] = v[2], out[3] = v[3];
	if (!(om[3] > 0.0f)) return;
	pbdF4 pi[3];
	Splat3(w->p + 4 * i, pi);
	const pbdF4 si = pbdF4_Splat(om[3]);
	pbdF4 ex = pbdF4_Splat(0.0f), ey = ex, ez = ex;
	for (int32_t q = 0; q < L->count[i]; q += 4) {
		const Quad o = LoadQuad(w, L, i, q, pi, k->h2);
		const pbdF4 g = SpikyScale(&o, k);
		const pbdF4 sj = pbdF4_Set(f->omega[4 * o.idx[0] + 3], f->omega[4 * o.idx[1] + 3], f->omega[4 * o.idx[2] + 3],
								   f->omega[4 * o.idx[3] + 3]);
		const pbdF4 s = pbdF4_Keep(o.live, pbdF4_Mul(g, pbdF4_Sub(sj, si)));
		ex = pbdF4_Add(ex, pbdF4_Mul(s, o.rx));
		ey = pbdF4_Add(ey, pbdF4_Mul(s, o.ry));
		ez = pbdF4_Add(ez, pbdF4_Mul(s, o.rz));
	}
	/* V > 0 scales eta but not its direction N: left out. */
	const float nx = Sum4(ex), ny = Sum4(ey), nz = Sum4(ez);
	const float n2 = nx * nx + ny * ny + nz * nz;
	if (!(n2 > 0.0f)) return; /* |omega| uniform around i: no core to confine toward */
	const float scale = k->vorticity * k->h / sqrtf(n2);
	out[0] = v[0] + scale * (ny * om[2] - nz * om[1]);
	out[1] = v[1] + scale * (nz * om[0] - nx * om[2]);
	out[2] = v[2] + scale * (nx * om[1] - ny * om[0]);
}

/* XSPH, eq. 17 with V = d^3: v_i + c sum_j V W_ij (v_j - v_i). */
static void Smooth(pbdWorld* w, pbdFluid* f, int32_t i)
{
	const pbdFluidKernel* k = &f->k;
	const pbdNeighbourLists* L = &f->lists;
	pbdF4 pi[3], vi[3];
	Splat3(w->p + 4 * i, pi);
	Splat3(w->v + 4 * i, vi);
	const pbdF4 h2 = pbdF4_Splat(k->h2), poly6 = pbdF4_Splat(k->poly6);
	pbdF4 sx = pbdF4_Splat(0.0f), sy = sx, sz = sx;
	for (int32_t q = 0; q < L->count[i]; q += 4) {
		const Quad o = LoadQuad(w, L, i, q, pi, k->h2);
		const pbdF4 t = pbdF4_Sub(h2, o.r2);
		const pbdF4 W = pbdF4_Keep(o.live, pbdF4_Mul(poly6, pbdF4_Mul(pbdF4_Mul(t, t), t)));
		pbdF4 vx, vy, vz;
		Gather(w->v, o.idx, &vx, &vy, &vz);
		sx = pbdF4_Add(sx, pbdF4_Mul(W, pbdF4_Sub(vx, vi[0])));
		sy = pbdF4_Add(sy, pbdF4_Mul(W, pbdF4_Sub(vy, vi[1])));
		sz = pbdF4_Add(sz, pbdF4_Mul(W, pbdF4_Sub(vz, vi[2])));
	}
	const float cV = k->viscosity * (k->d * k->d * k->d);
	const float* v = w->v + 4 * i;
	float* out = f->scratchV + 4 * i;
	out[0] = v[0] + cV * Sum4(sx);
	out[1] = v[1] + cV * Sum4(sy);
	out[2] = v[2] + cV * Sum4(sz);
	out[3] = v[3];
}

static int Ready(const pbdFluid* f)
{
	return f->listsValid && f->lists.start != NULL && f->omega != NULL && f->scratchV != NULL && f->k.h > 0.0f && f->k.d > 0.0f;
}

/* scratchV -> v for the live fluid particles (the Jacobi write-back). */
static void WriteBack(pbdWorld* w, pbdFluid* f)
{
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* ob = &f->objects[o];
		for (int32_t i = ob->first; i < ob->first + ob->active; ++i) memcpy(w->v + 4 * i, f->scratchV + 4 * i, 3 * sizeof(float));
	}
}

void pbd_Fluid_Vorticity(pbdWorld* w, pbdFluid* f, float h)
{
	(void)h; /* the substep length: not read, the push is a share per pass (see the header) */
	if (!Ready(f)) return;
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* ob = &f->objects[o];
		for (int32_t i = ob->first; i < ob->first + ob->active; ++i) Curl(w, f, i);
	}
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* ob = &f->objects[o];
		for (int32_t i = ob->first; i < ob->first + ob->active; ++i) Confine(w, f, i);
	}
	WriteBack(w, f);
}

void pbd_Fluid_Viscosity(pbdWorld* w, pbdFluid* f)
{
	if (!Ready(f)) return;
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* ob = &f->objects[o];
		for (int32_t i = ob->first; i < ob->first + ob->active; ++i) Smooth(w, f, i);
	}
	WriteBack(w, f);
}

void pbd_Fluid_Velocities(pbdWorld* w, pbdFluid* f, const pbdStepContext* ctx)
{
	if (f->k.vorticity > 0.0f) pbd_Fluid_Vorticity(w, f, ctx->h);
	if (f->k.viscosity > 0.0f) pbd_Fluid_Viscosity(w, f);
}
