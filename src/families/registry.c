/* families/registry.c -- the registry the step walks: every family of PBD_FAMILIES, in solve
   order, indexed by pbdFamilyId (families/family.h). Adding a family adds one line there. */
#include "families/family.h"

_Static_assert(pbdFamily_count <= PBD_MAX_FAMILIES, "pbdWorld.families has room for every family");

const pbdFamily* const pbd_families[pbdFamily_count] = {
#define PBD_X_FAMILY_ENTRY(name) [pbdFamily_##name] = &pbd_family_##name,
	PBD_FAMILIES(PBD_X_FAMILY_ENTRY)
#undef PBD_X_FAMILY_ENTRY
};

void pbd_Families_ParticlesMoved(pbdWorld* w, int32_t first, int32_t count, const int32_t* newIndex)
{
	for (int32_t f = 0; f < pbdFamily_count; ++f) {
		if (pbd_families[f]->particlesMoved) pbd_families[f]->particlesMoved(w, w->families[f], first, count, newIndex);
	}
}
