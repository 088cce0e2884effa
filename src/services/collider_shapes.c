/* services/collider_shapes.c -- the colliders' geometry that is not inline
   (collider_shapes.h): interpolated transforms, casts, the rounded box entry, edge-core
   closest points, particle boxes. */
#include "services/collider_shapes.h"
#include "base/simd.h"

#include <string.h>

/* The collider's transform at a share alpha of the step: lerp of the position, nlerp of
   the rotation (shortest arc). alpha 0 and 1 give prev and current exactly. */
void pbd_XfInterpolate(const float pos0[3], const float q0[4], const float pos1[3], const float q1[4], float alpha, pbdXf* out)
{
	if (alpha >= 1.0f) {
		QuatToXf(pos1, q1, out);
		return;
	}
	if (alpha <= 0.0f) {
		QuatToXf(pos0, q0, out);
		return;
	}
	float a0 = 1.0f - alpha;
	float pos[3], q[4];
	for (int k = 0; k < 3; ++k) pos[k] = a0 * pos0[k] + alpha * pos1[k];
	float dot = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
	float a1 = dot < 0.0f ? -alpha : alpha;
	for (int k = 0; k < 4; ++k) q[k] = a0 * q0[k] + a1 * q1[k];
	float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	if (memcmp(q0, q1, sizeof q) == 0 || !(len > 1e-6f)) {
		/* not turning: exactly the same rotation at every alpha (and opposite rotations,
		   which cannot meet halfway, take the target) */
		memcpy(q, q1, sizeof q);
	} else {
		for (int k = 0; k < 4; ++k) q[k] /= len;
	}
	QuatToXf(pos, q, out);
}

/* Ray o + t d, t in [0, tmax], against the sphere of radius rho at (0, cy, 0). */
static int SphereCast(const float o[3], const float d[3], float cy, float rho, float tmax, float* tHit, float n[3])
{
	float ox = o[0], oy = o[1] - cy, oz = o[2];
	float c = ox * ox + oy * oy + oz * oz - rho * rho;
	if (c < 0.0f) return CAST_INSIDE;
	float a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
	float b = ox * d[0] + oy * d[1] + oz * d[2];
	if (!(a > 0.0f) || b >= 0.0f) return CAST_MISS; /* no motion, or moving away */
	float disc = b * b - a * c;
	if (disc < 0.0f) return CAST_MISS;
	float t = (-b - sqrtf(disc)) / a;
	if (t < 0.0f) t = 0.0f;
	if (t > tmax) return CAST_MISS;
	float hx = ox + t * d[0], hy = oy + t * d[1], hz = oz + t * d[2];
	float len = sqrtf(hx * hx + hy * hy + hz * hz);
	if (!(len > 0.0f)) return CAST_MISS;
	n[0] = hx / len;
	n[1] = hy / len;
	n[2] = hz / len;
	*tHit = t;
	return CAST_HIT;
}

/* First entry of the ray o + t d, t in [0, tmax], into the shape inflated by `inflate`
   (a box grows to a box of half extents h + inflate: a little larger than the rounded
   box near edges and corners, never smaller). CAST_INSIDE when o is already inside. */
