/* families/contacts.c -- particle contacts: self-collision and collisions between objects; the solve of the pair list
   (contacts_list.c keeps the list).

   Particles are spheres: object o's particles have the radius r_o of pbd_World_SetObjectRadius,
   or thickness / 2 when it is 0 (chains and cloth), so particles i and j collide when their
   centres are closer than r_i + r_j (the thickness between two cloth particles). The pairs come
   from the neighbour search (neighbours/grid.h) over all particles, with the phase words the
   builders set (each object its own collision group; chains and cloth PBD_PHASE_SELF, bodies
   not): pairs within one group when selfCollision is on (less the rest-pose neighbours: same
   object and closer than r_i + r_j at rest, which mesh neighbours are meant to be;
   TenMinutePhysics' cloth self-collision filters them the same way), pairs between groups when
   collisions is on (cloth against the cloth of another object, a rope on a cloth, a body on
   either), never two pins. One search serves both, so the pairs come in one list in the search's
   order, a pure function of the positions: every build (native, scalar, wasm) stores the same
   pairs in the same order. With one object and selfCollision off nothing can be in contact and
   the family costs nothing: no grid, no search.

   One radius or several. When every object has the same radius (bit for bit), one contact
   distance D = r + r serves every pair and the family runs exactly the arithmetic it had before
   radii per object: the grid gets one radius, D M, the solve one D, the reuse test one reach;
   with r = 0.5f * thickness, D is the thickness to the bit, so every cloth and chain scene keeps
   its hash. Otherwise the grid gets a radius per object (2 M r_o: it pairs particles within
   the mean of their two radii, M (r_i + r_j)) and the solve reads r_i and r_j per pair through
   the phase words' object index (why not a per-particle radius array: measured, see
   SolvePairs). One caveat of one grid for all: its cells are as large as the largest search
   radius, so a big ball among cloth makes the cloth's particles test more candidates.

   Heavy on light. The split w_i / (w_i + w_j) is seed 000's, but Gauss-Seidel converges badly
   when one side is much heavier: a block of 10 kg particles resting on a cloth of 10 g ones
   takes 1/1001 of each contact correction and the cloth particle under it the rest, and the
   cloth's constraints (one pass per substep) cannot carry that load back to the pins in time:
   the cloth stretches and lets the block through. Substeps help (the block's fall in a
   substep, g h^2, shrinks with h^2), not enough at ratios of 100-1000. So a contact splits its
   correction as if the heavier particle were at most R = PBD_CONTACT_MASS_RATIO = 10 times
   heavier (seed 001 section 4.1: effective masses for the solver's sake; Macklin et al. 2014,
   "Unified Particle Physics", sec. 5.2 scales masses for stacking to the same end). Pairs
   within R keep their exact weights and their bits (every cloth and rope scene so far, the
   rope on a cloth at 10 included); pins stay pins. The price: a contact past R does not keep
   the pair's momentum, the heavier particle is pushed as if it had met one of 1/R its mass,
   so a very heavy body is slowed more by a light free one than it should be, and past R a
   heavier block does not press a cloth harder. No parameter: R = 10 changes no scene that
   was already right, and the exact split past it is the failure above. Measured (a 3 x 3 x 3
   cluster, 5 cm spacing, 3 cm radius, dropped 0.3 m onto a 1 m, 41 x 41 cloth of 10 g
   particles pinned at its corners, tethers on, 1 pass per substep; after 5 s: sag of the
   cloth's centre in cm / largest stretch of the cloth; "through": the cluster fell through):

       cluster particle / cloth particle   substeps: 5       10          20          40
       1                                     3.0 / 8.1%   2.0 / 3.4%  1.3 / 1.4%  0.8 / 0.5%
       100 or 1000, exact split              through      through     through     through
       100 or 1000, R = 10                   4.4 / 24.5%  2.9 / 8.0%  1.9 / 3.6%  1.2 / 1.2%
       100 or 1000, R = 3                    3.6 / 11.3%  2.3 / 4.5%  1.6 / 2.0%  0.9 / 0.7%

   (Since the contacts keep solid particles on their side of a cloth's triangles, contacts_sheets.c, the exact split
   holds the cluster at 100 with the cloth stretched 44%, and still lets it through at 1000, tests/c/test_mass_ratio.c.)
   (At rest on the cloth rather than dropped, exact split: 100 at 10 substeps holds with 42%
   stretch, at 40 with 6.5%; 1000 falls through at 5-20 and stretches 27% at 40.) So a heavy
   block on a light cloth takes R = 10 and the default 10 substeps (8% stretch), 20 for 3.6%
   (tests/c/test_mass_ratio.c holds it to that).

   Bodies. A pair with a particle of a shape-matched body pushes along the body's surface normal
   rather than the centre line when the two agree closely enough (contacts_bodies.c, Macklin et al.
   2014 section 5.1), so faces of particles rest on each other as faces: ten boxes stacked with
   one set aside by 1 um to 5 mm stand (they fell from 1 um with the centre line); two opposite
   faces meet as planes, so a box turned on another does not slide (contacts_bodies.c). Only worlds
   with a body take that path (bodies, a constant at each call site), so cloth, ropes and soft
   bodies keep their arithmetic and their hashes; pairs without a body particle keep theirs in
   any world. Measured: the ten-box stack's 3600 steps (every pair a body pair) take 0.89 s
   against 0.67 s with the centre line (native -O2, user time, a shared machine): +33%.

   Supports. Between two bodies' particles one above the other (the centre line within 45 degrees
   of up, against gravity), the lower is split as if at least PBD_CONTACT_SUPPORT times heavier
   than the upper: what holds a body up gives way less than what it holds. This is shock
   propagation (Guendelman, Bridson and Fedkiw 2003, section 6: a stack's lower bodies as fixed for
   the ones above), bounded so that the load still reaches the ground, as the mass scaling for
   stacks (shapes_motion.c) is, but by pair rather than by height, so it holds against a real
   mass ratio. Why. A heavy body on a light one: each pass the light body's particles took 10/11
   of the contact's correction (the mass-ratio cap above) and its shape match gave it back a
   pass later; squeezed that way a rigid box (0.3 m, 1 kg, 7^3 particles) under a slab of 40 kg
   changed its particles' distances by 6.3 mm (1.1 mm under 1 kg; shrinking with h^2: 1.5 mm at
   20 substeps, 0.35 at 40). The stacks' mass scaling, 2^(dy / H), gives the slab 1.09 x there.
   With the support at 3, 0.25-0.4 mm whatever the slab's mass, which is the box alone on the
   ground (tests/c/test_press.c). At 10 the twelve-box stack's top box slid 4 mm while the stack
   settled (tests/c/test_shapes_stacks.c, 16 um at 3). The price is the mass scaling's:
   momentum between a falling body and the one it lands on. Side contacts and everything that
   is not two bodies keep their split and their bits.

   The family is one serial colour: pairs share particles, so they are projected in list order. */
