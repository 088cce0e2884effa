/* hash_grid.c -- spatial hash grid and particle-particle self-collision (to be written). */
#include "core.h"

void pbd_HashGrid_FindPairs(pbdWorld* w) { w->pairCount = 0; }
void pbd_SelfCollision_Solve(pbdWorld* w) { (void)w; }

int pbd_World_FindPairs(pbdWorldId id)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
	pbd_HashGrid_FindPairs(w);
	return w->pairCount;
}
