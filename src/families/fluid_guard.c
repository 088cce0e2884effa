/* families/fluid_guard.c -- no fluid particle's path crosses a cloth within a substep (issue 22 item 1).

   The contact of fluid_sheets.c holds a fluid particle on its side of the cloth particles in its list and
   shares the push with them (Macklin et al. 2014 4.2). It is a contact between particles, so it misses what
   its lists miss. Measured at the fluid scenes' 2 substeps x 4 passes, water thrown at 5 m/s onto a 1 m cloth
   of 1 g particles pinned all round put 28 of 900 under it within 60 steps: 7 had no cloth particle within h
   when they crossed (the water stretches the cloth, and a point over a stretched triangle can be farther than
   h from all three corners), the other 21 had their contacts and still ended a substep a few millimetres past
   the cloth (a Jacobi pass averages the contact with the water pressing down behind it).

   So after the passes (the update stage), each fluid particle's path in this substep, from x (where it
   started) to p (where the solve left it), is tested against every cloth triangle moving from its x to its p,
   all linearly in time: the continuous test of Provot 1997 and Bridson, Fedkiw and Anderson 2002 ("Robust
   treatment of collisions, contact and friction for cloth animation"). The point q(t) is in the plane of
   the triangle (a(t), b(t), c(t)) where f(t) = ((b - a) x (c - a)) . (q - a) = 0, a cubic in t; each root in
   (0, 1] (the interval cut where f' = 0, each piece with a sign change bisected) is a crossing when q lies
   within the triangle then (barycentric coordinates >= -PBD_GUARD_SLACK, so a path through an edge or a
   corner meets at least one of the triangles sharing it). A first test took f as linear in t: the particles
   slipped between two neighbours at a crease, each crossing its plane just outside itself (7% past an edge,
   measured), which the exact roots close.

   The earliest crossing of the path stops the particle there: it ends the substep at that point of the
   triangle, carried with the triangle to the substep's end, PBD_GUARD_DISTANCE particle radii off it on the
   side it came from (the side is f's sign before the root). That is an inelastic contact that holds, for
   the rest of this substep; the next substep's contact (fluid_sheets.c) takes over. The new path can meet a
   neighbour at a crease, so the test runs again from the start, up to PBD_GUARD_ROUNDS times, the distance
   halved each round so a particle in a fold closing on it fits the gap. The cloth is not moved: the guard
   corrects what the contact left over, and moving only the fluid particle keeps every particle's result its
   own (threads take ranges of particles: the same bits at any split). So where the cloth passes through
   itself around a fluid particle (one substep of one pass, measured) no place for it is on its side of both
   layers, and it may end on the far side of one.

   Cost: a hashed grid of the cloths' swept triangles within the fluid's box (neighbours/triangles.c), and per
   fluid particle the triangles of the cells its path's box covers. Nothing without both fluid and cloth. */
#include "base/tasks.h"
#include "families/fluid_state.h"
#include "neighbours/triangles.h"
#include "services/materials.h"

#include <math.h>

/* How far past a triangle's edges a crossing still counts (a fraction of its barycentric range). */
#define PBD_GUARD_SLACK 1e-3f
/* The guard's distance from the cloth, in fluid particle radii: one, a sphere resting on the sheet. The contact
   (fluid_sheets.c) holds r_f + r_s; the guard keeps the side, and the next substep starts clear of the sheet by the
   particle's radius. At a quarter radius, water thrown at 5 m/s onto the 1 g cloth put 26 of 900 under it at
   1 x 1 and 1 at 1 x 2, 2 x 1 and 4 x 1 (5 at 1 x 1 thrown at 3 m/s); at one radius 1 at 1 x 1 and none at any
   other split or speed (tests/c/test_fluid_sheets.c FluidOnClothEverySplit). Half a radius gave 0 at 1 x 1 but 4
   at 2 x 1: near a fold the counts are chaotic, the radius is the choice with a reason. */
#define PBD_GUARD_DISTANCE 1.0f
/* Rounds of the test for one particle at most (a round that puts it back starts another). */
#define PBD_GUARD_ROUNDS 8

typedef struct GuardBlock {
	const pbdWorld* w;
	pbdTriangleIndex index;
	float* p;
	const float* x;
	float distance;
} GuardBlock;

