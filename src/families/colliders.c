/* colliders.c -- kinematic sphere, capsule and box colliders.

   A collider is a shape with a transform the user sets (pbd_World_SetColliderTransform);
   it is never moved by the particles. Particles are spheres of radius r = thickness / 2,
   so the constraint for particle i and collider c is the inequality

       C(p_i) = sdf_c(p_i) - r >= 0,

   projected only when violated (seed 000 section 1). A collider has w = 0, so the
   particle takes the whole correction (dp = -C grad C, the mass-weighted projection
   with the other side pinned).

   Motion. The solver calls pbd_Colliders_Solve in every Gauss-Seidel pass with alpha =
   (substep + 1) / substeps; the collider is at its start-of-step transform (prev) lerped
   toward the current one by alpha (nlerp for the rotation). Each test is made in the
   collider's frame: the particle's substep start x seen from the collider at the
   substep's start, its estimate p seen from the collider at alpha. The segment between
   them is the particle's motion relative to the collider, so a collider moving fast
   into a particle is the same problem as a particle moving fast into a resting collider.

   No tunnelling, particles. A particle that started the substep outside the inflated
   shape (distance >= r) casts its relative motion against the inflated shape; if the
   segment enters it, the contact is the tangent plane at the entry point (Macklin et al.
   2014, "Unified Particle Physics", sec. 5: contact planes from the start of the step):
   n . (p - entry) >= 0. So a particle crossing a thin box in one substep is stopped on
   the side it came from. A particle that started within r of the surface uses the plane
   at its start position's closest point; only a particle that started inside the shape
   itself (a teleport) is pushed out along the gradient at p. Points on these planes are
   at least r from the convex shape, so every branch leaves the particle outside. A box
   is felt rounded by r at its edges and corners, as a ball feels it: the cast against the
   box grown by r is refined on the exact SDF (RoundBoxEntry).

   No tunnelling, cloth edges (seed 001 section 4.3, "edge-sphere"). Two particles can pass
   either side of a sphere while the edge between them cuts through it. For every
   structural edge (stretch and chain constraints) the closest point q = (1-t) p_a + t p_b
   to the sphere centre (capsule segment) is kept at radius + r: C = |q - s| - rho >= 0
   with grad_a C = (1-t) n, grad_b C = t n, so seed 000's projection gives
   dp_a = -w_a (1-t) C n / (w_a (1-t)^2 + w_b t^2), and likewise for b. If the closest
   direction flipped between the substep's start and now, the edge went past the centre
   and is pushed back to the side it came from.

   Friction (Macklin et al. 2014, sec. 6.1, as SolveGround): the particle's tangential
   displacement relative to the collider surface over the substep is cancelled when it is
   below mu_s * depth (static) and otherwise shortened by mu_k * depth (kinetic). In the
   collider frame "relative to the surface" is simply p_local - x_local.

   Restitution (Mueller et al. 2020, sec. 3.5, as the ground in solver.c): in the first
   pass of each substep, a particle found in contact that approached the collider faster
   than 2 h |g| is recorded with its approach speed u = -(v* - v_collider) . n (w->v holds
   v* until Stage_Velocities). pbd_Colliders_Velocities then sets the normal velocity
   relative to the collider to at least e u. The records live in the world's pool (room
   for every particle against up to four colliders in one substep, pbd_ColliderBounceBytes).

   Cost. Every cull is conservative (the results do not depend on them): a whole object is
   skipped when the boxes around its particles miss the collider's world box; a particle
   when its motion's box misses it, or when it ends farther from the surface than it
   travelled (no sqrt); an edge when its box misses it, or when both ends are farther than
   rho + L/2 from the core. Edges are tested for spheres and capsules only.

   Determinism: + - * / sqrtf and comparisons only, in a fixed order, so native and wasm
   builds give the same bits. */
#include "families/family.h"
#include "base/simd.h"

#include <math.h>
#include <string.h>

#define PBD_SIZE_LIMIT 1e4f   /* radius, halfHeight, halfExtents in (0, 1e4] */
#define PBD_FRICTION_LIMIT 10.0f



/* ---------------------------------------------------------------- transforms */

/// world = m * local + c, m row-major, from a unit quaternion.
typedef struct pbdXf {
	float c[3];
	float m[9];
} pbdXf;

static void QuatToXf(const float pos[3], const float q[4], pbdXf* t)
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

static void ToLocal(const pbdXf* t, const float p[3], float out[3])
{
	float dx = p[0] - t->c[0], dy = p[1] - t->c[1], dz = p[2] - t->c[2];
	out[0] = t->m[0] * dx + t->m[3] * dy + t->m[6] * dz;
	out[1] = t->m[1] * dx + t->m[4] * dy + t->m[7] * dz;
	out[2] = t->m[2] * dx + t->m[5] * dy + t->m[8] * dz;
}

static void RotateToLocal(const pbdXf* t, const float v[3], float out[3])
{
	out[0] = t->m[0] * v[0] + t->m[3] * v[1] + t->m[6] * v[2];
	out[1] = t->m[1] * v[0] + t->m[4] * v[1] + t->m[7] * v[2];
	out[2] = t->m[2] * v[0] + t->m[5] * v[1] + t->m[8] * v[2];
}