#include "families/contacts.h"
#include "services/materials.h"
#include "services/surfaces.h"
#include "base/tasks.h"
#include "neighbours/triangles.h"

#include <math.h>
#include <string.h>

static size_t Contacts_Bytes(const pbdCapacity* cap)
{
	const size_t P = (size_t)cap->maxParticles;
	return pbd_PoolBytes(1, sizeof(pbdContacts)) + pbd_Grid_Bytes(cap->maxParticles) + pbd_PoolBytes(256 * 256, 1) +
		   pbd_PoolBytes((size_t)cap->maxContacts, 2 * sizeof(int32_t)) + pbd_PoolBytes(P, 4 * sizeof(float)) +
		   pbd_PoolBytes((size_t)cap->maxConstraints, 2 * sizeof(int32_t));
}

/* The grid's sorted copies live in the world's scratch for the length of one search, and after
   them the chunks of a search shared out over the step's threads (neighbours/grid_shared.c). */
static size_t Contacts_ScratchBytes(const pbdCapacity* cap)
{
	const size_t search = pbd_Grid_ScratchBytes(cap->maxParticles) + pbd_Grid_PairPoolBytes(cap->maxParticles, cap->maxContacts);
	/* after the passes, the guard's index of the sheets' swept triangles (contacts_sheets.c) */
	const size_t guard = pbd_TriangleIndex_ScratchBytes(cap->maxTriangles);
	return search > guard ? search : guard;
}

