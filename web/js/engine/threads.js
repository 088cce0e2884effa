// threads.js — the threaded engine (build/minipbd_threads.wasm, the threaded build): one shared WebAssembly.Memory, the
// module instantiated on the calling thread and again in each worker over that memory, and a team of threads
// the core's steps share out (src/base/tasks.c: fork-join over fixed blocks, so every thread count gives the
// same bits). loader.js hands the module here when it imports its memory (the single-thread build exports its
// own and imports none).
//
//   const pbd = await loadMiniPBD('./minipbd_threads.wasm', { threads: 4 });
//   pbd.threaded, pbd.maxThreads, pbd.threads;  world.setThreads(2);  pbd.stepper.start(world.id, 1);  pbd.close();
//
// Threads: participant 0 is whoever steps a world; participants 1..maxThreads-1 are helper workers parked in
// pbd_Team_Work. A browser's main thread may not wait (Atomics.wait, memory.atomic.wait32 throw there) and must
// not block for a step anyway, so there a 'runner' worker is participant 0: the page starts a step with
// engine.stepper.start and polls for it each frame. A thread that may wait (Node's main thread, a worker) steps
// synchronously and its stepper simply runs the step in start().

import { MiniPBDError } from './args.js';
import { ENGINE_LIMITS } from './param-table.js';

/** The engine's most threads (src/minipbd.h PBD_MAX_THREADS, through its limits table). */
export const MAX_THREADS = ENGINE_LIMITS.maxThreads;
/** The memory's maximum, fixed at load: the Makefile's THREADS_WASM_MAX_MEMORY (wasm-ld --max-memory), in pages.
 *  A shared memory cannot be replaced when it grows (every thread holds it), so its maximum is reserved once. */
const MAXIMUM_PAGES = (1 << 30) / 65536;
/** The memory at load: as the emcc build's INITIAL_MEMORY (16 MiB); the allocator grows it (freestanding/malloc.c). */
const INITIAL_PAGES = 256;
/** Each worker's stack: the deepest path (a contact search, the colouring) uses far less. */
const WORKER_STACK = 256 << 10;

// The runner's completion record, malloc'd by the engine: Int32 [state, result], then Float64 lastStepMs, then the
// steps' control (wasm/api.c pbdjs_StepNControlled, world/core.h pbdStepControl): Int32 [request, stepsDone,
// unitDone, unitTotal].
const STATE_IDLE = 0;
const STATE_RUNNING = 1;
const STATE_DONE = 2;
const CONTROL_OFFSET = 16;
const SLOT_BYTES = CONTROL_OFFSET + 16;
const REQUEST_STOP_AFTER = 1; // after the step in progress
const REQUEST_STOP_NOW = 2; // at its next stage unit, mid-step: the world is about to be destroyed

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** True when the module imports its memory: the threaded build. */
export function isThreadedModule(module) {
  return WebAssembly.Module.imports(module).some((imp) => imp.kind === 'memory');
}

/** Whether this thread may block in Atomics.wait (not a browser's main thread). */
function waitAllowed() {
  try {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1, 0);
    return true;
  } catch {
    return false;
  }
}

/** The default team size: every core the host reports, at most MAX_THREADS (the page may choose fewer). */
async function defaultThreads() {
  let cores = globalThis.navigator?.hardwareConcurrency;
  if (!cores && isNode) cores = (await import('node:os')).availableParallelism();
  return Math.max(1, Math.min(MAX_THREADS, cores || 1));
}

/** A thread count in [1, max], or a MiniPBDError naming the range. */
export function checkThreads(call, n, max) {
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= max) return n;
  throw new MiniPBDError('argument', `${call}: threads must be an integer in [1, ${max}] (this engine's team), got ${
    typeof n === 'number' || typeof n === 'string' ? JSON.stringify(n) : typeof n}`);
}

/** Node's flags for a worker: the parent's, but those that name the parent's own input (-e CODE, --input-type),
 *  which a worker started from a file refuses. */
function workerExecArgv() {
  const out = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    if (['-e', '--eval', '-p', '--print'].includes(args[i])) i++;
    else if (!args[i].startsWith('--input-type') && !/^--(eval|print)=/.test(args[i])) out.push(args[i]);
  }
  return out;
}

