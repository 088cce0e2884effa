// world.js — a World: one simulation built from a scene. The engine's side (its buffers, steps, parameters,
// particles, statistics) is WorldHandle's (world-handle.js); World adds the scene: its build from it (build, or
// building an object at a time) and every call that changes what the scene says (parameters, an object's mass,
// stiffness, plasticity or radius, colliders, emitters), after which the description (describe()) follows, so a link
// carries it. Each entry point checks its arguments first (args.js) and refuses with a MiniPBDError before any
// change. What differs per object type is asked of the registry (objects/).

import { MiniPBDError, showArg, argIndex, argNumber, argVec3, argQuat, argRecord, PARTICLE_MASS } from './args.js';
import { COLLIDER_TYPES, COLLIDER_FIELDS, readObjectInfo } from './memory.js';
import { paramInfo, paramAccepts, writeSceneParam, SCENE_PARAMS, isSection, parsePlace, sceneParamValue } from './params.js';
import { bodyRadiusProblem, sceneParamProblem } from './param-relations.js';
import { SCENE_LIMITS } from '../format/limits.js';
import { buildFilter } from '../objects/filter.js';
import { objectTypeOf } from '../objects/index.js';
import { WorldHandle } from './world-handle.js';
import { sceneEmitters } from './world-fluid.js';
import { EMITTER_KEYS } from '../objects/fluid.js';

/** A collider's material and its ranges (the scene format's, pbd_World_SetColliderMaterial's). */
const COLLIDER_MATERIAL = {
  staticFriction: SCENE_LIMITS.colliderFriction,
  kineticFriction: SCENE_LIMITS.colliderFriction,
  restitution: SCENE_LIMITS.colliderRestitution,
};

export class World extends WorldHandle {
  constructor(engine, id, scene) {
    super(engine, id);
    this.scene = structuredClone(scene);
  }

  // ---------- the build from the scene ----------

