// scene.js — MiniPBD scene description v1: strict validation, normalisation, built-in scenes.
//
// Usage (Node 20 or browser, no dependencies):
//   import { validateScene, SceneError, builtinScenes, defaultScene, sceneParticleCount, SCENE_LIMITS } from './scene.js';
//   try { const scene = validateScene(JSON.parse(text)); world = pbd.createWorld(scene); }
//   catch (e) { if (e instanceof SceneError) showText(e.message); else throw e; }   // e.path = "objects[1].resolution[0]"
//   const replay = validateReplay(input.replay, scene);   // a recorded run (links, recorder.js): see "replays" below
//
// validateScene(input) never mutates or returns `input`: it builds a NEW object holding every field of the
// schema (defaults filled in), so callers can rely on the full shape without `?? default` everywhere.
// Input is untrusted (it arrives in share links), hence:
//   - only the known schema is walked (no generic recursion: deeply nested junk cannot blow the stack);
//   - only own data properties are read (Object.hasOwn + descriptors: no inherited values, no getters);
//   - "__proto__", "constructor" and "prototype" keys are refused (JSON.parse makes "__proto__" an own key);
//   - array lengths are checked before any loop over them (a sparse array of length 1e9 is refused at once);
//   - offending values are previewed with a bounded renderer, never a full JSON.stringify.
// Built-in scenes are stored already normalised and deep-frozen; defaultScene() returns a fresh mutable copy.

import { PARAMS, SCENE_PARAMS, placeFields, fieldDefault } from './engine/params.js';

/**
 * The limits validateScene applies that are the scene format's own (sizes, counts, the camera, colliders). The
 * solver, ground and wind sections and the object stiffnesses are engine parameters: their ranges and defaults
 * are the engine's parameter table (engine/params.js, generated from src/minipbd.h), not written here.
 */
export const SCENE_LIMITS = deepFreeze({
  maxObjects: 64,
  maxParticles: 262144,        // over all objects
  maxNameLength: 80,           // UTF-16 code units (String.prototype.length)
  maxCoord: 1e4,               // |x|,|y|,|z| of chain start/end, cloth origin, camera target
  maxPitch: 1.55,              // exclusive: |pitch| < 1.55 rad
  distance: { min: 0.05, max: 1e4 },
  fov: { min: 10, max: 120 },
  segments: { min: 1, max: 10000 },
  resolution: { min: 2, max: 1024 },
  maxSize: 1e4,                // cloth width/height, exclusive 0
  maxMass: 1e6,                // kg per particle, exclusive 0
  maxPins: 10000,              // entries per object
  maxMassRanges: 1000,         // entries per object
  maxColliders: 16,
  colliderSize: { minExclusive: 0, max: 1e4 }, // radius, halfHeight, halfExtents
  // A collider's material (pbd_World_SetColliderMaterial's ranges; colliders are not parameters).
  colliderFriction: { min: 0, max: 10 },
  colliderRestitution: { min: 0, max: 1 },
});

const FORMAT = 'minipbd-scene';
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const L = SCENE_LIMITS;

/** A refused scene. `.path` locates the bad value ("" = the scene itself), the message quotes path, rule, value. */
export class SceneError extends Error {
  constructor(path, message) {
    super(message);
    this.name = 'SceneError';
    this.path = path;
  }
}

// ---------------------------------------------------------------- error helpers

function label(path) { return path === '' ? 'scene' : path; }

function fail(path, rule, value) {
  throw new SceneError(path, `${label(path)} ${rule}, got ${showValue(value)}`);
}

/** Bounded preview of any value (<= 40 chars). Never walks more than a few levels / elements. */
function showValue(value) {
  let s;
  try { s = preview(value, 0); } catch { s = Object.prototype.toString.call(value); }
  return s.length > 40 ? s.slice(0, 39) + '…' : s;
}

