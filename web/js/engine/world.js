// world.js — a World: one simulation built from a scene, its buffers as views over wasm memory, and every call
// that reads or changes it. Each entry point checks its arguments first (args.js) and refuses with a MiniPBDError
// before any change; parameters follow the table (params.js) and the description (describe()) follows every
// change, so a link carries it. What differs per object type is asked of the registry (objects/).

import {
  MiniPBDError, showArg, argIndex, argHandle, argNumber, argCount, argVec3, argQuat, argRecord,
  PARTICLE_MASS, ATTACHMENT_STIFFNESS, MAX_STEPS_PER_CALL,
} from './args.js';
import { BUFFER, OBJECT_FIELDS, COLLIDER_TYPES, COLLIDER_FIELDS, readStats, readConstraintCounts, readObjectInfo } from './memory.js';
import {
  PARAM_TABLE, paramInfo, paramAccepts, paramRule, writeSceneParam,
} from './params.js';
import { bodyRadiusProblem, sceneParamProblem } from './param-relations.js';
import { SCENE_LIMITS } from '../format/limits.js';
import { objectTypeOf } from '../objects/index.js';
import { fluidMethods } from './world-fluid.js';
import { buildMethods } from './world-build.js';
import { asyncMethods } from './world-async.js';
import { threadMethods } from './threads.js';

const ACTIVE_FIELD = OBJECT_FIELDS.indexOf('activeParticles');

/** A collider's material and its ranges (the scene format's, pbd_World_SetColliderMaterial's). */
const COLLIDER_MATERIAL = {
  staticFriction: SCENE_LIMITS.colliderFriction,
  kineticFriction: SCENE_LIMITS.colliderFriction,
  restitution: SCENE_LIMITS.colliderRestitution,
};

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

export class World {
  constructor(engine, id, scene) {
    this.engine = engine;
    this.id = id;
    this.scene = structuredClone(scene);
    this.lastStepMs = 0;
    this.views = null;
    this.destroyed = false;
    this.attachmentIds = new Set();
  }

  /** Every call starts here: refused once destroyed; steps in flight (stepAsync) finish first (step(n)'s order). */
  alive() {
    if (!this.destroyed && this.engine.stepping === this) this.settle(); // what waited for it may destroy this world
    if (this.destroyed) throw new MiniPBDError('destroyed', 'this world was destroyed');
  }

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

  /** Object `index`'s live particles now (pbdObjectInfo.activeParticles): a fluid's change as emitters and drains
   *  work, between topology changes (world.objects keeps the count of the last one). No allocation: the renderer
   *  asks once per fluid object per frame. */
  liveParticles(index) {
    this.alive();
    const heap = this.engine.heap;
    heap.out('pbdjs_GetObjectInfo', [this.id, index]);
    return heap.i32[(heap.scratch >> 2) + ACTIVE_FIELD];
  }

  /** Typed-array views over the world's buffers; rebuilt only if wasm memory grew. */
  view(name) {
    this.alive();
    const heap = this.engine.heap;
    heap.refreshViews();
    if (!this.views || this.views.generation !== heap.generation || this.views.topology !== this.topologyVersion) {
      const make = (buffer, Type, per) => heap.bufferView(this.id, buffer, Type, per);
      this.views = {
        generation: heap.generation,
        topology: this.topologyVersion,
        positions: make(BUFFER.positions, Float32Array, 4),
        velocities: make(BUFFER.velocities, Float32Array, 4),
        normals: make(BUFFER.normals, Float32Array, 4),
        triangles: make(BUFFER.triangles, Uint32Array, 3),
        lines: make(BUFFER.lines, Uint32Array, 2),
        errors: make(BUFFER.errors, Float32Array, 1),
        skinPositions: make(BUFFER.skinPositions, Float32Array, 4),
        skinNormals: make(BUFFER.skinNormals, Float32Array, 4),
        skinTriangles: make(BUFFER.skinTriangles, Uint32Array, 3),
        densities: make(BUFFER.densities, Float32Array, 1),
      };
    }
    return this.views[name];
  }