  /** Builds the world from this.scene, whole. */
  build() {
    const pieces = this.building();
    while (!pieces.next().done);
  }

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
      buildFilter(this.engine, this.id, o, index); // its collision filter, where its type's rows have one
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
  }

  // ---------- the scene's objects, parameters and colliders ----------

  /** Objects with their particle, constraint and triangle ranges, read again whenever the
   *  topology has changed (tearing moves triangle ranges and counts torn constraints). */
  get objects() {
    this.alive();
    const version = this.topologyVersion;
    if (this.objectsVersion !== version) {
      this.objectsCache = this.scene.objects.map((o, index) => readObjectInfo(this.engine.heap, this.id, index, o));
      this.objectsVersion = version;
      this.fluidIndices = this.scene.objects.flatMap((o, index) => (objectTypeOf(o).water ? [index] : []));
    } else if (this.fluidIndices.length > 0) {
      // Hoses and drains change a fluid's live count at any step without a topology change: read it again.
      for (const index of this.fluidIndices) this.objectsCache[index].activeParticles = this.liveParticles(index);
    }
    return this.objectsCache;
  }

  /**
   * Sets a solver/environment parameter (names and ranges: engine/param-table.js, engine.paramNames). Exactly
   * the values the scene format accepts are taken, so describe() always gives a scene the validator accepts; a
   * refused value throws a MiniPBDError naming the parameter and its range, and nothing changes.
   */
  setParam(name, value) {
    this.alive();
    const p = this.param(name);
    const problem = paramAccepts(p, value) && sceneParamProblem(this.scene, p, value);
    if (problem) throw new MiniPBDError('argument', problem);
    this.setParamRaw(name, value);
    writeSceneParam(this.scene, this.param(name), value);
  }

  /** The scene description with the current parameters: what a link should carry. */
  describe() { return structuredClone(this.scene); }

  /**
   * Object `index` weighs `mass` kg per particle (a body: `mass` kg in all, spread evenly), as if its scene had
   * said `mass`: its pins and its `masses` ranges keep theirs. The description follows, so links carry it. Goes through setMass, so
   * whatever wraps setMass (recorder.js) sees every particle. A refused mass changes nothing.
   */
  setObjectMass(index, mass) {
    this.alive();
    const k = argIndex('setObjectMass', 'object', index, this.scene.objects.length);
    const m = argNumber('setObjectMass', 'mass (kg)', mass, PARTICLE_MASS.min, PARTICLE_MASS.max);
    const o = this.scene.objects[k];
    const { firstParticle, particleCount } = this.objects[k];
    const type = objectTypeOf(o);
    if (o.mass === undefined) throw new MiniPBDError('argument', `setObjectMass: object ${k} (a ${o.type}) has no mass of its own`);
    // A body's mass is the whole body's, spread evenly (objects/body-common.js); a chain's or cloth's is each particle's.
    const each = type.particleMass ? type.particleMass({ ...o, mass: m }, particleCount) : m;
    if (!(each >= PARTICLE_MASS.min)) {
      throw new MiniPBDError('argument', `setObjectMass: ${m} kg over ${particleCount} particles is ${each} kg each, below ${PARTICLE_MASS.min}`);
    }
    const keep = type.particlesWithOwnMass(o, this, k);
    for (let j = 0; j < particleCount; j++) if (!keep.has(j)) this.setMass(firstParticle + j, each);
    o.mass = m;
  }

  /** The scene object `index` of a body type (soft, rigid): one with plasticity and a contact radius. */
  bodyArg(call, index) {
    const k = argIndex(call, 'object', index, this.scene.objects.length);
    const o = this.scene.objects[k];
    if (!objectTypeOf(o).material) throw new MiniPBDError('argument', `${call}: object ${k} (a ${o.type}) is not a body`);
    return [k, o];
  }

  /**
   * Plasticity of body `index` (seed 001 5.3): any of { yield, creep, max }, the others kept; ranges as in the
   * scene format (SCENE_LIMITS.plasticity), creep 0 = off. The description follows.
   */
  setObjectPlasticity(index, plasticity) {
    this.alive();
    const call = 'setObjectPlasticity';
    const [k, o] = this.bodyArg(call, index);
    argRecord(call, 'plasticity', plasticity, Object.keys(SCENE_LIMITS.plasticity));
    const next = {};
    for (const [key, range] of Object.entries(SCENE_LIMITS.plasticity)) {
      next[key] = plasticity[key] === undefined ? o.plasticity[key] : argNumber(call, key, plasticity[key], range.min, range.max);
    }
    this.engine.check(this.engine.exports.pbd_World_SetObjectPlasticity(this.id, k, next.yield, next.creep, next.max), 'argument', this.id);
    o.plasticity = next;
  }

  /** Contact radius (m) of body `index`'s particles, 0 = half its lattice spacing as built. The description follows. */
  setObjectRadius(index, radius) {
    this.alive();
    const call = 'setObjectRadius';
    const [k, o] = this.bodyArg(call, index);
    const r = argNumber(call, 'radius (m)', radius, 0, SCENE_LIMITS.maxBodyRadius);
    const problem = bodyRadiusProblem(call, r, Math.fround(2 * this.defaultRadius[k]));
    if (problem) throw new MiniPBDError('argument', problem);
    // 0 is the body's default (half its lattice spacing), not the engine's 0 (thickness / 2, for chains and cloth).
    const value = r > 0 ? r : this.defaultRadius[k];
    this.engine.check(this.engine.exports.pbd_World_SetObjectRadius(this.id, k, value), 'argument', this.id);
    o.particleRadius = r;
  }

  /** Contact radius of object `index`'s particles now (0: the world's thickness / 2). */
  getObjectRadius(index) {
    this.alive();
    const k = argIndex('getObjectRadius', 'object', index, this.scene.objects.length);
    return this.engine.exports.pbd_World_GetObjectRadius(this.id, k);
  }

  /** A soft body's volume now, its rest volume (m^3) and how many of its tets are inverted (pbd_World_GetObjectVolume). */
  getObjectVolume(index) {
    this.alive();
    const k = argIndex('getObjectVolume', 'object', index, this.scene.objects.length);
    this.engine.heap.out('pbd_World_GetObjectVolume', [this.id, k]);
    const [volume, rest, inverted] = this.engine.heap.float64s(3);
    return { volume, rest, inverted };
  }

  /** A rigid body's transform from the last solve, x = position + R(rotation) (x0 - c0), or null for other objects. */
  getBodyTransform(index) {
    this.alive();
    const k = argIndex('getBodyTransform', 'object', index, this.scene.objects.length);
    // Asked only of shape-matched types, so a soft body or a cloth does not leave an error message behind.
    if (!objectTypeOf(this.scene.objects[k]).shapeMatched) return null;
    const heap = this.engine.heap;
    heap.out('pbd_World_GetBodyTransform', [this.id, k]);
    const f = heap.float32s(7);
    return { position: f.slice(0, 3), rotation: f.slice(3, 7) };
  }

  /**
   * The stiffness (in [0, 1]) of one kind of constraint of object `index` only (pbd_World_SetObjectStiffness):
   * `kind` is one of its type's kinds (objects/: a cloth's stretch, shear or bend, a chain's chain). The
   * description follows. setParam('stiffness.<kind>') sets every object's.
   */
  setObjectStiffness(index, kind, stiffness) {
    this.alive();
    const k = argIndex('setObjectStiffness', 'object', index, this.scene.objects.length);
    const o = this.scene.objects[k];
    const kinds = objectTypeOf(o).stiffness;
    if (typeof kind !== 'string' || !Object.hasOwn(kinds, kind)) {
      throw new MiniPBDError('argument', `setObjectStiffness: kind must be one of ${Object.keys(kinds).map((x) => `"${x}"`).join(', ')} for object ${k} (a ${o.type}), got ${showArg(kind)}`);
    }
    const { kind: id, param, set } = kinds[kind];
    const p = paramInfo(param);
    const v = argNumber('setObjectStiffness', 'stiffness', stiffness, p.min, p.max);
    this.engine.check(this.engine.exports.pbd_World_SetObjectStiffness(this.id, k, id, v), 'argument', this.id);
    set(o, v);
  }

  /** Colliders as they are now: [{type, position, rotation, radius, halfHeight, halfExtents, ..., glass}]. */
  get colliders() {
    this.alive();
    const heap = this.engine.heap;
    const n = this.engine.exports.pbd_World_GetColliderCount(this.id);
    const out = [];
    for (let i = 0; i < n; i++) {
      heap.out('pbdjs_GetColliderInfo', [this.id, i]);
      const f = heap.float64s(COLLIDER_FIELDS);
      out.push({
        type: COLLIDER_TYPES[f[0]], name: this.scene.colliders[i]?.name ?? `collider ${i + 1}`,
        position: [f[1], f[2], f[3]], rotation: [f[4], f[5], f[6], f[7]], radius: f[8], halfHeight: f[9],
        halfExtents: [f[10], f[11], f[12]], staticFriction: f[13], kineticFriction: f[14], restitution: f[15],
        glass: this.scene.colliders[i]?.glass === true, // drawn translucent (the scene's, not the engine's)
      });
    }
    return out;
  }

  /** Moves collider i (kinematic: particles feel the motion through contact and friction). */
  setColliderTransform(index, position, rotation = [0, 0, 0, 1]) {
    this.alive();
    const call = 'setColliderTransform';
    const i = argIndex(call, 'collider', index, this.scene.colliders.length);
    const p = argVec3(call, 'position', position);
    const q = argQuat(call, 'rotation', rotation);
    this.engine.check(this.engine.exports.pbd_World_SetColliderTransform(this.id, i, p[0], p[1], p[2], ...q), 'argument', this.id);
    const c = this.scene.colliders[i];
    c.position = [p[0], p[1], p[2]];
    if (c.type !== 'sphere') c.rotation = q;
  }

  /**
   * Sets a collider's friction and restitution (pbd_World_SetColliderMaterial): any of
   * { staticFriction, kineticFriction, restitution }, the others kept. Out-of-range or non-finite values are
   * refused with a MiniPBDError naming the field, and nothing changes. The description (describe()) follows.
   */
  setColliderMaterial(index, material) {
    this.alive();
    const call = 'setColliderMaterial';
    const i = argIndex(call, 'collider', index, this.scene.colliders.length);
    const c = this.scene.colliders[i];
    argRecord(call, 'material', material, Object.keys(COLLIDER_MATERIAL));
    const next = {};
    for (const [key, range] of Object.entries(COLLIDER_MATERIAL)) {
      next[key] = material[key] === undefined ? c[key] : argNumber(call, key, material[key], range.min, range.max);
    }
    this.engine.check(this.engine.exports.pbd_World_SetColliderMaterial(this.id, i, next.staticFriction, next.kineticFriction, next.restitution),
      'argument', this.id);
    Object.assign(c, next);
  }

  // ---------- the fluid's emitters ----------

  /**
   * Changes emitter `index` (scene order over the fluid objects): any of { position, direction, speed, radius,
   * enabled }, the others kept (the panel's hose switch sets `enabled`). Refused values (the scene format's
   * ranges) throw a MiniPBDError naming the field, and nothing changes. The description follows.
   */
  setEmitter(index, emitter) {
    this.alive();
    const call = 'setEmitter';
    const list = sceneEmitters(this.scene);
    const i = argIndex(call, 'emitter', index, list.length);
    argRecord(call, 'emitter', emitter, EMITTER_KEYS);
    const { object, emitter: now } = list[i];
    const L = SCENE_LIMITS;
    const next = { ...now };
    if (emitter.position !== undefined) next.position = argVec3(call, 'position', emitter.position);
    if (emitter.direction !== undefined) {
      next.direction = argVec3(call, 'direction', emitter.direction);
      if (Math.hypot(...next.direction) < 1e-6) throw new MiniPBDError('argument', `${call}: direction must be a non-zero vector, got ${showArg(emitter.direction)}`);
    }
    if (emitter.speed !== undefined) {
      next.speed = argNumber(call, 'speed (m/s)', emitter.speed, Number.MIN_VALUE, L.emitterSpeed.max);
    }
    if (emitter.radius !== undefined) next.radius = argNumber(call, 'radius (m)', emitter.radius, this.scene.fluid.spacing / 2, L.emitterRadius.max);
    if (emitter.enabled !== undefined) {
      if (typeof emitter.enabled !== 'boolean') throw new MiniPBDError('argument', `${call}: enabled must be true or false, got ${showArg(emitter.enabled)}`);
      next.enabled = emitter.enabled;
    }
    next.position = [...next.position].map((v) => v + 0);
    next.direction = [...next.direction].map((v) => v + 0);
    this.engine.check(this.engine.exports.pbdjs_SetEmitter(this.id, i, object, ...next.position, ...next.direction, next.speed,
      next.radius, next.enabled ? 1 : 0), 'argument', this.id);
    Object.assign(now, next);
  }
}