function preview(v, depth) {
  switch (typeof v) {
    case 'undefined': return 'undefined';
    case 'number': return Object.is(v, -0) ? '-0' : String(v);   // String keeps NaN/Infinity (JSON would say null)
    case 'bigint': return `${v}n`;
    case 'boolean': return String(v);
    case 'string': return JSON.stringify(v.length > 41 ? v.slice(0, 41) : v);
    case 'symbol': return 'Symbol';
    case 'function': return 'function';
  }
  if (v === null) return 'null';
  const isArray = Array.isArray(v);
  if (depth >= 3) return isArray ? '[…]' : '{…}';
  const parts = [];
  const keys = isArray ? null : Object.keys(v);
  const n = isArray ? v.length : keys.length;
  // Stop after a few entries: the output is cut to 40 chars anyway.
  for (let i = 0; i < n && i < 8; i++) {
    const k = isArray ? String(i) : keys[i];
    const d = Object.getOwnPropertyDescriptor(v, k);
    const item = d === undefined ? '' : ('value' in d ? preview(d.value, depth + 1) : 'getter');
    parts.push(isArray ? item : `${JSON.stringify(k.slice(0, 41))}:${item}`);
  }
  if (n > 8) parts.push('…');
  return isArray ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

function join(path, key) {
  if (typeof key === 'number') return `${path}[${key}]`;
  const k = key.length > 40 ? key.slice(0, 40) + '…' : key;
  if (/^[A-Za-z_$][\w$]*$/.test(k)) return path === '' ? k : `${path}.${k}`;
  return `${path}[${JSON.stringify(k)}]`;
}

// ---------------------------------------------------------------- readers

/** Checks `value` is a plain record with only `allowed` own keys; returns a getter for own data values. */
function record(value, path, allowed, what = 'an object') {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, `must be ${what}`, value);
  // Reflect.ownKeys also sees symbol and non-enumerable keys, which Object.keys would silently skip.
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') fail(path, 'must not have symbol keys', value);
    const p = join(path, key);
    if (FORBIDDEN_KEYS.has(key)) throw new SceneError(p, `forbidden key ${p} (keys named __proto__, constructor or prototype are refused)`);
    if (!allowed.includes(key)) throw new SceneError(p, `unknown key ${p} (allowed here: ${allowed.join(', ')})`);
    if (!('value' in Object.getOwnPropertyDescriptor(value, key))) fail(p, 'must be a plain value, not a getter', undefined);
  }
  return (key) => (Object.hasOwn(value, key) ? value[key] : undefined);
}

/** Checks `value` is an array with length in [min, max]; returns its elements (own data values only). */
function array(value, path, min, max, what) {
  if (!Array.isArray(value)) fail(path, `must be ${what}`, value);
  if (value.length < min || value.length > max) fail(path, `must be ${what}`, value);
  const out = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const d = Object.getOwnPropertyDescriptor(value, i);   // undefined for holes in sparse arrays
    if (d === undefined || !('value' in d)) fail(join(path, i), 'must be present (no holes or getters)', undefined);
    out[i] = d.value;
  }
  return out;
}

function fmtRange(min, max, minExcl, maxExcl) {
  return `${minExcl ? '(' : '['}${min}, ${max}${maxExcl ? ')' : ']'}`;
}

/** Finite number in a range; -0 becomes 0 so JSON round trips are exact. */
function number(value, path, min, max, { minExcl = false, maxExcl = false } = {}) {
  const ok = typeof value === 'number' && Number.isFinite(value)
    && (minExcl ? value > min : value >= min) && (maxExcl ? value < max : value <= max);
  if (!ok) fail(path, `must be a number in ${fmtRange(min, max, minExcl, maxExcl)}`, value);
  return value + 0;
}

function finite(value, path) {
  if (!(typeof value === 'number' && Number.isFinite(value))) fail(path, 'must be a finite number', value);
  return value + 0;
}

function integer(value, path, min, max) {
  if (!(Number.isInteger(value) && value >= min && value <= max)) fail(path, `must be an integer in ${min}..${max}`, value);
  return value + 0;
}

function optional(value, fallback, read) { return value === undefined ? fallback : read(value); }

function vec(value, path, n, min, max, opts) {
  const items = array(value, path, n, n, `an array of ${n} numbers`);
  return items.map((v, i) => number(v, join(path, i), min, max, opts));
}

function coord3(value, path) { return vec(value, path, 3, -L.maxCoord, L.maxCoord); }

