// Native and wasm reach the same bits on every built-in scene, the solids' and the fluids' too. The JS
// engine builds each scene exactly as the page does, on dist/minipbd.wasm; every call
// that changes a world is logged (name, arguments, and the mesh arrays a body is given), and
// tests/crossbuild/replay_calls.c (build/replay_calls: the core and the wasm surface compiled natively with gcc)
// makes the same calls and prints the hashes the log asked for. So there is no second scene loader to keep in step:
// whatever the JS side does, native does too. Each scene runs, is grabbed and dragged by its first free particle
// (a body, a cloth, a chain: the pointer's attachment), released, and runs on. The replay runs alone, and once with
// `--threads 2,3,4,8`, every step on the next of those counts in turn: every hash the same.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, BUILTIN_SCENE_IDS, loadBuiltinScene } from '../../web/js/minipbd.js';
import { record } from './call-log.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPLAY = path.join(root, 'build', 'replay_calls');

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
  // Natively alone (one thread: a world with one thread never wakes a team), then on a team of 8 with every step on
  // 2, 3, 4 and 8 threads in turn (the same bits for any thread count). One replay per count did the whole log four
  // times (on this 2-core machine 8 threads take ~2.5 times as long as one: more threads than cores wait for each
  // other at every loop's join); in turn, each count steps every scene in every phase of its run (a quarter of its
  // steps: at the start, in the drag, after the release), and a step that differs in one bit on one count differs in
  // every later state of these moving scenes, so in the hash at the end. Counts changed between steps are how the
  // C tests' two worlds sharing a team run too (test_threads.c). replay_calls says how many steps each count took.
  for (const threads of [null, '2,3,4,8']) {
    const started = Date.now();
    const run = spawnSync(REPLAY, threads ? ['--threads', threads, file] : [file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    assert.equal(run.status, 0, run.stderr);
    const nativeHashes = run.stdout.trim().split('\n').map((line, k) => `${BUILTIN_SCENE_IDS[k]} ${line.replace('hash ', '')}`);
    assert.deepEqual(nativeHashes, wasmHashes, `native with ${threads || 'no'} threads`);
    if (threads) {
      const took = run.stderr.match(/^steps on 2 threads: (\d+), 3 threads: (\d+), 4 threads: (\d+), 8 threads: (\d+)$/m);
      assert.ok(took, run.stderr);
      // the counts take the steps in turn, one each: every scene steps 60 times or more, so 15 or more on each count
      const steps = took.slice(1).map(Number);
      assert.ok(Math.min(...steps) >= 15 * BUILTIN_SCENE_IDS.length, `each count stepped every scene: ${steps}`);
      assert.ok(Math.max(...steps) - Math.min(...steps) <= 1, `in turn: ${steps}`);
    }
    console.log(`# replay_calls ${threads ? `--threads ${threads}` : 'alone'}: ${Date.now() - started} ms`);
  }
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});
