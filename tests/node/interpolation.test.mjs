// Frames between steps (issue 23 item 5, seed 001 section 4.2): the simulation steps at its fixed 60 Hz
// (sim/loop.js) and a display may draw 90, 120 or 144 frames a second. Each frame is drawn driver.blend() of the
// way from world.previous (where every particle was when the last step began, kept by the world once
// keepPrevious() is called) to world.positions, so the picture's time moves by exactly the frame's own time every
// frame: smooth at any display rate, with 90 Hz's steps falling unevenly between frames. A paused world is drawn
// exactly as it is (blend 1). Here on the real driver and engine with a forced frame cadence; the vertex shaders'
// side is tests/browser/interpolation.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { FixedStepLoop } from '../../web/js/sim/loop.js';
import { StepDriver } from '../../web/js/sim/driver.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pbd = await loadMiniPBD(fs.readFileSync(path.join(here, '..', '..', 'dist', 'minipbd.wasm')));

/** The scene's world with a driver and its loop, stepped frame by frame at `hz` for `frames` frames: per frame the
 *  steps the world has taken, the blend, and particle `p`'s drawn position (the vertex shaders' blend). */
function run(key, hz, frames, p = 0) {
  const world = pbd.createWorld(builtinScenes[key]);
  world.keepPrevious();
  let driver = null;
  const loop = new FixedStepLoop((n) => driver.request(n), { timed: false });
  loop.reset(world.getParam('dt'));
  driver = new StepDriver({ world: () => world, loop });
  const out = [];
  const interval = 1000 / hz;
  for (let f = 0; f <= frames; f++) {
    const what = driver.frame(1000 + f * interval, true);
    if (what === 'upload') driver.afterDraw();
    while (world.busy) world.poll(1000); // this test's frames wait for the steps: every frame an upload
    const blend = driver.blend(true);
    const x0 = world.previous, x1 = world.positions;
    const drawn = [0, 1, 2].map((k) => Math.fround(Math.fround(x0[4 * p + k] * Math.fround(1 - blend)) + Math.fround(x1[4 * p + k] * blend)));
    out.push({ steps: world.stepsEnded, blend, drawn, state: [x1[4 * p], x1[4 * p + 1], x1[4 * p + 2]], start: [x0[4 * p], x0[4 * p + 1], x0[4 * p + 2]] });
  }
  return { world, out, dt: loop.dt, driver };
}

test('at 90, 120 and 144 Hz the picture\'s time moves by each frame\'s own time, whatever the steps', () => {
  for (const hz of [90, 120, 144]) {
    const { world, out, dt } = run('chain', hz, 3 * hz);
    // the picture shows time (steps - 1 + blend) dt: a step behind the loop's clock, never jumping
    const times = out.map((o) => (o.steps - 1 + o.blend) * dt);
    const deltas = times.slice(2).map((t, i) => t - times[i + 1]); // from the third frame: the clock has started
    const want = 1 / hz;
    const worst = Math.max(...deltas.map((d) => Math.abs(d - want)));
    assert.ok(worst < 1e-6, `${hz} Hz: the picture's time moved by ${want * 1000} ms a frame within ${worst * 1000} ms`);
    // the steps fall between frames as the rate says: 90 Hz steps on 2 frames of 3, 144 Hz on 5 of 12
    const stepped = out.slice(1).filter((o, i) => o.steps > out[i].steps).length;
    assert.ok(Math.abs(stepped - 3 * 60) <= 1, `${hz} Hz: ${stepped} frames took a step in 3 s`);
    assert.ok(out.some((o) => o.blend > 0.2 && o.blend < 0.8), `${hz} Hz: frames between steps are drawn between them`);
    world.destroy();
  }
});

test('the drawn particle moves steadily between the states, and paused it is the state to the bit', () => {
  // the chain's last link swings: its drawn path between frames never jumps back or by more than its steps allow
  const { world, out, driver } = run('chain', 144, 288, 0);
  const last = world.particleCount - 1;
  world.destroy();
  const { world: w2, out: o2 } = run('chain', 144, 288, last);
  for (const o of o2) {
    for (let k = 0; k < 3; k++) {
      const lo = Math.min(o.start[k], o.state[k]) - 1e-6, hi = Math.max(o.start[k], o.state[k]) + 1e-6;
      assert.ok(o.drawn[k] >= lo && o.drawn[k] <= hi, 'drawn between where the step began and where it ended');
    }
  }
  const speeds = o2.slice(1).map((o, i) => Math.hypot(...o.drawn.map((v, k) => v - o2[i].drawn[k])) * 144);
  const steps = o2.slice(1).map((o, i) => Math.hypot(...o.state.map((v, k) => v - o2[i].state[k])) * 60);
  // frames between steps move it too (without the blend it would stand still on 7 frames of 12)
  // (from the first step on: before it there is one state only, the one the scene was built in)
  const still = o2.slice(1).filter((o, i) => o2[i].steps >= 1 && speeds[i] === 0).length;
  assert.equal(still, 0, 'no frame stands still while the chain swings');
  assert.ok(Math.max(...speeds) <= 1.5 * Math.max(...steps.filter((s) => s > 0)), 'no jump faster than the steps themselves');
  // paused: blend 1, the state itself (x0 * 0 + x1 * 1 = x1 exactly in float)
  assert.equal(driver.blend(false), 1);
  const x0 = w2.previous, x1 = w2.positions;
  for (let i = 0; i < x1.length; i++) assert.equal(Math.fround(Math.fround(x0[i] * 0) + Math.fround(x1[i] * 1)), x1[i]);
  w2.destroy();
});

test('previous is where the last step began, for every scene kind, and keeping it changes no bit', () => {
  for (const key of ['cloth', 'jelly', 'box-stack', 'dam-break', 'hammock', 'balloons']) {
    const a = pbd.createWorld(builtinScenes[key]), b = pbd.createWorld(builtinScenes[key]);
    a.keepPrevious();
    a.step(20);
    b.step(20);
    const before = a.positions.slice();
    a.step(1);
    b.step(1);
    assert.equal(a.hash(), b.hash(), `${key}: the same bits kept or not`);
    const prev = a.previous;
    // no step start of these scenes moves particles between slots (no hose, no sort due at step 21): exactly before
    const sorted = a.getParam('fluid.sortInterval') > 0 && 21 % a.getParam('fluid.sortInterval') === 0;
    if (!sorted) assert.deepEqual(Array.from(prev), Array.from(before), `${key}: previous is the state the step began from`);
    a.destroy();
    b.destroy();
  }
});
