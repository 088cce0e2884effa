// replay.js — recorded runs carried by links (link version 2): the replay format and its validation against a
// validated scene. The recorder and replayer (record/) write and play it.
//
// A replay is what someone did to a world built from a scene, step by step, so a link can show it again:
//   { "v": 1, "steps": N, "q": 1000, "hash": 123, "events": [[dstep, kind, ...args], ...] }
// `steps` is how many steps the recording covers; `hash` (optional) is world.hash() after them, so a page can
// tell whether it reproduced the run exactly. Every event applies between two steps: before step s+1, where s
// = the sum of the `dstep`s so far (so events are in order), and s < steps. Positions are integers in units of
// 1/q metre (q is 100, 1000, 10000 or 100000); the value applied is n / q, which every JS engine computes to
// the same double, and the recorder applied exactly that value live. Kinds (format/replay-calls.js, one row each:
// the World call, its arguments, how it is read, written and applied):
//   [d, "g", particle, x, y, z]          grab: attach `particle` to target (x, y, z) / q, stiffness 1;
//   [d, "g", particle, x, y, z, k]         with stiffness k in [0, 1]. The n-th grab (from 0) is slot n.
//   [d, "m", slot, dx, dy, dz]           move a held grab's target by (dx, dy, dz) / q
//   [d, "r", slot]                       release a held grab
//   [d, "c", collider, dx, dy, dz]       move a collider (its position: the sum of its deltas from 0, 0, 0)
//   [d, "c", collider, dx, dy, dz, qx, qy, qz, qw]   ... and set its rotation
//   [d, "f", collider, staticFriction, kineticFriction, restitution]   set a collider's material
//   [d, "p", name, value]                set a solver parameter (names and ranges: replay-calls.js REPLAY_PARAMS)
//   [d, "e", emitter, on]                turn a fluid's hose on (1) or off (0)
// validateReplay checks all of it against the scene before anything runs (indices in range, grabs held when
// moved, positions within the scene's coordinate limit, parameters and materials in range), so a replay that
// starts never fails half-way.

import { SCENE_LIMITS as L } from './limits.js';
import { array, deepFreeze, fail, integer, join, optional, record, required } from './read.js';
import { REPLAY_EVENTS, REPLAY_PARAMS, replayParamValue, replayState } from './replay-calls.js';

/** The parameters a replay may set and the check of one value (format/replay-calls.js, beside the call that sets them). */
export { REPLAY_PARAMS, replayParamValue };

export const REPLAY_VERSION = 1;
export const REPLAY_LIMITS = deepFreeze({
  maxSteps: 36000,           // 10 minutes at 60 steps per second
  maxEvents: 10000,
  maxHeld: 16,               // grabs held at once (a world reserves 16 attachments)
  quanta: [100, 1000, 10000, 100000],
  grabStiffness: { min: 0, max: 1 }, // an attachment's stiffness (pbd_World_AddAttachment)
});

const REPLAY_KEYS = ['v', 'steps', 'q', 'hash', 'events'];
const CODES = [...REPLAY_EVENTS.keys()].map((c) => `"${c}"`);
const KIND_RULE = `must be ${CODES.slice(0, -1).join(', ')} or ${CODES.at(-1)}`;

/**
 * Reads an untrusted replay against a validated scene. Returns { replay: a new normalised copy of the wire
 * form, events: the events expanded to absolute values ({ step, kind: 'grab' | 'move' | 'release' | 'collider'
 * | 'param', ... }) }. Throws SceneError naming the path (under `path`, default "replay") of the first bad value.
 * Grabbed particles are checked against `particles`: the count of the world it replays on (the engine's: a replayer
 * and a recorder pass it); without a world (a link read before any wasm) the scene's limit, maxParticles, which
 * every world's count is at most, and the replayer checks the exact count before a step runs.
 */
export function readReplay(input, scene, path = 'replay', particles = L.maxParticles) {
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
  const delta = (n, p) => integer(n, p, -2 * maxN, 2 * maxN);
  // What the events' readers (format/replay-calls.js) check against and keep track of.
  const r = {
    ...replayState(scene), scene, q, particles, limits: R, grabs: 0,
    coord: (n, p) => integer(n, p, -maxN, maxN),
    heldSlot(value, p) {
      if (!(Number.isInteger(value) && r.held.has(value))) {
        const now = r.held.size === 0 ? 'none is held' : `held: ${[...r.held.keys()].join(', ')}`;
        fail(p, `must be a grab that is held at this step (${now})`, value);
      }
      return value + 0;
    },
    colliderIndex(value, p) {
      if (colliders.length === 0) fail(p, 'must be a collider index, but the scene has no colliders', value);
      return integer(value, p, 0, colliders.length - 1);
    },
    moved: (from, items, at, p) => from.map((x, k) => {
      const n = x + delta(items[at + k], join(p, at + k));
      if (Math.abs(n) > maxN) fail(join(p, at + k), `moves coordinate ${k} to ${n / q}, outside ±${L.maxCoord}`, items[at + k]);
      return n + 0;
    }),
  };
  let step = 0;
  const wire = [];
  const events = [];
  for (let i = 0; i < list.length; i++) {
    const p = join(eventsPath, i);
    const items = array(list[i], p, 2, 10, 'an event [step delta, kind, ...]');
    const d = integer(items[0], join(p, 0), 0, R.maxSteps);
    step += d;
    if (step >= steps) fail(join(p, 0), `puts the event at step ${step}, not before replay.steps (${steps})`, d);
    const code = items[1];
    const call = typeof code === 'string' ? REPLAY_EVENTS.get(code) : undefined;
    if (!call) fail(join(p, 1), KIND_RULE, code);
    if (!call.lengths.includes(items.length)) fail(p, `must have ${call.lengths.join(' or ')} items for kind "${code}"`, list[i]);
    const [event, out] = call.read(items, p, r);
    events.push({ step, kind: call.kind, ...event });
    wire.push([d + 0, code, ...out]);
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