static void* Contacts_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	pbdContacts* c = pbd_PoolAlloc(pool, 1, sizeof(pbdContacts));
	if (c == NULL || !pbd_Grid_Create(&c->grid, pool, cap->maxParticles)) return NULL;
	c->activation = pbd_PoolAlloc(pool, 256 * 256, 1);
	c->maxPairs = cap->maxContacts;
	c->massRatio = PBD_CONTACT_MASS_RATIO;
	c->pairs = pbd_PoolAlloc(pool, (size_t)cap->maxContacts, 2 * sizeof(int32_t));
	c->origin = pbd_PoolAlloc(pool, (size_t)cap->maxParticles, 4 * sizeof(float));
	c->maxEdges = cap->maxConstraints;
	c->edges = pbd_PoolAlloc(pool, (size_t)cap->maxConstraints, 2 * sizeof(int32_t));
	return c->origin != NULL && c->edges != NULL ? c : NULL;
}

static int32_t Contacts_ColourCount(const pbdWorld* w, const void* state)
{
	const pbdContacts* c = state;
	return c->edgeCount + c->pairCount > 0;
}

/* One serial colour: the pairs, then the edges (CollectEdges). */
static int32_t Contacts_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	const pbdContacts* c = state;
	*serial = 1;
	return c->edgeCount + c->pairCount;
}

/* Each pair is the inequality C = |p_i - p_j| - D >= 0, D = r_i + r_j, projected only when
   violated (seed 000 section 1) with the mass-weighted split of section 3:
       dp_i = +w_i / (w_i + w_j) (D - d) n,  dp_j = -w_j / (w_i + w_j) (D - d) n,
   n = (p_i - p_j) / d, at stiffness 1 (a contact is hard), pair by pair in list order.

   Friction is positional and Coulomb-bounded, as for the ground (Macklin et al. 2014,
   sec. 6.1): the pair's relative tangential displacement over the substep,
   (p_i - x_i) - (p_j - x_j) less its part along n, is cancelled when shorter than
   mu * depth (static) and otherwise shortened by mu * depth (kinetic), mu = selfFriction,
   depth = this projection's normal correction, split with the same weights so momentum
   is kept. Bounded by the depth, friction follows the normal push, so it does not grow
   with the number of substeps or passes (TenMinutePhysics removes a fixed fraction per
   projection; at 10 substeps x 2 passes that glues touching layers together).

   Coincident particles (d below 1e-6 D) have no centre line: they are pushed apart along
   their rest-pose offset, or along +y (i up, j down) when that is zero too. Deterministic,
   and no 0 / 0.

   With radii that differ, D is r_i + r_j read per pair through the phase words (object index
   -> radius, a table of PBD_MAX_OBJECTS floats that stays in L1). A per-particle radius array
   (filled at each search) was the alternative: it costs maxParticles floats, and measured the
   same: 22.1 ms per step either way (316 x 316 hanging cloth, thickness 0.006, self-collision
   on, 10 substeps x 1 pass, a second object of another radius so the per-pair path runs;
   medians of 7 x 20 steps, 3 alternating runs, native -O3 -march=native; 21.0 ms with one
   radius, as before radii per object). The pair loop waits on the gathers of p_i and p_j, not
   on the radius. With one radius for all, D is a constant and the loop is the one it was
   before radii per object (uniform is a constant at each call site). */
