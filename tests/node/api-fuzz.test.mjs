// A fuzz of the JS surface: seeded, reproducible sequences of random calls
// on a World from web/js/minipbd.js, with arguments of every type: valid ones, integers in and out of
// range, 45.9, NaN, Infinity, -0, 2**32 + 45, "45", "0.5", true, null, undefined, {}, [], 10n, ...
//
// The intended behaviour ("every JS and C entry point checks that indices are
// integers in range and numbers are finite numbers of the right type, and refuses anything else with
// a message, the world unchanged"), checked after every call:
//   - it returned, or threw a MiniPBDError with a non-empty message (nothing else: no TypeError,
//     no RangeError from the wasm boundary);
//   - when it threw, the world is exactly as before: hash, the bytes of positions and velocities,
//     the attachment count and describe();
//   - when it returned, every index it was given was an integer in range and every number a finite
//     number (a string, a boolean, a BigInt, 45.9 or 2**32 + 45 is never taken for a number);
//   - a call whose arguments are all valid returns;
//   - describe() stays a scene the validator accepts (item 10b: the API and the format accept the
//     same values);
//   - after a step no position or velocity is NaN or infinite.
// Violations are collected per method and rule, so one run lists every kind that fails, each with
// the seed and call number that reproduce it (SEEDS below; `MINIPBD_FUZZ_SEEDS=7,8` to choose).
//
// On Node 20 (V8 11.x) this file dies of SIGSEGV: a V8 bug in TurboFan's inlining of JS-to-wasm calls,
// reproduced alone by tests/fuzz/v8-inline-crash.mjs (the engine and the wrapper are not at fault:
// `--no-turbo-inline-js-wasm-calls` or `--no-opt` runs it clean). So on V8 11 the fuzz runs in a
// child Node with that flag; on any other V8 it runs here.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, MiniPBDError, validateScene } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

const SEEDS = (process.env.MINIPBD_FUZZ_SEEDS ?? '1,2,3,4').split(',').map(Number);
const CALLS = 1500; // per seed: well under a second each

const SCENE = {
  format: 'minipbd-scene', version: 1, name: 'api fuzz',
  solver: { substeps: 2, iterations: 2 },
  colliders: [
    { type: 'sphere', name: 'ball', position: [0, 0.6, 0.2], radius: 0.3 },
    { type: 'box', name: 'crate', position: [1.5, 0.2, 0], rotation: [0, 0, 0, 1], halfExtents: [0.2, 0.2, 0.2] },
  ],
  objects: [
    { type: 'cloth', name: 'cloth', origin: [-0.5, 1.5, 0], size: [1, 1], resolution: [8, 8], plane: 'xy', pins: [[0, 0], [7, 0]] },
    { type: 'chain', name: 'rope', start: [1, 2, 0], end: [2, 2, 0], segments: 6, pins: [0] },
    { type: 'soft', name: 'jelly', shape: 'box', position: [-1.2, 0.5, 0], halfExtents: [0.15, 0.15, 0.15], resolution: 2 },
    { type: 'rigid', name: 'ball', shape: 'ball', position: [1.2, 0.6, 0.5], radius: 0.15, resolution: 3 },
  ],
};
const OBJECTS = SCENE.objects.length;
const BODIES = [2, 3]; // the soft and the rigid body: the calls on a body's material take only these
// (object, stiffness kind) pairs each type has, and some it has not
const KINDS = [[0, 'stretch'], [0, 'shear'], [0, 'bend'], [1, 'chain'], [2, 'edge'], [2, 'volume'], [3, 'shape']];
const NOT_KINDS = [[0, 'volume'], [1, 'edge'], [2, 'shape'], [3, 'edge'], [2, 'bogus'], [3, '__proto__'], [2, 4]];

