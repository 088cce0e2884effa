/* families/fluid_queries.c -- the fluid's public queries outside the step: statistics, the densities
   buffer, and one part of the substep alone for the benchmarks. Each measures on the committed positions
   with a fresh neighbour search, outside the step only: between the slices of one, the step's lists and the
   world's scratch are in use and the calls are refused (PBD_ERR_STEP_IN_PROGRESS). */
#include "families/fluid_state.h"

#include <string.h>

/* A fresh search on the committed positions (outside the step, so the scratch is free); the last
   substep's neighbour statistics are kept. */
static int MeasureLists(pbdWorld* w, pbdFluid* f)
{
	const float mean = f->meanNeighbours;
	const int32_t dropped = f->droppedNeighbours;
	pbd_Fluid_UpdateKernel(w, f);
	const int ok = pbd_Fluid_BuildLists(w, f, w->x);
	f->meanNeighbours = mean;
	f->droppedNeighbours = dropped;
	return ok;
}

/* The record: the counts now, the densities of `sums` (none: 0). */
static void FillStats(const pbdFluid* f, const pbdDensitySums* sums, pbdFluidStats* stats)
{
	memset(stats, 0, sizeof *stats);
	for (int32_t o = 0; o < f->objectCount; ++o) stats->particles += f->objects[o].active;
	stats->capacity = f->reserved;
	stats->emitted = f->emitted;
	stats->drained = f->drained;
	stats->full = f->full;
	stats->droppedNeighbours = f->droppedNeighbours;
	stats->meanNeighbours = f->meanNeighbours;
	if (sums == NULL || sums->count == 0) return;
	stats->meanDensity = (float)(sums->sum / sums->count);
	stats->densityError = (float)(sums->error / sums->count);
	stats->maxDensity = sums->largest;
}

int pbd_World_GetFluidStats(pbdWorldId id, pbdFluidStats* stats)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	const int busy = pbd_CheckNoStep(w, "pbd_World_GetFluidStats"); /* the step's lists and the scratch are in use */
	if (busy != PBD_OK) return busy;
	if (stats == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "fluid stats: no output given");
	pbdFluid* f = pbd_FluidState(w);
	pbdDensitySums sums = { 0.0, 0.0, 0.0f, 0 };
	if (f->objectCount > 0 && MeasureLists(w, f)) pbd_Fluid_SumDensities(f, w->x, 0, f->fluidCount, &sums);
	FillStats(f, &sums, stats);
	return PBD_OK;
}

int pbd_World_SetFluidMeasure(pbdWorldId id, int on)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbd_FluidState(w)->measureAsked = on != 0;
	return PBD_OK;
}

int pbd_World_GetMeasuredFluidStats(pbdWorldId id, pbdFluidStats* stats)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (stats == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "fluid stats: no output given");
	const pbdFluid* f = pbd_FluidState(w);
	FillStats(f, f->measuredStep > 0 ? &f->measured : NULL, stats);
	return f->measuredStep;
}

int pbd_World_UpdateDensities(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	const int busy = pbd_CheckNoStep(w, "pbd_World_UpdateDensities"); /* the step's lists and the scratch are in use */
	if (busy != PBD_OK) return busy;
	pbdFluid* f = pbd_FluidState(w);
	memset(w->densities, 0, (size_t)w->particleCount * sizeof(float));
	if (f->objectCount == 0 || !MeasureLists(w, f)) return PBD_OK;
	for (int32_t o = 0; o < f->fluidCount; ++o) {
		const int32_t i = f->order[o];
		w->densities[i] = pbd_Fluid_DensityAt(f, w->x, i);
	}
	return PBD_OK;
}

/* One part of the fluid's substep on the current state, predicted = committed positions (benchmarks:
   helper bench times each on its own). The lists are searched first when the part needs them. */
int pbd_World_RunFluidPart(pbdWorldId id, int part)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	const int busy = pbd_CheckNoStep(w, "pbd_World_RunFluidPart"); /* the step's lists and the scratch are in use */
	if (busy != PBD_OK) return busy;
	if (part < 0 || part >= pbdFluidPart_count) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "fluid part %d is not one of 0..%d", part, pbdFluidPart_count - 1);
	}
	pbdFluid* f = pbd_FluidState(w);
	if (f->objectCount == 0) return PBD_OK;
	pbd_Fluid_UpdateKernel(w, f);
	memcpy(w->p, w->x, (size_t)w->particleCount * 4 * sizeof(float));
	if (part == pbdFluidPart_sort) {
		pbd_Fluid_Sort(w, f);
		return PBD_OK;
	}
	if (part == pbdFluidPart_neighbours || !f->listsValid) {
		if (!pbd_Fluid_BuildLists(w, f, w->p)) return PBD_OK;
		if (part == pbdFluidPart_neighbours) return PBD_OK;
	}
	const float h = w->params[pbdParam_dt] / w->params[pbdParam_substeps];
	switch (part) {
	case pbdFluidPart_density: pbd_Fluid_SolveDensity(w, f, w->p, 0, f->fluidCount, 0); break;
	case pbdFluidPart_correct:
		pbd_Fluid_SolveCorrect(w, f, w->p, 0, f->orderCount);
		pbd_Fluid_Apply(w, f, w->p, 0, f->orderCount);
		break;
	case pbdFluidPart_vorticity: pbd_Fluid_Vorticity(w, f, h); break;
	case pbdFluidPart_viscosity: pbd_Fluid_Viscosity(w, f); break;
	default: break;
	}
	return PBD_OK;
}
