// shared.js — what every <minipbd-scene> of a page shares: one engine per wasm URL, the shaders (fetched once),
// the WebGL context budget, one pair of IntersectionObservers, and page visibility.
//
// WebGL context budget: browsers keep only a limited number of live WebGL contexts per page (Chromium: 16,
// then it silently kills the oldest). An element holds a context only while it is on screen or near it:
// it gets a fresh canvas + context when it becomes visible, and when it is scrolled far away (more than one
// viewport height beyond the edge) the context is released at once (WEBGL_lose_context.loseContext()) and the
// canvas dropped. Its world stays, so on return it is drawn again from the current state within a frame.
// On top of that at most MAX_LIVE_CONTEXTS contexts live in a document: acquiring one more releases the
// least recently visible element that is off screen. (A fresh canvas on return rather than restoreContext():
// restoring is asynchronous and only works for contexts the extension itself lost; a new canvas is simple
// and always works.)
//
// When every context of the budget is held by an element on screen, one more visible element gets none: it shows
// its poster with the 'context-budget' reason and waits until one is released (contextReleased).

import { FetchError, loadEngine } from '../app/build.js';
import { SHADER_FILES } from '../render/renderer.js';
import { carriedShader } from '../inline/files.js';

// This module is js/embed/shared.js: the engine and the shaders are beside js/.
export const DEFAULT_WASM_URL = new URL('../../minipbd.wasm', import.meta.url).href;
export const SHADER_BASE_URL = new URL('../../shaders/', import.meta.url).href;
/** Live WebGL contexts this module keeps in one document (Chromium's own limit is 16 per page). */
export const MAX_LIVE_CONTEXTS = 8;

const FAR_MARGIN = '100% 0px 100% 0px'; // beyond one viewport height above/below: release the context

const engines = new Map(); // wasm URL -> Promise<engine>
/** The engine for `wasmUrl`, loaded once per page and shared by every element: the threaded build beside it
 *  (minipbd_threads.wasm) where the host page is cross-origin isolated, else the single-thread one (app/build.js;
 *  engine.buildInfo says which and why). */
export function sharedEngine(wasmUrl = DEFAULT_WASM_URL) {
  const key = new URL(wasmUrl, document.baseURI).href;
  let p = engines.get(key);
  if (!p) {
    p = loadEngine(key, { search: location.search }).then(({ engine }) => engine);
    p.catch(() => engines.delete(key)); // a failed load may be retried later
    engines.set(key, p);
  }
  return p;
}

/** The text at `url`, or a FetchError naming it (fetch() alone says only "Failed to fetch", CORS or not). */
async function fetchText(url) {
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new FetchError(url, 0, err);
  }
  if (!res.ok) throw new FetchError(url, res.status);
  return res.text();
}

let shaderPromise = null;
export let shaderCache = null; // the sources once fetched: every element's renderer compiles from this one copy
export function shaderSources() {
  if (!shaderPromise) {
    // A bundle carries its shaders (inline/files.js): only the others are fetched.
    shaderPromise = Promise.all(SHADER_FILES.map(async (name) => [name,
      carriedShader(name) ?? await fetchText(new URL(name, SHADER_BASE_URL).href)]))
      .then((entries) => (shaderCache = Object.fromEntries(entries)));
    shaderPromise.catch(() => { shaderPromise = null; });
  }
  return shaderPromise;
}

export const live = new Set(); // elements holding a context, least recently visible first
/** Number of WebGL contexts the elements of this document hold now. */
export function liveContexts() { return live.size; }

/** Makes room for one more context: true when `el` may create one (releasing the least recently visible holder
 *  that is off screen, if need be), false when every holder is on screen (the budget is exhausted: `el` shows its
 *  poster with the 'context-budget' reason and waits for a context to be released). */
export function makeRoomForContext(el) {
  if (live.size < MAX_LIVE_CONTEXTS) return true;
  for (const other of live) {
    if (other !== el && !other._visible) {
      other._releaseContext();
      if (live.size < MAX_LIVE_CONTEXTS) return true;
    }
  }
  waiting.add(el);
  return false;
}

const waiting = new Set(); // visible elements refused a context, in the order they asked
let retryQueued = false;
/** A context was released: the waiting elements still visible try again, after the current task (so that the
 *  element whose acquisition released it gets it first). */
export function contextReleased() {
  if (retryQueued || waiting.size === 0) return;
  retryQueued = true;
  queueMicrotask(() => {
    retryQueued = false;
    for (const el of [...waiting]) {
      waiting.delete(el);
      if (el.isConnected && el._visible) el._ensureContext();
      if (live.size >= MAX_LIVE_CONTEXTS) break;
    }
  });
}
/** `el` no longer waits for a context (it got one, left the screen, or was removed). */
export function stopWaiting(el) { waiting.delete(el); }

// One observer for all elements, so a scroll's changes arrive in one batch: every element knows whether it is
// on screen before any of them claims a context (and the budget evicts only those really off screen).
let shared = null;
export function observers() {
  if (!shared) {
    const last = (entries) => {
      const m = new Map();
      for (const e of entries) m.set(e.target, e.isIntersecting);
      return m;
    };
    shared = {
      visible: new IntersectionObserver((entries) => {
        const changes = last(entries);
        for (const [el, on] of changes) el._visible = on;
        for (const [el, on] of changes) if (!on) el._onVisible(false);
        for (const [el, on] of changes) if (on) el._onVisible(true);
      }),
      far: new IntersectionObserver((entries) => {
        for (const [el, near] of last(entries)) if (!near) el._releaseContext();
      }, { rootMargin: FAR_MARGIN }),
    };
  }
  return shared;
}

export const elements = new Set(); // connected elements, for page visibility changes
document.addEventListener('visibilitychange', () => {
  for (const el of elements) el._kick();
});
