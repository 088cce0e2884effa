// build.js — which engine build the page (and the embed) loads, and with how many threads.
//
// The threaded build (minipbd_threads.wasm: shared memory, Web Workers) runs only where the page is cross-origin
// isolated (crossOriginIsolated: the host sends COOP same-origin and COEP require-corp, or coi-sw.js adds them),
// since SharedArrayBuffer exists nowhere else; everywhere else the single-thread build runs, stepping in slices
// (engine/stepper-slices.js), and the page says why. The thread count defaults to a share of the machine that
// leaves a core for the page and the browser: min(hardwareConcurrency - 1, 4), at least 1; `?threads=N` in the
// query overrides it (tests, and anyone comparing).

import { loadMiniPBD } from '../engine/loader.js';

/** The engine's most threads (src/minipbd.h PBD_MAX_THREADS). */
export const MAX_THREADS = 16;

/** Threads to use by default on a machine with `cores` logical cores. */
export function defaultThreads(cores) {
  const n = Number.isInteger(cores) && cores > 0 ? cores : 1;
  return Math.max(1, Math.min(n - 1, 4));
}

/** `?threads=N` (an integer in [1, MAX_THREADS]), or null. */
export function threadsFromQuery(search) {
  const raw = new URLSearchParams(search ?? '').get('threads');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= MAX_THREADS ? n : null;
}

/**
 * Loads the engine: `wasmUrl` is the single-thread build's URL (minipbd.wasm); the threaded one is beside it
 * (minipbd_threads.wasm). Resolves to { engine, info } with info = { build: 'threads' | 'single', threads,
 * maxThreads, reason?, error? } (what panel/threads.js shows); engine.buildInfo is info too.
 */
export async function loadEngine(wasmUrl, { search = '', isolated = globalThis.crossOriginIsolated === true,
  cores = globalThis.navigator?.hardwareConcurrency } = {}) {
  const done = (engine, info) => {
    engine.buildInfo = info;
    return { engine, info };
  };
  const single = async (reason, error) => done(await loadMiniPBD(new URL(wasmUrl)),
    { build: 'single', threads: 1, maxThreads: 1, reason, error });
  if (!isolated) return single('notIsolated');
  const threads = threadsFromQuery(search) ?? defaultThreads(cores);
  // Helpers are started once, at load (the team's size is fixed): enough for the control's whole range.
  const maxThreads = Math.min(MAX_THREADS, Math.max(threads, Number.isInteger(cores) ? cores : 1));
  let engine = null;
  try {
    engine = await loadMiniPBD(new URL('minipbd_threads.wasm', wasmUrl), { threads: maxThreads });
    if (!engine.threaded) throw new Error('the module loaded is not the threaded build');
    if ('threads' in engine) engine.threads = Math.min(threads, engine.maxThreads);
    return done(engine, { build: 'threads', threads: engine.threads ?? threads, maxThreads: engine.maxThreads ?? maxThreads });
  } catch (err) {
    engine?.close?.();
    console.info(`MiniPBD: the threaded build did not start (${err?.message ?? err}); running the single-thread build`);
    return single('failed', String(err?.message ?? err));
  }
}