  /** x, y, z, w (= 1/mass, 0 for pins) per particle. */
  get positions() { return this.view('positions'); }
  /** vx, vy, vz, 0 per particle. */
  get velocities() { return this.view('velocities'); }
  /** Unit normals, 4 floats per particle; call updateNormals() first. */
  get normals() { return this.view('normals'); }
  /** Three particle indices per cloth triangle. */
  get triangles() { return this.view('triangles'); }
  /** Two particle indices per chain segment. */
  get lines() { return this.view('lines'); }
  /** Bodies' render surfaces (soft and rigid objects: world.objects[i].firstSkinVertex...): x, y, z, 1 per skin
   *  vertex, and its unit normal; call updateSkin() first (the renderer does, once per frame). */
  get skinPositions() { return this.view('skinPositions'); }
  get skinNormals() { return this.view('skinNormals'); }
  /** Three skin vertex indices per skin triangle (every body's, after one another). */
  get skinTriangles() { return this.view('skinTriangles'); }
  /** Moves every body's skin with its particles (soft: barycentric in its tets; rigid: its transform). */
  updateSkin() {
    this.alive();
    this.engine.check(this.engine.exports.pbd_World_UpdateSkin(this.id), 'engine', this.id);
  }
  /** Per particle, the largest relative error of its constraints; call updateErrors() first. */
  get errors() { return this.view('errors'); }
  /** Mean relative constraint error after each solver pass of the last step, when the
   *  'recordConvergence' parameter is 1 (a fresh view: its length follows the step). */
  get convergence() {
    this.alive();
    return this.engine.heap.bufferView(this.id, BUFFER.convergence, Float32Array, 1);
  }
  updateErrors() {
    this.alive();
    this.engine.exports.pbd_World_UpdateErrors(this.id);
  }
  get particleCount() { this.alive(); return this.engine.exports.pbd_World_GetParticleCount(this.id); }
  get constraintCount() { this.alive(); return this.engine.exports.pbd_World_GetConstraintCount(this.id); }
  get topologyVersion() { this.settle(); return this.engine.exports.pbd_World_GetTopologyVersion(this.id); } // settle: no-op unless busy

  /** Advances n fixed steps of scene.solver.dt now (blocking). */
  step(n = 1) {
    this.alive();
    argCount('step', 'step count', n, 0, MAX_STEPS_PER_CALL);
    if (this.startAsync) return this.startSteps(n); // stepAsync's call, through any wrapper of step (world-async.js)
    const t0 = now();
    this.engine.check(this.engine.exports.pbdjs_StepN(this.id, n), 'engine', this.id);
    if (n > 0) this.lastStepMs = (now() - t0) / n;
    this.countSteps(n);
  }

  updateNormals() {
    this.alive();
    this.engine.exports.pbd_World_UpdateNormals(this.id);
  }

  /** The table row of parameter `name`; throws naming the known ones. */
  param(name) {
    const p = paramInfo(name);
    if (p === undefined) {
      throw new MiniPBDError('unknown-param', `unknown parameter ${showArg(name)}; known: ${PARAM_TABLE.map((r) => r.name).join(', ')}`);
    }
    return p;
  }

