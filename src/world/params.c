/* world/params.c -- the calls that read and set a world's parameters and its objects' materials, checked
   against the parameter table (world/tables.c, which sits below the world: world.c resets a new world's
   parameters from it, and these calls find the world through world.c). pbd_GetParamInfo exports the table
   so that the JS side builds its validators, link codec and panel from it instead of keeping copies. */
#include "families/family.h"
#include "services/materials.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int pbd_GetParamInfo(int param, pbdParamInfo* info)
{
	if (param < 0 || param >= pbdParam_count) return pbd_SetError(PBD_ERR_UNKNOWN_PARAM, "parameter %d", param);
	if (info == NULL) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "info is NULL");
	*info = *pbd_ParamTableEntry(param);
	return PBD_OK;
}


static int KindOfParam(pbdParam param)
{
	for (int kind = 0; kind < pbdKind_count; ++kind) {
		if (pbd_kindParam[kind] == param) return kind;
	}
	return -1;
}

/* Stiffness k of one kind for one object (object < 0: every object): every family is told and
   sets its own constraints of that kind (families/family.h setStiffness), so a family that
   brings a kind needs no line here. */
static void SetKindStiffness(pbdWorld* w, int32_t object, pbdConstraintKind kind, float k)
{
	for (int f = 0; f < pbdFamily_count; ++f) {
		if (pbd_families[f]->setStiffness) pbd_families[f]->setStiffness(w, w->families[f], object, kind, k);
	}
}

int pbd_World_SetParam(pbdWorldId id, pbdParam param, float value)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if ((int)param < 0 || param >= pbdParam_count) {
		return pbd_SetWorldError(w, PBD_ERR_UNKNOWN_PARAM, "parameter %d", (int)param);
	}
	if (!pbd_IsFinite(value)) {
		return pbd_SetWorldError(w, PBD_ERR_NOT_FINITE, "%s", pbd_ParamTableEntry(param)[0].name);
	}
	if (value < pbd_ParamTableEntry(param)[0].minValue || value > pbd_ParamTableEntry(param)[0].maxValue) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "%s must be in [%g, %g], got %g", pbd_ParamTableEntry(param)[0].name,
							(double)pbd_ParamTableEntry(param)[0].minValue, (double)pbd_ParamTableEntry(param)[0].maxValue, (double)value);
	}
	if ((pbd_ParamTableEntry(param)[0].flags & (PBD_PARAM_INTEGER | PBD_PARAM_BOOLEAN)) &&
		value != (float)(int)value) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "%s must be a whole number, got %g", pbd_ParamTableEntry(param)[0].name,
							(double)value);
	}
	if (param == pbdParam_thickness) {
		/* every object whose particles take thickness / 2 (chains, cloth, and any object set to radius 0) */
		for (int32_t o = 0; o < w->objectCount; ++o) {
			if (w->materials[o].radius > 0.0f) continue;
			char whose[64];
			snprintf(whose, sizeof whose, "object %d's", (int)o);
			int err = pbd_CheckRadiusSpacing(w, "thickness", value, 2.0f * PBD_MAX_RADIUS_SPACINGS, pbd_ObjectSpacing(w, o), whose);
			if (err != PBD_OK) return err;
		}
	}
	w->params[param] = value;
	w->paramVersion += 1;
	int kind = KindOfParam(param);
	/* The world-wide stiffness of a kind sets every object's group of that kind. */
	if (kind >= 0) SetKindStiffness(w, -1, (pbdConstraintKind)kind, value);
	return PBD_OK;
}

int pbd_World_SetObjectStiffness(pbdWorldId id, int object, pbdConstraintKind kind, float stiffness)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (object < 0 || object >= w->objectCount) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "object %d of %d", object, w->objectCount);
	}
	if ((int)kind < 0 || kind >= pbdKind_count) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "constraint kind %d", (int)kind);
	if (!pbd_IsFinite(stiffness) || stiffness < 0.0f || stiffness > 1.0f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "stiffness must be in [0, 1], got %g", (double)stiffness);
	}
	SetKindStiffness(w, object, kind, stiffness);
	return PBD_OK;
}

/* ---------------------------------------------------------------- object material */

float pbd_ObjectSpacing(const pbdWorld* w, int32_t object)
{
	/* a fluid's particles sit at fluid.spacing, which may change (its radius follows: families/fluid.c) */
	return w->objects[object].type == PBD_OBJECT_FLUID ? w->params[pbdParam_fluidSpacing] : w->objectSpacing[object];
}

