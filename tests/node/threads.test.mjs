// threads.test.mjs — the threaded wasm (dist/minipbd_threads.wasm, the threaded build) under Node with worker_threads:
//   - every built-in scene without fluid, or with a hose, gives the same state hash on 1, 2, 3, 4 and 8 threads, and
//     the single-thread build's (the scenes with a block of water: threads-fluids.test.mjs; the steps each runs, and
//     why: thread-hashes.mjs);
//   - a link's recording replays to the same state in both builds;
//   - thread counts outside the team are refused, naming the range, and change nothing;
//   - the stepper (synchronous in Node, or on a runner worker as in a page) gives the same bits as world.step;
//   - engine.close() stops the team (worlds step on alone, same bits) and Node exits with workers still parked.
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { encodeLink, decodeRun } from '../../web/js/format/link.js';
import { Recorder } from '../../web/js/record/recorder.js';
import { Replayer } from '../../web/js/record/replayer.js';
import { MiniPBDError } from '../../web/js/engine/args.js';
import { SINGLE, THREADED, TEAM, loadBuilds, inFluidHalf, testSceneHashes } from './thread-hashes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const { single, threaded } = await loadBuilds();

test('the threaded build is known by its shared memory and has the team it was asked for', () => {
  assert.equal(threaded.threaded, true);
  assert.equal(threaded.maxThreads, TEAM);
  assert.equal(threaded.threads, TEAM, 'new worlds step on the whole team by default');
  assert.ok(threaded.memory.buffer instanceof SharedArrayBuffer);
  assert.equal(single.threaded, false);
  assert.equal(single.maxThreads, 1);
  // every export the single-thread build has that JS calls is in the threaded one too
  const names = (file) => WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(file))).map((e) => e.name);
  const missing = names(SINGLE).filter((n) => /^(pbd_|pbdjs_|malloc$|free$)/.test(n) && !names(THREADED).includes(n));
  assert.deepEqual(missing, []);
  assert.ok(names(THREADED).includes('__stack_pointer'), 'the workers set their own stack');
});

// every scene threads-fluids.test.mjs does not check (inFluidHalf), so every built-in scene is in one of the halves
await testSceneHashes({ single, threaded }, (scene) => !inFluidHalf(scene));

test('a recorded drag replays from its link to the same state in both builds', async () => {
  const scene = structuredClone(builtinScenes.cloth);
  scene.name = 'Dragged cloth';
  const source = single.createWorld(scene);
  const recorder = new Recorder(source);
  let grab = 0;
  for (let s = 0; s < 160; s++) {
    if (s === 10) grab = source.addAttachment(30 * 40 + 20, [0.1, 0.9, 0.0], 1);
    if (s > 10 && s < 90) source.moveAttachment(grab, [0.1 + Math.sin(s / 7) * 0.3, 0.9 + s * 0.003, Math.cos(s / 5) * 0.2]);
    if (s === 90) source.removeAttachment(grab);
    if (s === 100) source.setParam('iterations', 12);
    source.step(1);
  }
  const replay = recorder.stop();
  const link = await encodeLink(recorder.scene, { replay });
  const run = await decodeRun(link);
  const ends = [];
  for (const [engine, threads] of [[single, 1], [threaded, 2], [threaded, 3]]) {
    const w = engine.createWorld(run.scene);
    w.setThreads(threads);
    let ended = null;
    new Replayer(w, run.replay, { onEnd: (r) => { ended = r; } });
    for (let done = 0; done < 160; done += 7) w.step(Math.min(7, 160 - done));
    assert.ok(ended?.exact, `the replay on ${threads} thread(s) ends exact`);
    ends.push(w.hash());
    w.destroy();
  }
  assert.deepEqual(ends, [source.hash(), source.hash(), source.hash()]);
  source.destroy();
});

test('thread counts outside [1, maxThreads] are refused, naming the range, and change nothing', () => {
  const w = threaded.createWorld(builtinScenes.chain);
  w.setThreads(3);
  w.step(5);
  const h = w.hash();
  for (const bad of [0, -1, TEAM + 1, 2.5, NaN, '2', null, undefined]) {
    assert.throws(() => w.setThreads(bad), (err) => err instanceof MiniPBDError && err.code === 'argument'
      && err.message.includes(`[1, ${TEAM}]`), `setThreads(${String(bad)})`);
  }
  assert.equal(w.threads, 3);
  assert.equal(w.hash(), h);
  assert.throws(() => { threaded.threads = TEAM + 1; }, /\[1, 8\]/);
  assert.equal(threaded.threads, TEAM);
  // the single-thread build has a team of one
  const s = single.createWorld(builtinScenes.chain);
  assert.equal(s.threads, 1);
  assert.throws(() => s.setThreads(2), /threads must be an integer in \[1, 1\]/);
  s.setThreads(1);
  assert.throws(() => { single.threads = 2; }, /\[1, 1\]/);
  s.destroy();
  w.destroy();
  // a team larger than the core's limit is refused at load
  return assert.rejects(loadMiniPBD(fs.readFileSync(THREADED), { threads: 17 }), /\[1, 16\]/);
});

test('engine.threads is the thread count of new worlds', () => {
  threaded.threads = 2;
  const w = threaded.createWorld(builtinScenes.chain);
  assert.equal(w.threads, 2);
  threaded.threads = TEAM;
  w.destroy();
});

