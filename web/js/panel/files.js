// files.js — the panel's Files folder: Download scene (the current scene, settings and view as a JSON file the
// page, minipbd-run and the API open again), Open (a .json scene or an .obj model from a file picker; dropping one
// on the view does the same, input/drop.js), and how a model becomes a body (which body type: those of the
// registry drawn as a skin, objects/; its lattice resolution). The app reads files and builds worlds (handlers.onOpenFiles, onDownloadScene); here only the DOM.

import { t } from '../i18n/i18n.js';
import { OBJECT_TYPES } from '../objects/index.js';

/** The object types a model can become: the bodies (drawn as a skin), in the registry's order. */
export const MODEL_TYPES = Object.freeze(OBJECT_TYPES.filter((type) => type.render?.primitive === 'skin').map((type) => type.type));

/** The lattice resolutions the panel offers for a model (cells along its longest side; the engine allows 1..48). */
export const MODEL_RESOLUTION = { min: 2, max: 24, step: 1, default: 8 };

/** Saves `blob` as a file called `name` through a download link (a Blob URL, revoked once the download has
 *  started; no fetch, so the page's connect-src is untouched): scene files, plot CSVs, screenshots. */
export function downloadBlob(doc, name, blob) {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves `text` as a file called `name`. */
export function downloadText(doc, name, text, type = 'application/json') {
  downloadBlob(doc, name, new Blob([text], { type }));
}

/** A short file name for what the page saves of scene `name`: 'minipbd-' and the words before its first colon
 *  (letters and digits of any script, lower case, at most 32 characters), then `kind`: 'Jelly: soft cubes…', 'csv',
 *  'energy' -> 'minipbd-jelly-energy.csv'. A name of nothing usable gives 'minipbd-energy.csv'. */
export function shortFileName(name, ext, kind = '') {
  const head = String(name ?? '').split(':')[0].normalize('NFC').toLowerCase();
  const words = head.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+/, '').slice(0, 32).replace(/-+$/, '');
  return `${['minipbd', words, kind].filter(Boolean).join('-')}.${ext}`;
}

/** The scene file's name: 'Jelly: soft cubes…' -> 'minipbd-jelly.json'. */
export function sceneFileName(name) { return shortFileName(name, 'json'); }

/**
 * Adds the Files folder to `gui`. Returns { model: { type, resolution } }: how the next model becomes a body.
 * `rows` are the panel's row builders (widgets.js: numberField, help).
 */
export function addFilesFolder(doc, gui, tr, handlers, { numberField, help }) {
  const files = {
    download: () => handlers.onDownloadScene?.(),
    open: () => picker.click(),
    type: MODEL_TYPES[0],
    resolution: MODEL_RESOLUTION.default,
  };
  const folder = gui.addFolder('');
  folder.domElement.id = 'folder-files';
  folder.$title.id = 'folder-files-title';
  tr(() => folder.title(t('folder.files')));

  const note = doc.createElement('p');
  note.className = 'panel-note';
  note.id = 'files-note';
  tr(() => { note.textContent = t('files.note'); });
  folder.$children.append(note);

  const downloadCtrl = folder.add(files, 'download');
  downloadCtrl.$button.id = 'download-scene';
  tr(() => downloadCtrl.name(t('files.download')));

  // The file picker itself stays hidden: the button opens it (its own look cannot be styled or translated).
  const picker = doc.createElement('input');
  picker.type = 'file';
  picker.id = 'open-file';
  picker.accept = '.json,.obj,application/json';
  picker.hidden = true;
  picker.addEventListener('change', () => {
    const chosen = [...(picker.files ?? [])];
    picker.value = ''; // the same file may be opened again
    if (chosen.length > 0) handlers.onOpenFiles?.(chosen);
  });
  const openCtrl = folder.add(files, 'open');
  openCtrl.$button.id = 'open-scene';
  openCtrl.domElement.append(picker);
  tr(() => openCtrl.name(t('files.open')));

  // Which body a model becomes, named in the page's language (each type's own string `object.<type>`).
  const typeCtrl = folder.add(files, 'type', MODEL_TYPES);
  typeCtrl.$select.id = 'model-type';
  typeCtrl.$select.setAttribute('aria-describedby', help(typeCtrl, 'files.type.help', 'model-type-help'));
  tr(() => {
    typeCtrl.name(t('files.type'));
    typeCtrl.options(Object.fromEntries(MODEL_TYPES.map((type) => [t(`object.${type}`), type])));
    [...typeCtrl.$select.options].forEach((o, i) => { o.value = MODEL_TYPES[i]; });
  });

  const R = MODEL_RESOLUTION;
  const resCtrl = folder.add(files, 'resolution', R.min, R.max, R.step);
  numberField(resCtrl, {
    id: 'model-resolution', min: R.min, max: R.max, step: R.step, places: 0,
    describedBy: help(resCtrl, 'files.resolution.help', 'model-resolution-help'),
  });
  tr(() => resCtrl.name(t('files.resolution')));

  return {
    model: {
      get type() { return files.type; },
      get resolution() { return files.resolution; },
    },
  };
}

/** A panel folder (panel.js FOLDERS): the Files folder; its `model` is the panel's. */
export function buildFiles({ doc, gui, tr, handlers, rows }) { return addFilesFolder(doc, gui, tr, handlers, rows); }
