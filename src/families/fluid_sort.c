/* families/fluid_sort.c -- the fluid particles into cell order (SPlisHSPlasH /
   CompactNSearch's z-sort, here the neighbour grid's own order).

   Why: the density and correction loops gather every neighbour's position and props by index. In
   the order a block or a hose first made them, a particle's neighbours lie far apart in memory once
   the water has mixed; in the grid's order (a counting sort by bucket, neighbouring cells along x in
   neighbouring buckets, grid.c) they lie in a few runs, and the lists themselves come out in that
   order. Every fluid.sortInterval steps (0: never), in prepareStep, each fluid object's live
   particles [first, first + active) are permuted among themselves, so other objects' indices never
   change. Everything indexed by particle that outlives a substep moves with them: x, p, v, n, rest0,
   force, phase, errors, densities, the family's density and lambda (delta, props, omega, scratchV
   and the lists are rebuilt every substep: listsValid = 0), and the attachments are remapped;
   positionVersion moves so kept contact lists are searched again. The order is a pure function of
   the committed positions (counting sort, ties by index), so the sort is part of the physics and of
   the hash, the same on every build. */
#include "families/fluid_internal.h"
#include "families/attachments.h"

#include <string.h>

/* dst[k] = src[perm[k]] over `count` rows of `width` bytes, through tmp. */
static void Permute(void* base, size_t width, int32_t first, int32_t count, const int32_t* perm, uint8_t* tmp)
{
	uint8_t* b = (uint8_t*)base;
	for (int32_t k = 0; k < count; ++k) memcpy(tmp + (size_t)k * width, b + (size_t)perm[k] * width, width);
	memcpy(b + (size_t)first * width, tmp, (size_t)count * width);
}

int32_t pbd_Fluid_ParticleArrays(pbdWorld* w, pbdFluid* f, pbdParticleArray out[PBD_FLUID_PARTICLE_ARRAYS])
{
	const size_t f4 = 4 * sizeof(float);
	const pbdParticleArray all[PBD_FLUID_PARTICLE_ARRAYS] = {
		{ w->x, f4 },         { w->p, f4 },         { w->v, f4 },
		{ w->n, f4 },         { w->rest0, f4 },     { w->force, f4 },
		{ w->phase, sizeof(uint32_t) },             { w->errors, sizeof(float) },
		{ w->densities, sizeof(float) },            { f->density, sizeof(float) },
		{ f->lambda, sizeof(float) },
	};
	int32_t n = 0;
	for (int32_t k = 0; k < PBD_FLUID_PARTICLE_ARRAYS; ++k) {
		if (all[k].base != NULL) out[n++] = all[k];
	}
	return n;
}

void pbd_Fluid_Sort(pbdWorld* w, pbdFluid* f)
{
	pbdParticleArray arrays[PBD_FLUID_PARTICLE_ARRAYS];
	const int32_t arrayCount = pbd_Fluid_ParticleArrays(w, f, arrays);
	for (int32_t o = 0; o < f->objectCount; ++o) {
		const pbdFluidObject* obj = &f->objects[o];
		const int32_t first = obj->first, n = obj->active;
		if (n < 2) continue;
		/* scratch: the grid's sorted copies during the build; after it, perm | newIndex | rows */
		pbdGridInput in;
		memset(&in, 0, sizeof in);
		in.positions = w->x + 4 * (size_t)first;
		in.count = n;
		in.radius = f->k.h;
		if (!pbd_Grid_Build(&f->grid, &in, w->scratch, w->scratchBytes)) continue;
		int32_t* perm = (int32_t*)w->scratch;
		int32_t* newIndex = perm + n;
		uint8_t* tmp = (uint8_t*)(newIndex + n);
		tmp = (uint8_t*)(((uintptr_t)tmp + 15u) & ~(uintptr_t)15u);
		int32_t moved = 0;
		for (int32_t k = 0; k < n; ++k) {
			const int32_t old = f->grid.cellEntries[k];
			perm[k] = first + old;
			newIndex[old] = first + k;
			moved |= old != k;
		}
		if (!moved) continue;
		for (int32_t a = 0; a < arrayCount; ++a) Permute(arrays[a].base, arrays[a].width, first, n, perm, tmp);
		pbd_Attachments_Remap(w, first, n, newIndex);
	}
	w->positionVersion += 1;
	f->listsValid = 0;
	f->sorts += 1;
}
