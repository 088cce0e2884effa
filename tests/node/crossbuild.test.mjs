// Native and wasm reach the same bits on every built-in scene, the solids' and the fluids' too. The JS
// engine builds each scene exactly as the page does, on dist/minipbd.wasm; every call
// that changes a world is logged (name, arguments, and the mesh arrays a body is given), and
// tests/crossbuild/replay_calls.c (build/replay_calls: the core and the wasm surface compiled natively with gcc)
// makes the same calls and prints the hashes the log asked for. So there is no second scene loader to keep in step:
// whatever the JS side does, native does too. Each scene runs, is grabbed and dragged by its first free particle
// (a body, a cloth, a chain: the pointer's attachment), released, and runs on. The replay runs alone and with
// `--threads N` for 2, 3, 4 and 8: every hash the same.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, BUILTIN_SCENE_IDS, loadBuiltinScene } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPLAY = path.join(root, 'build', 'replay_calls');

// The calls that change a world's state (every other export only reads, or writes the caller's out-records).
const MUTATORS = new Set([
  'pbdjs_CreateWorld', 'pbd_DestroyWorld', 'pbdjs_AddChain', 'pbdjs_AddCloth', 'pbdjs_AddCollider', 'pbdjs_AddBody',
  'pbdjs_StepN', 'pbd_World_Step', 'pbd_World_SetParam', 'pbd_World_SetObjectStiffness', 'pbd_World_SetObjectRadius',
  'pbd_World_SetObjectPlasticity', 'pbd_World_SetInvMass', 'pbd_World_SetMass', 'pbd_World_SetPosition',
  'pbd_World_SetVelocity', 'pbd_World_AddAttachment', 'pbd_World_MoveAttachment', 'pbd_World_RemoveAttachment',
  'pbd_World_SetColliderTransform', 'pbd_World_SetColliderMaterial', 'pbd_World_FindPairs', 'pbd_World_Hash',
  // fluids: the block and its capacity, the hoses and drains, a hose switched
  'pbdjs_AddFluid', 'pbdjs_AddEmitter', 'pbdjs_SetEmitter', 'pbdjs_AddDrain', 'pbd_World_UpdateDensities',
  // inflatables: a sphere or a closed mesh, its pressure
  'pbdjs_AddInflatable', 'pbdjs_SetInflatablePressure',
]);
// pbdjs_AddBody's array arguments: (pointer index, count index, words per count).
// Array arguments, by call: (tag, pointer index, count index, words per count); the pointer is logged as 0, the
// words follow ("U n hex...": tests/crossbuild/replay_calls.c). The create call's capacities, a body's mesh.
const ARRAYS = {
  pbdjs_CreateWorld: [['U', 0, 1, 1]], pbdjs_AddBody: [['F', 20, 21, 3], ['U', 22, 23, 1]],
  pbdjs_AddInflatable: [['F', 6, 7, 3], ['U', 8, 9, 3]],
};

/** Wraps the engine's exports so each mutating call is appended to `log` as one line. */
function record(engine, log) {
  const raw = engine.exports; // frozen (a wasm instance's exports): wrapped into a plain copy
  const wrapped = {};
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    wrapped[key] = typeof value !== 'function' || !MUTATORS.has(key) ? value : (...args) => {
      const arrays = ARRAYS[key] ?? [];
      const words = [key, ...args.map((a, i) => (arrays.some(([, ptr]) => ptr === i) ? 0 : String(a)))];
      for (const [tag, ptr, count, per] of arrays) {
        const n = args[count] * per;
        const bits = n > 0 ? new Uint32Array(raw.memory.buffer, args[ptr], n) : [];
        words.push(tag, String(n), ...Array.from(bits, (b) => b.toString(16)));
      }
      log.push(words.join(' '));
      return value(...args);
    };
  }
  engine.exports = wrapped;
}

/** The first particle with mass of the scene's first object that has one. */
function freeParticle(world) {
  const x = world.positions;
  for (let i = 0; i < world.particleCount; i++) if (x[4 * i + 3] > 0) return i;
  return -1;
}

test('every built-in scene, run and dragged, reaches the same hash natively as in wasm', { timeout: 600_000 }, async () => {
  assert.ok(fs.existsSync(REPLAY), `${REPLAY} is missing: make build/replay_calls (make test-node builds it)`);
  const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  const log = [];
  record(pbd, log);
  const wasmHashes = [];
  for (const id of BUILTIN_SCENE_IDS) {
    const scene = await loadBuiltinScene(id);
    const world = pbd.createWorld(scene);
    world.step(20);
    const i = freeParticle(world);
    assert.ok(i >= 0, `${id} has a particle to grab`);
    const at = Array.from(world.positions.subarray(4 * i, 4 * i + 3));
    const grab = world.addAttachment(i, at);
    for (let k = 1; k <= 10; k++) {
      world.moveAttachment(grab, [at[0] + 0.03 * k, at[1] + 0.04 * k, at[2] - 0.02 * k]);
      world.step(2);
    }
    world.removeAttachment(grab);
    if (scene.objects.some((o) => o.emitters?.length)) { // a hose switched off and on (pbdjs_SetEmitter)
      world.setEmitter(0, { enabled: false });
      world.step(3);
      world.setEmitter(0, { enabled: true });
    }
    world.step(20);
    const h = world.hash();
    assert.ok(Array.from(world.positions).every(Number.isFinite), `${id}: finite`);
    wasmHashes.push(`${id} ${h.toString(16).padStart(8, '0')}`);
    world.destroy();
  }
  assert.ok(BUILTIN_SCENE_IDS.length >= 10 && ['jelly', 'box-stack', 'bend-bar', 'trampoline', 'bunny'].every((s) => BUILTIN_SCENE_IDS.includes(s)));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-calls-')), 'calls.log');
  fs.writeFileSync(file, log.join('\n') + '\n');
  // Natively alone (one thread: a world with one thread never wakes a team), then on a team of 2, 3, 4 and 8
  // threads (the same bits for any thread count). On this 2-core machine 8 threads take ~2.5 times as
  // long as one: more threads than cores wait for each other at every loop's join.
  for (const threads of [0, 2, 3, 4, 8]) {
    const started = Date.now();
    const run = spawnSync(REPLAY, threads ? ['--threads', String(threads), file] : [file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    assert.equal(run.status, 0, run.stderr);
    const nativeHashes = run.stdout.trim().split('\n').map((line, k) => `${BUILTIN_SCENE_IDS[k]} ${line.replace('hash ', '')}`);
    assert.deepEqual(nativeHashes, wasmHashes, `native with ${threads || 'no'} threads`);
    console.log(`# replay_calls ${threads ? `--threads ${threads}` : 'alone'}: ${Date.now() - started} ms`);
  }
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});
