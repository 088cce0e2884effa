/* families/contacts.c -- particle contacts (self-collision) as a family: a shim over the
   hash grid and pair solve of neighbours/grid.c, which the neighbour-search module replaces.
   The pairs are found (or the kept list reused) in the contacts stage and projected in every
   pass, in list order: one serial colour (pairs share particles). */
#include "families/family.h"

static void Contacts_PrepareSubstep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	if (w->params[pbdParam_selfCollision] != 0.0f) {
		pbd_SelfCollision_Prepare(w);
	} else {
		w->pairCount = 0;
		w->pairsReusable = 0;
	}
}

static int32_t Contacts_ColourCount(const pbdWorld* w, const void* state) { return w->pairCount > 0; }

static int32_t Contacts_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 1;
	return w->pairCount;
}

static void Contacts_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbd_SelfCollision_Solve(w); /* the whole list: the shim takes no split */
}

const pbdFamily pbd_family_contacts = {
	.name = "contacts",
	.prepareSubstep = Contacts_PrepareSubstep,
	.colourCount = Contacts_ColourCount,
	.colourSize = Contacts_ColourSize,
	.solve = Contacts_Solve,
};
