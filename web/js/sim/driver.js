// driver.js — one animation frame of a page that steps its world without waiting (World.stepAsync), shared by the
// demo page (app/main.js) and the <minipbd-scene> element (embed/element.js).
//
// The rule (issue 12, item 4): the page's drawing and input never wait on the simulation. While the world is busy
// (steps in flight on the threaded engine's runner, or in slices on this thread: engine/stepper-slices.js) the frame
// does not call the world at all: it redraws the buffers uploaded last (Renderer.draw with upload off), skips the
// readout, and the page's own world calls (panel, pointer, recorder, files, scene loads) wait in `queue`; they run
// in order once the steps are done and before the next ones start, so they fall between the same steps as they
// would have synchronously and replays stay exact. A step slower than a frame slows the simulation, never the page.
// A step that runs longer than SLOW_STEP_MS (or that the slices stepper estimates longer) is reported once per
// world (onSlow), so the page can pause and say so.

/** Time this thread gives to slices per frame (the single-thread build); the threaded runner needs none. */
export const SLICE_BUDGET_MS = 10;
/** Steps in flight expected to end within this are finished at once for a world call instead of queueing it. */
export const SETTLE_MS = 8;
/** A step longer than this is "far beyond this machine": the page pauses and says so. */
export const SLOW_STEP_MS = 1500;

const now = () => performance.now();

export class StepDriver {
  /**
   * @param {object} o
   * @param {() => object|null} o.world        the current World
   * @param {import('./loop.js').FixedStepLoop} o.loop  the fixed-step loop (how many steps are due), built with
   *                                           (n) => driver.request(n) and { timed: false }
   * @param {() => boolean} [o.oneAtATime]     true while each step needs a call before it (a held collider moving,
   *                                           a recorder or replayer wrapping step): steps are then started singly
   * @param {() => void} [o.beforeStep]        called before each single step (the held colliders move)
   * @param {(ms: number) => void} [o.onSlow]  a step of this world is far beyond the machine (ms: its cost so far)
   */
  constructor({ world, loop, oneAtATime = () => false, beforeStep = () => {}, onSlow = () => {} }) {
    this.getWorld = world;
    this.loop = loop;
    this.oneAtATime = oneAtATime;
    this.beforeStep = beforeStep;
    this.onSlow = onSlow;
    this.queue = [];
    this.draining = false;
    this.pending = 0; // steps asked for (Step button, stepN) and not started yet
    this.slowWorld = null; // the world onSlow was called for
    this.idleWaiters = [];
    this.drainBound = () => this.drain();
  }

  /** True while the world has steps in flight (or another world of its engine has: one steps at a time). */
  get busy() {
    const w = this.getWorld();
    return Boolean(w && !w.destroyed && (w.busy || (w.engine.stepping && w.engine.stepping !== w)));
  }

  /**
   * Whether a world call must wait now: calls queued before it (not while they run), or steps in flight that
   * would take longer than SETTLE_MS to finish. Steps that short are finished at once instead (settle: the page
   * waits a few milliseconds, as it always did for a step), so with an ordinary scene a press or a panel change
   * applies right away, exactly as without the driver; only a slow step makes them wait.
   */
  get mustWait() {
    if (this.queue.length > 0 && !this.draining) return true;
    if (!this.busy) return false;
    const stepping = this.getWorld().engine.stepping;
    const { n, at } = stepping.asyncSteps ?? { n: 1, at: now() };
    const perStep = stepping.lastStepMs > 0 ? stepping.lastStepMs : Infinity; // unknown: maybe a slow one
    if (perStep * n - (now() - at) > SETTLE_MS) return true;
    this.flush();
    return this.busy;
  }

  /** Runs `fn` now if nothing is in flight or queued, else after the steps in flight, in order. */
  defer(fn) {
    if (this.mustWait) this.queue.push(fn);
    else fn();
  }

  /** `fn` run as defer() runs it; resolves to its result (or rejects with its error). */
  run(fn) {
    return new Promise((resolve, reject) => this.defer(() => {
      try { resolve(fn()); } catch (err) { reject(err); }
    }));
  }

  /** Adds n steps to be taken as soon as the world is free (a frame's, or the Step button's: `now` starts them at
   *  once if it is, so a read of the world right after sees them, as before). */
  request(n, { now: at = false } = {}) {
    if (n > 0) this.pending += n;
    const world = this.getWorld();
    if (at && world && !world.destroyed && !this.mustWait) this.start(world);
  }

