/* families/shapes_motion.c -- what the shapes family does besides its solve: the rigid
   predictor (the forces hook), mass scaling for stacks (findContacts, undone in the update
   hook) and plasticity (the update hook). State: shapes_state.h.

   The rigid predictor. PBD's prediction p = x + h v moves every particle along a straight line,
   so a spinning body's particles fly outward along their tangents and the solve pulls them back
   in, turned by atan(omega h) instead of omega h: the spin loses about (omega h)^2 / 2 of its
   angular momentum per substep (measured: 30% in 2 s at 2 rev/s and 600 substeps a second,
   tests/c/test_shapes.c). So before the prediction, a rigid body's velocities (stiffness 1 and
   no pin: nothing but the body decides its shape) are replaced by the exact chords of a rigid
   motion that keeps its momenta:
       v_i = v_c + (R r_i - r_i) / h,   r_i = x_i - c,
   v_c and c the centre's velocity and position, so p_i = c + h v_c + R r_i (+ h^2 g, the same
   for every particle) is the body turned by R and moved. R, as the unit quaternion (u, s), is
   the rotation whose chords carry the body's angular momentum L:
       sum_i m_i r_i x (R r_i - r_i) / h = L,   that is   2 (s I u + u x I u) = h L,
   I = sum m (|r|^2 1 - r r^T) the inertia about c (r x R r = 2 s r x (u x r) + 2 (u . r)(r x u),
   summed): the discrete rigid body of Moser and Veselov (1991). About a principal axis it is the
   rotation with sin(theta) = |omega| h, omega = I^-1 L; about any other axis that rotation's
   chords would carry L plus (1 - cos theta) / h (n x I n), a sideways error of theta / 2 of L per
   substep that turns L around (measured: 9% in 2 s for the test's spin about a tilted axis).
   So u starts at the principal-axis answer, u = omega h / sqrt(2 (1 + cos theta)),
   cos theta = sqrt(1 - (|omega| h)^2), and four fixed-point steps
       u <- J^-1 (h L / 2 - u x I u) / s + eps J^-1 u,   s = sqrt(1 - |u|^2),
   solve the equation (each step multiplies the error by ~theta: one step leaves 0.5% in 2 s,
   four 1e-4). J = I + eps, eps = 1e-6 tr I, keeps a collinear body's I invertible; the last term
   makes the steps converge to the answer for the true I. The chords' end positions carry L as
   well (sum m R r x (R r - r) = sum m r x R r), so L is kept to rounding, step after step. The
   velocities' other parts (deformation, a contact's push on a few particles) are dropped for
   the body's linear and angular momentum, which those parts do not change. |omega| h is held
   to 1 (a quarter turn per substep: 95 rev/s at 600 substeps a second), past which
   sin(theta) = |omega| h has no solution. Only + - * / and sqrtf (the double square roots below
   refine sqrtf's), so the same bits on every build.

   Plasticity (seed 001 section 5.3; Mueller et al. 2005 section 4.3, with the yield / creep /
   max of FleX and Rapier). After the passes, the body's deformation is
   F = (A_pq + eps R)(A_qq + eps I)^-1, fitted with pins weighing as their free neighbours (eps =
   1e-4 tr A_qq makes F = R across a flat body's missing extent; a rigid motion gives F = R
   exactly), its strain in the rest frame E = sym(R^T F) - I. When |E| (Frobenius) passes
   `yield`, the rest offsets creep toward the deformed shape,
       q_i <- (I + c E) q_i,   c = creep h (|E| - yield) / |E|  (at most 1),
   kept as the plastic deformation P <- (I + c E) P, q_i = P (x0_i - c0), and c is cut back (by
   bisection) so that |P - I| never passes `max`. A linear map keeps the offsets centred; the
   rest size is refreshed from the new offsets. A rigid body (stiffness 1) is exactly in its rest
   shape after its solve, so only what acts after it (colliders, the ground) can strain it:
   plasticity is for bodies of stiffness below 1. */
#include "base/tasks.h"
#include "families/shapes_state.h"
#include "services/materials.h"
#include "families/rotation.h"

#include <math.h>
#include <string.h>

/* sqrt(x) for x >= 0 in double: sqrtf's answer refined by two Newton steps (24 -> 48 -> 53
   bits), so the step uses no libm beyond sqrtf. x <= 0 (or NaN) gives 0. */
