// style.js — the element's styles, as constructed sheets (no inline <style>, so pages with a strict policy work).

const CSS = `
:host { display: block; position: relative; width: 100%; aspect-ratio: 16 / 10; min-height: 120px; overflow: hidden;
  background: #e2e8f0; color: #1f2937; font: 14px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif; contain: content; }
:host([hidden]) { display: none; }
.stage { position: absolute; inset: 0; }
canvas { display: block; width: 100%; height: 100%; touch-action: none; outline: none; cursor: grab; }
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
