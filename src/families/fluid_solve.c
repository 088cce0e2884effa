/* families/fluid_solve.c -- the density constraint of Position Based Fluids (Macklin & Mueller 2013,
   seed 002), with the solid particles' share (Macklin et al. 2014, "Unified Particle Physics", 7.1).

   With m_j' = m for a fluid neighbour (m = rho0 d^3) and rho0 V_j for a solid one (V_j = (2 r_o)^3,
   fluid_state.h props: s_j = m_j' / m), and the fitted Poly6 W (fluid.c Fluid_Lattice):
       rho_i / rho0 = d^3 sum_j s_j W(r_ij)  (j = i included)                       (MM13 eq. 2)
       C_i = max(rho_i / rho0 - 1, 0)    unilateral: seed 002's pitfall "surface particles lack
                                         neighbours", so the free surface never pulls inward
       grad_j C_i = -(m_j' / rho0) grad W(p_i - p_j),  grad_i C_i = sum_j (m_j' / rho0) grad W  (eq. 8)
       lambda_i = -C_i / (sum_k w_hat_k |grad_k C_i|^2 + epsilon)                   (eq. 11)
   where w_hat_k = w_k / w_fluid is seed 000's mass weighting (1 for fluid, m / M_k for a solid
   particle of mass M_k, 0 for a pin), and the corrections                           (eq. 14)
       dp_i (fluid) = w_hat_i sum_j (m_j' / rho0) (lambda_i + lambda_j + s_corr_ij) grad W(p_i - p_j)
       dp_j (solid) = w_hat_j (m_j' / rho0) sum_i lambda_i grad W(p_j - p_i)
   (lambda_j = s_corr = 0 for a solid j). A pair's two terms are the same numbers with opposite
   signs (p_i - p_j = -(p_j - p_i) exactly in float, and the same r, hence the same factor), so
   m_i dp_i + m_j dp_j = 0 pair by pair: linear momentum is kept up to the summation's rounding.
   s_corr_ij = -k (W(r) / W(dq h))^n (eq. 13), k in lambda's units (fluid.c).

   Fluid-solid contact (the arch's colour 1): a fluid and a solid particle closer than r_f + r_s
   are pushed apart along their centre line, split by w_hat, and each particle's contact pushes are
   averaged (Macklin et al. 2014 section 4.2, Jacobi with averaging), so water does not pass
   between a cloth's particles even where the density term is weak.

   The loops run 4 list entries at a time (the lists are padded to quads with the particle itself,
   lanes past the count masked): the neighbours' positions and props are gathered into lanes by one
   transpose each. Only + - * / sqrt, in a fixed order: the scalar build (pbdF4 as a struct) and
   wasm SIMD give the same bits. The density pass caches each entry's gradient factor (one sqrt
   and one division per entry per pass), read back by the correction pass of the same pass (and by
   the velocity passes, fluid_velocity.c). The correction of a fluid particle tells fluid and solid
   lanes apart by that cache (entryAux's sign) and gathers the props only for quads with a solid
   lane (natively at 8k: 0.40 -> 0.24 ms a pass); the density pass masks lanes past the count only
   in the last quad. The density pass takes a list's props as the constants (1, 1, 1) when every entry is a free
   fluid particle: known for the whole world when no list holds a solid and no fluid particle is pinned (BuildOrder),
   else per particle from the substep's first pass, which gathered them (plainList). At the tank scenes' 3 x 4 a
   step takes 0.968 of the time for a dam break, 0.938 for the swirl, 0.967 for the floating blocks and 0.994 for
   the hammock (wasm, bench/ab.mjs --cpu, medians of 11). A loop compiled apart for each case gave 0.925, 0.914
   and 0.955, but put the element 0.7 KB gzip over its 180 KB (weight.test.mjs), so the test is one branch a quad.
   None of these changes a bit. */
#include "families/fluid_state.h"
#include "base/simd.h"

static inline float Sum4(pbdF4 a) { return (pbdF4_Get(a, 0) + pbdF4_Get(a, 1)) + (pbdF4_Get(a, 2) + pbdF4_Get(a, 3)); }