/** mulberry32: a small seeded generator, the same sequence on every engine. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Values that are never a valid index or number argument. The comments say what the wrapper of today
// makes of them when it hands them to wasm (ToNumber, then ToInt32 for an int parameter).
const NOT_NUMBERS = [
  '45', '0.5', '', 'x', true, false, null, undefined, {}, [], [1], 10n, () => 1,
  { valueOf: () => 3 }, new Date(0), Symbol('s'),
];
const NOT_FINITE = [NaN, Infinity, -Infinity];
const NOT_INDICES = [45.9, -1, 2 ** 32 + 45, 2 ** 31, -(2 ** 31) - 1, 1e300, Number.MAX_VALUE, 0.5, -0.5, ...NOT_FINITE, ...NOT_NUMBERS];

const describeValue = (v) => {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'function') return 'function';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Object.is(v, -0)) return '-0';
  if (v instanceof Date) return 'Date';
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}[${[...v].map((x) => Number(x.toPrecision(4))).join(', ')}]`;
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'number' && !Number.isInteger(x) ? Number(x.toPrecision(4)) : describeValue(x))).join(', ')}]`;
  if (v && typeof v === 'object') {
    if (typeof v.valueOf === 'function' && v.valueOf() !== v) return '{valueOf}';
    return `{${Object.entries(v).map(([k, x]) => `${k}: ${describeValue(x)}`).join(', ')}}`;
  }
  if (typeof v === 'number' && !Number.isInteger(v)) return String(Number(v.toPrecision(4)));
  return String(v);
};

/** An argument: `value` as passed, and whether it is valid for its role. */
const arg = (value, valid) => ({ value, valid });

class Args {
  constructor(random) { this.random = random; }
  pick(list) { return list[Math.floor(this.random() * list.length)]; }
  chance(p) { return this.random() < p; }
  /** An index into count things: valid 70% of the time. -0 is a valid integer index 0. */
  index(count) {
    if (count > 0 && this.chance(0.7)) return arg(this.chance(0.05) ? -0 : Math.floor(this.random() * count), true);
    const bad = [count, count + 1, ...NOT_INDICES];
    return arg(this.pick(bad), false);
  }
  /** A finite number in [lo, hi] (inside what the engine accepts) 70% of the time, else one it
   *  must refuse: not finite, not a number, or one of `outside` (outside what it accepts). */
  number(lo, hi, outside, { optional = false } = {}) {
    if (this.chance(0.7)) return arg(lo + (hi - lo) * this.random(), true);
    const v = this.pick([...NOT_FINITE, ...NOT_NUMBERS, ...outside]);
    return arg(v, optional && v === undefined ? true : false); // an optional argument left out takes its default
  }
  /** [x, y, z] within `bound`: valid 70% of the time (an array or a Float32Array). A finite
   *  coordinate past the world bound (1e5) is invalid for a position; for a ray (`ray`) the engine
   *  decides (it finds nothing there), so it is neither asserted accepted nor refused. */
  vec3(bound = 3, ray = false) {
    if (this.chance(0.7)) {
      const v = [0, 1, 2].map(() => (this.random() * 2 - 1) * bound);
      return arg(this.chance(0.2) ? Float32Array.from(v) : v, true);
    }
    const good = () => this.random() - 0.5;
    const bad = [
      [good(), good()], [good(), good(), good(), good()], [this.pick([...NOT_FINITE, ...NOT_NUMBERS]), good(), good()],
      [good(), '1', good()], [good(), good(), 1e6], 'xyz', 3, null, undefined, {}, { 0: 1, 1: 2, 2: 3, length: 3 },
    ];
    const v = this.pick(bad);
    return arg(v, ray && Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? 'loose' : false);
  }
  quat() {
    if (this.chance(0.7)) {
      const q = [0, 1, 2, 3].map(() => this.random() - 0.5);
      return arg(q, true);
    }
    return arg(this.pick([[0, 0, 0, 0], [0, 0, 1], [NaN, 0, 0, 1], [0, 0, '1', 1], null, 'q', [0, 0, 0, 10n]]), false);
  }
}

/**
 * The calls: each makes its arguments and returns { name, args, run(world) }. `valid` of an argument
 * says the C engine accepts it too, so that a call of only valid arguments must return. `loose`
 * marks arguments whose validity the engine decides (a stale id, a value outside some range).
 */
