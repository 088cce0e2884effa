// The built-in fluid scenes: each builds, steps with every value finite, keeps its water where the
// scene puts it, and a recording of it (a drag, a collider moved, a hose switched) replays bit for bit from a
// link. Native and wasm agreeing on them is tests/node/crossbuild.test.mjs (every BUILTIN_SCENE_IDS).
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadMiniPBD, loadBuiltinScene, BUILTIN_SCENE_IDS, encodeLink, decodeRun, Recorder, Replayer } from '../../web/js/minipbd.js';
import { LINK_WARN_LENGTH } from '../../web/js/format/link.js';

const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));
const FLUID_IDS = ['dam-break', 'hammock', 'floating', 'swirl'];

const finite = (w) => Array.from(w.positions).every(Number.isFinite) && Array.from(w.velocities).every(Number.isFinite);

test('the fluid scenes are built-in, listed for the picker, and fit in a short link', async () => {
  for (const id of FLUID_IDS) {
    assert.ok(BUILTIN_SCENE_IDS.includes(id), id);
    const scene = await loadBuiltinScene(id);
    assert.ok(scene.objects.some((o) => o.type === 'fluid'), `${id} has water`);
    const link = await encodeLink(scene);
    assert.ok(link.length < LINK_WARN_LENGTH, `${id}: a ${link.length}-character link`);
    assert.deepEqual((await decodeRun(link)).scene, scene, `${id}: the link carries the scene exactly`);
  }
});

test('the fluid scenes\' numbers: 8k-particle dam break, floating blocks of 0.5, 1 and 4 x the water\'s density', async () => {
  const dam = await loadBuiltinScene('dam-break');
  const w = pbd.createWorld(dam);
  assert.equal(w.objects[0].activeParticles, 16 * 32 * 16);
  assert.equal(dam.colliders.length, 4, 'a tank of four walls');
  w.destroy();
  const floating = await loadBuiltinScene('floating');
  const rho0 = floating.fluid.restDensity;
  const ratios = floating.objects.filter((o) => o.type === 'rigid').map((o) => o.mass / (rho0 * (2 * o.halfExtents[0] * (o.resolution + 1) / o.resolution) ** 3));
  ratios.forEach((r, k) => assert.ok(Math.abs(r - [0.5, 1, 4][k]) < 1e-12, `block ${k}: ${r}`));
  const hammock = await loadBuiltinScene('hammock');
  const cloth = hammock.objects.find((o) => o.type === 'cloth');
  const gap = cloth.size[0] / (cloth.resolution[0] - 1);
  assert.ok(Math.abs(gap - hammock.fluid.spacing) < 0.25 * hammock.fluid.spacing, `cloth spacing ${gap} about the fluid's`);
  assert.equal(hammock.solver.thickness / 2, hammock.fluid.spacing / 2, 'the cloth\'s contact radius is d / 2');
  assert.ok(hammock.objects.find((o) => o.type === 'fluid').drains.length > 0, 'spilled water drains away');
});