/** A worker running thread-worker.js, the same calls in Node and in browsers. */
async function spawn(onMessage, onError) {
  const url = new URL('./thread-worker.js', import.meta.url);
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(url, { execArgv: workerExecArgv() });
    w.on('message', onMessage);
    w.on('error', onError);
    return { post: (m) => w.postMessage(m), terminate: () => w.terminate(), ref: () => w.ref(), unref: () => w.unref() };
  }
  const w = new Worker(url, { type: 'module' });
  w.onmessage = (ev) => onMessage(ev.data);
  w.onerror = (ev) => { ev.preventDefault?.(); onError(new Error(ev.message || 'the worker failed to load')); };
  return { post: (m) => w.postMessage(m), terminate: () => w.terminate(), ref() {}, unref() {} };
}

/**
 * Instantiates the threaded module over a new shared memory, attaches it to `engine` (loader.js's Engine), makes
 * the team and starts its workers. Resolves when every worker is running.
 * @param {{threads?: number, runner?: boolean}} options threads: the team's size (default: the host's cores);
 *   runner: step on a runner worker (default: only where this thread may not wait, i.e. a browser's main thread)
 */
export async function attachThreaded(engine, module, options = {}) {
  if (typeof SharedArrayBuffer === 'undefined' || globalThis.crossOriginIsolated === false) {
    // A page without COOP same-origin + COEP require-corp has no shared memory to give the workers (docs/embedding.md "Hosting").
    throw new MiniPBDError('load', 'the threaded build needs shared memory: this page is not cross-origin isolated '
      + '(COOP same-origin, COEP require-corp); load minipbd.wasm instead');
  }
  const maxThreads = checkThreads('loadMiniPBD', options.threads ?? await defaultThreads(), MAX_THREADS);
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  // The engine's exports: the instance's, with the memory it imports (memory.js reads exports.memory).
  const exports = { ...instance.exports, memory };
  engine.attach(exports);
  const team = new ThreadTeam(engine, module, memory, maxThreads, options.runner ?? !waitAllowed());
  engine.threadTeam = team;
  try {
    await team.start();
  } catch (err) {
    team.close();
    throw err;
  }
  return engine;
}

class ThreadTeam {
  constructor(engine, module, memory, maxThreads, useRunner) {
    this.engine = engine;
    this.module = module;
    this.memory = memory;
    this.maxThreads = maxThreads;
    this.threads = maxThreads;
    this.useRunner = useRunner;
    this.workers = [];
    this.canWait = waitAllowed();
    this.closed = false;
    const e = engine.exports;
    const raw = e.malloc(e.pbd_Team_Bytes(maxThreads) + 64);
    if (!raw) throw new MiniPBDError('memory', 'the engine could not allocate its team');
    this.team = e.pbd_Team_Init((raw + 63) & ~63, maxThreads); // the team wants a 64-byte boundary
    if (!this.team) throw new MiniPBDError('load', `this engine cannot make a team of ${maxThreads} threads`);
  }

  /** A stack for a worker: its top (stacks grow down), 16-byte aligned. */
  stack() {
    const p = this.engine.exports.malloc(WORKER_STACK);
    if (!p) throw new MiniPBDError('memory', 'the engine could not allocate a worker stack');
    return (p + WORKER_STACK) & ~15;
  }