static double Sqrt(double x)
{
	if (!(x > 0.0)) return 0.0;
	double r = (double)sqrtf((float)x);
	if (!(r > 0.0)) return 0.0;
	r = 0.5 * (r + x / r);
	return 0.5 * (r + x / r);
}

static void Cross(const double a[3], const double b[3], double out[3])
{
	const double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
	out[0] = x, out[1] = y, out[2] = z;
}

static void Mul3(const double M[9], const double v[3], double out[3])
{
	const double x = M[0] * v[0] + M[1] * v[1] + M[2] * v[2];
	const double y = M[3] * v[0] + M[4] * v[1] + M[5] * v[2];
	const double z = M[6] * v[0] + M[7] * v[1] + M[8] * v[2];
	out[0] = x, out[1] = y, out[2] = z;
}

static double Dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The inverse of the symmetric positive definite J (row-major) by cofactors; 0 when det <= 0. */
static int Inverse(const double J[9], double out[9])
{
	const double c00 = J[4] * J[8] - J[5] * J[5], c01 = J[2] * J[5] - J[1] * J[8], c02 = J[1] * J[5] - J[2] * J[4];
	const double c11 = J[0] * J[8] - J[2] * J[2], c12 = J[1] * J[2] - J[0] * J[5], c22 = J[0] * J[4] - J[1] * J[1];
	const double det = J[0] * c00 + J[1] * c01 + J[2] * c02;
	if (!(det > 0.0)) return 0;
	const double adj[9] = { c00, c01, c02, c01, c11, c12, c02, c12, c22 };
	for (int k = 0; k < 9; ++k) out[k] = adj[k] / det;
	return 1;
}

/* ---------------------------------------------------------------- rigid predictor */

/* (u, s): the rotation whose chords over a substep h carry angular momentum L (see the top). */
static void ChordRotation(const double I[9], const double Lin[3], double h, double u[3], double* s)
{
	u[0] = u[1] = u[2] = 0.0;
	*s = 1.0;
	const double trace = I[0] + I[4] + I[8];
	if (!(trace > 0.0)) return; /* a point: no turn */
	const double eps = 1e-6 * trace;
	double J[9], Jinv[9];
	memcpy(J, I, sizeof J);
	J[0] += eps, J[4] += eps, J[8] += eps;
	if (!Inverse(J, Jinv)) return;
	double L[3] = { Lin[0], Lin[1], Lin[2] }, omega[3];
	Mul3(Jinv, L, omega);
	double wh2 = Dot(omega, omega) * h * h;
	if (!(wh2 > 0.0)) return;
	if (wh2 > 1.0) { /* at most a quarter turn per substep */
		const double f = 1.0 / Sqrt(wh2);
		for (int k = 0; k < 3; ++k) L[k] *= f, omega[k] *= f;
		wh2 = 1.0;
	}
	const double cosTheta = Sqrt(1.0 - wh2);
	const double f = h / Sqrt(2.0 * (1.0 + cosTheta));
	for (int k = 0; k < 3; ++k) u[k] = omega[k] * f;
	for (int it = 0; it < 4; ++it) {
		const double sw = Sqrt(1.0 - Dot(u, u));
		if (!(sw > 0.0)) break;
		double Iu[3], uIu[3], t[3], next[3];
		Mul3(I, u, Iu);
		Cross(u, Iu, uIu);
		for (int k = 0; k < 3; ++k) t[k] = 0.5 * h * L[k] - uIu[k];
		Mul3(Jinv, t, next);
		double Ju[3];
		Mul3(Jinv, u, Ju);
		for (int k = 0; k < 3; ++k) next[k] = next[k] / sw + eps * Ju[k];
		if (!(Dot(next, next) <= 0.5)) break; /* past a quarter turn (or NaN): keep the last */
		memcpy(u, next, sizeof next);
	}
	*s = Sqrt(1.0 - Dot(u, u));
}

/* The sums in double, about the centre: c and v_c first, then L = sum m r x (v - v_c) and I.
   Double, where float4 sums were twice as fast, because products of floats are exact in
   double: a body symmetric about an axis gets exactly no turn about it, where float rounding
   turns it by ~1e-8 rad, and a stack of boxes grows that into a fall (their faces of particles
   are bumpy: tests/c/test_shapes_scenes.c). Then, per particle, v_i = v_c + (R - 1) r_i / h,
   (R - 1) written out so that R r - r has no cancellation. */
