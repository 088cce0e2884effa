/* families/colliders.c -- kinematic sphere, capsule and box colliders: the family.

   A collider is a shape with a transform the user sets (pbd_World_SetColliderTransform);
   it is never moved by the particles. Particles are spheres of radius r, their object's
   (services/materials.h pbd_Material_ContactRadius: thickness / 2 unless the object has its own), so the
   constraint for particle i and collider c is the inequality

       C(p_i) = sdf_c(p_i) - r >= 0,

   projected only when violated (seed 000 section 1). A collider has w = 0, so the
   particle takes the whole correction (dp = -C grad C, the mass-weighted projection
   with the other side pinned).

   Motion. In every substep the collider moves from the share alpha of its motion at the
   substep's start to alpha = (substep + 1) / substeps at its end (findContacts); the
   solve, in every Gauss-Seidel pass, sees it at its start-of-step transform (prev) lerped
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

   Restitution (Mueller et al. 2020, sec. 3.5, as the ground in ground.c): in the first
   pass of each substep, a particle found in contact that approached the collider faster
   than 2 h |g| is recorded with its approach speed u = -(v* - v_collider) . n (w->v holds
   v* until the velocity update). The velocities hook then sets the normal velocity
   relative to the collider to at least e u. The records live in the family's state (room
   for every particle against up to four colliders in one substep).

   Cost. Every cull is conservative (the results do not depend on them): a whole object is
   skipped when the boxes around its particles miss the collider's world box; a particle
   when its motion's box misses it, or when it ends farther from the surface than it
   travelled (no sqrt); an edge when its box misses it, or when both ends are farther than
   rho + L/2 from the core. Edges are tested for spheres and capsules only.

   The records, the geometry and the API are the boundary's (services/boundary.h, collider_shapes.c,
   boundary_api.c). Determinism: + - * /
   sqrtf and comparisons only, in a fixed order, so native and wasm builds give the same bits. */
#include "families/colliders_state.h"
#include "base/tasks.h"
#include "services/materials.h"
#include "services/surfaces.h"

#include <string.h>

/* ---------------------------------------------------------------- substep */

static int32_t Blocks(int32_t particles) { return (particles + PBD_COLLIDER_BLOCK - 1) / PBD_COLLIDER_BLOCK; }

/* Whether this substep's colliders can be solved particle block by particle block, each block against every
   collider in order (issue 23 item 4: one serial colour was 3-4% of a 2-thread dam break of 25k, the other thread
   waiting): so when no edge is tested (no sphere or capsule, or no structural edge), since the edges of a sphere or
   capsule come after its particles and before the next collider's, and an edge joins two blocks. A particle meets
   the colliders in the same order either way, each cull is conservative, and its records keep their order (the
   velocities hook reads block by block): the same bits as one collider after the other. */
static int ByBlocks(const pbdWorld* w, const pbdColliders* cs)
{
	if (!PBD_HAS_TEAM) return 0; /* the same bits one collider after the other, and the single-thread wasm lighter */
	if (pbd_Surface_EdgeGroups(w) == 0) return 1;
	for (int i = 0; i < cs->walls->count; ++i) {
		const int type = cs->walls->colliders[i].shape.type;
		if (type == pbdShape_sphere || type == pbdShape_capsule) return 0;
	}
	return 1;
}

/* The frames of this substep: each collider at the share alphaFrom of its motion (the
   previous substep's end) and at alphaTo, and the boxes that cull objects and particles,
   grown by the largest particle radius (culls only: the results do not depend on them). */
