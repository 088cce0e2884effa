/* services/collider_shapes.h -- the boundary's geometry (the colliders' shapes): rigid transforms, the shapes'
   signed distances, casts and closest points, all in the collider's local frame. The small
   functions the per-particle loops call are inline here; the casts are in collider_shapes.c.
   Determinism: + - * / sqrtf and comparisons only, in a fixed order, so native and wasm
   builds give the same bits. */
#ifndef PBD_COLLIDER_SHAPES_H
#define PBD_COLLIDER_SHAPES_H

#include "minipbd.h"

#include <math.h>

/* ---------------------------------------------------------------- transforms */

/// world = m * local + c, m row-major, from a unit quaternion.
typedef struct pbdXf {
	float c[3];
	float m[9];
} pbdXf;

static inline void QuatToXf(const float pos[3], const float q[4], pbdXf* t)
{
	float x = q[0], y = q[1], z = q[2], w = q[3];
	float xx = x * x, yy = y * y, zz = z * z;
	float xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
	t->m[0] = 1.0f - 2.0f * (yy + zz);
	t->m[1] = 2.0f * (xy - wz);
	t->m[2] = 2.0f * (xz + wy);
	t->m[3] = 2.0f * (xy + wz);
	t->m[4] = 1.0f - 2.0f * (xx + zz);
	t->m[5] = 2.0f * (yz - wx);
	t->m[6] = 2.0f * (xz - wy);
	t->m[7] = 2.0f * (yz + wx);
	t->m[8] = 1.0f - 2.0f * (xx + yy);
	t->c[0] = pos[0];
	t->c[1] = pos[1];
	t->c[2] = pos[2];
}

static inline void ToLocal(const pbdXf* t, const float p[3], float out[3])
{
	float dx = p[0] - t->c[0], dy = p[1] - t->c[1], dz = p[2] - t->c[2];
	out[0] = t->m[0] * dx + t->m[3] * dy + t->m[6] * dz;
	out[1] = t->m[1] * dx + t->m[4] * dy + t->m[7] * dz;
	out[2] = t->m[2] * dx + t->m[5] * dy + t->m[8] * dz;
}

static inline void RotateToLocal(const pbdXf* t, const float v[3], float out[3])
{
	out[0] = t->m[0] * v[0] + t->m[3] * v[1] + t->m[6] * v[2];
	out[1] = t->m[1] * v[0] + t->m[4] * v[1] + t->m[7] * v[2];
	out[2] = t->m[2] * v[0] + t->m[5] * v[1] + t->m[8] * v[2];
}

static inline void Rotate(const pbdXf* t, const float v[3], float out[3])
{
	out[0] = t->m[0] * v[0] + t->m[1] * v[1] + t->m[2] * v[2];
	out[1] = t->m[3] * v[0] + t->m[4] * v[1] + t->m[5] * v[2];
	out[2] = t->m[6] * v[0] + t->m[7] * v[1] + t->m[8] * v[2];
}

static inline void ToWorld(const pbdXf* t, const float l[3], float out[3])
{
	Rotate(t, l, out);
	out[0] += t->c[0];
	out[1] += t->c[1];
	out[2] += t->c[2];
}


/// The transform at a share alpha of a motion from (pos0, q0) to (pos1, q1): lerp of the
/// position, nlerp of the rotation (shortest arc). alpha 0 and 1 give the ends exactly.
void pbd_XfInterpolate(const float pos0[3], const float q0[4], const float pos1[3], const float q1[4], float alpha, pbdXf* out);

/* ---------------------------------------------------------------- shapes, local frame */

static inline float Sign(float v) { return v < 0.0f ? -1.0f : 1.0f; }

/// Half size along world axis k of the box around the shape at transform t.
static inline float WorldExtent(const pbdColliderInfo* s, const pbdXf* t, int k)
{
	const float* m = t->m + 3 * k; /* row k: world axis k in the local frame */
	switch (s->type) {
	case pbdShape_sphere: return s->radius;
	case pbdShape_capsule: return fabsf(m[1]) * s->halfHeight + s->radius;
	default: {
		const float* h = s->halfExtents;
		float e = fabsf(m[0]) * h[0] + fabsf(m[1]) * h[1] + fabsf(m[2]) * h[2];
		return 1.0001f * e + 1e-6f; /* rounded up: the cull is never tighter than the shape */
	}
	}
}

/* Signed distance from local point q to the surface (negative inside) and the outward
   unit gradient n. The closest surface point is q - d n in every case. Box: the exact
   SDF (outside: distance to the clamped point; inside: the nearest face). */