static inline __attribute__((always_inline)) void SolvePairs(pbdWorld* w, const pbdContacts* cs, const int32_t* pairs,
															  int32_t begin, int32_t end, const int uniform, const int exact,
															  const int bodies)
{
	const float D0 = cs->distance;
	const float D0sq = D0 * D0;
	const float tiny0 = D0sq * 1e-12f;
	const float mu = w->params[pbdParam_selfFriction];
	const float ratio = cs->massRatio;
	const float* radius = cs->radius;
	const uint32_t* phase = w->phase;
	float* p = w->p;
	const float* x = w->x;
	const float* rest0 = w->rest0;
	/* up, against gravity; none without gravity (the supports, see above) */
	const float* g = &w->params[pbdParam_gravityX];
	const float g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
	const float gInv = g2 > 0.0f ? -1.0f / sqrtf(g2) : 0.0f;
	const float up[3] = { g[0] * gInv, g[1] * gInv, g[2] * gInv };
	for (int32_t c = begin; c < end; ++c) {
		const int32_t i = pairs[2 * c], j = pairs[2 * c + 1];
		float* pi = p + 4 * i;
		float* pj = p + 4 * j;
		float wi = pi[3], wj = pj[3];
		/* heavy on light (see above): the heavier one is split as if at most R times heavier;
		   pins stay pins, pairs within the ratio keep their exact weights */
		if (!exact) {
			if (wi > ratio * wj) {
				if (wj > 0.0f) wj = wi / ratio;
			} else if (wj > ratio * wi) {
				if (wi > 0.0f) wi = wj / ratio;
			}
		}
		float D = D0, D2 = D0sq, tiny2 = tiny0;
		if (!uniform) {
			D = radius[phase[i] & PBD_PHASE_OBJECT_MASK] + radius[phase[j] & PBD_PHASE_OBJECT_MASK];
			D2 = D * D;
			tiny2 = D2 * 1e-12f;
		}
		const float dx = pi[0] - pj[0], dy = pi[1] - pj[1], dz = pi[2] - pj[2];
		const float d2 = dx * dx + dy * dy + dz * dz;
		/* two faces of bodies meet as planes out to PBD_CONTACT_TILE r sideways (contacts_bodies.c), so a pair of two
		   bodies' particles may be in contact with its spheres apart; any other pair is not */
		const int bodyPair = bodies && (cs->body[phase[i] & PBD_PHASE_OBJECT_MASK] & cs->body[phase[j] & PBD_PHASE_OBJECT_MASK]);
		if (d2 >= D2 && (!bodyPair || d2 >= D2 * PBD_CONTACT_FACE_REACH2)) continue;
		if (bodyPair) { /* supports (see above): the lower one, i when up . d < 0, within 45 degrees of up */
			const float a = dx * up[0] + dy * up[1] + dz * up[2];
			if (a * a > 0.5f * d2 && wi > 0.0f && wj > 0.0f) { /* a pin stays a pin, and still holds */
				if (a > 0.0f) wj = wi / PBD_CONTACT_SUPPORT < wj ? wi / PBD_CONTACT_SUPPORT : wj;
				else wi = wj / PBD_CONTACT_SUPPORT < wi ? wj / PBD_CONTACT_SUPPORT : wi;
			}
		}
		const float wsum = wi + wj;
		if (wsum <= 0.0f) continue;
		float nx, ny, nz, depth;
		float nb[3];
		if (bodies && pbd_Contacts_BodyNormal(w, cs, i, j, dx, dy, dz, d2, D, tiny2, wi, wj, nb, &depth)) {
			if (!(depth > 0.0f)) continue;
			nx = nb[0], ny = nb[1], nz = nb[2];
		} else {
			if (d2 >= D2) continue;
			float d;
			if (d2 > tiny2) {
				d = sqrtf(d2);
				nx = dx / d, ny = dy / d, nz = dz / d;
			} else {
				const float* ri = rest0 + 4 * i;
				const float* rj = rest0 + 4 * j;
				const float ex = ri[0] - rj[0], ey = ri[1] - rj[1], ez = ri[2] - rj[2];
				const float e2 = ex * ex + ey * ey + ez * ez;
				if (e2 > tiny2) {
					const float e = sqrtf(e2);
					nx = ex / e, ny = ey / e, nz = ez / e;
				} else {
					nx = 0.0f, ny = 1.0f, nz = 0.0f;
				}
				d = dx * nx + dy * ny + dz * nz;
			}
			depth = D - d;
		}
		const float si = depth * (wi / wsum), sj = depth * (wj / wsum);
		pi[0] += si * nx, pi[1] += si * ny, pi[2] += si * nz;
		pj[0] -= sj * nx, pj[1] -= sj * ny, pj[2] -= sj * nz;
		if (mu > 0.0f) {
			const float* xi = x + 4 * i;
			const float* xj = x + 4 * j;
			float rx = (pi[0] - xi[0]) - (pj[0] - xj[0]);
			float ry = (pi[1] - xi[1]) - (pj[1] - xj[1]);
			float rz = (pi[2] - xi[2]) - (pj[2] - xj[2]);
			const float rn = rx * nx + ry * ny + rz * nz;
			rx -= rn * nx, ry -= rn * ny, rz -= rn * nz;
			const float travel2 = rx * rx + ry * ry + rz * rz;
			if (travel2 <= 0.0f) continue;
			const float limit = mu * depth;
			float f = 1.0f; /* static: cancel the whole tangential travel */
			if (travel2 > limit * limit) f = limit / sqrtf(travel2); /* kinetic */
			const float fi = f * (wi / wsum), fj = f * (wj / wsum);
			pi[0] -= fi * rx, pi[1] -= fi * ry, pi[2] -= fi * rz;
			pj[0] += fj * rx, pj[1] += fj * ry, pj[2] += fj * rz;
		}
	}
}