  /** Resolves once no step is in flight, asked for or queued call is waiting (tools and tests). */
  whenIdle() {
    if (!this.busy && this.pending === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Finishes the steps in flight now, blocking, and runs the queued calls (for callers that need the world). */
  flush() {
    const w = this.getWorld();
    const stepping = w?.engine.stepping;
    if (stepping) {
      stepping.settle();
      if (stepping === w && w.lastStepMs > 0) this.loop.stepped(w.lastStepMs);
    }
    this.drain();
  }

  drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.busy) {
        const fn = this.queue.shift();
        try {
          fn();
        } catch (err) {
          console.error(err); // a queued call's own errors are its caller's to show; one failing must not stop the rest
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * One frame at time `t` (requestAnimationFrame's): finishes or advances the steps in flight, runs what waited,
   * takes the steps due (`running`: not paused), and says what to draw: 'upload' (the world is free and shows new
   * state: upload and draw, refresh the readout) or 'redraw' (busy: draw the last buffers, touch nothing).
   */
  frame(t, running) {
    const world = this.getWorld();
    this.stepped = false; // whether this frame shows steps not shown before
    if (!world || world.destroyed) return 'none';
    // Anyone settling the world's steps (a tool's call: World.alive) runs what waited for them first, in order.
    world.afterSettle = this.drainBound;
    let fresh = false;
    const other = world.engine.stepping;
    if (other && other !== world) {
      // Another world of the engine steps (another element's, which may have stopped drawing: off screen): its
      // steps are polled here, or nobody would.
      if (!other.poll(SLICE_BUDGET_MS)) {
        this.loop.lastTime = t;
        return 'redraw';
      }
    }
    if (this.busy) {
      if (!this.poll(world, SLICE_BUDGET_MS)) {
        this.loop.lastTime = t; // time spent waiting is not owed to the simulation: it slows down
        this.checkSlow(world);
        return 'redraw';
      }
      fresh = true;
    }
    this.drain();
    if (this.busy) return fresh ? 'upload' : 'redraw'; // a queued call started steps (stepN)
    this.loop.frame(t, running); // its step function is this.request (timed: false)
    this.stepped = fresh;
    if (fresh) {
      // New state to show first (the threaded runner steps while the page draws it); the next steps start after.
      this.startNext = true;
      return 'upload';
    }
    // Steps started one at a time (a held collider, a recording) go on within the frame's budget, like n at once.
    const t0 = now();
    this.stepped = this.start(world);
    for (;;) {
      if (world.busy && !this.poll(world, SLICE_BUDGET_MS - (now() - t0))) {
        this.stepped = false;
        return 'redraw';
      }
      if (this.pending === 0 || now() - t0 >= SLICE_BUDGET_MS) break;
      this.drain();
      if (!this.start(world)) break;
    }
    this.settled();
    return 'upload';
  }

  /** After an 'upload' frame was drawn: starts the steps that waited for it. */
  afterDraw() {
    const world = this.getWorld();
    if (!this.startNext || !world || world.destroyed) return;
    this.startNext = false;
    this.start(world);
  }

  /** Starts the steps asked for: all at once, or one (with its beforeStep) when each needs a call before it. */
  start(world) {
    if (this.pending === 0 || this.busy) {
      this.settled();
      return false;
    }
    const single = this.oneAtATime(world);
    const n = single ? 1 : this.pending;
    if (single) this.beforeStep(world);
    this.pending -= n;
    world.stepAsync(n);
    return true;
  }

  poll(world, budgetMs) {
    if (!world.poll(budgetMs)) return false;
    if (world.lastStepMs > 0) this.loop.stepped(world.lastStepMs);
    return true;
  }

  /** Nothing in flight: anyone waiting for that hears it. */
  settled() {
    if (this.busy || this.pending > 0 || this.queue.length > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }

  checkSlow(world) {
    if (this.slowWorld === world || !world.busy) return;
    // Per step: n quick steps in flight together are not one slow one. The slices stepper knows a step's cost
    // from its first units already; the threaded runner tells only when it is done, so elapsed time bounds it.
    const { n, at } = world.asyncSteps;
    const perStep = (now() - at) / n;
    const estimate = world.stepper.estimateMs ?? 0;
    if (perStep > SLOW_STEP_MS || estimate > SLOW_STEP_MS) {
      this.slowWorld = world;
      this.onSlow(Math.max(perStep, estimate));
    }
  }
}
