// world-fluid.js — the World's fluid calls: the fluid's statistics, its densities, and switching a hose.
// Installed on World.prototype by world.js (kept apart so world.js stays one job: the world's common calls).
// Emitters are numbered in scene order over the fluid objects (the order objects/fluid.js adds them), as
// pbd_World_AddEmitter numbers them.

import { MiniPBDError, argIndex, argRecord, argNumber, argVec3, showArg } from './args.js';
import { BUFFER } from './memory.js';
import { SCENE_LIMITS } from '../format/limits.js';
import { EMITTER_KEYS } from '../objects/fluid.js';

/** pbdFluidStats (src/minipbd.h): 6 int32, then 4 float32 (pbdjs_GetFluidStats). */
export const FLUID_STATS_INTS = Object.freeze(['particles', 'capacity', 'emitted', 'drained', 'full', 'droppedNeighbours']);
export const FLUID_STATS_FLOATS = Object.freeze(['meanNeighbours', 'meanDensity', 'maxDensity', 'densityError']);

/** The scene's emitters in engine order: [{ object, k, emitter }] (object: its scene index, k: its index there). */
export function sceneEmitters(scene) {
  const out = [];
  scene.objects.forEach((o, object) => (o.emitters ?? []).forEach((emitter, k) => out.push({ object, k, emitter })));
  return out;
}

/** The pbdFluidStats record just written to the heap's exchange (pbdjs_GetFluidStats, pbdjs_GetMeasuredFluidStats). */
function readFluidStats(heap) {
  const ints = heap.int32s(FLUID_STATS_INTS.length + FLUID_STATS_FLOATS.length);
  const floats = heap.float32s(FLUID_STATS_INTS.length + FLUID_STATS_FLOATS.length);
  const out = {};
  FLUID_STATS_INTS.forEach((name, k) => { out[name] = ints[k]; });
  FLUID_STATS_FLOATS.forEach((name, k) => { out[name] = floats[FLUID_STATS_INTS.length + k]; });
  out.full = out.full !== 0;
  return out;
}

export const fluidMethods = {
  /** The fluid now (pbd_World_GetFluidStats): live particles, capacity, emitted and drained so far, full (an
   *  emitter could not add all it meant to in the last step), neighbours and densities (rho / rho0). */
  fluidStats() {
    this.alive();
    this.engine.heap.out('pbdjs_GetFluidStats', [this.id]);
    return (this.lastFluidStats = readFluidStats(this.engine.heap)); // peekFluidStats() shows these before any step
  },

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
  },

  /** rho / rho0 of every live fluid particle into world.densities (0 for other particles). */
  updateDensities() {
    this.alive();
    this.engine.check(this.engine.exports.pbd_World_UpdateDensities(this.id), 'engine', this.id);
  },

  /** Per particle, rho / rho0 (valid after updateDensities()); a view over wasm memory. */
  get densities() { return this.view('densities'); },

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
  },
};