// Lone surrogates cannot be encoded as UTF-8 (TextEncoder would turn them into U+FFFD, breaking link round
// trips); control characters have no business in a one-line title.
const BAD_NAME_CHARS = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function name(value, path) {
  if (typeof value !== 'string' || value.length > L.maxNameLength) fail(path, `must be a string of at most ${L.maxNameLength} characters`, value);
  if (BAD_NAME_CHARS.test(value)) fail(path, 'must not contain control characters or unpaired surrogates', value);
  return value;
}

// ---------------------------------------------------------------- schema

const SCENE_KEYS = ['format', 'version', 'name', 'solver', 'ground', 'camera', 'wind', 'colliders', 'objects'];
const COLLIDER_KEYS = {
  sphere: ['type', 'name', 'position', 'radius', 'staticFriction', 'kineticFriction', 'restitution'],
  capsule: ['type', 'name', 'position', 'rotation', 'radius', 'halfHeight', 'staticFriction', 'kineticFriction', 'restitution'],
  box: ['type', 'name', 'position', 'rotation', 'halfExtents', 'staticFriction', 'kineticFriction', 'restitution'],
};
const CAMERA_KEYS = ['target', 'yaw', 'pitch', 'distance', 'fov'];
const CHAIN_KEYS = ['type', 'name', 'start', 'end', 'segments', 'mass', 'stiffness', 'pins', 'masses'];
const CLOTH_KEYS = ['type', 'name', 'origin', 'size', 'resolution', 'plane', 'mass', 'stiffness', 'pins', 'masses'];
const CLOTH_STIFFNESS_KEYS = ['stretch', 'shear', 'bend'];
const MASS_RANGE_KEYS = ['from', 'to', 'mass'];

// The solver, ground and wind sections are the engine's parameters: their keys, ranges and defaults come from the
// parameter table (e.g. 10 substeps of 1 pass: of all splits of 10 passes per step it gives the least stretch
// per millisecond, tools/split-curve.mjs). A scene written before a field existed gets the engine's default, so
// it builds the same world.
const SECTIONS = Object.fromEntries(['solver', 'ground', 'wind'].map((head) => [head, placeFields(head)]));
const DEFAULT_COLLIDER = { rotation: [0, 0, 0, 1], radius: 0.5, halfHeight: 0.5, halfExtents: [0.5, 0.5, 0.5], staticFriction: 0.5, kineticFriction: 0.4, restitution: 0 };
const DEFAULT_CAMERA = { target: [0, 1, 0], yaw: 0.6, pitch: 0.25, distance: 4, fov: 45 };
const DEFAULT_CHAIN_MASS = 0.05;
const DEFAULT_CLOTH_MASS = 0.01;
const DEFAULT_SCENE_NAME = 'Untitled scene';

/** A section of engine parameters ('solver', 'ground', 'wind'): every field of the table, defaults filled in. */
function paramSection(value, path, head) {
  const fields = SECTIONS[head];
  const get = value === undefined ? () => undefined : record(value, path, fields.map((f) => f.key));
  const out = {};
  for (const f of fields) out[f.key] = optional(get(f.key), fieldDefault(f), (v) => paramField(f, v, join(path, f.key)));
  return out;
}

/** One field of a parameter section: a parameter's value, or a vector whose components are parameters. */
function paramField(field, value, path) {
  const { params } = field;
  if (params.length === 1 && !/\.\d+$/.test(params[0].scene)) return paramValue(params[0], value, path);
  const items = array(value, path, params.length, params.length, `an array of ${params.length} numbers`);
  return items.map((v, i) => paramValue(params[i], v, join(path, i)));
}

/** A scene value of engine parameter `p` (a row of the table): true/false, an integer or a number in its range. */
export function paramValue(p, value, path) {
  if (p.boolean) return boolean(value, path);
  if (p.integer) return integer(value, path, p.min, p.max);
  return number(value, path, p.min, p.max);
}

function boolean(v, path) {
  if (typeof v !== 'boolean') fail(path, 'must be true or false', v);
  return v;
}

