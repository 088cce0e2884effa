/* families/contacts_sheets.c -- no solid particle's path crosses another object's cloth within a substep: the
   particle contacts' guard, after the passes (the update stage). State: contacts.h; the test: services/crossing.h.

   Why. The particle contacts see a cloth as its particles, spheres of radius r_c at its grid's corners: between
   four of them a square's centre is 0.71 s from each (s the cloth's step), so a sphere of radius r passes
   through the square untouched when r + r_c < 0.71 s. The trampoline's cloth (s = 5.1 cm, r_c = 1 cm) lets
   through every particle of radius under 2.6 cm: a soft cube of 0.24 m at resolution 5 (r = 2.4 cm, its lattice
   nearly the cloth's step, so its whole bottom face meets holes at once) fell through it at every drop tried, at
   resolution 3 and 10 at some, a rigid one at resolution 5 at one of three (7 of 42 drops of soft and rigid
   cubes at resolutions 3-10, 5 s each; tests/c/test_contact_sheets.c). Water had the same hole and the fluid's
   guard closed it (fluid_guard.c); this is the same test for the other particles.

   So each particle of a solid that is not a sheet itself (a body, a rope, a balloon), free, of an object whose
   collisions meet the sheet's (the activation table of contacts.c: collisions on, the filters), has its path x -> p
   tested against every sheet triangle of another object (services/crossing.c: the exact crossing of a moving point
   and a moving triangle). At the first crossing the particle and the triangle are pushed apart along the
   triangle's normal to PBD_SHEET_GUARD r_i, on the side the particle came from, with seed 000's mass-weighted split
   (the point-triangle inequality, the heavier side as if at most PBD_CONTACT_MASS_RATIO times heavier as in the
   pair contacts): the cloth takes the body's weight where the particle is held. The guard keeps the side; the
   pair contacts with the cloth's particles carry the rest. It moves the triangle's corners, so it runs one
   particle after another on one thread (the same bits on any thread count).

   Cost: nothing without a sheet and another solid with collisions on; else the triangles' index within the guarded
   particles' box (neighbours/triangles.c) and per guarded particle the triangles of the cells its path covers. */
#include "families/contacts.h"
#include "services/crossing.h"
#include "services/materials.h"

/* Object o's particles, one after another: free ones that collide. */
static void GuardObject(const pbdWorld* w, const pbdContacts* c, const pbdCrossing* crossing, int32_t o, int filtered)
{
	const uint32_t* phase = w->phase;
	const int32_t first = w->objects[o].firstParticle, end = first + w->objects[o].particleCount;
	const uint8_t* meets = filtered ? c->activation + 256 * o : NULL;
	for (int32_t i = first; i < end; ++i) {
		if ((phase[i] & (PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID)) || !(w->p[4 * i + 3] > 0.0f)) continue;
		pbd_Crossing_Guard(crossing, i, PBD_SHEET_GUARD * c->radius[o], o, meets, c->massRatio);
	}
}

void pbd_Contacts_GuardSheets(pbdWorld* w, pbdContacts* c)
{
	if (!c->others || !pbd_Crossing_AnySheet(w)) return;
	uint8_t guarded[PBD_MAX_OBJECTS];
	int32_t any = 0;
	float reach = 0.0f, sheetRadius = 0.0f;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		const int sheet = pbd_Material_IsSheet(w, o);
		guarded[o] = (uint8_t)(pbd_Material_InPairContacts(w, o) && !sheet && w->objects[o].particleCount > 0);
		any |= guarded[o];
		if (guarded[o]) reach = c->radius[o] > reach ? c->radius[o] : reach;
		if (sheet) sheetRadius = c->radius[o] > sheetRadius ? c->radius[o] : sheetRadius;
	}
	if (!any) return;
	/* each guarded object's paths' box: triangles beyond them cannot meet one (one box around every body's paths
	   kept the whole trampoline's cloth: its 3,042 triangles swept each substep were most of the guard's cost) */
	float within[6 * PBD_MAX_OBJECTS];
	int32_t boxes = 0;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		if (!guarded[o]) continue;
		float* box = within + 6 * boxes++;
		for (int k = 0; k < 3; ++k) box[k] = 3.4e38f, box[3 + k] = -3.4e38f;
		const int32_t first = w->objects[o].firstParticle, end = first + w->objects[o].particleCount;
		for (int32_t i = first; i < end; ++i) pbd_Crossing_AddPath(w, i, box);
	}
	/* the margin: a particle's and the cloth's radii, the reach of a pair contact; the cell: about a cloth edge or two */
	const float margin = reach + sheetRadius;
	pbdCrossing crossing;
	if (pbd_Crossing_Build(&crossing, w, within, boxes, margin, 4.0f * margin, pbd_Scratch_Take(w, pbdScratch_none),
						   w->scratchBytes) == 0)
		return;
	/* the activation table (contacts_list.c ContactFilter) holds the filters once they are set; a search since their last
	   change filled it (a change moves paramVersion, which searches again) */
	const int filtered = pbd_Material_FiltersSet(w);
	/* one particle after another, on one thread: a guard moves the triangle's corners, which the next may meet */
	for (int32_t o = 0; o < w->objectCount; ++o) {
		if (guarded[o]) GuardObject(w, c, &crossing, o, filtered);
	}
}
