// replay.js — recorded runs carried by links (link version 2): the replay format and its validation against a
// validated scene. The recorder and replayer (record/) write and play it.
//
// A replay is what someone did to a world built from a scene, step by step, so a link can show it again:
//   { "v": 1, "steps": N, "q": 1000, "hash": 123, "events": [[dstep, kind, ...args], ...] }
// `steps` is how many steps the recording covers; `hash` (optional) is world.hash() after them, so a page can
// tell whether it reproduced the run exactly. Every event applies between two steps: before step s+1, where s
// = the sum of the `dstep`s so far (so events are in order), and s < steps. Positions are integers in units of
// 1/q metre (q is 100, 1000, 10000 or 100000); the value applied is n / q, which every JS engine computes to
// the same double, and the recorder applied exactly that value live. Kinds:
//   [d, "g", particle, x, y, z]          grab: attach `particle` to target (x, y, z) / q, stiffness 1;
//   [d, "g", particle, x, y, z, k]         with stiffness k in [0, 1]. The n-th grab (from 0) is slot n.
//   [d, "m", slot, dx, dy, dz]           move a held grab's target by (dx, dy, dz) / q
//   [d, "r", slot]                       release a held grab
//   [d, "c", collider, dx, dy, dz]       move a collider: its position (starting from 0, 0, 0 for the first
//                                        event of that collider, so the first one is absolute) plus (dx, dy, dz)
//   [d, "c", collider, dx, dy, dz, qx, qy, qz, qw]   ... and set its rotation (an exact quaternion); without
//                                        one, the rotation the previous event of that collider set (at first the
//                                        scene's) is passed again
//   [d, "f", collider, staticFriction, kineticFriction, restitution]   set a collider's material (friction and
//                                        bounce), within the ranges of a scene's colliders
//   [d, "p", name, value]                set a solver parameter (names and ranges: REPLAY_PARAMS)
//   [d, "e", emitter, on]                turn a fluid's hose on (1) or off (0): World.setEmitter(emitter,
//                                        { enabled }), emitters numbered in scene order over the fluid objects
// validateReplay checks all of it against the scene before anything runs (indices in range, grabs held when
// moved, positions within the scene's coordinate limit, parameters and materials in range), so a replay that
// starts never fails half-way.

import { SCENE_PARAMS, fluidRatioProblem } from '../engine/params.js';
import { sceneParticleCount } from '../objects/index.js';
import { sceneEmitters } from '../engine/world-fluid.js';
import { SCENE_LIMITS as L } from './limits.js';
import { array, deepFreeze, fail, integer, join, number, optional, record, required } from './read.js';

export const REPLAY_VERSION = 1;
export const REPLAY_LIMITS = deepFreeze({
  maxSteps: 36000,           // 10 minutes at 60 steps per second
  maxEvents: 10000,
  maxHeld: 16,               // grabs held at once (a world reserves 16 attachments)
  quanta: [100, 1000, 10000, 100000],
  grabStiffness: { min: 0, max: 1 }, // an attachment's stiffness (pbd_World_AddAttachment)
});

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

const REPLAY_KEYS = ['v', 'steps', 'q', 'hash', 'events'];
const EVENT_LENGTHS = { g: [6, 7], m: [6], r: [3], c: [6, 10], f: [6], p: [4], e: [4] };

/** Checks one replay parameter value (also used by the recorder before it records one). Returns the value or throws. */
export function replayParamValue(name, value, path = 'value', namePath = path) {
  if (typeof name !== 'string' || !Object.hasOwn(REPLAY_PARAMS, name)) {
    fail(namePath, `must name a parameter a replay may set (${REPLAY_PARAM_LIST})`, name);
  }
  const p = REPLAY_PARAMS[name];
  return p.integer ? integer(value, path, p.min, p.max) : number(value, path, p.min, p.max);
}

