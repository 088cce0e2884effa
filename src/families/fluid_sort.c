/* families/fluid_sort.c -- the fluid particles into cell order (SPlisHSPlasH /
   CompactNSearch's z-sort, here the neighbour grid's own order).

   Why: the density and correction loops gather every neighbour's position and props by index. In
   the order a block or a hose first made them, a particle's neighbours lie far apart in memory once
   the water has mixed; in the grid's order (a counting sort by bucket, neighbouring cells along x in
   neighbouring buckets, grid.c) they lie in a few runs, and the lists themselves come out in that
   order. Every fluid.sortInterval steps (0: never), in start, each fluid object's live
   particles [first, first + active) are permuted among themselves, so other objects' indices never
   change. Everything indexed by particle that outlives a substep moves with them: x, p, v, n, rest0,
   force, phase, errors, densities, the family's density, lambda and sheet memory (delta, props, omega, scratchV
   and the lists are rebuilt every substep: listsValid = 0), and the attachments are remapped;
   positionVersion moves so kept contact lists are searched again. The order is a pure function of
   the committed positions (counting sort, ties by index), so the sort is part of the physics and of
   the hash, the same on every build. */
#include "families/fluid_state.h"
#include "base/tasks.h"

#include <string.h>

/* The per-particle arrays a sort moves (those the world has). */
int32_t pbd_Fluid_ParticleArrays(pbdWorld* w, pbdFluid* f, pbdParticleArray out[PBD_FLUID_PARTICLE_ARRAYS])
{
	const size_t f4 = 4 * sizeof(float);
	const pbdParticleArray all[PBD_FLUID_PARTICLE_ARRAYS] = {
		{ w->x, f4 },         { w->p, f4 },         { w->v, f4 },
		{ w->n, f4 },         { w->rest0, f4 },     { w->force, f4 },
		{ w->phase, sizeof(uint32_t) },             { w->errors, sizeof(float) },
		{ w->densities, sizeof(float) },            { f->density, sizeof(float) },
		{ f->lambda, sizeof(float) },                { f->sheetMemory, PBD_SHEET_MEMORY * sizeof(int32_t) },
	};
	int32_t n = 0;
	for (int32_t k = 0; k < PBD_FLUID_PARTICLE_ARRAYS; ++k) {
		if (all[k].base != NULL) out[n++] = all[k];
	}
	return n;
}

/* Sorts each fluid object's particles into the grid's cell order (every per-particle array, and the attachments'
   indices follow): the units below without a budget, so the whole step and its slices run one code. */
void pbd_Fluid_Sort(pbdWorld* w, pbdFluid* f)
{
	int64_t work = 0;
	pbd_Fluid_SortBegin(w, f);
	while (!pbd_Fluid_SortUnit(w, f, INT64_MAX, &work)) {
	}
}

/* pbd_Fluid_Sort one bounded unit at a time (fluid.c Fluid_PrepareStepUnit), the same moves: per fluid object, the
   grid's build (its cellEntries are the permutation: slot k takes particle first + cellEntries[k]), then per array
   the rows gathered into the scratch and copied back, about `budget` rows a unit, then the attachments' remap. The
   scratch holds the build's copies, then the rows, from the build to the remap (the family holds it). The cursor:
   startItem the object, startStep the part, startArray the array, startRow the row. */
enum { SortBuild, SortGather, SortCopy, SortRemap };

/* Rows [begin, end) of one array gathered into the scratch in the new order, or copied back. A row is one float4 or
   one word in all but the sheet memory: moved as such, not by a memcpy call a row (the library's, 1.2% of a dam
   break of 25k natively at a sort every step). Shared out over the step's threads when the whole sort runs in one
   go: each block writes its own rows. */
#if PBD_HAS_TEAM
typedef struct SortRows {
	uint8_t *tmp, *base;
	const int32_t* order;
	int32_t first;
	size_t width;
	int gather;
} SortRows;

static void MoveRows(void* data, int32_t begin, int32_t end)
{
	const SortRows* r = data;
	const size_t wd = r->width;
	if (!r->gather) {
		memcpy(r->base + (size_t)(r->first + begin) * wd, r->tmp + (size_t)begin * wd, (size_t)(end - begin) * wd);
		return;
	}
	const uint8_t* src = r->base + (size_t)r->first * wd;
	if (wd == 4 * sizeof(float)) {
		float* dst = (float*)r->tmp;
		for (int32_t k = begin; k < end; ++k) memcpy(dst + 4 * (size_t)k, src + (size_t)r->order[k] * wd, 4 * sizeof(float));
	} else if (wd == sizeof(float)) {
		uint32_t* dst = (uint32_t*)r->tmp;
		for (int32_t k = begin; k < end; ++k) memcpy(dst + k, src + (size_t)r->order[k] * wd, sizeof(float));
	} else {
		for (int32_t k = begin; k < end; ++k) memcpy(r->tmp + (size_t)k * wd, src + (size_t)r->order[k] * wd, wd);
	}
}

