// threads.test.mjs — the threaded wasm (dist/minipbd_threads.wasm, issue 12) under Node with worker_threads:
//   - every built-in scene gives the same state hash on 1, 2, 3, 4 and 8 threads, and the single-thread build's;
//   - a link's recording replays to the same state in both builds;
//   - thread counts outside the team are refused, naming the range, and change nothing;
//   - the stepper (synchronous in Node, or on a runner worker as in a page) gives the same bits as world.step;
//   - engine.close() stops the team (worlds step on alone, same bits) and Node exits with workers still parked.
//
// Steps: 1,000 steps of every scene for the single-thread build and for 1 and 2 threads; fewer (SHORT_STEPS) for 3,
// 4 and 8 threads, compared with the same step of the single-thread run: on this 2-core machine 1,000 steps of
// every scene at five thread counts took longer than the suite can afford (measured: see the lead's report), and
// 3, 4, 8 threads are oversubscribed there, so they add splits (the blocks' claims interleave differently), not a
// longer run. MINIPBD_THREADS_FULL=1 runs 1,000 steps at every count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, BUILTIN_SCENE_IDS, loadBuiltinScene } from '../../web/js/minipbd.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { encodeLink, decodeRun } from '../../web/js/format/link.js';
import { Recorder } from '../../web/js/record/recorder.js';
import { Replayer } from '../../web/js/record/replayer.js';
import { MiniPBDError } from '../../web/js/engine/args.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const SINGLE = path.join(root, 'dist', 'minipbd.wasm');
const THREADED = path.join(root, 'dist', 'minipbd_threads.wasm');
const STEPS = 1000;
const SHORT_STEPS = process.env.MINIPBD_THREADS_FULL ? STEPS : 100;
const TEAM = 8;

const single = await loadMiniPBD(fs.readFileSync(SINGLE));
const threaded = await loadMiniPBD(fs.readFileSync(THREADED), { threads: TEAM });

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

/** Steps `world` to each of `marks` (ascending) and returns the hash at each. */
function hashesAt(world, marks) {
  const out = [];
  let done = 0;
  for (const m of marks) {
    world.step(m - done);
    done = m;
    out.push(world.hash());
  }
  return out;
}

for (const id of BUILTIN_SCENE_IDS) {
  test(`${id}: the same hash on 1, 2, 3, 4 and 8 threads and in the single-thread build`, async () => {
    const scene = await loadBuiltinScene(id);
    const a = single.createWorld(scene);
    const [short, full] = hashesAt(a, [SHORT_STEPS, STEPS]);
    a.destroy();
    // the scene moves: a hash that did not change would prove nothing
    const still = single.createWorld(scene);
    assert.notEqual(still.hash(), full, `${id} moved in ${STEPS} steps`);
    still.destroy();
    for (const n of [1, 2, 3, 4, 8]) {
      const w = threaded.createWorld(scene);
      w.setThreads(n);
      assert.equal(w.threads, n);
      const marks = n <= 2 ? [SHORT_STEPS, STEPS] : [SHORT_STEPS];
      const got = hashesAt(w, marks);
      assert.equal(got[0], short, `${id}, ${n} threads, step ${SHORT_STEPS}`);
      if (marks.length > 1) assert.equal(got[1], full, `${id}, ${n} threads, step ${STEPS}`);
      w.destroy();
    }
  });
}

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