function collider(value, path, index) {
  const peek = record(value, path, [...new Set(Object.values(COLLIDER_KEYS).flat())]);
  const type = peek('type');
  if (!Object.hasOwn(COLLIDER_KEYS, type ?? '')) fail(join(path, 'type'), 'must be "sphere", "capsule" or "box"', type);
  const get = record(value, path, COLLIDER_KEYS[type]);
  const d = DEFAULT_COLLIDER;
  const size = (v, p) => number(v, p, 0, L.colliderSize.max, { minExcl: true });
  const out = {
    type,
    name: optional(get('name'), `${type} ${index + 1}`, (v) => name(v, join(path, 'name'))),
    position: coord3(required(get, 'position', path), join(path, 'position')),
  };
  if (type !== 'sphere') {
    out.rotation = optional(get('rotation'), [...d.rotation], (v) => {
      const q = vec(v, join(path, 'rotation'), 4, -1e4, 1e4);
      if (Math.hypot(...q) < 1e-6) fail(join(path, 'rotation'), 'must be a non-zero quaternion [x, y, z, w]', q);
      return q;
    });
  }
  if (type !== 'box') out.radius = optional(get('radius'), d.radius, (v) => size(v, join(path, 'radius')));
  if (type === 'capsule') out.halfHeight = optional(get('halfHeight'), d.halfHeight, (v) => size(v, join(path, 'halfHeight')));
  if (type === 'box') {
    out.halfExtents = optional(get('halfExtents'), [...d.halfExtents], (v) => {
      const p = join(path, 'halfExtents');
      return array(v, p, 3, 3, 'an array of 3 numbers').map((x, i) => size(x, join(p, i)));
    });
  }
  const friction = (key) => optional(get(key), d[key], (v) => number(v, join(path, key), L.colliderFriction.min, L.colliderFriction.max));
  out.staticFriction = friction('staticFriction');
  out.kineticFriction = friction('kineticFriction');
  out.restitution = optional(get('restitution'), d.restitution, (v) => number(v, join(path, 'restitution'), L.colliderRestitution.min, L.colliderRestitution.max));
  return out;
}

function ground(value, path) {
  // null and absent both mean "default ground"; {"enabled": false} switches it off.
  if (value === null) return paramSection(undefined, path, 'ground');
  if (value !== undefined && (typeof value !== 'object' || Array.isArray(value))) fail(path, 'must be an object or null', value);
  return paramSection(value, path, 'ground');
}

function camera(value, path) {
  if (value === undefined) return structuredCopy(DEFAULT_CAMERA);
  const get = record(value, path, CAMERA_KEYS);
  const d = DEFAULT_CAMERA;
  return {
    target: optional(get('target'), [...d.target], (v) => coord3(v, join(path, 'target'))),
    // yaw has no range in the spec (an orbiting user may wind it up): any finite number.
    yaw: optional(get('yaw'), d.yaw, (v) => finite(v, join(path, 'yaw'))),
    pitch: optional(get('pitch'), d.pitch, (v) => number(v, join(path, 'pitch'), -L.maxPitch, L.maxPitch, { minExcl: true, maxExcl: true })),
    distance: optional(get('distance'), d.distance, (v) => number(v, join(path, 'distance'), L.distance.min, L.distance.max)),
    fov: optional(get('fov'), d.fov, (v) => number(v, join(path, 'fov'), L.fov.min, L.fov.max)),
  };
}

function mass(value, path) { return number(value, path, 0, L.maxMass, { minExcl: true }); }

function required(get, key, path) {
  const v = get(key);
  if (v === undefined) throw new SceneError(join(path, key), `${join(path, key)} is required`);
  return v;
}

function chain(get, path, index) {
  const start = coord3(required(get, 'start', path), join(path, 'start'));
  const end = coord3(required(get, 'end', path), join(path, 'end'));
  if (start.every((v, i) => v === end[i])) fail(join(path, 'end'), 'must differ from start', end);
  const segments = integer(required(get, 'segments', path), join(path, 'segments'), L.segments.min, L.segments.max);
  const idx = (v, p) => integer(v, p, 0, segments);
  const pinsPath = join(path, 'pins');
  const massesPath = join(path, 'masses');
  return {
    type: 'chain',
    name: optional(get('name'), `chain ${index + 1}`, (v) => name(v, join(path, 'name'))),
    start, end, segments,
    mass: optional(get('mass'), DEFAULT_CHAIN_MASS, (v) => mass(v, join(path, 'mass'))),
    stiffness: optional(get('stiffness'), PARAMS['stiffness.chain'].default, (v) => paramValue(PARAMS['stiffness.chain'], v, join(path, 'stiffness'))),
    pins: optional(get('pins'), [], (v) => array(v, pinsPath, 0, L.maxPins, `an array of at most ${L.maxPins} particle indices`)
      .map((p, i) => idx(p, join(pinsPath, i)))),
    masses: optional(get('masses'), [], (v) => array(v, massesPath, 0, L.maxMassRanges, `an array of at most ${L.maxMassRanges} mass ranges`)
      .map((r, i) => massRange(r, join(massesPath, i), idx, (a, b) => a <= b))),
  };
}

