// replay-calls.js — the World calls that change a run, declared once, one row each: for a call a replay carries, its
// event (the letter on the wire, its arguments, how the format reads them and the recorder writes them, how a
// replayer applies them); for one it cannot, why (the recorder then ends the recording before it). The recorder
// (record/recorder.js) wraps these calls, the replayer (record/replayer.js) applies their events and ends a replay
// when one of them is called under it (`ends`: what it says was changed), and format/replay.js reads their events.
//
// A replay's events are [d, code, ...args] (format/replay.js): positions are integers n in units of 1/q metre,
// applied as n / q; the reading state `r` (replayState, with readReplay's checks) and the writing state `w`
// (replayState) follow grabs and colliders from event to event, as their deltas need.

import { PARAM_TABLE } from '../engine/params.js';
import { sceneEmitters } from '../objects/index.js';
import { SCENE_LIMITS as L } from './limits.js';
import { fail, integer, join, number } from './read.js';

/** Parameters that change nothing in the motion (instruments such as recordConvergence: no place in a scene): setting
 *  one is neither recorded nor ends a replay. */
export const UNRECORDED_PARAMS = new Set(PARAM_TABLE.filter((p) => p.scene === '').map((p) => p.name));
/** A collider's material: what setColliderMaterial sets and an "f" event carries, with the scene's ranges. */
export const MATERIAL = [
  ['staticFriction', L.colliderFriction],
  ['kineticFriction', L.colliderFriction],
  ['restitution', L.colliderRestitution],
];

const minus = (a, b) => a.map((v, k) => v - b[k] + 0);
const sameBits = (a, b) => a.length === b.length && a.every((v, k) => Object.is(v, b[k]));

/**
 * The calls, in the order of their letters in a message. A row: call (the World method), and either
 *   code, kind, args, more?   its event: the letter, the expanded event's kind, the names of its arguments (`more`:
 *                             those it may add at the end), so it has 2 + args (+ more) items
 *   read(items, p, r)         the format: checks the items (p: their path) -> [event fields, normalised items]
 *   write(e, w)               the recorder: its record of the call -> the items after [d, code]
 *   apply(e, rep)             the replayer: the call, made again (rep.world: the world; rep.original: its calls the
 *                             replayer wraps)
 * or unrecorded (the recorder's reason) and cause (the page's key for it: StopCause); and ends: what a replay says
 * was changed when the call is made under it ('setting', 'collider', 'particle'; `endsAs` its own sentence), absent
 * when the call leaves a replay running (grabs are the app's to hold back).
 */