for (const id of FLUID_IDS) {
  test(`${id}: steps finitely, the water stays above the ground, and a recorded run replays bit for bit from a link`, async () => {
    const scene = await loadBuiltinScene(id);
    const world = pbd.createWorld(scene);
    const rec = new Recorder(world);
    world.step(20);
    // A drag: the ball collider in swirl, else the first particle that has mass.
    if (id === 'swirl') {
      for (let k = 1; k <= 10; k++) { world.setColliderTransform(4, [0.03 * k, 0.125, 0]); world.step(1); }
    } else {
      const x = world.positions;
      let i = 0;
      while (x[4 * i + 3] === 0) i++;
      const g = world.addAttachment(i, [x[4 * i], x[4 * i + 1] + 0.05, x[4 * i + 2]]);
      world.step(5);
      world.removeAttachment(g);
    }
    if (scene.objects.some((o) => o.emitters?.length)) { world.setEmitter(0, { enabled: false }); world.step(3); world.setEmitter(0, { enabled: true }); }
    world.step(15);
    assert.ok(finite(world), `${id}: finite`);
    const replay = rec.stop();
    assert.ok(replay.events.length > 0);
    const first = world.objects.find((o) => o.type === 'fluid');
    // The live count follows the hoses and drains at every step (World.objects reads it again: no topology change).
    pbd.heap.out('pbdjs_GetObjectInfo', [world.id, world.objects.indexOf(first)]);
    assert.equal(first.activeParticles, pbd.heap.int32s(19)[18], `${id}: objects[].activeParticles is the engine's`);
    if (id === 'hammock') assert.ok(first.activeParticles > 0, 'the hose has poured');
    const x = world.positions;
    for (let j = 0; j < first.activeParticles; j++) {
      assert.ok(x[4 * (first.firstParticle + j) + 1] >= -1e-3, `${id}: fluid particle ${j} above the ground`);
    }
    const run = await decodeRun(await encodeLink(rec.scene, { replay }));
    const again = pbd.createWorld(run.scene);
    let result = null;
    new Replayer(again, run.replay, { onEnd: (r) => { result = r; } });
    again.step(run.replay.steps);
    assert.equal(result?.exact, true, `${id}: the replay ends on the recorded hash`);
    assert.equal(again.hash(), world.hash());
    world.destroy(); again.destroy();
  });
}

/** The water's mean angular momentum per unit mass about the vertical axis through the tank's centre (m^2/s). */
function swirlOf(world) {
  const x = world.positions, v = world.velocities;
  let L = 0, n = 0;
  for (const o of world.objects) {
    if (o.type !== 'fluid') continue;
    for (let j = 0; j < o.activeParticles; j++, n++) {
      const i = 4 * (o.firstParticle + j);
      L += x[i + 2] * v[i] - x[i] * v[i + 2];
    }
  }
  return L / n;
}

test('swirl: the ball starts in the water without a splash, and circling it spins the water its way, which then dies down', async () => {
  const scene = await loadBuiltinScene('swirl');
  const ball = scene.colliders.findIndex((c) => c.name === 'ball');
  const [, y] = scene.colliders[ball].position;
  const surface = Math.max(...scene.objects.map((o) => o.block.upper[1]));
  assert.ok(y < surface && y - scene.colliders[ball].radius > 0, 'the ball is in the water, clear of the floor');
  const world = pbd.createWorld(scene);
  let fastest = 0;
  for (let s = 0; s < 60; s++) {
    world.step(1);
    for (const v of world.velocities) fastest = Math.max(fastest, Math.abs(v));
  }
  // One block through the ball threw ~300 particles out of it at 11 m/s; the hole around it only lets the water
  // close in on the ball (measured: 1.3 m/s).
  assert.ok(fastest < 3, `no splash at the start (fastest ${fastest.toFixed(2)} m/s)`);
  // Circle the ball 0.2 m round the axis at its height, one lap in 2 s (as the page's lagged drag moves it), counter-
  // clockwise seen from above: its own angular momentum per unit mass is R^2 omega = 0.126 m^2/s.
  const dt = 1 / 60, share = 1 - Math.exp(-dt / 0.08);
  let at = [0, y, 0];
  for (let s = 0; s < 180; s++) {
    const t = s * dt, a = Math.PI * t, R = 0.2 * Math.min(1, t / 0.5);
    at = [0, 1, 2].map((k) => at[k] + ([R * Math.sin(a), y, R * Math.cos(a)][k] - at[k]) * share);
    world.setColliderTransform(ball, at);
    world.step(1);
    assert.equal(world.colliders[ball].position[1], y, 'a drag at its height');
  }
  const during = swirlOf(world);
  // Measured 0.023 m^2/s after 3 s (0.027 after 6 s): the water turns with the ball.
  assert.ok(during > 0.01, `the water swirls the ball's way (${during.toFixed(4)} m^2/s)`);
  world.step(120);
  const later = swirlOf(world);
  assert.ok(later > 0 && later < 0.5 * during, `and slows once the ball stops (${later.toFixed(4)} m^2/s 2 s later)`);
  assert.ok(finite(world));
  world.destroy();
});

