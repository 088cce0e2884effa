// runner-cancel.test.mjs — the threaded engine's runner worker (the page's stepper: the steps run beside the page's
// thread) reports how far it is and stops when asked, through the control words it shares with the page
// (wasm/api.c pbdjs_StepNControlled):
//   - while a long run of steps is in flight, peekStats() counts the steps already ended and the step in flight's
//     progress, without waiting;
//   - cancel() stops after the step in progress: the world is between steps, with exactly the bits of the same
//     number of steps taken whole on the single-thread build;
//   - abandon() (a world about to be replaced) stops mid-step, at a stage unit, and the engine steps a new world to
//     the single-thread build's bits afterwards.
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const single = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
const paged = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd_threads.wasm')), { threads: 2, runner: true });
const STAGE_START = 6; // pbd_World_StepStage between steps (world/step.c: the next unit begins a step)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const scene = builtinScenes['dam-break']; // tens of ms a step: many stage units, and a step in flight is easy to catch

async function until(cond, what) {
  const t0 = Date.now();
  while (!cond()) {
    assert.ok(Date.now() - t0 < 120000, what);
    await sleep(1);
  }
}

test('the runner: live step count and progress while busy; cancel() stops between steps, with the bits of as many whole steps', async () => {
  const w = paged.createWorld(scene);
  w.setThreads(2);
  w.stepAsync(400);
  assert.equal(w.busy, true);
  let sawProgress = false;
  let sawLiveSteps = false;
  await until(() => {
    const s = w.peekStats();
    if (s.busy && s.progress > 0 && s.progress < 1) sawProgress = true;
    if (s.busy && s.steps >= 2) sawLiveSteps = true;
    return sawProgress && sawLiveSteps;
  }, 'the step count rises and a step shows its progress while the run is in flight');
  w.cancelSteps();
  await until(() => w.poll(), 'the runner stops');
  const ran = w.stats().steps;
  assert.ok(ran >= 2 && ran < 400, `stopped early: ${ran} of 400`);
  assert.equal(paged.exports.pbd_World_StepStage(w.id), STAGE_START, 'between two steps');
  const reference = single.createWorld(scene);
  reference.step(ran);
  assert.equal(w.hash(), reference.hash(), 'the same bits as the same steps taken whole');
  w.step(3); // the world steps on as before
  reference.step(3);
  assert.equal(w.hash(), reference.hash());
  w.destroy();
  reference.destroy();
});

test('the runner: abandon() stops mid-step; the world is destroyed and the engine steps a new one to the same bits', async () => {
  const w = paged.createWorld(scene);
  w.setThreads(2);
  paged.stepper.start(w.id, 400);
  const ctl = paged.stepper.runner.ctl; // request, stepsDone, unitDone, unitTotal
  await until(() => Atomics.load(ctl, 1) >= 1 && Atomics.load(ctl, 2) > 1, 'a step is part way');
  paged.stepper.abandon();
  assert.equal(paged.stepper.busy, false);
  assert.ok(Atomics.load(ctl, 1) < 400, 'stopped early');
  assert.notEqual(paged.exports.pbd_World_StepStage(w.id), STAGE_START, 'stopped within a step');
  paged.stepping = null;
  w.destroy();
  const fresh = paged.createWorld(scene);
  fresh.setThreads(2);
  const reference = single.createWorld(scene);
  fresh.step(5);
  reference.step(5);
  assert.equal(fresh.hash(), reference.hash());
  fresh.destroy();
  reference.destroy();
  paged.close();
});
