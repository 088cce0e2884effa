/* families/contacts.c -- particle contacts: self-collision and collisions between objects.

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

   Why a margin: pairs are found once per substep from the predicted positions but are
   projected in every pass, and the passes still move particles (stretch, pins, other
   contacts). In a resting stack, pairs sit at exactly D after a projection; searched within
   D they drop out of the next substep's list and get pushed inside it unseen (two 20 x 20
   layers at 1 substep x 10 passes: 0.87 D searched within 1.0 D, 0.99 within 1.05 D). The
   benefit saturates by 1.15-1.2 (a towel folded onto itself, 5 substeps x 4 passes: worst
   distance 0.93, 0.97, 0.97, 0.97 D at 1.1, 1.15, 1.2, 1.25), while the pairs grow fast with
   the margin: rings of same-object particles between D and M D join the list (a 32 x 16
   cloth at spacing 0.6 thickness: 520 pairs at 1.1, 1900 at 1.2, 4096 = overflow of the
   default capacity at 1.35) and the candidates grow with M^3 in a pile. So
   PBD_CONTACT_MARGIN = M = 1.2 (measured on cloth, where D is the thickness). Pairs between
   D and M D are inert: the solve projects only when violated. Pairs past maxContacts are
   counted, not stored.

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
		   pbd_PoolBytes((size_t)cap->maxContacts, 2 * sizeof(int32_t)) + pbd_PoolBytes(P, 4 * sizeof(float));
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
	return c->origin != NULL ? c : NULL;
}

/* Every object's radius and what follows from it, and whether one radius serves all (bit for
   bit). With none, or all at thickness / 2, distance is the thickness, and the single-radius
   paths compute what they computed before radii per object. Cheap (at most PBD_MAX_OBJECTS),
   so it runs before every search rather than keeping track of what changed: a radius set
   through the API moves paramVersion, which already makes the kept list stale. */
static void Radii(const pbdWorld* w, pbdContacts* c)
{
	float first = pbd_Material_DefaultRadius(w);
	int32_t uniform = 1;
	c->bodies = 0;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		c->body[o] = (uint8_t)pbd_Surface_HasNormals(w, o);
		c->bodies |= c->body[o];
		const float r = pbd_Material_ContactRadius(w, o);
		if (o == 0) first = r;
		uniform &= r == first;
		c->radius[o] = r;
		c->search[o] = (r + r) * PBD_CONTACT_MARGIN;
		const float reach = 0.5f * (c->search[o] - (r + r)); /* (M - 1) r */
		c->reach2[o] = reach * reach;
	}
	c->uniform = uniform;
	c->distance = first + first;
}

float pbd_Contacts_SearchRadius(const pbdWorld* w)
{
	const float r0 = w->objectCount > 0 ? pbd_Material_ContactRadius(w, 0) : pbd_Material_DefaultRadius(w);
	float largest = (r0 + r0) * PBD_CONTACT_MARGIN;
	for (int32_t o = 1; o < w->objectCount; ++o) {
		const float r = pbd_Material_ContactRadius(w, o);
		const float search = (r + r) * PBD_CONTACT_MARGIN;
		largest = search > largest ? search : largest;
	}
	return largest;
}

/* The contacts' rule as the grid's filter (grid.h): fluid particles are the fluid family's, NO_COLLIDE ones
   meet no one; within a collision group only particles that both carry PBD_PHASE_SELF, and only with
   self-collision on; between groups only with collisions on (the activation table, filled when the two
   switches change: with both on there is no table and the grid's fast path holds), and between two objects
   only where their collision filters meet (services/materials.h: with every filter the default, no table); never
   two pins;
   rest-pose neighbours of one object left out, closer at rest than D = r_i + r_j (per pair: the search's
   M (r_i + r_j) scaled back by 1 / M). Not closer than M D: the pairs between D and M D at rest are a cloth's
   grid edges when its step is within M D of its thickness (199,059 of them on the bench's 316 x 316 cloth), and
   they do work: they hold an edge squeezed below D. Left out, the built-in cloth (D = 4.5 cm on 5.1 cm steps)
   tangled at a pinned corner within 1 s and kept 27% stretch there (0.054 with them; issue 22 item 6). */
