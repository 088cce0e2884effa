/* families/contacts.h -- the particle contacts family's state: self-collision and collisions
   between objects, one user of the neighbour search (neighbours/grid.h). Only contacts.c reads
   it; tests may look. */
#ifndef PBD_CONTACTS_H
#define PBD_CONTACTS_H

#include "families/family.h"
#include "neighbours/grid.h"

/// Pairs are searched within PBD_CONTACT_MARGIN x thickness (contacts.c says why 1.2).
#define PBD_CONTACT_MARGIN 1.2f

typedef struct pbdContacts {
	pbdGrid grid;
	int32_t* pairs; ///< 2 per pair: (i, j), i < j, in the search's order
	int32_t pairCount, maxPairs;
	int32_t dropped; ///< pairs of the last search past maxPairs (counted, not stored)
	/* What this step looks for (prepareStep, from the parameters). */
	int32_t self, others; ///< selfCollision; collisions, when there are two objects at least
	/* Reusing the list across substeps: kept while no particle is 0.1 thickness from where it was
	   at the search (origin, float4 each), and the world has not changed in a way displacement
	   cannot show (the counters below, the particle count). */
	float* origin;
	int32_t reusable;
	int32_t paramVersion, massVersion, particleCount;
	int32_t searches; ///< searches done (tests, benchmark)
} pbdContacts;

static inline pbdContacts* pbd_ContactsState(const pbdWorld* world) { return (pbdContacts*)world->families[pbdFamily_contacts]; }

/// The contacts stage's work for the current predicted positions: keep the list or search again.
void pbd_Contacts_Prepare(pbdWorld* world);
/// The search radius: PBD_CONTACT_MARGIN x thickness.
float pbd_Contacts_SearchRadius(const pbdWorld* world);
/// The grid built from the current predicted positions, nothing searched (the benchmark's
/// rebuild mode reaches it by this name); 0 if the build was refused.
int pbd_HashGrid_Build(pbdWorld* world);

#endif