function cloth(get, path, index) {
  const origin = coord3(required(get, 'origin', path), join(path, 'origin'));
  const size = vec(required(get, 'size', path), join(path, 'size'), 2, 0, L.maxSize, { minExcl: true });
  const resPath = join(path, 'resolution');
  const resolution = array(required(get, 'resolution', path), resPath, 2, 2, 'an array of 2 integers')
    .map((v, i) => integer(v, join(resPath, i), L.resolution.min, L.resolution.max));
  if (resolution[0] * resolution[1] > L.maxParticles) fail(resPath, `must have a product of at most ${L.maxParticles}`, resolution);
  const plane = optional(get('plane'), 'xy', (v) => {
    if (v !== 'xy' && v !== 'xz') fail(join(path, 'plane'), 'must be "xy" or "xz"', v);
    return v;
  });
  const cell = (v, p) => {
    const ij = array(v, p, 2, 2, 'an [i, j] pair');
    return [integer(ij[0], join(p, 0), 0, resolution[0] - 1), integer(ij[1], join(p, 1), 0, resolution[1] - 1)];
  };
  const stiffPath = join(path, 'stiffness');
  const pinsPath = join(path, 'pins');
  const massesPath = join(path, 'masses');
  return {
    type: 'cloth',
    name: optional(get('name'), `cloth ${index + 1}`, (v) => name(v, join(path, 'name'))),
    origin, size, resolution, plane,
    mass: optional(get('mass'), DEFAULT_CLOTH_MASS, (v) => mass(v, join(path, 'mass'))),
    stiffness: optional(get('stiffness'), clothStiffness(undefined, stiffPath), (v) => clothStiffness(v, stiffPath)),
    pins: optional(get('pins'), [], (v) => array(v, pinsPath, 0, L.maxPins, `an array of at most ${L.maxPins} [i, j] pairs`)
      .map((p, i) => cell(p, join(pinsPath, i)))),
    masses: optional(get('masses'), [], (v) => array(v, massesPath, 0, L.maxMassRanges, `an array of at most ${L.maxMassRanges} mass rectangles`)
      .map((r, i) => massRange(r, join(massesPath, i), cell, (a, b) => a[0] <= b[0] && a[1] <= b[1]))),
  };
}

/** A cloth's { stretch, shear, bend }: the parameters stiffness.stretch/shear/bend, one per object. */
function clothStiffness(value, path) {
  const get = value === undefined ? () => undefined : record(value, path, CLOTH_STIFFNESS_KEYS);
  const out = {};
  for (const k of CLOTH_STIFFNESS_KEYS) {
    const p = PARAMS[`stiffness.${k}`];
    out[k] = optional(get(k), p.default, (x) => paramValue(p, x, join(path, k)));
  }
  return out;
}

/** {from, to, mass}: inclusive range; `from` must not lie after `to` (an empty range is almost surely a typo). */
function massRange(value, path, readIndex, ordered) {
  const get = record(value, path, MASS_RANGE_KEYS);
  const from = readIndex(required(get, 'from', path), join(path, 'from'));
  const to = readIndex(required(get, 'to', path), join(path, 'to'));
  if (!ordered(from, to)) fail(join(path, 'to'), `must not be before from (${JSON.stringify(from)})`, to);
  return { from, to, mass: mass(required(get, 'mass', path), join(path, 'mass')) };
}

function objectParticles(o) { return o.type === 'chain' ? o.segments + 1 : o.resolution[0] * o.resolution[1]; }

/**
 * Validates an untrusted scene (parsed JSON or a JS object) and returns a new, fully normalised scene.
 * @throws {SceneError} naming the path of the first bad value.
 */
