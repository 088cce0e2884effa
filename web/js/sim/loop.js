// loop.js — the fixed-step simulation loop, the one the page (app/main.js) and the <minipbd-scene> element
// (embed/element.js) both run.
//
// The simulation advances in whole steps of dt taken from a time accumulator, so it runs at the same speed at any
// frame rate (wasm4's fixed 60 Hz loop). A frame adds at most MAX_FRAME_SECONDS of elapsed time (a tab in the
// background, a stall), and takes at most MAX_STEPS_PER_FRAME steps, fewer when steps are slow (STEP_BUDGET_MS of
// measured step time per frame: the 100k cloth steps in ~20 ms, so it runs in slow motion at a usable frame rate
// instead of 4 steps per frame); the backlog beyond that is dropped rather than let frames grow ever longer.
// The page and the element step without waiting (sim/driver.js: the loop only says how many steps are due, the
// driver starts them with World.stepAsync and reports their cost back through stepped()); the loop itself never
// calls the world.

export const MAX_STEPS_PER_FRAME = 4;
export const STEP_BUDGET_MS = 24;
export const MAX_FRAME_SECONDS = 0.25;

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class FixedStepLoop {
  /**
   * @param {(n: number) => void} step  takes n steps, or asks for them (sim/driver.js: request)
   * @param {{ timed?: boolean }} [options]  timed: false when `step` only asks (the cost comes through stepped())
   */
  constructor(step, { timed = true } = {}) {
    this.stepFn = step;
    this.timed = timed;
    /** Seconds per step: keep it the world's getParam('dt') (a float, as the engine has it). */
    this.dt = 1 / 60;
    this.accumulator = 0;
    this.lastTime = null;
    /** The last stepping's cost per step (ms), and a smoothed one for the budget. */
    this.stepMs = NaN;
    this.stepMsAvg = 0;
  }

  /** A new world (or a changed one): no backlog, no cost measured yet. */
  reset(dt = this.dt) {
    this.dt = dt;
    this.accumulator = 0;
    this.stepMsAvg = 0;
  }

  /** Forget the last frame's time (after a pause or when the loop was not called for a while). */
  restartClock() {
    this.lastTime = null;
    this.accumulator = 0;
  }

  /** Steps this frame may take at most, from the measured step cost. */
  maxSteps() {
    if (!(this.stepMsAvg > 0)) return MAX_STEPS_PER_FRAME;
    return Math.max(1, Math.min(MAX_STEPS_PER_FRAME, Math.floor(STEP_BUDGET_MS / this.stepMsAvg)));
  }

  /**
   * One animation frame at time `time` (ms, requestAnimationFrame's): adds the elapsed time and takes the steps
   * due, if `running`. Returns the number of steps taken.
   */
  frame(time, running) {
    const elapsed = this.lastTime === null ? 0 : (time - this.lastTime) / 1000;
    this.lastTime = time;
    if (!running) {
      this.accumulator = 0;
      return 0;
    }
    this.accumulator += Math.min(elapsed, MAX_FRAME_SECONDS);
    let n = Math.floor(this.accumulator / this.dt);
    const max = this.maxSteps();
    if (n > max) {
      n = max;
      this.accumulator = 0; // drop the backlog: slow motion beats a spiral of ever longer frames
    } else {
      this.accumulator -= n * this.dt;
    }
    if (n > 0) this.step(n);
    return n;
  }

  /** Takes n steps now (Step, stepN, a frame), timing them for the budget and the readout. */
  step(n) {
    const t0 = now();
    this.stepFn(n);
    if (this.timed) this.stepped((now() - t0) / n);
  }

  /** The cost per step (ms) of steps just taken, for the budget and the readout. */
  stepped(ms) {
    this.stepMs = ms;
    this.stepMsAvg = this.stepMsAvg > 0 ? this.stepMsAvg * 0.8 + this.stepMs * 0.2 : this.stepMs;
  }
}