static void Rotate(const pbdXf* t, const float v[3], float out[3])
{
	out[0] = t->m[0] * v[0] + t->m[1] * v[1] + t->m[2] * v[2];
	out[1] = t->m[3] * v[0] + t->m[4] * v[1] + t->m[5] * v[2];
	out[2] = t->m[6] * v[0] + t->m[7] * v[1] + t->m[8] * v[2];
}

static void ToWorld(const pbdXf* t, const float l[3], float out[3])
{
	Rotate(t, l, out);
	out[0] += t->c[0];
	out[1] += t->c[1];
	out[2] += t->c[2];
}

/* The collider's transform at a share alpha of the step: lerp of the position, nlerp of
   the rotation (shortest arc). alpha 0 and 1 give prev and current exactly. */
static void Interpolate(const pbdCollider* c, float alpha, pbdXf* out)
{
	const float* pos1 = c->shape.position;
	const float* q1 = c->shape.rotation;
	if (alpha >= 1.0f) {
		QuatToXf(pos1, q1, out);
		return;
	}
	if (alpha <= 0.0f) {
		QuatToXf(c->prevPosition, c->prevRotation, out);
		return;
	}
	const float* pos0 = c->prevPosition;
	const float* q0 = c->prevRotation;
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

/* ---------------------------------------------------------------- shapes, local frame */

static float Sign(float v) { return v < 0.0f ? -1.0f : 1.0f; }

/// Half size along world axis k of the box around the shape at transform t.
static float WorldExtent(const pbdColliderInfo* s, const pbdXf* t, int k)
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
static float ShapeSdf(const pbdColliderInfo* s, const float q[3], float n[3])
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
static int FarFromShape(const pbdColliderInfo* s, const float q[3], float r, float L2)
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

enum { CAST_INSIDE = -1, CAST_MISS = 0, CAST_HIT = 1 };

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
static int ShapeCast(const pbdColliderInfo* s, float inflate, const float o[3], const float d[3], float tmax, float* tHit,
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
static void ParticleBox(const float* p, int begin, int end, float box[6])
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
static int RoundBoxEntry(const pbdColliderInfo* s, float r, const float o[3], const float d[3], float* t, float n[3])
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

/* ---------------------------------------------------------------- step state */

typedef struct pbdBounce {
	int32_t particle, collider;
	float speed; ///< approach speed u > 0 along the contact normal, relative to the collider
} pbdBounce;

/* The world reserves one record per particle and collider pair it can hold at creation:
   a particle bounces off each collider it touched in a substep. */
size_t pbd_ColliderBounceBytes(int32_t maxParticles, int32_t maxColliders)
{
	return pbd_PoolBytes((size_t)maxParticles * (size_t)(maxColliders < 4 ? maxColliders : 4), sizeof(pbdBounce));
}

typedef struct pbdColliderFrame {
	pbdXf from, to;   ///< transform at the substep's start and at alpha
	float lo[3], hi[3]; ///< world box around the shape at both ends of the substep, grown by r
	float edgeLo[3], edgeHi[3]; ///< world box around the shape at alpha, grown by r
} pbdColliderFrame;

/* One world steps at a time (the engine is single-threaded and a step runs to its end),
   so the per-step state lives here, set up by BeginStep. */
static struct {
	const pbdWorld* world;
	int newSubstep;     ///< the next Solve call is the first pass of a substep
	int pass;           ///< Gauss-Seidel pass within the substep
	float alphaFrom;    ///< share of the step at the substep's start
	float alphaTo;
	float h, restingSpeed;
	pbdColliderFrame frames[PBD_MAX_COLLIDERS];
	int32_t bounceCount;
	/* Boxes (min xyz, max xyz) around each object's particles, so a collider skips whole
	   objects it cannot reach: x's once per substep (x is fixed during the solve), p's once
	   per pass, then grown by every particle a collider moves. */
	float xBox[PBD_MAX_OBJECTS][6];
	float pBox[PBD_MAX_OBJECTS][6];
	uint8_t pBoxValid[PBD_MAX_OBJECTS];
} s_step;

void pbd_Colliders_BeginStep(pbdWorld* w)
{
	s_step.world = w;
	s_step.newSubstep = 1;
	s_step.pass = 0;
	s_step.alphaFrom = 0.0f;
	s_step.alphaTo = 0.0f;
	s_step.bounceCount = 0;
}

void pbd_Colliders_EndStep(pbdWorld* w)
{
	for (int i = 0; i < w->colliderCount; ++i) {
		pbdCollider* c = &w->colliders[i];
		memcpy(c->prevPosition, c->shape.position, sizeof c->prevPosition);
		memcpy(c->prevRotation, c->shape.rotation, sizeof c->prevRotation);
	}
	s_step.world = NULL;
	s_step.bounceCount = 0;
}

static void BeginSubstep(pbdWorld* w, float alpha)
{
	const float r = 0.5f * w->params[pbdParam_thickness];
	s_step.alphaTo = alpha;
	s_step.pass = 0;
	s_step.newSubstep = 0;
	/* the same h and resting speed as solver.c computes */
	s_step.h = w->params[pbdParam_dt] / (float)(int)w->params[pbdParam_substeps];
	const float* g = &w->params[pbdParam_gravityX];
	s_step.restingSpeed = 2.0f * s_step.h * sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
	for (int o = 0; o < w->objectCount; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		ParticleBox(w->x, info->firstParticle, info->firstParticle + info->particleCount, s_step.xBox[o]);
	}
	for (int i = 0; i < w->colliderCount; ++i) {
		const pbdCollider* c = &w->colliders[i];
		pbdColliderFrame* f = &s_step.frames[i];
		Interpolate(c, s_step.alphaFrom, &f->from);
		Interpolate(c, alpha, &f->to);
		for (int k = 0; k < 3; ++k) {
			float ea = WorldExtent(&c->shape, &f->from, k) + r, eb = WorldExtent(&c->shape, &f->to, k) + r;
			float alo = f->from.c[k] - ea, ahi = f->from.c[k] + ea;
			float blo = f->to.c[k] - eb, bhi = f->to.c[k] + eb;
			f->lo[k] = alo < blo ? alo : blo;
			f->hi[k] = ahi > bhi ? ahi : bhi;
			f->edgeLo[k] = blo;
			f->edgeHi[k] = bhi;
		}
	}
}

/* ---------------------------------------------------------------- particles */

static float* ObjectPBox(const pbdWorld* w, int o)
{
	if (!s_step.pBoxValid[o]) {
		const pbdObjectInfo* info = &w->objects[o];
		ParticleBox(w->p, info->firstParticle, info->firstParticle + info->particleCount, s_step.pBox[o]);
		s_step.pBoxValid[o] = 1;
	}
	return s_step.pBox[o];
}

/* Keeps an object's p box a superset after a particle moved. */
static void GrowBox(float* box, const float* p)
{
	for (int k = 0; k < 3; ++k) {
		if (p[k] < box[k]) box[k] = p[k];
		if (p[k] > box[3 + k]) box[3 + k] = p[k];
	}
}

static int BoxesMiss(const float* box, const float lo[3], const float hi[3])
{
	return box[0] > hi[0] || box[3] < lo[0] || box[1] > hi[1] || box[4] < lo[1] || box[2] > hi[2] || box[5] < lo[2];
}

/* Particles [begin, end) against one collider; `box` (theirs, of p) grows with every move. */
static void SolveParticles(pbdWorld* w, int index, float r, int begin, int end, float* box)
{
	const pbdColliderInfo* s = &w->colliders[index].shape;
	const pbdColliderFrame* f = &s_step.frames[index];
	const float muS = s->staticFriction, muK = s->kineticFriction;
	const float lo0 = f->lo[0], lo1 = f->lo[1], lo2 = f->lo[2];
	const float hi0 = f->hi[0], hi1 = f->hi[1], hi2 = f->hi[2];
	const int record = s_step.pass == 0;
	/* not turning this substep: the relative motion's length is the same in world */
	const int turning = memcmp(f->from.m, f->to.m, sizeof f->from.m) != 0;
	const float dc0 = f->to.c[0] - f->from.c[0], dc1 = f->to.c[1] - f->from.c[1], dc2 = f->to.c[2] - f->from.c[2];
	for (int i = begin; i < end; ++i) {
		float* p = w->p + 4 * i;
		const float* x = w->x + 4 * i;
		/* cull: the motion's box against the collider's swept box, no sqrt */
		if ((p[0] < lo0 && x[0] < lo0) || (p[0] > hi0 && x[0] > hi0)) continue;
		if ((p[1] < lo1 && x[1] < lo1) || (p[1] > hi1 && x[1] > hi1)) continue;
		if ((p[2] < lo2 && x[2] < lo2) || (p[2] > hi2 && x[2] > hi2)) continue;
		if (p[3] <= 0.0f) continue;

		float xl[3], pl[3], nx[3], nrm[3] = { 0.0f, 0.0f, 0.0f }; /* set wherever depth > 0 */
		ToLocal(&f->to, p, pl);
		float L2;
		if (turning) {
			ToLocal(&f->from, x, xl);
			float m0 = pl[0] - xl[0], m1 = pl[1] - xl[1], m2 = pl[2] - xl[2];
			L2 = m0 * m0 + m1 * m1 + m2 * m2;
		} else {
			float m0 = p[0] - x[0] - dc0, m1 = p[1] - x[1] - dc1, m2 = p[2] - x[2] - dc2;
			L2 = m0 * m0 + m1 * m1 + m2 * m2;
		}
		/* cull: nowhere near the surface this substep, no sqrt */
		if (FarFromShape(s, pl, r, L2)) continue;
		if (!turning) ToLocal(&f->from, x, xl);
		float dx = ShapeSdf(s, xl, nx);
		float depth = 0.0f;
		/* the plane at x's closest point, moved out by r: n . p >= n . x - d_x + r */
		float planeFromX = nx[0] * xl[0] + nx[1] * xl[1] + nx[2] * xl[2] - dx + r;
		if (dx >= r) {
			/* started clear: cast the relative motion against the inflated shape, unless
			   it is shorter than the clearance (the SDF is exact, so it cannot get there) */
			float dir[3] = { pl[0] - xl[0], pl[1] - xl[1], pl[2] - xl[2] };
			float clear = dx - r;
			if (dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2] < clear * clear) continue;
			float t, nh[3];
			int hit = ShapeCast(s, r, xl, dir, 1.0f, &t, nh) == CAST_HIT;
			if (hit && s->type == pbdShape_box) hit = RoundBoxEntry(s, r, xl, dir, &t, nh);
			if (hit) {
				float e[3] = { xl[0] + t * dir[0], xl[1] + t * dir[1], xl[2] + t * dir[2] };
				float C = nh[0] * (pl[0] - e[0]) + nh[1] * (pl[1] - e[1]) + nh[2] * (pl[2] - e[2]);
				if (C < 0.0f) {
					depth = -C;
					memcpy(nrm, nh, sizeof nrm);
				}
			} else {
				/* rounding at the surface, or a box corner (the cast box is square-cornered) */
				float np[3];
				if (ShapeSdf(s, pl, np) < r) {
					float C = nx[0] * pl[0] + nx[1] * pl[1] + nx[2] * pl[2] - planeFromX;
					if (C < 0.0f) {
						depth = -C;
						memcpy(nrm, nx, sizeof nrm);
					}
				}
			}
		} else if (dx >= 0.0f) {
			/* started within r of the surface: keep to the side it was on */
			float C = nx[0] * pl[0] + nx[1] * pl[1] + nx[2] * pl[2] - planeFromX;
			if (C < 0.0f) {
				depth = -C;
				memcpy(nrm, nx, sizeof nrm);
			}
		} else {
			/* started inside the shape (teleported there): out along the gradient */
			float np[3];
			float dp = ShapeSdf(s, pl, np);
			if (dp < r) {
				depth = r - dp;
				memcpy(nrm, np, sizeof nrm);
			}
		}
		if (!(depth > 0.0f)) continue;

		pl[0] += depth * nrm[0];
		pl[1] += depth * nrm[1];
		pl[2] += depth * nrm[2];
		/* friction on the displacement relative to the collider's surface */
		float disp[3] = { pl[0] - xl[0], pl[1] - xl[1], pl[2] - xl[2] };
		float dn = disp[0] * nrm[0] + disp[1] * nrm[1] + disp[2] * nrm[2];
		float tg[3] = { disp[0] - dn * nrm[0], disp[1] - dn * nrm[1], disp[2] - dn * nrm[2] };
		float travel = sqrtf(tg[0] * tg[0] + tg[1] * tg[1] + tg[2] * tg[2]);
		if (travel < muS * depth) {
			pl[0] -= tg[0];
			pl[1] -= tg[1];
			pl[2] -= tg[2];
		} else if (travel > 0.0f) {
			float fk = muK * depth / travel;
			if (fk > 1.0f) fk = 1.0f;
			pl[0] -= fk * tg[0];
			pl[1] -= fk * tg[1];
			pl[2] -= fk * tg[2];
		}
		ToWorld(&f->to, pl, p);
		GrowBox(box, p);

		if (record && s_step.bounceCount < w->bounceCapacity) {
			/* approach speed against the collider's surface point: v* - (T_to(pl) - T_from(pl)) / h */
			float from[3], nw[3];
			ToWorld(&f->from, pl, from);
			Rotate(&f->to, nrm, nw);
			const float* v = w->v + 4 * i; /* v*, until Stage_Velocities */
			float u = 0.0f;
			for (int k = 0; k < 3; ++k) u -= (v[k] - (p[k] - from[k]) / s_step.h) * nw[k];
			if (u > s_step.restingSpeed) {
				pbdBounce* b = (pbdBounce*)w->bounces + s_step.bounceCount++;
				b->particle = i;
				b->collider = index;
				b->speed = u;
			}
		}
	}
}

/* ---------------------------------------------------------------- edges */

/* Closest points of the segment a + t e (t in [0, 1]) and the collider's core: the point
   at the origin (sphere) or the segment from (0, -hh, 0) to (0, hh, 0) (capsule), in the
   collider's frame (Ericson, "Real-Time Collision Detection", 5.1.9). Returns t; *d
   receives (edge point - core point). */
static float EdgeToCore(const float a[3], const float b[3], float hh, float d[3])
{
	float e[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	float ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
	float t = 0.0f, y = 0.0f;
	if (hh <= 0.0f) {
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

/* An edge end in the collider's frame; a sphere's rotation does not matter, so skip it. */
static void EdgeEndLocal(const pbdXf* t, int sphere, const float* p, float out[3])
{
	if (sphere) {
		out[0] = p[0] - t->c[0];
		out[1] = p[1] - t->c[1];
		out[2] = p[2] - t->c[2];
	} else {
		ToLocal(t, p, out);
	}
}

/* The structural edges of a group against one sphere or capsule; `box` (the object's, of
   p) grows with every move. */
static void SolveEdges(pbdWorld* w, int index, float r, const pbdGroup* group, float* box)
{
	const pbdColliderInfo* s = &w->colliders[index].shape;
	const pbdColliderFrame* f = &s_step.frames[index];
	const int sphere = s->type == pbdShape_sphere;
	const float hh = sphere ? 0.0f : s->halfHeight;
	const float rho = s->radius + r, rho2 = rho * rho;
	const float lo0 = f->edgeLo[0], lo1 = f->edgeLo[1], lo2 = f->edgeLo[2];
	const float hi0 = f->edgeHi[0], hi1 = f->edgeHi[1], hi2 = f->edgeHi[2];
	/* the core in world: centre and (capsule) unit axis, the local y column */
	const float cx = f->to.c[0], cy = f->to.c[1], cz = f->to.c[2];
	const float ax = f->to.m[1], ay = f->to.m[4], az = f->to.m[7];
	const float twoRho2 = 2.0f * rho2;
	float* p = w->p;
	const int32_t* ca = w->ca;
	const int32_t* cb = w->cb;
	{
		const int end = group->first + group->count;
		for (int c = group->first; c < end; ++c) {
			float* pa = p + 4 * ca[c];
			float* pb = p + 4 * cb[c];
			/* cull: the edge's box against the collider's ball at alpha, no sqrt */
			if ((pa[0] < lo0 && pb[0] < lo0) || (pa[0] > hi0 && pb[0] > hi0)) continue;
			if ((pa[1] < lo1 && pb[1] < lo1) || (pa[1] > hi1 && pb[1] > hi1)) continue;
			if ((pa[2] < lo2 && pb[2] < lo2) || (pa[2] > hi2 && pb[2] > hi2)) continue;
			if (ca[c] == cb[c]) continue; /* torn */
			float wa = pa[3], wb = pb[3];
			if (wa + wb <= 0.0f) continue;
			/* cheap exact reject, no sqrt: every point of the edge is within L/2 of an end, so
			   if both ends are farther than rho + L/2 from the core it cannot touch; tested
			   as d^2 >= 2 rho^2 + L^2 / 2 >= (rho + L/2)^2 */
			{
				float ex = pb[0] - pa[0], ey = pb[1] - pa[1], ez = pb[2] - pa[2];
				float bound = twoRho2 + 0.5f * (ex * ex + ey * ey + ez * ez);
				float ux = pa[0] - cx, uy = pa[1] - cy, uz = pa[2] - cz;
				float vx = pb[0] - cx, vy = pb[1] - cy, vz = pb[2] - cz;
				if (!sphere) {
					float ya = ux * ax + uy * ay + uz * az, yb = vx * ax + vy * ay + vz * az;
					ya = ya > hh ? hh : (ya < -hh ? -hh : ya);
					yb = yb > hh ? hh : (yb < -hh ? -hh : yb);
					ux -= ya * ax, uy -= ya * ay, uz -= ya * az;
					vx -= yb * ax, vy -= yb * ay, vz -= yb * az;
				}
				float uu = ux * ux + uy * uy + uz * uz, vv = vx * vx + vy * vy + vz * vz;
				if (uu >= bound && vv >= bound) continue;
				if (sphere) {
					/* exact for a sphere, still no divide: the closest point is an end, or inside
					   where dist^2 |e|^2 = |u|^2 |e|^2 - (u . e)^2 */
					float ee = ex * ex + ey * ey + ez * ez, ue = -(ux * ex + uy * ey + uz * ez);
					if (ue <= 0.0f ? uu >= rho2 : ue >= ee ? vv >= rho2 : uu * ee - ue * ue >= rho2 * ee) continue;
				}
			}

			float la[3], lb[3], d[3];
			EdgeEndLocal(&f->to, sphere, pa, la);
			EdgeEndLocal(&f->to, sphere, pb, lb);
			float t = EdgeToCore(la, lb, hh, d);
			float dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
			if (dist2 >= rho2) continue;
			/* a pinned end inside the collider cannot be helped: its lever would be unbounded */
			float nd[3];
			if ((wa <= 0.0f && ShapeSdf(s, la, nd) < r) || (wb <= 0.0f && ShapeSdf(s, lb, nd) < r)) continue;

			float dist = sqrtf(dist2);
			float n[3];
			int haveNormal = dist > 1e-9f;
			if (haveNormal) {
				n[0] = d[0] / dist, n[1] = d[1] / dist, n[2] = d[2] / dist;
			}
			/* the side the edge came from: its closest direction at the substep's start */
			float xa[3], xb[3], d0[3];
			EdgeEndLocal(&f->from, sphere, w->x + 4 * ca[c], xa);
			EdgeEndLocal(&f->from, sphere, w->x + 4 * cb[c], xb);
			EdgeToCore(xa, xb, hh, d0);
			float len0 = sqrtf(d0[0] * d0[0] + d0[1] * d0[1] + d0[2] * d0[2]);
			if (len0 > 1e-9f && (!haveNormal || d0[0] * d[0] + d0[1] * d[1] + d0[2] * d[2] < 0.0f)) {
				n[0] = d0[0] / len0, n[1] = d0[1] / len0, n[2] = d0[2] / len0;
				haveNormal = 1;
			}
			if (!haveNormal) continue;
			float C = n[0] * d[0] + n[1] * d[1] + n[2] * d[2] - rho;
			if (C >= 0.0f) continue;
			float s1 = 1.0f - t;
			float denom = wa * s1 * s1 + wb * t * t;
			if (!(denom > 0.0f)) continue;
			/* The projection moves q by -C n. Friction, as for particles, on q's travel
			   relative to the surface over the substep (now minus where the same edge point
			   was at the start), moved by the same weights so q moves by exactly -C n - f. */
			float depth = -C;
			float move[3];
			{
				float q0[3], q1[3];
				for (int k = 0; k < 3; ++k) {
					q0[k] = s1 * xa[k] + t * xb[k];
					q1[k] = s1 * la[k] + t * lb[k] + depth * n[k];
				}
				float disp[3] = { q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2] };
				float dn = disp[0] * n[0] + disp[1] * n[1] + disp[2] * n[2];
				float tg[3] = { disp[0] - dn * n[0], disp[1] - dn * n[1], disp[2] - dn * n[2] };
				float travel = sqrtf(tg[0] * tg[0] + tg[1] * tg[1] + tg[2] * tg[2]);
				float fk = 0.0f;
				if (travel < s->staticFriction * depth) {
					fk = 1.0f;
				} else if (travel > 0.0f) {
					fk = s->kineticFriction * depth / travel;
					if (fk > 1.0f) fk = 1.0f;
				}
				for (int k = 0; k < 3; ++k) move[k] = depth * n[k] - fk * tg[k];
			}
			float moveW[3];
			if (sphere) {
				memcpy(moveW, move, sizeof moveW);
			} else {
				Rotate(&f->to, move, moveW);
			}
			float ka = wa * s1 / denom, kb = wb * t / denom;
			pa[0] += ka * moveW[0];
			pa[1] += ka * moveW[1];
			pa[2] += ka * moveW[2];
			pb[0] += kb * moveW[0];
			pb[1] += kb * moveW[1];
			pb[2] += kb * moveW[2];
			GrowBox(box, pa);
			GrowBox(box, pb);
		}
	}
}

/* ---------------------------------------------------------------- solver hooks */

void pbd_Colliders_Solve(pbdWorld* w, float alpha)
{
	if (s_step.world != w) pbd_Colliders_BeginStep(w); /* defensive: hooks called without BeginStep */
	if (s_step.newSubstep) BeginSubstep(w, alpha);
	else s_step.pass += 1;
	const float r = 0.5f * w->params[pbdParam_thickness];
	memset(s_step.pBoxValid, 0, sizeof s_step.pBoxValid);
	for (int i = 0; i < w->colliderCount; ++i) {
		const pbdColliderFrame* f = &s_step.frames[i];
		for (int o = 0; o < w->objectCount; ++o) {
			/* cull the object: every particle's motion x -> p lies in the hull of both boxes */
			const float* xb = s_step.xBox[o];
			float* pb = ObjectPBox(w, o);
			float hull[6];
			for (int k = 0; k < 3; ++k) {
				hull[k] = xb[k] < pb[k] ? xb[k] : pb[k];
				hull[3 + k] = xb[3 + k] > pb[3 + k] ? xb[3 + k] : pb[3 + k];
			}
			if (BoxesMiss(hull, f->lo, f->hi)) continue;
			const pbdObjectInfo* info = &w->objects[o];
			SolveParticles(w, i, r, info->firstParticle, info->firstParticle + info->particleCount, pb);
		}
		int type = w->colliders[i].shape.type;
		if (type != pbdShape_sphere && type != pbdShape_capsule) continue;
		for (int g = 0; g < w->groupCount; ++g) {
			const pbdGroup* group = &w->groups[g];
			if (group->kind != pbdKind_stretch && group->kind != pbdKind_chain) continue;
			float* pb = ObjectPBox(w, group->object);
			if (BoxesMiss(pb, f->edgeLo, f->edgeHi)) continue;
			SolveEdges(w, i, r, group, pb);
		}
	}
}

void pbd_Colliders_Velocities(pbdWorld* w, float h)
{
	if (s_step.world != w) return;
	for (int k = 0; k < s_step.bounceCount; ++k) {
		const pbdBounce* b = (const pbdBounce*)w->bounces + k;
		const pbdColliderInfo* s = &w->colliders[b->collider].shape;
		const pbdColliderFrame* f = &s_step.frames[b->collider];
		const float* p = w->p + 4 * b->particle;
		float* v = w->v + 4 * b->particle;
		float pl[3], nl[3], n[3], from[3];
		ToLocal(&f->to, p, pl);
		ShapeSdf(s, pl, nl);
		Rotate(&f->to, nl, n);
		ToWorld(&f->from, pl, from);
		float vc[3], vn = 0.0f;
		for (int i = 0; i < 3; ++i) {
			vc[i] = (p[i] - from[i]) / h;
			vn += (v[i] - vc[i]) * n[i];
		}
		float target = s->restitution * b->speed;
		if (vn < target) {
			float dv = target - vn;
			v[0] += dv * n[0];
			v[1] += dv * n[1];
			v[2] += dv * n[2];
		}
	}
	s_step.bounceCount = 0;
	s_step.alphaFrom = s_step.alphaTo;
	s_step.newSubstep = 1;
}

/* ---------------------------------------------------------------- API */

pbdColliderDef pbd_DefaultColliderDef(void)
{
	pbdColliderDef def;
	memset(&def, 0, sizeof def);
	def.rotation[3] = 1.0f;
	def.radius = 0.5f;
	def.halfHeight = 0.5f;
	def.halfExtents[0] = def.halfExtents[1] = def.halfExtents[2] = 0.5f;
	def.staticFriction = 0.5f;
	def.kineticFriction = 0.4f;
	def.internalValue = PBD_COOKIE;
	return def;
}


static int CheckPosition(const float v[3], const char* what)
{
	for (int k = 0; k < 3; ++k) {
		if (!pbd_IsCoord(v[k])) {
			return pbd_SetError(pbd_IsFinite(v[k]) ? PBD_ERR_INVALID_ARGUMENT : PBD_ERR_NOT_FINITE,
								"%s[%d] must be finite and within +-%g, got %g", what, k, (double)PBD_COORD_LIMIT, (double)v[k]);
		}
	}
	return PBD_OK;
}

/* A finite, non-zero quaternion, returned normalised (scaled by its largest component
   first, so neither huge nor tiny inputs overflow or underflow). */
static int CheckRotation(const float q[4], float out[4])
{
	float m = 0.0f;
	for (int k = 0; k < 4; ++k) {
		if (!pbd_IsFinite(q[k])) return pbd_SetError(PBD_ERR_NOT_FINITE, "collider rotation[%d] is %g", k, (double)q[k]);
		float a = fabsf(q[k]);
		if (a > m) m = a;
	}
	if (m == 0.0f) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "collider rotation is the zero quaternion");
	float s[4], len2 = 0.0f;
	for (int k = 0; k < 4; ++k) {
		s[k] = q[k] / m;
		len2 += s[k] * s[k];
	}
	float len = sqrtf(len2);
	for (int k = 0; k < 4; ++k) out[k] = s[k] / len;
	return PBD_OK;
}

static int CheckRange(float v, float lo, float hi, int loOpen, const char* what)
{
	if (!pbd_IsFinite(v)) return pbd_SetError(PBD_ERR_NOT_FINITE, "collider %s is %g", what, (double)v);
	if ((loOpen ? v <= lo : v < lo) || v > hi) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "collider %s must be in %c%g, %g], got %g", what, loOpen ? '(' : '[',
							(double)lo, (double)hi, (double)v);
	}
	return PBD_OK;
}