/* The six solve loops over [begin, end) of one list, the pairs' or the edges'. */
static void SolveList(pbdWorld* w, const pbdContacts* cs, const int32_t* pairs, int32_t begin, int32_t end)
{
	if (begin >= end) return;
	const int exact = !(cs->lightest > cs->massRatio * cs->heaviest); /* no pair can be past the ratio */
	if (cs->bodies) { /* the pairs of bodies' particles take their normals from the bodies (contacts_bodies.c) */
		if (exact) SolvePairs(w, cs, pairs, begin, end, 0, 1, 1);
		else SolvePairs(w, cs, pairs, begin, end, 0, 0, 1);
	} else if (cs->uniform) {
		if (exact) SolvePairs(w, cs, pairs, begin, end, 1, 1, 0);
		else SolvePairs(w, cs, pairs, begin, end, 1, 0, 0);
	} else {
		if (exact) SolvePairs(w, cs, pairs, begin, end, 0, 1, 0);
		else SolvePairs(w, cs, pairs, begin, end, 0, 0, 0);
	}
}

/* [begin, end) of the colour: the pairs [0, pairCount), then the edges (CollectEdges says why last). */
static void Contacts_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	const pbdContacts* cs = state;
	const int32_t P = cs->pairCount;
	SolveList(w, cs, cs->pairs, begin, end < P ? end : P);
	SolveList(w, cs, cs->edges, begin > P ? begin - P : 0, end - P);
}

/* The update stage, after the passes: no cloth colliding with itself passes through its own holes (contacts_self.c),
   and no solid particle's path crosses another object's cloth (contacts_sheets.c). */
static void Contacts_Update(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	const pbdContacts* c = state;
	if (c->self) pbd_Contacts_GuardSelf(w, c);
	pbd_Contacts_GuardSheets(w, state);
}

const pbdFamily pbd_family_contacts = {
	.name = "contacts",
	.bytes = Contacts_Bytes,
	.scratchBytes = Contacts_ScratchBytes,
	.create = Contacts_Create,
	.start = pbd_Contacts_Start,
	.findContacts = pbd_Contacts_FindContacts,
	.findContactsUnit = pbd_Contacts_FindContactsUnit,
	.unitsLeft = pbd_Contacts_UnitsLeft,
	.colourCount = Contacts_ColourCount,
	.colourSize = Contacts_ColourSize,
	.solve = Contacts_Solve,
	.update = Contacts_Update,
};