  /** Checks `value` against the parameter table (what the scene format accepts), then sets it in the engine. */
  setParamRaw(name, value) {
    const p = this.param(name);
    if (!paramAccepts(p, value)) throw new MiniPBDError('argument', `parameter ${p.name} must be ${paramRule(p)}, got ${showArg(value)}`);
    this.engine.check(this.engine.exports.pbd_World_SetParam(this.id, p.id, value), 'argument', this.id);
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

  getParam(name) {
    this.alive();
    return this.engine.exports.pbd_World_GetParam(this.id, this.param(name).id);
  }

  /** The scene description with the current parameters: what a link should carry. */
  describe() { return structuredClone(this.scene); }

  /** A particle index of this world (checked: see engine/args.js). */
  particleArg(call, value) { return argIndex(call, 'particle', value, this.particleCount); }

  /** Pulls `particle` toward `target` with stiffness k in [0, 1]. Returns an id. */
  addAttachment(particle, target, stiffness = 1) {
    this.alive();
    const i = this.particleArg('addAttachment', particle);
    const t = argVec3('addAttachment', 'target', target);
    const k = argNumber('addAttachment', 'stiffness', stiffness, ATTACHMENT_STIFFNESS.min, ATTACHMENT_STIFFNESS.max);
    const id = this.engine.check(this.engine.exports.pbd_World_AddAttachment(this.id, i, t[0], t[1], t[2], k), 'argument', this.id);
    this.attachmentIds.add(id);
    return id;
  }

  moveAttachment(id, target) {
    this.alive();
    const a = argHandle('moveAttachment', 'attachment', id);
    const t = argVec3('moveAttachment', 'target', target);
    this.engine.check(this.engine.exports.pbd_World_MoveAttachment(this.id, a, t[0], t[1], t[2]), 'argument', this.id);
  }

  removeAttachment(id) {
    this.alive();
    const a = argHandle('removeAttachment', 'attachment', id);
    this.engine.check(this.engine.exports.pbd_World_RemoveAttachment(this.id, a), 'argument', this.id);
    this.attachmentIds.delete(a);
  }

  /** Moves a particle (and its prediction) to `position`; its velocity is kept. */
  setPosition(particle, position) {
    this.alive();
    const i = this.particleArg('setPosition', particle);
    const p = argVec3('setPosition', 'position', position);
    this.engine.check(this.engine.exports.pbd_World_SetPosition(this.id, i, p[0], p[1], p[2]), 'argument', this.id);
  }

  /** Sets a particle's velocity; pins (w = 0) keep none. */
  setVelocity(particle, velocity) {
    this.alive();
    const i = this.particleArg('setVelocity', particle);
    const v = argVec3('setVelocity', 'velocity', velocity);
    this.engine.check(this.engine.exports.pbd_World_SetVelocity(this.id, i, v[0], v[1], v[2]), 'argument', this.id);
  }

  /** Sets a particle's mass in kg (w = 1/m); use setInvMass(i, 0) to pin. */
  setMass(particle, mass) {
    this.alive();
    const i = this.particleArg('setMass', particle);
    const m = argNumber('setMass', 'mass (kg)', mass, PARTICLE_MASS.min, PARTICLE_MASS.max);
    this.engine.check(this.engine.exports.pbd_World_SetMass(this.id, i, m), 'argument', this.id);
  }

  /** Sets a particle's inverse mass w = 1/m in 1/kg; 0 pins it. */
  setInvMass(particle, invMass) {
    this.alive();
    const i = this.particleArg('setInvMass', particle);
    const w = argNumber('setInvMass', 'inverse mass (1/kg)', invMass, 0, 1 / PARTICLE_MASS.min);
    this.engine.check(this.engine.exports.pbd_World_SetInvMass(this.id, i, w), 'argument', this.id);
  }

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

  get attachmentCount() { this.alive(); return this.engine.exports.pbd_World_GetAttachmentCount(this.id); }

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

  /** Nearest collider hit by the ray: { index, t } or null. */
  pickCollider(origin, dir) {
    this.alive();
    const o = argVec3('pickCollider', 'origin', origin), d = argVec3('pickCollider', 'direction', dir);
    const heap = this.engine.heap;
    const index = heap.out('pbdjs_RayCastColliders', [this.id, o[0], o[1], o[2], d[0], d[1], d[2]], false);
    if (index < 0) return null;
    return { index, t: heap.float64s(1)[0] };
  }

  /** Nearest particle to the ray (origin, dir) within `radius`, first along the ray; -1 if none. */
  pick(origin, dir, radius) {
    this.alive();
    const o = argVec3('pick', 'origin', origin), d = argVec3('pick', 'direction', dir);
    const r = argNumber('pick', 'radius', radius, 0);
    return this.engine.exports.pbd_World_RayPick(this.id, o[0], o[1], o[2], d[0], d[1], d[2], r);
  }

  /** Errors, energies and counts of the current state (memory.js readStats), plus the last step's time. */
  stats() {
    this.alive();
    const out = { ...readStats(this.engine.heap, this.id), stepMs: this.lastStepMs, constraintsByFamily: this.constraintCounts() };
    this.lastStats = { ...out, measuredAt: out.steps }; // peekStats() shows these while steps run (world-async.js)
    return out;
  }

  /** Each family's constraints now, by name (memory.js readConstraintCounts); stats().constraints is their sum. */
  constraintCounts() { this.alive(); return readConstraintCounts(this.engine.heap, this.id); }

  /** FNV-1a of positions and velocities: equal hashes mean bit-identical states. */
  hash() { this.alive(); return this.engine.exports.pbd_World_Hash(this.id) >>> 0; }

  destroy() {
    if (this.destroyed) return;
    if (this.engine.stepping === this) {
      if (this.stepper.abandon) {
        // Slices: the step in flight is dropped between two slices; pbd_DestroyWorld releases a world mid-step.
        this.stepper.abandon();
        this.engine.stepping = null;
      } else {
        try { this.settle(); } catch { /* a failed step: the world goes anyway */ }
      }
    }
    this.engine.exports.pbd_DestroyWorld(this.id);
    this.engine.worlds.delete(this);
    this.destroyed = true;
    this.views = null;
  }
}

// Its build from its scene, whole or object by object (build, building): world-build.js.
Object.defineProperties(World.prototype, Object.getOwnPropertyDescriptors(buildMethods));
// The fluid's calls (fluidStats, updateDensities, densities, setEmitter): world-fluid.js.
Object.defineProperties(World.prototype, Object.getOwnPropertyDescriptors(fluidMethods));
// Stepping without waiting (stepAsync, busy, poll, settle): world-async.js.
Object.defineProperties(World.prototype, Object.getOwnPropertyDescriptors(asyncMethods));
// The thread count (threads, setThreads): threads.js.
Object.defineProperties(World.prototype, Object.getOwnPropertyDescriptors(threadMethods));
