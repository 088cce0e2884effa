// world-build.js — a World's build from its scene: the parameters, each object through its type (objects/), the
// colliders. build() does it all; building() is the same as a generator that pauses after each object, so a page can
// build a world of many heavy objects (two soft boxes of 48³ cells: 0.23-0.36 s of wasm in one call) a piece at a
// time between tasks (engine.prepareScene). Installed on World.prototype by world.js, like world-fluid.js.

import { COLLIDER_TYPES } from './memory.js';
import { SCENE_PARAMS, isSection, parsePlace, sceneParamValue } from './params.js';
import { objectTypeOf } from '../objects/index.js';

export const buildMethods = {
  /** Builds the world from this.scene, whole. */
  build() {
    const pieces = this.building();
    while (!pieces.next().done);
  },

  /** build() as a generator: yields after each object (the pieces engine.prepareScene runs between tasks). */
  * building() {
    const e = this.engine.exports;
    const s = this.scene;
    const check = (r) => this.engine.check(r, 'engine', this.id);
    // Parameters first (every one with a place in the scene; object-type stiffness where all objects of the
    // type agree, below): objects take their default stiffness from them.
    const perObject = [];
    for (const p of SCENE_PARAMS) {
      const value = sceneParamValue(s, p);
      if (isSection(s, parsePlace(p.scene).head)) this.setParamRaw(p.name, value);
      else perObject.push([p, value]);
    }
    for (const [index, o] of s.objects.entries()) {
      objectTypeOf(o).build(this.engine, this.id, o, index);
      yield index;
    }
    // Each body's default contact radius (half its lattice spacing: the engine's when the scene left it at 0), so
    // setObjectRadius(i, 0) can go back to it.
    this.defaultRadius = s.objects.map((o, index) => (o.particleRadius > 0 ? objectTypeOf(o).defaultRadius(o)
      : e.pbd_World_GetObjectRadius(this.id, index)));
    this.objectsVersion = -1;
    for (const c of s.colliders) {
      const q = c.rotation ?? [0, 0, 0, 1];
      const hx = c.halfExtents ?? [0.5, 0.5, 0.5];
      check(e.pbdjs_AddCollider(this.id, COLLIDER_TYPES.indexOf(c.type), ...c.position, ...q, c.radius ?? 0.5,
        c.halfHeight ?? 0.5, ...hx, c.staticFriction, c.kineticFriction, c.restitution));
    }
    // The world-wide stiffness of a kind reads back what the objects use, when they agree.
    for (const [p, value] of perObject) if (value !== undefined) this.setParamRaw(p.name, value);
  },
};