  async start() {
    const e = this.engine.exports;
    const ready = [];
    const launch = async (message, onMessage) => {
      let resolve, reject;
      const started = new Promise((res, rej) => { resolve = res; reject = rej; });
      started.catch(() => {}); // awaited below with the others; a failure before then is not "unhandled"
      ready.push(started);
      const worker = await spawn((m) => {
        if (m.type === 'ready') resolve();
        else onMessage?.(m);
      }, (err) => {
        reject(new MiniPBDError('load', `a ${message.role} thread failed: ${err.message}`));
        this.failure = err;
      });
      worker.post({ type: 'start', module: this.module, memory: this.memory, ...message });
      this.workers.push(worker);
      return worker;
    };
    for (let index = 1; index < this.maxThreads; index++) {
      await launch({ role: 'helper', team: this.team, index, stackTop: this.stack() });
    }
    if (this.useRunner) {
      const slots = e.malloc(SLOT_BYTES);
      if (!slots) throw new MiniPBDError('memory', 'the engine could not allocate the runner\'s record');
      this.engine.refreshViews();
      new Uint8Array(this.memory.buffer, slots, SLOT_BYTES).fill(0);
      this.runner = new Runner(this, slots);
      this.runner.worker = await launch({ role: 'runner', slots, stackTop: this.stack() }, (m) => this.runner.message(m));
      this.engine.stepper = new RunnerStepper(this.engine, this.runner);
      this.wrapSyncSteps();
    } else {
      this.engine.stepper = new SyncStepper(this.engine);
    }
    this.engine.refreshViews();
    await Promise.all(ready);
    // Node: parked workers must not keep the process alive (engine.close() is good manners, not a duty).
    for (const w of this.workers) w.unref();
  }

  /** On a thread that may not wait, the World's synchronous steps run on the runner too (the page spins for them:
   *  settle()), since a step with helpers waits in memory.atomic.wait32 when a block is slow. */
  wrapSyncSteps() {
    const e = this.engine.exports;
    this.rawSteps = {};
    for (const name of ['pbdjs_StepN', 'pbd_World_Step', 'pbd_World_StepSlice']) {
      this.rawSteps[name] = e[name];
      e[name] = (...args) => this.runner.callSync(name, args);
    }
  }

  setDefault(n) { this.threads = checkThreads('engine.threads', n, this.maxThreads); }

  close() {
    if (this.closed) return;
    this.closed = true;
    const e = this.engine.exports;
    try { this.engine.stepper?.settle(); } catch { /* the step's error was the caller's to collect */ }
    if (this.team) {
      // Worlds step alone from now on, and hold no pointer to the team freed below.
      for (const w of this.engine.worlds ?? []) if (!w.destroyed) e.pbd_World_SetThreads(w.id, 0, 1);
      e.pbd_Team_Stop(this.team);
    }
    for (const w of this.workers) w.terminate();
    this.workers = [];
    if (this.rawSteps) Object.assign(e, this.rawSteps);
    this.engine.stepper = new SyncStepper(this.engine);
    // Nothing is freed: a helper may still be reading the team on its way out of pbd_Team_Work (and standing on
    // its stack) when terminate() lands, and a reused block could look like a team at work. A few hundred KiB
    // per engine, gone with it.
    this.maxThreads = 1;
    this.threads = 1;
    this.team = 0;
  }
}

/** The runner worker: one call at a time, completion in shared memory. */
class Runner {
  constructor(team, slots) {
    this.team = team;
    this.slots = slots;
    this.i32 = new Int32Array(team.memory.buffer, slots, 2);
    this.f64 = new Float64Array(team.memory.buffer, slots + 8, 1);
    this.control = slots + CONTROL_OFFSET;
    this.ctl = new Int32Array(team.memory.buffer, this.control, 4); // request, stepsDone, unitDone, unitTotal
    this.ondone = null;
    this.trap = null;
  }

  message(m) {
    if (m.type === 'trap') this.trap = m.message;
    else if (m.type === 'done') {
      this.worker.unref();
      this.ondone?.();
    }
  }

  get state() { return Atomics.load(this.i32, 0); }

  post(call, args) {
    if (this.team.failure) throw new MiniPBDError('abort', `the runner thread failed: ${this.team.failure.message}`);
    Atomics.store(this.i32, 0, STATE_RUNNING);
    this.worker.ref();
    this.worker.post({ type: 'call', call, args });
  }

  /** Spins until the call is done (this thread may not wait); returns its result and leaves the record idle. */
  finish() {
    // a browser's main thread may not sleep: it spins (settle() is for the rare caller that needs the world now)
    const wait = this.team.canWait;
    while (Atomics.load(this.i32, 0) !== STATE_DONE) if (wait) Atomics.wait(this.i32, 0, STATE_RUNNING, 1);
    const result = Atomics.load(this.i32, 1);
    const ms = this.f64[0];
    Atomics.store(this.i32, 0, STATE_IDLE);
    this.team.engine.refreshViews();
    if (this.trap) {
      const message = this.trap;
      this.trap = null;
      throw new MiniPBDError('abort', `the engine trapped on the runner: ${message}`);
    }
    return { result, ms };
  }