static void PredictBody(pbdWorld* w, const pbdShapes* s, pbdBody* b, float hf)
{
	const double h = hf;
	const int32_t end = b->first + b->count;
	const float* x = w->x;
	float* v = w->v;
	double M = 0.0, c[3] = { 0.0, 0.0, 0.0 }, vc[3] = { 0.0, 0.0, 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		const double m = s->offset[4 * i + 3];
		M += m;
		for (int k = 0; k < 3; ++k) c[k] += m * x[4 * i + k], vc[k] += m * v[4 * i + k];
	}
	for (int k = 0; k < 3; ++k) c[k] /= M, vc[k] /= M;
	double L[3] = { 0.0, 0.0, 0.0 }, I[9] = { 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		const double m = s->offset[4 * i + 3];
		const double r[3] = { x[4 * i] - c[0], x[4 * i + 1] - c[1], x[4 * i + 2] - c[2] };
		const double dv[3] = { v[4 * i] - vc[0], v[4 * i + 1] - vc[1], v[4 * i + 2] - vc[2] };
		double l[3];
		Cross(r, dv, l);
		const double r2 = Dot(r, r);
		for (int k = 0; k < 3; ++k) L[k] += m * l[k];
		for (int row = 0; row < 3; ++row)
			for (int col = 0; col < 3; ++col) I[3 * row + col] += m * ((row == col ? r2 : 0.0) - r[row] * r[col]);
	}
	double u[3], sw;
	ChordRotation(I, L, h, u, &sw);
	const double xx = u[0] * u[0], yy = u[1] * u[1], zz = u[2] * u[2];
	const double xy = u[0] * u[1], xz = u[0] * u[2], yz = u[1] * u[2];
	const double wx = sw * u[0], wy = sw * u[1], wz = sw * u[2];
	/* R - 1, so that (R r - r) is formed without cancellation */
	const double D[9] = { -2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy), 2.0 * (xy + wz), -2.0 * (xx + zz),
						  2.0 * (yz - wx),  2.0 * (xz - wy), 2.0 * (yz + wx), -2.0 * (xx + yy) };
	for (int32_t i = b->first; i < end; ++i) {
		const double r[3] = { x[4 * i] - c[0], x[4 * i + 1] - c[1], x[4 * i + 2] - c[2] };
		double d[3];
		Mul3(D, r, d);
		for (int k = 0; k < 3; ++k) v[4 * i + k] = (float)(vc[k] + d[k] / h);
	}
	/* the solve's warm start: the last rotation turned by this one */
	const float dq[4] = { (float)u[0], (float)u[1], (float)u[2], (float)sw };
	pbd_QuatMul(dq, b->q, b->q);
	const float n2 = b->q[0] * b->q[0] + b->q[1] * b->q[1] + b->q[2] * b->q[2] + b->q[3] * b->q[3];
	const float inv = 1.0f / sqrtf(n2);
	for (int k = 0; k < 4; ++k) b->q[k] *= inv;
	pbd_QuatToMatrix(b->q, pbd_Shapes_Frame(s, b)->R);
}


typedef struct PredictBlock {
	pbdWorld* w;
	pbdShapes* s;
	float h;
} PredictBlock;

/* Each body's prediction reads and writes its own particles and state only: one a block. */
static void PredictBodies(void* data, int32_t begin, int32_t end)
{
	const PredictBlock* b = data;
	for (int32_t k = begin; k < end; ++k) {
		if (b->s->bodies[k].rigid) PredictBody(b->w, b->s, &b->s->bodies[k], b->h);
	}
}

void pbd_Shapes_Forces(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	PredictBlock b = { w, state, ctx->h };
	pbd_Parallel_For(w, b.s->count, 1, PredictBodies, &b);
}

/* ---------------------------------------------------------------- mass scaling for stacks */

