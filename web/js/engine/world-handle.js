// world-handle.js — the engine's side of a World (WorldHandle): one world of the wasm engine by its id, its buffers
// as views over wasm memory, its steps (now, or without waiting: stepAsync on the engine's stepper, the threaded
// engine's runner worker or slices on this thread, stepper-slices.js), its parameters by the table, its particles,
// attachments, picks, statistics, threads and the fluid's measures. It knows no scene: World (world.js) extends it
// with the scene it was built from, kept in step with every change (the scene mirror). One world of an engine steps
// at a time (engine.stepping); any other call on that world finishes its steps first (alive()). Each entry point
// checks its arguments first (args.js) and refuses with a MiniPBDError before any change.

import {
  MiniPBDError, showArg, argIndex, argHandle, argNumber, argCount, argVec3,
  PARTICLE_MASS, ATTACHMENT_STIFFNESS, MAX_STEPS_PER_CALL,
} from './args.js';
import { BUFFER, OBJECT_FIELDS, readStats, readConstraintCounts } from './memory.js';
import { PARAM_TABLE, paramInfo, paramAccepts, paramRule } from './params.js';
import { SliceStepper } from './stepper-slices.js';
import { checkThreads } from './threads.js';
import { readFluidStats } from './world-fluid.js';

const ACTIVE_FIELD = OBJECT_FIELDS.indexOf('activeParticles');

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** One world of `engine` by its id (engine.createWorld makes a World, world.js, which extends this with its scene). */
export class WorldHandle {
  constructor(engine, id) {
    this.engine = engine;
    this.id = id;
    this.lastStepMs = 0;
    this.views = null;
    this.destroyed = false;
    this.attachmentIds = new Set();
    this.stepsEnded = 0; // steps ended since the world was made, however they were taken (the page draws a change)
  }

