// recorder.js — record what someone does to a world (grabs, drags, collider moves, settings) step by step, and
// replay it exactly, so a link can show a run and not only a scene. The format is described in scene.js
// (readReplay); link.js carries it (link version 2).
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
// In the page, installRecorder(app) adds a Record button beside "Copy link" and exposes
// window.minipbd.app.startRecording() / stopRecording() (stop resolves to the link fragment, or null). Its label
// and status lines are in i18n.js (English and Chinese); the classes' own messages (stopReason, result.reason,
// thrown errors) stay English, with a code beside them (stopCause, result.cause) that the page translates.

import { readReplay, replayParamValue, REPLAY_LIMITS, REPLAY_VERSION, SCENE_LIMITS } from './scene.js';
import { t, plural, formatNumber } from './i18n.js';

const WRAPPED = ['step', 'addAttachment', 'moveAttachment', 'removeAttachment', 'setColliderTransform', 'setColliderMaterial',
  'setParam', 'setObjectStiffness', 'setPosition', 'setVelocity', 'setMass', 'setInvMass', 'destroy'];
/** Parameters that change nothing in the motion (they only record data), so they are not recorded. */
const UNRECORDED_PARAMS = new Set(['recordConvergence']);
/** World calls that change the motion outside a replay's events: they end a replay. */
const INTERFERING = ['setParam', 'setObjectStiffness', 'setColliderMaterial', 'setPosition', 'setVelocity', 'setMass', 'setInvMass'];
const MAX_COORD = SCENE_LIMITS.maxCoord;
/** A collider's material: what setColliderMaterial sets and a "f" event carries, with the scene's ranges. */
const MATERIAL = [
  ['staticFriction', SCENE_LIMITS.colliderFriction],
  ['kineticFriction', SCENE_LIMITS.colliderFriction],
  ['restitution', SCENE_LIMITS.colliderRestitution],
];

/** The position quantum for a scene: the coarsest q whose step (1/q m) is at most 1/1000 of its largest object. */
export function chooseQuantum(scene) {
  let extent = 0;
  for (const o of scene.objects) {
    const size = o.type === 'cloth' ? Math.max(...o.size) : Math.hypot(...o.end.map((v, k) => v - o.start[k]));
    extent = Math.max(extent, size);
  }
  for (const q of REPLAY_LIMITS.quanta) if (extent * q >= 1000) return q;
  return REPLAY_LIMITS.quanta[REPLAY_LIMITS.quanta.length - 1];
}

function freshness(world, what) {
  const s = world.stats();
  if (s.steps !== 0 || s.attachments !== 0) {
    throw new Error(`${what} starts from a freshly built world (this one has run ${s.steps} steps and holds ${s.attachments} attachments)`);
  }
}

/** Replaces `names` on the instance; returns a function putting back exactly what was there. */
function wrap(world, names, make) {
  const saved = names.map((name) => [name, Object.getOwnPropertyDescriptor(world, name)]);
  const original = {};
  for (const name of names) {
    const fn = world[name];
    original[name] = (...args) => fn.apply(world, args);
    world[name] = make(name);
  }
  const restore = () => {
    for (const [name, d] of saved) {
      if (d) Object.defineProperty(world, name, d);
      else delete world[name];
    }
  };
  return { original, restore };
}

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const sameBits = (a, b) => a.length === b.length && a.every((v, k) => Object.is(v, b[k]));

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
    this.events = []; // { step, kind: 'g' | 'm' | 'r' | 'c' | 'f' | 'p', ... } with absolute integer positions
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
    const { original, restore } = wrap(world, WRAPPED, (name) => (...args) => this[`_${name}`](...args));
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
    const grabAt = new Map();
    const colliderAt = this.scene.colliders.map(() => [0, 0, 0]);
    const colliderRot = this.scene.colliders.map((c) => [...(c.rotation ?? [0, 0, 0, 1])]);
    const minus = (a, b) => a.map((v, k) => v - b[k] + 0);
    for (const e of this.events) {
      if (e.step >= this.steps) break; // after the last recorded step: it never acted
      const d = e.step - at;
      at = e.step;
      if (e.kind === 'g') {
        grabAt.set(e.slot, e.n);
        events.push(e.k === 1 ? [d, 'g', e.particle, ...e.n] : [d, 'g', e.particle, ...e.n, e.k]);
      } else if (e.kind === 'm') {
        events.push([d, 'm', e.slot, ...minus(e.n, grabAt.get(e.slot))]);
        grabAt.set(e.slot, e.n);
      } else if (e.kind === 'r') {
        events.push([d, 'r', e.slot]);
      } else if (e.kind === 'c') {
        const ev = [d, 'c', e.collider, ...minus(e.n, colliderAt[e.collider])];
        colliderAt[e.collider] = e.n;
        if (!sameBits(e.rot, colliderRot[e.collider])) {
          ev.push(...e.rot);
          colliderRot[e.collider] = e.rot;
        }
        events.push(ev);
      } else if (e.kind === 'f') {
        events.push([d, 'f', e.collider, e.staticFriction, e.kineticFriction, e.restitution]);
      } else {
        events.push([d, 'p', e.name, e.value]);
      }
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

  _setObjectStiffness(...args) { return this._unrecorded('setObjectStiffness', args, 'setting one object\'s stiffness cannot be recorded'); }
  _setPosition(...args) { return this._unrecorded('setPosition', args, 'setting a particle position cannot be recorded', { key: 'position' }); }
  _setVelocity(...args) { return this._unrecorded('setVelocity', args, 'setting a particle velocity cannot be recorded', { key: 'velocity' }); }
  _setMass(...args) { return this._unrecorded('setMass', args, 'changing masses cannot be recorded', { key: 'mass' }); }
  _setInvMass(...args) { return this._unrecorded('setInvMass', args, 'changing masses cannot be recorded', { key: 'mass' }); }

  _destroy() {
    this._stop('destroyed');
    this.world.destroy();
  }
}

