// driver.js — one animation frame of a page that steps its world without waiting (World.stepAsync), shared by the
// demo page (app/main.js) and the <minipbd-scene> element (embed/element.js).
//
// The rule: the page's drawing and input never wait on the simulation. While the world is busy
// (steps in flight on the threaded engine's runner, or in slices on this thread: engine/stepper-slices.js) the frame
// does not call the world at all: it redraws the buffers uploaded last (Renderer.draw with upload off), skips the
// readout, and the page's own world calls (panel, pointer, recorder, files, scene loads) wait in `queue`; they run
// in order once the steps are done and before the next ones start, so they fall between the same steps as they
// would have synchronously and replays stay exact. A step slower than a frame slows the simulation, never the page.
// A step that runs longer than SLOW_STEP_MS (or that the slices stepper estimates longer) is reported once per
// world (onSlow), so the page can pause and say so.

import { MAX_STEPS_PER_FRAME } from './loop.js';

/** Time this thread gives to slices per frame (the single-thread build); the threaded runner needs none. */
export const SLICE_BUDGET_MS = 10;
/** Steps in flight expected to end within this are finished at once for a world call instead of queueing it. */
export const SETTLE_MS = 8;
/** A step longer than this is "far beyond this machine": the page pauses and says so. */
export const SLOW_STEP_MS = 1500;
/** Steps started together cost about this at most (at least one step): what a cancel (a new scene, Reset, pause,
 *  another element's turn) may have to wait for on the threaded runner, whose call cannot be interrupted. */
export const CHUNK_MS = 100;
/** A driver that asked for a turn and has not asked again for this long is passed (a safety net: a driver whose
 *  element is not active, hidden or removed, is passed at once). Frames may be slow (a software GPU). */