  callSync(name, args) {
    this.team.engine.stepper.settle();
    this.post(name, args);
    return this.finish().result;
  }
}

/** engine.stepper over the runner (browsers): the step runs beside the page. */
class RunnerStepper {
  constructor(engine, runner) {
    this.engine = engine;
    this.runner = runner;
    this.world = 0;
    this.lastStepMs = 0;
    runner.ondone = () => this.ondone?.();
    /** Called (with no argument) when a started step has finished, if set: the page may poll then instead. */
    this.ondone = null;
  }

  /** Starts `n` steps of world `worldId` on the runner. Refused while a step is in flight. */
  start(worldId, n) {
    if (this.world) throw new MiniPBDError('busy', 'stepper.start: a step is in flight; poll() or settle() it first');
    this.runner.ctl.fill(0);
    this.runner.post('pbdjs_StepNControlled', [worldId, n, this.runner.control]);
    this.world = worldId;
  }

  /** Steps of those started that have ended (read live from the runner's control words). */
  get stepsDone() { return Atomics.load(this.runner.ctl, 1); }

  /** How far the step in flight is, in [0, 1), by its stage units (a pass, a substep's contacts, ...). */
  get progress() {
    if (!this.world) return 0;
    const total = Atomics.load(this.runner.ctl, 3);
    return total > 0 ? Math.min(Math.max(Atomics.load(this.runner.ctl, 2) / total, 0), 0.999) : 0;
  }

  /** Takes no step after the one in flight; poll() then ends with it, and stepsDone says how many ran. */
  cancel() {
    if (this.world) Atomics.store(this.runner.ctl, 0, REQUEST_STOP_AFTER);
  }

  /** Stops at the next stage unit, mid-step, and waits for the runner to return (a pass at most): only for a world
   *  about to be destroyed (pbd_DestroyWorld takes a world mid-step). */
  abandon() {
    if (!this.world) return;
    Atomics.store(this.runner.ctl, 0, REQUEST_STOP_NOW);
    this.world = 0;
    this.runner.finish();
  }

  /** A step was started and its completion not yet taken by poll() or settle(). */
  get busy() { return this.world !== 0; }

  /** Non-blocking: true when no step is in flight (the started one has finished and is taken now). Throws the
   *  step's error (a MiniPBDError with the world's message) when it failed. */
  poll() {
    if (!this.world) return true;
    if (this.runner.state !== STATE_DONE) return false;
    this.collect();
    return true;
  }

  /** Waits (spinning: a browser's main thread may not sleep) until the step in flight has finished. */
  settle() {
    if (this.world) this.collect();
  }

  collect() {
    const world = this.world;
    this.world = 0;
    const { result, ms } = this.runner.finish();
    this.lastStepMs = ms;
    this.engine.check(result, 'engine', world);
  }
}

/** engine.stepper where this thread may wait (Node, a worker): the step runs in start(). */
class SyncStepper {
  constructor(engine) {
    this.engine = engine;
    this.world = 0;
    this.result = 0;
    this.lastStepMs = 0;
    this.ondone = null;
  }

  start(worldId, n) {
    if (this.world) throw new MiniPBDError('busy', 'stepper.start: a step is in flight; poll() or settle() it first');
    const t0 = now();
    this.result = this.engine.exports.pbdjs_StepN(worldId, n);
    this.lastStepMs = now() - t0;
    this.engine.refreshViews();
    this.world = worldId;
    if (this.ondone) queueMicrotask(() => this.ondone?.());
  }

  get busy() { return this.world !== 0; }

  poll() {
    this.settle();
    return true;
  }

  settle() {
    if (!this.world) return;
    const world = this.world;
    this.world = 0;
    this.engine.check(this.result, 'engine', world);
  }
}