/* Four particles' float4 rows of `base` into lanes (x4, y4, z4, w4). */
static inline void Gather4(const float* base, const int32_t* idx, pbdF4* X, pbdF4* Y, pbdF4* Z, pbdF4* W)
{
	*X = pbdF4_Load(base + 4 * idx[0]);
	*Y = pbdF4_Load(base + 4 * idx[1]);
	*Z = pbdF4_Load(base + 4 * idx[2]);
	*W = pbdF4_Load(base + 4 * idx[3]);
	pbdF4_Transpose(X, Y, Z, W);
}

/* Lanes t .. t + 3 of a list of n: lane < n. */
static inline pbdMask4 LaneMask(int32_t t, int32_t n)
{
	const pbdF4 lane = pbdF4_Add(pbdF4_Set(0.0f, 1.0f, 2.0f, 3.0f), pbdF4_Splat((float)t));
	return pbdF4_Greater(pbdF4_Splat((float)n), lane);
}

/* x^n for the small integer n of s_corr */
static inline pbdF4 PowN(pbdF4 x, int32_t n)
{
	pbdF4 r = x;
	for (int32_t k = 1; k < n; ++k) r = pbdF4_Mul(r, x);
	return r;
}

/* The walls' share in rho_i / rho0 at position p (fluid.c Fluid_WallTable) and its slope along the
   wall's normal, from the plane found at the substep's start. */
static inline float Wall(const pbdFluidKernel* k, const float* b, const float* p, float* slope)
{
	float phi = ((b[0] * p[0] + b[1] * p[1]) + b[2] * p[2]) + b[3];
	*slope = 0.0f;
	if (!(phi < k->h)) return 0.0f; /* also NaN */
	phi = phi > 0.0f ? phi : 0.0f;
	const float s = phi * k->wallInvStep;
	int32_t at = (int32_t)s;
	at = at < PBD_FLUID_WALL_SAMPLES ? at : PBD_FLUID_WALL_SAMPLES - 1;
	const float a = k->wall[at], e = k->wall[at + 1] - a;
	*slope = e * k->wallInvStep;
	return a + e * (s - (float)at);
}

/* rho_i / rho0, lambda_i, and the entries' cache (when grad != NULL). plain: every entry
   is a free fluid particle (fluid.c BuildOrder), whose props (w_hat, s, fluid) are 1, 1, 1: taken as constants
   rather than gathered, the same products (x 1 is exact), so the same bits. */