int pbd_CheckRadiusSpacing(pbdWorld* w, const char* name, float value, float spacings, float spacing, const char* whose)
{
	/* spacings is a power of two, so spacings x spacing is exact and the JS validator's float32 test is the same */
	const float limit = spacings * spacing;
	if (value <= limit) return PBD_OK;
	return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT,
							 "%s %g m is over %g x the %g m between %s particles: at most %g m (a contact radius reaches at "
							 "most %g particle spacings)",
							 name, (double)value, (double)spacings, (double)spacing, whose, (double)limit,
							 (double)PBD_MAX_RADIUS_SPACINGS);
}

#define PBD_CHECK_OBJECT(w, object)                                                                               \
	if ((object) < 0 || (object) >= (w)->objectCount)                                                             \
	return pbd_SetWorldError((w), PBD_ERR_INVALID_ARGUMENT, "object %d of %d", (int)(object), (w)->objectCount)

int pbd_World_SetObjectRadius(pbdWorldId id, int object, float radius)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_OBJECT(w, object);
	if (!pbd_IsFinite(radius) || radius < 0.0f || radius > 1.0f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "radius must be in [0, 1] m (0: thickness / 2), got %g", (double)radius);
	}
	char whose[64];
	snprintf(whose, sizeof whose, "object %d's", object);
	int err = radius > 0.0f ? pbd_CheckRadiusSpacing(w, "radius", radius, PBD_MAX_RADIUS_SPACINGS, pbd_ObjectSpacing(w, object), whose)
							: pbd_CheckRadiusSpacing(w, "thickness", w->params[pbdParam_thickness], 2.0f * PBD_MAX_RADIUS_SPACINGS,
													 pbd_ObjectSpacing(w, object), whose); /* radius 0: thickness / 2 */
	if (err != PBD_OK) return err;
	w->materials[object].radius = radius;
	w->paramVersion += 1; /* contacts search again with the new radius */
	return PBD_OK;
}

float pbd_World_GetObjectRadius(pbdWorldId id, int object)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL || object < 0 || object >= w->objectCount) return NAN;
	return w->materials[object].radius;
}

int pbd_World_SetObjectFilter(pbdWorldId id, int object, uint32_t category, uint32_t mask)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_OBJECT(w, object);
	pbdMaterial* m = &w->materials[object];
	if (m->category == category && m->mask == mask) return PBD_OK;
	m->category = category;
	m->mask = mask;
	w->filterVersion += 1; /* the contacts fill their activation table again */
	w->paramVersion += 1;  /* and search again: pairs the filter now drops may be in a kept list */
	return PBD_OK;
}

int pbd_World_GetObjectFilter(pbdWorldId id, int object, uint32_t* out)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_OBJECT(w, object);
	if (out == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "out is NULL");
	out[0] = w->materials[object].category;
	out[1] = w->materials[object].mask;
	return PBD_OK;
}

int pbd_World_SetObjectPlasticity(pbdWorldId id, int object, float yield, float creep, float max)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_OBJECT(w, object);
	const float v[3] = { yield, creep, max };
	const float hi[3] = { PBD_PLASTICITY_MAX_YIELD, PBD_PLASTICITY_MAX_CREEP, PBD_PLASTICITY_MAX_STRAIN };
	static const char* const names[3] = { "yield", "creep", "max" };
	for (int i = 0; i < 3; ++i) {
		if (!pbd_IsFinite(v[i])) return pbd_SetWorldError(w, PBD_ERR_NOT_FINITE, "plasticity %s", names[i]);
		if (v[i] < 0.0f || v[i] > hi[i]) {
			return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "plasticity %s must be in [0, %g], got %g", names[i],
									 (double)hi[i], (double)v[i]);
		}
	}
	w->plasticity[object] = (pbdPlasticity){ yield, creep, max };
	w->paramVersion += 1;
	return PBD_OK;
}

int pbd_World_GetObjectPlasticity(pbdWorldId id, int object, float* out)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_OBJECT(w, object);
	if (out == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "out is NULL");
	out[0] = w->plasticity[object].yield, out[1] = w->plasticity[object].creep, out[2] = w->plasticity[object].max;
	return PBD_OK;
}

float pbd_World_GetParam(pbdWorldId id, pbdParam param)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL || (int)param < 0 || param >= pbdParam_count) return NAN;
	return w->params[param];
}

