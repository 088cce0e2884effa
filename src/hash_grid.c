/* hash_grid.c -- spatial hash grid and particle-particle self-collision (to be written). */
#include "core.h"

void pbd_HashGrid_FindPairs(pbdWorld* w) { w->pairCount = 0; }
void pbd_SelfCollision_Solve(pbdWorld* w) { (void)w; }
