// replay.test.mjs — links that replay a run, on the shipped dist/minipbd.wasm:
//   - a link's scene and a step count give the same bits as the scene itself, in any step chunking;
//   - a scripted drag (grabs, moves, releases, collider moves with rotations, settings) recorded through the
//     Recorder on world A, put in a link, decoded and replayed on world B gives bit-identical positions at every
//     checkpoint;
//   - what cannot be recorded ends the recording before it, limits end it, and the replay stays exact;
//   - hostile replays are refused naming the bad value, before any world is touched;
//   - the CLI replays a link's recording like the page.
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { validateScene, SceneError } from '../../web/js/format/scene.js';
import { readReplay, validateReplay, REPLAY_LIMITS } from '../../web/js/format/replay.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { encodeLink, decodeLink, decodeRun, LinkError } from '../../web/js/format/link.js';
import { Recorder, chooseQuantum } from '../../web/js/record/recorder.js';
import { Replayer } from '../../web/js/record/replayer.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

/** FNV-1a over the Float32 bits of the positions (x, y, z, w per particle). */
function positionsHash(world) {
  const bytes = new Uint8Array(world.positions.buffer, world.positions.byteOffset, world.positions.byteLength);
  let h = 2166136261;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return h;
}
const bits = (world) => Array.from(new Uint32Array(world.positions.buffer, world.positions.byteOffset, world.positions.length));

// The cloth with other settings than the built-in, so the link is not a built-in.
function tunedCloth() {
  const s = structuredClone(builtinScenes.cloth);
  s.name = 'Tuned cloth';
  s.solver.substeps = 4;
  s.solver.iterations = 3;
  s.solver.damping = 0.2;
  s.objects[0].stiffness.bend = 0.3;
  return s;
}

// A small scene with a sphere and a rotated capsule under a cloth, for collider drags.
function colliderScene() {
  return validateScene({
    format: 'minipbd-scene', version: 2, name: 'colliders',
    solver: { substeps: 4, thickness: 0.02 },
    colliders: [
      { type: 'sphere', position: [0, 0.6, 0], radius: 0.3 },
      { type: 'capsule', position: [0.5, 0.4, 0], rotation: [0, 0, 0.7071068, 0.7071068], radius: 0.08, halfHeight: 0.4 },
    ],
    objects: [
      { type: 'cloth', origin: [-0.6, 1.2, -0.6], size: [1.2, 1.2], resolution: [16, 16], plane: 'xz', mass: 0.01 },
      { type: 'chain', start: [0.5, 1.5, 0.3], end: [0.5, 1.5, -0.3], segments: 12, pins: [0] },
    ],
  });
}

test('a link reproduces the run: the same scene and step count give the same bits, in any chunking', async () => {
  const scene = tunedCloth();
  const link = await encodeLink(scene);
  const fromLink = await decodeLink(link);
  const a = pbd.createWorld(scene);
  const b = pbd.createWorld(fromLink);
  a.step(300);
  // the page steps 1 to 4 at a time
  for (let done = 0, k = 0; done < 300; k++) {
    const n = Math.min(1 + (k % 4), 300 - done);
    b.step(n);
    done += n;
  }
  assert.equal(b.hash(), a.hash(), 'world.hash() (positions and velocities)');
  assert.equal(positionsHash(b), positionsHash(a), 'FNV of the positions\' Float32 bits');
  assert.deepEqual(bits(b), bits(a));
  // the hashes can tell runs apart: one step more, or another scene
  b.step(1);
  assert.notEqual(b.hash(), a.hash());
  assert.notEqual(positionsHash(b), positionsHash(a));
  const c = pbd.createWorld(builtinScenes.cloth);
  c.step(300);
  assert.notEqual(c.hash(), a.hash());
  for (const w of [a, b, c]) w.destroy();
});

/** Runs `script(world, step, ids)` before each of `steps` steps of a recorded world; returns what the test needs. */
function record(scene, steps, script, options) {
  const world = pbd.createWorld(scene);
  const recorder = new Recorder(world, options);
  const checkpoints = [];
  const ids = {};
  for (let s = 0; s < steps; s++) {
    script(world, s, ids);
    world.step(1);
    if ((s + 1) % 10 === 0) checkpoints.push({ step: s + 1, hash: world.hash(), bits: bits(world) });
  }
  const replay = recorder.stop();
  return { world, recorder, replay, checkpoints };
}