/**
 * Reads an untrusted replay against a validated scene. Returns { replay: a new normalised copy of the wire
 * form, events: the events expanded to absolute values ({ step, kind: 'grab' | 'move' | 'release' | 'collider'
 * | 'param', ... }) }. Throws SceneError naming the path (under `path`, default "replay") of the first bad value.
 * Grabbed particles are checked against `particles`: the scene's count, which for a mesh body is a bound (its
 * exact count needs the engine), so a replayer passes the count of the world it replays on.
 */
export function readReplay(input, scene, path = 'replay', particles = sceneParticleCount(scene)) {
  const get = record(input, path, REPLAY_KEYS);
  const v = get('v');
  if (v !== REPLAY_VERSION) {
    fail(join(path, 'v'), `must be ${REPLAY_VERSION} (the only replay version this page reads)`, v);
  }
  const R = REPLAY_LIMITS;
  const steps = integer(required(get, 'steps', path), join(path, 'steps'), 0, R.maxSteps);
  const q = required(get, 'q', path);
  if (!R.quanta.includes(q)) fail(join(path, 'q'), `must be one of ${R.quanta.join(', ')}`, q);
  const hash = optional(get('hash'), undefined, (h) => integer(h, join(path, 'hash'), 0, 0xffffffff));
  const eventsPath = join(path, 'events');
  const list = array(required(get, 'events', path), eventsPath, 0, R.maxEvents, `an array of at most ${R.maxEvents} events`);

  const colliders = scene.colliders;
  const maxN = L.maxCoord * q;                    // |n| <= maxN: within the scene's coordinate limit
  const coord = (n, p) => integer(n, p, -maxN, maxN);
  const delta = (n, p) => integer(n, p, -2 * maxN, 2 * maxN);
  const held = new Map();                         // slot -> [x, y, z] (integers)
  const colliderAt = colliders.map(() => [0, 0, 0]);
  const colliderRot = colliders.map((c) => [...(c.rotation ?? [0, 0, 0, 1])]);
  // The fluid's spacing and smoothing radius as the replay's "p" events leave them: a pair the World would refuse
  // (engine/params.js FLUID_RATIO) is refused here, before anything runs.
  const fluid = { 'fluid.spacing': scene.fluid.spacing, 'fluid.smoothingRadius': scene.fluid.smoothingRadius };
  let grabs = 0, step = 0;
  const wire = [];
  const events = [];
  const heldSlot = (value, p) => {
    if (!(Number.isInteger(value) && held.has(value))) {
      const now = held.size === 0 ? 'none is held' : `held: ${[...held.keys()].join(', ')}`;
      fail(p, `must be a grab that is held at this step (${now})`, value);
    }
    return value + 0;
  };
  const colliderIndex = (value, p) => {
    if (colliders.length === 0) fail(p, 'must be a collider index, but the scene has no colliders', value);
    return integer(value, p, 0, colliders.length - 1);
  };
  const moved = (from, items, at, p) => from.map((x, k) => {
    const n = x + delta(items[at + k], join(p, at + k));
    if (Math.abs(n) > maxN) fail(join(p, at + k), `moves coordinate ${k} to ${n / q}, outside ±${L.maxCoord}`, items[at + k]);
    return n + 0;
  });
  for (let i = 0; i < list.length; i++) {
    const p = join(eventsPath, i);
    const items = array(list[i], p, 2, 10, 'an event [step delta, kind, ...]');
    const d = integer(items[0], join(p, 0), 0, R.maxSteps);
    step += d;
    if (step >= steps) fail(join(p, 0), `puts the event at step ${step}, not before replay.steps (${steps})`, d);
    const kind = items[1];
    if (typeof kind !== 'string' || !Object.hasOwn(EVENT_LENGTHS, kind)) fail(join(p, 1), 'must be "g", "m", "r", "c", "f", "p" or "e"', kind);
    const lengths = EVENT_LENGTHS[kind];
    if (!lengths.includes(items.length)) fail(p, `must have ${lengths.join(' or ')} items for kind "${kind}"`, list[i]);
    const out = [d + 0, kind];
    if (kind === 'g') {
      const particle = integer(items[2], join(p, 2), 0, particles - 1);
      if (held.size >= R.maxHeld) fail(p, `would hold more than ${R.maxHeld} grabs at once`, list[i]);
      const n = [3, 4, 5].map((k) => coord(items[k], join(p, k)));
      const stiffness = items.length === 7 ? number(items[6], join(p, 6), R.grabStiffness.min, R.grabStiffness.max) : 1;
      held.set(grabs, n);
      events.push({ step, kind: 'grab', slot: grabs, particle, target: n.map((x) => x / q), stiffness });
      grabs += 1;
      out.push(particle, ...n);
      if (items.length === 7) out.push(stiffness);
    } else if (kind === 'm') {
      const slot = heldSlot(items[2], join(p, 2));
      const n = moved(held.get(slot), items, 3, p);
      held.set(slot, n);
      events.push({ step, kind: 'move', slot, target: n.map((x) => x / q) });
      out.push(slot, items[3] + 0, items[4] + 0, items[5] + 0);
    } else if (kind === 'r') {
      const slot = heldSlot(items[2], join(p, 2));
      held.delete(slot);
      events.push({ step, kind: 'release', slot });
      out.push(slot);
    } else if (kind === 'f') {
      const index = colliderIndex(items[2], join(p, 2));
      const staticFriction = number(items[3], join(p, 3), L.colliderFriction.min, L.colliderFriction.max);
      const kineticFriction = number(items[4], join(p, 4), L.colliderFriction.min, L.colliderFriction.max);
      const restitution = number(items[5], join(p, 5), L.colliderRestitution.min, L.colliderRestitution.max);
      events.push({ step, kind: 'material', collider: index, staticFriction, kineticFriction, restitution });
      out.push(index, staticFriction, kineticFriction, restitution);
    } else if (kind === 'c') {
      const index = colliderIndex(items[2], join(p, 2));
      const n = moved(colliderAt[index], items, 3, p);
      colliderAt[index] = n;
      out.push(index, items[3] + 0, items[4] + 0, items[5] + 0);
      if (items.length === 10) {
        const rp = join(p, 6);
        const rot = [6, 7, 8, 9].map((k) => number(items[k], join(p, k), -1e4, 1e4));
        if (Math.hypot(...rot) < 1e-6) fail(rp, 'must start a non-zero quaternion [x, y, z, w]', rot);
        colliderRot[index] = rot;
        out.push(...rot);
      }
      events.push({ step, kind: 'collider', collider: index, position: n.map((x) => x / q), rotation: [...colliderRot[index]] });
    } else if (kind === 'e') {
      const count = sceneEmitters(scene).length;
      if (count === 0) fail(join(p, 2), 'must be an emitter index, but the scene has no emitters', items[2]);
      const emitter = integer(items[2], join(p, 2), 0, count - 1);
      const on = integer(items[3], join(p, 3), 0, 1);
      events.push({ step, kind: 'emitter', emitter, enabled: on === 1 });
      out.push(emitter, on);
    } else {
      const name = items[2];
      const value = replayParamValue(name, items[3], join(p, 3), join(p, 2));
      if (Object.hasOwn(fluid, name)) {
        fluid[name] = value;
        const problem = fluidRatioProblem(fluid['fluid.spacing'], fluid['fluid.smoothingRadius']);
        if (problem) fail(join(p, 3), `sets ${name} so that ${problem}`, value);
      }
      events.push({ step, kind: 'param', name, value });
      out.push(name, value);
    }
    wire.push(out);
  }
  const replay = { v: REPLAY_VERSION, steps, q };
  if (hash !== undefined) replay.hash = hash;
  replay.events = wire;
  return { replay, events };
}

/** Validates an untrusted replay against a validated scene; returns a new normalised copy. @throws {SceneError} */
export function validateReplay(input, scene) {
  return readReplay(input, scene).replay;
}

