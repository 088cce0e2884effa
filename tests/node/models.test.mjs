// The corpus of models people have (tests/models/, its README): each becomes a soft and a rigid body in under 2 s
// (wasm, in Node), is dropped onto the ground, settles for 2.5 s of simulated time, and behaves: every position
// finite, no inverted tet, and the soft body's volume within 2% of its rest volume. Models far outside the world's
// scale are fitted (objects/body-common.js MESH_FIT); the scene's `size` sets the longest side. Set
// MINIPBD_MODELS=/a/folder to run the same checks on more OBJ files (e.g. the rest of common-3d-test-models
// decimated by tools/decimate-model.mjs); their results are printed. The same hashes natively (alone and on
// threads) and on the threaded wasm as on the single-threaded one.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, validateScene, SceneError } from '../../web/js/minipbd.js';
import { MESH_FIT } from '../../web/js/objects/body-common.js';
import { record } from './call-log.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIR = path.join(root, 'tests', 'models');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

const models = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.obj')).sort().map((f) => path.join(dir, f));
const CORPUS = models(DIR);
const EXTRA = process.env.MINIPBD_MODELS ? models(process.env.MINIPBD_MODELS) : [];

const SIZE = 0.4, RESOLUTION = 10, STEPS = 150; // 2.5 s at the default 1/60 s

/** The scene of one body from `file`, `size` m long, resting 5 cm above the ground, centred over the origin. */
function sceneOf(file, type, size = SIZE) {
  const obj = fs.readFileSync(file, 'utf8');
  const base = { type, shape: 'mesh', resolution: RESOLUTION, mass: 1, obj, ...(size === undefined ? {} : { size }) };
  const probe = validateScene({ format: 'minipbd-scene', version: 2, objects: [base] }).objects[0];
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const v of probe.mesh.vertices) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[k]); hi[k] = Math.max(hi[k], v[k]); }
  const position = [-(lo[0] + hi[0]) / 2, 0.05 - lo[1], -(lo[2] + hi[2]) / 2];
  return { format: 'minipbd-scene', version: 2, objects: [{ ...base, position }] };
}

/** Builds and drops one model; what it measured. */
function drop(file, type, size) {
  const t0 = performance.now();
  const world = pbd.createWorld(sceneOf(file, type, size));
  const buildMs = performance.now() - t0;
  world.step(STEPS);
  const x = world.positions;
  let finite = true;
  for (let i = 0; i < world.particleCount; i++) for (let k = 0; k < 3; k++) finite &&= Number.isFinite(x[4 * i + k]);
  const r = { particles: world.particleCount, buildMs, finite };
  if (type === 'soft') {
    const v = world.getObjectVolume(0);
    Object.assign(r, { volume: v.volume / v.rest, inverted: v.inverted });
  }
  world.destroy();
  return r;
}

const fmt = (name, type, r) => `${name} ${type}: ${r.particles} particles, built in ${r.buildMs.toFixed(0)} ms`
  + (r.volume === undefined ? '' : `, volume ${(100 * r.volume).toFixed(2)}% of rest, ${r.inverted} inverted tets`);

test(`the ${CORPUS.length} models of tests/models/ build as soft and rigid bodies in under 2 s and settle on the ground`, () => {
  assert.ok(CORPUS.length >= 11);
  for (const file of CORPUS) {
    const name = path.basename(file, '.obj');
    for (const type of ['soft', 'rigid']) {
      const r = drop(file, type);
      console.log(fmt(name, type, r));
      assert.ok(r.particles > 8, `${name} ${type}: a body`);
      assert.ok(r.buildMs < 2000, `${name} ${type}: built in ${r.buildMs} ms`);
      assert.ok(r.finite, `${name} ${type}: finite positions`);
      if (type === 'soft') {
        assert.equal(r.inverted, 0, `${name}: no inverted tet`);
        assert.ok(Math.abs(r.volume - 1) < 0.02, `${name}: volume ${r.volume} of rest`);
      }
    }
  }
});