  /** Every call starts here: refused once destroyed; steps in flight (stepAsync) finish first (step(n)'s order). */
  alive() {
    if (!this.destroyed && this.engine.stepping === this) this.settle(); // what waited for it may destroy this world
    if (this.destroyed) throw new MiniPBDError('destroyed', 'this world was destroyed');
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
        previous: make(BUFFER.previous, Float32Array, 4),
      };
    }
    return this.views[name];
  }

  /** x, y, z, w (= 1/mass, 0 for pins) per particle. */
  get positions() { return this.view('positions'); }
  /** x, y, z, w per particle where the last step began (after its start: a hose's new particles, the fluid's cell
   *  sort), or where it was built or set since; kept once keepPrevious() is called (the renderer does). */
  get previous() { return this.view('previous'); }
  /** Keep world.previous from the next step on (it changes no bit of the physics). */
  keepPrevious(keep = true) {
    if (typeof keep !== 'boolean') throw new MiniPBDError('argument', `keepPrevious: keep must be true or false, got ${showArg(keep)}`);
    this.alive();
    if (this.keptPrevious === keep) return; // a renderer's setWorld again (a restored context): nothing to ask
    this.keptPrevious = keep;
    this.engine.check(this.engine.exports.pbd_World_KeepPrevious(this.id, keep ? 1 : 0), 'engine', this.id);
  }
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
  /** Moves every body's skin with its particles (soft: barycentric in its tets; rigid: its transform), drawn `blend`
   *  of the way from the last step's start to its end (1: the state; with keepPrevious only). */
  updateSkin(blend = 1) {
    argNumber('updateSkin', 'blend', blend, 0, 1);
    this.alive();
    this.engine.check(this.engine.exports.pbd_World_UpdateSkinAt(this.id, blend), 'engine', this.id);
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
    if (this.startAsync) return this.startSteps(n); // stepAsync's call, through any wrapper of step (below)
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

  getParam(name) {
    this.alive();
    return this.engine.exports.pbd_World_GetParam(this.id, this.param(name).id);
  }

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

  get attachmentCount() { this.alive(); return this.engine.exports.pbd_World_GetAttachmentCount(this.id); }

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
    this.lastStats = { ...out, measuredAt: out.steps }; // peekStats() shows these while steps run
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

  // ---------- stepping without waiting ----------

  /** The engine's stepper (the threaded engine's runner worker, or slices on this thread: stepper-slices.js). */
  get stepper() {
    return (this.engine.stepper ??= new SliceStepper(this.engine.exports));
  }

  /**
   * Starts n steps without waiting for them: they run on the threaded engine's runner, or in slices taken by
   * poll(). Until they are done `busy` is true; any other call on the world finishes them first (alive()), so the
   * order of calls is exactly step(n)'s. Goes through this.step, so a recorder or replayer wrapping it counts
   * these steps (one at a time while it replays: app/main.js).
   */
  stepAsync(n = 1) {
    this.alive();
    argCount('stepAsync', 'step count', n, 0, MAX_STEPS_PER_CALL);
    this.engine.stepping?.settle(); // another world's steps: one world steps at a time
    this.startAsync = true;
    try {
      this.step(n);
    } finally {
      this.startAsync = false;
    }
  }

  /** stepAsync's start, reached through this.step (so a recorder or replayer wrapping step has seen the steps). */
  startSteps(n) {
    this.startAsync = false;
    if (n === 0) return;
    if (!this.lastStats) this.stats(); // what peekStats() shows while these run (the world is free still)
    this.stepper.start(this.id, n);
    this.engine.stepping = this;
    this.asyncSteps = { n, at: now() }; // what is in flight since when (the page's slow-step check)
  }

  /** True while steps started by stepAsync are in flight. Asks nothing of the engine. */
  get busy() { return this.engine.stepping === this; }

  /**
   * Lets the steps in flight run for about `budgetMs` (slices; the threaded runner needs no time from this
   * thread) and returns true when none is left; a step that failed throws its MiniPBDError here.
   */
  poll(budgetMs = 8) {
    if (this.engine.stepping !== this) return true;
    try {
      if (!this.stepper.poll(budgetMs)) return false;
    } catch (err) {
      this.engine.stepping = null; // the threaded stepper throws the step's error itself
      throw err;
    }
    this.finishAsync();
    return true;
  }

  /** Finishes the steps in flight now, blocking (the correctness net; the page avoids needing it). */
  settle() {
    if (this.engine.stepping !== this) return;
    try {
      this.stepper.settle();
    } catch (err) {
      this.engine.stepping = null;
      throw err;
    }
    this.finishAsync();
    // Whoever queued calls for after these steps (sim/driver.js) runs them now, before the call that settled.
    this.afterSettle?.();
  }

  finishAsync() {
    const stepper = this.stepper;
    this.engine.stepping = null;
    // The steppers that can be cancelled (slices, the threaded runner) say how many ran; the synchronous one ran all n.
    const done = stepper.stepsDone ?? (this.asyncSteps?.n ?? 1);
    if (stepper.error) {
      const error = stepper.error;
      stepper.error = 0;
      this.countSteps(done);
      this.onStepsDone?.(done);
      this.engine.check(error, 'engine', this.id);
    }
    if (done > 0) this.lastStepMs = stepper.lastStepMs / done; // the steppers time all of them together
    this.countSteps(done);
    this.onStepsDone?.(done);
  }

  /** n steps ended: the step count peekStats() shows follows without asking the engine. */
  countSteps(n) {
    if (n > 0) this.stepsEnded += n;
    if (this.lastStats && n > 0) this.lastStats.steps += n;
  }

  /**
   * Stops the steps in flight after the one running now (the slices stepper, the threaded runner). Nothing waits:
   * poll() ends with that step.
   */
  cancelSteps() {
    if (this.engine.stepping === this) this.stepper.cancel?.();
  }

  /**
   * The statistics without waiting, ever: world.stats() when the world is free (≤ 3 ms on the largest scenes),
   * else the last ones read with what the stepper knows now: the steps ended (counted as they end, one by one on
   * the slices stepper), the last step's time (or the estimate of the one in flight), its progress. The errors and
   * energies are then those of step `measuredAt`; `busy` says steps are in flight.
   */
  peekStats() {
    if (this.destroyed) throw new MiniPBDError('destroyed', 'this world was destroyed');
    if (this.engine.stepping !== this) return { ...this.stats(), busy: false, progress: 0 };
    const stepper = this.stepper;
    const last = this.lastStats;
    const done = stepper.stepsDone ?? 0;
    const stepMs = this.lastStepMs > 0 ? this.lastStepMs : (stepper.estimateMs ?? 0);
    return { ...last, steps: last.steps + done, stepMs, measuredAt: last.measuredAt, busy: true,
      progress: stepper.progress ?? 0 };
  }

  // ---------- threads ----------

  /** The threads this world's steps share out over: 1 without a team. */
  get threads() { this.alive(); return this.engine.exports.pbd_World_GetThreads(this.id); }

  /** Steps on `n` threads of the engine's team from the next step on, `n` in [1, engine.maxThreads]; the same bits
   *  for any n (src/base/tasks.c). A step in flight finishes first. */
  setThreads(n) {
    this.alive();
    checkThreads('setThreads', n, this.engine.maxThreads);
    if (this.engine.stepper?.busy) this.engine.stepper.settle();
    this.engine.check(this.engine.exports.pbd_World_SetThreads(this.id, this.engine.team, n), 'engine', this.id);
  }

  // ---------- the fluid's measures ----------

  /** The fluid now (pbd_World_GetFluidStats): live particles, capacity, emitted and drained so far, full (an
   *  emitter could not add all it meant to in the last step), neighbours and densities (rho / rho0). */
  fluidStats() {
    this.alive();
    this.engine.heap.out('pbdjs_GetFluidStats', [this.id]);
    return (this.lastFluidStats = readFluidStats(this.engine.heap)); // peekFluidStats() shows these before any step
  }

  /**
   * fluidStats() without waiting, from the steps: the first call asks every step to measure the fluid at its end
   * (pbd_World_SetFluidMeasure: one density pass at the positions it commits, with its last substep's lists, in its
   * slice units or on the threaded runner), and each call reads what the last of them measured. fluidStats() makes a
   * neighbour search of its own (0.26 s for a fluid at the format's particle cap, 0.3-0.65 s in a software-rendered
   * page: one long task the page could not answer a click during); this costs the page's thread a read. measuredAt
   * is the step whose end the densities are of; before any measuring step it is 0 and they are 0 (the counts are
   * now's), unless fluidStats() was read (then that). While steps are in flight, the last read.
   */
  peekFluidStats() {
    if (this.engine.stepping === this) return this.lastFluidStats ? { ...this.lastFluidStats } : null;
    this.alive();
    const heap = this.engine.heap;
    if (!this.fluidMeasured) this.fluidMeasured = this.engine.exports.pbd_World_SetFluidMeasure(this.id, 1) === 0;
    const step = heap.out('pbdjs_GetMeasuredFluidStats', [this.id]);
    if (step < 0) return this.lastFluidStats ? { ...this.lastFluidStats } : null;
    const read = readFluidStats(heap);
    if (step > 0 || !this.lastFluidStats) this.lastFluidStats = { ...read, measuredAt: step };
    return { ...this.lastFluidStats };
  }

  /** rho / rho0 of every live fluid particle into world.densities (0 for other particles). */
  updateDensities() {
    this.alive();
    this.engine.check(this.engine.exports.pbd_World_UpdateDensities(this.id), 'engine', this.id);
  }

  /** Per particle, rho / rho0 (valid after updateDensities()); a view over wasm memory. */
  get densities() { return this.view('densities'); }
}
