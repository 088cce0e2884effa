// recorder.js — record what someone does to a world (grabs, drags, collider moves, settings) step by step, and
// replay it exactly, so a link can show a run and not only a scene. The format is described in format/replay.js
// (readReplay); format/link.js carries it (link version 2).
//
// Usage (Node 20 or browser):
//   import { Recorder, Replayer } from './recorder.js';
//   const world = pbd.createWorld(scene);                  // recording starts from a freshly built world
//   const rec = new Recorder(world);                       // wraps the world's methods on this instance
//   …input drives world.addAttachment / moveAttachment / removeAttachment / setColliderTransform /
//    setColliderMaterial / setParam, the app calls world.step…
//   const replay = rec.stop();                             // { v, steps, q, hash, events }; the world is plain again
//   const link = await encodeLink(rec.scene, { replay });
//
//   const again = pbd.createWorld(scene);
//   const player = new Replayer(again, replay, { onEnd(result) {…} });   // validates against the scene first
//   again.step(replay.steps);                              // any chunking: events apply before their step
//   again.hash() === replay.hash                           // bit-identical positions and velocities
//
// Exactness. A World call passes doubles to wasm, which rounds them to float32. The recorder records the very
// doubles it passes: positions are quantised first (integers n in units of 1/q m; the world gets n / q both live
// and in the replay, the same double in every JS engine), other numbers are recorded as they are (JSON carries
// a double exactly; -0 is made 0 before use, since JSON cannot tell them apart). Several calls between two steps
// that only set a target or a value (moves of one grab, moves of one collider, materials of one collider) keep
// only the last, which is all the next step sees. Calls a replay cannot carry (setPosition, setVelocity, setMass,
// setInvMass, a parameter outside REPLAY_PARAMS or its range) end the recording at the step before them, so what
// was recorded stays exact.
//
// The replayer is record/replayer.js; the page's Record button is panel/record.js. The classes' own messages
// (stopReason, result.reason, thrown errors) stay English, with a code beside them (stopCause, result.cause) that
// the page translates.

import { readReplay, replayParamValue, REPLAY_LIMITS, REPLAY_VERSION } from '../format/replay.js';
import { MATERIAL, REPLAY_EVENTS, UNRECORDED_PARAMS, WORLD_CALLS, replayState } from '../format/replay-calls.js';
import { MAX_COORD, chooseQuantum, freshness, wrap, isNum } from './common.js';

export { chooseQuantum };

export class Recorder {
  /**
   * Starts recording `world`, which must be freshly built (no step, no attachment): a replay starts from the
   * scene. options: q (position quantum, one of REPLAY_LIMITS.quanta; default chooseQuantum(scene)),
   * maxSteps, maxEvents (at most the REPLAY_LIMITS; reaching one ends the recording), onStop(recorder, reason).
   */
  constructor(world, { q, maxSteps = REPLAY_LIMITS.maxSteps, maxEvents = REPLAY_LIMITS.maxEvents, onStop = null } = {}) {
    freshness(world, 'a recording');
    this.world = world;
    /** The scene the recording starts from (normalised): what a link must carry with the replay. */
    this.scene = world.describe();
    this.q = q ?? chooseQuantum(this.scene);
    if (!REPLAY_LIMITS.quanta.includes(this.q)) throw new Error(`q must be one of ${REPLAY_LIMITS.quanta.join(', ')}, got ${q}`);
    this.maxSteps = Math.min(maxSteps, REPLAY_LIMITS.maxSteps);
    this.maxEvents = Math.min(maxEvents, REPLAY_LIMITS.maxEvents);
    this.onStop = onStop;
    /** Steps recorded so far. */
    this.steps = 0;
    this.events = []; // { step, kind: 'g' | 'm' | 'r' | 'c' | 'f' | 'p' | 'e' (format/replay-calls.js), ... }, positions absolute integers
    this.grabs = 0;
    this.slotOf = new Map(); // attachment id -> slot (the n-th grab)
    this.lastOf = new Map(); // 'g3' / 'c0' / 'f0' -> the latest event of that grab or collider (for coalescing)
    // Each collider's material as it is now (the world's description keeps it too, but describe() copies the scene).
    this.materials = this.scene.colliders.map((c) => Object.fromEntries(MATERIAL.map(([key]) => [key, c[key]])));
    this.active = true;
    this.failed = null;
    /** Why the recording ended: 'stopped' (stop()), 'steps' / 'events' (a limit), 'destroyed', or a sentence. */
    this.stopReason = null;
    /** When a call the recording cannot carry ended it: { key: 'position' | 'velocity' | 'mass' | 'param' | 'call',
     *  vars } (the page words it in its language; stopReason is the English sentence). */
    this.stopCause = null;
    this.hash = null;
    // Every call that changes a run (format/replay-calls.js): one a replay carries is recorded by its method here
    // (_addAttachment…), one it cannot ends the recording before it.
    const calls = new Map(WORLD_CALLS.map((c) => [c.call, c]));
    const { original, restore } = wrap(world, ['step', 'destroy', ...calls.keys()], (name) => {
      const c = calls.get(name);
      if (!c?.unrecorded) return (...args) => this[`_${name}`](...args);
      return (...args) => this._unrecorded(name, args, c.unrecorded, c.cause ? { key: c.cause } : undefined);
    });
    this.original = original;
    this.restore = restore;
  }

