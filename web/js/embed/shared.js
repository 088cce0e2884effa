// shared.js — what every <minipbd-scene> of a page shares: one engine per wasm URL, the shaders (fetched once),
// the WebGL context budget, one pair of IntersectionObservers, and page visibility.

import { loadEngine } from '../app/build.js';
import { SHADER_FILES } from '../render/renderer.js';
import { fetchShaderSources } from '../render/gl.js';

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

let shaderPromise = null;
export let shaderCache = null; // the sources once fetched: every element's renderer compiles from this one copy
export function shaderSources() {
  if (!shaderPromise) {
    shaderPromise = fetchShaderSources(SHADER_FILES, SHADER_BASE_URL).then((sources) => (shaderCache = sources));
    shaderPromise.catch(() => { shaderPromise = null; });
  }
  return shaderPromise;
}

export const live = new Set(); // elements holding a context, least recently visible first
/** Number of WebGL contexts the elements of this document hold now. */
export function liveContexts() { return live.size; }

export function makeRoomForContext(el) {
  if (live.size < MAX_LIVE_CONTEXTS) return;
  for (const other of live) {
    if (other !== el && !other._visible) {
      other._releaseContext();
      if (live.size < MAX_LIVE_CONTEXTS) return;
    }
  }
  // Every holder is on screen: nothing sensible to evict; the browser's own limit is the backstop.
}

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