#define SORT_ROW_BLOCK 4096
#endif

void pbd_Fluid_SortBegin(pbdWorld* w, pbdFluid* f)
{
	(void)w;
	f->startItem = 0;
	f->startStep = SortBuild;
	f->startArray = 0;
	f->startRow = 0;
}

int pbd_Fluid_SortUnit(pbdWorld* w, pbdFluid* f, int64_t budget, int64_t* work)
{
	pbdParticleArray arrays[PBD_FLUID_PARTICLE_ARRAYS];
	const int32_t arrayCount = pbd_Fluid_ParticleArrays(w, f, arrays);
	uint8_t* scratch = pbd_Scratch_Take(w, pbdScratch_fluid);
	/* the rows, 16-byte aligned as pbd_Fluid_Sort's after its two index arrays (the alignment changes no value) */
	uint8_t* tmp = (uint8_t*)(((uintptr_t)scratch + 15u) & ~(uintptr_t)15u);
	int64_t done = 0;
	int stop = 0;
	while (f->startItem < f->objectCount && done < budget && !stop) {
		const pbdFluidObject* obj = &f->objects[f->startItem];
		const int32_t first = obj->first, n = obj->active;
		const int32_t* order = f->grid.cellEntries;
		switch (f->startStep) {
		case SortBuild: {
			if (done > 0 && done + n > budget) {
				stop = 1; /* the build in a unit of its own */
				break;
			}
			f->startItem += 1; /* unless the object has something to move (below) */
			if (n < 2) continue;
			pbdGridInput in;
			memset(&in, 0, sizeof in);
			in.positions = w->x + 4 * (size_t)first;
			in.count = n;
			in.radius = f->k.h;
			in.orderOnly = 1; /* only the order is read: cellEntries */
			done += n;
			if (!pbd_Grid_Build(&f->grid, &in, scratch, w->scratchBytes)) continue;
			int32_t moved = 0;
			for (int32_t k = 0; k < n; ++k) moved |= order[k] != k;
			if (!moved) continue;
			f->startItem -= 1;
			f->startStep = SortGather, f->startArray = 0, f->startRow = 0;
			pbd_Scratch_Hold(w, pbdScratch_fluid);
			break;
		}
		case SortGather:
		case SortCopy: {
			const pbdParticleArray* a = &arrays[f->startArray];
			const int32_t from = f->startRow;
			const int32_t to = (int64_t)n - from < budget - done ? n : from + (int32_t)(budget - done);
#if PBD_HAS_TEAM
			SortRows rows = { tmp, (uint8_t*)a->base, order, first, a->width, f->startStep == SortGather };
			if (budget == INT64_MAX && from == 0) pbd_Parallel_For(w, to, SORT_ROW_BLOCK, MoveRows, &rows);
			else MoveRows(&rows, from, to);
#else /* the single-thread wasm: a row at a time (its weight, base/tasks.h) */
			uint8_t* base = (uint8_t*)a->base;
			if (f->startStep == SortGather) {
				for (int32_t k = from; k < to; ++k) memcpy(tmp + (size_t)k * a->width, base + (size_t)(first + order[k]) * a->width, a->width);
			} else {
				memcpy(base + (size_t)(first + from) * a->width, tmp + (size_t)from * a->width, (size_t)(to - from) * a->width);
			}
#endif
			done += to - from, f->startRow = to;
			if (to < n) break;
			f->startRow = 0;
			if (f->startStep == SortGather) f->startStep = SortCopy;
			else if (++f->startArray < arrayCount) f->startStep = SortGather;
			else f->startStep = SortRemap;
			break;
		}
		default: { /* SortRemap */
			int32_t* newIndex = (int32_t*)scratch;
			for (int32_t k = 0; k < n; ++k) newIndex[order[k]] = first + k;
			pbd_Families_ParticlesMoved(w, first, n, newIndex);
			done += n;
			pbd_Scratch_Release(w, pbdScratch_fluid);
			f->startItem += 1, f->startStep = SortBuild;
			break;
		}
		}
	}
	*work += done;
	if (f->startItem < f->objectCount) return 0;
	pbd_Scratch_Release(w, pbdScratch_fluid);
	w->positionVersion += 1;
	f->listsValid = 0;
	f->sorts += 1;
	return 1;
}