static void BeginSubstep(pbdWorld* w, pbdColliders* cs, const pbdStepContext* ctx)
{
	float r = pbd_Material_DefaultRadius(w);
	for (int o = 0; o < w->objectCount; ++o) {
		const float ro = pbd_Material_ContactRadius(w, o);
		if (o == 0 || ro > r) r = ro;
	}
	cs->alphaFrom = cs->alphaTo;
	cs->alphaTo = ctx->alpha;
	cs->bounceCount = 0;
	cs->byBlocks = ByBlocks(w, cs);
	if (cs->byBlocks) memset(cs->blockBounces, 0, (size_t)Blocks(w->particleCount) * sizeof(int32_t));
	cs->h = ctx->h;
	cs->restingSpeed = pbd_RestingSpeed(w, cs->h); /* as the ground's */
	for (int o = 0; o < w->objectCount; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		pbd_ParticleBox(w->x, info->firstParticle, info->firstParticle + info->particleCount, cs->xBox + 6 * o);
	}
	for (int i = 0; i < cs->walls->count; ++i) {
		const pbdCollider* c = &cs->walls->colliders[i];
		pbdColliderFrame* f = &cs->frames[i];
		pbd_XfInterpolate(c->prevPosition, c->prevRotation, c->shape.position, c->shape.rotation, cs->alphaFrom, &f->from);
		pbd_XfInterpolate(c->prevPosition, c->prevRotation, c->shape.position, c->shape.rotation, cs->alphaTo, &f->to);
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

static float* ObjectPBox(const pbdWorld* w, pbdColliders* cs, int o)
{
	if (!cs->pBoxValid[o]) {
		const pbdObjectInfo* info = &w->objects[o];
		pbd_ParticleBox(w->p, info->firstParticle, info->firstParticle + info->particleCount, cs->pBox + 6 * o);
		cs->pBoxValid[o] = 1;
	}
	return cs->pBox + 6 * o;
}


/* Particles [begin, end) against one collider; `box` (theirs, of p) grows with every move.
   record: the first pass of the substep, which records the bounces. */
static void SolveParticles(pbdWorld* w, pbdColliders* cs, int index, float r, float share, int begin, int end, float* box,
						   pbdBounce* bounces, int32_t* count, int32_t capacity)
{
	const int record = bounces != NULL;
	const pbdColliderInfo* s = &cs->walls->colliders[index].shape;
	const pbdColliderFrame* f = &cs->frames[index];
	const float muS = s->staticFriction * share, muK = s->kineticFriction * share;
	const float lo0 = f->lo[0], lo1 = f->lo[1], lo2 = f->lo[2];
	const float hi0 = f->hi[0], hi1 = f->hi[1], hi2 = f->hi[2];
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
			int hit = pbd_ShapeCast(s, r, xl, dir, 1.0f, &t, nh) == CAST_HIT;
			if (hit && s->type == pbdShape_box) hit = pbd_RoundBoxEntry(s, r, xl, dir, &t, nh);
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

		if (record && *count < capacity) {
			/* approach speed against the collider's surface point: v* - (T_to(pl) - T_from(pl)) / h */
			float from[3], nw[3];
			ToWorld(&f->from, pl, from);
			Rotate(&f->to, nrm, nw);
			const float* v = w->v + 4 * i; /* v*, until the velocity update */
			float u = 0.0f;
			for (int k = 0; k < 3; ++k) u -= (v[k] - (p[k] - from[k]) / cs->h) * nw[k];
			if (u > cs->restingSpeed) {
				pbdBounce* b = bounces + (*count)++;
				b->particle = i;
				b->collider = index;
				b->speed = u;
			}
		}
	}
}

/* ---------------------------------------------------------------- edges */

/* The structural edges of a group (distance.h) against one sphere or capsule; `box` (the
   object's, of p) grows with every move. */
static void SolveEdges(pbdWorld* w, const pbdColliders* cs, int index, float r, const pbdEdges* edges, float* box)
{
	const pbdColliderInfo* s = &cs->walls->colliders[index].shape;
	const pbdColliderFrame* f = &cs->frames[index];
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
	const int32_t* ca = edges->a;
	const int32_t* cb = edges->b;
	{
		const int end = edges->end;
		for (int c = edges->first; c < end; ++c) {
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
			float t = pbd_EdgeToCore(la, lb, hh, d);
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
			pbd_EdgeToCore(xa, xb, hh, d0);
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


/* ---------------------------------------------------------------- family */

/* Records: room for every particle against up to four colliders, whole blocks of particles (SolveBlocks). */
static size_t PerParticle(const pbdCapacity* cap) { return (size_t)(cap->maxColliders < 4 ? cap->maxColliders : 4); }
static size_t RecordBlocks(const pbdCapacity* cap) { return (size_t)Blocks(cap->maxParticles); }

static size_t Colliders_Bytes(const pbdCapacity* cap)
{
	size_t C = (size_t)cap->maxColliders, O = (size_t)cap->maxObjects;
	size_t B = RecordBlocks(cap) * PBD_COLLIDER_BLOCK * PerParticle(cap);
	return pbd_PoolBytes(1, sizeof(pbdColliders)) + pbd_Boundary_Bytes(cap->maxColliders) +
		   pbd_PoolBytes(C, sizeof(pbdColliderFrame)) + pbd_PoolBytes(B, sizeof(pbdBounce)) +
		   pbd_PoolBytes(RecordBlocks(cap), sizeof(int32_t)) + 2 * pbd_PoolBytes(O, 6 * sizeof(float)) + pbd_PoolBytes(O, 1);
}

static void* Colliders_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t C = (size_t)cap->maxColliders, O = (size_t)cap->maxObjects;
	size_t B = RecordBlocks(cap) * PBD_COLLIDER_BLOCK * PerParticle(cap);
	pbdColliders* cs = pbd_PoolAlloc(pool, 1, sizeof(pbdColliders));
	if (cs == NULL) return NULL;
	if (!pbd_Boundary_Create(w, pool, cap->maxColliders)) return NULL;
	cs->walls = pbd_Boundary(w);
	cs->frames = pbd_PoolAlloc(pool, C, sizeof(pbdColliderFrame));
	cs->bounces = pbd_PoolAlloc(pool, B, sizeof(pbdBounce));
	cs->bounceCapacity = (int32_t)B;
	cs->perBlock = (int32_t)PerParticle(cap);
	cs->blockBounces = pbd_PoolAlloc(pool, RecordBlocks(cap), sizeof(int32_t));
	cs->xBox = pbd_PoolAlloc(pool, O, 6 * sizeof(float));
	cs->pBox = pbd_PoolAlloc(pool, O, 6 * sizeof(float));
	cs->pBoxValid = pbd_PoolAlloc(pool, O, 1);
	return cs->pBoxValid != NULL ? cs : NULL;
}

static void Colliders_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdColliders* cs = state;
	cs->alphaTo = 0.0f; /* the first substep starts where the step does */
	cs->bounceCount = 0;
	cs->byBlocks = 0; /* no records until a substep with colliders (BeginSubstep) */
}

static void Colliders_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdColliders* cs = state;
	if (cs->walls->count > 0) BeginSubstep(w, cs, ctx);
}

static int32_t Colliders_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdColliders*)state)->walls->count > 0; }

