// view-tools.js — the view's Screenshot and Fullscreen buttons (index.html #view-tools) and the F key, plus the
// file name the plots' CSV export shares.
//
// Screenshot: the WebGL canvas keeps no copy of a frame once it is shown (preserveDrawingBuffer is off: keeping
// one costs a copy every frame), so the shot is taken right after a draw, in the same task: app/frame.js calls
// drawn() after each renderer.draw, and a pending shot reads the canvas there (toBlob copies the pixels
// synchronously). While one is pending the frame loop sizes the canvas at full size (a software renderer draws
// the view at half size: render/renderer.js fit). Fullscreen: the view's container (main.stage, with the title
// and messages), so the canvas, sized from its CSS box (app/canvas-size.js), follows the screen; Esc is the
// browser's own way out.

import { t } from '../i18n/i18n.js';
import { ownsKeys } from './shortcuts.js';
import { downloadBlob, shortFileName } from './files.js';

/**
 * Wires the buttons. `sceneName()` names the file; `notice(text)` tells what happened. Returns { pending, drawn() },
 * which the frame loop calls right after each draw of the view (app/frame.js).
 */
export function installViewTools({ doc = document, canvas, stage, sceneName, notice }) {
  const shot = doc.getElementById('screenshot');
  const full = doc.getElementById('fullscreen');
  if (!shot || !full) return { pending: false, drawn() {} }; // a page without the buttons
  let pending = false;

  shot.addEventListener('click', () => { pending = true; });

  const isFull = () => doc.fullscreenElement === stage;
  function toggleFullscreen() {
    if (isFull()) doc.exitFullscreen().catch(() => {});
    else if (stage.requestFullscreen) {
      stage.requestFullscreen().catch((err) => notice(t('notice.fullscreenRefused', { reason: err?.message ?? String(err) })));
    }
  }
  full.hidden = !doc.fullscreenEnabled; // e.g. an iframe without allow="fullscreen": no button that cannot work
  full.addEventListener('click', toggleFullscreen);
  const label = () => {
    const on = isFull();
    full.dataset.i18n = on ? 'view.exitFullscreen' : 'view.fullscreen';
    full.textContent = t(full.dataset.i18n);
    full.setAttribute('aria-pressed', String(on));
  };
  doc.addEventListener('fullscreenchange', () => {
    label();
    if (isFull()) canvas.focus(); // the keys (orbit, Space, R) keep working in fullscreen
  });
  label();
  doc.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.repeat) return;
    if (ownsKeys(e.target)) return;
    if ((e.key === 'f' || e.key === 'F') && doc.fullscreenEnabled) {
      e.preventDefault();
      toggleFullscreen();
    }
  });

  return {
    /** Whether a shot waits for the next draw (the frame loop then draws at full size: app/frame.js). */
    get pending() { return pending; },
    drawn() {
      if (!pending) return;
      pending = false;
      const file = shortFileName(sceneName(), 'png');
      canvas.toBlob((blob) => {
        if (!blob) return;
        downloadBlob(doc, file, blob);
        notice(t('notice.screenshotSaved', { file }));
      }, 'image/png');
    },
  };
}