  get eventCount() { return this.events.length; }

  /** Ends the recording (if it still runs) and returns the replay. */
  stop() {
    this._stop('stopped');
    return this.toReplay();
  }

  /** The replay of what was recorded: { v, steps, q, hash, events } (scene.js, readReplay). */
  toReplay() {
    if (this.active) throw new Error('the recording is still running: stop() it first');
    if (this.failed) throw new Error(`the recording failed: ${this.failed}`);
    const q = this.q;
    const events = [];
    let at = 0;
    const w = replayState(this.scene);
    for (const e of this.events) {
      if (e.step >= this.steps) break; // after the last recorded step: it never acted
      events.push([e.step - at, e.kind, ...REPLAY_EVENTS.get(e.kind).write(e, w)]);
      at = e.step;
    }
    const replay = { v: REPLAY_VERSION, steps: this.steps, q };
    if (this.hash !== null) replay.hash = this.hash;
    replay.events = events;
    return readReplay(replay, this.scene).replay; // what a page will accept, checked here
  }

  _stop(reason, hash = this.world.destroyed ? null : this.world.hash()) {
    if (!this.active) return;
    this.active = false;
    this.stopReason = reason;
    this.hash = hash;
    this.restore();
    this.onStop?.(this, reason);
  }

  /** No room for one more event: end the recording here (the call then runs unrecorded). */
  _full() {
    if (this.events.length < this.maxEvents) return false;
    this._stop('events');
    return true;
  }

  /** A call the recording cannot carry: run it; if the world took it, the recording ends before it (a refused
   *  call changed nothing, so the recording goes on). */
  _unrecorded(name, args, why, cause = { key: 'call', vars: { name } }) {
    const hash = this.world.hash(); // the state the recording ends in: before the call (setMass changes w)
    const result = this.original[name](...args);
    this.stopCause = cause;
    this._stop(why ?? `${name} was called with values a replay cannot carry`, hash);
    return result;
  }

  _quantise(v) {
    if (!(Array.isArray(v) || ArrayBuffer.isView(v)) || v.length !== 3 || ![0, 1, 2].every((k) => isNum(v[k]))) return null;
    return [0, 1, 2].map((k) => Math.round(Math.min(MAX_COORD, Math.max(-MAX_COORD, v[k])) * this.q) + 0);
  }

  _push(event, key = null) {
    event.step = this.steps;
    this.events.push(event);
    if (key) this.lastOf.set(key, event);
  }

  /** The latest event of `key` if it happened since the last step (a later call may replace its target). */
  _sameStep(key) {
    const e = this.lastOf.get(key);
    return e && e.step === this.steps ? e : null;
  }

  _step(n) {
    const step = this.original.step;
    if (!Number.isInteger(n) || n <= 0) return step(n); // 0 does nothing; the World refuses the rest
    const recorded = Math.min(n, this.maxSteps - this.steps);
    try {
      step(recorded);
    } catch (err) {
      this.failed = `a step failed: ${err?.message ?? err}`;
      this._stop('failed');
      throw err;
    }
    this.steps += recorded;
    if (this.steps >= this.maxSteps) {
      this._stop('steps');
      if (n > recorded) this.world.step(n - recorded);
    }
  }

  _addAttachment(particle, target, stiffness = 1) {
    const n = this._quantise(target);
    if (n === null || !isNum(stiffness) || stiffness < 0 || stiffness > 1) return this._unrecorded('addAttachment', [particle, target, stiffness]);
    if (this._full()) return this.world.addAttachment(particle, target, stiffness);
    const k = stiffness + 0;
    const id = this.original.addAttachment(particle, n.map((x) => x / this.q), k);
    const slot = this.grabs++;
    this.slotOf.set(id, slot);
    this._push({ kind: 'g', slot, particle, n, k }, `g${slot}`);
    return id;
  }

