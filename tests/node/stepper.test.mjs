// World.stepAsync over the single-thread stepper (web/js/engine/stepper-slices.js): the steps taken in slices of
// a small time budget give the same bits as world.step; a call on the world while steps are in flight finishes
// them first (the order of calls is step(n)'s); a recorder wrapping step sees the async steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { Recorder } from '../../web/js/record/recorder.js';
import { Replayer } from '../../web/js/record/replayer.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pbd = await loadMiniPBD(fs.readFileSync(path.join(here, '..', '..', 'dist', 'minipbd.wasm')));

/** Runs stepAsync(n) to the end in polls of `budgetMs`; returns how many polls it took. */
function runAsync(world, n, budgetMs) {
  world.stepAsync(n);
  let polls = 0;
  while (!world.poll(budgetMs)) polls++;
  return polls + 1;
}

test('stepAsync in slices of any budget gives step()\'s bits, for every built-in scene', () => {
  for (const [key, scene] of Object.entries(builtinScenes)) {
    // 30 steps; cloth-100k 6, a third of this test's time at 30: its every step is the same work on the same blocks
    // (its counts never change; no contacts or tearing start later), some 1,800 units of one poll each
    const steps = key === 'cloth-100k' ? 6 : 30;
    const a = pbd.createWorld(scene), b = pbd.createWorld(scene);
    a.step(steps);
    let polls = 0;
    for (let k = 0; k < steps / 3; k++) polls += runAsync(b, 3, 0.01); // a budget far below one unit: one unit per poll
    assert.equal(b.busy, false);
    assert.equal(b.stats().steps, steps, key);
    assert.equal(b.hash(), a.hash(), `${key}: sliced steps are the same steps`);
    assert.ok(polls > steps, `${key}: the steps were spread over ${polls} polls`);
    a.destroy();
    b.destroy();
  }
});

test('a call while steps are in flight finishes them first; busy says so; step(0) and bad counts', () => {
  const scene = builtinScenes.cloth;
  const a = pbd.createWorld(scene), b = pbd.createWorld(scene);
  a.step(2);
  a.setParam('gravityY', -3);
  a.step(1);
  b.stepAsync(2);
  assert.equal(b.busy, true);
  b.setParam('gravityY', -3); // settles the two steps, then sets
  assert.equal(b.busy, false);
  assert.equal(b.stats().steps, 2);
  b.stepAsync(1);
  assert.equal(b.hash(), a.hash(), 'hash() settled the step: same order as the synchronous calls');
  b.stepAsync(0);
  assert.equal(b.busy, false, 'no steps: nothing in flight');
  assert.throws(() => b.stepAsync(-1), /step count/);
  assert.throws(() => b.stepAsync(1.5), /step count/);
  b.stepAsync(1);
  b.destroy(); // a world destroyed with a step in flight: settled, then gone
  assert.equal(pbd.stepping ?? null, null);
  a.destroy();
});

test('the estimate and the progress of a step in flight', () => {
  const world = pbd.createWorld(builtinScenes.cloth);
  world.stepAsync(1);
  world.poll(0.01); // the step's start: its size is known
  world.poll(0.01);
  const s = world.stepper;
  const substeps = world.getParam('substeps'); // settles
  // step.c: the step's start, then per substep predict, contacts, each pass, update, velocities, commit; a pass is
  // one unit per colour and family at least (a colour of more than a slice's constraints is several)
  assert.ok(s.unitsTotal > 1 + substeps * (world.getParam('iterations') + 5), `units of a step: ${s.unitsTotal}`);
  assert.ok(s.progress > 0 && s.progress < 1);
  assert.ok(s.estimateMs > 0 && s.lastStepMs > 0);
  world.destroy();
});

test('a recording and its replay through stepAsync are exact', () => {
  const scene = builtinScenes.cloth;
  const world = pbd.createWorld(scene);
  const rec = new Recorder(world);
  for (let k = 0; k < 20; k++) {
    if (k === 3) world.addAttachment(5, [0.1, 1.2, 0.3], 1);
    if (k > 3) world.moveAttachment(world.attachmentIds.values().next().value, [0.1 + 0.02 * k, 1.2, 0.3]);
    runAsync(world, 2, 0.05);
  }
  const replay = rec.stop();
  assert.equal(replay.steps, 40, 'the recorder counted the async steps');
  const again = pbd.createWorld(rec.scene);
  let result = null;
  const player = new Replayer(again, replay, { onEnd(r) { result = r; } });
  while (!result) runAsync(again, 1, 0.05); // the page replays one step at a time
  assert.equal(result.exact, true, 'replayed bit for bit');
  assert.ok(player);
  world.destroy();
  again.destroy();
});

test('the page\'s driver (sim/driver.js): a busy world is not called; queued calls run in order between the same steps', async () => {
  const { StepDriver } = await import('../../web/js/sim/driver.js');
  const { FixedStepLoop } = await import('../../web/js/sim/loop.js');
  const scene = builtinScenes['cloth-100k'];
  const ref = pbd.createWorld(scene);
  const world = pbd.createWorld(scene);
  let driver = null;
  const loop = new FixedStepLoop((n) => driver.request(n), { timed: false });
  driver = new StepDriver({ world: () => world, loop });
  // A step of the 100k cloth takes far more than a 10 ms frame budget here: it spans frames.
  driver.request(2);
  let t = 0;
  assert.equal(driver.frame((t += 16), false), 'redraw', 'the first frame leaves the step in flight');
  assert.equal(world.busy, true);
  assert.equal(driver.mustWait, true, 'no step cost known yet: a call must wait');
  const order = [];
  driver.defer(() => { order.push('a'); world.setParam('gravityY', -5); });
  driver.defer(() => order.push('b'));
  assert.deepEqual(order, [], 'queued, not run');
  let frames = 1;
  while (world.busy || driver.pending > 0 || driver.queue.length > 0) {
    driver.frame((t += 16), false);
    frames++;
    if (frames > 10_000) throw new Error('the driver never finished');
  }
  assert.deepEqual(order, ['a', 'b'], 'run in order once the steps were done');
  ref.step(2);
  ref.setParam('gravityY', -5);
  assert.equal(world.hash(), ref.hash(), 'the queued call fell after both steps, as when it was made');
  assert.ok(frames > 2, `spread over ${frames} frames`);
  world.destroy();
  ref.destroy();
});