/* A collider's frictions and restitution, as pbdColliderDef documents them. */
#define CHECK_COLLIDER(w, i)                                                                                    \
	if ((i) < 0 || (i) >= (w)->colliderCount)                                                                   \
	return pbd_SetError(PBD_ERR_INVALID_COLLIDER, "collider %d of %d", (int)(i), (w)->colliderCount)

static int CheckMaterial(float staticFriction, float kineticFriction, float restitution)
{
	int err;
	if ((err = CheckRange(staticFriction, 0.0f, PBD_FRICTION_LIMIT, 0, "staticFriction")) != PBD_OK) return err;
	if ((err = CheckRange(kineticFriction, 0.0f, PBD_FRICTION_LIMIT, 0, "kineticFriction")) != PBD_OK) return err;
	return CheckRange(restitution, 0.0f, 1.0f, 0, "restitution");
}

int pbd_World_AddCollider(pbdWorldId id, const pbdColliderDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetError(PBD_ERR_BAD_DEF, "use pbd_DefaultColliderDef()");
	if (def->type < 0 || def->type >= pbdShape_count) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "collider type %d (0 sphere, 1 capsule, 2 box)", (int)def->type);
	}
	int err;
	if ((err = CheckPosition(def->position, "collider position")) != PBD_OK) return err;
	float q[4];
	if ((err = CheckRotation(def->rotation, q)) != PBD_OK) return err;
	pbdColliderInfo shape;
	memset(&shape, 0, sizeof shape);
	shape.type = def->type;
	/* only the sizes the shape uses are checked and kept; the others read back as 0 */
	if (def->type == pbdShape_sphere || def->type == pbdShape_capsule) {
		if ((err = CheckRange(def->radius, 0.0f, PBD_SIZE_LIMIT, 1, "radius")) != PBD_OK) return err;
		shape.radius = def->radius;
	}
	if (def->type == pbdShape_capsule) {
		if ((err = CheckRange(def->halfHeight, 0.0f, PBD_SIZE_LIMIT, 1, "halfHeight")) != PBD_OK) return err;
		shape.halfHeight = def->halfHeight;
	}
	if (def->type == pbdShape_box) {
		static const char* const names[3] = { "halfExtents[0]", "halfExtents[1]", "halfExtents[2]" };
		for (int k = 0; k < 3; ++k) {
			if ((err = CheckRange(def->halfExtents[k], 0.0f, PBD_SIZE_LIMIT, 1, names[k])) != PBD_OK) return err;
			shape.halfExtents[k] = def->halfExtents[k];
		}
	}
	if ((err = CheckMaterial(def->staticFriction, def->kineticFriction, def->restitution)) != PBD_OK) return err;
	if (w->colliderCount >= w->maxColliders) {
		return pbd_SetError(PBD_ERR_COLLIDER_CAPACITY, "all %d colliders are in use", w->maxColliders);
	}

	memcpy(shape.position, def->position, sizeof shape.position);
	memcpy(shape.rotation, q, sizeof shape.rotation);
	shape.staticFriction = def->staticFriction;
	shape.kineticFriction = def->kineticFriction;
	shape.restitution = def->restitution;
	int index = w->colliderCount;
	pbdCollider* c = &w->colliders[index];
	c->shape = shape;
	memcpy(c->prevPosition, shape.position, sizeof c->prevPosition);
	memcpy(c->prevRotation, shape.rotation, sizeof c->prevRotation);
	w->colliderCount += 1;
	return index;
}