static pbdGridFilter ContactFilter(const pbdWorld* w, pbdContacts* c, int32_t self, int32_t others)
{
	pbdGridFilter f;
	memset(&f, 0, sizeof f);
	f.exclude = PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID;
	f.groupNeeds = PBD_PHASE_SELF;
	const int32_t key = 1 + (self != 0) + 2 * (others != 0);
	const int filtered = others && pbd_Material_FiltersSet(w);
	if (key != 4 || filtered) {
		if (c->activationKey != key || c->activationFilters != w->filterVersion || c->activationObjects != w->objectCount) {
			memset(c->activation, others != 0, 256 * 256);
			/* a particle's collision group is its object (core.h PBD_PHASE_GROUP_*) */
			for (int32_t a = 0; filtered && a < w->objectCount; ++a) {
				for (int32_t b = 0; b < w->objectCount; ++b) c->activation[256 * a + b] = (uint8_t)pbd_Material_FiltersMeet(w, a, b);
			}
			for (int32_t g = 0; g < 256; ++g) c->activation[257 * g] = (uint8_t)(self != 0);
			c->activationKey = key;
			c->activationFilters = w->filterVersion;
			c->activationObjects = w->objectCount;
		}
		f.activation = c->activation;
	}
	f.restDistance = c->uniform ? c->distance : 0.0f;
	if (!c->uniform) f.restScale = 1.0f / PBD_CONTACT_MARGIN;
	return f;
}

static int BuildGrid(pbdWorld* w, pbdContacts* c, int32_t self, int32_t others)
{
	Radii(w, c);
	pbdGridInput in;
	memset(&in, 0, sizeof in);
	in.positions = w->p;
	in.rest = w->rest0;
	in.phase = w->phase;
	in.count = w->particleCount;
	if (c->uniform) in.radius = c->distance * PBD_CONTACT_MARGIN; /* thickness x M, as before radii per object */
	else in.objectRadius = c->search;
	in.filter = ContactFilter(w, c, self, others);
	return pbd_Grid_Build(&c->grid, &in, pbd_Scratch_Take(w, pbdScratch_contacts), w->scratchBytes);
}

/* The pairs a search of the predicted positions would miss that the passes can still drive together: those of the
   last list still within the search radius M (r_i + r_j) where the last substep ended (x), but past it at the
   prediction (p). A contact's push out of the last substep is velocity now, so the prediction carries such a pair
   apart by as much as it was pushed; the passes that follow pull it back together (a cloth particle's edges and
   tethers), and it meets unseen. Measured on the trampoline (physics.md): a cloth particle pushed 2 cm out of the
   soft cube predicted 5.5 cm from the cube's particle, past the search's 1.2 D = 4.8 cm, pulled back 2.7 cm within
   the pass and pushed into the cube by a neighbouring pair: a period-2 cycle at 9 m/s that never settled. Kept
   here, the pair is in the list and projected once it touches again. A margin wide enough to hold it (1.6) settles
   the cycle too, but grows the list with every ring of cloth neighbours between D and 1.6 D; the kept pairs are the
   few that separate fast. They are compacted to the front of the list in its order, and the search appends after
   them; a kept pair is past the search radius at p by the grid's own test (the same float arithmetic: d^2 from
   (dx dx + dy dy) + dz dz, against R^2 with R the grid's radius), so the search cannot find it again and no pair is
   listed twice. Only a list the step's search made for the same world (versions, switches) is read: its pairs
   passed the filters and the rest-pose test that the new search would apply. */