test('the stepper: in start() on Node\'s thread, on a runner worker as in a page, the bits of world.step', async () => {
  const reference = single.createWorld(builtinScenes.jelly);
  reference.step(40);
  const sync = threaded.createWorld(builtinScenes.jelly);
  const st = threaded.stepper;
  st.start(sync.id, 40);
  assert.equal(st.busy, true);
  assert.throws(() => st.start(sync.id, 1), /in flight/);
  assert.equal(st.poll(), true);
  assert.equal(st.busy, false);
  assert.equal(st.poll(), true, 'poll() with nothing in flight');
  assert.equal(sync.hash(), reference.hash());
  assert.ok(st.lastStepMs > 0);
  sync.destroy();

  const paged = await loadMiniPBD(fs.readFileSync(THREADED), { threads: 2, runner: true });
  const w = paged.createWorld(builtinScenes.jelly);
  let done = 0;
  paged.stepper.ondone = () => { done++; };
  paged.stepper.start(w.id, 40);
  assert.equal(paged.stepper.busy, true);
  const t0 = Date.now();
  while (!paged.stepper.poll()) {
    assert.ok(Date.now() - t0 < 60000, 'the runner finishes');
    await new Promise((r) => setTimeout(r, 1));
  }
  assert.equal(w.hash(), reference.hash(), 'the runner\'s steps');
  assert.ok(paged.stepper.lastStepMs > 0);
  paged.stepper.start(w.id, 10);
  paged.stepper.settle();
  assert.equal(paged.stepper.busy, false);
  w.step(5); // a synchronous step goes through the runner too
  reference.step(15);
  assert.equal(w.hash(), reference.hash());
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(done >= 2, 'ondone follows the runner\'s message');
  // a failed step reports the world's message where its completion is taken
  w.destroy();
  paged.stepper.start(w.id, 1);
  assert.throws(() => paged.stepper.settle(), MiniPBDError);
  paged.close();
  reference.destroy();
});

test('engine.close(): worlds step on alone with the same bits; Node exits with or without close()', () => {
  const script = (close) => `
    import fs from 'node:fs';
    import { loadMiniPBD } from ${JSON.stringify(path.join(root, 'web/js/minipbd.js'))};
    import { builtinScenes } from ${JSON.stringify(path.join(root, 'web/js/format/builtin-scenes.js'))};
    const pbd = await loadMiniPBD(fs.readFileSync(${JSON.stringify(THREADED)}), { threads: 4 });
    const w = pbd.createWorld(builtinScenes.cloth);
    w.step(20);
    ${close ? 'pbd.close(); if (w.threads !== 1 || pbd.maxThreads !== 1) throw new Error("still threaded");' : ''}
    w.step(20);
    console.log(w.hash());`;
  const reference = single.createWorld(builtinScenes.cloth);
  reference.step(40);
  for (const close of [true, false]) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(close)], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.error, undefined, `the process exits (close ${close})`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(Number(r.stdout.trim()), reference.hash(), `same bits (close ${close})`);
  }
  reference.destroy();
});

test('the CLI: --threads N runs the threaded build on N threads, to the single-thread build\'s hash', () => {
  const cli = (...args) => spawnSync(process.execPath, [path.join(root, 'tools', 'minipbd-run.mjs'), ...args], { encoding: 'utf8', timeout: 120000 });
  const plain = JSON.parse(cli('builtin:jelly', '--steps', '60').stdout);
  const two = JSON.parse(cli('builtin:jelly', '--steps', '60', '--threads', '2').stdout);
  assert.equal(plain.threads, 1);
  assert.equal(two.threads, 2);
  assert.equal(two.hash, plain.hash);
  for (const bad of ['0', '17', 'x']) {
    const r = cli('builtin:jelly', '--threads', bad);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--threads needs a whole number from 1 to 16/);
  }
  const single = cli('builtin:jelly', '--threads', '2', '--wasm', SINGLE);
  assert.equal(single.status, 2);
  assert.match(single.stderr, /needs the threaded build/);
});

test('the freestanding allocator: aligned, disjoint blocks; freed room is reused; memory grows to its fixed maximum', () => {
  const e = threaded.exports;
  const blocks = [];
  let seed = 12345;
  const rand = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
  const fill = (p, size, v) => { threaded.refreshViews(); threaded.heap.u8.fill(v, p, p + size); };
  for (let i = 0; i < 300; i++) {
    const size = 1 + rand(i % 10 === 0 ? 200000 : 3000);
    const p = e.malloc(size);
    assert.ok(p > 0 && p % 16 === 0, `block ${i} aligned`);
    fill(p, size, i & 255);
    blocks.push({ p, size, v: i & 255 });
    if (rand(3) === 0) {
      const k = rand(blocks.length);
      e.free(blocks[k].p);
      blocks.splice(k, 1);
    }
  }
  // no block overlaps another (each still holds its own byte)
  threaded.refreshViews();
  for (const b of blocks) assert.ok(threaded.heap.u8.subarray(b.p, b.p + b.size).every((x) => x === b.v), 'block intact');
  const sorted = [...blocks].sort((a, b) => a.p - b.p);
  for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i - 1].p + sorted[i - 1].size <= sorted[i].p, 'disjoint');
  for (const b of blocks) e.free(b.p);
  // what was freed is found again (first fit over a coalesced list), not taken from new memory
  const before = threaded.memory.buffer.byteLength;
  const again = e.malloc(150000);
  assert.ok(again > 0);
  assert.equal(threaded.memory.buffer.byteLength, before);
  e.free(again);
  // growth: a block larger than the memory grows it, and the views follow
  const big = 64 << 20;
  const p = e.malloc(big);
  assert.ok(p > 0);
  assert.ok(threaded.memory.buffer.byteLength >= p + big);
  threaded.refreshViews();
  assert.equal(threaded.heap.u8.length, threaded.memory.buffer.byteLength);
  e.free(p);
  // past the fixed maximum (1 GiB): refused, not a trap
  assert.equal(e.malloc(1100 << 20), 0);
});