static inline float DensityWith(const pbdFluid* f, const float* pos, int32_t i, float* lambdaOut, float* grad, float* aux,
								int plain, uint8_t* plainOut)
{
	const pbdFluidKernel* k = &f->k;
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* indices = f->lists.indices + start;
	const pbdF4 xi = pbdF4_Splat(pos[4 * i]), yi = pbdF4_Splat(pos[4 * i + 1]), zi = pbdF4_Splat(pos[4 * i + 2]);
	const pbdF4 h = pbdF4_Splat(k->h), h2 = pbdF4_Splat(k->h2), one = pbdF4_Splat(1.0f), zero = pbdF4_Splat(0.0f);
	const pbdF4 half = pbdF4_Splat(0.5f), gradScale = pbdF4_Splat(k->gradScale);
	const pbdF4 invW = pbdF4_Splat(k->scorrInvW), scorrK = pbdF4_Splat(k->scorrK);
	pbdF4 accW = zero, gx = zero, gy = zero, gz = zero, den = zero;
	uint32_t lanesPlain = 15u;
	const int32_t whole = n & ~3; /* quads before it are all list entries: no lane mask */
	for (int32_t t = 0; t < n; t += 4) {
		pbdF4 X, Y, Z, Wp, WH = one, S = one, FL = one, RAD = zero;
		Gather4(pos, indices + t, &X, &Y, &Z, &Wp);
		if (!plain) {
			Gather4(f->props, indices + t, &WH, &S, &FL, &RAD);
			lanesPlain &= pbdF4_LessBits(half, WH) & pbdF4_LessBits(half, FL); /* a free fluid particle */
		}
		const pbdF4 dx = pbdF4_Sub(xi, X), dy = pbdF4_Sub(yi, Y), dz = pbdF4_Sub(zi, Z);
		const pbdF4 r2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz));
		const pbdMask4 near = pbdF4_Greater(h2, r2);
		const pbdMask4 live = t < whole ? near : pbdMask4_And(near, LaneMask(t, n));
		const pbdF4 q = pbdF4_Sub(h2, r2);
		const pbdF4 q3 = pbdF4_Keep(live, pbdF4_Mul(pbdF4_Mul(q, q), q));
		accW = pbdF4_Add(accW, pbdF4_Mul(S, q3));
		if (grad == NULL) continue;
		/* coincident particles (r = 0) have no direction: no gradient, no contact */
		const pbdF4 r = pbdF4_Sqrt(pbdF4_Keep(live, r2));
		const pbdMask4 apart = pbdMask4_And(live, pbdF4_Greater(r, zero));
		const pbdF4 rs = pbdF4_Select(apart, r, one);
		const pbdF4 hr = pbdF4_Sub(h, r);
		const pbdF4 G = pbdF4_Keep(apart, pbdF4_Div(pbdF4_Mul(pbdF4_Mul(pbdF4_Mul(gradScale, S), hr), hr), rs));
		gx = pbdF4_Add(gx, pbdF4_Mul(G, dx));
		gy = pbdF4_Add(gy, pbdF4_Mul(G, dy));
		gz = pbdF4_Add(gz, pbdF4_Mul(G, dz));
		den = pbdF4_Add(den, pbdF4_Mul(WH, pbdF4_Mul(pbdF4_Mul(G, G), r2))); /* w_hat_j |grad_j C_i|^2 */
		const pbdMask4 fluid = pbdF4_Greater(FL, half);
		const pbdF4 scorr = pbdF4_Keep(live, pbdF4_Sub(zero, pbdF4_Mul(scorrK, PowN(pbdF4_Mul(q3, invW), k->scorrN))));
		pbdF4_Store(grad + t, G);
		pbdF4_Store(aux + t, pbdF4_Select(fluid, scorr, r));
	}
	if (plainOut != NULL) *plainOut = (uint8_t)(lanesPlain == 15u);
	const float h2s = k->h2;
	const float* b = f->boundary + 4 * i;
	float slope;
	const float wall = Wall(k, b, pos + 4 * i, &slope);
	const float rho = k->rhoScale * (h2s * h2s * h2s + Sum4(accW)) + wall; /* the particle itself: s = 1, r = 0 */
	if (lambdaOut != NULL) {
		const float C = rho > 1.0f ? rho - 1.0f : 0.0f;
		const float gix = Sum4(gx) + slope * b[0], giy = Sum4(gy) + slope * b[1], giz = Sum4(gz) + slope * b[2];
		const float wi = f->props[4 * i];
		const float d = wi * ((gix * gix + giy * giy) + giz * giz) + Sum4(den) + k->epsilon;
		*lambdaOut = C > 0.0f && d > 0.0f ? -C / d : 0.0f;
	}
	return rho;
}

static inline float Density(const pbdFluid* f, const float* pos, int32_t i, float* lambdaOut, float* grad, float* aux)
{
	return DensityWith(f, pos, i, lambdaOut, grad, aux, f->plain, NULL);
}

float pbd_Fluid_DensityAt(const pbdFluid* f, const float* positions, int32_t i)
{
	return Density(f, positions, i, NULL, NULL, NULL);
}

void pbd_Fluid_SolveDensity(pbdWorld* w, pbdFluid* f, const float* positions, int32_t begin, int32_t end, int learned)
{
	(void)w;
	for (int32_t o = begin; o < end; ++o) {
		const int32_t i = f->order[o];
		const int32_t start = f->lists.start[i];
		float *lambda = &f->lambda[i], *grad = f->entryGrad + start, *aux = f->entryAux + start;
		/* a list of free fluid particles only: known from the whole world's (BuildOrder), or from this substep's
		   first pass, which gathered the props and wrote what it saw */
		const int plain = f->plain || (learned && f->plainList[i]);
		f->density[i] = DensityWith(f, positions, i, lambda, grad, aux, plain, plain ? NULL : f->plainList + i);
	}
	/* one writer when the step's threads share the pass out (the block at 0), and no reader
	   until the pass has joined */
	if (begin == 0) f->gradCached = 1;
}

