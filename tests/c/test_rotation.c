/* Rotation extraction (families/rotation.c): A = R_true A_qq, the covariance of a rotated
   rest shape (what shape matching's A_pq is for a rigidly moved body), for 1,000 rotations
   from a fixed-seed generator, 200 of them within 0.1 degree of a half turn and 50 exactly a
   half turn about a random axis, started from the identity: R(q) must equal R_true to 1e-5 in
   every entry. The rest shape is deliberately lopsided (unequal masses on
   an offset 3 x 2 x 2 lattice), so A_qq is far from isotropic. */
#include "test.h"
#include "families/rotation.h"

#include <string.h>

/* Uniform in [-1, 1). */
static float Uniform(uint32_t* s) { return (float)((double)TestXorshift32(s) / 2147483648.0 - 1.0); }

/* A unit vector, uniform on the sphere (rejection from the cube). */
static void RandomAxis(uint32_t* s, float n[3])
{
	for (;;) {
		float x = Uniform(s), y = Uniform(s), z = Uniform(s);
		float r2 = x * x + y * y + z * z;
		if (r2 > 1e-4f && r2 <= 1.0f) {
			float r = sqrtf(r2);
			n[0] = x / r, n[1] = y / r, n[2] = z / r;
			return;
		}
	}
}

/* Rotation k of the test set: 0..749 uniform on SO(3), 750..949 within 0.1 degree of a half
   turn, 950..999 exactly a half turn (w = 0). Built without trigonometry: a rotation of
   pi - delta about n is (n cos(delta / 2), sin(delta / 2)), with sin(delta/2) = e small. */
static void TestRotation(uint32_t* s, int k, float q[4])
{
	if (k < 750) {
		for (;;) {
			float v[4] = { Uniform(s), Uniform(s), Uniform(s), Uniform(s) };
			float r2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
			if (r2 > 1e-4f && r2 <= 1.0f) {
				float r = sqrtf(r2);
				for (int c = 0; c < 4; ++c) q[c] = v[c] / r;
				return;
			}
		}
	}
	float n[3];
	RandomAxis(s, n);
	float e = k < 950 ? 8.7e-4f * (0.5f * Uniform(s) + 0.5f) : 0.0f; /* sin(0.05 deg) = 8.7e-4 */
	float c = sqrtf(1.0f - e * e);
	q[0] = n[0] * c, q[1] = n[1] * c, q[2] = n[2] * c, q[3] = e;
}

/* A = sum_i m_i (R q_i) q_i^T over the lopsided rest shape, in double then rounded. */
static void RotatedCovariance(const float R[9], const float S[9], float A[9])
{
	double acc[9] = { 0 };
	double cx = 0, cy = 0, cz = 0, M = 0;
	float pts[12][4];
	int n = 0;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 2; ++j)
			for (int k = 0; k < 2; ++k) {
				pts[n][0] = 0.3f * i + 0.05f * j, pts[n][1] = 0.2f * j, pts[n][2] = 0.1f * k + 0.02f * i;
				pts[n][3] = 1.0f + 0.5f * (float)n; /* mass */
				cx += pts[n][3] * pts[n][0], cy += pts[n][3] * pts[n][1], cz += pts[n][3] * pts[n][2], M += pts[n][3];
				n += 1;
			}
	cx /= M, cy /= M, cz /= M;
	for (int p = 0; p < n; ++p) {
		double q[3] = { pts[p][0] - cx, pts[p][1] - cy, pts[p][2] - cz };
		double sq[3], rq[3];
		for (int r = 0; r < 3; ++r) sq[r] = S[3 * r] * q[0] + S[3 * r + 1] * q[1] + S[3 * r + 2] * q[2];
		for (int r = 0; r < 3; ++r) rq[r] = R[3 * r] * sq[0] + R[3 * r + 1] * sq[1] + R[3 * r + 2] * sq[2];
		for (int r = 0; r < 3; ++r)
			for (int c = 0; c < 3; ++c) acc[3 * r + c] += pts[p][3] * rq[r] * q[c];
	}
	for (int k = 0; k < 9; ++k) A[k] = (float)acc[k];
}