const TURN_STALE_MS = 30_000;
/** Between frames (pump) slices run at most half the time: after a slice of w ms the next waits max(w, this). */
const PUMP_MIN_MS = 4;

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
   * @param {() => boolean} [o.active]         false while its element draws no frames (hidden): no turn is kept for it
   */
  constructor({ world, loop, oneAtATime = () => false, beforeStep = () => {}, onSlow = () => {}, active = () => true }) {
    this.getWorld = world;
    this.active = active;
    this.loop = loop;
    this.oneAtATime = oneAtATime;
    this.beforeStep = beforeStep;
    this.onSlow = onSlow;
    this.queue = []; // { fn, after }: after the first `after` steps asked for (this.started counts them) have run
    this.draining = false;
    this.pending = 0; // steps asked for (Step button, stepN) and not started yet
    this.started = 0; // steps asked for (not a job's) that were started, or cancelled, since the driver was made
    this.slowWorld = null; // the world onSlow was called for
    this.idleWaiters = [];
    this.drainBound = () => this.drain();
    this.stepsDoneBound = (n) => this.stepsDone(n);
    this.job = null; // a long stepping (stepJob): { n, left, done, inFlight, onProgress, resolve }
    this.inFlight = 0; // steps this driver started that have not ended
    this.turn = 0; // when this driver last started steps (the engine's turn count): least recent goes first
    this.waiting = false; // steps due, not started because another driver's turn came first
    this.wantAt = 0;
    this.frameT = null;
    this.pumpTimer = 0;
    this.pumpDelay = PUMP_MIN_MS;
    this.unshown = false; // steps ended between frames (pump): the next frame shows them
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
    // It runs after the steps asked for before it (in flight, or not started yet: a chunk at a time), as it
    // would have synchronously; a job's chunks are not waited for (calls fall between them).
    if (this.mustWait) this.queue.push({ fn, after: this.started + this.pending });
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
    if (!this.busy && this.pending === 0 && this.queue.length === 0 && !this.job) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Finishes the steps in flight now, blocking, and runs the queued calls (for callers that need the world). */
  flush() {
    const w = this.getWorld();
    if (w && !w.destroyed) w.onStepsDone = this.stepsDoneBound;
    const stepping = w?.engine.stepping;
    if (stepping) {
      stepping.settle();
      if (stepping === w && w.lastStepMs > 0) this.loop.stepped(w.lastStepMs);
    }
    // A queued call waits for steps asked before it and not started yet (chunks): they run now, then it does.
    while (this.queue.length > 0 && w && !w.destroyed && !w.busy && this.started < this.queue[0].after && this.pending > 0) {
      if (!this.start(w, { turns: false })) break;
      w.settle();
    }
    this.drain();
  }

  drain() {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.busy && this.started >= this.queue[0].after) {
        const { fn } = this.queue.shift();
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
    world.onStepsDone = this.stepsDoneBound; // steps ended (here or by any caller settling them): jobs count them
    this.frameT = t;
    let fresh = false;
    const other = world.engine.stepping;
    if (other && other !== world) {
      // This one would step: it asks for the next turn (myTurn), so the one stepping now does not take it again.
      this.waiting = running || this.due > 0;
      if (this.waiting) this.wantAt = now();
      // Known to the others' myTurn from now: a driver that had no step due yet when the engine was free never asked
      // for a turn, so it was in no one's list, and two others stepping by turns kept it at step 0 (a gallery's swirl
      // card, a minute long, once the rigid bodies' builds had become short).
      (world.engine.stepDrivers ??= new Set()).add(this);
      // Another world of the engine steps (another element's, which may have stopped drawing: off screen): its
      // steps are polled here, or nobody would.
      if (!this.pollWorld(other, SLICE_BUDGET_MS)) {
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
    if (this.unshown) { // steps the pump saw end since the last frame
      this.unshown = false;
      fresh = true;
    }
    this.drain();
    if (this.busy) return fresh ? 'upload' : 'redraw'; // a queued call started steps (stepN)
    // Its step function is this.request (timed: false). Steps still due from before (waiting for a turn at the
    // engine) are a backlog the loop does not add to: slow motion, as when steps are slow.
    if (this.pending < 2 * MAX_STEPS_PER_FRAME) this.loop.frame(t, running);
    else this.loop.lastTime = t;
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
      if (!this.due || now() - t0 >= SLICE_BUDGET_MS) break;
      this.drain();
      if (!this.start(world)) break;
    }
    this.settled();
    return 'upload';
  }

  /**
   * How far from the last step's start to its end a frame uploaded now shows the world (Renderer.draw's blend, seed
   * 001 section 4.2): the loop's time not yet stepped (accumulator / dt), plus one for each step due or in flight
   * (then the newest state is all there is to show: 1). So from one frame to the next the picture moves by the
   * frame's own time, at any display rate, a step behind the simulation. Paused: 1, the state itself.
   */
  blend(running) {
    if (!running) return 1;
    return Math.min(1, this.due + this.inFlight + this.loop.accumulator / this.loop.dt);
  }

  /** After an 'upload' frame was drawn: starts the steps that waited for it. */
  afterDraw() {
    const world = this.getWorld();
    if (!this.startNext || !world || world.destroyed) return;
    this.startNext = false;
    this.start(world);
  }

  /** Steps asked for and not started: a job's, then the frames' and the Step button's. */
  get due() { return (this.job?.left ?? 0) + this.pending; }

  /**
   * Starts steps asked for: a job's first, then the others; at most CHUNK_MS of them (by the measured cost; one
   * while it is unknown), or one (with its beforeStep) when each needs a call before it. Drivers of one engine
   * (the elements of a page) take turns: the one that stepped least recently goes first.
   */
  start(world, { turns = true } = {}) {
    if (this.due === 0 || this.busy || (turns && !this.myTurn(world))) {
      this.settled();
      return false;
    }
    const single = this.oneAtATime(world);
    const job = this.job?.left > 0 ? this.job : null;
    // Not past a queued call's place among the steps asked for: it runs between them (drain).
    const limit = !job && this.queue.length > 0 ? this.queue[0].after - this.started : Infinity;
    if (limit <= 0) {
      this.drain();
      if (this.busy || this.queue.length > 0) return false;
      return this.start(world, { turns });
    }
    const n = Math.min(job ? job.left : this.pending, single ? 1 : this.chunk(world), limit);
    if (single) this.beforeStep(world);
    if (job) {
      job.left -= n;
      job.inFlight += n;
    } else {
      this.pending -= n;
      this.started += n;
    }
    this.inFlight += n;
    this.turn = world.engine.turns = (world.engine.turns ?? 0) + 1;
    this.waiting = false;
    world.onStepsDone = this.stepsDoneBound;
    try {
      world.stepAsync(n);
    } catch (err) {
      this.inFlight -= n;
      this.cancel(); // a refused step: nothing more of what was asked
      throw err;
    }
    this.schedulePump();
    return true;
  }

  /**
   * Between frames the steps in flight go on too: slices from a timer, at most half of this thread's time
   * (PUMP_MIN_MS), so slow frames (a software GPU, a busy machine) do not slow the simulation to their rate and
   * input is answered between any two slices; the next steps due (a job's chunk first) start as soon as these
   * end (both builds).
   */
  schedulePump() {
    if (this.pumpTimer || typeof setTimeout !== 'function') return;
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = 0;
      try {
        this.pump();
      } catch (err) {
        console.error(err); // a failed step: the frame that polls next throws it to the page too
      }
    }, this.pumpDelay);
  }

  pump() {
    const world = this.getWorld();
    if (!world || world.destroyed) return;
    world.onStepsDone = this.stepsDoneBound;
    world.afterSettle = this.drainBound;
    if (world.busy) {
      const t0 = now();
      const done = this.poll(world, SLICE_BUDGET_MS, { frame: false }); // its own budget, not the frame's
      this.pumpDelay = Math.max(PUMP_MIN_MS, now() - t0);
      if (done) {
        this.unshown = true;
        this.drain();
      }
    }
    if (!this.busy && this.due > 0 && this.queue.length === 0) this.start(world);
    if (world.busy || this.job) this.schedulePump();
  }

  /** Steps to start together: about CHUNK_MS of them by the measured cost, at least 1 (1 while unmeasured). */
  chunk(world) {
    const per = this.loop.stepMsAvg > 0 ? this.loop.stepMsAvg : world.lastStepMs;
    return per > 0 ? Math.max(1, Math.floor(CHUNK_MS / per)) : 1;
  }

  /** Whether this driver may start steps now: no other driver of the engine has waited longer for its turn. */
  myTurn(world) {
    const peers = (world.engine.stepDrivers ??= new Set());
    peers.add(this);
    const t = now();
    for (const d of peers) {
      if (d === this) continue;
      const w = d.getWorld();
      if (!w || w.destroyed || w.engine !== world.engine) {
        peers.delete(d);
        continue;
      }
      if (d.waiting && d.turn < this.turn && t - d.wantAt < TURN_STALE_MS && d.active()) {
        this.waiting = true;
        this.wantAt = t;
        return false;
      }
    }
    return true;
  }

  /** Steps of this driver's world ended (World.finishAsync): a job counts them and says how far it is. */
  stepsDone(n) {
    this.inFlight = 0;
    const job = this.job;
    if (!job || job.inFlight === 0) return;
    job.done += Math.min(n, job.inFlight);
    job.inFlight = 0;
    if (job.left === 0) this.endJob();
    else job.onProgress?.({ done: job.done, n: job.n });
  }

  /**
   * Takes n steps as a job: in chunks (a cancel waits for one at most), the world's own calls between them, while
   * paused too. onProgress({ done, n }) after each chunk. Resolves with { ran, cancelled } when all have run or
   * cancelJob() stopped it (ran: how many did). One job at a time: a new one cancels the one running.
   */
  stepJob(n, { onProgress = null } = {}) {
    this.cancelJob();
    return new Promise((resolve) => {
      this.job = { n, left: n, done: 0, inFlight: 0, onProgress, resolve, cancelled: false };
      if (n === 0) this.endJob();
      else this.schedulePump(); // it starts as soon as the world is free, frames or not (a hidden element)
    });
  }

  endJob() {
    const job = this.job;
    if (!job) return;
    this.job = null;
    job.onProgress?.({ done: job.done, n: job.n });
    job.resolve({ ran: job.done, cancelled: job.cancelled });
    this.settled();
  }

  /** Stops the job: no chunk more; the one in flight ends (the slices stepper stops after its step in flight). */
  cancelJob() {
    const job = this.job;
    if (!job) return;
    if (job.left > 0) job.cancelled = true;
    job.left = 0;
    const w = this.getWorld();
    if (job.inFlight > 0 && w && !w.destroyed && w.busy) w.cancelSteps();
    else this.endJob();
  }

  /**
   * Nothing more of what was asked: the steps due (the loop's backlog, the Step button's) and the job; the steps
   * in flight stop after the one running (slices) or at the end of their chunk (the threaded runner). For a new
   * scene, Reset, a refused step, pause.
   */
  cancel({ job = true } = {}) {
    this.started += this.pending; // the calls queued after them need not wait for them
    this.pending = 0;
    this.loop.accumulator = 0;
    if (job) this.cancelJob();
    const w = this.getWorld();
    if (this.inFlight > 0 && w && !w.destroyed && w.busy) w.cancelSteps(); // only steps this driver started
    this.settled();
  }

  /**
   * The world is about to be replaced (a new scene, Reset): cancel(), and the step in flight is dropped at once,
   * between two of its slices (the slices stepper) or two of its stage units (the threaded runner, which this waits
   * for: a pass at most); the world is destroyed next (pbd_DestroyWorld takes a world mid-step). Then the calls
   * waiting run.
   */
  drop() {
    this.cancel();
    const w = this.getWorld();
    if (w && !w.destroyed && w.busy && w.stepper.abandon) {
      w.stepper.abandon();
      w.engine.stepping = null;
      this.inFlight = 0;
    }
    this.endJob();
    this.drain();
  }

  /** Polls `world`'s steps within this frame's share of the slice budget (one budget per frame for every driver
   *  of the engine: four elements do not take four budgets). */
  pollWorld(world, budgetMs) {
    if (!world.stepper.sliced) return world.poll(budgetMs);
    const fb = (world.engine.frameBudget ??= { t: null, used: 0 });
    if (fb.t !== this.frameT || this.frameT === null) {
      fb.t = this.frameT;
      fb.used = 0;
    }
    const budget = Math.min(budgetMs, SLICE_BUDGET_MS - fb.used);
    if (budget <= 0) return false;
    const t0 = now();
    try {
      return world.poll(budget);
    } finally {
      fb.used += now() - t0;
    }
  }

  poll(world, budgetMs, { frame = true } = {}) {
    let done;
    try {
      done = frame ? this.pollWorld(world, budgetMs) : world.poll(budgetMs);
    } catch (err) {
      this.cancel(); // a failed step: nothing more of what was asked
      throw err;
    }
    if (!done) return false;
    if (world.lastStepMs > 0) this.loop.stepped(world.lastStepMs);
    return true;
  }

  /** Nothing in flight: anyone waiting for that hears it. */
  settled() {
    if (this.busy || this.pending > 0 || this.job || this.queue.length > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }

  checkSlow(world) {
    if (this.slowWorld === world || !world.busy) return;
    // Per step: n quick steps in flight together are not one slow one. The slices stepper knows a step's cost
    // from its first units already; the threaded runner tells only when it is done, so elapsed time bounds it.
    const { n, at } = world.asyncSteps;
    const elapsed = now() - at;
    const perStep = elapsed / n;
    // The estimate is a unit's measured cost times the units: one slice descheduled on a loaded machine inflates it
    // (a step's first measure is taken as it comes), so it is believed only once the steps have taken a third of
    // SLOW_STEP_MS for real; a slow scene is still told within 0.5 s, long before its first step ends.
    const estimate = elapsed > SLOW_STEP_MS / 3 ? (world.stepper.estimateMs ?? 0) : 0;
    if (perStep > SLOW_STEP_MS || estimate > SLOW_STEP_MS) {
      this.slowWorld = world;
      this.onSlow(Math.max(perStep, estimate));
    }
  }
}
