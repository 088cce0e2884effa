// shortcuts.js — the page's keyboard shortcuts: Space pauses and resumes, period steps once while paused (held
// down, it keeps stepping), R resets; they wait while a field, picker or button has the focus. The list shown in
// the panel is index.html's #shortcuts, translated like the rest of the static text.

import { t } from '../i18n/i18n.js';

/** Where keys are for typing or for the focused control itself, the page's shortcuts stay out of the way. */
export function ownsKeys(el) {
  return Boolean(el?.closest?.('input, select, textarea, button, a[href], summary, [contenteditable]:not([contenteditable="false"]), [role="textbox"]'));
}

/** Adds the shortcuts folder to `gui` and listens for the keys on `doc`. `isPaused()` and `notice(text)` come
 *  from the panel; handlers: onTogglePause(), onStep(), onReset(). */
export function installShortcuts(doc, gui, els, tr, handlers, { isPaused, notice }) {
  // Keyboard shortcuts (the list is in index.html, translated like the rest of the static text).
  const keysFolder = gui.addFolder('');
  keysFolder.domElement.id = 'folder-keys';
  tr(() => keysFolder.title(t('folder.keys')));
  keysFolder.$children.append(els.shortcuts);

  // ---------- keyboard shortcuts: Space pause/resume, period one step (paused), R reset ----------
  doc.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (ownsKeys(e.target)) return; // typing in a field, or Space on a button/checkbox: that control's own key
    if (e.key === ' ') {
      e.preventDefault(); // no page scroll
      if (!e.repeat) handlers.onTogglePause();
    } else if (e.key === '.') {
      e.preventDefault();
      if (isPaused()) handlers.onStep(); // held down, it keeps stepping
      else if (!e.repeat) notice(t('notice.pauseToStep'));
    } else if (e.key === 'r' || e.key === 'R') {
      e.preventDefault();
      if (!e.repeat) handlers.onReset();
    }
  });
}

/** A panel folder (panel.js FOLDERS): the shortcuts' list, and the keys (the panel's isPaused() and showNotice()). */
export function buildShortcuts({ doc, gui, els, tr, handlers, ui }) {
  installShortcuts(doc, gui, els, tr, handlers, { isPaused: () => ui.isPaused(), notice: (text) => ui.showNotice(text) });
  return {};
}
