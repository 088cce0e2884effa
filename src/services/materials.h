/* services/materials.h -- what a particle is made of, as every family that touches other objects' particles reads
   it: its contact radius, the share of a surface's friction it feels, whether it keeps a rest shape, whether the
   particle contacts pair it. One place answers from the object's record and the parameters, so no family tests
   another's object type (the fluid's friction was read by ground.c and colliders.c through type tests, the
   contacts counted "non-fluid objects", the tethers skipped fluids by type). Any family may ask; none owns it.
   The parameters it reads (thickness, fluid.friction) keep their place in minipbd.h's table. */
#ifndef PBD_MATERIALS_H
#define PBD_MATERIALS_H

#include "world/core.h"

/// The contact radius of particles that have none of their own: half the world's thickness (chains and cloth).
static inline float pbd_Material_DefaultRadius(const pbdWorld* world) { return 0.5f * world->params[pbdParam_thickness]; }

/// The contact radius of object `object`'s particles: its own (pbd_World_SetObjectRadius), or half the world's
/// thickness when that is 0 (chains and cloth), computed as the families did before radii per object
/// (0.5f * thickness) so their results keep their bits. Read by the contacts, the ground, the colliders, the fluid.
static inline float pbd_Material_ContactRadius(const pbdWorld* world, int32_t object)
{
	const float r = world->objectRadius[object];
	return r > 0.0f ? r : 0.5f * world->params[pbdParam_thickness];
}

/// The share of a surface's friction (the ground's, a collider's) that object `object`'s particles feel: water
/// slips along the floor (fluid.friction, default 0: Coulomb friction on each of its particles piles a dam break up
/// like sand; the fluid's own drag is XSPH's); 1 for every other object.
static inline float pbd_Material_FrictionShare(const pbdWorld* world, int32_t object)
{
	return world->objects[object].type == PBD_OBJECT_FLUID ? world->params[pbdParam_fluidFriction] : 1.0f;
}

/// The object keeps a rest shape (its w = 0 particles are pins that tethers may hold to): not a fluid, whose
/// w = 0 slots are parked capacity.
static inline int pbd_Material_HasRestShape(const pbdWorld* world, int32_t object)
{
	return world->objects[object].type != PBD_OBJECT_FLUID;
}

/// The particle contacts (self-collision, collisions between objects) pair the object's particles: not a fluid's,
/// which the fluid's own search pairs with everything (its phase carries PBD_PHASE_FLUID).
static inline int pbd_Material_InPairContacts(const pbdWorld* world, int32_t object)
{
	return world->objects[object].type != PBD_OBJECT_FLUID;
}

/// Particles of different objects collide (parameter collisions): the contacts pair them, the shapes order
/// stacked bodies for them (shapes_motion.c).
static inline int pbd_Material_ObjectsCollide(const pbdWorld* world) { return world->params[pbdParam_collisions] != 0.0f; }

#endif
