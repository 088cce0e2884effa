// The fixed-step loop (web/js/sim/loop.js) that the page and the <minipbd-scene> element share: whole steps of dt
// from an accumulator, at most MAX_FRAME_SECONDS of a stall counted, at most MAX_STEPS_PER_FRAME steps (fewer when
// steps are slow), the backlog beyond that dropped.
import test from 'node:test';
import assert from 'node:assert/strict';
import { FixedStepLoop, MAX_STEPS_PER_FRAME, STEP_BUDGET_MS, MAX_FRAME_SECONDS } from '../../web/js/sim/loop.js';

function loop(dt = 1 / 100) {
  const taken = [];
  const l = new FixedStepLoop((n) => taken.push(n));
  l.reset(dt);
  return { l, taken };
}

test('steps follow real time at any frame rate, the remainder carried to the next frame', () => {
  for (const frameMs of [7, 16.7, 33.3]) {
    const { l, taken } = loop(1 / 100);
    let t = 1000;
    l.frame(t, true); // the first frame only starts the clock
    for (let i = 0; i < 60; i++) l.frame((t += frameMs), true);
    const steps = taken.reduce((a, b) => a + b, 0);
    const expected = Math.floor((60 * frameMs) / 10);
    assert.ok(Math.abs(steps - expected) <= 1, `${frameMs} ms frames: ${steps} steps for ${60 * frameMs} ms (dt 10 ms)`);
    assert.ok(l.accumulator >= 0 && l.accumulator < l.dt, 'less than one step left over');
  }
});

test('a stall counts at most MAX_FRAME_SECONDS and a frame takes at most MAX_STEPS_PER_FRAME; the backlog is dropped', () => {
  const { l, taken } = loop(1 / 60);
  l.frame(0, true);
  assert.equal(l.frame(10_000, true), MAX_STEPS_PER_FRAME, `a 10 s stall is ${MAX_FRAME_SECONDS} s, capped`);
  assert.equal(l.accumulator, 0, 'no spiral: the rest is dropped');
  assert.deepEqual(taken, [MAX_STEPS_PER_FRAME]);
});

test('slow steps take fewer per frame (the budget), never none', () => {
  const { l } = loop(1 / 60);
  l.stepMsAvg = 10;
  assert.equal(l.maxSteps(), Math.floor(STEP_BUDGET_MS / 10));
  l.stepMsAvg = 100;
  assert.equal(l.maxSteps(), 1);
  l.stepMsAvg = 0;
  assert.equal(l.maxSteps(), MAX_STEPS_PER_FRAME, 'nothing measured yet');
});

test('not running: no steps and no backlog; reset and restartClock forget the past', () => {
  const { l, taken } = loop(1 / 100);
  l.frame(0, true);
  assert.equal(l.frame(50, false), 0);
  assert.equal(l.accumulator, 0);
  l.frame(60, true);
  assert.deepEqual(taken, [1], 'only the 10 ms since the last frame count');
  l.restartClock();
  assert.equal(l.frame(5000, true), 0, 'the first frame after restartClock only starts the clock');
  l.step(3);
  assert.ok(l.stepMs >= 0 && l.stepMsAvg >= 0);
  l.reset(0.02);
  assert.deepEqual([l.dt, l.accumulator, l.stepMsAvg], [0.02, 0, 0]);
});