static inline float ShapeSdf(const pbdColliderInfo* s, const float q[3], float n[3])
{
	if (s->type == pbdShape_box) {
		const float* h = s->halfExtents;
		float a[3] = { fabsf(q[0]) - h[0], fabsf(q[1]) - h[1], fabsf(q[2]) - h[2] };
		if (a[0] > 0.0f || a[1] > 0.0f || a[2] > 0.0f) {
			float o[3];
			for (int k = 0; k < 3; ++k) o[k] = a[k] > 0.0f ? a[k] : 0.0f;
			float len = sqrtf(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
			float inv = 1.0f / len;
			for (int k = 0; k < 3; ++k) n[k] = Sign(q[k]) * o[k] * inv;
			return len;
		}
		int axis = 0;
		if (a[1] > a[axis]) axis = 1;
		if (a[2] > a[axis]) axis = 2;
		n[0] = n[1] = n[2] = 0.0f;
		n[axis] = Sign(q[axis]);
		return a[axis];
	}
	float y = 0.0f;
	if (s->type == pbdShape_capsule) {
		y = q[1];
		if (y > s->halfHeight) y = s->halfHeight;
		if (y < -s->halfHeight) y = -s->halfHeight;
	}
	float v[3] = { q[0], q[1] - y, q[2] };
	float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (len > 1e-12f) {
		float inv = 1.0f / len;
		for (int k = 0; k < 3; ++k) n[k] = v[k] * inv;
	} else {
		/* on the centre (axis): every direction is as short; pick one that is fixed */
		n[0] = 0.0f;
		n[1] = s->type == pbdShape_sphere ? 1.0f : 0.0f;
		n[2] = s->type == pbdShape_sphere ? 0.0f : 1.0f;
	}
	return len - s->radius;
}

/* True when no point within sqrt(L2) of local point q comes within r of the surface, so a
   particle that ends its relative motion of length sqrt(L2) at q neither touched nor
   crossed the inflated shape. Exact-enough bounds with no sqrt: for a ball around a core
   (sphere, capsule) D >= rho + L, i.e. D^2 - rho^2 - L^2 >= 2 rho L; for a box the largest
   face excess max(|q_i| - h_i), a lower bound of the SDF. */
static inline int FarFromShape(const pbdColliderInfo* s, const float q[3], float r, float L2)
{
	if (s->type == pbdShape_box) {
		const float* h = s->halfExtents;
		float a = fabsf(q[0]) - h[0], b = fabsf(q[1]) - h[1], c = fabsf(q[2]) - h[2];
		if (b > a) a = b;
		if (c > a) a = c;
		float m = a - r;
		return m > 0.0f && m * m > L2;
	}
	float y = 0.0f;
	if (s->type == pbdShape_capsule) {
		y = q[1];
		if (y > s->halfHeight) y = s->halfHeight;
		if (y < -s->halfHeight) y = -s->halfHeight;
	}
	float dy = q[1] - y;
	float D2 = q[0] * q[0] + dy * dy + q[2] * q[2];
	float rho = s->radius + r, rho2 = rho * rho;
	float k = D2 - rho2 - L2;
	return k > 0.0f && k * k > 4.0f * rho2 * L2;
}

/* ---------------------------------------------------------------- boxes (min xyz, max xyz) */

/* Keeps a box a superset after a point moved. */
static inline void GrowBox(float* box, const float* p)
{
	for (int k = 0; k < 3; ++k) {
		if (p[k] < box[k]) box[k] = p[k];
		if (p[k] > box[3 + k]) box[3 + k] = p[k];
	}
}

static inline int BoxesMiss(const float* box, const float lo[3], const float hi[3])
{
	return box[0] > hi[0] || box[3] < lo[0] || box[1] > hi[1] || box[4] < lo[1] || box[2] > hi[2] || box[5] < lo[2];
}

/* An edge end in the collider's frame; a sphere's rotation does not matter, so skip it. */
static inline void EdgeEndLocal(const pbdXf* t, int sphere, const float* p, float out[3])
{
	if (sphere) {
		out[0] = p[0] - t->c[0];
		out[1] = p[1] - t->c[1];
		out[2] = p[2] - t->c[2];
	} else {
		ToLocal(t, p, out);
	}
}

enum { CAST_INSIDE = -1, CAST_MISS = 0, CAST_HIT = 1 };

/// First entry of the ray o + t d, t in [0, tmax], into the shape inflated by `inflate`
/// (a box grows to a box of half extents h + inflate: a little larger than the rounded box
/// near edges and corners, never smaller). CAST_INSIDE when o is already inside.
int pbd_ShapeCast(const pbdColliderInfo* s, float inflate, const float o[3], const float d[3], float tmax, float* tHit,
				  float n[3]);
/// Refines a cast against the square box grown by r to the box rounded by r (sphere tracing
/// from *t); 0 if the segment o + t d, t in [0, 1], passes by.
int pbd_RoundBoxEntry(const pbdColliderInfo* s, float r, const float o[3], const float d[3], float* t, float n[3]);
/// Closest points of the segment a + t (b - a), t in [0, 1], and the core of a sphere (hh = 0:
/// the origin) or capsule (the segment y in [-hh, hh]); returns t, *d = edge point - core point.
float pbd_EdgeToCore(const float a[3], const float b[3], float hh, float d[3]);
/// The box (min xyz, max xyz) around particles [begin, end) of a float4 buffer.
void pbd_ParticleBox(const float* p, int begin, int end, float box[6]);

#endif
