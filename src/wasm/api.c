/* wasm/api.c -- the flat, scalar-argument surface that JS calls (web/js/engine/, through web/js/minipbd.js).

   Structs do not cross the wasm boundary comfortably, so descriptions arrive as
   scalars, and a call whose result is a record (counts, stats, object info) writes it to
   `out`: memory the caller owns (web/js/engine/memory.js allocates one block of PBDJS_EXCHANGE_BYTES per
   loaded engine with the exported malloc). The core keeps no block of its own, so calls on
   different worlds never share one. The records' layouts are declared here once and
   mirrored once in web/js/engine/memory.js (the wasm4 memory-map habit):
     pbdjs_ChainCounts, pbdjs_ClothCounts: int32[0..2] = particles, constraints, lines or triangles
     pbdjs_GetStats:      f64[0..8] = steps, particles, constraints, attachments, maxError,
                                      meanError, maxStretch, kineticEnergy, potentialEnergy
     pbdjs_GetObjectInfo: int32 per field of pbdObjectInfo (PBD_OBJECT_FIELDS, named by pbd_ObjectFieldName)
     pbdjs_CapacityInfo:  int32[0..4] = offset, fixed, perParticle, limit, flags
     pbdjs_GetConstraintCounts: int32[0..n) = each family's constraints (pbd_FamilyName order), n returned
     pbdjs_GetColliderInfo, pbdjs_RayCastColliders: see api_colliders.c
     pbdjs_ParamInfo:     f64[0..3] = default, min, max, flags */
#include "world/core.h"

#include <string.h>

/// Bytes of the largest record, and the alignment `out` needs (float64).
#define PBDJS_EXCHANGE_BYTES 256
PBDJS_API int pbdjs_ExchangeBytes(void) { return PBDJS_EXCHANGE_BYTES; }

/* A world of the capacities caps[0 .. count) in PBD_CAPACITIES order (pbdjs_CapacityInfo); those past count, and
   0s, are the defaults. The loader (web/js/engine/loader.js) writes the array by the names the table exports, so a
   capacity a family adds needs no change here or there. Each is copied with memcpy at its field's offset. */
PBDJS_API pbdWorldId pbdjs_CreateWorld(const int32_t* caps, int count)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	if (count < 0 || count > pbd_CapacityCount() || (count > 0 && caps == NULL)) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "%d capacities, the table has %d", count, pbd_CapacityCount());
	}
	for (int i = 0; i < count; ++i) {
		pbdCapacityInfo info;
		pbd_GetCapacityInfo(i, &info);
		memcpy((char*)&def + info.offset, &caps[i], sizeof(int32_t));
	}
	return pbd_CreateWorld(&def);
}

/* Capacity `index` of the table: out[0..4] = offset, fixed default, per-particle default, limit, flags (int32);
   returns its name ("particles", ...), or NULL out of range. */
PBDJS_API const char* pbdjs_CapacityInfo(int index, int32_t* out)
{
	pbdCapacityInfo info;
	if (pbd_GetCapacityInfo(index, &info) != PBD_OK) return NULL;
	out[0] = info.offset, out[1] = info.fixed, out[2] = info.perParticle, out[3] = info.limit, out[4] = info.flags;
	return info.name;
}

PBDJS_API int pbdjs_AddChain(pbdWorldId world, float sx, float sy, float sz, float ex, float ey, float ez, int segments,
							 float mass)
{
	pbdChainDef def = pbd_DefaultChainDef();
	def.start[0] = sx, def.start[1] = sy, def.start[2] = sz;
	def.end[0] = ex, def.end[1] = ey, def.end[2] = ez;
	def.segments = segments;
	def.mass = mass;
	return pbd_World_AddChain(world, &def);
}

PBDJS_API int pbdjs_AddCloth(pbdWorldId world, float ox, float oy, float oz, float ux, float uy, float uz, float vx,
							 float vy, float vz, int nu, int nv, float mass)
{
	pbdClothDef def = pbd_DefaultClothDef();
	def.origin[0] = ox, def.origin[1] = oy, def.origin[2] = oz;
	def.axisU[0] = ux, def.axisU[1] = uy, def.axisU[2] = uz;
	def.axisV[0] = vx, def.axisV[1] = vy, def.axisV[2] = vz;
	def.resolutionU = nu;
	def.resolutionV = nv;
	def.mass = mass;
	return pbd_World_AddCloth(world, &def);
}