test('a model far outside the world\'s scale is fitted to 0.5 m; the scene\'s size sets it; reading again changes nothing', () => {
  const longest = (o) => {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const v of o.mesh.vertices) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[k]); hi[k] = Math.max(hi[k], v[k]); }
    return Math.max(...hi.map((h, k) => h - lo[k]));
  };
  const read = (file, extra = {}) => validateScene({ format: 'minipbd-scene', version: 2,
    objects: [{ type: 'soft', shape: 'mesh', obj: fs.readFileSync(path.join(DIR, file), 'utf8'), ...extra }] });
  for (const file of ['bunny-mm.obj', 'micro-box.obj']) {
    const s = read(file);
    assert.equal(s.objects[0].size, MESH_FIT.size, `${file}: fitted`);
    assert.ok(Math.abs(longest(s.objects[0]) - MESH_FIT.size) < 1e-12, `${file}: ${longest(s.objects[0])} m`);
    assert.deepEqual(validateScene(s), s, `${file}: a normalised scene reads as itself`);
  }
  // In metres already: left exactly as it is, no size added.
  const plain = read('open-box.obj');
  assert.equal(plain.objects[0].size, undefined);
  assert.equal(longest(plain.objects[0]), Math.fround(0.2) - Math.fround(-0.2));
  const sized = read('open-box.obj', { size: 0.1 });
  assert.equal(sized.objects[0].size, 0.1);
  assert.ok(Math.abs(longest(sized.objects[0]) - 0.1) < 1e-12);
  assert.deepEqual(validateScene(sized), sized);
  // Fitted, the millimetre bunny builds as a body; unfitted (size 480 m) its cells would be 48 m across.
  const mm = pbd.createWorld(sceneOf(path.join(DIR, 'bunny-mm.obj'), 'soft', undefined));
  assert.ok(mm.particleCount > 100);
  mm.destroy();
  for (const bad of [0, -1, 'big', 1e9]) {
    assert.throws(() => read('open-box.obj', { size: bad }), (e) => e instanceof SceneError && e.path === 'objects[0].size', String(bad));
  }
  assert.throws(() => validateScene({ format: 'minipbd-scene', version: 2, objects: [{ type: 'soft', shape: 'box', position: [0, 1, 0], size: 1 }] }),
    (e) => e instanceof SceneError && /size is not a key of a box body/.test(e.message));
});

test('the same model builds to the same hash every time (the winding number is deterministic)', () => {
  for (const name of ['bunny-holes', 'two-boxes-edge', 'overlapping-boxes', 'degenerate', 'utah-teapot', 'stanford-bunny']) {
    const hashes = [0, 1].map(() => {
      const w = pbd.createWorld(sceneOf(path.join(DIR, `${name}.obj`), 'soft'));
      w.step(10);
      const h = w.hash();
      w.destroy();
      return h;
    });
    assert.equal(hashes[0], hashes[1], name);
  }
});

