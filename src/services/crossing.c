/* services/crossing.c -- no particle's path crosses a sheet within a substep: the continuous test of a moving point
   against moving triangles (Provot 1997; Bridson, Fedkiw and Anderson 2002, "Robust treatment of collisions, contact
   and friction for cloth animation"), for the families that keep particles on their side of a cloth: the fluid's
   guard (families/fluid_guard.c, issue 22 item 1) and the particle contacts' (families/contacts_sheets.c).
   Two ways to keep the side: the fluid's moves the particle alone (every particle's result its own, so threads
   share the particles out); the contacts' pushes the particle and the triangle apart along its normal with their
   masses (a body's weight reaches the cloth), one particle after another.

   After the passes, a particle's path in the substep, from x (where it started) to p (where the solve left it), is
   tested against every sheet triangle moving from its x to its p, all linearly in time. The point q(t) is in the
   plane of the triangle (a(t), b(t), c(t)) where f(t) = ((b - a) x (c - a)) . (q - a) = 0, a cubic in t; each root
   in (0, 1] (the interval cut where f' = 0, each piece with a sign change bisected) is a crossing when q lies within
   the triangle then (barycentric coordinates >= -PBD_CROSSING_SLACK, so a path through an edge or a corner meets at
   least one of the triangles sharing it). A first test took f as linear in t: fluid particles slipped between two
   neighbours at a crease, each crossing its plane just outside itself (7% past an edge, measured), which the exact
   roots close.

   The earliest crossing of the path stops the particle there: it ends the substep at that point of the triangle,
   carried with the triangle to the substep's end, the caller's distance off it on the side it came from (the side
   is f's sign before the root); or, shared, the particle and the triangle pushed apart to that distance. That is an inelastic contact that holds, for the rest of this substep; the next
   substep's contacts take over. The new path can meet a neighbour at a crease, so the test runs again from the
   start, up to PBD_CROSSING_ROUNDS times, the distance halved each round so a particle in a fold closing on it fits
   the gap. The sheet is not moved: moving only the guarded particle keeps every particle's result its own (threads
   take ranges of particles: the same bits at any split). */
#include "services/crossing.h"
#include "services/materials.h"

#include <math.h>

/* How far past a triangle's edges a crossing still counts (a fraction of its barycentric range). */
#define PBD_CROSSING_SLACK 1e-3f

typedef struct GuardVisit {
	const pbdCrossing* b;
	const float* x0; ///< the particle's start
	float* p1;       ///< its end, corrected in place
	int32_t own;          ///< the particle's object: its own triangles are not tested (-1: none)
	int32_t corner;       ///< the particle itself: triangles it is a corner of are not tested (-1: none)
	const uint8_t* meets; ///< per object: 0 where the particle's filter does not meet it (NULL: all)
	/* the earliest time in [0, 1] the path goes through a triangle (> 1: none), the triangle, the point's
	   barycentric coordinates in it then, and the side it came from (+1: the side of (b - a) x (c - a)) */
	float when;
	int32_t triangle;
	float uv[2];
	float side;
} GuardVisit;