test('minipbd-run prints a fluid scene\'s water: live particles, densities and density error; measuring changes nothing', async () => {
  const cli = new URL('../../tools/minipbd-run.mjs', import.meta.url).pathname;
  const run = (...args) => {
    // --digits full: the raw doubles, compared exactly with the in-process run (the default rounds to 6 digits)
    const r = spawnSync(process.execPath, [cli, ...args, '--digits', 'full'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const out = run('builtin:dam-break', '--steps', '30', '--every', '15');
  const world = pbd.createWorld(await loadBuiltinScene('dam-break'));
  world.step(30);
  const expected = world.fluidStats();
  assert.equal(out.hash, world.hash(), 'the same run as in process');
  assert.deepEqual(out.fluid, expected, 'its "fluid" is world.fluidStats() at the end');
  world.destroy();
  assert.equal(out.fluid.particles, 16 * 32 * 16, 'the dam\'s 16 x 32 x 16 particles, all live');
  assert.ok(out.fluid.densityError > 0 && out.fluid.densityError < 0.05, `density error ${out.fluid.densityError}`);
  assert.deepEqual(out.series.map((e) => e.step), [0, 15, 30]);
  const last = out.series[2];
  assert.deepEqual([last.fluidParticles, last.meanDensity, last.maxDensity, last.densityError],
    [expected.particles, expected.meanDensity, expected.maxDensity, expected.densityError], 'the series ends on the same figures');
  assert.equal(out.series[0].densityError < 1e-5, true, 'at rest on the lattice nothing is compressed');
  assert.equal(run('builtin:dam-break', '--steps', '30').hash, out.hash, 'a run without the series reaches the same bits');
  // A hose: the live water is what it emitted less what drained; a scene without water prints no "fluid".
  const hose = run('builtin:hammock', '--steps', '20').fluid;
  assert.ok(hose.emitted > 0 && hose.particles === hose.emitted - hose.drained && hose.capacity === 12000, JSON.stringify(hose));
  assert.equal('fluid' in run('builtin:cloth', '--steps', '1'), false);
});

test('peekFluidStats reads what the steps measured, with no search of its own: the densities fluidStats() finds', async () => {
  const scene = await loadBuiltinScene('dam-break');
  const w = pbd.createWorld(scene), sliced = pbd.createWorld(scene);
  try {
    let reads = 0;
    const read = w.fluidStats.bind(w);
    w.fluidStats = () => { reads++; return read(); }; // the instance's, in front of the prototype's
    const before = w.peekFluidStats();
    assert.equal(before.measuredAt, 0, 'no step has measured yet');
    assert.ok(before.particles > 0 && before.densityError === 0 && before.meanDensity === 0, JSON.stringify(before));
    assert.equal(sliced.peekFluidStats().measuredAt, 0);
    w.step(40);
    for (let s = 0; s < 40; s++) sliced.stepAsync(1), sliced.settle(); // slices on this thread (stepper-slices.js)
    const peeked = w.peekFluidStats();
    assert.equal(reads, 0, 'no search of its own');
    assert.equal(peeked.measuredAt, 40);
    assert.deepEqual(sliced.peekFluidStats(), peeked, 'a step in slices measures the same');
    assert.equal(w.hash(), sliced.hash());
    const fresh = read();
    for (const k of ['particles', 'capacity', 'emitted', 'drained', 'full']) assert.equal(peeked[k], fresh[k], k);
    assert.ok(fresh.densityError > 1e-4, `the falling water is compressed somewhere (${fresh.densityError})`);
    for (const k of ['meanDensity', 'maxDensity', 'densityError']) {
      assert.ok(Math.abs(peeked[k] - fresh[k]) <= 0.02 * Math.abs(fresh[k]), `${k}: ${peeked[k]} measured by the step, ${fresh[k]} searched`);
    }
    w.step();
    assert.notDeepEqual(w.peekFluidStats(), peeked, 'the next step measured again');
  } finally {
    w.destroy();
    sliced.destroy();
  }
});