typedef struct GuardVisit {
	const GuardBlock* b;
	const float* x0; ///< the fluid particle's start
	float* p1;       ///< its end, corrected in place
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

/* Whether q lies within triangle (a, b, c) (their plane's projection), up to PBD_GUARD_SLACK, with its
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
	return v >= -PBD_GUARD_SLACK && u >= -PBD_GUARD_SLACK && v + u <= 1.0f + PBD_GUARD_SLACK;
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

/* One triangle against the particle's path: keeps the earliest time the path goes through it (the point within
   the triangle as it crosses the plane), if earlier than the one kept. Always 1 (go on). */
static int GuardTriangle(void* data, int32_t t)
{
	GuardVisit* g = data;
	const GuardBlock* b = g->b;
	const uint32_t* tri = b->index.triangles + 3 * t;
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

static void GuardParticles(void* data, int32_t begin, int32_t end)
{
	GuardBlock* b = data;
	const pbdFluid* f = pbd_FluidState(b->w);
	for (int32_t o = begin; o < end; ++o) {
		const int32_t i = f->order[o];
		GuardVisit g = { .b = b, .x0 = b->x + 4 * i, .p1 = b->p + 4 * i };
		/* Each round finds the first triangle the path x -> p goes through and stops the particle there: at that
		   point of the triangle, carried with it to the substep's end, the guard's distance off it on the side
		   the particle came from (so it moves with the cloth it met, as an inelastic contact that holds). The
		   new path can meet a neighbour at a crease: another round, from the start. */
		float distance = b->distance;
		for (int32_t round = 0; round < PBD_GUARD_ROUNDS; ++round) {
			float lo[3], hi[3];
			for (int k = 0; k < 3; ++k) {
				const float u = g.x0[k], v = g.p1[k];
				lo[k] = u < v ? u : v;
				hi[k] = u < v ? v : u;
			}
			g.when = 2.0f;
			pbd_TriangleIndex_Query(&b->index, lo, hi, GuardTriangle, &g);
			if (!(g.when <= 1.0f)) break;
			const uint32_t* tri = b->index.triangles + 3 * g.triangle;
			const float *a1 = b->p + 4 * tri[0], *b1 = b->p + 4 * tri[1], *c1 = b->p + 4 * tri[2];
			float e1[3], e2[3], n1[3];
			Sub3(b1, a1, e1);
			Sub3(c1, a1, e2);
			Cross3(e1, e2, n1);
			const float len2 = Dot3(n1, n1);
			/* halved each round: a particle pinched in a fold closing on it fits a gap thinner than the distance */
			const float off = len2 > 1e-30f ? g.side * distance / sqrtf(len2) : 0.0f;
			distance *= 0.5f;
			for (int k = 0; k < 3; ++k) g.p1[k] = a1[k] + g.uv[0] * e1[k] + g.uv[1] * e2[k] + off * n1[k];
		}
	}
}

void pbd_Fluid_GuardSheets(pbdWorld* w, pbdFluid* f)
{
	if (!f->listsValid || f->fluidCount <= 0) return;
	/* the sheets' triangles, as ranges of world->triangles */
	int32_t ranges[2 * PBD_MAX_OBJECTS], rangeCount = 0;
	for (int32_t o = 0; o < w->objectCount && rangeCount < PBD_MAX_OBJECTS; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		if (!pbd_Material_IsSheet(w, o) || info->triangleCount <= 0) continue;
		ranges[2 * rangeCount] = info->firstTriangle;
		ranges[2 * rangeCount + 1] = info->triangleCount;
		rangeCount += 1;
	}
	if (rangeCount == 0) return;
	GuardBlock b = { .w = w, .p = w->p, .x = w->x, .distance = PBD_GUARD_DISTANCE * f->k.radius };
	uint8_t* scratch = pbd_Scratch_Take(w, pbdScratch_none);
	const size_t need = pbd_TriangleIndex_ScratchBytes(w->triangleCount);
	if (need > w->scratchBytes) return; /* sized at create (fluid.c): not reached */
	/* the fluid's paths' box: triangles beyond it cannot meet one */
	float within[6] = { 3.4e38f, 3.4e38f, 3.4e38f, -3.4e38f, -3.4e38f, -3.4e38f };
	for (int32_t o = 0; o < f->fluidCount; ++o) {
		const float *xi = w->x + 4 * f->order[o], *pi = w->p + 4 * f->order[o];
		for (int k = 0; k < 3; ++k) {
			const float lo = xi[k] < pi[k] ? xi[k] : pi[k], hi = xi[k] < pi[k] ? pi[k] : xi[k];
			within[k] = lo < within[k] ? lo : within[k];
			within[3 + k] = hi > within[3 + k] ? hi : within[3 + k];
		}
	}
	/* the cell: 2 h, a cloth edge or two (h and 3 h cost the same, measured); the margin: the guard's distance */
	if (pbd_TriangleIndex_Build(&b.index, w->triangles, ranges, rangeCount, w->x, w->p, b.distance, 2.0f * f->k.h, within, scratch,
								need) == 0) {
		return;
	}
	pbd_Parallel_For(w, f->fluidCount, PBD_PARTICLE_BLOCK, GuardParticles, &b);
}
