// replay-calls.js — the World calls that change a run, declared once, one row each: for a call a replay carries, its
// event (the letter on the wire, its arguments, how the recorder captures a call, how the format reads its events
// and the recorder writes them, how a replayer applies them); for one it cannot, why (the recorder then ends the
// recording before it). The recorder (record/recorder.js) wraps these calls and names none, the replayer
// (record/replayer.js) applies their events and ends a replay when one of them is called under it (`ends`: what it
// says was changed), and format/replay.js reads their events; the parameters a replay may set are here too.
//
// A replay's events are [d, code, ...args] (format/replay.js): positions are integers n in units of 1/q metre,
// applied as n / q; the reading state `r` (replayState, with readReplay's checks) and the writing state `w`
// (replayState) follow grabs and colliders from event to event, as their deltas need.

import { sceneParamProblem } from '../engine/param-relations.js';
import { PARAM_TABLE, SCENE_PARAMS, fluidRatioProblem } from '../engine/params.js';
import { sceneEmitters } from '../objects/index.js';
import { SCENE_LIMITS as L } from './limits.js';
import { deepFreeze, fail, integer, join, number } from './read.js';

/** Parameters that change nothing in the motion (instruments such as recordConvergence: no place in a scene): setting
 *  one is neither recorded nor ends a replay. */
export const UNRECORDED_PARAMS = new Set(PARAM_TABLE.filter((p) => p.scene === '').map((p) => p.name));
/** A collider's material: what setColliderMaterial sets and an "f" event carries, with the scene's ranges. */
export const MATERIAL = [
  ['staticFriction', L.colliderFriction],
  ['kineticFriction', L.colliderFriction],
  ['restitution', L.colliderRestitution],
];

/** Parameters a replay may set ("p" events): every parameter with a place in the scene format, with the values
 *  the scene format (the engine's table) allows. */
export const REPLAY_PARAMS = deepFreeze(Object.fromEntries(SCENE_PARAMS.map((p) => [p.name, p])));

/** REPLAY_PARAMS' names for a message: each plain name, and each dotted family once ("fluid.* (10)", its members
 *  are in engine.paramNames and docs/api.md), so the message stays short as the table grows (a person reads it). */
const REPLAY_PARAM_LIST = (() => {
  const groups = new Map();
  for (const name of Object.keys(REPLAY_PARAMS)) {
    const dot = name.indexOf('.');
    const head = dot < 0 ? name : name.slice(0, dot);
    if (!groups.has(head)) groups.set(head, []);
    if (dot >= 0) groups.get(head).push(name.slice(dot + 1));
  }
  return [...groups].map(([head, rest]) => (rest.length === 0 ? head : `${head}.* (${rest.length})`)).join(', ');
})();

/** Checks one replay parameter value (also used by the recorder before it records one). Returns the value or throws. */
export function replayParamValue(name, value, path = 'value', namePath = path) {
  if (typeof name !== 'string' || !Object.hasOwn(REPLAY_PARAMS, name)) {
    fail(namePath, `must name a parameter a replay may set (${REPLAY_PARAM_LIST})`, name);
  }
  const p = REPLAY_PARAMS[name];
  return p.integer ? integer(value, path, p.min, p.max) : number(value, path, p.min, p.max);
}

/**
 * The calls, in the order of their letters in a message. A row: call (the World method), and either
 *   code, kind, args, more?   its event: the letter, the expanded event's kind, the names of its arguments (`more`:
 *                             those it may add at the end), so it has 2 + args (+ more) items
 *   read(items, p, r)         the format: checks the items (p: their path) -> [event fields, normalised items]
 *   (capture and write, the recorder's: record/capture.js, which a page that only plays replays does not load)
 *   apply(e, rep)             the replayer: the call, made again (rep.world: the world; rep.original: its calls the
 *                             replayer wraps; rep.ids: slot -> attachment id); end?(rep): what it undoes when a
 *                             replay ends (the grabs it still holds)
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
    apply: (e, rep) => rep.ids.set(e.slot, rep.world.addAttachment(e.particle, e.target, e.stiffness)),
    /** A replay's end (rep: the replayer): the grabs it still holds are released. */
    end(rep) {
      for (const id of rep.ids.values()) {
        try { rep.world.removeAttachment(id); } catch { /* already gone */ }
      }
      rep.ids.clear();
    },
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
    apply: (e, rep) => rep.original.setColliderMaterial(e.collider, Object.fromEntries(MATERIAL.map(([key]) => [key, e[key]]))),
  },
  {
    // set a parameter (names and ranges: format/replay.js REPLAY_PARAMS)
    call: 'setParam', code: 'p', kind: 'param', args: ['name', 'value'], ends: 'setting', ignored: ([name]) => UNRECORDED_PARAMS.has(name),
    read(items, p, r) {
      const name = items[2];
      const value = replayParamValue(name, items[3], join(p, 3), join(p, 2));
      if (name === 'thickness') { // against the scene's chains and cloths, as World.setParam will check it
        const problem = sceneParamProblem(r.scene, { name }, value);
        if (problem) fail(join(p, 3), `sets thickness past what the scene allows: ${problem}`, value);
      }
      // The fluid's spacing and smoothing radius as the replay's events leave them: a pair the World would refuse
      // (engine/params.js FLUID_RATIO) is refused here, before anything runs.
      if (Object.hasOwn(r.fluid, name)) {
        r.fluid[name] = value;
        const problem = fluidRatioProblem(r.fluid['fluid.spacing'], r.fluid['fluid.smoothingRadius']);
        if (problem) fail(join(p, 3), `sets ${name} so that ${problem}`, value);
      }
      return [{ name, value }, [name, value]];
    },
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

/** What grabs, colliders and the fluid's parameters are between events, for the deltas a replay carries and the
 *  checks its reader makes: grabs held (slot -> [x, y, z] integers), each collider's position (integers, from 0, 0, 0)
 *  and rotation (at first the scene's), the fluid's spacing and smoothing radius. */
export function replayState(scene) {
  return {
    held: new Map(),
    colliderAt: scene.colliders.map(() => [0, 0, 0]),
    colliderRot: scene.colliders.map((c) => [...(c.rotation ?? [0, 0, 0, 1])]),
    fluid: { 'fluid.spacing': scene.fluid.spacing, 'fluid.smoothingRadius': scene.fluid.smoothingRadius },
  };
}
