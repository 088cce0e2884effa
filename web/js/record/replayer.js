// replayer.js — replays a recording (format/replay.js) on a freshly built world, exactly: each event just before
// its step, whatever chunks world.step is called with; calls that would change the run under it end it first.

import { readReplay } from '../format/replay.js';
import { EVENT_KINDS, WORLD_CALLS } from '../format/replay-calls.js';
import { freshness, wrap } from './common.js';

/** The calls that would change the run under a replay (format/replay-calls.js `ends`): one of them ends it first. */
const ENDING = new Map(WORLD_CALLS.filter((c) => c.ends).map((c) => [c.call, c]));

export class Replayer {
  /**
   * Replays `replay` on `world`, which must be freshly built from the replay's scene: validates it against the
   * world's scene first (throws SceneError naming the bad value; the world is then untouched), then applies
   * each event just before its step, whatever chunks world.step is called with. After replay.steps steps the
   * grabs still held are released and onEnd({ steps, hash, expected, exact }) is called (exact: the hash
   * equals the one recorded, null when the replay has none). The world then runs on as usual. A call that
   * would change the run under the replay (format/replay-calls.js `ends`: setParam, setColliderMaterial,
   * setPosition, setEmitter…) ends it first ({ stopped: true, reason, cause: 'setting' | 'collider' | 'particle' }).
   * onParam(name, value) follows each parameter the replay sets.
   */
  constructor(world, replay, { onEnd = null, onParam = null } = {}) {
    freshness(world, 'a replay');
    const { replay: wire, events } = readReplay(replay, world.describe(), 'replay', world.particleCount);
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
    const { original, restore } = wrap(world, ['step', 'destroy', ...ENDING.keys()],
      (name) => (ENDING.has(name) ? (...args) => this._interfere(ENDING.get(name), args) : (...args) => this[`_${name}`](...args)));
    this.original = original;
    this.restore = restore;
    if (this.steps === 0) this._finish(null);
  }

  /** A call that would change the run under the replay (a setting, a collider's material, a particle, a hose
   *  switched by hand): the replay ends first, unless the call changes nothing in the motion. */
  _interfere(call, args) {
    if (this.active && !call.ignored?.(args)) {
      this._finish(null, { stopped: true, reason: call.endsAs ?? `a ${call.ends} was changed`, cause: call.ends });
    }
    return this.original[call.call](...args);
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
    while (this.next < this.events.length && this.events[this.next].step === this.count) {
      const e = this.events[this.next++];
      try {
        EVENT_KINDS.get(e.kind).apply(e, this);
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
    for (const c of WORLD_CALLS) c.end?.(this); // what the replay still holds (its grabs) is let go
    this.restore();
    this.result = {
      steps: this.count, total: this.steps, hash, expected: this.expected,
      exact: this.expected === null || extra.stopped || error ? null : hash === this.expected,
      error: error ? (error.message ?? String(error)) : null, ...extra,
    };
    this.onEnd?.(this.result);
  }
}
