// Every World entry point checks its arguments: an index is a number that is an
// integer in range, a quantity a finite number of type number. Each kind of bad argument is refused with a
// MiniPBDError naming the call and the argument, and the world (hash, description, attachments) is unchanged.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, MiniPBDError } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

const SCENE = {
  format: 'minipbd-scene', version: 2,
  colliders: [{ type: 'sphere', position: [0, 0.5, 0], radius: 0.3 }],
  objects: [
    { type: 'cloth', origin: [-0.5, 1.5, 0], size: [1, 1], resolution: [8, 8], pins: [[0, 0], [7, 0]] },
    { type: 'chain', start: [1, 2, 0], end: [2, 2, 0], segments: 5, pins: [0] },
  ],
};
const PARTICLES = 64 + 6;

/** A world that has moved, holds one attachment, and the id of it. */
function world() {
  const w = pbd.createWorld(SCENE);
  const grab = w.addAttachment(60, [0, 1, 0.3], 1);
  w.step(5);
  return { w, grab };
}

function state(w) {
  return { hash: w.hash(), scene: JSON.stringify(w.describe()), attachments: w.attachmentCount, colliders: JSON.stringify(w.colliders) };
}

// Index arguments: NaN would become particle 0 (a pin), 45.9 -> 45, "45" -> 45, 2^32 + 45 -> 45, true -> 1.
const badIndex = (count) => [NaN, 45.9, '45', 2 ** 32 + 45, -1, count, Infinity, true, null, undefined, 45n, {}, [45], -0.5];
// Quantities: strings, booleans, BigInts, non-finite numbers, objects.
const badNumber = ['0.5', true, false, NaN, Infinity, -Infinity, 1n, null, {}, [0.5]];
// Vectors: not an array of three finite numbers.
const badVec = ['1,2,3', [0, 1], [0, 1, 2, 3], [0, NaN, 0], [0, '1', 0], [true, 0, 0], [0, 0, 1n], [0, null, 0],
  [, 1, 2], { 0: 1, 1: 2, 2: 3, length: 3 }, null, undefined, 7, new Float32Array(2), [0, 0, Infinity]]; // eslint-disable-line no-sparse-arrays

/** Refuses `call()`: a MiniPBDError naming `prefix` ("setPosition: particle"), and nothing changed. */
function refused(w, call, prefix, label) {
  const before = state(w);
  assert.throws(call, (e) => {
    assert.ok(e instanceof MiniPBDError, `${label}: ${e}`);
    assert.equal(e.code, 'argument', label);
    const ok = prefix instanceof RegExp ? prefix.test(e.message) : e.message.startsWith(prefix);
    assert.ok(ok, `${label}: "${e.message}" should start with "${prefix}"`);
    assert.ok(e.message.length < 200 && !/undefined$/.test(e.message.split(', got ')[0]), label);
    return true;
  }, label);
  assert.deepEqual(state(w), before, `${label}: the world changed`);
}

