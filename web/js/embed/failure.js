// failure.js — why a <minipbd-scene> cannot run, as { code, message } (docs/embedding.md "Embedding": element.failure and the
// 'error' event's detail), in the words of the element's language (i18n/embed-strings.js).
//
// Codes: 'webgl' (no WebGL2 context: missing, turned off, blocked for the GPU), 'wasm' (no WebAssembly, or the
// host page's CSP forbids compiling it: script-src without 'wasm-unsafe-eval'), 'fetch' (the wasm, a shader or an
// asset could not be fetched: network, HTTP status, or CORS, which fetch() does not tell apart), 'scene' (the link
// or the scene name is refused), 'context-budget' (the page holds as many WebGL contexts as the embeds may keep),
// 'runtime' (the simulation threw while running).

import { ELEMENT_STRINGS as STRINGS, normalizeLanguage } from '../i18n/element-strings.js';
import { FetchError } from '../app/build.js';

export const FAILURE_CODES = Object.freeze(['webgl', 'wasm', 'fetch', 'scene', 'context-budget', 'runtime']);

/** The element's language: the nearest lang attribute (the host page's, usually), else the browser's first we
 *  speak, else English. */
export function languageOf(el) {
  const fromPage = normalizeLanguage(el.closest?.('[lang]')?.getAttribute('lang') ?? '');
  if (fromPage) return fromPage;
  for (const tag of globalThis.navigator?.languages ?? []) {
    const lang = normalizeLanguage(tag);
    if (lang) return lang;
  }
  return 'en';
}

/** The text for `key` in `lang` (English when missing), with {slots} filled as plain text. */
export function say(lang, key, vars) {
  const table = STRINGS[lang] ?? STRINGS.en;
  const s = Object.hasOwn(table, key) ? table[key] : Object.hasOwn(STRINGS.en, key) ? STRINGS.en[key] : key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(vars, name) ? String(vars[name]) : m)) : s;
}

function errorText(err) {
  return err && typeof err.message === 'string' && err.message ? err.message : String(err);
}

// Chromium: "WebAssembly.compile(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is
// not an allowed source of script…" (older: "…neither 'wasm-eval' nor 'unsafe-eval'…"); Firefox names the CSP too.
const CSP_WASM = /content security policy|wasm-unsafe-eval|wasm-eval|unsafe-eval/i;
// What fetch() rejects with when the request never got an answer it may show: Chromium, Firefox, Safari.
const NETWORK = /failed to fetch|networkerror|load failed|network error/i;

/** Tags `err` with the stage that threw it, unless it already says what it is. */
export function tagged(stage) {
  return (err) => {
    const e = err instanceof Error ? err : new Error(String(err));
    if (!e.stage) {
      try { e.stage = stage; } catch { /* a frozen error: classified by its text */ }
    }
    throw e;
  };
}

/** { code, message } for an error thrown while loading or running (its stage: 'scene', 'engine', 'shaders',
 *  'world', 'webgl', 'runtime'; `url`: what was being fetched, when known). */
export function classify(err, lang, { url } = {}) {
  const text = errorText(err);
  let code;
  let reason;
  if (err instanceof FetchError || err?.name === 'FetchError') {
    code = 'fetch';
    reason = err.status ? say(lang, 'embed.fail.fetchStatus', { url: err.url, status: err.status })
      : say(lang, 'embed.fail.fetch', { url: err.url });
  } else if (typeof WebAssembly === 'object' && err instanceof WebAssembly.CompileError && CSP_WASM.test(text)) {
    code = 'wasm';
    reason = say(lang, 'embed.fail.wasmCsp');
  } else if (CSP_WASM.test(text) && /webassembly/i.test(text)) {
    code = 'wasm';
    reason = say(lang, 'embed.fail.wasmCsp');
  } else if (err instanceof TypeError && NETWORK.test(text)) {
    code = 'fetch';
    reason = say(lang, 'embed.fail.fetch', { url: url ?? '(a file of the scene)' });
  } else if (err?.stage === 'webgl') {
    code = 'webgl';
    reason = /webgl2/i.test(text) ? say(lang, 'embed.fail.webgl') : text;
  } else if (err?.stage === 'scene' || err?.stage === 'world') {
    code = 'scene';
    reason = text;
  } else if (err?.stage === 'engine') {
    code = 'wasm';
    reason = text;
  } else if (err?.stage === 'shaders') {
    code = 'fetch';
    reason = text;
  } else {
    code = 'runtime';
    reason = say(lang, 'embed.fail.runtime', { message: text });
  }
  return { code, message: reason };
}
