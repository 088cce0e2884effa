// The collision filter the object types whose particles the particle contacts pair share (format/fields.js
// FILTER_ROWS; pbd_World_SetObjectFilter, after Box2D v3's b2Filter).

export interface CollisionFilter {
  /** the collision categories it is in, as bits (0..4294967295; default 1) */ collisionCategory?: number;
  /** the categories it collides with, as bits (default 4294967295: all); two objects collide when each one's
   *  category meets the other's mask */ collisionMask?: number;
}