export class Replayer {
  /**
   * Replays `replay` on `world`, which must be freshly built from the replay's scene: validates it against the
   * world's scene first (throws SceneError naming the bad value; the world is then untouched), then applies
   * each event just before its step, whatever chunks world.step is called with. After replay.steps steps the
   * grabs still held are released and onEnd({ steps, hash, expected, exact }) is called (exact: the hash
   * equals the one recorded, null when the replay has none). The world then runs on as usual. A call that
   * would change the run under the replay (setParam, setColliderMaterial, setPosition, setVelocity, setMass,
   * setInvMass) ends it first ({ stopped: true, reason, cause: 'setting' | 'collider' | 'particle' }).
   * onParam(name, value) follows each parameter the replay sets.
   */
  constructor(world, replay, { onEnd = null, onParam = null } = {}) {
    freshness(world, 'a replay');
    const { replay: wire, events } = readReplay(replay, world.describe());
    this.world = world;
    this.replay = wire;
    this.events = events;
    this.steps = wire.steps;
    this.expected = wire.hash ?? null;
    this.onEnd = onEnd;
    this.onParam = onParam; // (name, value) after a replayed parameter change, for what an app keeps of it
    /** Steps replayed so far. */
    this.count = 0;
    this.next = 0;
    this.ids = new Map(); // slot -> attachment id
    this.active = true;
    this.result = null;
    // Besides step and destroy, the calls that would change the run under the replay: one of them ends it first
    // (its own events go to the originals). Grabs from the pointer are the app's to hold back (input.canGrab).
    const { original, restore } = wrap(world, ['step', 'destroy', ...INTERFERING],
      (name) => (INTERFERING.includes(name) ? (...args) => this._interfere(name, args) : (...args) => this[`_${name}`](...args)));
    this.original = original;
    this.restore = restore;
    if (this.steps === 0) this._finish(null);
  }

  _interfere(name, args) {
    if (this.active && !(name === 'setParam' && UNRECORDED_PARAMS.has(args[0]))) {
      const cause = name === 'setParam' || name === 'setObjectStiffness' ? 'setting' : name === 'setColliderMaterial' ? 'collider' : 'particle';
      this._finish(null, { stopped: true, reason: `a ${cause} was changed`, cause });
    }
    return this.original[name](...args);
  }

  /** Ends the replay early (the grabs it holds are released); the world runs on. */
  stop() {
    if (this.active) this._finish(null, { stopped: true });
    return this.result;
  }

  _destroy() {
    if (this.active) this._finish(null, { stopped: true, destroyed: true });
    this.world.destroy();
  }

  _step(n) {
    const step = this.original.step;
    if (!Number.isInteger(n) || n <= 0) return step(n);
    let left = n;
    while (left > 0 && this.active) {
      if (!this._applyDue()) break;
      const nextAt = this.next < this.events.length ? this.events[this.next].step : this.steps;
      const k = Math.min(left, nextAt - this.count);
      step(k);
      this.count += k;
      left -= k;
      if (this.count >= this.steps) this._finish(null);
    }
    if (left > 0) step(left);
  }