/* The colliders, one after the other (they share particles: serial), or the particles in blocks, each against every
   collider (ByBlocks). */
static int32_t Colliders_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	const pbdColliders* cs = state;
	*serial = !cs->byBlocks;
	return cs->byBlocks ? Blocks(w->particleCount) : cs->walls->count;
}

#if PBD_HAS_TEAM
/* Particle blocks [begin, end) against every collider in order: each block's own boxes (x's, and p's grown by
   every move) cull a collider as an object's do below, its own records. */
static void SolveBlocks(pbdWorld* w, pbdColliders* cs, int record, int32_t begin, int32_t end)
{
	for (int32_t blk = begin; blk < end; ++blk) {
		const int32_t b0 = blk * PBD_COLLIDER_BLOCK;
		const int32_t b1 = b0 + PBD_COLLIDER_BLOCK < w->particleCount ? b0 + PBD_COLLIDER_BLOCK : w->particleCount;
		float xb[6], pb[6];
		pbd_ParticleBox(w->x, b0, b1, xb);
		pbd_ParticleBox(w->p, b0, b1, pb);
		pbdBounce* bounces = record ? cs->bounces + (size_t)b0 * (size_t)cs->perBlock : NULL;
		for (int i = 0; i < cs->walls->count; ++i) {
			const pbdColliderFrame* f = &cs->frames[i];
			float hull[6];
			for (int k = 0; k < 3; ++k) {
				hull[k] = xb[k] < pb[k] ? xb[k] : pb[k];
				hull[3 + k] = xb[3 + k] > pb[3 + k] ? xb[3 + k] : pb[3 + k];
			}
			if (BoxesMiss(hull, f->lo, f->hi)) continue;
			for (int o = 0; o < w->objectCount; ++o) {
				const pbdObjectInfo* info = &w->objects[o];
				const int32_t lo = info->firstParticle > b0 ? info->firstParticle : b0;
				const int32_t hi = info->firstParticle + info->particleCount < b1 ? info->firstParticle + info->particleCount : b1;
				if (lo >= hi) continue;
				SolveParticles(w, cs, i, pbd_Material_ContactRadius(w, o), pbd_Material_FrictionShare(w, o), lo, hi, pb, bounces,
							   cs->blockBounces + blk, PBD_COLLIDER_BLOCK * cs->perBlock);
			}
		}
	}
}
#else
static void SolveBlocks(pbdWorld* w, pbdColliders* cs, int record, int32_t begin, int32_t end) {}
#endif

/* Colliders [begin, end) against every object they may reach, particles then structural edges
   (spheres and capsules). */