static float MaxDiff(const float a[9], const float b[9])
{
	float m = 0.0f;
	for (int k = 0; k < 9; ++k) m = fmaxf(m, fabsf(a[k] - b[k]));
	return m;
}

static const float s_identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

void Test_RotationRecoversRandomRotations(void)
{
	uint32_t seed = 0x9e3779b9u;
	float worst = 0.0f;
	for (int k = 0; k < 1000; ++k) {
		float qt[4], Rt[9], A[9], R[9];
		TestRotation(&seed, k, qt);
		pbd_QuatToMatrix(qt, Rt);
		RotatedCovariance(Rt, s_identity, A);
		float q[4] = { 0, 0, 0, 1 };
		pbd_ExtractRotation(A, q, 64);
		pbd_QuatToMatrix(q, R);
		float e = MaxDiff(R, Rt);
		if (e > worst) worst = e;
		if (!(e <= 1e-5f)) printf("  rotation %d: max |R - R_true| = %g\n", k, (double)e);
		ENSURE(e <= 1e-5f);
		ENSURE_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-6);
	}
	printf("  worst max |R - R_true| over 1000 rotations: %.3g\n", (double)worst);
}

/* A = R_true S A_qq with S a random stretch of 0.5..2 along the axes (the body deformed, then
   turned). S A_qq is not symmetric (A_qq's frame is not the axes), so the polar factor is not
   R_true itself: the answer is checked by what defines it instead, R^T A symmetric (the
   gradient sum_c r_c x a_c vanishes) and tr(R^T A) largest (a small turn either way about
   any axis lowers it). */
void Test_RotationRecoversStretchedRotations(void)
{
	uint32_t seed = 12345u;
	for (int k = 0; k < 200; ++k) {
		float qt[4], Rt[9], A[9], R[9];
		TestRotation(&seed, k * 5, qt);
		pbd_QuatToMatrix(qt, Rt);
		float S[9] = { 0.5f + 0.75f * (Uniform(&seed) + 1.0f), 0, 0, 0, 0.5f + 0.75f * (Uniform(&seed) + 1.0f), 0, 0, 0,
					   0.5f + 0.75f * (Uniform(&seed) + 1.0f) };
		RotatedCovariance(Rt, S, A);
		float q[4] = { 0, 0, 0, 1 };
		pbd_ExtractRotation(A, q, 100);
		pbd_QuatToMatrix(q, R);
		/* R^T A is symmetric at the polar factor (the gradient sum_c r_c x a_c vanishes) */
		float g[3] = { 0, 0, 0 }, scale = 0.0f;
		for (int c = 0; c < 3; ++c) {
			g[0] += R[3 + c] * A[6 + c] - R[6 + c] * A[3 + c];
			g[1] += R[6 + c] * A[c] - R[c] * A[6 + c];
			g[2] += R[c] * A[3 + c] - R[3 + c] * A[c];
			scale += R[c] * A[c] + R[3 + c] * A[3 + c] + R[6 + c] * A[6 + c];
		}
		ENSURE(scale > 0.0f);
		ENSURE(sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) <= 1e-5f * scale);
		/* and it is a maximum: turning by 0.01 rad about each axis lowers tr(R^T A) */
		for (int axis = 0; axis < 6; ++axis) {
			float dq[4] = { 0, 0, 0, 1 };
			dq[axis % 3] = axis < 3 ? 0.005f : -0.005f;
			float qq[4], RR[9];
			pbd_QuatMul(dq, q, qq);
			float n = sqrtf(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
			for (int c = 0; c < 4; ++c) qq[c] /= n;
			pbd_QuatToMatrix(qq, RR);
			float tr = 0.0f;
			for (int c = 0; c < 9; ++c) tr += RR[c] * A[c];
			ENSURE(tr < scale);
		}
	}
}

/* Warm-started from the answer turned by a small angle, a few steps suffice; from the answer
   itself, none moves it. */