static inline void Sub3(const float* a, const float* b, float* out) { out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2]; }
static inline float Dot3(const float* a, const float* b) { return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]; }
static inline void Cross3(const float* a, const float* b, float* out)
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Whether q lies within triangle (a, b, c) (their plane's projection), up to PBD_CROSSING_SLACK, with its
   barycentric coordinates (along b - a, c - a) in uv. */
static int Within(const float* q, const float* a, const float* b, const float* c, float* uv)
{
	float v0[3], v1[3], v2[3];
	Sub3(b, a, v0);
	Sub3(c, a, v1);
	Sub3(q, a, v2);
	const float d00 = Dot3(v0, v0), d01 = Dot3(v0, v1), d11 = Dot3(v1, v1);
	const float d20 = Dot3(v2, v0), d21 = Dot3(v2, v1);
	const float den = d00 * d11 - d01 * d01;
	if (!(den > 0.0f)) return 0;
	const float v = (d11 * d20 - d01 * d21) / den;
	const float u = (d00 * d21 - d01 * d20) / den;
	uv[0] = v, uv[1] = u;
	return v >= -PBD_CROSSING_SLACK && u >= -PBD_CROSSING_SLACK && v + u <= 1.0f + PBD_CROSSING_SLACK;
}

/* f(t) = c0 + c1 t + c2 t^2 + c3 t^3 */
static inline float Cubic(const float* c, float t) { return c[0] + t * (c[1] + t * (c[2] + t * c[3])); }

/* The roots of f in (0, 1] where it changes sign, earliest first, into roots[3] (the number returned): the
   interval cut at the roots of f' and each piece whose ends differ in sign bisected to float precision (a fixed
   order of + - * / on every build: the same roots). */
static int32_t CubicRoots(const float* c, float* roots)
{
	float cut[4] = { 0.0f, 1.0f, 1.0f, 1.0f };
	int32_t cuts = 1;
	/* f' = c1 + 2 c2 t + 3 c3 t^2 */
	const float A = 3.0f * c[3], B = 2.0f * c[2], C = c[1];
	float crit[2];
	int32_t nc = 0;
	if (A != 0.0f) {
		const float disc = B * B - 4.0f * A * C;
		if (disc >= 0.0f) {
			const float sq = sqrtf(disc);
			/* the stable pair (Numerical Recipes 5.6) */
			const float qq = -0.5f * (B + (B >= 0.0f ? sq : -sq));
			if (qq != 0.0f) crit[nc++] = qq / A, crit[nc++] = C / qq;
			else crit[nc++] = 0.0f;
		}
	} else if (B != 0.0f) {
		crit[nc++] = -C / B;
	}
	if (nc == 2 && crit[1] < crit[0]) {
		const float t = crit[0];
		crit[0] = crit[1], crit[1] = t;
	}
	for (int32_t k = 0; k < nc; ++k) {
		if (crit[k] > 0.0f && crit[k] < 1.0f) cut[cuts++] = crit[k];
	}
	cut[cuts] = 1.0f;
	int32_t n = 0;
	for (int32_t k = 0; k < cuts; ++k) {
		float lo = cut[k], hi = cut[k + 1];
		float flo = Cubic(c, lo), fhi = Cubic(c, hi);
		if (k == 0 && flo == 0.0f) continue; /* no side at the start */
		if ((flo > 0.0f) == (fhi > 0.0f) && fhi != 0.0f) continue;
		for (int32_t it = 0; it < 40 && hi - lo > 1e-7f; ++it) {
			const float mid = 0.5f * (lo + hi), fm = Cubic(c, mid);
			if ((fm > 0.0f) == (flo > 0.0f) && fm != 0.0f) lo = mid, flo = fm;
			else hi = mid;
		}
		roots[n++] = hi;
	}
	return n;
}

/* One triangle against the particle's path (not of the particle's own object, nor of one its filter does not meet):
   keeps the earliest time the path goes through it (the point within
   the triangle as it crosses the plane), if earlier than the one kept. Always 1 (go on). */
static int GuardTriangle(void* data, int32_t t)
{
	GuardVisit* g = data;
	const pbdCrossing* b = g->b;
	if (g->own >= 0 || g->meets != NULL) { /* the triangle's sheet: its range's object */
		int32_t r = 0;
		while (r + 1 < b->rangeCount && t >= b->ranges[2 * (r + 1)]) ++r;
		const int32_t s = b->objects[r];
		if (s == g->own || (g->meets != NULL && g->meets[s] == 0u)) return 1;
	}
	const uint32_t* tri = b->index.triangles + 3 * t;
	if ((int32_t)tri[0] == g->corner || (int32_t)tri[1] == g->corner || (int32_t)tri[2] == g->corner) return 1;
	const float *a0 = b->x + 4 * tri[0], *b0 = b->x + 4 * tri[1], *c0 = b->x + 4 * tri[2];
	const float *a1 = b->p + 4 * tri[0], *b1 = b->p + 4 * tri[1], *c1 = b->p + 4 * tri[2];
	/* the point's height over the triangle's plane times twice its area, f(t), as a cubic (Provot 1997):
	   with e1 = b - a, e2 = c - a, r = q - a each linear in t, f = (e1 x e2) . r */
	float E1[3], E2[3], R[3], dE1[3], dE2[3], dR[3];
	for (int k = 0; k < 3; ++k) {
		E1[k] = b0[k] - a0[k], E2[k] = c0[k] - a0[k], R[k] = g->x0[k] - a0[k];
		dE1[k] = (b1[k] - a1[k]) - E1[k], dE2[k] = (c1[k] - a1[k]) - E2[k], dR[k] = (g->p1[k] - a1[k]) - R[k];
	}
	float N0[3], N2[3], Na[3], Nb[3], N1[3];
	Cross3(E1, E2, N0);
	Cross3(dE1, dE2, N2);
	Cross3(E1, dE2, Na);
	Cross3(dE1, E2, Nb);
	for (int k = 0; k < 3; ++k) N1[k] = Na[k] + Nb[k];
	const float c[4] = { Dot3(N0, R), Dot3(N0, dR) + Dot3(N1, R), Dot3(N1, dR) + Dot3(N2, R), Dot3(N2, dR) };
	if (c[0] == 0.0f) return 1; /* in the plane at the start: no side */
	/* |f(t) - c0| <= |c1| + |c2| + |c3| on [0, 1]: no root when that is less than |c0| (most candidates) */
	if (fabsf(c[1]) + fabsf(c[2]) + fabsf(c[3]) < fabsf(c[0])) return 1;
	float roots[3];
	const int32_t n = CubicRoots(c, roots);
	for (int32_t r = 0; r < n && roots[r] < g->when; ++r) {
		const float tc = roots[r];
		float q[3], ta[3], tb[3], tcv[3], uv[2];
		for (int k = 0; k < 3; ++k) {
			q[k] = g->x0[k] + tc * (g->p1[k] - g->x0[k]);
			ta[k] = a0[k] + tc * (a1[k] - a0[k]);
			tb[k] = b0[k] + tc * (b1[k] - b0[k]);
			tcv[k] = c0[k] + tc * (c1[k] - c0[k]);
		}
		if (!Within(q, ta, tb, tcv, uv)) continue;
		/* the side it came from: f's sign before the root (the roots are sign changes, in order) */
		g->when = tc;
		g->triangle = t;
		g->uv[0] = uv[0], g->uv[1] = uv[1];
		g->side = (r % 2 == 0) == (c[0] > 0.0f) ? 1.0f : -1.0f;
		break;
	}
	return 1;
}


int32_t pbd_Crossing_Build(pbdCrossing* c, pbdWorld* w, const float* within, int32_t withinCount, float margin, float cell, void* scratch,
						   size_t scratchBytes)
{
	c->rangeCount = 0;
	c->x = w->x;
	c->p = w->p;
	for (int32_t o = 0; o < w->objectCount && c->rangeCount < PBD_MAX_OBJECTS; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		if (!pbd_Material_IsSheet(w, o) || info->triangleCount <= 0) continue;
		c->ranges[2 * c->rangeCount] = info->firstTriangle;
		c->ranges[2 * c->rangeCount + 1] = info->triangleCount;
		c->objects[c->rangeCount] = o;
		c->rangeCount += 1;
	}
	if (c->rangeCount == 0 || pbd_TriangleIndex_ScratchBytes(w->triangleCount) > scratchBytes) return 0;
	return pbd_TriangleIndex_Build(&c->index, w->triangles, c->ranges, c->rangeCount, w->x, w->p, margin, cell, within, withinCount,
								   scratch, scratchBytes);
}

static int32_t Guard(const pbdCrossing* c, int32_t i, float distance, int32_t own, int32_t corner, const uint8_t* meets, float ratio)
{
	GuardVisit g = { .b = c, .x0 = c->x + 4 * i, .p1 = c->p + 4 * i, .own = own, .corner = corner, .meets = meets };
	float* p = c->p;
	int32_t moved = 0;
	for (int32_t round = 0; round < PBD_CROSSING_ROUNDS; ++round) {
		float lo[3], hi[3];
		for (int k = 0; k < 3; ++k) {
			const float u = g.x0[k], v = g.p1[k];
			lo[k] = u < v ? u : v;
			hi[k] = u < v ? v : u;
		}
		g.when = 2.0f;
		pbd_TriangleIndex_Query(&c->index, lo, hi, GuardTriangle, &g);
		if (!(g.when <= 1.0f)) break;
		const uint32_t* tri = c->index.triangles + 3 * g.triangle;
		float* v[3] = { p + 4 * tri[0], p + 4 * tri[1], p + 4 * tri[2] };
		float e1[3], e2[3], n[3];
		Sub3(v[1], v[0], e1);
		Sub3(v[2], v[0], e2);
		Cross3(e1, e2, n);
		const float len2 = Dot3(n, n);
		moved += 1;
		if (!(ratio > 0.0f)) {
			/* alone: at the point it went through, carried with the triangle, `distance` off it; halved each round, so
			   a particle pinched in a fold closing on it fits a gap thinner than the distance */
			const float off = len2 > 1e-30f ? g.side * distance / sqrtf(len2) : 0.0f;
			distance *= 0.5f;
			for (int k = 0; k < 3; ++k) g.p1[k] = v[0][k] + g.uv[0] * e1[k] + g.uv[1] * e2[k] + off * n[k];
			continue;
		}
		if (!(len2 > 1e-30f)) break;
		const float inv = g.side / sqrtf(len2);
		for (int k = 0; k < 3; ++k) n[k] *= inv; /* unit, toward the side the particle came from */
		const float bw[3] = { 1.0f - g.uv[0] - g.uv[1], g.uv[0], g.uv[1] };
		float q[3];
		for (int k = 0; k < 3; ++k) q[k] = g.p1[k] - (bw[0] * v[0][k] + bw[1] * v[1][k] + bw[2] * v[2][k]);
		const float C = Dot3(q, n) - distance;
		if (!(C < 0.0f)) break; /* back on its side by the substep's end */
		/* the inequality (q - s) . n >= d, s the triangle's point: gradients n for the particle, -b_k n for corner k
		   (seed 000 section 3's mass-weighted split), the heavier side split as if at most `ratio` times heavier */
		float wq = g.p1[3];
		const float wk[3] = { v[0][3], v[1][3], v[2][3] };
		float lightest = wk[0] > wk[1] ? wk[0] : wk[1];
		lightest = wk[2] > lightest ? wk[2] : lightest;
		if (wq > 0.0f && lightest > ratio * wq) wq = lightest / ratio;
		const float den = wq + bw[0] * bw[0] * wk[0] + bw[1] * bw[1] * wk[1] + bw[2] * bw[2] * wk[2];
		if (!(den > 0.0f)) break;
		const float lambda = -C / den;
		for (int k = 0; k < 3; ++k) g.p1[k] += lambda * wq * n[k];
		for (int m = 0; m < 3; ++m) {
			const float s = -lambda * wk[m] * bw[m];
			for (int k = 0; k < 3; ++k) v[m][k] += s * n[k];
		}
	}
	return moved;
}

int32_t pbd_Crossing_Guard(const pbdCrossing* c, int32_t i, float distance, int32_t own, const uint8_t* meets, float ratio)
{
	return Guard(c, i, distance, own, -1, meets, ratio);
}

int32_t pbd_Crossing_GuardOwn(const pbdCrossing* c, int32_t i, float distance, float ratio)
{
	return Guard(c, i, distance, -1, i, NULL, ratio);
}
