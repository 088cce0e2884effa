/* families/fluid_guard.c -- no fluid particle's path crosses a cloth within a substep (issue 22 item 1).

   The contact of fluid_sheets.c holds a fluid particle on its side of the cloth particles in its list and
   shares the push with them (Macklin et al. 2014 4.2). It is a contact between particles, so it misses what
   its lists miss. Measured at the fluid scenes' 2 substeps x 4 passes, water thrown at 5 m/s onto a 1 m cloth
   of 1 g particles pinned all round put 28 of 900 under it within 60 steps: 7 had no cloth particle within h
   when they crossed (the water stretches the cloth, and a point over a stretched triangle can be farther than
   h from all three corners), the other 21 had their contacts and still ended a substep a few millimetres past
   the cloth (a Jacobi pass averages the contact with the water pressing down behind it).

   So after the passes (the update stage), no fluid particle's path in this substep crosses a cloth triangle: the
   continuous test of services/crossing.c stops it at the earliest crossing, on the side it came from, the guard's
   distance off the triangle (an inelastic contact that holds for the rest of this substep; the next substep's
   contact, fluid_sheets.c, takes over). The cloth is not moved: the guard corrects what the contact left over. So
   where the cloth passes through itself around a fluid particle (one substep of one pass, measured) no place for
   it is on its side of both layers, and it may end on the far side of one. Such a particle runs out of the test's
   rounds (PBD_CROSSING_ROUNDS): after the parallel guard, the few that did are guarded again one after another,
   the cloth pushed too (the point-triangle inequality split by the masses, seed 000 section 3), which opens the
   fold around them. Measured: water thrown at 5 m/s onto the 1 g cloth at 1 x 1 (one substep of one pass), 120
   steps, 83 particle-substeps needed a second round, one ran out of rounds and ended under the cloth (its path
   through a triangle, checked in double: tests/c/test_fluid_sheets.c); with the second guard none.

   Cost: a hashed grid of the cloths' swept triangles within the fluid's box (neighbours/triangles.c), and per
   fluid particle the triangles of the cells its path's box covers. Nothing without both fluid and cloth. */
#include "base/tasks.h"
#include "families/fluid_state.h"
#include "services/crossing.h"

/* The guard's distance from the cloth, in fluid particle radii: one, a sphere resting on the sheet. The contact
   (fluid_sheets.c) holds r_f + r_s; the guard keeps the side, and the next substep starts clear of the sheet by the
   particle's radius. At a quarter radius, water thrown at 5 m/s onto the 1 g cloth put 26 of 900 under it at
   1 x 1 and 1 at 1 x 2, 2 x 1 and 4 x 1 (5 at 1 x 1 thrown at 3 m/s); at one radius 1 at 1 x 1 and none at any
   other split or speed (tests/c/test_fluid_sheets.c FluidOnClothEverySplit). Half a radius gave 0 at 1 x 1 but 4
   at 2 x 1: near a fold the counts are chaotic, the radius is the choice with a reason. */
#define PBD_GUARD_DISTANCE 1.0f

typedef struct GuardBlock {
	const pbdFluid* f;
	pbdCrossing crossing;
	float distance;
} GuardBlock;

static void GuardParticles(void* data, int32_t begin, int32_t end)
{
	const GuardBlock* b = data;
	for (int32_t o = begin; o < end; ++o) {
		const int32_t i = b->f->order[o];
		b->f->guardSpent[i] = (uint8_t)(pbd_Crossing_Guard(&b->crossing, i, b->distance, -1, NULL, 0.0f) >= PBD_CROSSING_ROUNDS);
	}
}

void pbd_Fluid_GuardSheets(pbdWorld* w, pbdFluid* f)
{
	if (!f->listsValid || f->fluidCount <= 0 || !pbd_Crossing_AnySheet(w)) return;
	GuardBlock b = { .f = f, .distance = PBD_GUARD_DISTANCE * f->k.radius };
	uint8_t* scratch = pbd_Scratch_Take(w, pbdScratch_none);
	/* the fluid's paths' box: triangles beyond it cannot meet one */
	float within[6] = { 3.4e38f, 3.4e38f, 3.4e38f, -3.4e38f, -3.4e38f, -3.4e38f };
	for (int32_t o = 0; o < f->fluidCount; ++o) pbd_Crossing_AddPath(w, f->order[o], within);
	/* the cell: 2 h, a cloth edge or two (h and 3 h cost the same, measured); the margin: the guard's distance */
	if (pbd_Crossing_Build(&b.crossing, w, within, 1, b.distance, 2.0f * f->k.h, scratch, w->scratchBytes) == 0) return;
	pbd_Parallel_For(w, f->fluidCount, PBD_PARTICLE_BLOCK, GuardParticles, &b);
	/* the few whose rounds ran out, in a fold closing on them: again, one after another on this thread (each moves
	   the cloth the next may meet), the cloth pushed too, split by the masses alone (no cap: 3.4e38) */
	for (int32_t o = 0; o < f->fluidCount; ++o) {
		const int32_t i = f->order[o];
		if (f->guardSpent[i]) pbd_Crossing_Guard(&b.crossing, i, b.distance, -1, NULL, 3.4e38f);
	}
}