// As tests/node/crossbuild.test.mjs: every call that changes a world is logged with the body's arrays (call-log.mjs), and
// build/replay_calls (the core compiled natively with gcc) makes the same calls; the winding number's lattice
// and the run must reach the same hash natively (alone and on 2 threads) as in wasm.
test('every model reaches the same hash natively (alone and on 2 threads) as in wasm', { timeout: 300_000 }, async () => {
  const REPLAY = path.join(root, 'build', 'replay_calls');
  assert.ok(fs.existsSync(REPLAY), `${REPLAY} is missing: make build/replay_calls`);
  const engine = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  const log = [];
  record(engine, log);
  const wasm = [];
  for (const file of CORPUS) {
    for (const type of ['soft', 'rigid']) {
      const world = engine.createWorld(sceneOf(file, type));
      world.step(30);
      wasm.push(`${path.basename(file, '.obj')} ${type} ${world.hash().toString(16).padStart(8, '0')}`);
      world.destroy();
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-models-'));
  const calls = path.join(dir, 'calls.log');
  fs.writeFileSync(calls, `${log.join('\n')}\n`);
  for (const threads of [0, 2]) {
    const run = spawnSync(REPLAY, threads ? ['--threads', String(threads), calls] : [calls], { encoding: 'utf8', maxBuffer: 1 << 20 });
    assert.equal(run.status, 0, run.stderr);
    const native = run.stdout.trim().split('\n').map((line, k) => `${wasm[k].split(' ').slice(0, 2).join(' ')} ${line.replace('hash ', '')}`);
    assert.deepEqual(native, wasm, `native with ${threads || 'no'} threads`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test('every model reaches the same hash on the threaded wasm (a team of 2) as on the single-threaded one', { timeout: 300_000 }, async () => {
  const threaded = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd_threads.wasm')), { threads: 2 });
  try {
    for (const file of CORPUS) {
      const hashes = [pbd, threaded].map((engine) => {
        const world = engine.createWorld(sceneOf(file, 'soft'));
        world.step(30);
        const h = world.hash();
        world.destroy();
        return h;
      });
      assert.equal(hashes[1], hashes[0], path.basename(file));
    }
  } finally {
    threaded.close();
  }
});

if (EXTRA.length > 0) {
  test(`${EXTRA.length} more models from MINIPBD_MODELS`, () => {
    for (const file of EXTRA) {
      const name = path.basename(file, '.obj');
      for (const type of ['soft', 'rigid']) {
        try { console.log(fmt(name, type, drop(file, type))); } catch (e) { console.log(`${name} ${type}: refused: ${e.message}`); }
      }
    }
  });
}

test('the CLI fits a millimetre model and places it over the ground; --size sets its size', () => {
  const run = (...args) => {
    const r = spawnSync(process.execPath, [path.join(root, 'tools', 'minipbd-run.mjs'), ...args, '--steps', '1', '--positions', '--quiet'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const x = JSON.parse(r.stdout).positions;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (const p of x) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
    return { lo, longest: Math.max(...hi.map((h, k) => h - lo[k])) };
  };
  const mm = run('--obj', path.join(DIR, 'bunny-mm.obj'));
  assert.ok(mm.longest > 0.3 && mm.longest <= 0.5 + 1e-3, `fitted: ${mm.longest} m`);
  assert.ok(mm.lo[1] > 0.4 && mm.lo[1] < 0.6, `0.5 m above the ground: ${mm.lo[1]}`);
  const sized = run('--obj', path.join(DIR, 'open-box.obj'), '--size', '0.2', '--rigid');
  assert.ok(Math.abs(sized.longest - 0.2) < 1e-3, `sized: ${sized.longest} m`);
  const r = spawnSync(process.execPath, [path.join(root, 'tools', 'minipbd-run.mjs'), '--obj', path.join(DIR, 'open-box.obj'), '--size', '-1'], { encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--size needs a length in metres/);
});

// A model's inside test runs ahead of its world in pieces (engine.prepareScene; objects/body-fill.js), what a page
// does between frames: the open spheres of bench/heavy-scenes.mjs at resolution 48 (the winding number at every cell).
// The pieces find the cells the build would find (a fresh engine builds the same world, hash for hash), the build
// takes them as kept (cut the kept cells and the world it builds has fewer particles), and twins share one fill.
test('a model is filled ahead in pieces, and the world built after is the one built in one go', async () => {
  const { openModels } = await import('../../bench/heavy-scenes.mjs');
  const scene = openModels({ segments: 8 });
  const engine = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  const job = engine.prepareScene(scene);
  let pieces = 1;
  while (!job.run(1)) pieces++;
  assert.ok(pieces >= 10, `the fill came in ${pieces} pieces of 1 ms`);
  assert.equal(engine.bodyFills.size, 1); // the two spheres are one mesh: one fill
  const world = engine.createWorld(scene);
  const fresh = pbd.createWorld(scene);
  assert.equal(world.stats().particles, fresh.stats().particles);
  world.step(10);
  fresh.step(10);
  assert.equal(world.hash(), fresh.hash());
  const particles = world.stats().particles;
  world.destroy();
  fresh.destroy();
  const [cells] = engine.bodyFills.values();
  cells.fill(0, 0, cells.length / 2); // rows j + 48 k of the lower half of k gone
  const cut = engine.createWorld(scene);
  assert.ok(cut.stats().particles < particles, `${cut.stats().particles} of ${particles} particles`);
  cut.destroy();
});

// A world of several heavy objects is built ahead an object a piece (World.building): two soft boxes were one call.
// The pieces end on the world createWorld builds in one go; createWorld(scene) hands over the one built, once; a job
// cancelled part way hands nothing over.
test('a world is built ahead an object at a time, and createWorld hands it over', async () => {
  const box = (x) => ({ type: 'soft', shape: 'box', position: [x, 1, 0], halfExtents: [0.3, 0.3, 0.3], resolution: 12, mass: 1 });
  const scene = { format: 'minipbd-scene', version: 2, objects: [box(-1), box(0), box(1)] };
  const engine = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  const cancelled = engine.prepareScene(scene);
  assert.equal(cancelled.run(0), false); // the first object
  cancelled.cancel();
  assert.equal(engine.prepared ?? null, null, 'a cancelled job hands nothing over');
  const job = engine.prepareScene(scene);
  let pieces = 1;
  while (!job.run(0)) pieces++;
  assert.ok(pieces >= 3, `${pieces} pieces for 3 objects`);
  const world = engine.createWorld(scene);
  const again = engine.createWorld(scene);
  assert.notEqual(again, world, 'handed over once');
  again.destroy();
  const fresh = pbd.createWorld(scene);
  assert.deepEqual(world.objects.map((o) => o.particleCount), fresh.objects.map((o) => o.particleCount));
  world.step(10);
  fresh.step(10);
  assert.equal(world.hash(), fresh.hash());
  world.destroy();
  fresh.destroy();
});
