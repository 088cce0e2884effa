// record/capture.js -- what only the recorder needs of each call a replay carries (format/replay-calls.js holds
// what reading and playing one needs): capture, from a call's arguments to what the world is given and the event,
// and write, from the event to its items. Apart from the rows so that a page that only plays replays (the element)
// does not download it.

import { MATERIAL, REPLAY_EVENTS, UNRECORDED_PARAMS, WORLD_CALLS, replayParamValue } from '../format/replay-calls.js';
import { SCENE_LIMITS as L } from '../format/limits.js';

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
/** A position as a recording carries it: integers n in units of 1/q m (clamped to the scene's coordinate limit), or
 *  null when `v` is not three finite numbers. */
function quantise(v, q) {
  if (!(Array.isArray(v) || ArrayBuffer.isView(v)) || v.length !== 3 || ![0, 1, 2].every((k) => isNum(v[k]))) return null;
  return [0, 1, 2].map((k) => Math.round(Math.min(L.maxCoord, Math.max(-L.maxCoord, v[k])) * q) + 0);
}
/** What a capture answers for a call a replay cannot carry with these values: the recording ends before it. */
const REFUSED = Object.freeze({ refuse: undefined });

const minus = (a, b) => a.map((v, k) => v - b[k] + 0);
const sameBits = (a, b) => a.length === b.length && a.every((v, k) => Object.is(v, b[k]));

/**
 * The recorder's part of each carried call, by its World method:
 *   capture(args, s)  a call's arguments (s: captureState, the recording's own state) -> { pass } (made unrecorded,
 *                     changing nothing in the motion), { refuse, cause? } (it cannot be carried: the recording ends
 *                     before it; refuse: why, or undefined), or { args (what the world is given: positions quantised),
 *                     same? (the key of an event of this step it updates rather than adds to: merge(e)),
 *                     done?(result) (after the world took it), record(result) -> [the event's fields, its key for
 *                     later calls of the step] }
 *   write(e, w)       its record of the call -> the items after [d, code]
 */