int pbd_World_SetColliderTransform(pbdWorldId id, int collider, float px, float py, float pz, float qx, float qy, float qz,
								   float qw)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_COLLIDER(w, collider);
	float pos[3] = { px, py, pz }, rot[4] = { qx, qy, qz, qw }, q[4];
	int err;
	if ((err = CheckPosition(pos, "collider position")) != PBD_OK) return err;
	if ((err = CheckRotation(rot, q)) != PBD_OK) return err;
	/* prev keeps the start-of-step transform: the next step sweeps from there to here */
	pbdColliderInfo* s = &w->colliders[collider].shape;
	memcpy(s->position, pos, sizeof pos);
	memcpy(s->rotation, q, sizeof q);
	return PBD_OK;
}

int pbd_World_SetColliderMaterial(pbdWorldId id, int collider, float staticFriction, float kineticFriction, float restitution)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_COLLIDER(w, collider);
	/* all three checked before any is set: a refused call changes nothing */
	int err = CheckMaterial(staticFriction, kineticFriction, restitution);
	if (err != PBD_OK) return err;
	pbdColliderInfo* s = &w->colliders[collider].shape;
	s->staticFriction = staticFriction;
	s->kineticFriction = kineticFriction;
	s->restitution = restitution;
	return PBD_OK;
}