static int32_t KeepSeparating(const pbdWorld* w, pbdContacts* c, int32_t self, int32_t others)
{
	if (!c->listOwn || c->listSelf != self || c->listOthers != others || c->paramVersion != w->paramVersion ||
		c->massVersion != w->massVersion || c->particleCount != w->particleCount)
		return 0;
	const float* p = w->p;
	const float* x = w->x;
	const uint32_t* phase = w->phase;
	int32_t* pairs = c->pairs;
	const float R0 = c->distance * PBD_CONTACT_MARGIN;
	const float R20 = R0 * R0;
	int32_t kept = 0;
	const float T0 = c->distance * PBD_CONTACT_TOUCH, T20 = T0 * T0;
	for (int32_t k = 0; k < c->pairCount; ++k) {
		const int32_t i = pairs[2 * k], j = pairs[2 * k + 1];
		float R2 = R20, T2 = T20;
		if (!c->uniform) {
			const int32_t oi = phase[i] & PBD_PHASE_OBJECT_MASK, oj = phase[j] & PBD_PHASE_OBJECT_MASK;
			const float R = (c->search[oi] + c->search[oj]) * 0.5f, T = (c->radius[oi] + c->radius[oj]) * PBD_CONTACT_TOUCH;
			R2 = R * R;
			T2 = T * T;
		}
		const float ex = x[4 * i] - x[4 * j], ey = x[4 * i + 1] - x[4 * j + 1], ez = x[4 * i + 2] - x[4 * j + 2];
		const float e2 = ex * ex + ey * ey + ez * ez;
		const float dx = p[4 * i] - p[4 * j], dy = p[4 * i + 1] - p[4 * j + 1], dz = p[4 * i + 2] - p[4 * j + 2];
		const float d2 = dx * dx + dy * dy + dz * dz;
		if (e2 < T2 && !(d2 < R2)) {
			pairs[2 * kept] = i, pairs[2 * kept + 1] = j;
			kept += 1;
		}
	}
	return kept;
}

/* The kept pairs moved from the list's front to its end (three reversals: O(pairs), the same order on every build),
   so they are projected last in each pass. Why last: a particle wedged between two particles of another object
   (a cloth particle pushed between a soft cube's lattice particles, whose face holes are wider than D) is held by
   the pair projected last in a pass. The kept pair is the one that held it when the last substep ended; projected
   first, the other pair then has the last word, the substep after that one's pair is the kept one, and the two
   take turns: the particle jumps back and forth between them every substep for good. Measured on the
   trampoline's replayed calls, 20 s: kept first, 0.017 J at the end, flat from 8 s on; kept last, 5e-6 J. */
static void Reverse(int64_t* a, int32_t n)
{
	for (int32_t i = 0, j = n - 1; i < j; ++i, --j) {
		const int64_t t = a[i];
		a[i] = a[j], a[j] = t;
	}
}

static void KeptLast(pbdContacts* c)
{
	if (c->kept == 0 || c->kept == c->pairCount) return;
	int64_t* a = (int64_t*)(void*)c->pairs;
	Reverse(a, c->kept);
	Reverse(a + c->kept, c->pairCount - c->kept);
	Reverse(a, c->pairCount);
}

/* The list's start before a search: the separating pairs kept (own: the step's search, which may keep them), the
   rest emptied. */
static void StartList(pbdWorld* w, pbdContacts* c, int32_t self, int32_t others, int own)
{
	c->kept = own ? KeepSeparating(w, c, self, others) : 0;
	c->pairCount = c->kept;
	c->dropped = 0;
	c->reusable = 0;
	c->listOwn = own;
	c->listSelf = self;
	c->listOthers = others;
}

/* Searches the pairs of the current predicted positions; the list is not kept for reuse. own: the step's search
   (StartList). */
static void Search(pbdWorld* w, pbdContacts* c, int32_t self, int32_t others, int own)
{
	StartList(w, c, self, others, own);
	if (!BuildGrid(w, c, self, others)) return;
	/* with the step's threads, the search is shared out (the same pairs); its chunks live in the
	   scratch after the grid's sorted copies */
	const size_t sorted = pbd_Grid_ScratchBytes(w->maxParticles);
	uint8_t* scratch = pbd_Scratch_Take(w, pbdScratch_contacts);
	const int32_t kept = c->kept;
	c->pairCount = kept + pbd_Grid_FindPairsShared(w, &c->grid, c->pairs + 2 * (size_t)kept, c->maxPairs - kept,
												   scratch + sorted, w->scratchBytes - sorted);
	c->dropped = c->grid.dropped;
	c->searches += 1;
	KeptLast(c);
}

