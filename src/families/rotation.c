/* families/rotation.c -- the rotational part of a 3x3 matrix, after Mueller, Bender, Chentanez
   and Macklin 2016, "A robust method to extract the rotational part of deformations" (MIG '16).

   The paper's iteration, warm-started from the last rotation q: with R = R(q) and r_c, a_c the
   columns of R and A,
       omega = sum_c r_c x a_c / (|sum_c r_c . a_c| + eps),    q <- exp(omega) q,
   a gradient step on tr(R^T A), which R of the polar decomposition A = R S maximises (the
   numerator is the gradient, the denominator the Hessian's trace bound). It never meets the
   sign flips and 0/0 of the polar decomposition by eigenvectors or Newton's iteration A <-
   (A + A^-T)/2: a degenerate A (flat, collinear, zero) still gives a rotation.

   Three changes keep it to + - * / and sqrtf (the same bits on every build, no libm
   trigonometry in the step), make it start anywhere and finish in a few steps:
   - exp(omega), a rotation of |omega| about omega, becomes the unit quaternion along
     (omega / 2, 1): a rotation of 2 atan(|omega| / 2) about the same axis. It equals |omega| to
     third order, so the steps near the solution are the paper's; far from it the step is at
     most 180 degrees, where the paper's exp of a huge omega (t near 0) would spin anywhere.
   - Before iterating, the start is the best of q, q i, q j, q k (each a half turn of q about one
     of its own axes) by tr(R^T A). For A a rotation their traces are 4 (q.q_A)^2 - 1 of the four
     components of q's offset from the answer, one of which is at least 1/2 in size: the start is
     then at most 120 degrees off, never near 180 (where the gradient vanishes and the step from
     identity of a half turn would not move). The traces of the four are +-d0 +-d1 +-d2 of the
     same three column products, so the choice costs nothing.
   - Near the answer, Newton's step (NewtonStep below) instead of the paper's.
   A is scaled by its largest entry first, so the products neither overflow nor underflow.
   Measured (tests/c/test_rotation.c): from the identity, the 1,000 test rotations of a
   lopsided 0.6 x 0.2 x 0.1 m shape take 3 to 11 steps (the paper's step alone: up to 64 and
   more, stuck at float rounding); with a stretch of 0.5..2 as well, 6.4 on average, at most 22;
   warm-started from the last substep's rotation, one or two. */
#include "families/rotation.h"

#include <math.h>

/* A step shorter than this (radians) is not taken and ends the iteration. */
#define PBD_ROTATION_TOLERANCE 1e-7f

static float Abs(float a) { return a < 0.0f ? -a : a; }

/* q / |q|, or the identity when q is zero or not finite. */
static void Normalise(float q[4])
{
	const float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
	if (!(n2 > 1e-30f) || n2 - n2 != 0.0f) {
		q[0] = 0.0f, q[1] = 0.0f, q[2] = 0.0f, q[3] = 1.0f;
		return;
	}
	const float s = 1.0f / sqrtf(n2);
	q[0] *= s, q[1] *= s, q[2] *= s, q[3] *= s;
}

/* Near the answer, the Newton step on tr(R^T A) replaces the paper's omega = g / t. Expanding
   tr((exp(d) R)^T A) to second order in the turn d gives the gradient g and the Hessian
   H = t I - sym(M), M = A R^T, t = tr M; the paper's step divides by t alone, which is H's
   bound: exact for a turn about an axis where the body has no extent, slow about its long axis
   (the test's 0.6 x 0.2 x 0.1 shape keeps ~0.8 of the error each step about it). Newton's step
   H^-1 g is taken when H + 1e-3 t I is positive definite (Sylvester's minors) and the step is
   under 0.5 rad: then the error falls quadratically (for a pure turn e, to tan e - e). Farther
   away, or where H is indefinite (more than 90 degrees off), the paper's step, which cannot
   overshoot. */