function makeCalls(world, a, state) {
  const particles = () => world.particleCount;
  const paramNames = pbd.paramNames;
  const params = () => {
    const name = a.chance(0.9) ? arg(a.pick(paramNames), true) : arg(a.pick(['bogus', '__proto__', 'constructor', 45, null, 'toString']), false);
    // valid: the value the world already has (always in range); otherwise anything
    const value = a.chance(0.5) && name.valid
      ? arg(state.params[name.value], true)
      : a.chance(0.5) ? { value: a.pick([0, 1, 0.5, 2, 10, 0.001, 100, 500, -1, 64, 200, 1e4]), valid: 'loose' } : arg(a.pick([...NOT_FINITE, ...NOT_NUMBERS, 45.9e9]), false);
    return [name, value];
  };
  // the world holds 16 attachments (minipbd.js MAX_POINTERS): past that a valid call may be refused
  const full = (args) => (state.attachments.length < 16 ? args : args.map((x) => (x.valid === true ? { ...x, valid: 'loose' } : x)));
  const attachment = () => {
    if (state.attachments.length > 0 && a.chance(0.7)) return { value: a.pick(state.attachments), valid: 'loose' };
    return a.chance(0.5) ? { value: a.pick(state.removed.length ? state.removed : [1]), valid: 'loose' } : arg(a.pick(NOT_INDICES), false);
  };
  // a body's index (valid), another object's (refused: it has no plasticity or contact radius of its own), or no index
  const body = () => (a.chance(0.7) ? arg(a.pick(BODIES), true) : a.chance(0.5) ? arg(a.pick([0, 1]), false) : arg(a.pick(NOT_INDICES), false));
  const plasticity = () => (a.chance(0.7)
    ? arg({ yield: a.random() * 0.5, creep: a.random() * 50, max: a.random() }, true)
    : arg(a.pick([null, 'soft', { yield: NaN, creep: 0, max: 1 }, { yield: 0.1, creep: -1, max: 1 }, { yield: 0.1, creep: 0, max: 11 },
      { yield: 0.1, creep: 1e9, max: 1 }, { yield: '0.1', creep: 0, max: 1 }, { yield: 0.1, creep: 0, max: 1, extra: 1 }]), false));
  return [
    () => ({ name: 'setPosition', args: [a.index(particles()), a.vec3()], run: (w, i, v) => w.setPosition(i, v) }),
    () => ({ name: 'setVelocity', args: [a.index(particles()), a.vec3()], run: (w, i, v) => w.setVelocity(i, v) }),
    () => ({ name: 'setMass', args: [a.index(particles()), a.number(0.001, 2, [0, -1, 2e6, 1e-9])], run: (w, i, m) => w.setMass(i, m) }),
    () => ({ name: 'setInvMass', args: [a.index(particles()), a.number(0, 100, [-1, 2e6, -1e-3])], run: (w, i, m) => w.setInvMass(i, m) }),
    () => ({ name: 'setParam', args: params(), run: (w, n, v) => w.setParam(n, v) }),
    () => ({ name: 'getParam', args: [params()[0]], run: (w, n) => w.getParam(n) }),
    () => ({
      name: 'addAttachment', args: full([a.index(particles()), a.vec3(), a.number(0, 1, [1.5, -0.1], { optional: true })]),
      run: (w, i, t, k) => {
        const id = w.addAttachment(i, t, k);
        state.attachments.push(id);
        return id;
      },
    }),
    () => ({ name: 'moveAttachment', args: [attachment(), a.vec3()], run: (w, id, t) => w.moveAttachment(id, t) }),
    () => ({
      name: 'removeAttachment', args: [attachment()],
      run: (w, id) => {
        w.removeAttachment(id);
        state.attachments = state.attachments.filter((x) => x !== id);
        state.removed.push(id);
      },
    }),
    () => ({ name: 'setColliderTransform', args: [a.index(2), a.vec3(), a.quat()], run: (w, i, p, q) => w.setColliderTransform(i, p, q) }),
    () => {
      const m = a.chance(0.8)
        ? { value: { staticFriction: a.random() * 2, kineticFriction: a.random(), restitution: a.random() }, valid: true }
        : arg(a.pick([null, 'ice', { staticFriction: '1' }, { restitution: NaN }, { kineticFriction: 11 }, { restitution: 10n }]), false);
      return { name: 'setColliderMaterial', args: [a.index(2), m], run: (w, i, mat) => w.setColliderMaterial(i, mat) };
    },
    () => ({ name: 'setObjectMass', args: [a.index(OBJECTS), a.number(0.001, 1, [0, -1, 2e6])], run: (w, i, m) => w.setObjectMass(i, m) }),
    () => ({ name: 'setObjectPlasticity', args: [body(), plasticity()], run: (w, i, p) => w.setObjectPlasticity(i, p) }),
    // valid: within 2 spacings of both bodies (the ball's 0.1 m lattice: 0.2 m); 0.5 m is within the scene's range
    // but past the spacing rule (engine/param-relations.js), so refused
    () => ({ name: 'setObjectRadius', args: [body(), a.number(0, 0.19, [-0.1, 1.5, 0.5])], run: (w, i, r) => w.setObjectRadius(i, r) }),
    () => ({ name: 'getObjectVolume', args: [a.index(OBJECTS)], run: (w, i) => w.getObjectVolume(i) }),
    () => ({ name: 'getBodyTransform', args: [a.index(OBJECTS)], run: (w, i) => w.getBodyTransform(i) }),
    () => {
      const [i, kind] = a.chance(0.7) ? a.pick(KINDS) : a.pick(NOT_KINDS);
      const ok = KINDS.some(([j, k]) => j === i && k === kind);
      return { name: 'setObjectStiffness', args: [arg(i, true), arg(kind, ok), a.number(0, 1, [1.5, -0.1])], run: (w, j, k, v) => w.setObjectStiffness(j, k, v) };
    },
    () => ({ name: 'updateSkin', args: [a.number(0, 1, [-0.5, 1.5], { optional: true })], run: (w, b) => w.updateSkin(b) }),
    () => ({ name: 'keepPrevious', args: [a.chance(0.8) ? arg(a.chance(0.5), true) : arg(a.pick([1, 0, 'true', null, {}]), false)], run: (w, k) => w.keepPrevious(k) }),
    () => ({ name: 'pick', args: [a.vec3(3, true), a.vec3(3, true), a.number(0.01, 1, [-1, -1e-9])], run: (w, o, d, r) => w.pick(o, d, r) }),
    () => ({ name: 'pickCollider', args: [a.vec3(3, true), a.vec3(3, true)], run: (w, o, d) => w.pickCollider(o, d) }),
    () => ({
      name: 'step',
      args: [a.chance(0.8) ? arg(1 + Math.floor(a.random() * 3), true) : arg(a.pick([0.5, -1, '2', NaN, 1e9, null, 2n]), false)],
      run: (w, n) => w.step(n),
    }),
    () => ({ name: 'stats', args: [], run: (w) => w.stats() }),
    () => ({ name: 'updateNormals', args: [], run: (w) => w.updateNormals() }),
    () => ({ name: 'updateErrors', args: [], run: (w) => w.updateErrors() }),
  ];
}

