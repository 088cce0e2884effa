/* families/shapes_rest.c -- a shape-matched body's rest data (weights, c0, q_i, size: pbd_Shapes_Refresh) and its
   fit to positions (c and A_pq: pbd_Shapes_Fit), which the solve (shapes.c) and the motion (shapes_motion.c:
   plasticity) both use; they call nothing of theirs, so the shapes files call each other one way only. */
#include "families/shapes_state.h"

#include <math.h>
#include <string.h>

/* One pass about the body's last centre b->c, near the new one (so no sum grows large), in
   double: with d_i = x_i - b->c, S = sum m d and Q = sum m q (0 up to rounding), e = S / M and
   A = sum m (x - c) q^T = sum m d q^T - e Q^T. Double, where float4 sums would be twice as fast,
   because the products of floats are exact in double: a body that is symmetric about an axis
   gets exactly no turn about it, where float rounding turns it by ~1e-8 rad, and a stack of
   boxes grows that into a fall (their faces of particles are bumpy: tests/c/test_shapes_scenes.c). */
void pbd_Shapes_Fit(const pbdShapes* s, const pbdBody* b, const float* positions, double e[3], float A[9])
{
	const int32_t end = b->first + b->count;
	const double ref[3] = { b->c[0], b->c[1], b->c[2] };
	double S[3] = { 0.0, 0.0, 0.0 }, a[9] = { 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		const float* p = positions + 4 * i;
		const float* q = s->offset + 4 * i;
		const double m = q[3];
		for (int r = 0; r < 3; ++r) {
			const double md = m * (p[r] - ref[r]);
			S[r] += md;
			a[3 * r] += md * q[0], a[3 * r + 1] += md * q[1], a[3 * r + 2] += md * q[2];
		}
	}
	for (int r = 0; r < 3; ++r) {
		const double er = S[r] / b->mass;
		e[r] = er;
		for (int k = 0; k < 3; ++k) A[3 * r + k] = (float)(a[3 * r + k] - er * b->offsetSum[k]);
	}
}

void pbd_Shapes_Refresh(const pbdWorld* w, pbdShapes* s, pbdBody* b)
{
	const int32_t end = b->first + b->count;
	const float* x = w->x;
	double freeMass = 0.0;
	int32_t free = 0;
	for (int32_t i = b->first; i < end; ++i) {
		if (x[4 * i + 3] > 0.0f) freeMass += 1.0 / x[4 * i + 3], free += 1;
	}
	b->meanMass = free > 0 ? (float)(freeMass / free) : 1.0f;
	const float pinWeight = PBD_SHAPES_PIN_WEIGHT * b->meanMass;
	b->pins = b->count - free;
	double M = 0.0, c0[3] = { 0.0, 0.0, 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		const float m = x[4 * i + 3] > 0.0f ? 1.0f / x[4 * i + 3] : pinWeight;
		s->offset[4 * i + 3] = m;
		M += m;
		for (int k = 0; k < 3; ++k) c0[k] += m * (double)s->rest[4 * i + k];
	}
	for (int k = 0; k < 3; ++k) b->c0[k] = (float)(c0[k] / M);
	/* q_i = P (x0_i - c0): centred, since sum m (x0 - c0) = 0 and P is linear */
	const float* P = b->plastic;
	double spread = 0.0;
	for (int32_t i = b->first; i < end; ++i) {
		const float* x0 = s->rest + 4 * i;
		float* q = s->offset + 4 * i;
		const float d[3] = { x0[0] - b->c0[0], x0[1] - b->c0[1], x0[2] - b->c0[2] };
		for (int r = 0; r < 3; ++r) q[r] = P[3 * r] * d[0] + P[3 * r + 1] * d[1] + P[3 * r + 2] * d[2];
		spread += (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2];
	}
	b->size = sqrtf((float)(spread / b->count));
	double Q[3] = { 0.0, 0.0, 0.0 };
	for (int32_t i = b->first; i < end; ++i) {
		for (int k = 0; k < 3; ++k) Q[k] += (double)s->offset[4 * i + 3] * s->offset[4 * i + k];
	}
	b->mass = (float)M;
	for (int k = 0; k < 3; ++k) b->offsetSum[k] = (float)Q[k];
}

/* ---------------------------------------------------------------- family */

