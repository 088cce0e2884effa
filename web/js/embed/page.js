// page.js — the boot code of the iframe embed page (embed.html).

import { parseFragment } from '../format/link.js';
import { allowedOrigins, installFrameApi } from './frame-api.js';

/**
 * Boot code of embed.html: one full-window <minipbd-scene> opened from location.hash ('#s=1.…' link, or
 * '#scene=NAME' / '?scene=NAME' for a built-in; ?autoplay=, ?alt=, ?controls=, ?camera-orbit=, ?camera-target=,
 * ?field-of-view= as the element's attributes), talking with its parent window by postMessage (frame-api.js):
 * events {type: 'minipbd:ready', particles} and {type: 'minipbd:error', message}, and the commands of the
 * two-way API. Everything goes to the allowed parent origin only (`parent=` in the address, else the parent's
 * own origin), never to '*': a page that frames the embed without being allowed hears nothing.
 */
/** Attributes of <minipbd-scene> that embed.html takes from its address too (poster and loading make no sense in a
 *  frame of its own: the iframe's own loading="lazy" defers it). */
const FRAME_ATTRIBUTES = ['alt', 'controls', 'camera-orbit', 'camera-target', 'field-of-view'];

export function bootEmbedPage(doc = document) {
  const page = new CSSStyleSheet();
  page.replaceSync('html, body { margin: 0; height: 100%; overflow: hidden; background: #e2e8f0; } minipbd-scene { width: 100%; height: 100%; aspect-ratio: auto; }');
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, page];
  const framed = window.parent && window.parent !== window;
  let allowed = { origins: [] };
  const readOrigins = () => {
    allowed = allowedOrigins({ hash: location.hash, search: location.search, ancestorOrigins: location.ancestorOrigins, referrer: doc.referrer });
    if (framed && allowed.error) console.error(`MiniPBD embed: the iframe API is off: ${allowed.error}`);
  };
  // Events before any command: to each allowed origin that can be the parent (where the browser tells the
  // parent's origin, only that one, so no postMessage is refused for a wrong target).
  const post = (msg) => {
    if (!framed) return;
    const actual = location.ancestorOrigins?.[0];
    for (const origin of allowed.origins) if (actual === undefined || origin === actual) window.parent.postMessage(msg, origin);
  };
  let el = null;
  const open = () => {
    readOrigins();
    el?.remove();
    el = doc.createElement('minipbd-scene');
    const hash = location.hash.replace(/^#/, '');
    const { version, params } = parseFragment(hash);
    if (version !== null) {
      el.setAttribute('src', hash);
    } else {
      const name = params.get('scene') ?? new URLSearchParams(location.search).get('scene');
      if (name) el.setAttribute('scene', name);
    }
    const query = new URLSearchParams(location.search);
    const autoplay = params.get('autoplay') ?? query.get('autoplay');
    if (autoplay !== null && autoplay !== undefined) el.setAttribute('autoplay', autoplay);
    // The element's own attributes, from the address (?camera-orbit=30deg%2075deg%204m&controls=none): the element
    // checks them as it checks its markup's (a refused one is warned about and ignored).
    for (const name of FRAME_ATTRIBUTES) {
      const value = params.get(name) ?? query.get(name);
      if (value !== null && value !== undefined) el.setAttribute(name, value);
    }
    el.addEventListener('load', (e) => post({ type: 'minipbd:ready', particles: e.detail.world.particleCount }));
    el.addEventListener('error', (e) => post({ type: 'minipbd:error', message: String(e.detail.message) }));
    doc.body.append(el);
  };
  window.addEventListener('hashchange', open);
  open();
  if (framed) installFrameApi(window, { element: () => el, origins: () => allowed.origins });
}
