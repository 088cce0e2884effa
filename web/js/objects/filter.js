// filter.js — the collision filter the object types whose particles the particle contacts pair share: two scene
// keys (rows, format/fields.js), and how a world gets them (pbd_World_SetObjectFilter, after Box2D v3's b2Filter;
// the engine's material table, src/services/materials.h). Chains, cloths, bodies and inflatables list the rows; a
// fluid's own search pairs its particles with everything, so it has none.

/**
 * An object's collision filter (pbd_World_SetObjectFilter, after Box2D v3's b2Filter): the particles of two objects
 * collide when each one's category meets the other's mask. Left out: category 1 and every bit of the mask (every
 * pair collides, as solver.collisions says); no default written, so a scene without them reads as before. The types
 * whose particles the particle contacts pair list them (a fluid's own search pairs it with everything).
 */
const BITS = { kind: 'integer', min: 0, max: 0xffffffff };
export const FILTER_ROWS = [
  { key: 'collisionCategory', ...BITS, description: 'the collision categories it is in, as bits (default 1)' },
  { key: 'collisionMask', ...BITS, description: 'the categories it collides with, as bits (default 4294967295: all); two objects collide when each one\'s category meets the other\'s mask' },
];

/** Sets object `index`'s collision filter in world `id` when the scene gives one (FILTER_ROWS). */
export function buildFilter(engine, id, o, index) {
  if (o.collisionCategory === undefined && o.collisionMask === undefined) return;
  // uint32 arguments: JS passes them as int32 with the same bits
  engine.check(engine.exports.pbd_World_SetObjectFilter(id, index, (o.collisionCategory ?? 1) | 0, (o.collisionMask ?? 0xffffffff) | 0), 'engine', id);
}
