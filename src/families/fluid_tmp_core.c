/* families/fluid_tmp_core.c -- TEMPORARY link placeholders (helper core's branch only): the
   functions helper objects defines in fluid_emit.c and fluid_velocity.c. The lead deletes this
   file at the merge. */
#include "families/fluid_internal.h"

#include <string.h>

void pbd_Fluid_EmitAndDrain(pbdWorld* world, pbdFluid* fluid, const pbdStepContext* ctx)
{
	(void)world, (void)fluid, (void)ctx;
}

void pbd_Fluid_Velocities(pbdWorld* world, pbdFluid* fluid, const pbdStepContext* ctx)
{
	(void)world, (void)fluid, (void)ctx;
}

void pbd_Fluid_Vorticity(pbdWorld* world, pbdFluid* fluid, float h) { (void)world, (void)fluid, (void)h; }
void pbd_Fluid_Viscosity(pbdWorld* world, pbdFluid* fluid) { (void)world, (void)fluid; }

static int NotYet(pbdWorldId id, const char* what)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "%s: not built yet", what);
}

pbdEmitterDef pbd_DefaultEmitterDef(void)
{
	pbdEmitterDef def;
	memset(&def, 0, sizeof def);
	def.direction[1] = -1.0f;
	def.speed = 1.0f;
	def.radius = 0.05f;
	def.enabled = 1;
	def.internalValue = PBD_COOKIE;
	return def;
}
int pbd_World_AddEmitter(pbdWorldId id, const pbdEmitterDef* def) { (void)def; return NotYet(id, "emitters"); }
int pbd_World_SetEmitter(pbdWorldId id, int emitter, const pbdEmitterDef* def) { (void)emitter, (void)def; return NotYet(id, "emitters"); }
int pbd_World_GetEmitterCount(pbdWorldId id) { return NotYet(id, "emitters"); }
int pbd_World_AddDrain(pbdWorldId id, const float lower[3], const float upper[3]) { (void)lower, (void)upper; return NotYet(id, "drains"); }
int pbd_World_GetDrainCount(pbdWorldId id) { return NotYet(id, "drains"); }