const CAPTURES = {
  addAttachment: {
    write(e, w) {
      w.held.set(e.slot, e.n);
      return e.k === 1 ? [e.particle, ...e.n] : [e.particle, ...e.n, e.k];
    },
    capture([particle, target, stiffness = 1], s) {
      const n = quantise(target, s.q);
      if (n === null || !isNum(stiffness) || stiffness < 0 || stiffness > 1) return REFUSED;
      const k = stiffness + 0;
      let slot;
      return {
        args: [particle, n.map((x) => x / s.q), k],
        done(id) {
          slot = s.grabs++;
          s.slotOf.set(id, slot);
        },
        record: () => [{ slot, particle, n, k }, `g${slot}`],
      };
    },
  },
  moveAttachment: {
    write(e, w) {
      const d = minus(e.n, w.held.get(e.slot));
      w.held.set(e.slot, e.n);
      return [e.slot, ...d];
    },
    capture([id, target], s) {
      const slot = s.slotOf.get(id);
      const n = quantise(target, s.q);
      if (slot === undefined || n === null) return REFUSED;
      // Grab or move since the last step: only the target it ends with acts in the next step.
      return { args: [id, n.map((x) => x / s.q)], same: `g${slot}`, merge: (e) => { e.n = n; }, record: () => [{ slot, n }, `g${slot}`] };
    },
  },
  removeAttachment: {
    write: (e) => [e.slot],
    capture([id], s) {
      const slot = s.slotOf.get(id);
      if (slot === undefined) return REFUSED;
      return { args: [id], done: () => s.slotOf.delete(id), record: () => [{ slot }] };
    },
  },
  setColliderTransform: {
    write(e, w) {
      const items = [e.collider, ...minus(e.n, w.colliderAt[e.collider])];
      w.colliderAt[e.collider] = e.n;
      if (!sameBits(e.rot, w.colliderRot[e.collider])) {
        items.push(...e.rot);
        w.colliderRot[e.collider] = e.rot;
      }
      return items;
    },
    capture([index, position, rotation = [0, 0, 0, 1]], s) {
      const n = quantise(position, s.q);
      const okIndex = Number.isInteger(index) && index >= 0 && index < s.scene.colliders.length;
      const okRot = Array.isArray(rotation) && rotation.length === 4 && rotation.every((v) => isNum(v) && Math.abs(v) <= 1e4)
        && Math.hypot(...rotation) >= 1e-6;
      if (n === null || !okIndex || !okRot) return REFUSED;
      const rot = rotation.map((v) => v + 0);
      // A collider's transform is set, not accumulated: the last one before a step is what the step sees.
      return {
        args: [index, n.map((x) => x / s.q), rot], same: `c${index}`,
        merge(e) {
          e.n = n;
          e.rot = rot;
        },
        record: () => [{ collider: index, n, rot }, `c${index}`],
      };
    },
  },
  setColliderMaterial: {
    write: (e) => [e.collider, ...MATERIAL.map(([key]) => e[key])],
    /** The full material (fields not given keep their value) is what is applied and recorded; values the world
     *  refuses too are refused (it throws and nothing changes, so the recording goes on). */
    capture([index, material], s) {
      const current = Number.isInteger(index) ? s.materials[index] : undefined;
      if (!current || material === null || typeof material !== 'object') return REFUSED;
      const next = {};
      for (const [key, range] of MATERIAL) {
        const v = material[key] ?? current[key];
        if (!isNum(v) || v < range.min || v > range.max) return REFUSED;
        next[key] = v + 0;
      }
      // Set, not accumulated: the last material before a step is what the step sees.
      return {
        args: [index, next], same: `f${index}`, merge: (e) => Object.assign(e, next),
        done: () => { s.materials[index] = next; }, record: () => [{ collider: index, ...next }, `f${index}`],
      };
    },
  },
  setParam: {
    write: (e) => [e.name, e.value],
    capture([name, value]) {
      if (UNRECORDED_PARAMS.has(name)) return { pass: true };
      let v;
      try {
        v = replayParamValue(name, value);
      } catch {
        const shown = { name: String(name).slice(0, 40), value: String(value).slice(0, 20) };
        return { refuse: `the parameter ${shown.name} cannot be recorded with the value ${shown.value}`, cause: { key: 'param', vars: shown } };
      }
      return { args: [name, v], record: () => [{ name, value: v }] };
    },
  },
  setEmitter: {
    write: (e) => [e.emitter, e.on],
    /** A hose switched on or off (the last switch of an emitter before a step is what it sees); any other change of
     *  an emitter cannot be carried. A bad index: the world throws, and nothing is recorded. */
    capture([index, emitter]) {
      const keys = emitter !== null && typeof emitter === 'object' ? Object.keys(emitter) : null;
      if (!keys || keys.length !== 1 || keys[0] !== 'enabled' || typeof emitter.enabled !== 'boolean') {
        return { refuse: 'changing an emitter other than switching it on or off cannot be recorded' };
      }
      const on = emitter.enabled ? 1 : 0;
      return { args: [index, { enabled: emitter.enabled }], same: `e${index}`, merge: (e) => { e.on = on; }, record: () => [{ emitter: index, on }, `e${index}`] };
    },
  },
};

/** The calls (WORLD_CALLS), each carried one with its capture and write. */
export const RECORDED_CALLS = Object.freeze(WORLD_CALLS.map((c) => (c.code ? Object.freeze({ ...c, ...CAPTURES[c.call] }) : c)));
/** The carried calls by the letter of their events, with their capture and write. */
export const RECORDED_EVENTS = new Map(RECORDED_CALLS.filter((c) => c.code).map((c) => [c.code, c]));
if (RECORDED_EVENTS.size !== REPLAY_EVENTS.size) throw new Error('record/capture.js: a carried call without its capture');

/** The recording's own state, which the captures keep (scene: the one it starts from, q: its position quantum): grabs
 *  made so far and each live attachment's slot, each collider's material as it is now (the world's description keeps
 *  it too, but describe() copies the scene). */
export function captureState(scene, q) {
  return {
    scene, q, grabs: 0, slotOf: new Map(),
    materials: scene.colliders.map((c) => Object.fromEntries(MATERIAL.map(([key]) => [key, c[key]]))),
  };
}
