/* colliders.c -- kinematic sphere, capsule and box colliders (to be written). */
#include "core.h"

#include <string.h>

pbdColliderDef pbd_DefaultColliderDef(void)
{
	pbdColliderDef def;
	memset(&def, 0, sizeof def);
	def.rotation[3] = 1.0f;
	def.radius = 0.5f;
	def.halfHeight = 0.5f;
	def.halfExtents[0] = def.halfExtents[1] = def.halfExtents[2] = 0.5f;
	def.staticFriction = 0.5f;
	def.kineticFriction = 0.4f;
	def.internalValue = PBD_COOKIE;
	return def;
}

void pbd_Colliders_BeginStep(pbdWorld* w) { (void)w; }
void pbd_Colliders_Solve(pbdWorld* w, float alpha) { (void)w; (void)alpha; }
void pbd_Colliders_Velocities(pbdWorld* w, float h) { (void)w; (void)h; }
void pbd_Colliders_EndStep(pbdWorld* w) { (void)w; }
int pbd_World_AddCollider(pbdWorldId id, const pbdColliderDef* def) { (void)id; (void)def; return PBD_ERR_INVALID_ARGUMENT; }
int pbd_World_SetColliderTransform(pbdWorldId id, int c, float px, float py, float pz, float qx, float qy, float qz, float qw)
{
	(void)id; (void)c; (void)px; (void)py; (void)pz; (void)qx; (void)qy; (void)qz; (void)qw;
	return PBD_ERR_INVALID_COLLIDER;
}
int pbd_World_GetColliderCount(pbdWorldId id) { (void)id; return 0; }
int pbd_World_GetColliderInfo(pbdWorldId id, int c, pbdColliderInfo* info) { (void)id; (void)c; (void)info; return PBD_ERR_INVALID_COLLIDER; }
float pbd_World_ColliderDistance(pbdWorldId id, int c, float x, float y, float z) { (void)id; (void)c; (void)x; (void)y; (void)z; return 0.0f; }
int pbd_World_RayCastColliders(pbdWorldId id, float ox, float oy, float oz, float dx, float dy, float dz, float* t)
{
	(void)id; (void)ox; (void)oy; (void)oz; (void)dx; (void)dy; (void)dz; (void)t;
	return -1;
}