/* Why. A contact pushes the particles it touches, and the solve that follows spreads that push
   over the whole body, keeping momentum: a box of 4 x 4 x 4 particles resting on another moves
   by a quarter of what its 16 touching particles were pushed. So each pass resolves a quarter of
   an overlap, and under a load the overlap grows until a quarter of it undoes a substep of
   gravity of everything above: 8 g h^2 per box carried, at every contact down the stack (ten
   boxes at 600 substeps a second: the top one sinks 1.1 cm, the stack's lattices slide into each
   other once anything sets them aside). This is the stacking problem of Macklin et al. 2014
   ("Unified Particle Physics for Real-Time Applications", section 5.2), and their remedy is
   taken here: for the contacts, each body's particles weigh less the higher the body stands,
       w_i <- w_i 2^((y_b - y_low) / H),  H = twice the largest body's rest size,
   y_b its centre's height and y_low the lowest body's (their e^(k h), with 2^x as 2^n (1 + f),
   exact at whole n and only + and *). Between two bodies of a stack the lower one then gives
   way less, so a load no longer drives the lower bodies down: the ten boxes sink 2.8 mm
   (tests/c/test_shapes_scenes.c; without the scaling, 20 substeps instead of 10 give 2.7 mm).
   The price is momentum between bodies at different heights: one that falls on another is
   lighter than it, so the lower one is pushed less than it would be. Bodies side by side weigh
   alike; contacts with cloth or other particles see a body's scaled weight too. The
   scaling is the contacts family's split w_i / (w_i + w_j), which reads p.w: it is set after
   the pair search (the contacts' findContacts comes first; the search reads p.w only as pin
   or not, which scaling keeps) and p.w = x.w is restored in the update hook, before the
   velocity update and the commit read it. No other family reads a body particle's p.w but as
   pin or not. With fewer than two bodies nothing is scaled. */
static float Pow2(float x)
{
	if (!(x > 0.0f)) return 1.0f;
	if (x > 30.0f) x = 30.0f;
	int n = (int)x;
	float r = 1.0f + (x - (float)n);
	while (n-- > 0) r *= 2.0f;
	return r;
}

static float CentreHeight(const pbdWorld* w, const pbdShapes* s, const pbdBody* b)
{
	double M = 0.0, y = 0.0;
	for (int32_t i = b->first; i < b->first + b->count; ++i) {
		const double m = s->offset[4 * i + 3];
		M += m;
		y += m * (w->p[4 * i + 1] - b->c[1]);
	}
	return (float)(b->c[1] + y / M);
}

void pbd_Shapes_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdShapes* s = state;
	s->scaled = 0;
	/* two bodies at least, that meet each other's particles */
	if (s->count < 2 || !pbd_Material_ObjectsCollide(w)) return;
	float low = 0.0f, H = 0.0f;
	for (int32_t k = 0; k < s->count; ++k) {
		pbdBody* b = &s->bodies[k];
		b->height = CentreHeight(w, s, b);
		low = k == 0 || b->height < low ? b->height : low;
		H = 2.0f * b->size > H ? 2.0f * b->size : H;
	}
	if (!(H > 0.0f)) return;
	for (int32_t k = 0; k < s->count; ++k) {
		const pbdBody* b = &s->bodies[k];
		const float scale = Pow2((b->height - low) / H);
		if (!(scale > 1.0f)) continue;
		for (int32_t i = b->first; i < b->first + b->count; ++i) w->p[4 * i + 3] *= scale; /* a pin stays 0 */
		s->scaled = 1;
	}
}

/* ---------------------------------------------------------------- plasticity */

static void MulF(const float A[9], const float B[9], float out[9])
{
	float t[9];
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) t[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
	memcpy(out, t, sizeof t);
}

/* |(I + c E) P - I| (Frobenius), and the product into out. */
static float Crept(const float E[9], const float P[9], float c, float out[9])
{
	float G[9];
	for (int k = 0; k < 9; ++k) G[k] = c * E[k] + ((k % 4) == 0 ? 1.0f : 0.0f);
	MulF(G, P, out);
	float n2 = 0.0f;
	for (int k = 0; k < 9; ++k) {
		const float d = out[k] - ((k % 4) == 0 ? 1.0f : 0.0f);
		n2 += d * d;
	}
	return sqrtf(n2);
}

/* The strain E = sym(R^T F) - I of body b's predicted positions (see the top), from a fit in
   which pins weigh as much as the mean free particle: weighted as in the solve, the pins
   would hide the strain of everything else. */