  /** Applies the events due before the next step; false if one failed (the replay then ends). */
  _applyDue() {
    const w = this.world;
    while (this.next < this.events.length && this.events[this.next].step === this.count) {
      const e = this.events[this.next++];
      try {
        if (e.kind === 'grab') this.ids.set(e.slot, w.addAttachment(e.particle, e.target, e.stiffness));
        else if (e.kind === 'move') w.moveAttachment(this.ids.get(e.slot), e.target);
        else if (e.kind === 'release') {
          w.removeAttachment(this.ids.get(e.slot));
          this.ids.delete(e.slot);
        } else if (e.kind === 'collider') w.setColliderTransform(e.collider, e.position, e.rotation);
        else if (e.kind === 'material') {
          const { staticFriction, kineticFriction, restitution } = e;
          this.original.setColliderMaterial(e.collider, { staticFriction, kineticFriction, restitution });
        } else {
          this.original.setParam(e.name, e.value); // the same World method; the wrapper guards against others
          this.onParam?.(e.name, e.value);
        }
      } catch (err) {
        this._finish(err);
        return false;
      }
    }
    return true;
  }

  _finish(error, extra = {}) {
    this.active = false;
    const hash = this.world.destroyed ? null : this.world.hash();
    for (const id of this.ids.values()) {
      try { this.world.removeAttachment(id); } catch { /* already gone */ }
    }
    this.ids.clear();
    this.restore();
    this.result = {
      steps: this.count, total: this.steps, hash, expected: this.expected,
      exact: this.expected === null || extra.stopped || error ? null : hash === this.expected,
      error: error ? (error.message ?? String(error)) : null, ...extra,
    };
    this.onEnd?.(this.result);
  }
}

// ---------------------------------------------------------------- the page: a Record button and app hooks

/**
 * Wires recording and replaying into the demo page. `app` is window.minipbd.app (state, camera, ui, input,
 * loadScene, copyLink). Adds a Record / Stop button after #copy-link (or at the end of the panel) and
 * app.startRecording(), app.stopRecording(), app.endReplay(). The app calls controller.worldChanged(world)
 * whenever it replaces the world and controller.play(replay) after opening a link that carries one.
 */
