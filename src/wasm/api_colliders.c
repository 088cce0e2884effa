/* wasm/api_colliders.c -- the flat JS surface for colliders (see wasm/api.c for the idea).

   pbd_World_SetColliderTransform, pbd_World_GetColliderCount and pbd_World_ColliderDistance
   take and return scalars, so JS calls them as they are. What needs a struct or an out
   pointer is wrapped here: the def arrives as scalars, and records go to the caller's `out`
   (see wasm/api.c) as float64:

     pbdjs_GetColliderInfo:    f64[0..15] = type, position[3], rotation[4], radius,
                               halfHeight, halfExtents[3], staticFriction,
                               kineticFriction, restitution (pbdColliderInfo order)
     pbdjs_RayCastColliders:   f64[0] = t (distance along the normalised direction), -1 if none */
#include "world/core.h"

#define PBDJS_COLLIDER_FIELDS 16

PBDJS_API int pbdjs_AddCollider(pbdWorldId world, int type, float px, float py, float pz, float qx, float qy, float qz,
								float qw, float radius, float halfHeight, float hx, float hy, float hz, float staticFriction,
								float kineticFriction, float restitution)
{
	pbdColliderDef def = pbd_DefaultColliderDef();
	def.type = type;
	def.position[0] = px, def.position[1] = py, def.position[2] = pz;
	def.rotation[0] = qx, def.rotation[1] = qy, def.rotation[2] = qz, def.rotation[3] = qw;
	def.radius = radius;
	def.halfHeight = halfHeight;
	def.halfExtents[0] = hx, def.halfExtents[1] = hy, def.halfExtents[2] = hz;
	def.staticFriction = staticFriction;
	def.kineticFriction = kineticFriction;
	def.restitution = restitution;
	return pbd_World_AddCollider(world, &def);
}

PBDJS_API int pbdjs_GetColliderInfo(pbdWorldId world, int collider, double* o)
{
	pbdColliderInfo info;
	int err = pbd_World_GetColliderInfo(world, collider, &info);
	if (err != PBD_OK) return err;
	o[0] = info.type;
	for (int k = 0; k < 3; ++k) o[1 + k] = info.position[k];
	for (int k = 0; k < 4; ++k) o[4 + k] = info.rotation[k];
	o[8] = info.radius;
	o[9] = info.halfHeight;
	for (int k = 0; k < 3; ++k) o[10 + k] = info.halfExtents[k];
	o[13] = info.staticFriction;
	o[14] = info.kineticFriction;
	o[15] = info.restitution;
	return PBD_OK;
}

/* Nearest collider hit by the ray: its index or -1; the distance goes to out[0]. */
PBDJS_API int pbdjs_RayCastColliders(pbdWorldId world, float ox, float oy, float oz, float dx, float dy, float dz, double* out)
{
	float t = -1.0f;
	int hit = pbd_World_RayCastColliders(world, ox, oy, oz, dx, dy, dz, &t);
	out[0] = hit >= 0 ? (double)t : -1.0;
	return hit;
}

_Static_assert(PBDJS_COLLIDER_FIELDS * sizeof(double) <= 256, "collider info fits the caller's block (pbdjs_ExchangeBytes)");
_Static_assert(sizeof(pbdColliderInfo) == PBDJS_COLLIDER_FIELDS * 4, "pbdColliderInfo is 16 four-byte fields");