static int NewtonStep(const float M[9], float trace, const float g[3], float step[3])
{
	if (!(trace > 0.0f)) return 0;
	const float reg = 1e-3f * trace;
	const float h00 = trace - M[0] + reg, h11 = trace - M[4] + reg, h22 = trace - M[8] + reg;
	const float h01 = -0.5f * (M[1] + M[3]), h02 = -0.5f * (M[2] + M[6]), h12 = -0.5f * (M[5] + M[7]);
	/* cofactors of the symmetric H */
	const float c00 = h11 * h22 - h12 * h12, c01 = h02 * h12 - h01 * h22, c02 = h01 * h12 - h02 * h11;
	const float c11 = h00 * h22 - h02 * h02, c12 = h01 * h02 - h00 * h12, c22 = h00 * h11 - h01 * h01;
	const float det = h00 * c00 + h01 * c01 + h02 * c02;
	if (!(h00 > 0.0f) || !(c22 > 0.0f) || !(det > 0.0f)) return 0;
	const float d[3] = { (c00 * g[0] + c01 * g[1] + c02 * g[2]) / det, (c01 * g[0] + c11 * g[1] + c12 * g[2]) / det,
						 (c02 * g[0] + c12 * g[1] + c22 * g[2]) / det };
	if (!(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < 0.25f)) return 0;
	step[0] = d[0], step[1] = d[1], step[2] = d[2];
	return 1;
}

void pbd_ExtractRotation(const float A[9], float q[4], int32_t maxIterations)
{
	Normalise(q);
	float m = 0.0f;
	for (int k = 0; k < 9; ++k) {
		const float a = Abs(A[k]);
		m = a > m ? a : m;
		if (a != a) m = a; /* NaN: stays NaN below */
	}
	if (!(m > 0.0f) || m - m != 0.0f) return;
	const float inv = 1.0f / m;
	float a[9];
	for (int k = 0; k < 9; ++k) a[k] = A[k] * inv;

	float R[9];
	/* The start: q, q i, q j or q k, whichever has the largest tr(R^T A). R(q i) is R(q) with
	   columns 1 and 2 negated (R(i) = diag(1, -1, -1)), and so on. */
	pbd_QuatToMatrix(q, R);
	float d[3];
	for (int c = 0; c < 3; ++c) d[c] = R[c] * a[c] + R[3 + c] * a[3 + c] + R[6 + c] * a[6 + c];
	const float traces[4] = { d[0] + d[1] + d[2], d[0] - d[1] - d[2], d[1] - d[0] - d[2], d[2] - d[0] - d[1] };
	int best = 0;
	for (int k = 1; k < 4; ++k) best = traces[k] > traces[best] ? k : best;
	if (best != 0) {
		/* q e for e = i, j, k as (x, y, z, w): exact sign changes and swaps */
		const float x = q[0], y = q[1], z = q[2], w = q[3];
		if (best == 1) q[0] = w, q[1] = z, q[2] = -y, q[3] = -x;
		if (best == 2) q[0] = -z, q[1] = w, q[2] = x, q[3] = -y;
		if (best == 3) q[0] = y, q[1] = -x, q[2] = w, q[3] = -z;
	}

	const float tol2 = PBD_ROTATION_TOLERANCE * PBD_ROTATION_TOLERANCE;
	for (int32_t it = 0; it < maxIterations; ++it) {
		pbd_QuatToMatrix(q, R);
		/* g = sum_c r_c x a_c, the gradient of tr(R^T A) for a turn of R; M = A R^T, t = tr M */
		float g[3] = { 0.0f, 0.0f, 0.0f };
		float M[9];
		for (int r = 0; r < 3; ++r) {
			for (int c = 0; c < 3; ++c) M[3 * r + c] = a[3 * r] * R[3 * c] + a[3 * r + 1] * R[3 * c + 1] + a[3 * r + 2] * R[3 * c + 2];
		}
		for (int c = 0; c < 3; ++c) {
			const float rx = R[c], ry = R[3 + c], rz = R[6 + c];
			const float ax = a[c], ay = a[3 + c], az = a[6 + c];
			g[0] += ry * az - rz * ay;
			g[1] += rz * ax - rx * az;
			g[2] += rx * ay - ry * ax;
		}
		const float trace = M[0] + M[4] + M[8];
		const float t = Abs(trace) + 1e-9f;
		float step[3] = { g[0] / t, g[1] / t, g[2] / t }; /* the paper's omega */
		const int newton = NewtonStep(M, trace, g, step);
		const float s2 = step[0] * step[0] + step[1] * step[1] + step[2] * step[2];
		if (!(s2 > tol2)) break; /* below the tolerance (or NaN): R stays */
		float dq[4] = { 0.5f * step[0], 0.5f * step[1], 0.5f * step[2], 1.0f };
		Normalise(dq);
		pbd_QuatMul(dq, q, q);
		Normalise(q);
		/* Newton's error after a step of e is ~e^2: below 1e-4 rad, the next step would be lost
		   in float rounding (~2e-7 rad, where a fixed tolerance can fail to stop at all) */
		if (newton && s2 < 1e-8f) break;
	}
}