int pbd_ShapeCast(const pbdColliderInfo* s, float inflate, const float o[3], const float d[3], float tmax, float* tHit,
				  float n[3])
{
	if (s->type == pbdShape_sphere) return SphereCast(o, d, 0.0f, s->radius + inflate, tmax, tHit, n);
	if (s->type == pbdShape_capsule) {
		const float rho = s->radius + inflate, hh = s->halfHeight;
		float ns[3];
		if (ShapeSdf(s, o, ns) < inflate) return CAST_INSIDE;
		int result = CAST_MISS;
		float best = tmax;
		/* the side: the infinite cylinder, entered from outside, within |y| <= hh */
		float a = d[0] * d[0] + d[2] * d[2];
		float b = o[0] * d[0] + o[2] * d[2];
		float c = o[0] * o[0] + o[2] * o[2] - rho * rho;
		if (a > 0.0f && c >= 0.0f && b < 0.0f) {
			float disc = b * b - a * c;
			if (disc >= 0.0f) {
				float t = (-b - sqrtf(disc)) / a;
				if (t < 0.0f) t = 0.0f;
				float y = o[1] + t * d[1];
				if (t <= best && y <= hh && y >= -hh) {
					float hx = o[0] + t * d[0], hz = o[2] + t * d[2];
					float len = sqrtf(hx * hx + hz * hz);
					if (len > 0.0f) {
						best = t;
						n[0] = hx / len;
						n[1] = 0.0f;
						n[2] = hz / len;
						result = CAST_HIT;
					}
				}
			}
		}
		/* the caps */
		for (int k = 0; k < 2; ++k) {
			float t, nc[3];
			if (SphereCast(o, d, k == 0 ? -hh : hh, rho, best, &t, nc) == CAST_HIT && t <= best) {
				best = t;
				memcpy(n, nc, sizeof nc);
				result = CAST_HIT;
			}
		}
		if (result == CAST_HIT) *tHit = best;
		return result;
	}
	/* box: slabs */
	float h[3] = { s->halfExtents[0] + inflate, s->halfExtents[1] + inflate, s->halfExtents[2] + inflate };
	if (fabsf(o[0]) < h[0] && fabsf(o[1]) < h[1] && fabsf(o[2]) < h[2]) return CAST_INSIDE;
	float tNear = -3.4e38f, tFar = 3.4e38f;
	int axis = -1;
	for (int k = 0; k < 3; ++k) {
		if (d[k] == 0.0f) {
			if (o[k] > h[k] || o[k] < -h[k]) return CAST_MISS;
			continue;
		}
		float t1 = (-h[k] - o[k]) / d[k], t2 = (h[k] - o[k]) / d[k];
		if (t1 > t2) {
			float tmp = t1;
			t1 = t2;
			t2 = tmp;
		}
		if (t1 > tNear) {
			tNear = t1;
			axis = k;
		}
		if (t2 < tFar) tFar = t2;
	}
	/* tNear < 0: the origin is on the surface and leaving (inside was refused above) */
	if (axis < 0 || tNear < 0.0f || tNear > tFar || tNear > tmax) return CAST_MISS;
	n[0] = n[1] = n[2] = 0.0f;
	n[axis] = d[axis] > 0.0f ? -1.0f : 1.0f;
	*tHit = tNear;
	return CAST_HIT;
}

static inline pbdF4 Min4(pbdF4 a, pbdF4 b) { return pbdF4_Select(pbdF4_Greater(a, b), b, a); }
static inline pbdF4 Max4(pbdF4 a, pbdF4 b) { return pbdF4_Select(pbdF4_Greater(b, a), b, a); }

/* The box around particles [begin, end), four lanes at a time (selects only, so every
   build gets the same bits). */
void pbd_ParticleBox(const float* p, int begin, int end, float box[6])
{
	/* four independent chains, so the selects do not wait on each other */
	pbdF4 lo[4], hi[4];
	for (int k = 0; k < 4; ++k) lo[k] = pbdF4_Splat(3.4e38f), hi[k] = pbdF4_Splat(-3.4e38f);
	int i = begin;
	for (; i + 4 <= end; i += 4) {
		for (int k = 0; k < 4; ++k) {
			pbdF4 v = pbdF4_Load(p + 4 * (i + k));
			lo[k] = Min4(lo[k], v);
			hi[k] = Max4(hi[k], v);
		}
	}
	for (; i < end; ++i) {
		pbdF4 v = pbdF4_Load(p + 4 * i);
		lo[0] = Min4(lo[0], v);
		hi[0] = Max4(hi[0], v);
	}
	pbdF4 l = Min4(Min4(lo[0], lo[1]), Min4(lo[2], lo[3]));
	pbdF4 h = Max4(Max4(hi[0], hi[1]), Max4(hi[2], hi[3]));
	for (int k = 0; k < 3; ++k) {
		box[k] = pbdF4_Get(l, k);
		box[3 + k] = pbdF4_Get(h, k);
	}
}

