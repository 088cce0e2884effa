/* families/tearing.c -- cloth that tears when pulled hard: the distance family's update hook. A cloth constraint stretched past
   (1 + tearStretch) times its rest length breaks: it becomes a tombstone (both ends the
   same particle, so its length is 0 and every solver path skips it; the colouring stays
   valid because the particle was already this constraint's alone within its colour).
   Triangles that had the broken pair as an edge leave the render mesh, and the triangle
   buffer is compacted once per step, so the renderer only re-uploads indices when the
   topology version moves. Particles are never removed. */
#include "families/distance_state.h"

#include <math.h>

#define TORN_TRIANGLE 0xffffffffu

static int RemoveTrianglesWithEdge(pbdWorld* w, const pbdObjectInfo* info, uint32_t a, uint32_t b)
{
	int removed = 0;
	for (int t = info->firstTriangle; t < info->firstTriangle + info->triangleCount; ++t) {
		uint32_t* tri = w->triangles + 3 * t;
		if (tri[0] == TORN_TRIANGLE) continue;
		int hasA = tri[0] == a || tri[1] == a || tri[2] == a;
		int hasB = tri[0] == b || tri[1] == b || tri[2] == b;
		if (hasA && hasB) {
			tri[0] = TORN_TRIANGLE;
			removed += 1;
		}
	}
	return removed;
}

/* Objects' triangle ranges are contiguous and in object order; squeeze out the tombstones. */
static void CompactTriangles(pbdWorld* w)
{
	int dst = 0;
	for (int o = 0; o < w->objectCount; ++o) {
		pbdObjectInfo* info = &w->objects[o];
		int first = dst;
		for (int t = info->firstTriangle; t < info->firstTriangle + info->triangleCount; ++t) {
			const uint32_t* tri = w->triangles + 3 * t;
			if (tri[0] == TORN_TRIANGLE) continue;
			uint32_t* out = w->triangles + 3 * dst;
			uint32_t t0 = tri[0], t1 = tri[1], t2 = tri[2];
			out[0] = t0, out[1] = t1, out[2] = t2;
			dst += 1;
		}
		info->firstTriangle = first;
		info->triangleCount = dst - first;
	}
	w->triangleCount = dst;
}

int pbd_Tearing_Apply(pbdWorld* w, pbdDistance* d)
{
	const float limit = 1.0f + w->params[pbdParam_tearStretch];
	int broken = 0, trianglesRemoved = 0;
	for (int g = 0; g < d->groupCount; ++g) {
		const pbdGroup* group = &d->groups[g];
		if (group->kind == pbdKind_chain) continue; /* ropes do not tear (yet) */
		pbdObjectInfo* info = &w->objects[group->object];
		for (int c = group->first; c < group->first + group->count; ++c) {
			int a = d->ca[c], b = d->cb[c];
			if (a == b) continue; /* torn already */
			const float *pa = w->p + 4 * a, *pb = w->p + 4 * b;
			float dx = pa[0] - pb[0], dy = pa[1] - pb[1], dz = pa[2] - pb[2];
			float len = sqrtf(dx * dx + dy * dy + dz * dz);
			if (!(len > d->rest[c] * limit)) continue;
			d->cb[c] = a;
			d->shareA[c] = d->shareB[c] = 0.0f; /* a regular batch still addresses the old ends: move them by 0 */
			info->tornConstraints += 1;
			broken += 1;
			if (group->kind != pbdKind_bend) trianglesRemoved += RemoveTrianglesWithEdge(w, info, (uint32_t)a, (uint32_t)b);
		}
	}
	if (trianglesRemoved > 0) {
		CompactTriangles(w);
		w->topologyVersion += 1;
	}
	return broken;
}