static void Contacts_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdContacts* c = state;
	/* Only the objects this family pairs count (services/materials.h: a fluid's particles are paired by the
	   fluid's own search), so a fluid beside one cloth costs this family no search. */
	int32_t solids = 0;
	for (int32_t o = 0; o < w->objectCount; ++o) solids += pbd_Material_InPairContacts(w, o);
	c->self = w->params[pbdParam_selfCollision] != 0.0f && solids > 0;
	c->others = pbd_Material_ObjectsCollide(w) && solids > 1;
	if (!c->self && !c->others) c->pairCount = 0, c->reusable = 0;
}

/* Reusing the pair list across substeps (as Macklin et al. 2019, "Small Steps in Physics
   Simulation", find neighbours once per frame). The list holds the pairs within M (r_i + r_j)
   of the positions it was searched at (M = 1.2); a pair missing from it was at least that far
   apart then, and a contact needs it closer than r_i + r_j. To close the gap of
   (M - 1)(r_i + r_j) the two must together have moved that much, so if particle i has moved
   less than (M - 1) r_i and j less than (M - 1) r_j,
       |p_i - p_j| >= d_0 - |dp_i| - |dp_j| > M (r_i + r_j) - (M - 1) r_i - (M - 1) r_j = r_i + r_j,
   and the pair is not in contact. So while every particle's predicted position is within
   (M - 1) r of where it was at the search (its own radius: 0.1 thickness for cloth, and a
   small particle beside a large one is held to its own, smaller reach), the list holds every
   pair that can be in contact, and the search is skipped. With one radius for all this is the
   one reach 0.5 (M D - D) = (M - 1) r. Anything the displacement cannot show searches again:
   a parameter change (thickness, the filters, an object's radius), a mass change (pairs of two
   pins were left out), new particles, an overflowing list. A cloth at rest then searches about
   once in many steps; one that falls or is dragged still searches every substep. */
static int WithinReach(const pbdWorld* w, const pbdContacts* c, float m)
{
	const float limit2 = m * m;
	const float* p = w->p;
	const float* o = c->origin;
	if (c->uniform) {
		for (int32_t i = 0; i < w->particleCount; ++i) {
			const float dx = p[4 * i] - o[4 * i], dy = p[4 * i + 1] - o[4 * i + 1], dz = p[4 * i + 2] - o[4 * i + 2];
			if (!(dx * dx + dy * dy + dz * dz < limit2)) return 0; /* NaN-safe: not within */
		}
		return 1;
	}
	const uint32_t* phase = w->phase;
	for (int32_t i = 0; i < w->particleCount; ++i) {
		const float dx = p[4 * i] - o[4 * i], dy = p[4 * i + 1] - o[4 * i + 1], dz = p[4 * i + 2] - o[4 * i + 2];
		if (!(dx * dx + dy * dy + dz * dz < c->reach2[phase[i] & PBD_PHASE_OBJECT_MASK])) return 0;
	}
	return 1;
}

/* The largest and smallest inverse mass of the free particles, so the solve knows whether any
   pair can be past the mass ratio (usually not: one cloth, or cloth and ropes of alike masses)
   and then runs without the test. Read again only when a mass changed. */
static void MassRange(const pbdWorld* w, pbdContacts* c)
{
	if (c->rangeVersion == w->massVersion && c->rangeCount == w->particleCount) return;
	float lo = INFINITY, hi = 0.0f;
	for (int32_t i = 0; i < w->particleCount; ++i) {
		const float wi = w->x[4 * i + 3];
		if (!(wi > 0.0f)) continue;
		lo = wi < lo ? wi : lo;
		hi = wi > hi ? wi : hi;
	}
	c->lightest = hi; /* the lightest particle has the largest inverse mass */
	c->heaviest = lo;
	c->rangeVersion = w->massVersion;
	c->rangeCount = w->particleCount;
}