export function validateScene(input) {
  const get = record(input, '', SCENE_KEYS, 'a JSON object');
  const format = get('format');
  if (format !== FORMAT) fail('format', `must be "${FORMAT}"`, format);
  const version = get('version');
  if (version !== 1) fail('version', 'must be 1 (the only scene version this page reads)', version);
  const scene = {
    format: FORMAT,
    version: 1,
    name: optional(get('name'), DEFAULT_SCENE_NAME, (v) => name(v, 'name')),
    solver: paramSection(get('solver'), 'solver', 'solver'),
    ground: ground(get('ground'), 'ground'),
    camera: camera(get('camera'), 'camera'),
    wind: paramSection(get('wind'), 'wind', 'wind'),
    colliders: optional(get('colliders'), [], (v) => array(v, 'colliders', 0, L.maxColliders, `an array of at most ${L.maxColliders} colliders`)
      .map((c, i) => collider(c, join('colliders', i), i))),
    objects: [],
  };
  const list = array(get('objects'), 'objects', 1, L.maxObjects, `an array of 1..${L.maxObjects} objects`);
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    const path = join('objects', i);
    const objGet = record(list[i], path, [...new Set([...CHAIN_KEYS, ...CLOTH_KEYS])]);
    const type = objGet('type');
    if (type !== 'chain' && type !== 'cloth') fail(join(path, 'type'), 'must be "chain" or "cloth"', type);
    // Re-check keys against the type's own list: "origin" on a chain is as unknown as "foo".
    record(list[i], path, type === 'chain' ? CHAIN_KEYS : CLOTH_KEYS);
    const obj = type === 'chain' ? chain(objGet, path, i) : cloth(objGet, path, i);
    total += objectParticles(obj);
    if (total > L.maxParticles) {
      fail('objects', `must have at most ${L.maxParticles} particles in total (exceeded at ${path})`, total);
    }
    scene.objects.push(obj);
  }
  return scene;
}

/** Number of particles a (validated) scene creates: chain segments+1, cloth resolution[0]*resolution[1]. */
export function sceneParticleCount(scene) {
  let total = 0;
  for (const o of scene.objects) total += objectParticles(o);
  return total;
}

// ---------------------------------------------------------------- replays (recorded interactions carried by links)
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
// validateReplay checks all of it against the scene before anything runs (indices in range, grabs held when
// moved, positions within the scene's coordinate limit, parameters and materials in range), so a replay that
// starts never fails half-way.

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

const REPLAY_KEYS = ['v', 'steps', 'q', 'hash', 'events'];
const EVENT_LENGTHS = { g: [6, 7], m: [6], r: [3], c: [6, 10], f: [6], p: [4] };

/** Checks one replay parameter value (also used by the recorder before it records one). Returns the value or throws. */
export function replayParamValue(name, value, path = 'value', namePath = path) {
  if (typeof name !== 'string' || !Object.hasOwn(REPLAY_PARAMS, name)) {
    fail(namePath, `must name a parameter a replay may set (${Object.keys(REPLAY_PARAMS).join(', ')})`, name);
  }
  const p = REPLAY_PARAMS[name];
  return p.integer ? integer(value, path, p.min, p.max) : number(value, path, p.min, p.max);
}

/**
 * Reads an untrusted replay against a validated scene. Returns { replay: a new normalised copy of the wire
 * form, events: the events expanded to absolute values ({ step, kind: 'grab' | 'move' | 'release' | 'collider'
 * | 'param', ... }) }. Throws SceneError naming the path (under `path`, default "replay") of the first bad value.
 */
export function readReplay(input, scene, path = 'replay') {
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

  const particles = sceneParticleCount(scene);
  const colliders = scene.colliders;
  const maxN = L.maxCoord * q;                    // |n| <= maxN: within the scene's coordinate limit
  const coord = (n, p) => integer(n, p, -maxN, maxN);
  const delta = (n, p) => integer(n, p, -2 * maxN, 2 * maxN);
  const held = new Map();                         // slot -> [x, y, z] (integers)
  const colliderAt = colliders.map(() => [0, 0, 0]);
  const colliderRot = colliders.map((c) => [...(c.rotation ?? [0, 0, 0, 1])]);
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
    if (typeof kind !== 'string' || !Object.hasOwn(EVENT_LENGTHS, kind)) fail(join(p, 1), 'must be "g", "m", "r", "c", "f" or "p"', kind);
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
    } else {
      const name = items[2];
      const value = replayParamValue(name, items[3], join(p, 3), join(p, 2));
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

// ---------------------------------------------------------------- built-in scenes

function structuredCopy(v) { return JSON.parse(JSON.stringify(v)); }

function deepFreeze(v) {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze(v[k]);
  }
  return v;
}