/* How deep fluid particle pi is on the wrong side of cloth particle pj's surface (fluid_sheets.c):
   reach - s (p_i - p_j) . n_j when that is > 0 and p_i is over j's patch, else 0. Both sides of the
   pair call it with the same arguments, so they see the same depth to the bit. */
static inline float SheetDepth(const float* pi, const float* pj, const float* sheet, float side, float reach)
{
	const float dx = pi[0] - pj[0], dy = pi[1] - pj[1], dz = pi[2] - pj[2];
	const float dn = side * ((dx * sheet[0] + dy * sheet[1]) + dz * sheet[2]);
	const float t2 = ((dx * dx + dy * dy) + dz * dz) - dn * dn;
	return t2 < sheet[3] * sheet[3] && dn < reach ? reach - dn : 0.0f;
}

/* delta of fluid particle i: the pressure terms from the cache, contacts with solid neighbours;
   sheets (a constant at each call): its list holds cloth particles, whose entries (entrySide != 0)
   take the sheet contact instead of the sphere one. */
static inline void CorrectFluidWith(pbdFluid* f, const float* pos, int32_t i, const int sheets)
{
	const pbdFluidKernel* k = &f->k;
	const int32_t start = f->lists.start[i], n = f->lists.count[i];
	const int32_t* indices = f->lists.indices + start;
	const float* grad = f->entryGrad + start;
	const float* aux = f->entryAux + start;
	const pbdF4 xi = pbdF4_Splat(pos[4 * i]), yi = pbdF4_Splat(pos[4 * i + 1]), zi = pbdF4_Splat(pos[4 * i + 2]);
	const pbdF4 zero = pbdF4_Splat(0.0f), one = pbdF4_Splat(1.0f), half = pbdF4_Splat(0.5f);
	const pbdF4 lambdaI = pbdF4_Splat(f->lambda[i]);
	const float wiS = f->props[4 * i];
	const pbdF4 wi = pbdF4_Splat(wiS), ri = pbdF4_Splat(k->radius);
	pbdF4 ax = zero, ay = zero, az = zero, cx = zero, cy = zero, cz = zero, cn = zero;
	for (int32_t t = 0; t < n; t += 4) {
		const int32_t* idx = indices + t;
		pbdF4 X, Y, Z, Wp;
		Gather4(pos, idx, &X, &Y, &Z, &Wp);
		const pbdF4 lambdaJ = pbdF4_Set(f->lambda[idx[0]], f->lambda[idx[1]], f->lambda[idx[2]], f->lambda[idx[3]]);
		const pbdF4 dx = pbdF4_Sub(xi, X), dy = pbdF4_Sub(yi, Y), dz = pbdF4_Sub(zi, Z);
		const pbdF4 G = pbdF4_Load(grad + t), A = pbdF4_Load(aux + t);
		/* the cache tells the lanes apart without the props: A = s_corr <= 0 on a fluid lane, A = r > 0
		   on a live solid lane, 0 on a dead one (G = 0 there). G is 0 on dead lanes; a solid lane has
		   lambda_j = 0 and no s_corr. */
		const pbdF4 coef = pbdF4_Mul(G, pbdF4_Add(pbdF4_Add(lambdaI, lambdaJ), pbdF4_Keep(pbdF4_GreaterEq(zero, A), A)));
		ax = pbdF4_Add(ax, pbdF4_Mul(coef, dx));
		ay = pbdF4_Add(ay, pbdF4_Mul(coef, dy));
		az = pbdF4_Add(az, pbdF4_Mul(coef, dz));
		/* contact with a solid lane closer than r_f + r_s (A = r > 0 only on live solid lanes): most
		   quads have none, and skip the props and the division (their lanes would add +0) */
		if (pbdF4_LessBits(zero, A) == 0) continue;
		pbdF4 WH, S, FL, RAD;
		Gather4(f->props, idx, &WH, &S, &FL, &RAD);
		const pbdF4 reach = pbdF4_Add(ri, RAD), wsum = pbdF4_Add(wi, WH);
		pbdMask4 hit = pbdMask4_And(pbdMask4_And(pbdF4_Greater(half, FL), pbdF4_Greater(A, zero)),
									pbdMask4_And(pbdF4_Greater(reach, A), pbdF4_Greater(wsum, zero)));
		if (sheets) {
			const pbdF4 side = pbdF4_Load(f->entrySide + start + t);
			hit = pbdMask4_And(hit, pbdF4_Greater(half, pbdF4_Mul(side, side)));
		}
		const pbdF4 As = pbdF4_Select(hit, A, one), ws = pbdF4_Select(hit, wsum, one);
		const pbdF4 push = pbdF4_Keep(hit, pbdF4_Div(pbdF4_Mul(pbdF4_Sub(reach, A), wi), pbdF4_Mul(As, ws)));
		cx = pbdF4_Add(cx, pbdF4_Mul(push, dx));
		cy = pbdF4_Add(cy, pbdF4_Mul(push, dy));
		cz = pbdF4_Add(cz, pbdF4_Mul(push, dz));
		cn = pbdF4_Add(cn, pbdF4_Keep(hit, one));
	}
	/* the wall: lambda_i grad_i rho_b, constraint i's own share and nothing more (the wall has no constraint of
	   its own). Mirroring lambda_i onto the wall, (lambda_i + lambda_i) grad rho_b as Akinci et al. 2012 mirror a
	   boundary particle's pressure in SPH, pushed each particle beside a wall twice as far as its projection asks:
	   a resting 0.3 m tank at 2 x 4 then boiled at 24 cm/s rms, forever; with the projection's own share, 3.0 cm/s
	   (issue 22 item 3, tests/c/test_fluid.c FluidTankComesToRest). */
	const float* b = f->boundary + 4 * i;
	float slope;
	Wall(k, b, pos + 4 * i, &slope);
	const float wl = f->lambda[i] * slope;
	float contacts = Sum4(cn), sx = Sum4(cx), sy = Sum4(cy), sz = Sum4(cz);
	if (sheets) {
		/* the sheet contacts, entry by entry (few: the cloth particles within h) */
		const float* side = f->entrySide + start;
		for (int32_t t = 0; t < n; ++t) {
			if (side[t] == 0.0f) continue;
			const int32_t j = indices[t];
			const float* pj = f->props + 4 * j;
			const float wsum = wiS + pj[0];
			const float depth = SheetDepth(pos + 4 * i, pos + 4 * j, f->sheet + 4 * j, side[t], k->radius + pj[3]);
			if (!(depth > 0.0f) || !(wsum > 0.0f)) continue;
			const float* nj = f->sheet + 4 * j;
			const float push = side[t] * (depth * wiS / wsum);
			sx += push * nj[0], sy += push * nj[1], sz += push * nj[2];
			contacts += 1.0f;
		}
		/* the remembered cloth particles no longer in i's list (fluid_sheets.c Remember): a gap
		   stretched wider than h. j does not see the pair, so i alone takes the whole depth (j as
		   a wall): a one-sided contact, the cloth's share of the water's weight there is lost */
		const uint8_t extra = f->sheetExtra[i];
		for (int32_t e = 0; extra != 0 && e < PBD_SHEET_MEMORY; ++e) {
			if (!((extra >> e) & 1u)) continue;
			const int32_t m = f->sheetMemory[PBD_SHEET_MEMORY * i + e];
			const int32_t j = (m > 0 ? m : -m) - 1;
			const float s = m > 0 ? 1.0f : -1.0f;
			const float depth = SheetDepth(pos + 4 * i, pos + 4 * j, f->sheet + 4 * j, s, k->radius + f->props[4 * j + 3]);
			if (!(depth > 0.0f) || !(wiS > 0.0f)) continue;
			const float* nj = f->sheet + 4 * j;
			const float push = s * depth;
			sx += push * nj[0], sy += push * nj[1], sz += push * nj[2];
			contacts += 1.0f;
		}
	}
	const float inv = contacts > 0.0f ? 1.0f / contacts : 0.0f;
	float* d = f->delta + 4 * i;
	d[0] = wiS * (Sum4(ax) + wl * b[0]) + sx * inv;
	d[1] = wiS * (Sum4(ay) + wl * b[1]) + sy * inv;
	d[2] = wiS * (Sum4(az) + wl * b[2]) + sz * inv;
	d[3] = 0.0f;
}