/** Everything a refused call must leave as it was. */
function snapshot(world) {
  return {
    hash: world.hash(),
    x: new Uint8Array(world.positions.buffer, world.positions.byteOffset, world.positions.byteLength).slice(),
    v: new Uint8Array(world.velocities.buffer, world.velocities.byteOffset, world.velocities.byteLength).slice(),
    attachments: world.attachmentCount,
    scene: JSON.stringify(world.describe()),
  };
}

function sameState(a, b) {
  const diff = [];
  if (a.hash !== b.hash) diff.push(`hash ${a.hash} -> ${b.hash}`);
  if (Buffer.compare(a.x, b.x) !== 0) diff.push('positions');
  if (Buffer.compare(a.v, b.v) !== 0) diff.push('velocities');
  if (a.attachments !== b.attachments) diff.push(`attachments ${a.attachments} -> ${b.attachments}`);
  if (a.scene !== b.scene) diff.push('describe()');
  return diff;
}

function run(seed) {
  const random = rng(seed);
  const a = new Args(random);
  const world = pbd.createWorld(SCENE);
  const state = { attachments: [], removed: [], params: Object.fromEntries(pbd.paramNames.map((n) => [n, world.getParam(n)])) };
  const calls = makeCalls(world, a, state);
  const violations = new Map(); // "method: rule" -> first example
  const violate = (rule, call, k, detail) => {
    const key = `${call.name}: ${rule}`;
    if (!violations.has(key)) {
      violations.set(key, `${key} -- seed ${seed} call ${k}: ${call.name}(${call.args.map((x) => describeValue(x.value)).join(', ')})${detail ? `: ${detail}` : ''}`);
    }
  };
  let accepted = 0, refused = 0;
  try {
    for (let k = 0; k < CALLS; k++) {
      const call = calls[Math.floor(random() * calls.length)]();
      const before = snapshot(world);
      let threw = null;
      try {
        call.run(world, ...call.args.map((x) => x.value));
      } catch (err) {
        threw = err;
      }
      if (threw) {
        refused++;
        if (!(threw instanceof MiniPBDError)) violate(`threw ${threw?.constructor?.name ?? typeof threw}, not MiniPBDError`, call, k, String(threw?.message ?? threw).slice(0, 120));
        else if (typeof threw.message !== 'string' || threw.message.trim() === '') violate('threw MiniPBDError with an empty message', call, k);
        const diff = sameState(before, snapshot(world));
        if (diff.length) violate('refused but changed the world', call, k, diff.join(', '));
        if (call.args.every((x) => x.valid === true)) violate('refused valid arguments', call, k, threw?.message);
      } else {
        accepted++;
        const bad = call.args.filter((x) => x.valid === false);
        if (bad.length) violate('accepted an invalid argument', call, k, bad.map((x) => describeValue(x.value)).join(', '));
        if (call.name === 'setParam') state.params[call.args[0].value] = world.getParam(call.args[0].value);
      }
      // Whatever the API accepted, the scene format accepts
      if (!threw && /^set|Attachment$/.test(call.name)) {
        try {
          validateScene(world.describe());
        } catch (err) {
          violate('left describe() a scene the validator refuses', call, k, err.message);
        }
      }
      if (call.name === 'step' && !threw) {
        const x = world.positions, v = world.velocities;
        for (let i = 0; i < x.length; i++) {
          if (!Number.isFinite(x[i]) || !Number.isFinite(v[i])) {
            violate('left a NaN or infinite position or velocity', call, k, `component ${i}`);
            break;
          }
        }
      }
    }
  } finally {
    world.destroy();
  }
  return { violations: [...violations.values()], accepted, refused };
}