/** Replays through a link on a new world, stepping in uneven chunks, and compares every checkpoint. */
async function replayAndCompare(recorded, { chunks = [1, 3, 4, 2, 7, 1, 13] } = {}) {
  const link = await encodeLink(recorded.recorder.scene, { replay: recorded.replay });
  assert.match(link, /^s=2\./);
  const run = await decodeRun(link);
  assert.deepEqual(run.replay, recorded.replay, 'the replay survives the link unchanged');
  const world = pbd.createWorld(run.scene);
  let ended = null;
  const player = new Replayer(world, run.replay, { onEnd: (r) => { ended = r; } });
  let done = 0, k = 0;
  for (const cp of recorded.checkpoints) {
    while (done < cp.step) {
      const n = Math.min(chunks[k++ % chunks.length], cp.step - done);
      world.step(n);
      done += n;
    }
    assert.equal(world.hash(), cp.hash, `hash at step ${cp.step}`);
    assert.deepEqual(bits(world), cp.bits, `positions at step ${cp.step}`);
  }
  assert.ok(ended, 'the replay ended');
  assert.equal(ended.exact, true);
  assert.equal(ended.hash, recorded.replay.hash);
  assert.equal(world.attachmentCount, 0, 'grabs still held at the end are released');
  assert.equal(Object.hasOwn(world, 'step'), false, 'the world is plain again');
  return { link, world, player };
}

test('a recorded drag (grabs, moves, releases, settings) replays bit for bit at every checkpoint', async () => {
  const scene = tunedCloth();
  const cols = 40;
  const p1 = 28 * cols + 20, p2 = 30 * cols + 8, p3 = 30 * cols + 32;
  const recorded = record(scene, 260, (w, s, ids) => {
    if (s === 20) ids.a = w.addAttachment(p1, [0.02, 0.8, 0.03], 1);
    if (s > 20 && s < 100) {
      // several pointer moves between two steps: only the last acts, and that is what is recorded
      w.moveAttachment(ids.a, [0.02 + Math.sin(s / 9) * 0.4, 0.8 + s * 0.004, 0.03 + Math.cos(s / 5) * 0.2]);
      if (s % 3 === 0) w.moveAttachment(ids.a, [0.1 + Math.sin(s / 9) * 0.4, 0.9 + s * 0.004, -0.2]);
    }
    if (s === 100) w.removeAttachment(ids.a);
    if (s === 110) { ids.b = w.addAttachment(p2, [-0.6, 0.6, 0.1], 1); ids.c = w.addAttachment(p3, [0.6, 0.6, 0.1], 0.5); }
    if (s > 110 && s < 170) {
      w.moveAttachment(ids.b, [-0.6 - (s - 110) * 0.01, 0.6, 0.1 + (s - 110) * 0.005]);
      w.moveAttachment(ids.c, [0.6 + (s - 110) * 0.01, 0.6 - (s - 110) * 0.002, 0.1]);
    }
    if (s === 130) w.setParam('iterations', 7);
    if (s === 140) { w.setParam('stiffness.bend', 0.05); w.setParam('damping', 0.5); }
    if (s === 150) { w.setParam('recordConvergence', 1); w.setParam('dt', 1 / 90); } // recordConvergence changes nothing: not recorded
    if (s === 170) w.removeAttachment(ids.b);
    if (s === 200) ids.d = w.addAttachment(p1, [0, 1.5, 0.5], 1); // still held when the recording stops
  });
  const { replay } = recorded;
  assert.equal(replay.v, 1);
  assert.equal(replay.steps, 260);
  assert.equal(replay.q, chooseQuantum(scene));
  assert.equal(replay.q, 1000, 'a 2 m cloth gets millimetres');
  assert.equal(replay.hash, recorded.world.hash());
  const kinds = replay.events.map((e) => e[1]);
  assert.deepEqual([...new Set(kinds)].sort(), ['g', 'm', 'p', 'r']);
  assert.equal(kinds.filter((k) => k === 'g').length, 4);
  assert.equal(kinds.filter((k) => k === 'p').length, 4, 'recordConvergence is not recorded');
  assert.equal(replay.events.filter((e) => e[1] === 'm' && e[2] === 0).length, 79, 'one move per step of the first drag');
  assert.deepEqual(replay.events.find((e) => e[1] === 'g' && e[2] === p3).slice(6), [0.5], 'a stiffness other than 1 is kept');
  const { link } = await replayAndCompare(recorded);
  console.log(`recorded drag: ${replay.events.length} events over ${replay.steps} steps, link ${link.length + 1} characters`);
});