static void CorrectFluid(pbdFluid* f, const float* pos, int32_t i) { CorrectFluidWith(f, pos, i, 0); }
static void CorrectFluidNearSheet(pbdFluid* f, const float* pos, int32_t i) { CorrectFluidWith(f, pos, i, 1); }

/* delta of solid particle j from its fluid neighbours: the same pair terms seen from j, and contacts. */
static inline void CorrectSolid(pbdFluid* f, const float* pos, int32_t j)
{
	const pbdFluidKernel* k = &f->k;
	const int32_t start = f->lists.start[j], n = f->lists.count[j];
	const int32_t* indices = f->lists.indices + start;
	const pbdF4 xj = pbdF4_Splat(pos[4 * j]), yj = pbdF4_Splat(pos[4 * j + 1]), zj = pbdF4_Splat(pos[4 * j + 2]);
	const pbdF4 h = pbdF4_Splat(k->h), h2 = pbdF4_Splat(k->h2), zero = pbdF4_Splat(0.0f), one = pbdF4_Splat(1.0f);
	const float* pj = f->props + 4 * j;
	const float wjS = pj[0];
	const pbdF4 wj = pbdF4_Splat(wjS), gs = pbdF4_Mul(pbdF4_Splat(k->gradScale), pbdF4_Splat(pj[1]));
	const pbdF4 reach = pbdF4_Add(pbdF4_Splat(k->radius), pbdF4_Splat(pj[3]));
	/* a cloth particle with a surface here takes the sheet contact instead (fluid_sheets.c) */
	const int sheet = f->sheet[4 * j + 3] > 0.0f;
	const pbdMask4 notSheet = pbdF4_Greater(pbdF4_Splat(sheet ? 0.0f : 1.0f), zero);
	pbdF4 ax = zero, ay = zero, az = zero, cx = zero, cy = zero, cz = zero, cn = zero;
	for (int32_t t = 0; t < n; t += 4) {
		const int32_t* idx = indices + t;
		pbdF4 X, Y, Z, Wp, WH, S, FL, RAD;
		Gather4(pos, idx, &X, &Y, &Z, &Wp);
		Gather4(f->props, idx, &WH, &S, &FL, &RAD);
		const pbdF4 lambdaI = pbdF4_Set(f->lambda[idx[0]], f->lambda[idx[1]], f->lambda[idx[2]], f->lambda[idx[3]]);
		const pbdF4 dx = pbdF4_Sub(xj, X), dy = pbdF4_Sub(yj, Y), dz = pbdF4_Sub(zj, Z);
		const pbdF4 r2 = pbdF4_Add(pbdF4_Add(pbdF4_Mul(dx, dx), pbdF4_Mul(dy, dy)), pbdF4_Mul(dz, dz));
		const pbdMask4 live = pbdMask4_And(pbdF4_Greater(h2, r2), LaneMask(t, n));
		const pbdF4 r = pbdF4_Sqrt(pbdF4_Keep(live, r2));
		const pbdMask4 apart = pbdMask4_And(live, pbdF4_Greater(r, zero));
		const pbdF4 rs = pbdF4_Select(apart, r, one);
		const pbdF4 hr = pbdF4_Sub(h, r);
		/* the fluid side's G of this pair, to the bit: ((gradScale s_j) (h - r)) (h - r) / r */
		const pbdF4 G = pbdF4_Keep(apart, pbdF4_Div(pbdF4_Mul(pbdF4_Mul(gs, hr), hr), rs));
		const pbdF4 coef = pbdF4_Mul(G, lambdaI);
		ax = pbdF4_Add(ax, pbdF4_Mul(coef, dx));
		ay = pbdF4_Add(ay, pbdF4_Mul(coef, dy));
		az = pbdF4_Add(az, pbdF4_Mul(coef, dz));
		const pbdF4 wsum = pbdF4_Add(wj, WH);
		const pbdMask4 hit = pbdMask4_And(pbdMask4_And(apart, notSheet),
										  pbdMask4_And(pbdF4_Greater(reach, r), pbdF4_Greater(wsum, zero)));
		const pbdF4 ws = pbdF4_Select(hit, wsum, one);
		const pbdF4 push = pbdF4_Keep(hit, pbdF4_Div(pbdF4_Mul(pbdF4_Sub(reach, r), wj), pbdF4_Mul(rs, ws)));
		cx = pbdF4_Add(cx, pbdF4_Mul(push, dx));
		cy = pbdF4_Add(cy, pbdF4_Mul(push, dy));
		cz = pbdF4_Add(cz, pbdF4_Mul(push, dz));
		cn = pbdF4_Add(cn, pbdF4_Keep(hit, one));
	}
	float contacts = Sum4(cn), sx = Sum4(cx), sy = Sum4(cy), sz = Sum4(cz);
	if (sheet) {
		const float* side = f->entrySide + start;
		const float* nj = f->sheet + 4 * j;
		const float reachS = k->radius + pj[3];
		for (int32_t t = 0; t < n; ++t) {
			const int32_t i = indices[t];
			const float wsum = wjS + f->props[4 * i];
			const float depth = SheetDepth(pos + 4 * i, pos + 4 * j, nj, side[t], reachS);
			if (!(depth > 0.0f) || !(wsum > 0.0f)) continue;
			const float push = side[t] * (depth * wjS / wsum);
			sx -= push * nj[0], sy -= push * nj[1], sz -= push * nj[2];
			contacts += 1.0f;
		}
	}
	const float inv = contacts > 0.0f ? 1.0f / contacts : 0.0f;
	float* d = f->delta + 4 * j;
	d[0] = wjS * Sum4(ax) + sx * inv;
	d[1] = wjS * Sum4(ay) + sy * inv;
	d[2] = wjS * Sum4(az) + sz * inv;
	d[3] = 0.0f;
}