const V8_FLAG = '--no-turbo-inline-js-wasm-calls';
if (/^11\./.test(process.versions.v8) && !process.execArgv.includes(V8_FLAG)) {
  test(`JS API fuzz, seeds ${SEEDS.join(', ')}, in a child Node with ${V8_FLAG} (V8 ${process.versions.v8}: tests/fuzz/v8-inline-crash.mjs)`, () => {
    // the file itself, not under --test, and without the runner's NODE_TEST_CONTEXT (with it a nested
    // run reports to its parent in the runner's own protocol and its exit status says nothing)
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const r = spawnSync(process.execPath, [V8_FLAG, fileURLToPath(import.meta.url)], { encoding: 'utf8', env, maxBuffer: 1 << 24 });
    assert.equal(r.status, 0, `the fuzz failed (status ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  });
} else {
  defineTests();
}

function defineTests() {
for (const seed of SEEDS) {
  test(`JS API fuzz, seed ${seed}: ${CALLS} random calls either work or throw MiniPBDError, leaving the world as it was`, () => {
    const { violations, accepted, refused } = run(seed);
    assert.ok(accepted > CALLS / 10 && refused > CALLS / 10, `both outcomes are exercised (${accepted} accepted, ${refused} refused)`);
    if (violations.length) assert.fail(`${violations.length} kinds of violation:\n  ${violations.join('\n  ')}`);
  });
}

test('the fuzz is reproducible: the same seed makes the same calls with the same outcomes', () => {
  assert.deepEqual(run(SEEDS[0]), run(SEEDS[0]));
});
}