/* The cast box is square-cornered; the particle's true region is the box rounded by r.
   From the square box's entry at *t, step along the segment by the exact distance still
   to go (sphere tracing: the corners add at most (sqrt 3 - 1) r) until within 1% of r
   of the rounded box, whose gradient is then the normal. 0 if the segment passes by. */
int pbd_RoundBoxEntry(const pbdColliderInfo* s, float r, const float o[3], const float d[3], float* t, float n[3])
{
	float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	if (!(len > 0.0f)) return 0;
	float tt = *t;
	for (int it = 0; it < 8; ++it) {
		float q[3] = { o[0] + tt * d[0], o[1] + tt * d[1], o[2] + tt * d[2] };
		float gap = ShapeSdf(s, q, n) - r;
		if (gap <= 0.01f * r) {
			*t = tt;
			return 1;
		}
		tt += gap / len;
		if (tt > 1.0f) return 0;
	}
	return 0; /* grazing the corner: the end point is checked as well */
}

/* ---------------------------------------------------------------- edges */

/* Closest points of the segment a + t e (t in [0, 1]) and the collider's core: the point
   at the origin (sphere) or the segment from (0, -hh, 0) to (0, hh, 0) (capsule), in the
   collider's frame (Ericson, "Real-Time Collision Detection", 5.1.9). Returns t; *d
   receives (edge point - core point). */
float pbd_EdgeToCore(const float a[3], const float b[3], float hh, float d[3])
{
	float e[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	float ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
	float t = 0.0f, y = 0.0f;
	/* A core shorter than float32 can square (a half height of 1e-20 or a denormal: 4 hh^2 is 0, and u below 0 / 0)
	   is the sphere's point (the fuzzer's capsule of half height 5.6e-45 turned every cloth particle NaN). */
	if (!(4.0f * hh * hh >= 1e-30f)) {
		if (ee > 1e-20f) {
			t = -(a[0] * e[0] + a[1] * e[1] + a[2] * e[2]) / ee;
			if (t < 0.0f) t = 0.0f;
			if (t > 1.0f) t = 1.0f;
		}
	} else {
		/* core from P2 = (0, -hh, 0) along d2 = (0, 2 hh, 0), parameter u in [0, 1] */
		float rr[3] = { a[0], a[1] + hh, a[2] };
		float E = 4.0f * hh * hh;
		float f = 2.0f * hh * rr[1];
		float u;
		if (ee <= 1e-20f) {
			t = 0.0f;
			u = f / E;
		} else {
			float c = e[0] * rr[0] + e[1] * rr[1] + e[2] * rr[2];
			float bb = 2.0f * hh * e[1];
			float denom = ee * E - bb * bb;
			if (denom > 0.0f) {
				t = (bb * f - c * E) / denom;
				if (t < 0.0f) t = 0.0f;
				if (t > 1.0f) t = 1.0f;
			}
			u = (bb * t + f) / E;
			if (u < 0.0f) {
				u = 0.0f;
				t = -c / ee;
			} else if (u > 1.0f) {
				u = 1.0f;
				t = (bb - c) / ee;
			}
			if (t < 0.0f) t = 0.0f;
			if (t > 1.0f) t = 1.0f;
		}
		if (u < 0.0f) u = 0.0f;
		if (u > 1.0f) u = 1.0f;
		y = -hh + u * 2.0f * hh;
	}
	float s = 1.0f - t;
	d[0] = s * a[0] + t * b[0];
	d[1] = s * a[1] + t * b[1] - y;
	d[2] = s * a[2] + t * b[2];
	return t;
}