static void Colliders_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbdColliders* cs = state;
	const int record = ctx->pass == 0;
	if (cs->byBlocks) {
		SolveBlocks(w, cs, record, begin, end);
		return;
	}
	memset(cs->pBoxValid, 0, (size_t)w->objectCount);
	for (int i = begin; i < end; ++i) {
		const pbdColliderFrame* f = &cs->frames[i];
		for (int o = 0; o < w->objectCount; ++o) {
			/* cull the object: every particle's motion x -> p lies in the hull of both boxes */
			const float* xb = cs->xBox + 6 * o;
			float* pb = ObjectPBox(w, cs, o);
			float hull[6];
			for (int k = 0; k < 3; ++k) {
				hull[k] = xb[k] < pb[k] ? xb[k] : pb[k];
				hull[3 + k] = xb[3 + k] > pb[3 + k] ? xb[3 + k] : pb[3 + k];
			}
			if (BoxesMiss(hull, f->lo, f->hi)) continue;
			const pbdObjectInfo* info = &w->objects[o];
			const float r = pbd_Material_ContactRadius(w, o);
			const float share = pbd_Material_FrictionShare(w, o); /* water slips (services/materials.h) */
			SolveParticles(w, cs, i, r, share, info->firstParticle, info->firstParticle + info->particleCount, pb,
						   record ? cs->bounces : NULL, &cs->bounceCount, cs->bounceCapacity);
		}
		int type = cs->walls->colliders[i].shape.type;
		if (type != pbdShape_sphere && type != pbdShape_capsule) continue;
		const int32_t groups = pbd_Surface_EdgeGroups(w);
		for (int32_t g = 0; g < groups; ++g) {
			pbdEdges edges;
			if (!pbd_Surface_StructuralEdges(w, g, &edges)) continue;
			float* pb = ObjectPBox(w, cs, edges.object);
			if (BoxesMiss(pb, f->edgeLo, f->edgeHi)) continue;
			SolveEdges(w, cs, i, pbd_Material_ContactRadius(w, edges.object), &edges, pb);
		}
	}
}

/* One record's restitution. */
static void Bounce(pbdWorld* w, const pbdColliders* cs, const pbdBounce* b, float h)
{
	const pbdColliderInfo* s = &cs->walls->colliders[b->collider].shape;
	const pbdColliderFrame* f = &cs->frames[b->collider];
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

/* Restitution, after v = (p - x) / h: the normal velocity relative to the collider's surface
   point is at least e u for every particle recorded in the substep's first pass. */
static void Colliders_Velocities(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	const pbdColliders* cs = state;
	const float h = ctx->h;
#if PBD_HAS_TEAM
	const int32_t blocks = cs->byBlocks ? Blocks(w->particleCount) : 1;
	for (int32_t blk = 0; blk < blocks; ++blk) {
		const pbdBounce* records = cs->byBlocks ? cs->bounces + (size_t)blk * PBD_COLLIDER_BLOCK * (size_t)cs->perBlock : cs->bounces;
		const int32_t n = cs->byBlocks ? cs->blockBounces[blk] : cs->bounceCount;
		for (int32_t k = 0; k < n; ++k) Bounce(w, cs, &records[k], h);
	}
#else /* never by blocks (ByBlocks) */
	for (int32_t k = 0; k < cs->bounceCount; ++k) Bounce(w, cs, &cs->bounces[k], h);
#endif
}

/* The next step sweeps each collider from where this one left it. */
static void Colliders_EndStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdColliders* cs = state;
	for (int i = 0; i < cs->walls->count; ++i) {
		pbdCollider* c = &cs->walls->colliders[i];
		memcpy(c->prevPosition, c->shape.position, sizeof c->prevPosition);
		memcpy(c->prevRotation, c->shape.rotation, sizeof c->prevRotation);
	}
}

const pbdFamily pbd_family_colliders = {
	.name = "colliders",
	.bytes = Colliders_Bytes,
	.create = Colliders_Create,
	.start = Colliders_PrepareStep,
	.findContacts = Colliders_PrepareSubstep,
	.colourCount = Colliders_ColourCount,
	.colourSize = Colliders_ColourSize,
	.solve = Colliders_Solve,
	.blockSize = 1,   /* shared out: a unit is PBD_COLLIDER_BLOCK particles */
	.sliceSize = -1, /* each call resets the cached object boxes (pBoxValid): a colour is one call */
	.velocities = Colliders_Velocities,
	.end = Colliders_EndStep,
};