PBDJS_API void pbdjs_ChainCounts(int segments, int32_t* out) { pbd_ChainCounts(segments, &out[0], &out[1], &out[2]); }
PBDJS_API void pbdjs_ClothCounts(int nu, int nv, int32_t* out) { pbd_ClothCounts(nu, nv, &out[0], &out[1], &out[2]); }

PBDJS_API int pbdjs_GetStats(pbdWorldId world, double* o)
{
	pbdStats s;
	int err = pbd_World_GetStats(world, &s);
	if (err != PBD_OK) return err;
	o[0] = s.steps, o[1] = s.particles, o[2] = s.constraints, o[3] = s.attachments;
	o[4] = s.maxError, o[5] = s.meanError, o[6] = s.maxStretch;
	o[7] = s.kineticEnergy, o[8] = s.potentialEnergy;
	return PBD_OK;
}

/* Every family's constraint count (pbd_World_GetConstraintCounts; at most 32 families): returns how many. */
PBDJS_API int pbdjs_GetConstraintCounts(pbdWorldId world, int32_t* out) { return pbd_World_GetConstraintCounts(world, out, 32); }

PBDJS_API int pbdjs_GetObjectInfo(pbdWorldId world, int object, int32_t* out)
{
	pbdObjectInfo info;
	int err = pbd_World_GetObjectInfo(world, object, &info);
	if (err != PBD_OK) return err;
	memcpy(out, &info, sizeof info);
	return PBD_OK;
}

/* Steps n times in one call: one boundary crossing per frame, not per step. */
PBDJS_API int pbdjs_StepN(pbdWorldId world, int n)
{
	for (int i = 0; i < n; ++i) {
		int err = pbd_World_Step(world);
		if (err != PBD_OK) return err;
	}
	return PBD_OK;
}

/* pbdjs_StepN for a host on another thread (web/js/engine/threads.js: the page's runner worker steps while the
   page reads `control`, 4 int32 in pbdStepControl order): request 1 stops after the step in progress, 2 at its
   next stage unit (the world is left mid-step, to be destroyed); stepsDone counts the steps ended. Returns the
   first refused step's code, else PBD_OK (stopped early too). */
PBDJS_API int pbdjs_StepNControlled(pbdWorldId world, int n, pbdStepControl* control)
{
	pbdWorld* w = pbd_GetWorld(world);
	if (w == NULL || control == NULL) return pbdjs_StepN(world, n); /* its message: no such world */
	w->stepControl = control;
	int err = PBD_OK;
	for (int i = 0; i < n && err == PBD_OK; ++i) {
		if (__atomic_load_n(&control->request, __ATOMIC_RELAXED) != PBD_STEP_RUN) break;
		err = pbd_World_Step(world);
		if (pbd_StepInProgress(w)) break; /* stopped mid-step */
		__atomic_store_n(&control->stepsDone, i + 1, __ATOMIC_RELAXED);
	}
	w->stepControl = NULL;
	return err;
}

_Static_assert(sizeof(pbdStepControl) == 4 * sizeof(int32_t), "JS reads the step control as 4 int32");
_Static_assert(sizeof(pbdObjectInfo) <= PBDJS_EXCHANGE_BYTES && 9 * sizeof(double) <= PBDJS_EXCHANGE_BYTES, "records fit");

/* The parameter table for JS (web/js/engine/param-table.js is generated from it): the row's
   numbers go to out[0..3] = default, min, max, flags as float64; its strings are returned
   through pbd_ParamName and pbdjs_ParamString (0 unit, 1 owner, 2 scene place). */
PBDJS_API int pbdjs_ParamInfo(int param, double* out)
{
	pbdParamInfo info;
	int err = pbd_GetParamInfo(param, &info);
	if (err != PBD_OK) return err;
	out[0] = info.defaultValue, out[1] = info.minValue, out[2] = info.maxValue, out[3] = info.flags;
	return PBD_OK;
}

PBDJS_API const char* pbdjs_ParamString(int param, int which)
{
	pbdParamInfo info;
	if (pbd_GetParamInfo(param, &info) != PBD_OK) return NULL;
	return which == 0 ? info.unit : which == 1 ? info.owner : which == 2 ? info.scene : NULL;
}