// Written compactly; validateScene (below) fills the defaults, so the exported forms are normalised.
// Cameras use small yaw so the xy-plane scenes are seen nearly face-on, assuming the usual orbit convention
// eye = target + distance * (cos(pitch) sin(yaw), sin(pitch), cos(pitch) cos(yaw)).
const BUILTIN_SOURCES = {
  chain: {
    format: FORMAT, version: 1,
    name: 'Pendulum chain: 25 segments, pinned at one end, released horizontal',
    solver: { substeps: 4, iterations: 10 },
    camera: { target: [0, 1.7, 0], yaw: 0.25, pitch: 0.12, distance: 7, fov: 45 },
    objects: [{
      type: 'chain', name: 'chain', start: [0, 3, 0], end: [2.5, 3, 0], segments: 25,
      mass: 0.05, stiffness: 1, pins: [0],
    }],
  },
  cloth: {
    format: FORMAT, version: 1,
    name: 'Hanging cloth: 2 m x 2 m, 40 x 40, pinned at the top corners',
    solver: { damping: 0.05 },
    camera: { target: [0, 1.5, 0], yaw: 0.45, pitch: 0.18, distance: 4.6, fov: 45 },
    objects: [{
      type: 'cloth', name: 'cloth', origin: [-1, 2.5, 0], size: [2, 2], resolution: [40, 40], plane: 'xy',
      mass: 0.01, stiffness: { stretch: 1, shear: 1, bend: 0.1 }, pins: [[0, 0], [39, 0]],
    }],
  },
  // The mass-weighted split of seed 000, three ways. Centre: a cloth whose left half is 50x heavier than its
  // right half, pinned at the top corners: corrections move the light particles w_light/(w_heavy+w_light) ~ 98%
  // of the way, so the heavy half falls and drags the light half into a lopsided drape. Sides: two chains
  // released horizontal. Left: light links with a 50x heavier bob (it swings almost like a point pendulum and
  // yanks the links taut). Right: heavy links with a 50x lighter bob (the links swing as a rope and the light
  // bob is flung around at the tip).
  'mass-split': {
    format: FORMAT, version: 1,
    name: 'Mass split: half-heavy cloth, heavy bob on light chain, light bob on heavy chain',
    camera: { target: [0, 1.8, 0], yaw: 0, pitch: 0.12, distance: 10, fov: 45 },
    objects: [
      {
        type: 'cloth', name: 'half heavy cloth', origin: [-0.9, 3, 0], size: [1.8, 1.8], resolution: [24, 24],
        plane: 'xy', mass: 0.01, pins: [[0, 0], [23, 0]], masses: [{ from: [0, 0], to: [11, 23], mass: 0.5 }],
      },
      {
        type: 'chain', name: 'light chain, heavy bob', start: [-3.6, 3, 0], end: [-2.1, 3, 0], segments: 15,
        mass: 0.02, pins: [0], masses: [{ from: 15, to: 15, mass: 1 }],
      },
      {
        type: 'chain', name: 'heavy chain, light bob', start: [2.1, 3, 0], end: [3.6, 3, 0], segments: 15,
        mass: 1, pins: [0], masses: [{ from: 15, to: 15, mass: 0.02 }],
      },
    ],
  },
  // Issue 3 scenes: cloth against colliders, wind, tearing, self-collision, and scale.
  'cloth-sphere': {
    format: FORMAT, version: 1,
    name: 'Cloth on a sphere: 64 x 64 dropped over a ball (drag the ball)',
    solver: { damping: 0.1, thickness: 0.02 },
    camera: { target: [0, 0.75, 0], yaw: 0.5, pitch: 0.3, distance: 3.6, fov: 45 },
    colliders: [{ type: 'sphere', name: 'ball', position: [0, 0.7, 0], radius: 0.5, staticFriction: 0.6, kineticFriction: 0.5 }],
    objects: [{ type: 'cloth', name: 'sheet', origin: [-0.65, 1.5, -0.65], size: [1.3, 1.3], resolution: [48, 48], plane: 'xz', mass: 0.005 }],
  },
  table: {
    format: FORMAT, version: 1,
    name: 'Cloth sliding off a table: a slippery tablecloth hangs over one edge',
    solver: { damping: 0.3, thickness: 0.02 },
    camera: { target: [0.3, 0.8, 0], yaw: 0.9, pitch: 0.3, distance: 4.2, fov: 45 },
    colliders: [
      { type: 'box', name: 'table top', position: [0, 0.75, 0], halfExtents: [0.6, 0.03, 0.5], staticFriction: 0.1, kineticFriction: 0.08 },
      ...[[-0.54, -0.44], [0.54, -0.44], [-0.54, 0.44], [0.54, 0.44]].map(([x, z], i) => ({
        type: 'box', name: `leg ${i + 1}`, position: [x, 0.36, z], halfExtents: [0.03, 0.36, 0.03],
      })),
    ],
    objects: [{ type: 'cloth', name: 'tablecloth', origin: [-0.55, 0.8, -0.6], size: [1.6, 1.2], resolution: [64, 48], plane: 'xz', mass: 0.004 }],
  },
  flag: {
    format: FORMAT, version: 1,
    name: 'Flag tearing in wind: pull it hard and it rips',
    solver: { damping: 0.02, thickness: 0.01, tearStretch: 0.35 },
    wind: { velocity: [6, 0, 2], density: 1.2, drag: 1, lift: 0.4 },
    camera: { target: [0.7, 1.8, 0], yaw: 0.35, pitch: 0.1, distance: 5, fov: 45 },
    colliders: [{ type: 'capsule', name: 'pole', position: [-0.05, 1.4, 0], radius: 0.04, halfHeight: 1.4 }],
    objects: [{
      type: 'cloth', name: 'flag', origin: [0, 2.8, 0], size: [1.8, 1.1], resolution: [48, 30], plane: 'xy', mass: 0.0008,
      stiffness: { stretch: 1, shear: 1, bend: 0.05 },
      pins: [[0, 0], [0, 7], [0, 14], [0, 22], [0, 29]],
    }],
  },
  fold: {
    format: FORMAT, version: 1,
    name: 'Cloth folding onto itself: a long strip falls and piles up (self-collision)',
    solver: { damping: 0.1, thickness: 0.03, selfCollision: true },
    camera: { target: [0, 0.4, 0], yaw: 0.7, pitch: 0.45, distance: 3.4, fov: 45 },
    // a low bar under the strip's edge tips it over, so it folds instead of standing on its edge
    colliders: [{ type: 'capsule', name: 'bump', position: [0, 0.06, 0.07], rotation: [0, 0, 0.7071068, 0.7071068], radius: 0.06, halfHeight: 0.6 }],
    objects: [{ type: 'cloth', name: 'strip', origin: [-0.5, 2.4, 0], size: [1, 2.2], resolution: [30, 66], plane: 'xy', mass: 0.004,
      stiffness: { stretch: 1, shear: 1, bend: 0.2 } }],
  },
  'cloth-100k': {
    format: FORMAT, version: 1,
    name: 'Large cloth: 316 x 316 (99,856 particles) hanging from its top edge',
    solver: { damping: 0.05, thickness: 0.01 },
    camera: { target: [0, 2.2, 0], yaw: 0.5, pitch: 0.1, distance: 7, fov: 45 },
    objects: [{ type: 'cloth', name: 'large cloth', origin: [-2, 4.2, 0], size: [4, 4], resolution: [316, 316], plane: 'xy', mass: 0.0005,
      pins: Array.from({ length: 316 }, (_, i) => [i, 0]) }],
  },
};

/** Built-in scenes keyed by id, normalised and deep-frozen (use defaultScene() or validateScene() for a copy). */
export const builtinScenes = deepFreeze(Object.fromEntries(
  Object.entries(BUILTIN_SOURCES).map(([id, src]) => [id, validateScene(src)]),
));

/** A fresh, mutable copy of the built-in cloth scene. */
export function defaultScene() {
  return validateScene(builtinScenes.cloth);
}