test('collider drags with rotations and several moves between steps replay bit for bit', async () => {
  const scene = colliderScene();
  const recorded = record(scene, 200, (w, s, ids) => {
    if (s >= 10 && s < 120) {
      const x = Math.sin(s / 15) * 0.4;
      w.setColliderTransform(0, [x, 0.6, Math.cos(s / 11) * 0.2], [0, 0, 0, 1]);
      if (s % 4 === 0) w.setColliderTransform(0, [x + 0.01, 0.62, 0], [0, 0, 0, 1]);
    }
    if (s >= 30 && s < 150) {
      const a = (s - 30) / 40;
      // a rotation read back from the world (float32, normalised) is passed again and again, as input.js does
      const rot = s < 90 ? w.colliders[1].rotation : [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
      w.setColliderTransform(1, [0.5, 0.4 + (s - 30) * 0.002, 0], rot);
    }
    if (s === 60) ids.a = w.addAttachment(262, [0.5, 1.5, 0], 1);
    if (s > 60 && s < 100) w.moveAttachment(ids.a, [0.5 + (s - 60) * 0.01, 1.6, 0]);
    if (s === 100) w.removeAttachment(ids.a);
  });
  const kinds = recorded.replay.events.map((e) => e[1]);
  assert.ok(kinds.filter((k) => k === 'c').length > 200);
  const withRotation = recorded.replay.events.filter((e) => e[1] === 'c' && e.length === 10);
  assert.ok(withRotation.length >= 60 && withRotation.length < 80, `${withRotation.length} collider events carry a rotation (only when it changes)`);
  assert.equal(recorded.replay.q, 1000, 'a 1.2 m scene gets millimetres');
  await replayAndCompare(recorded);
});

test('collider materials and the speed limit, tether slack and self-friction changed while recording replay bit for bit', async () => {
  const scene = colliderScene();
  scene.solver.selfCollision = true;
  const recorded = record(scene, 180, (w, s) => {
    // a slider dragged between two steps: several changes, only the last acts and is recorded
    if (s === 15) for (const e of [0.1, 0.35000000000000003, 0.9]) w.setColliderMaterial(0, { restitution: e });
    if (s === 40) w.setColliderMaterial(1, { staticFriction: 1.2, kineticFriction: 0.05 });
    if (s === 60) w.setColliderMaterial(0, { staticFriction: 0, kineticFriction: 0, restitution: 0 });
    if (s === 70) w.setColliderTransform(0, [0.1, 0.65, 0], [0, 0, 0, 1]);
    if (s === 80) w.setParam('maxSpeed', 1.5);
    if (s === 90) w.setParam('tetherSlack', 0.2);
    if (s === 100) w.setParam('selfFriction', 0.9);
    if (s === 120) w.setParam('maxSpeed', 100);
  });
  const { replay } = recorded;
  const f = replay.events.filter((e) => e[1] === 'f');
  assert.deepEqual(f.map((e) => e.slice(2)), [[0, 0.5, 0.4, 0.9], [1, 1.2, 0.05, 0], [0, 0, 0, 0]],
    'one event per collider and step, carrying the whole material as applied');
  assert.deepEqual(replay.events.filter((e) => e[1] === 'p').map((e) => e.slice(2)),
    [['maxSpeed', 1.5], ['tetherSlack', 0.2], ['selfFriction', 0.9], ['maxSpeed', 100]]);
  assert.equal(recorded.recorder.stopReason, 'stopped', 'nothing ended it early');
  // the world's description followed every change
  assert.deepEqual((({ staticFriction, kineticFriction, restitution }) => [staticFriction, kineticFriction, restitution])(recorded.world.describe().colliders[1]), [1.2, 0.05, 0]);
  const { world } = await replayAndCompare(recorded);
  const c = world.describe().colliders;
  assert.deepEqual([c[0].restitution, c[1].staticFriction, c[1].kineticFriction], [0, 1.2, 0.05], 'the replay set them through setColliderMaterial');
  // without the material events the run differs (they do act)
  const without = { ...replay, events: replay.events.filter((e) => e[1] !== 'f') };
  const other = pbd.createWorld(scene);
  let ended = null;
  new Replayer(other, without, { onEnd: (r) => { ended = r; } });
  other.step(replay.steps);
  assert.equal(ended.exact, false);
});

test('a material change under a running replay ends it first, with its cause', () => {
  const scene = colliderScene();
  const replay = { v: 1, steps: 40, q: 1000, events: [[2, 'f', 0, 0.2, 0.1, 0.7]] };
  const a = pbd.createWorld(scene);
  let result = null;
  new Replayer(a, replay, { onEnd: (r) => { result = r; } });
  a.step(10);
  assert.equal(a.describe().colliders[0].restitution, 0.7, 'the replay set it');
  assert.equal(result, null);
  a.setColliderMaterial(1, { restitution: 0.3 });
  assert.deepEqual({ steps: result.steps, stopped: result.stopped, reason: result.reason, cause: result.cause, exact: result.exact },
    { steps: 10, stopped: true, reason: 'a collider was changed', cause: 'collider', exact: null });
  assert.equal(a.describe().colliders[1].restitution, 0.3, 'and the change is applied');
  assert.equal(Object.hasOwn(a, 'setColliderMaterial'), false, 'the world is plain again');
});

test('the recorder applies live exactly what it records (quantised targets), and nothing else differs', () => {
  const scene = tunedCloth();
  const a = pbd.createWorld(scene);
  const rec = new Recorder(a, { q: 100 });
  const raw = [0.123456789, 1.987654321, -0.5555555];
  const id = a.addAttachment(1000, raw, 1);
  a.step(5);
  a.moveAttachment(id, [raw[0] + 0.3, raw[1], raw[2]]);
  a.step(5);
  const replay = rec.stop();
  assert.deepEqual(replay.events, [[0, 'g', 1000, 12, 199, -56], [5, 'm', 0, 30, 0, 0]]);
  // an unrecorded world driven with n / q matches; one driven with the raw targets does not
  const drive = (targets) => {
    const w = pbd.createWorld(scene);
    const i = w.addAttachment(1000, targets[0], 1);
    w.step(5);
    w.moveAttachment(i, targets[1]);
    w.step(5);
    const h = w.hash();
    w.destroy();
    return h;
  };
  assert.equal(drive([[0.12, 1.99, -0.56], [0.42, 1.99, -0.56]]), a.hash());
  assert.notEqual(drive([raw, [raw[0] + 0.3, raw[1], raw[2]]]), a.hash());
});

test('what a replay cannot carry ends the recording before it; the limits end it too; what was recorded stays exact', async () => {
  const scene = tunedCloth();
  // setMass: the recording ends at the steps before it
  {
    const a = pbd.createWorld(scene);
    let reason = null;
    const rec = new Recorder(a, { onStop: (r, why) => { reason = why; } });
    const id = a.addAttachment(900, [0, 1, 0.2], 1);
    a.step(30);
    const hash30 = a.hash();
    a.setMass(10, 0.5);
    assert.equal(reason, 'changing masses cannot be recorded');
    assert.deepEqual(rec.stopCause, { key: 'mass' });
    assert.equal(rec.active, false);
    assert.equal(Object.hasOwn(a, 'step'), false, 'the world is plain again');
    a.moveAttachment(id, [0, 1.2, 0.2]); // the held grab goes on working, unrecorded
    a.step(10);
    const replay = rec.toReplay();
    assert.equal(replay.steps, 30);
    assert.equal(replay.hash, hash30);
    const b = pbd.createWorld(scene);
    new Replayer(b, replay);
    b.step(30);
    assert.equal(b.hash(), hash30);
  }
  // one object's stiffness: the recording ends before it; a refused one changes nothing and it goes on
  {
    const a = pbd.createWorld(scene);
    const rec = new Recorder(a);
    a.step(4);
    assert.throws(() => a.setObjectStiffness(0, 'chain', 0.5), /setObjectStiffness: kind/);
    assert.equal(rec.active, true);
    const hash4 = a.hash();
    a.setObjectStiffness(0, 'bend', 0.5);
    assert.equal(rec.active, false);
    assert.match(rec.stopReason, /one object's stiffness cannot be recorded/);
    assert.deepEqual([rec.toReplay().steps, rec.toReplay().hash], [4, hash4]);
  }
  // parameters out of the scene format's range: the world refuses them too (one table), so nothing changes and
  // the recording goes on
  for (const [name, value] of [['dt', 0.5], ['damping', 500]]) {
    const a = pbd.createWorld(scene);
    const rec = new Recorder(a);
    a.step(3);
    const before = a.hash();
    assert.throws(() => a.setParam(name, value), new RegExp(`parameter ${name} must be a number in`));
    assert.equal(a.hash(), before);
    assert.equal(rec.active, true, name);
    a.step(2);
    assert.equal(rec.stop().steps, 5);
  }
  // a parameter the world takes but a replay cannot carry (recordConvergence is not recorded at all; an unknown
  // name is refused by both): ends the recording only when the world took it
  {
    const a = pbd.createWorld(scene);
    const rec = new Recorder(a);
    a.step(3);
    assert.throws(() => a.setParam('nope', 1), /unknown parameter "nope"/);
    assert.equal(rec.active, true);
    a.setParam('recordConvergence', 1);
    assert.equal(rec.active, true, 'recordConvergence changes no motion');
    assert.equal(rec.stop().steps, 3);
  }
  // a collider material the world refuses changes nothing, and the recording goes on
  {
    const a = pbd.createWorld(colliderScene());
    const rec = new Recorder(a);
    a.step(2);
    assert.throws(() => a.setColliderMaterial(0, { restitution: 1.5 }), /restitution/);
    assert.throws(() => a.setColliderMaterial(5, { restitution: 0.5 }), /setColliderMaterial: collider must be an integer in 0..1, got 5/);
    assert.equal(rec.active, true);
    a.step(2);
    assert.deepEqual(rec.stop().events, []);
  }
  // the step limit: the recording stops at it and the world runs on
  {
    const a = pbd.createWorld(scene);
    const rec = new Recorder(a, { maxSteps: 50 });
    a.addAttachment(900, [0, 1, 0.2], 1);
    a.step(30);
    const h = { at: null };
    rec.onStop = () => { h.at = a.hash(); };
    a.step(30);
    assert.equal(rec.stopReason, 'steps');
    assert.equal(a.stats().steps, 60);
    const replay = rec.toReplay();
    assert.equal(replay.steps, 50);
    assert.equal(replay.hash, h.at);
    const b = pbd.createWorld(scene);
    new Replayer(b, replay);
    b.step(50);
    assert.equal(b.hash(), replay.hash);
  }
  // the event limit: the call past it runs unrecorded, the recording ends at the last step
  {
    const a = pbd.createWorld(scene);
    const rec = new Recorder(a, { maxEvents: 5 });
    const id = a.addAttachment(900, [0, 1, 0.2], 1);
    for (let s = 0; s < 10; s++) {
      a.moveAttachment(id, [0, 1 + s * 0.01, 0.2]);
      a.step(1);
    }
    assert.equal(rec.stopReason, 'events');
    const replay = rec.toReplay();
    assert.equal(replay.events.length, 5);
    assert.equal(replay.steps, 5);
  }
  // a recording starts from a fresh world only
  {
    const a = pbd.createWorld(scene);
    a.step(1);
    assert.throws(() => new Recorder(a), /freshly built world \(this one has run 1 steps/);
  }
});

test('hostile replays are refused naming the bad value, and the world they were meant for is untouched', async () => {
  const scene = validateScene(tunedCloth()); // 1600 particles, no colliders
  const withColliders = colliderScene();
  const base = () => ({ v: 1, steps: 100, q: 1000, events: [[5, 'g', 10, 0, 1000, 0], [1, 'm', 0, 5, 5, 5], [10, 'r', 0]] });
  const edit = (f) => { const r = base(); f(r); return r; };
  const BAD = [
    ['not an object', [], /^replay must be an object/],
    ['unknown key', edit((r) => { r.extra = 1; }), /^unknown key replay\.extra/],
    ['__proto__ key', JSON.parse('{"__proto__":{"polluted":1},"v":1,"steps":1,"q":1000,"events":[]}'), /^forbidden key replay\.__proto__/],
    ['newer replay version', edit((r) => { r.v = 2; }), /^replay\.v must be 1 \(the only replay version this page reads\), got 2$/],
    ['no steps', edit((r) => { delete r.steps; }), /^replay\.steps is required$/],
    ['huge step count', edit((r) => { r.steps = 1e9; }), /^replay\.steps must be an integer in 0\.\.36000, got 1000000000$/],
    ['fractional steps', edit((r) => { r.steps = 10.5; }), /^replay\.steps must be an integer/],
    ['Infinity steps (1e999 in JSON)', JSON.parse('{"v":1,"steps":1e999,"q":1000,"events":[]}'), /^replay\.steps must be an integer in 0\.\.36000, got Infinity$/],
    ['odd quantum', edit((r) => { r.q = 7; }), /^replay\.q must be one of 100, 1000, 10000, 100000, got 7$/],
    ['negative hash', edit((r) => { r.hash = -1; }), /^replay\.hash must be an integer in 0\.\.4294967295/],
    ['too many events', edit((r) => { r.events = Array.from({ length: REPLAY_LIMITS.maxEvents + 1 }, () => [0, 'p', 'iterations', 2]); r.steps = 5; }), /^replay\.events must be an array of at most 10000 events/],
    ['sparse events', edit((r) => { r.events = new Array(3); }), /^replay\.events\[0\] must be present/],
    ['event is not an array', edit((r) => { r.events[1] = { step: 1 }; }), /^replay\.events\[1\] must be an event/],
    ['event nested deeper', edit((r) => { r.events[0] = [[[5]], 'g', 10, 0, 0, 0]; }), /^replay\.events\[0\]\[0\] must be an integer/],
    ['unknown kind', edit((r) => { r.events[0][1] = 'x'; }), /^replay\.events\[0\]\[1\] must be "g", "m", "r", "c", "f", "p" or "e", got "x"$/],
    ['markup as a kind', edit((r) => { r.events[0][1] = '<img src=x onerror=alert(1)>'; }), /^replay\.events\[0\]\[1\] must be/],
    ['too few items', edit((r) => { r.events[0] = [5, 'g', 10]; }), /^replay\.events\[0\] must have 6 or 7 items for kind "g"/],
    ['negative step delta (out of order)', edit((r) => { r.events[1][0] = -1; }), /^replay\.events\[1\]\[0\] must be an integer in 0\.\.36000, got -1$/],
    ['event at or after the last step', edit((r) => { r.events[2][0] = 94; }), /^replay\.events\[2\]\[0\] puts the event at step 100, not before replay\.steps \(100\), got 94$/],
    ['particle index past the end', edit((r) => { r.events[0][2] = 1600; }), /^replay\.events\[0\]\[2\] must be an integer in 0\.\.1599, got 1600$/],
    ['negative particle index', edit((r) => { r.events[0][2] = -1; }), /^replay\.events\[0\]\[2\] must be an integer in 0\.\.1599, got -1$/],
    ['NaN coordinate (a string)', edit((r) => { r.events[0][3] = 'NaN'; }), /^replay\.events\[0\]\[3\] must be an integer/],
    ['null coordinate (NaN in JSON)', JSON.parse('{"v":1,"steps":100,"q":1000,"events":[[5,"g",10,null,0,0]]}'), /^replay\.events\[0\]\[3\] must be an integer in -10000000\.\.10000000, got null$/],
    ['Infinity coordinate', JSON.parse('{"v":1,"steps":100,"q":1000,"events":[[5,"g",10,1e999,0,0]]}'), /got Infinity$/],
    ['fractional coordinate', edit((r) => { r.events[0][4] = 0.5; }), /^replay\.events\[0\]\[4\] must be an integer/],
    ['target beyond the scene bounds', edit((r) => { r.events[0][4] = 10000001; }), /^replay\.events\[0\]\[4\] must be an integer in -10000000\.\.10000000/],
    ['deltas walking out of bounds', edit((r) => { r.events.splice(2, 0, [0, 'm', 0, 0, 19999000, 0]); }), /^replay\.events\[2\]\[4\] moves coordinate 1 to 20000\.005, outside ±10000/],
    ['stiffness above 1', edit((r) => { r.events[0].push(2); }), /^replay\.events\[0\]\[6\] must be a number in \[0, 1\], got 2$/],
    ['moving a grab that was never made', edit((r) => { r.events[1][2] = 3; }), /^replay\.events\[1\]\[2\] must be a grab that is held at this step \(held: 0\), got 3$/],
    ['releasing twice', edit((r) => { r.events.push([1, 'r', 0]); }), /^replay\.events\[3\]\[2\] must be a grab that is held at this step \(none is held\), got 0$/],
    ['17 grabs held at once', edit((r) => { r.events = Array.from({ length: 17 }, (_, i) => [0, 'g', i, 0, 0, 0]); }), /^replay\.events\[16\] would hold more than 16 grabs at once/],
    ['a collider in a scene without one', edit((r) => { r.events[0] = [5, 'c', 0, 0, 0, 0]; }), /^replay\.events\[0\]\[2\] must be a collider index, but the scene has no colliders, got 0$/],
    ['a parameter a replay may not set', edit((r) => { r.events[0] = [5, 'p', 'recordConvergence', 1]; }), /^replay\.events\[0\]\[2\] must name a parameter a replay may set/],
    ['a speed limit out of range', edit((r) => { r.events[0] = [5, 'p', 'maxSpeed', 0]; }), /^replay\.events\[0\]\[3\] must be a number in \[0\.001, 10000\], got 0$/],
    ['a tether slack out of range', edit((r) => { r.events[0] = [5, 'p', 'tetherSlack', 2]; }), /^replay\.events\[0\]\[3\] must be a number in \[0, 1\], got 2$/],
    ['a material in a scene without colliders', edit((r) => { r.events[0] = [5, 'f', 0, 0.5, 0.4, 0]; }), /^replay\.events\[0\]\[2\] must be a collider index, but the scene has no colliders, got 0$/],
    ['a parameter out of range', edit((r) => { r.events[0] = [5, 'p', 'iterations', 0]; }), /^replay\.events\[0\]\[3\] must be an integer in 1\.\.200, got 0$/],
    ['__proto__ as a parameter', edit((r) => { r.events[0] = [5, 'p', '__proto__', 1]; }), /^replay\.events\[0\]\[2\] must name a parameter/],
  ];
  const COLLIDER_BAD = [
    ['collider index past the end', { v: 1, steps: 10, q: 1000, events: [[0, 'c', 2, 0, 0, 0]] }, /^replay\.events\[0\]\[2\] must be an integer in 0\.\.1, got 2$/],
    ['zero quaternion', { v: 1, steps: 10, q: 1000, events: [[0, 'c', 1, 0, 0, 0, 0, 0, 0, 0]] }, /^replay\.events\[0\]\[6\] must start a non-zero quaternion/],
    ['rotation with 3 numbers', { v: 1, steps: 10, q: 1000, events: [[0, 'c', 1, 0, 0, 0, 0, 0, 1]] }, /must have 6 or 10 items for kind "c"/],
    ['huge rotation', { v: 1, steps: 10, q: 1000, events: [[0, 'c', 1, 0, 0, 0, 0, 0, 0, 1e300]] }, /^replay\.events\[0\]\[9\] must be a number in \[-10000, 10000\]/],
    // materials: the ranges of a scene's colliders (friction 0..10, restitution 0..1), all three, finite
    ['material of a collider past the end', { v: 1, steps: 10, q: 1000, events: [[0, 'f', 2, 0.5, 0.4, 0]] }, /^replay\.events\[0\]\[2\] must be an integer in 0\.\.1, got 2$/],
    ['static friction above 10', { v: 1, steps: 10, q: 1000, events: [[0, 'f', 0, 10.5, 0.4, 0]] }, /^replay\.events\[0\]\[3\] must be a number in \[0, 10\], got 10\.5$/],
    ['negative kinetic friction', { v: 1, steps: 10, q: 1000, events: [[0, 'f', 0, 0.5, -0.1, 0]] }, /^replay\.events\[0\]\[4\] must be a number in \[0, 10\], got -0\.1$/],
    ['restitution above 1', { v: 1, steps: 10, q: 1000, events: [[0, 'f', 1, 0.5, 0.4, 1.5]] }, /^replay\.events\[0\]\[5\] must be a number in \[0, 1\], got 1\.5$/],
    ['restitution as a string', { v: 1, steps: 10, q: 1000, events: [[0, 'f', 1, 0.5, 0.4, '1']] }, /^replay\.events\[0\]\[5\] must be a number in \[0, 1\], got "1"$/],
    ['restitution null (NaN in JSON)', JSON.parse('{"v":1,"steps":10,"q":1000,"events":[[0,"f",1,0.5,0.4,null]]}'), /^replay\.events\[0\]\[5\] must be a number in \[0, 1\], got null$/],
    ['a material without restitution', { v: 1, steps: 10, q: 1000, events: [[0, 'f', 1, 0.5, 0.4]] }, /^replay\.events\[0\] must have 6 items for kind "f"/],
    ['a material at the last step', { v: 1, steps: 10, q: 1000, events: [[10, 'f', 1, 0.5, 0.4, 0]] }, /^replay\.events\[0\]\[0\] puts the event at step 10, not before replay\.steps \(10\)/],
  ];
  assert.ok(BAD.length + COLLIDER_BAD.length >= 35);
  const world = pbd.createWorld(scene);
  world.step(0);
  const before = world.hash();
  // A grab's particle against the engine's count of the world (a page's openLink asks it before the running world is
  // touched; a Replayer asks its world): a link, read before any engine, knows only the scene's particle limit.
  const PAST_COUNT = new Set(['particle index past the end']);
  for (const [what, replay, message, s = scene] of [...BAD, ...COLLIDER_BAD.map((c) => [...c, withColliders])]) {
    assert.throws(() => readReplay(replay, s, 'replay', pbd.countScene(s).total.particles), (e) => e instanceof SceneError && message.test(e.message), what);
    // through a link: refused by name, before any world exists
    const json = JSON.stringify({ scene: s, replay });
    if (PAST_COUNT.has(what)) {
      assert.deepEqual((await decodeRun(`s=2.${deflateRawSync(Buffer.from(json)).toString('base64url')}`)).replay, validateReplay(replay, s), `${what}: within the limit`);
    } else if (json.length < 200000) {
      const link = `s=2.${deflateRawSync(Buffer.from(json)).toString('base64url')}`;
      const e = await decodeRun(link).catch((err) => err);
      assert.ok(e instanceof LinkError, `${what}: ${e}`);
      assert.equal(e.reason, 'invalid-replay', `${what}: ${e.message}`);
      assert.doesNotMatch(e.message, /[<>]/, `${what}: no markup in the message`);
    }
    // on a world: refused before anything is wrapped or applied
    if (s === scene) {
      assert.throws(() => new Replayer(world, replay), SceneError, what);
      assert.equal(Object.hasOwn(world, 'step'), false, `${what}: world not wrapped`);
    }
  }
  assert.equal(world.hash(), before, 'the world is unchanged');
  assert.equal(world.attachmentCount, 0);
  assert.equal(world.stats().steps, 0);
  assert.equal(({}).polluted, undefined);
  // the base replay itself is fine
  assert.deepEqual(validateReplay(base(), scene), base());
});

test('a replay whose recorded hash differs says so; a replay stopped early releases its grabs', () => {
  const scene = tunedCloth();
  const replay = { v: 1, steps: 20, q: 1000, hash: 1, events: [[2, 'g', 900, 0, 1000, 200]] };
  const a = pbd.createWorld(scene);
  let result = null;
  new Replayer(a, replay, { onEnd: (r) => { result = r; } });
  a.step(25);
  assert.equal(result.steps, 20);
  assert.equal(result.exact, false);
  assert.equal(result.hash === 1, false);
  const b = pbd.createWorld(scene);
  const p = new Replayer(b, replay);
  b.step(5);
  assert.equal(b.attachmentCount, 1);
  const r = p.stop();
  assert.equal(r.stopped, true);
  assert.equal(r.steps, 5);
  assert.equal(b.attachmentCount, 0);
  b.step(5); // plain steps again
  assert.equal(b.stats().steps, 10);
});

test('minipbd-run replays a link\'s recording like the page, and reports whether it matched', async () => {
  const recorded = record(tunedCloth(), 60, (w, s, ids) => {
    if (s === 5) ids.a = w.addAttachment(1000, [0, 1, 0.3], 1);
    if (s > 5 && s < 50) w.moveAttachment(ids.a, [Math.sin(s / 5) * 0.3, 1, 0.3]);
  });
  const link = await encodeLink(recorded.recorder.scene, { replay: recorded.replay });
  const cli = path.join(root, 'tools', 'minipbd-run.mjs');
  const out = JSON.parse(execFileSync(process.execPath, [cli, `http://example.test/#${link}`], { encoding: 'utf8' }));
  assert.equal(out.steps, 60, 'steps default to the recording');
  assert.equal(out.hash, recorded.replay.hash);
  assert.deepEqual(out.replay, { steps: 60, events: recorded.replay.events.length, recordedHash: recorded.replay.hash, hashAtEnd: recorded.replay.hash, exact: true });
  const longer = JSON.parse(execFileSync(process.execPath, [cli, link, '--steps', '80'], { encoding: 'utf8' }));
  assert.equal(longer.replay.exact, true);
  assert.notEqual(longer.hash, recorded.replay.hash);
  const bad = spawnSync(process.execPath, [cli, `s=2.${deflateRawSync(Buffer.from(JSON.stringify({ scene: builtinScenes.chain, replay: { v: 1, steps: 5, q: 1000, events: [[0, 'g', 26, 0, 0, 0]] } }))).toString('base64url')}`], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /replay\.events\[0\]\[2\] must be an integer in 0\.\.25, got 26/);
});

test('a setting changed under a running replay ends it first (the change is applied, the result says so)', () => {
  const scene = tunedCloth();
  const replay = { v: 1, steps: 40, q: 1000, events: [[2, 'g', 900, 0, 1000, 200], [3, 'p', 'iterations', 5]] };
  const a = pbd.createWorld(scene);
  let result = null;
  new Replayer(a, replay, { onEnd: (r) => { result = r; } });
  a.step(10);
  assert.equal(a.getParam('iterations'), 5, 'the replay set it through setParam');
  a.setParam('recordConvergence', 1); // no effect on the motion: the replay goes on
  assert.equal(result, null);
  a.setParam('iterations', 9);
  assert.deepEqual({ steps: result.steps, stopped: result.stopped, reason: result.reason, exact: result.exact },
    { steps: 10, stopped: true, reason: 'a setting was changed', exact: null });
  assert.equal(result.cause, 'setting');
  assert.equal(a.getParam('iterations'), 9);
  assert.equal(a.attachmentCount, 0);
  assert.equal(Object.hasOwn(a, 'setParam'), false);
});
