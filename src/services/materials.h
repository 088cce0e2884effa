/* services/materials.h -- what an object's particles are made of, as every family that touches other objects'
   particles reads it: one record per object (pbdMaterial, world->materials), written by the object's builder and the
   API, read here. Its contact radius, the share of a surface's friction it feels, whether it keeps a rest shape,
   whether the particle contacts pair it, whether it is a sheet water stays on one side of, and its collision filter.
   Families read the record, never another family's object type (the fluid's friction was read by ground.c and
   colliders.c through type tests, the contacts counted "non-fluid objects", the tethers skipped fluids by type, the
   fluid tested for cloth). Any family may ask; none owns it. The parameters it reads (thickness, fluid.friction) keep
   their place in minipbd.h's table. */
#ifndef PBD_MATERIALS_H
#define PBD_MATERIALS_H

#include "world/core.h"

#define PBD_MATERIAL_REST_SHAPE (1u << 0)    ///< keeps a rest shape: its w = 0 particles are pins tethers may hold to
#define PBD_MATERIAL_PAIR_CONTACTS (1u << 1) ///< the particle contacts (self-collision, between objects) pair it
#define PBD_MATERIAL_SHEET (1u << 2)         ///< its triangles are a sheet that water stays on one side of

/// One object's material. The collision filter is Box2D v3's b2Filter (categoryBits, maskBits): the particles of
/// objects a and b (a != b) collide when a's category meets b's mask and b's category meets a's mask; the default,
/// category 1 and every bit of the mask, lets every pair collide as before filters were.
typedef struct pbdMaterial {
	float radius;          ///< contact radius; 0: the world's thickness / 2 (chains, cloth)
	int32_t frictionParam; ///< the parameter its share of a surface's friction is (fluid.friction); -1: all of it
	uint32_t flags;        ///< PBD_MATERIAL_*
	uint32_t category;     ///< the collision categories it is in
	uint32_t mask;         ///< the categories it collides with
	float edgeCover;       ///< two of its particles closer than this at rest are joined by a structural edge (a grid
	                       ///< cloth's shortest non-edge, a chain's two segments: its builder); 0: not known
} pbdMaterial;

/// A solid's material, every builder's start (builders/builder.c); the builder of a fluid or a sheet changes it.
static inline pbdMaterial pbd_Material_Solid(void)
{
	return (pbdMaterial){ 0.0f, -1, PBD_MATERIAL_REST_SHAPE | PBD_MATERIAL_PAIR_CONTACTS, 1u, 0xffffffffu, 0.0f };
}

/// The contact radius of particles that have none of their own: half the world's thickness (chains and cloth).
static inline float pbd_Material_DefaultRadius(const pbdWorld* world) { return 0.5f * world->params[pbdParam_thickness]; }

/// The contact radius of object `object`'s particles: its own (pbd_World_SetObjectRadius), or half the world's
/// thickness when that is 0 (chains and cloth), computed as the families did before radii per object
/// (0.5f * thickness) so their results keep their bits. Read by the contacts, the ground, the colliders, the fluid.
static inline float pbd_Material_ContactRadius(const pbdWorld* world, int32_t object)
{
	const float r = world->materials[object].radius;
	return r > 0.0f ? r : 0.5f * world->params[pbdParam_thickness];
}

/// The share of a surface's friction (the ground's, a collider's) that object `object`'s particles feel: water
/// slips along the floor (its builder points the share at fluid.friction, default 0: Coulomb friction on each of
/// its particles piles a dam break up like sand; the fluid's own drag is XSPH's); 1 for every other object.
static inline float pbd_Material_FrictionShare(const pbdWorld* world, int32_t object)
{
	const int32_t p = world->materials[object].frictionParam;
	return p >= 0 ? world->params[p] : 1.0f;
}

/// The object keeps a rest shape (its w = 0 particles are pins that tethers may hold to): not a fluid, whose
/// w = 0 slots are parked capacity.
static inline int pbd_Material_HasRestShape(const pbdWorld* world, int32_t object)
{
	return (world->materials[object].flags & PBD_MATERIAL_REST_SHAPE) != 0u;
}

/// The particle contacts (self-collision, collisions between objects) pair the object's particles: not a fluid's,
/// which the fluid's own search pairs with everything (its phase carries PBD_PHASE_FLUID).
static inline int pbd_Material_InPairContacts(const pbdWorld* world, int32_t object)
{
	return (world->materials[object].flags & PBD_MATERIAL_PAIR_CONTACTS) != 0u;
}

/// The object's triangles are a sheet (a cloth with triangles): water is held on its side of it (the fluid's
/// sheet contact, families/fluid_sheets.c).
static inline int pbd_Material_IsSheet(const pbdWorld* world, int32_t object)
{
	return (world->materials[object].flags & PBD_MATERIAL_SHEET) != 0u && world->objects[object].triangleCount > 0;
}

/// Particles of different objects collide (parameter collisions): the contacts pair them, the shapes order
/// stacked bodies for them (shapes_motion.c).
static inline int pbd_Material_ObjectsCollide(const pbdWorld* world) { return world->params[pbdParam_collisions] != 0.0f; }

/// The filters of objects a and b let their particles collide (b2ShouldCollide's rule without its groups).
static inline int pbd_Material_FiltersMeet(const pbdWorld* world, int32_t a, int32_t b)
{
	const pbdMaterial* ma = &world->materials[a];
	const pbdMaterial* mb = &world->materials[b];
	return (ma->category & mb->mask) != 0u && (mb->category & ma->mask) != 0u;
}

/// 1 when some object's collision filter is not the default (the contacts' activation table then holds the filters).
static inline int pbd_Material_FiltersSet(const pbdWorld* world)
{
	const pbdMaterial solid = pbd_Material_Solid();
	for (int32_t o = 0; o < world->objectCount; ++o) {
		if (world->materials[o].category != solid.category || world->materials[o].mask != solid.mask) return 1;
	}
	return 0;
}

#endif
