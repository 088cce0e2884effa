// build.js — which engine build the page (and the embed) loads, and with how many threads.
//
// The threaded build (minipbd_threads.wasm: shared memory, Web Workers) runs only where the page is cross-origin
// isolated (crossOriginIsolated: the host sends COOP same-origin and COEP require-corp, or coi-sw.js adds them),
// since SharedArrayBuffer exists nowhere else; everywhere else the single-thread build runs, stepping in slices
// (engine/stepper-slices.js), and the page says why. The thread count defaults to a share of the machine that
// leaves a core for the page and the browser: min(hardwareConcurrency - 1, 4), at least 1; `?threads=N` in the
// query overrides it (tests, and anyone comparing).
//
// An embed whose modules come from another origin (a CDN) runs the single-thread build even on an isolated host
// page: `new Worker(url)` throws a SecurityError for a script URL of another origin (HTML, "dedicated workers"),
// and the workers are the threaded build. Its reason is 'crossOrigin'.
//
// The wasm is fetched here (http and https URLs), not inside loadMiniPBD, so that a failed fetch becomes a
// FetchError naming the URL (and the HTTP status): fetch() itself only says "Failed to fetch", whether the network
// failed or CORS refused the answer (the Fetch standard hides which, on purpose).

import { loadMiniPBD } from '../engine/loader.js';
import { carriedWasm } from '../inline/files.js';
import { MAX_THREADS } from '../engine/threads.js';

/** Threads to use by default on a machine with `cores` logical cores. */
export function defaultThreads(cores) {
  const n = Number.isInteger(cores) && cores > 0 ? cores : 1;
  return Math.max(1, Math.min(n - 1, 4));
}

/** A file of ours that could not be fetched: `url`, and `status` (the HTTP status, or 0 when the request itself
 *  failed: the network, or CORS). The embed shows it as its 'fetch' failure (embed/failure.js). */
export class FetchError extends Error {
  constructor(url, status, cause) {
    super(status ? `${url} could not be fetched (HTTP ${status})`
      : `${url} could not be fetched (network error, or no CORS header for this page's origin)`, cause ? { cause } : undefined);
    this.name = 'FetchError';
    this.url = String(url);
    this.status = status;
  }
}

/** The bytes at `url` (an http(s) URL), or a FetchError. */
export async function fetchWasm(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new FetchError(url, 0, err);
  }
  if (!response.ok) throw new FetchError(url, response.status);
  try {
    return await response.arrayBuffer();
  } catch (err) {
    throw new FetchError(url, 0, err);
  }
}

/** What loadMiniPBD is given for `url`: the bytes, fetched here, for http(s); the URL itself otherwise (file: in
 *  Node, which loadMiniPBD reads with node:fs). */
async function wasmSource(url) {
  // A wasm the bundle carries is not fetched: loadMiniPBD takes it from the bundle (inline/files.js).
  if (carriedWasm(url)) return url;
  return /^https?:$/.test(url.protocol) && typeof fetch === 'function' ? fetchWasm(url) : url;
}

/** True when a module at `scriptUrl` is of another origin than the page (`pageOrigin`), so that no Worker can be
 *  started from it. False outside a page (Node: no location). */
export function crossOriginScript(scriptUrl = import.meta.url, pageOrigin = globalThis.location?.origin) {
  if (pageOrigin === undefined) return false;
  const url = new URL(scriptUrl);
  if (url.protocol === 'blob:' || url.protocol === 'data:') return false;
  return pageOrigin === 'null' || url.origin !== pageOrigin; // an opaque-origin page is same-origin with nothing
}

const COI_RELOAD_KEY = 'minipbd.coi-reload';

/**
 * On a host that cannot send the isolation headers: registers coi-sw.js (which adds them) and reloads once, when
 * the page is not isolated and was asked to (`?coi=1`, or data-coi="sw" on <html>). Resolves to null when nothing
 * was done (isolated already, not asked, no service workers), to 'failed' when a reload through the worker did
 * not isolate the page (the session flag: no second reload, so no loop); never resolves while the page reloads.
 */
export async function isolateWithServiceWorker({ search = '', doc = globalThis.document, swUrl = 'coi-sw.js' } = {}) {
  const storage = globalThis.sessionStorage;
  if (globalThis.crossOriginIsolated === true) {
    storage?.removeItem(COI_RELOAD_KEY);
    return null;
  }
  const asked = new URLSearchParams(search).get('coi') === '1' || doc?.documentElement?.dataset.coi === 'sw';
  const sw = globalThis.navigator?.serviceWorker;
  if (!asked || !sw || !globalThis.isSecureContext) return null;
  if (storage?.getItem(COI_RELOAD_KEY)) {
    storage.removeItem(COI_RELOAD_KEY); // the next visit may try again
    return 'failed';
  }
  try {
    await sw.register(swUrl);
    await sw.ready;
  } catch (err) {
    console.info(`MiniPBD: the isolation service worker could not start (${err?.message ?? err})`);
    return 'failed';
  }
  storage?.setItem(COI_RELOAD_KEY, '1');
  globalThis.location.reload();
  return new Promise(() => {}); // the page is going away
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
 * maxThreads, reason?, error? } (what panel/threads.js shows); engine.buildInfo is info too. `serviceWorker`:
 * the page may try coi-sw.js when not isolated (isolateWithServiceWorker; the embed never does: its host decides).
 * `crossOrigin`: our modules are of another origin than the page (no workers; reason 'crossOrigin'). A wasm that
 * cannot be fetched rejects with a FetchError.
 */
export async function loadEngine(wasmUrl, { search = '', isolated = globalThis.crossOriginIsolated === true,
  cores = globalThis.navigator?.hardwareConcurrency, serviceWorker = false, crossOrigin = crossOriginScript() } = {}) {
  const done = (engine, info) => {
    engine.buildInfo = info;
    return { engine, info };
  };
  const single = async (reason, error) => done(await loadMiniPBD(await wasmSource(new URL(wasmUrl))),
    { build: 'single', threads: 1, maxThreads: 1, reason, error });
  if (serviceWorker) {
    // Isolated (by headers or by coi-sw.js): the reload guard is cleared; else the worker may be tried.
    const sw = await isolateWithServiceWorker({ search });
    if (!isolated) return single(sw === 'failed' ? 'swFailed' : 'notIsolated');
  } else if (!isolated) return single('notIsolated');
  if (crossOrigin) return single('crossOrigin');
  const threads = threadsFromQuery(search) ?? defaultThreads(cores);
  // Helpers are started once, at load (the team's size is fixed): enough for the control's whole range.
  const maxThreads = Math.min(MAX_THREADS, Math.max(threads, Number.isInteger(cores) ? cores : 1));
  let engine = null;
  try {
    engine = await loadMiniPBD(await wasmSource(new URL('minipbd_threads.wasm', wasmUrl)), { threads: maxThreads });
    if (!engine.threaded) throw new Error('the module loaded is not the threaded build');
    if ('threads' in engine) engine.threads = Math.min(threads, engine.maxThreads);
    return done(engine, { build: 'threads', threads: engine.threads ?? threads, maxThreads: engine.maxThreads ?? maxThreads });
  } catch (err) {
    engine?.close?.();
    console.info(`MiniPBD: the threaded build did not start (${err?.message ?? err}); running the single-thread build`);
    return single('failed', String(err?.message ?? err));
  }
}