export function installRecorder(app, { doc = document } = {}) {
  let recorder = null;
  let replayer = null;
  let scene = null; // the scene the running recording started from, with the camera it started with

  // The button looks like its neighbour "Copy link": a lil-gui function controller when the panel is made with
  // lil-gui, a plain button otherwise. The status line below it says what the recorder is doing (text only).
  const copy = doc.getElementById('copy-link');
  const lil = copy?.closest('.lil-controller');
  const box = doc.createElement('div');
  const button = doc.createElement('button');
  button.type = 'button';
  button.id = 'record';
  let label = button;
  if (lil) {
    box.className = 'lil-controller lil-function record-controls';
    const widget = doc.createElement('div');
    widget.className = 'lil-widget';
    label = doc.createElement('div');
    label.className = 'lil-name';
    button.append(label);
    widget.append(button);
    box.append(widget);
  } else {
    box.className = 'record-controls';
    box.append(button);
  }
  const status = doc.createElement('p');
  status.id = 'record-status';
  status.className = 'panel-note small';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const place = () => {
    const anchor = doc.getElementById('copy-link');
    const at = anchor?.closest('.lil-controller') ?? anchor;
    if (at) at.after(box, status);
    else (doc.getElementById('panel') ?? doc.querySelector('.panel') ?? doc.body).append(box, status);
  };
  place();

  // The status line is kept as a function of the language (a switch rewrites it, like the rest of the page).
  let statusText = () => '';
  const say = (text) => {
    statusText = text;
    status.textContent = text();
  };
  const seconds = (steps) => (steps * (app.state.dt || 1 / 60)).toFixed(1);
  const update = () => {
    if (!box.isConnected) place(); // the panel may have been rebuilt
    const key = recorder ? 'record.stop' : replayer ? 'record.endReplay' : 'record.start';
    label.textContent = t(key);
    button.title = t(`${key}.help`);
    if (app.input) app.input.canGrab = () => replayer === null; // a replay is not pulled about while it plays
  };
  /** Why a recording ended early, in the current language ('' when it was stopped by the user). */
  const whyStopped = (rec, reason) => {
    if (reason === 'stopped') return '';
    if (reason === 'steps') return t('record.limitSteps', { n: formatNumber(rec.maxSteps) });
    if (reason === 'events') return t('record.limitEvents', { n: formatNumber(rec.maxEvents) });
    const cause = rec.stopCause;
    return t('record.because', { reason: cause ? t(`record.cause.${cause.key}`, cause.vars) : reason });
  };
  const replayCount = (result) => ({ done: String(result.steps), total: String(result.total) });
  const replayText = (result) => {
    if (result.error) return t('replay.failed', { ...replayCount(result), error: result.error });
    if (result.stopped) {
      return result.cause ? t('replay.stoppedBecause', { ...replayCount(result), cause: t(`replay.cause.${result.cause}`) })
        : t('replay.stopped', replayCount(result));
    }
    if (result.exact === true) return t('replay.exact', { steps: String(result.steps) });
    if (result.exact === false) return t('replay.differs', { steps: String(result.steps) });
    return t('replay.finished', { steps: String(result.steps) });
  };

  async function finish(rec, reason) {
    recorder = null;
    update();
    if (reason === 'destroyed') {
      controller.last = null;
      say(() => t('record.discarded'));
      return null;
    }
    let replay;
    try {
      replay = rec.toReplay();
    } catch (err) {
      say(() => t('record.unusable', { error: err.message }));
      return null;
    }
    const grabs = replay.events.filter((e) => e[1] === 'g').length;
    controller.last = { scene, replay, fragment: null, reason };
    const fragment = await app.copyLink({ scene, replay });
    controller.last.fragment = fragment ?? null;
    const steps = String(replay.steps);
    say(fragment
      ? () => t('record.done', { steps, seconds: seconds(replay.steps), grabs: plural('record.grabs', grabs) }) + whyStopped(rec, reason)
      : () => t('record.noLink', { steps }) + whyStopped(rec, reason));
    return fragment ?? null;
  }

  const controller = {
    /** The last finished recording: { scene, replay, fragment, reason }. */
    last: null,
    /** The result of the last replay (Replayer onEnd), or null while one plays. */
    lastReplay: null,
    pending: null,
    get recording() { return recorder !== null; },
    get replaying() { return replayer !== null; },
    get recorder() { return recorder; },
    get replayer() { return replayer; },

    /** Restarts the current scene (keeping the camera) and records from its first step. */
    start() {
      const { state } = app;
      if (recorder || !state.pbd || !state.scene) return false;
      const next = structuredClone(state.scene);
      next.camera = app.camera.toJSON();
      try {
        app.loadScene(next, state.sceneKey, { keepCamera: true });
        scene = structuredClone(state.scene);
        recorder = new Recorder(state.world, { onStop: (rec, reason) => { controller.pending = finish(rec, reason); } });
      } catch (err) {
        app.ui.showError(t('error.record', { error: err?.message ?? String(err) }));
        return false;
      }
      controller.last = null;
      app.ui.clearLink?.();
      say(() => t('record.recording'));
      update();
      return true;
    },

    /** Stops the recording and makes its link; resolves to the fragment ('s=2.…'), or null. */
    async stop() {
      if (!recorder) return controller.pending ? controller.pending : null;
      recorder.stop();
      return controller.pending;
    },

    /** Plays `replay` (validated by decodeRun) on the world just built from its scene. */
    play(replay) {
      controller.lastReplay = null;
      const player = new Replayer(app.state.world, replay, {
        onParam(name) {
          // What the loop and the renderer keep of the parameters follows them (as after a panel change).
          const { state } = app;
          if (name === 'dt') state.dt = state.world.getParam('dt');
          if (name === 'groundEnabled') state.view.groundEnabled = Boolean(state.world.getParam('groundEnabled'));
          if (name === 'groundHeight') state.view.groundHeight = state.world.getParam('groundHeight');
        },
        onEnd(result) {
          replayer = null;
          controller.lastReplay = result;
          update();
          if (result.destroyed) return;
          say(() => replayText(result));
          app.ui.showNotice?.(replayText(result));
        },
      });
      replayer = player.active ? player : null; // a replay of 0 steps has already ended
      if (replayer) {
        const text = () => t('replay.playing', { steps: String(replay.steps), seconds: seconds(replay.steps) });
        say(text);
        app.ui.showNotice?.(text());
      }
      update();
    },

    /** Ends a running replay early. */
    endReplay() { replayer?.stop(); },

    /** The app replaced its world: a recording or replay of the old one ends (a recording is discarded). */
    worldChanged(world) {
      if (recorder && recorder.world !== world) recorder._stop('destroyed');
      if (replayer && replayer.world !== world) {
        const r = replayer;
        replayer = null;
        r._finish(null, { stopped: true, destroyed: true });
        say(() => '');
      }
      update();
    },
  };

  button.addEventListener('click', () => {
    if (recorder) controller.stop();
    else if (replayer) controller.endReplay();
    else controller.start();
  });
  app.startRecording = () => controller.start();
  app.stopRecording = () => controller.stop();
  app.endReplay = () => controller.endReplay();
  app.recorder = controller;
  // A language switch rewrites the button and the status line (ui.js calls this back with its own texts).
  const translate = () => {
    update();
    status.textContent = statusText();
  };
  if (app.ui?.translated) app.ui.translated(translate);
  else update();
  return controller;
}
