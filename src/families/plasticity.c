/* families/plasticity.c -- soft bodies that stay bent: the distance family's update hook for
   the edges of soft bodies (pbdKind_edge), after the passes of every substep.

   Seed 001 section 5.3 keeps "a share of the error" in the rest length after each projection
   (restLength += 0.01 error). Here with the yield / creep / max set of FleX and Rapier, per object
   (pbd_World_SetObjectPlasticity): an edge of length len and rest length r is strained by
   e = len / r - 1; once |e| passes the yield, r moves toward len by the share
       creep h (|e| - yield) / |e|     of the gap len - r (at most all of it),
   so the plastic strain grows at creep x (the strain beyond the yield) per second, and stops
   where the edge is strained just to the yield. The plastic strain |r / r0 - 1| stays within max
   (r0 the length the edge was built with; r stays at least 1% of r0 whatever max says, so an
   edge never reaches a zero rest length). The tets' rest volumes are left as they were: a
   plastic body changes its shape, not its volume. creep = 0 (the default) leaves an object
   alone, and the hook then does nothing: cloth and chains never get here. */
#include "families/distance_state.h"

#include <math.h>

void pbd_Plasticity_Apply(pbdWorld* w, pbdDistance* d, const pbdStepContext* ctx)
{
	for (int g = 0; g < d->groupCount; ++g) {
		const pbdGroup* group = &d->groups[g];
		if (group->kind != pbdKind_edge) continue;
		const pbdPlasticity plastic = w->plasticity[group->object];
		if (!(plastic.creep > 0.0f)) continue;
		const float rate = plastic.creep * ctx->h, yield = plastic.yield;
		const float hi = 1.0f + plastic.max;
		const float lo = plastic.max < 0.99f ? 1.0f - plastic.max : 0.01f;
		for (int c = group->first; c < group->first + group->count; ++c) {
			const int a = d->ca[c], b = d->cb[c];
			const float rest = d->rest[c];
			if (a == b || !(rest > 0.0f)) continue; /* torn, or nothing to strain */
			const float *pa = w->p + 4 * a, *pb = w->p + 4 * b;
			const float dx = pa[0] - pb[0], dy = pa[1] - pb[1], dz = pa[2] - pb[2];
			const float len = sqrtf(dx * dx + dy * dy + dz * dz);
			const float strain = fabsf(len / rest - 1.0f);
			if (!(strain > yield)) continue;
			float share = rate * (strain - yield) / strain;
			if (share > 1.0f) share = 1.0f;
			float next = rest + share * (len - rest);
			const float r0 = d->restOriginal[c];
			if (next > hi * r0) next = hi * r0;
			if (next < lo * r0) next = lo * r0;
			d->rest[c] = next;
		}
	}
}
