/* families/contacts.c -- particle contacts (self-collision) as a family: a shim over the
   hash grid and pair solve of neighbours/grid.c, which the neighbour-search module replaces.
   The pairs are found (or the kept list reused) in the contacts stage and projected in every
   pass, in list order: one serial colour (pairs share particles). The grid's arrays live in
   the world (neighbours/grid.c reads them there); this family sizes and carves them. */
#include "families/family.h"

static int32_t TableSize(const pbdCapacity* cap)
{
	int32_t t = 1;
	while (t < 2 * cap->maxParticles) t <<= 1;
	return t;
}

static size_t Contacts_Bytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return pbd_PoolBytes((size_t)TableSize(cap) + 1, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(int32_t)) +
		   pbd_PoolBytes((size_t)cap->maxContacts, 2 * sizeof(int32_t)) + pbd_PoolBytes(P, 4 * sizeof(float));
}

static size_t Contacts_ScratchBytes(const pbdCapacity* cap) { return pbd_HashGridScratchBytes(cap->maxParticles); }

static void* Contacts_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	w->tableSize = TableSize(cap);
	w->maxContacts = cap->maxContacts;
	w->cellStart = pbd_PoolAlloc(pool, (size_t)w->tableSize + 1, sizeof(int32_t));
	w->cellEntries = pbd_PoolAlloc(pool, P, sizeof(int32_t));
	w->pairs = pbd_PoolAlloc(pool, (size_t)cap->maxContacts, 2 * sizeof(int32_t));
	w->pairOrigin = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	return w->pairOrigin; /* not read through the registry: a non-NULL state says the carving worked */
}

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
	.bytes = Contacts_Bytes,
	.scratchBytes = Contacts_ScratchBytes,
	.create = Contacts_Create,
	.prepareSubstep = Contacts_PrepareSubstep,
	.colourCount = Contacts_ColourCount,
	.colourSize = Contacts_ColourSize,
	.solve = Contacts_Solve,
};
