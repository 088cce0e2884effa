// style.js — the element's styles, as constructed sheets (no inline <style>, so pages with a strict policy work).
//
// A host page whose CSP says style-src 'self' drops every style="…" attribute of its own markup (docs/embedding.md's first
// snippet then gets the default size: the full width, 16:10). The element's `width` and `height` attributes are
// the strict-CSP way to size it: they become a rule of the element's own constructed sheet (`:host { width: … }`),
// which CSP never blocks, and which the host's stylesheet still overrides (outer rules win over :host rules).

const CSS = `
:host { display: block; position: relative; width: 100%; aspect-ratio: 16 / 10; min-height: 120px; overflow: hidden;
  background: #e2e8f0; color: #1f2937; font: 14px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif; contain: content; }
:host([hidden]) { display: none; }
.stage { position: absolute; inset: 0; }
/* pan-y: a vertical swipe over the scene scrolls the host page (the browser takes it, and the pointer input lets go);
   a horizontal drag orbits and a held finger grabs (input/pointer.js touchScroll). Pinch stays with the scene (it
   zooms the camera). Without controls the canvas is a picture: the page takes every gesture. */
canvas { display: block; width: 100%; height: 100%; touch-action: pan-y; outline: none; cursor: grab; }
canvas.static { touch-action: auto; cursor: default; }
.hint { display: none; }
canvas.can-grab { cursor: pointer; }
canvas.grabbing { cursor: grabbing; }
canvas:focus-visible { box-shadow: inset 0 0 0 3px #3a78a8; }
button { position: absolute; right: 8px; bottom: 8px; min-width: 36px; height: 36px; padding: 0 10px; border: 0; border-radius: 18px;
  background: rgba(31, 41, 55, 0.78); color: #fff; font: inherit; font-size: 15px; cursor: pointer; }
button:hover { background: rgba(31, 41, 55, 0.92); }
button:focus-visible { outline: 3px solid #3a78a8; outline-offset: 2px; }
button.big { right: 50%; bottom: 50%; transform: translate(50%, 50%); height: 56px; min-width: 56px; border-radius: 28px; font-size: 22px; padding: 0 20px; }
button[hidden] { display: none; }
.status { position: absolute; left: 8px; top: 8px; right: 8px; margin: 0; padding: 6px 10px; border-radius: 6px;
  background: rgba(255, 255, 255, 0.9); overflow-wrap: anywhere; }
.status.error { background: #fde8e4; color: #8a1c0b; }
.status[hidden] { display: none; }
.poster { position: absolute; inset: 0; margin: 0; background: linear-gradient(#dbe4ee, #b8c4d2); }
.poster[hidden] { display: none; }
.poster-art { display: block; width: 100%; height: 100%; }
.poster-art[hidden] { display: none; }
.poster-image { display: block; width: 100%; height: 100%; object-fit: cover; }
.poster-name { position: absolute; left: 10px; right: 10px; bottom: 8px; margin: 0; padding: 4px 8px; border-radius: 6px;
  background: rgba(255, 255, 255, 0.82); font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
/* The dark theme follows the reader's preference, as the page's does (app.css); a host's own rules still win. */
@media (prefers-color-scheme: dark) {
  :host { background: #263041; color: #e2e8f0; }
  .status { background: rgba(30, 41, 59, 0.92); }
  .status.error { background: #4a1d17; color: #fecaca; }
  button { background: rgba(226, 232, 240, 0.85); color: #111827; }
  button:hover { background: rgba(226, 232, 240, 0.97); }
  .poster { background: linear-gradient(#334155, #1e293b); }
  .poster-name { background: rgba(15, 23, 42, 0.82); }
}
`;
let sheet = null;
export function styleInto(root) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
    }
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = CSS;
    root.append(style);
  }
}

/** A CSS length from a width/height attribute: a number is CSS pixels (as on <img> and <iframe>); a number with a
 *  unit (px, em, rem, %, vw, vh, vmin, vmax, cm, mm, in) is used as it is; anything else is ignored (null). */
export function cssLength(value) {
  if (value === null || value === undefined) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px|em|rem|%|vw|vh|vmin|vmax|cm|mm|in)?\s*$/i.exec(String(value));
  if (!m) return null;
  return `${m[1]}${m[2] ? m[2].toLowerCase() : 'px'}`;
}

const sizeSheets = new WeakMap(); // shadow root -> its own sheet for the size

/** Sets the element's size from its width/height attributes through its own sheet (one per element). */
export function sizeInto(root, width, height) {
  const w = cssLength(width);
  const h = cssLength(height);
  const rules = [w && `width: ${w};`, h && `height: ${h};`, w && h && 'aspect-ratio: auto; min-height: 0;'].filter(Boolean).join(' ');
  if (!('adoptedStyleSheets' in root) || typeof CSSStyleSheet !== 'function') return;
  let own = sizeSheets.get(root);
  if (!own) {
    own = new CSSStyleSheet();
    sizeSheets.set(root, own);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, own];
  }
  own.replaceSync(rules ? `:host { ${rules} }` : '');
}