static void Prepare(pbdWorld* w, pbdContacts* c)
{
	if (!c->self && !c->others) return;
	MassRange(w, c);
	const int unchanged = c->paramVersion == w->paramVersion && c->massVersion == w->massVersion &&
						  c->particleCount == w->particleCount;
	/* the radii are those of the last search: a change since would have moved paramVersion */
	const float reach = 0.5f * (c->distance * PBD_CONTACT_MARGIN - c->distance);
	if (c->reusable && unchanged && WithinReach(w, c, reach)) return;
	Search(w, c, c->self, c->others, 1);
	c->paramVersion = w->paramVersion;
	c->massVersion = w->massVersion;
	c->particleCount = w->particleCount;
	c->reusable = c->dropped == 0 && c->grid.count == w->particleCount;
	if (c->reusable) memcpy(c->origin, w->p, (size_t)w->particleCount * 4 * sizeof(float));
}

static void Contacts_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx) { Prepare(w, state); }

/* ---------------------------------------------------------------- the contacts stage in slice units */

/* Prepare in slice units of bounded work (family.h findContactsUnit), with its bits:
     decide  Prepare's test: nothing to look for, or the kept list still holds (WithinReach: O(n)); else
     build   the grid (Radii, the counting sort, the gather into the scratch: O(n + table)), which the family
             then holds (pbd_Scratch_Hold) for the search's units
     search  the grid's slots in order, about PBD_SLICE_WORK candidates a unit (pbd_Grid_FindPairsUnit), the pairs
             appended: the serial search's pairs, order and drops, which are also the shared search's
     finish  the list's bookkeeping and, when it may be kept, its origin (O(n)); the scratch let go
   A whole step (whole from the start) runs Prepare itself, its search shared out over the step's threads;
   `whole` part way finishes the parts left. */
enum { PartNone, PartDecide, PartBuild, PartSearch, PartFinish };

static int Contacts_ContactsUnit(pbdWorld* w, void* state, const pbdStepContext* ctx, int whole)
{
	pbdContacts* c = state;
	(void)ctx;
	if (c->slicePart == PartNone) {
		if (whole) {
			Prepare(w, c);
			c->lastUnits = 1;
			return 1;
		}
		c->slicePart = PartDecide;
		c->sliceUnits = 0;
	}
	const int64_t budget = whole ? INT64_MAX : w->sliceBudget;
	do {
		switch (c->slicePart) {
		case PartDecide: {
			if (!c->self && !c->others) break; /* done */
			MassRange(w, c);
			const int unchanged = c->paramVersion == w->paramVersion && c->massVersion == w->massVersion &&
								  c->particleCount == w->particleCount;
			const float reach = 0.5f * (c->distance * PBD_CONTACT_MARGIN - c->distance);
			w->sliceWork += w->particleCount;
			if (c->reusable && unchanged && WithinReach(w, c, reach)) break; /* the kept list holds: done */
			c->slicePart = PartBuild;
			c->sliceUnits += 1;
			if (!whole) return 0; /* the build in a unit of its own */
			continue;
		}
		case PartBuild:
			/* Search's start: the list emptied but for the separating pairs, the grid built into the scratch */
			StartList(w, c, c->self, c->others, 1);
			c->sliceBuilt = BuildGrid(w, c, c->self, c->others);
			w->sliceWork += w->particleCount;
			c->slicePart = PartFinish;
			if (c->sliceBuilt) {
				c->grid.dropped = 0;
				c->sliceSlot = 0;
				c->sliceTests = 0;
				c->slicePart = PartSearch;
				pbd_Scratch_Hold(w, pbdScratch_contacts);
			}
			c->sliceUnits += 1;
			if (!whole) return 0;
			continue;
		case PartSearch: {
			int64_t tests = 0;
			c->pairCount = pbd_Grid_FindPairsUnit(&c->grid, c->pairs, c->maxPairs, c->pairCount, &c->sliceSlot,
												  budget, &tests);
			c->sliceTests += tests;
			w->sliceWork += tests;
			if (c->sliceSlot >= c->grid.count) c->slicePart = PartFinish;
			c->sliceUnits += 1;
			if (!whole) return 0;
			continue;
		}
		default: /* PartFinish: Search's end and Prepare's */
			pbd_Scratch_Release(w, pbdScratch_contacts);
			if (c->sliceBuilt) {
				c->dropped = c->grid.dropped;
				KeptLast(c);
				c->searches += 1;
				c->lastTests = c->sliceTests;
			}
			c->paramVersion = w->paramVersion;
			c->massVersion = w->massVersion;
			c->particleCount = w->particleCount;
			c->reusable = c->dropped == 0 && c->grid.count == w->particleCount;
			if (c->reusable) memcpy(c->origin, w->p, (size_t)w->particleCount * 4 * sizeof(float));
			w->sliceWork += w->particleCount;
			break;
		}
		break; /* done */
	} while (1);
	c->lastUnits = c->sliceUnits + 1;
	c->slicePart = PartNone;
	return 1;
}

