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

import { readReplay, REPLAY_LIMITS, REPLAY_VERSION } from '../format/replay.js';
import { replayState } from '../format/replay-calls.js';
import { RECORDED_CALLS, RECORDED_EVENTS, captureState } from './capture.js';
import { chooseQuantum, freshness, wrap } from './common.js';

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
    /** Its particles (the engine's count), what a grab's index is checked against. */
    this.particles = world.particleCount;
    this.q = q ?? chooseQuantum(this.scene);
    if (!REPLAY_LIMITS.quanta.includes(this.q)) throw new Error(`q must be one of ${REPLAY_LIMITS.quanta.join(', ')}, got ${q}`);
    this.maxSteps = Math.min(maxSteps, REPLAY_LIMITS.maxSteps);
    this.maxEvents = Math.min(maxEvents, REPLAY_LIMITS.maxEvents);
    this.onStop = onStop;
    /** Steps recorded so far. */
    this.steps = 0;
    this.events = []; // { step, kind: its call's code (format/replay-calls.js), ... }, positions absolute integers
    this.lastOf = new Map(); // 'g3' / 'c0' / 'f0' -> the latest event of that grab or collider (for coalescing)
    /** What the calls' captures keep (record/capture.js captureState: grab slots, colliders' materials). */
    this.state = captureState(this.scene, this.q);
    this.active = true;
    this.failed = null;
    /** Why the recording ended: 'stopped' (stop()), 'steps' / 'events' (a limit), 'destroyed', or a sentence. */
    this.stopReason = null;
    /** When a call the recording cannot carry ended it: { key: 'position' | 'velocity' | 'mass' | 'param' | 'call',
     *  vars } (the page words it in its language; stopReason is the English sentence). */
    this.stopCause = null;
    this.hash = null;
    // Every call that changes a run (format/replay-calls.js): one a replay carries is captured (record/capture.js), one it
    // cannot ends the recording before it. Besides them, the world's steps and its end.
    const calls = new Map(RECORDED_CALLS.map((c) => [c.call, c]));
    const { original, restore } = wrap(world, ['step', 'destroy', ...calls.keys()], (name) => {
      const c = calls.get(name);
      if (!c) return (...args) => this[`_${name}`](...args);
      if (c.capture) return (...args) => this._capture(c, args);
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
      events.push([e.step - at, e.kind, ...RECORDED_EVENTS.get(e.kind).write(e, w)]);
      at = e.step;
    }
    const replay = { v: REPLAY_VERSION, steps: this.steps, q };
    if (this.hash !== null) replay.hash = this.hash;
    replay.events = events;
    return readReplay(replay, this.scene, 'replay', this.particles).replay; // what a page will accept, checked here
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

  /** A call that changes the run (format/replay-calls.js): its row captures it (what the world is given, the event),
   *  or says it cannot be carried (the recording ends before it) or changes nothing in the motion (made as it is). */
  _capture(c, args) {
    const got = c.capture(args, this.state);
    if (got.pass) return this.original[c.call](...args);
    if (!got.args) return this._unrecorded(c.call, args, got.refuse, got.cause);
    const same = got.same ? this._sameStep(got.same) : null;
    if (!same && this._full()) return this.world[c.call](...args);
    const result = this.original[c.call](...got.args);
    got.done?.(result);
    if (same) got.merge(same);
    else {
      const [fields, key] = got.record(result);
      this._push({ kind: c.code, ...fields }, key);
    }
    return result;
  }

  _destroy() {
    this._stop('destroyed');
    this.world.destroy();
  }
}