static float Strain(const pbdWorld* w, const pbdShapes* s, const pbdBody* b, float E[9])
{
	const int32_t end = b->first + b->count;
	const float* p = w->p;
	double M = 0.0, cp[3] = { 0.0, 0.0, 0.0 }, cq[3] = { 0.0, 0.0, 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		const double m = p[4 * i + 3] > 0.0f ? 1.0 / p[4 * i + 3] : (double)b->meanMass;
		M += m;
		for (int k = 0; k < 3; ++k) cp[k] += m * p[4 * i + k], cq[k] += m * s->offset[4 * i + k];
	}
	for (int k = 0; k < 3; ++k) cp[k] /= M, cq[k] /= M;
	double A[9] = { 0.0 }, Aqq[9] = { 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		const double m = p[4 * i + 3] > 0.0f ? 1.0 / p[4 * i + 3] : (double)b->meanMass;
		const double d[3] = { p[4 * i] - cp[0], p[4 * i + 1] - cp[1], p[4 * i + 2] - cp[2] };
		const double q[3] = { s->offset[4 * i] - cq[0], s->offset[4 * i + 1] - cq[1], s->offset[4 * i + 2] - cq[2] };
		for (int r = 0; r < 3; ++r)
			for (int c = 0; c < 3; ++c) A[3 * r + c] += m * d[r] * q[c], Aqq[3 * r + c] += m * q[r] * q[c];
	}
	float Af[9], R[9], quat[4];
	for (int k = 0; k < 9; ++k) Af[k] = (float)A[k];
	memcpy(quat, b->q, sizeof quat);
	pbd_ExtractRotation(Af, quat, PBD_SHAPES_ROTATION_ITERATIONS);
	pbd_QuatToMatrix(quat, R);
	/* F = (A + eps R)(A_qq + eps I)^-1 */
	const double eps = 1e-4 * (Aqq[0] + Aqq[4] + Aqq[8]);
	Aqq[0] += eps, Aqq[4] += eps, Aqq[8] += eps;
	double inv[9], F[9];
	if (!Inverse(Aqq, inv)) return 0.0f;
	for (int k = 0; k < 9; ++k) A[k] += eps * R[k];
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) F[3 * r + c] = A[3 * r] * inv[c] + A[3 * r + 1] * inv[3 + c] + A[3 * r + 2] * inv[6 + c];
	/* S = R^T F, E = sym(S) - I */
	double S[9], e2 = 0.0;
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) S[3 * r + c] = R[r] * F[c] + R[3 + r] * F[3 + c] + R[6 + r] * F[6 + c];
	for (int r = 0; r < 3; ++r)
		for (int c = 0; c < 3; ++c) {
			const double e = 0.5 * (S[3 * r + c] + S[3 * c + r]) - (r == c ? 1.0 : 0.0);
			E[3 * r + c] = (float)e;
			e2 += e * e;
		}
	return (float)Sqrt(e2);
}

static void CreepBody(pbdWorld* w, pbdShapes* s, pbdBody* b, const pbdPlasticity* pl, float h)
{
	if (!(b->size > 0.0f)) return;
	float E[9];
	const float e = Strain(w, s, b, E);
	if (!(e > pl->yield)) return;
	float c = pl->creep * h * (e - pl->yield) / e;
	if (c > 1.0f) c = 1.0f;
	float P[9];
	if (!(Crept(E, b->plastic, c, P) <= pl->max)) {
		/* cut c back to where |P - I| meets max (16 halvings: c to 2^-16 of itself) */
		float lo = 0.0f, hi = c;
		for (int it = 0; it < 16; ++it) {
			const float mid = 0.5f * (lo + hi);
			if (Crept(E, b->plastic, mid, P) <= pl->max) lo = mid;
			else hi = mid;
		}
		if (!(lo > 0.0f)) return;
		Crept(E, b->plastic, lo, P);
	}
	memcpy(b->plastic, P, sizeof P);
	pbd_Shapes_Refresh(w, s, b);
}

void pbd_Shapes_Update(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdShapes* s = state;
	if (s->scaled) { /* the masses back, before plasticity, the velocity update and the commit */
		for (int32_t k = 0; k < s->count; ++k) {
			const pbdBody* b = &s->bodies[k];
			for (int32_t i = b->first; i < b->first + b->count; ++i) w->p[4 * i + 3] = w->x[4 * i + 3];
		}
		s->scaled = 0;
	}
	for (int32_t k = 0; k < s->count; ++k) {
		pbdBody* b = &s->bodies[k];
		const pbdPlasticity* pl = &w->plasticity[b->object];
		if (pl->creep > 0.0f && pl->max > 0.0f) CreepBody(w, s, b, pl, ctx->h);
	}
}