/* Units of the contacts stage: the last stage's for one to come; for the one in progress, what its part leaves,
   the search's by the last search's candidates. */
static int32_t Contacts_UnitsLeft(const pbdWorld* w, const void* state, int32_t stage, int begun)
{
	const pbdContacts* c = state;
	if (stage != pbdStage_contacts) return 1;
	if (!begun || c->slicePart == PartNone) return c->lastUnits > 0 ? c->lastUnits : 1;
	const int64_t left = c->lastTests - c->sliceTests;
	const int64_t search = left > 0 ? left / w->sliceBudget + 1 : 1;
	switch (c->slicePart) {
	case PartDecide: return c->lastUnits > 0 ? c->lastUnits : 1;
	case PartBuild: return (int32_t)(2 + (c->lastTests / w->sliceBudget + 1));
	case PartSearch: return (int32_t)(1 + search);
	default: return 1;
	}
}

void pbd_Contacts_Prepare(pbdWorld* w)
{
	pbdContacts* c = pbd_ContactsState(w);
	Contacts_PrepareStep(w, c, NULL);
	Prepare(w, c);
}

static int32_t Contacts_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdContacts*)state)->pairCount > 0; }

static int32_t Contacts_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 1;
	return ((const pbdContacts*)state)->pairCount;
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
static inline __attribute__((always_inline)) void SolvePairs(pbdWorld* w, const pbdContacts* cs, int32_t begin, int32_t end,
															  const int uniform, const int exact, const int bodies)
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
	const int32_t* pairs = cs->pairs;
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

static void Contacts_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	const pbdContacts* cs = state;
	const int exact = !(cs->lightest > cs->massRatio * cs->heaviest); /* no pair can be past the ratio */
	if (cs->bodies) { /* the pairs of bodies' particles take their normals from the bodies (contacts_bodies.c) */
		if (exact) SolvePairs(w, cs, begin, end, 0, 1, 1);
		else SolvePairs(w, cs, begin, end, 0, 0, 1);
	} else if (cs->uniform) {
		if (exact) SolvePairs(w, cs, begin, end, 1, 1, 0);
		else SolvePairs(w, cs, begin, end, 1, 0, 0);
	} else {
		if (exact) SolvePairs(w, cs, begin, end, 0, 1, 0);
		else SolvePairs(w, cs, begin, end, 0, 0, 0);
	}
}

int pbd_HashGrid_Build(pbdWorld* w) { return BuildGrid(w, pbd_ContactsState(w), 1, 1); }

int pbd_World_FindPairs(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	const int busy = pbd_CheckNoStep(w, "pbd_World_FindPairs"); /* the step's pairs and grid are in use */
	if (busy != PBD_OK) return busy;
	pbdContacts* c = pbd_ContactsState(w);
	Search(w, c, 1, 1, 0); /* every pair either kind of contact would project; not kept for reuse */
	return c->pairCount;
}

/* The update stage, after the passes: no solid particle's path crosses another object's cloth (contacts_sheets.c). */
static void Contacts_Update(pbdWorld* w, void* state, const pbdStepContext* ctx) { pbd_Contacts_GuardSheets(w, state); }

const pbdFamily pbd_family_contacts = {
	.name = "contacts",
	.bytes = Contacts_Bytes,
	.scratchBytes = Contacts_ScratchBytes,
	.create = Contacts_Create,
	.start = Contacts_PrepareStep,
	.findContacts = Contacts_PrepareSubstep,
	.findContactsUnit = Contacts_ContactsUnit,
	.unitsLeft = Contacts_UnitsLeft,
	.colourCount = Contacts_ColourCount,
	.colourSize = Contacts_ColourSize,
	.solve = Contacts_Solve,
	.update = Contacts_Update,
};
