// run.js — the panel's top: the scene picker (the built-in scenes, and "From link: …" when the scene came from a
// link), Pause / Step / Reset, and the readout under them (readout.js); also the scene's title as the page shows it
// (a built-in scene's name is translated, also when it comes back from a link with other settings).

import { t, hasOwnString } from '../i18n/i18n.js';
import { shortName } from './widgets.js';
import { writeReadout } from './readout.js';

const LINK_OPTION = '__link';

/** A panel folder (panel.js FOLDERS): show(scene, key) puts the picker on the scene; update({ readout }) writes the
 *  readout. Also setScenes(entries), setPaused(paused), isPaused(), sceneTitle(scene, key, short). */
export function buildRun({ doc, gui, els, tr, texts, handlers }) {
  const run = { scene: '', pause: () => handlers.onTogglePause(), step: () => handlers.onStep(), reset: () => handlers.onReset() };
  let entries = []; // [{ key, name, label }]
  let linkLabel = null; // the picker's "From link: …" entry, when the scene came from a link
  let paused = false;
  const picker = gui.add(run, 'scene', []);
  picker.$select.id = 'scene-select';
  picker.domElement.classList.add('scene-picker'); // app.css: its name takes only its own width
  tr(() => picker.name(t('scene')));
  picker.onChange((key) => {
    if (key !== LINK_OPTION) handlers.onSceneChange(key);
  });
  const renderOptions = () => renderSceneOptions(picker, entries, linkLabel);
  texts.push(renderOptions);

  const buttons = runButtons(doc, gui, run, els);
  tr(() => {
    buttons.step.name(t('step'));
    buttons.reset.name(t('reset'));
    buttons.pause.name(t(paused ? 'resume' : 'pause'));
  });

  return {
    show(scene, key) {
      linkLabel = key ? null : shortName(scene.name);
      run.scene = key || LINK_OPTION;
      renderOptions();
    },
    update(stats) { if (stats.readout) writeReadout(els, stats.readout); },
    /** entries: [{ key, name, label }] for the built-in scenes (name: the scene's full name). */
    setScenes(list) {
      entries = list.map(({ key, name, label }) => ({ key, name, label }));
      renderOptions();
    },
    setPaused(p) {
      paused = p;
      buttons.pause.name(t(paused ? 'resume' : 'pause'));
      buttons.pause.$button.setAttribute('aria-pressed', String(paused));
      buttons.step.disable(!paused);
    },
    isPaused: () => paused,
    sceneTitle(scene, key, short) {
      key ??= entries.find((e) => e.name === scene.name)?.key;
      if (key && hasOwnString(`scene.${key}${short ? '' : '.title'}`)) return t(`scene.${key}${short ? '' : '.title'}`);
      const name = short ? shortName(scene.name) : scene.name;
      return name || t('scene.untitled');
    },
  };
}

/** Pause, Step and Reset in one row, with their keys, then the readout block. */
function runButtons(doc, gui, run, els) {
  const buttons = { pause: gui.add(run, 'pause'), step: gui.add(run, 'step'), reset: gui.add(run, 'reset') };
  const row = doc.createElement('div');
  row.className = 'run-buttons';
  for (const [id, keys] of [['pause', 'Space'], ['step', '.'], ['reset', 'R']]) {
    buttons[id].$button.id = id;
    buttons[id].$button.setAttribute('aria-keyshortcuts', keys);
    row.append(buttons[id].domElement);
  }
  gui.$children.append(row, els.readoutBlock);
  return buttons;
}

function renderSceneOptions(picker, sceneEntries, linkLabel) {
  const sceneLabel = ({ key, label }) => (hasOwnString(`scene.${key}`) ? t(`scene.${key}`) : label);
  const entries = sceneEntries.map((e) => ({ value: e.key, label: sceneLabel(e) }));
  if (linkLabel !== null) entries.push({ value: LINK_OPTION, label: t('scene.fromLink', { name: linkLabel || t('scene.untitled') }) });
  // lil-gui keys options by label: make labels unique, then give every <option> its key as value so the
  // picker reads (and tests select) by key.
  const seen = new Set();
  const map = {};
  for (const e of entries) {
    let label = e.label;
    while (seen.has(label)) label += ' ';
    seen.add(label);
    map[label] = e.value;
  }
  picker.options(map);
  [...picker.$select.options].forEach((o, i) => { o.value = entries[i].value; });
  picker.updateDisplay();
}