  _moveAttachment(id, target) {
    const slot = this.slotOf.get(id);
    const n = this._quantise(target);
    if (slot === undefined || n === null) return this._unrecorded('moveAttachment', [id, target]);
    const same = this._sameStep(`g${slot}`);
    if (!same && this._full()) return this.world.moveAttachment(id, target);
    this.original.moveAttachment(id, n.map((x) => x / this.q));
    // Grab or move since the last step: only the target it ends with acts in the next step.
    if (same) same.n = n;
    else this._push({ kind: 'm', slot, n }, `g${slot}`);
  }

  _removeAttachment(id) {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return this._unrecorded('removeAttachment', [id]);
    if (this._full()) return this.world.removeAttachment(id);
    this.original.removeAttachment(id);
    this.slotOf.delete(id);
    this._push({ kind: 'r', slot });
    this.lastOf.delete(`g${slot}`);
  }

  _setColliderTransform(index, position, rotation = [0, 0, 0, 1]) {
    const n = this._quantise(position);
    const okIndex = Number.isInteger(index) && index >= 0 && index < this.scene.colliders.length;
    const okRot = Array.isArray(rotation) && rotation.length === 4 && rotation.every((v) => isNum(v) && Math.abs(v) <= 1e4)
      && Math.hypot(...rotation) >= 1e-6;
    if (n === null || !okIndex || !okRot) return this._unrecorded('setColliderTransform', [index, position, rotation]);
    const key = `c${index}`;
    const same = this._sameStep(key);
    if (!same && this._full()) return this.world.setColliderTransform(index, position, rotation);
    const rot = rotation.map((v) => v + 0);
    this.original.setColliderTransform(index, n.map((x) => x / this.q), rot);
    // A collider's transform is set, not accumulated: the last one before a step is what the step sees.
    if (same) {
      same.n = n;
      same.rot = rot;
    } else {
      this._push({ kind: 'c', collider: index, n, rot }, key);
    }
  }

  /** A material change: the full material (fields not given keep their value) is what is applied and recorded. */
  _setColliderMaterial(index, material) {
    const current = Number.isInteger(index) ? this.materials[index] : undefined;
    let next = null;
    if (current && material !== null && typeof material === 'object') {
      next = {};
      for (const [key, range] of MATERIAL) {
        const v = material[key] ?? current[key];
        if (!isNum(v) || v < range.min || v > range.max) { next = null; break; }
        next[key] = v + 0;
      }
    }
    // Values the world refuses too (it throws and nothing changes, so the recording goes on).
    if (!next) return this._unrecorded('setColliderMaterial', [index, material]);
    const key = `f${index}`;
    const same = this._sameStep(key);
    if (!same && this._full()) return this.world.setColliderMaterial(index, material);
    this.original.setColliderMaterial(index, next);
    this.materials[index] = next;
    // Set, not accumulated: the last material before a step is what the step sees.
    if (same) Object.assign(same, next);
    else this._push({ kind: 'f', collider: index, ...next }, key);
  }

  _setParam(name, value) {
    if (UNRECORDED_PARAMS.has(name)) return this.original.setParam(name, value);
    let v;
    try {
      v = replayParamValue(name, value);
    } catch {
      const shown = { name: String(name).slice(0, 40), value: String(value).slice(0, 20) };
      return this._unrecorded('setParam', [name, value], `the parameter ${shown.name} cannot be recorded with the value ${shown.value}`,
        { key: 'param', vars: shown });
    }
    if (this._full()) return this.world.setParam(name, value);
    this.original.setParam(name, v);
    this._push({ kind: 'p', name, value: v });
  }

  /** A hose switched on or off is an "e" event (the last switch of an emitter before a step is what it sees); any
   *  other change of an emitter cannot be carried and ends the recording. */
  _setEmitter(index, emitter) {
    const keys = emitter !== null && typeof emitter === 'object' ? Object.keys(emitter) : null;
    if (!keys || keys.length !== 1 || keys[0] !== 'enabled' || typeof emitter.enabled !== 'boolean') {
      return this._unrecorded('setEmitter', [index, emitter], 'changing an emitter other than switching it on or off cannot be recorded');
    }
    const key = `e${index}`;
    const same = this._sameStep(key);
    if (!same && this._full()) return this.world.setEmitter(index, emitter);
    this.original.setEmitter(index, { enabled: emitter.enabled }); // throws (and records nothing) on a bad index
    if (same) same.on = emitter.enabled ? 1 : 0;
    else this._push({ kind: 'e', emitter: index, on: emitter.enabled ? 1 : 0 }, key);
  }

  _destroy() {
    this._stop('destroyed');
    this.world.destroy();
  }
}
