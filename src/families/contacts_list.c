/* families/contacts_list.c -- the particle contacts' pair list (contacts.c solves it): the radii, the search's
   rule (ContactFilter), the search and its reuse across substeps, the pairs kept while they separate, the edges
   listed apart, and the search in slice units. State: contacts.h. Compiled small (-Oz in wasm, Makefile): its
   loops are O(particles) or O(pairs) once a substep at most, the passes' loop is contacts.c's.

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
   counted, not stored. */
#include "families/contacts.h"
#include "services/materials.h"
#include "services/surfaces.h"
#include "base/tasks.h"

#include <math.h>
#include <string.h>

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
	c->edgesCover = 1;
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
		/* its own rest pairs within the search radius all edges (a margin of 0.1% for the rest pose's rounding) */
		const pbdObjectInfo* info = &w->objects[o];
		if (pbd_Material_InPairContacts(w, o) && info->particleCount > 0 && (w->phase[info->firstParticle] & PBD_PHASE_SELF) &&
			!(w->materials[o].edgeCover > 1.001f * c->search[o]))
			c->edgesCover = 0;
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
   rest-pose neighbours of one object left out: closer at rest than D = r_i + r_j (per pair: the search's
   M (r_i + r_j) scaled back by 1 / M), or, when every self-colliding object's rest pairs within the search radius
   M D are its structural edges (edgesCover: grid cloths and chains whose step is past M D / sqrt 2 and M D / 2),
   closer than M D, and those edges are listed apart without a search (CollectEdges). The pairs between D and
   M D at rest are a cloth's grid edges when its step is within M D of its thickness (199,059 of them on the
   bench's 316 x 316 cloth), and they do work: they hold an edge squeezed below D (left out with nothing in their
   place, the built-in cloth, D = 4.5 cm on 5.1 cm steps, tangled at a pinned corner within 1 s and kept 27%
   stretch there, 0.054 with them). */
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
	if (c->edgesCover) { /* out to M D: the edges are CollectEdges' */
		f.restDistance = c->uniform ? c->distance * PBD_CONTACT_MARGIN : 0.0f;
		if (!c->uniform) f.restScale = 1.0f;
	} else {
		f.restDistance = c->uniform ? c->distance : 0.0f;
		if (!c->uniform) f.restScale = 1.0f / PBD_CONTACT_MARGIN;
	}
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

/* The rest-pose pairs the search leaves out that still need the contact (ContactFilter): a self-colliding object's
   structural edges (services/surfaces.h, the stretch and chain constraints) at least D = r_i + r_j long at rest and
   shorter than the search's M D, under the search's own rules (both particles carry PBD_PHASE_SELF, not both
   pinned, the same float tests). Only those: a rest-pose pair between D and M D that is no edge (an irregular mesh's)
   is left out. O(edges), again only when the mesh (a tear), a pin, a parameter or the particles changed, so a torn
   edge (both ends one particle) drops out the step it tears.
   Why. Searched, listed and solved among the pairs, these edges made self-collision cost the bench's 316 x 316 cloth
   (thickness 6 mm on 6.35 mm steps: 199,059 of them, every pair it had) 1.66 x its step natively; a list of edges
   needs no search. Solved after the pairs, so an edge squeezed below D by a pair ends the pass at D: solved before
   them, one of the three drags of tests/c/test_knots.c that once knotted the built-in cloth knotted it again (28%
   stretch a minute on; the order of a list is chaos there, but the edge is what keeps the mesh off itself). */
static void CollectEdges(const pbdWorld* w, pbdContacts* c)
{
	/* the list follows the mesh (torn edges), the pins, the radii and the switches: kept while none moved */
	const int32_t key[6] = { c->self, w->topologyVersion, w->massVersion, w->paramVersion, w->particleCount, w->objectCount };
	if (c->edgesKept && memcmp(key, c->edgeKey, sizeof key) == 0) return;
	memcpy(c->edgeKey, key, sizeof key);
	c->edgesKept = 1;
	c->edgeCount = 0;
	const pbdEdgeSource* src = w->edges;
	if (!c->self || src == NULL) return;
	Radii(w, c);
	if (!c->edgesCover) return; /* the search lists them (ContactFilter) */
	const uint32_t* phase = w->phase;
	const float* rest = w->rest0;
	const float* x = w->x;
	const int32_t groups = src->groupCount(w);
	for (int32_t g = 0; g < groups; ++g) {
		pbdEdges e;
		if (!src->structuralEdges(w, g, &e) || !pbd_Material_InPairContacts(w, e.object)) continue;
		/* left out by the search (ContactFilter) closer than R, and once closer than D: its float expressions */
		const float D = c->uniform ? c->distance : c->search[e.object] * (1.0f / PBD_CONTACT_MARGIN);
		const float R = c->uniform ? c->distance * PBD_CONTACT_MARGIN : c->search[e.object];
		const float D2 = D * D, R2 = R * R;
		for (int32_t k = e.first; k < e.end; ++k) {
			const int32_t a = e.a[k], b = e.b[k];
			if (a == b || !(phase[a] & phase[b] & PBD_PHASE_SELF) || (x[4 * a + 3] == 0.0f && x[4 * b + 3] == 0.0f)) continue;
			const float ex = rest[4 * a] - rest[4 * b], ey = rest[4 * a + 1] - rest[4 * b + 1], ez = rest[4 * a + 2] - rest[4 * b + 2];
			const float e2 = (ex * ex + ey * ey) + ez * ez;
			if (!(e2 >= D2 && e2 < R2) || c->edgeCount >= c->maxEdges) continue;
			c->edges[2 * c->edgeCount] = a < b ? a : b;
			c->edges[2 * c->edgeCount + 1] = a < b ? b : a;
			c->edgeCount += 1;
		}
	}
}

void pbd_Contacts_Start(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdContacts* c = state;
	/* Only the objects this family pairs count (services/materials.h: a fluid's particles are paired by the
	   fluid's own search), so a fluid beside one cloth costs this family no search. */
	int32_t solids = 0;
	for (int32_t o = 0; o < w->objectCount; ++o) solids += pbd_Material_InPairContacts(w, o);
	c->self = w->params[pbdParam_selfCollision] != 0.0f && solids > 0;
	c->others = pbd_Material_ObjectsCollide(w) && solids > 1;
	if (!c->self && !c->others) c->pairCount = 0, c->reusable = 0;
	CollectEdges(w, c);
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

void pbd_Contacts_FindContacts(pbdWorld* w, void* state, const pbdStepContext* ctx) { Prepare(w, state); }

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

int pbd_Contacts_FindContactsUnit(pbdWorld* w, void* state, const pbdStepContext* ctx, int whole)
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
int32_t pbd_Contacts_UnitsLeft(const pbdWorld* w, const void* state, int32_t stage, int begun)
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
	pbd_Contacts_Start(w, c, NULL);
	Prepare(w, c);
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