int pbd_World_GetColliderCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->colliderCount;
}

int pbd_World_GetColliderInfo(pbdWorldId id, int collider, pbdColliderInfo* info)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_COLLIDER(w, collider);
	if (info == NULL) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "info is NULL");
	*info = w->colliders[collider].shape;
	return PBD_OK;
}

float pbd_World_ColliderDistance(pbdWorldId id, int collider, float x, float y, float z)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) {
		pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
		return NAN;
	}
	if (collider < 0 || collider >= w->colliderCount) {
		pbd_SetError(PBD_ERR_INVALID_COLLIDER, "collider %d of %d", collider, w->colliderCount);
		return NAN;
	}
	float point[3] = { x, y, z };
	if (CheckPosition(point, "point") != PBD_OK) return NAN;
	const pbdColliderInfo* s = &w->colliders[collider].shape;
	pbdXf t;
	QuatToXf(s->position, s->rotation, &t);
	float q[3], n[3];
	ToLocal(&t, point, q);
	return ShapeSdf(s, q, n);
}

int pbd_World_RayCastColliders(pbdWorldId id, float ox, float oy, float oz, float dx, float dy, float dz, float* tOut)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) {
		pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
		return -1;
	}
	float o[3] = { ox, oy, oz }, d[3] = { dx, dy, dz };
	if (CheckPosition(o, "ray origin") != PBD_OK || CheckPosition(d, "ray direction") != PBD_OK) return -1;
	float len = sqrtf(dx * dx + dy * dy + dz * dz);
	if (!(len > 1e-12f)) {
		pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "ray direction is zero");
		return -1;
	}
	d[0] /= len, d[1] /= len, d[2] /= len;
	int best = -1;
	float bestT = 3.4e38f;
	for (int i = 0; i < w->colliderCount; ++i) {
		const pbdColliderInfo* s = &w->colliders[i].shape;
		pbdXf xf;
		QuatToXf(s->position, s->rotation, &xf);
		float lo[3], ld[3], t, n[3];
		ToLocal(&xf, o, lo);
		RotateToLocal(&xf, d, ld);
		/* a collider around the origin is not hit (Box2D's rule): picking sees through it */
		if (ShapeCast(s, 0.0f, lo, ld, bestT, &t, n) == CAST_HIT && t < bestT) {
			best = i;
			bestT = t;
		}
	}
	if (tOut != NULL) *tOut = best >= 0 ? bestT : -1.0f;
	return best;
}

/* ---------------------------------------------------------------- family */

static void Colliders_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	if (w->colliderCount > 0) pbd_Colliders_BeginStep(w);
}

static int32_t Colliders_ColourCount(const pbdWorld* w, const void* state) { return w->colliderCount > 0; }

static int32_t Colliders_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 1;
	return 1;
}

static void Colliders_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbd_Colliders_Solve(w, ctx->alpha);
}

static void Colliders_Velocities(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	if (w->colliderCount > 0) pbd_Colliders_Velocities(w, ctx->h);
}

static void Colliders_EndStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	if (w->colliderCount > 0) pbd_Colliders_EndStep(w);
}

const pbdFamily pbd_family_colliders = {
	.name = "colliders",
	.prepareStep = Colliders_PrepareStep,
	.colourCount = Colliders_ColourCount,
	.colourSize = Colliders_ColourSize,
	.solve = Colliders_Solve,
	.velocities = Colliders_Velocities,
	.endStep = Colliders_EndStep,
};
