// world-async.js — a World's stepping without waiting (World.stepAsync): the steps run on the engine's stepper,
// the threaded engine's runner worker (engine/threads.js: engine.stepper) or slices taken on this thread
// (stepper-slices.js), while the caller goes on drawing and answering input. One world of an engine steps at a
// time (engine.stepping); any other call on that world finishes its steps first (World.alive).
// Mixed into World.prototype (world.js), like world-fluid.js.

import { argCount, MAX_STEPS_PER_CALL, MiniPBDError } from './args.js';
import { SliceStepper } from './stepper-slices.js';

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

export const asyncMethods = {
  /** The engine's stepper (the threaded engine's runner worker, or slices on this thread: stepper-slices.js). */
  get stepper() {
    return (this.engine.stepper ??= new SliceStepper(this.engine.exports));
  },

  /**
   * Starts n steps without waiting for them: they run on the threaded engine's runner, or in slices taken by
   * poll(). Until they are done `busy` is true; any other call on the world finishes them first (alive()), so the
   * order of calls is exactly step(n)'s. Goes through this.step, so a recorder or replayer wrapping it counts
   * these steps (one at a time while it replays: app/main.js).
   */
  stepAsync(n = 1) {
    this.alive();
    argCount('stepAsync', 'step count', n, 0, MAX_STEPS_PER_CALL);
    this.engine.stepping?.settle(); // another world's steps: one world steps at a time
    this.startAsync = true;
    try {
      this.step(n);
    } finally {
      this.startAsync = false;
    }
  },

  /** stepAsync's start, reached through this.step (so a recorder or replayer wrapping step has seen the steps). */
  startSteps(n) {
    this.startAsync = false;
    if (n === 0) return;
    if (!this.lastStats) this.stats(); // what peekStats() shows while these run (the world is free still)
    this.stepper.start(this.id, n);
    this.engine.stepping = this;
    this.asyncSteps = { n, at: now() }; // what is in flight since when (the page's slow-step check)
  },

  /** True while steps started by stepAsync are in flight. Asks nothing of the engine. */
  get busy() { return this.engine.stepping === this; },

  /**
   * Lets the steps in flight run for about `budgetMs` (slices; the threaded runner needs no time from this
   * thread) and returns true when none is left; a step that failed throws its MiniPBDError here.
   */
  poll(budgetMs = 8) {
    if (this.engine.stepping !== this) return true;
    try {
      if (!this.stepper.poll(budgetMs)) return false;
    } catch (err) {
      this.engine.stepping = null; // the threaded stepper throws the step's error itself
      throw err;
    }
    this.finishAsync();
    return true;
  },

  /** Finishes the steps in flight now, blocking (the correctness net; the page avoids needing it). */
  settle() {
    if (this.engine.stepping !== this) return;
    try {
      this.stepper.settle();
    } catch (err) {
      this.engine.stepping = null;
      throw err;
    }
    this.finishAsync();
    // Whoever queued calls for after these steps (sim/driver.js) runs them now, before the call that settled.
    this.afterSettle?.();
  },

  finishAsync() {
    const stepper = this.stepper;
    this.engine.stepping = null;
    // The steppers that can be cancelled (slices, the threaded runner) say how many ran; the synchronous one ran all n.
    const done = stepper.stepsDone ?? (this.asyncSteps?.n ?? 1);
    if (stepper.error) {
      const error = stepper.error;
      stepper.error = 0;
      this.countSteps(done);
      this.onStepsDone?.(done);
      this.engine.check(error, 'engine', this.id);
    }
    if (done > 0) this.lastStepMs = stepper.lastStepMs / done; // the steppers time all of them together
    this.countSteps(done);
    this.onStepsDone?.(done);
  },

  /** n steps ended: the step count peekStats() shows follows without asking the engine. */
  countSteps(n) {
    if (this.lastStats && n > 0) this.lastStats.steps += n;
  },

  /**
   * Stops the steps in flight after the one running now (the slices stepper, the threaded runner). Nothing waits:
   * poll() ends with that step.
   */
  cancelSteps() {
    if (this.engine.stepping === this) this.stepper.cancel?.();
  },

  /**
   * The statistics without waiting, ever: world.stats() when the world is free (≤ 3 ms on the largest scenes),
   * else the last ones read with what the stepper knows now: the steps ended (counted as they end, one by one on
   * the slices stepper), the last step's time (or the estimate of the one in flight), its progress. The errors and
   * energies are then those of step `measuredAt`; `busy` says steps are in flight.
   */
  peekStats() {
    if (this.destroyed) throw new MiniPBDError('destroyed', 'this world was destroyed');
    if (this.engine.stepping !== this) return { ...this.stats(), busy: false, progress: 0 };
    const stepper = this.stepper;
    const last = this.lastStats;
    const done = stepper.stepsDone ?? 0;
    const stepMs = this.lastStepMs > 0 ? this.lastStepMs : (stepper.estimateMs ?? 0);
    return { ...last, steps: last.steps + done, stepMs, measuredAt: last.measuredAt, busy: true,
      progress: stepper.progress ?? 0 };
  },
};