export const WORLD_CALLS = Object.freeze([
  {
    // grab: attach `particle` to target (x, y, z) / q, stiffness k in [0, 1] (1 when left out). The n-th grab (from
    // 0) is slot n.
    call: 'addAttachment', code: 'g', kind: 'grab', args: ['particle', 'x', 'y', 'z'], more: ['stiffness'],
    read(items, p, r) {
      const particle = integer(items[2], join(p, 2), 0, r.particles - 1);
      if (r.held.size >= r.limits.maxHeld) fail(p, `would hold more than ${r.limits.maxHeld} grabs at once`, items);
      const n = [3, 4, 5].map((k) => r.coord(items[k], join(p, k)));
      const k = items.length === 7 ? number(items[6], join(p, 6), r.limits.grabStiffness.min, r.limits.grabStiffness.max) : 1;
      r.held.set(r.grabs, n);
      const event = { slot: r.grabs, particle, target: n.map((x) => x / r.q), stiffness: k };
      r.grabs += 1;
      return [event, items.length === 7 ? [particle, ...n, k] : [particle, ...n]];
    },
    write(e, w) {
      w.held.set(e.slot, e.n);
      return e.k === 1 ? [e.particle, ...e.n] : [e.particle, ...e.n, e.k];
    },
    apply: (e, rep) => rep.ids.set(e.slot, rep.world.addAttachment(e.particle, e.target, e.stiffness)),
  },
  {
    // move a held grab's target by (dx, dy, dz) / q
    call: 'moveAttachment', code: 'm', kind: 'move', args: ['slot', 'dx', 'dy', 'dz'],
    read(items, p, r) {
      const slot = r.heldSlot(items[2], join(p, 2));
      const n = r.moved(r.held.get(slot), items, 3, p);
      r.held.set(slot, n);
      return [{ slot, target: n.map((x) => x / r.q) }, [slot, items[3] + 0, items[4] + 0, items[5] + 0]];
    },
    write(e, w) {
      const d = minus(e.n, w.held.get(e.slot));
      w.held.set(e.slot, e.n);
      return [e.slot, ...d];
    },
    apply: (e, rep) => rep.world.moveAttachment(rep.ids.get(e.slot), e.target),
  },
  {
    // release a held grab
    call: 'removeAttachment', code: 'r', kind: 'release', args: ['slot'],
    read(items, p, r) {
      const slot = r.heldSlot(items[2], join(p, 2));
      r.held.delete(slot);
      return [{ slot }, [slot]];
    },
    write: (e) => [e.slot],
    apply(e, rep) {
      rep.world.removeAttachment(rep.ids.get(e.slot));
      rep.ids.delete(e.slot);
    },
  },
  {
    // move a collider: its position (starting from 0, 0, 0 for the first event of that collider, so the first one
    // is absolute) plus (dx, dy, dz) / q, and set its rotation (an exact quaternion); without one, the rotation the
    // previous event of that collider set (at first the scene's) is passed again
    call: 'setColliderTransform', code: 'c', kind: 'collider', args: ['collider', 'dx', 'dy', 'dz'], more: ['qx', 'qy', 'qz', 'qw'],
    read(items, p, r) {
      const index = r.colliderIndex(items[2], join(p, 2));
      const n = r.moved(r.colliderAt[index], items, 3, p);
      r.colliderAt[index] = n;
      const out = [index, items[3] + 0, items[4] + 0, items[5] + 0];
      if (items.length === 10) {
        const rot = [6, 7, 8, 9].map((k) => number(items[k], join(p, k), -1e4, 1e4));
        if (Math.hypot(...rot) < 1e-6) fail(join(p, 6), 'must start a non-zero quaternion [x, y, z, w]', rot);
        r.colliderRot[index] = rot;
        out.push(...rot);
      }
      return [{ collider: index, position: n.map((x) => x / r.q), rotation: [...r.colliderRot[index]] }, out];
    },
    write(e, w) {
      const items = [e.collider, ...minus(e.n, w.colliderAt[e.collider])];
      w.colliderAt[e.collider] = e.n;
      if (!sameBits(e.rot, w.colliderRot[e.collider])) {
        items.push(...e.rot);
        w.colliderRot[e.collider] = e.rot;
      }
      return items;
    },
    apply: (e, rep) => rep.world.setColliderTransform(e.collider, e.position, e.rotation),
  },
  {
    // set a collider's material (friction and bounce), within the ranges of a scene's colliders
    call: 'setColliderMaterial', code: 'f', kind: 'material', args: ['collider', ...MATERIAL.map(([key]) => key)], ends: 'collider',
    read(items, p, r) {
      const index = r.colliderIndex(items[2], join(p, 2));
      const values = MATERIAL.map(([, range], k) => number(items[3 + k], join(p, 3 + k), range.min, range.max));
      return [{ collider: index, ...Object.fromEntries(MATERIAL.map(([key], k) => [key, values[k]])) }, [index, ...values]];
    },
    write: (e) => [e.collider, ...MATERIAL.map(([key]) => e[key])],
    apply: (e, rep) => rep.original.setColliderMaterial(e.collider, Object.fromEntries(MATERIAL.map(([key]) => [key, e[key]]))),
  },
  {
    // set a parameter (names and ranges: format/replay.js REPLAY_PARAMS)
    call: 'setParam', code: 'p', kind: 'param', args: ['name', 'value'], ends: 'setting', ignored: ([name]) => UNRECORDED_PARAMS.has(name),
    read(items, p, r) {
      const name = items[2];
      const value = r.param(name, items[3], join(p, 3), join(p, 2));
      return [{ name, value }, [name, value]];
    },
    write: (e) => [e.name, e.value],
    apply(e, rep) {
      rep.original.setParam(e.name, e.value); // the same World method; the wrapper guards against others
      rep.onParam?.(e.name, e.value);
    },
  },
  {
    // turn a fluid's hose on (1) or off (0): World.setEmitter(emitter, { enabled }), emitters numbered in scene
    // order over the fluid objects
    call: 'setEmitter', code: 'e', kind: 'emitter', args: ['emitter', 'on'], ends: 'setting', endsAs: 'a hose was switched',
    read(items, p, r) {
      const count = sceneEmitters(r.scene).length;
      if (count === 0) fail(join(p, 2), 'must be an emitter index, but the scene has no emitters', items[2]);
      const emitter = integer(items[2], join(p, 2), 0, count - 1);
      const on = integer(items[3], join(p, 3), 0, 1);
      return [{ emitter, enabled: on === 1 }, [emitter, on]];
    },
    write: (e) => [e.emitter, e.on],
    apply: (e, rep) => rep.original.setEmitter(e.emitter, { enabled: e.enabled }),
  },
  { call: 'setObjectStiffness', unrecorded: 'setting one object\'s stiffness cannot be recorded', ends: 'setting' },
  { call: 'setObjectPlasticity', unrecorded: 'setting a body\'s plasticity cannot be recorded', ends: 'setting' },
  { call: 'setObjectRadius', unrecorded: 'setting a body\'s particle radius cannot be recorded', ends: 'setting' },
  { call: 'setPosition', unrecorded: 'setting a particle position cannot be recorded', cause: 'position', ends: 'particle' },
  { call: 'setVelocity', unrecorded: 'setting a particle velocity cannot be recorded', cause: 'velocity', ends: 'particle' },
  // World.setObjectMass goes through setMass, so these see every particle it changes.
  { call: 'setMass', unrecorded: 'changing masses cannot be recorded', cause: 'mass', ends: 'particle' },
  { call: 'setInvMass', unrecorded: 'changing masses cannot be recorded', cause: 'mass', ends: 'particle' },
].map((row) => Object.freeze({ ...row, lengths: row.code && [2 + row.args.length, ...(row.more ? [2 + row.args.length + row.more.length] : [])] })));

/** The calls a replay carries, by the letter of their events. */
export const REPLAY_EVENTS = new Map(WORLD_CALLS.filter((c) => c.code).map((c) => [c.code, c]));
/** The calls a replay carries, by the kind of their expanded events. */
export const EVENT_KINDS = new Map(WORLD_CALLS.filter((c) => c.code).map((c) => [c.kind, c]));

/** What grabs and colliders are between events, for the deltas a replay carries: grabs held (slot -> [x, y, z]
 *  integers), each collider's position (integers, from 0, 0, 0) and rotation (at first the scene's). */
export function replayState(scene) {
  return {
    held: new Map(),
    colliderAt: scene.colliders.map(() => [0, 0, 0]),
    colliderRot: scene.colliders.map((c) => [...(c.rotation ?? [0, 0, 0, 1])]),
  };
}