void Test_RotationWarmStartConverges(void)
{
	uint32_t seed = 777u;
	for (int k = 0; k < 100; ++k) {
		float qt[4], Rt[9], A[9], R[9];
		TestRotation(&seed, k * 7, qt);
		pbd_QuatToMatrix(qt, Rt);
		RotatedCovariance(Rt, s_identity, A);
		float q[4];
		memcpy(q, qt, sizeof q);
		pbd_ExtractRotation(A, q, 8);
		pbd_QuatToMatrix(q, R);
		ENSURE(MaxDiff(R, Rt) <= 1e-5f);
		/* off by ~0.02 rad (a substep's turn at 2 rev/s and 600 Hz): 8 steps reach 1e-5 */
		float dq[4] = { 0.01f * Uniform(&seed), 0.01f * Uniform(&seed), 0.01f * Uniform(&seed), 1.0f };
		pbd_QuatMul(dq, qt, q);
		pbd_ExtractRotation(A, q, 8);
		pbd_QuatToMatrix(q, R);
		ENSURE(MaxDiff(R, Rt) <= 1e-5f);
	}
}

/* Zero, NaN, rank-1 (collinear particles), rank-2 (flat) and reflected matrices give a unit
   quaternion, never NaN; a zero or non-finite A leaves the start as it was. */
void Test_RotationDegenerateMatrices(void)
{
	const float start[4] = { 0.0f, 0.6f, 0.0f, 0.8f };
	float q[4];
	const float zero[9] = { 0 };
	memcpy(q, start, sizeof q);
	pbd_ExtractRotation(zero, q, 20);
	for (int c = 0; c < 4; ++c) ENSURE_NEAR(q[c], start[c], 1e-7);
	float nan[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	nan[4] = NAN;
	memcpy(q, start, sizeof q);
	pbd_ExtractRotation(nan, q, 20);
	for (int c = 0; c < 4; ++c) ENSURE_NEAR(q[c], start[c], 1e-7);
	float inf[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	inf[2] = INFINITY;
	memcpy(q, start, sizeof q);
	pbd_ExtractRotation(inf, q, 20);
	for (int c = 0; c < 4; ++c) ENSURE_NEAR(q[c], start[c], 1e-7);
	/* rank 1: a rod along x at rest now along y: R x = y whatever happens about the rod */
	const float rod[9] = { 0, 0, 0, 2, 0, 0, 0, 0, 0 };
	memcpy(q, start, sizeof q);
	pbd_ExtractRotation(rod, q, 100);
	float R[9];
	pbd_QuatToMatrix(q, R);
	ENSURE_NEAR(R[0], 0.0, 1e-5);
	ENSURE_NEAR(R[3], 1.0, 1e-5);
	ENSURE_NEAR(R[6], 0.0, 1e-5);
	/* rank 2: a plate in xy turned a quarter about z */
	const float plate[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 0 };
	q[0] = 0, q[1] = 0, q[2] = 0, q[3] = 1;
	pbd_ExtractRotation(plate, q, 100);
	pbd_QuatToMatrix(q, R);
	const float quarter[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 };
	ENSURE(MaxDiff(R, quarter) <= 1e-5f);
	/* a mirror image (det < 0) has no rotation equal to it; the answer is still a rotation */
	const float mirror[9] = { -1, 0, 0, 0, 1, 0, 0, 0, 1 };
	q[0] = 0, q[1] = 0, q[2] = 0, q[3] = 1;
	pbd_ExtractRotation(mirror, q, 100);
	for (int c = 0; c < 4; ++c) ENSURE(isfinite(q[c]));
	ENSURE_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-6);
	/* a zero start quaternion is taken as the identity */
	const float turn[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 };
	q[0] = 0, q[1] = 0, q[2] = 0, q[3] = 0;
	pbd_ExtractRotation(turn, q, 100);
	pbd_QuatToMatrix(q, R);
	ENSURE(MaxDiff(R, quarter) <= 1e-5f);
}
