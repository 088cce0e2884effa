/* world/tables.c -- the tables minipbd.h declares once and the engine exports: the parameters (PBD_PARAMS:
   name, default, range, unit, owner and scene-format place), the limits (PBD_LIMITS), pbdObjectInfo's fields
   (PBD_OBJECT_FIELDS), and each stiffness kind's parameter. Read-only data and lookups, below the world: no call
   here knows a world or sets an error (world/params.c does, for the calls that take a world). */
#include "world/core.h"

#include <math.h>
#include <string.h>

static const pbdParamInfo s_params[pbdParam_count] = {
#define PBD_X_INFO(id, name, def, lo, hi, flags, unit, owner, scene) { name, unit, owner, scene, def, lo, hi, flags },
	PBD_PARAMS(PBD_X_INFO)
#undef PBD_X_INFO
};

int pbd_ParamCount(void) { return pbdParam_count; }

/* The limits (minipbd.h PBD_LIMITS), exported beside the parameters. */
static const char* const s_limitNames[] = {
#define PBD_X_NAME(name, value) name,
	PBD_LIMITS(PBD_X_NAME)
#undef PBD_X_NAME
};
static const double s_limitValues[] = {
#define PBD_X_VALUE(name, value) (double)(value),
	PBD_LIMITS(PBD_X_VALUE)
#undef PBD_X_VALUE
};
#define LIMIT_COUNT ((int)(sizeof s_limitValues / sizeof s_limitValues[0]))

int pbd_LimitCount(void) { return LIMIT_COUNT; }
const char* pbd_LimitName(int index) { return index >= 0 && index < LIMIT_COUNT ? s_limitNames[index] : NULL; }
double pbd_GetLimit(int index) { return index >= 0 && index < LIMIT_COUNT ? s_limitValues[index] : NAN; }

/* pbdObjectInfo's fields (minipbd.h PBD_OBJECT_FIELDS) by name. */
static const char* const s_objectFields[] = {
#define PBD_X_NAME(field) #field,
	PBD_OBJECT_FIELDS(PBD_X_NAME)
#undef PBD_X_NAME
};
_Static_assert(sizeof s_objectFields / sizeof s_objectFields[0] * sizeof(int32_t) == sizeof(pbdObjectInfo), "all int32");

const char* pbd_ObjectFieldName(int index)
{
	return index >= 0 && index < (int)(sizeof s_objectFields / sizeof s_objectFields[0]) ? s_objectFields[index] : NULL;
}

const pbdParamInfo* pbd_ParamTableEntry(int param) { return &s_params[param]; }

void pbd_ResetParams(float* params)
{
	for (int i = 0; i < pbdParam_count; ++i) params[i] = s_params[i].defaultValue;
}

const char* pbd_ParamName(int param)
{
	if (param < 0 || param >= pbdParam_count) return NULL;
	return s_params[param].name;
}

int pbd_ParamFromName(const char* name)
{
	if (name == NULL) return PBD_ERR_UNKNOWN_PARAM;
	for (int i = 0; i < pbdParam_count; ++i) {
		if (strcmp(name, s_params[i].name) == 0) return i;
	}
	return PBD_ERR_UNKNOWN_PARAM;
}

const pbdParam pbd_kindParam[pbdKind_count] = {
	[pbdKind_stretch] = pbdParam_stiffnessStretch, [pbdKind_shear] = pbdParam_stiffnessShear,
	[pbdKind_bend] = pbdParam_stiffnessBend,       [pbdKind_chain] = pbdParam_stiffnessChain,
	[pbdKind_edge] = pbdParam_stiffnessEdge,       [pbdKind_volume] = pbdParam_stiffnessVolume,
	[pbdKind_shape] = pbdParam_stiffnessShape,
};
