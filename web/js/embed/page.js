// page.js — the boot code of the iframe embed page (embed.html).

import { parseFragment } from '../format/link.js';

/**
 * Boot code of embed.html: one full-window <minipbd-scene> opened from location.hash ('#s=1.…' link, or
 * '#scene=NAME' / '?scene=NAME' for a built-in), reporting to the parent window with postMessage:
 * {type: 'minipbd:ready', particles} or {type: 'minipbd:error', message}. The messages carry nothing secret,
 * so they go to any parent ('*'); the page never reads messages from its parent.
 */
export function bootEmbedPage(doc = document) {
  const page = new CSSStyleSheet();
  page.replaceSync('html, body { margin: 0; height: 100%; overflow: hidden; background: #e2e8f0; } minipbd-scene { width: 100%; height: 100%; aspect-ratio: auto; }');
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, page];
  const post = (msg) => {
    if (window.parent && window.parent !== window) window.parent.postMessage(msg, '*');
  };
  let el = null;
  const open = () => {
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
    const autoplay = params.get('autoplay') ?? new URLSearchParams(location.search).get('autoplay');
    if (autoplay !== null && autoplay !== undefined) el.setAttribute('autoplay', autoplay);
    el.addEventListener('load', (e) => post({ type: 'minipbd:ready', particles: e.detail.world.particleCount }));
    el.addEventListener('error', (e) => post({ type: 'minipbd:error', message: String(e.detail.message) }));
    doc.body.append(el);
  };
  window.addEventListener('hashchange', open);
  open();
}