const show = (v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(show)}]` : String(v));

/** [name, call(w, grab, bad), argument prefix, bad values] for every entry point and argument. */
const CASES = [
  ['setPosition', (w, g, v) => w.setPosition(v, [0, 1, 0]), 'setPosition: particle', badIndex(PARTICLES)],
  ['setPosition', (w, g, v) => w.setPosition(3, v), 'setPosition: position', badVec],
  ['setVelocity', (w, g, v) => w.setVelocity(v, [0, 1, 0]), 'setVelocity: particle', badIndex(PARTICLES)],
  ['setVelocity', (w, g, v) => w.setVelocity(3, v), 'setVelocity: velocity', badVec],
  ['setMass', (w, g, v) => w.setMass(v, 0.5), 'setMass: particle', badIndex(PARTICLES)],
  ['setMass', (w, g, v) => w.setMass(45, v), 'setMass: mass', [...badNumber, 0, -1, 2e6, undefined]],
  ['setInvMass', (w, g, v) => w.setInvMass(v, 2), 'setInvMass: particle', badIndex(PARTICLES)],
  ['setInvMass', (w, g, v) => w.setInvMass(45, v), 'setInvMass: inverse mass', [...badNumber, -1, 2e6, undefined]],
  ['addAttachment', (w, g, v) => w.addAttachment(v, [0, 1, 0]), 'addAttachment: particle', badIndex(PARTICLES)],
  ['addAttachment', (w, g, v) => w.addAttachment(3, v), 'addAttachment: target', badVec],
  ['addAttachment', (w, g, v) => w.addAttachment(3, [0, 1, 0], v), 'addAttachment: stiffness', [...badNumber, 1.5, -0.1]],
  ['moveAttachment', (w, g, v) => w.moveAttachment(v, [0, 1, 0]), 'moveAttachment: attachment',
    [NaN, 1.5, '1', 0, -1, 2 ** 32 + 1, true, null, undefined, 1n, {}]],
  ['moveAttachment', (w, g, v) => w.moveAttachment(g, v), 'moveAttachment: target', badVec],
  ['removeAttachment', (w, g, v) => w.removeAttachment(v), 'removeAttachment: attachment',
    [NaN, 1.5, '1', 0, -1, 2 ** 32 + 1, true, null, undefined, 1n, {}]],
  ['setColliderTransform', (w, g, v) => w.setColliderTransform(v, [0, 1, 0]), 'setColliderTransform: collider', badIndex(1)],
  ['setColliderTransform', (w, g, v) => w.setColliderTransform(0, v), 'setColliderTransform: position', badVec],
  ['setColliderTransform', (w, g, v) => w.setColliderTransform(0, [0, 1, 0], v), 'setColliderTransform: rotation',
    [[0, 0, 1], [0, 0, 0, NaN], [0, 0, 0, '1'], '0,0,0,1', null, [0, 0, 0, true]]],
  ['setColliderMaterial', (w, g, v) => w.setColliderMaterial(v, { restitution: 0.5 }), 'setColliderMaterial: collider', badIndex(1)],
  ['setColliderMaterial', (w, g, v) => w.setColliderMaterial(0, v), 'setColliderMaterial: material',
    [null, 5, 'x', [0.5], { bounce: 0.5 }, { restitution: 0.5, extra: 1 }]],
  ...['staticFriction', 'kineticFriction', 'restitution'].map((key) => ['setColliderMaterial',
    (w, g, v) => w.setColliderMaterial(0, { [key]: v }), `setColliderMaterial: ${key}`, [...badNumber, -0.1, 11]]),
  ['setObjectMass', (w, g, v) => w.setObjectMass(v, 0.02), 'setObjectMass: object', badIndex(2)],
  ['setObjectMass', (w, g, v) => w.setObjectMass(0, v), 'setObjectMass: mass', [...badNumber, 0, -1, 2e6, undefined]],
  ['setObjectStiffness', (w, g, v) => w.setObjectStiffness(v, 'stretch', 0.5), 'setObjectStiffness: object', badIndex(2)],
  ['setObjectStiffness', (w, g, v) => w.setObjectStiffness(0, v, 0.5), 'setObjectStiffness: kind',
    ['chain', 'Stretch', '', 1, null, undefined, 'toString', '__proto__']],
  ['setObjectStiffness', (w, g, v) => w.setObjectStiffness(1, v, 0.5), 'setObjectStiffness: kind', ['stretch', 'bend']],
  ['setObjectStiffness', (w, g, v) => w.setObjectStiffness(0, 'bend', v), 'setObjectStiffness: stiffness', [...badNumber, -0.1, 1.5, undefined]],
  ['pick', (w, g, v) => w.pick(v, [0, 0, -1], 0.1), 'pick: origin', badVec],
  ['pick', (w, g, v) => w.pick([0, 1, 3], v, 0.1), 'pick: direction', badVec],
  ['pick', (w, g, v) => w.pick([0, 1, 3], [0, 0, -1], v), 'pick: radius', [...badNumber, -1, undefined]],
  ['pickCollider', (w, g, v) => w.pickCollider(v, [0, 0, -1]), 'pickCollider: origin', badVec],
  ['pickCollider', (w, g, v) => w.pickCollider([0, 1, 3], v), 'pickCollider: direction', badVec],
  ['step', (w, g, v) => w.step(v), 'step: step count', [NaN, 1.5, '1', true, -1, 100001, 2 ** 32 + 1, 1n, null, {}, Infinity]],
];

test('every entry point refuses every kind of bad argument by name, and the world is unchanged', () => {
  const { w, grab } = world();
  let n = 0;
  for (const [name, call, prefix, values] of CASES) {
    for (const v of values) {
      refused(w, () => call(w, grab, v), prefix, `${name}(${show(v)})`);
      n++;
    }
  }
  assert.ok(n > 350, `${n} refusals`);
  // The same calls with good arguments are taken (the checks refuse the arguments, not the calls).
  const before = w.hash();
  w.setPosition(3, [0, 1, 0]);
  w.setVelocity(3, new Float32Array([0, 1, 0]));
  w.setMass(45, 0.5);
  w.setInvMass(45, 2);
  w.moveAttachment(grab, [0, 1.1, 0.3]);
  w.setColliderTransform(0, [0, 0.4, 0], [0, 0, 0, 1]);
  w.setColliderMaterial(0, { restitution: 0.5 });
  w.setObjectMass(1, 0.02);
  w.setObjectStiffness(0, 'bend', 0.3);
  w.setObjectStiffness(1, 'chain', 0.9);
  assert.equal(typeof w.pick([0, 1, 3], [0, 0, -1], 0.1), 'number');
  w.step(2);
  w.removeAttachment(grab);
  assert.notEqual(w.hash(), before);
  w.destroy();
});

test('the issue\'s cases: NaN is not particle 0, 45.9 and "45" and 2^32 + 45 are not 45, "0.5" is not a mass', () => {
  const { w } = world();
  const pin = [...w.positions.subarray(0, 4)];
  const p45 = [...w.positions.subarray(4 * 45, 4 * 46)];
  for (const i of [NaN, 45.9, '45', 2 ** 32 + 45]) {
    assert.throws(() => w.setPosition(i, [3, 3, 3]), /setPosition: particle must be an integer in 0\.\.69, got/);
  }
  assert.throws(() => w.setMass(45, '0.5'), /setMass: mass \(kg\) must be a finite number, got "0.5"/);
  assert.deepEqual([...w.positions.subarray(0, 4)], pin, 'the pinned corner stayed');
  assert.deepEqual([...w.positions.subarray(4 * 45, 4 * 46)], p45, 'particle 45 stayed, mass included (w)');
  w.destroy();
});

test('a stale attachment id is refused by the engine, naming it, and nothing changes', () => {
  const { w, grab } = world();
  w.removeAttachment(grab);
  refused(w, () => w.removeAttachment(grab), /attachment/, 'removed twice');
  refused(w, () => w.moveAttachment(grab, [0, 1, 0]), /attachment/, 'moved after removal');
  w.destroy();
});

test('setObjectStiffness sets one object\'s constraints of one kind; the description follows', () => {
  const scene = {
    format: 'minipbd-scene', version: 2, ground: { enabled: false },
    objects: [
      { type: 'chain', start: [0, 0, 0], end: [1, 0, 0], segments: 1 },
      { type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 1 },
    ],
  };
  const w = pbd.createWorld({ ...scene, solver: { gravity: [0, 0, 0], substeps: 1, iterations: 1 } });
  // Stretch both links to 2 m; with stiffness 0 the first stays stretched, the second (k = 1) snaps back.
  for (const [i, x] of [[1, 2], [3, 2]]) w.setPosition(i, [x, i === 1 ? 0 : 1, 0]);
  w.setObjectStiffness(0, 'chain', 0);
  w.step(1);
  const len = (a, b) => Math.hypot(...[0, 1, 2].map((k) => w.positions[4 * b + k] - w.positions[4 * a + k]));
  assert.ok(Math.abs(len(0, 1) - 2) < 1e-6, `object 0 untouched by its constraint: ${len(0, 1)}`);
  assert.ok(Math.abs(len(2, 3) - 1) < 1e-5, `object 1 projected to rest: ${len(2, 3)}`);
  assert.deepEqual(w.describe().objects.map((o) => o.stiffness), [0, 1]);
  assert.equal(Number.isNaN(w.getParam('stiffness.chain')), false);
  w.destroy();
});