void pbd_Fluid_SolveCorrect(pbdWorld* w, pbdFluid* f, const float* positions, int32_t begin, int32_t end)
{
	(void)w;
	const int32_t split = f->fluidCount;
	for (int32_t o = begin; o < end; ++o) {
		if (o >= split) CorrectSolid(f, positions, f->order[o]);
		else if (f->nearSheet[f->order[o]]) CorrectFluidNearSheet(f, positions, f->order[o]);
		else CorrectFluid(f, positions, f->order[o]);
	}
}

void pbd_Fluid_Apply(pbdWorld* w, pbdFluid* f, float* positions, int32_t begin, int32_t end)
{
	(void)w;
	for (int32_t o = begin; o < end; ++o) {
		const int32_t i = f->order[o];
		/* delta.w = 0: p.w (the weight) stays */
		pbdF4_Store(positions + 4 * i, pbdF4_Add(pbdF4_Load(positions + 4 * i), pbdF4_Load(f->delta + 4 * i)));
	}
}

/* The statistics' density sums (fluid.c's measure in the step, fluid_queries.c's fresh search): here, beside
   pbd_Fluid_DensityAt, so fluid.c and fluid_queries.c do not call each other both ways. */
void pbd_Fluid_SumDensities(const pbdFluid* f, const float* positions, int32_t begin, int32_t end, pbdDensitySums* sums)
{
	for (int32_t o = begin; o < end; ++o) {
		const float rho = pbd_Fluid_DensityAt(f, positions, f->order[o]);
		sums->sum += rho;
		sums->error += rho > 1.0f ? rho - 1.0f : 0.0f;
		sums->largest = rho > sums->largest ? rho : sums->largest;
		sums->count += 1;
	}
}
