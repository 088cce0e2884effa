// panel.js — the control panel, built with lil-gui from a list of folders (FOLDERS), each a module with
// build(panel) -> { show(scene, key), update(stats), ...its own calls }: the scene picker, Pause / Step / Reset and
// the readout (run.js), every parameter control in its group's folder (param-rows.js, controls.js), masses per
// object (masses.js), each collider's friction and bounce (colliders.js), each body's material (bodies.js), the
// fluid's hoses and statistics (fluid.js), view switches (view.js), the share link (share.js), scene files and
// models (files.js), keyboard shortcuts (shortcuts.js) and the language picker (language.js). This module composes
// them, and keeps the message area, the title and the text description of the view for screen readers.
//
// It only touches the DOM and reports user intent through handlers; the app decides what happens. Every
// text that may come from a link (scene, object and collider names, error messages) and every translated
// string is written with textContent or setAttribute, never as HTML (lil-gui's name() and title() use
// textContent too). lil-gui is created with injectStyles: false: the page's policy allows no inline
// <style>, so its stylesheet is linked from index.html (css/vendor/lil-gui.min.css).

import { GUI } from '../vendor/lil-gui.esm.min.js';
import { rowBuilders } from './widgets.js';
import { buildShortcuts } from './shortcuts.js';
import { buildShare } from './share.js';
import { buildFiles } from './files.js';
import { buildBodies } from './bodies.js';
import { buildFluid } from './fluid.js';
import { buildRun } from './run.js';
import { buildParamRows } from './param-rows.js';
import { buildMasses } from './masses.js';
import { buildColliders } from './colliders.js';
import { buildView } from './view.js';
import { buildLanguage } from './language.js';
import { describeView } from './readout.js';
import { t, getLanguage, setLanguage } from '../i18n/i18n.js';

export { shortName, paramLabel } from './widgets.js';

/**
 * The panel's folders in the order they stand. build(panel) gets the panel's context ({ doc, els, gui, handlers,
 * tr, texts, rows, folders, ui }) and returns { show?(scene, key) -> the groups (controls.js GROUPS) with a row
 * shown, update?(stats) } and any calls of its own the panel passes on. A folder of the parameters' groups
 * (masses, colliders, bodies, fluid) is made by `params` and filled by its module.
 */
export const FOLDERS = [
  { name: 'run', build: buildRun },
  { name: 'params', build: buildParamRows },
  { name: 'masses', build: buildMasses },
  { name: 'colliders', build: buildColliders },
  { name: 'bodies', build: buildBodies },
  { name: 'fluid', build: buildFluid },
  { name: 'view', build: buildView },
  { name: 'share', build: buildShare },
  { name: 'files', build: buildFiles },
  { name: 'shortcuts', build: buildShortcuts },
  { name: 'language', build: buildLanguage },
];

const ELEMENTS = {
  panel: 'panel', title: 'scene-title', readoutBlock: 'readout', plotArea: 'plot-area', shareNote: 'share-note',
  linkStatus: 'link-status', shortcuts: 'shortcuts', footer: 'panel-footer', helpTexts: 'help-texts',
  description: 'view-description', message: 'message', messageText: 'message-text', messageClose: 'message-close',
  notice: 'notice',
};
const READOUT = { steps: 'readout-steps', particles: 'readout-particles', constraints: 'readout-constraints', stepMs: 'readout-step' };

function pageElements(doc) {
  const $ = (id) => {
    const el = doc.getElementById(id);
    if (!el) throw new Error(`page is missing #${id}`);
    return el;
  };
  const byId = (ids) => Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, $(id)]));
  return { ...byId(ELEMENTS), readout: byId(READOUT) };
}

/**
 * Wire the panel in `doc`. handlers: onSceneChange(key), onParam(param, [[engineParam, value], ...]),
 * onMass(objectIndex, kg), onColliderMaterial(colliderIndex, { staticFriction, kineticFriction, restitution }),
 * onObjectStiffness(objectIndex, kind, value), onObjectMaterial(objectIndex, materialField, value) (objects/: a type's
 * `material`), onEmitter(index, on),
 * onTogglePause(), onStep(), onReset(), onCopyLink(), onCopyEmbed(), onDownloadScene(), onOpenFiles([File]),
 * onShowParticles(bool), onHeatMap(bool), onPlots(bool), onVelocityArrows(bool), onWater(bool), onLanguage(lang).
 * options.lang: the language to start in ('en' or 'zh'; see i18n.detectLanguage).
 */
export function createUI(doc, handlers, { lang = getLanguage() } = {}) {
  const els = pageElements(doc);
  setLanguage(lang);
  // Texts that follow the language: each entry re-applies one (run once now, again on a language change).
  const texts = [];
  const tr = (fn) => { texts.push(fn); fn(); };
  // touchStyles off: app.css sizes the controls for touch itself (larger than lil-gui's 28 px).
  const gui = new GUI({ container: els.panel, injectStyles: false, touchStyles: false, title: t('panel.title') });
  gui.domElement.id = 'gui';
  tr(() => gui.title(t('panel.title')));
  const panel = { doc, els, gui, handlers, tr, texts, rows: rowBuilders(doc, els, tr), folders: {}, ui: {} };
  const parts = {};
  for (const { name, build } of FOLDERS) parts[name] = build(panel);
  els.messageClose.addEventListener('click', () => panel.ui.clearError());
  return Object.assign(panel.ui, panelCalls(panel, parts));
}

/** The calls the app makes on the panel (createUI's result), passed on to the folders. */
function panelCalls({ els, gui, texts }, parts) {
  const built = Object.values(parts);
  let shown = null; // { scene, key }: the scene the panel shows (re-titled on a language change)
  let description = null; // what setDescription was last given
  const renderTitle = () => {
    if (shown) els.title.textContent = parts.run.sceneTitle(shown.scene, shown.key, false);
  };
  const renderDescription = () => {
    if (!description || !shown) return;
    const text = describeView(description, parts.run.sceneTitle(shown.scene, shown.key, true));
    if (els.description.textContent !== text) els.description.textContent = text;
  };
  const ui = {
    els,
    gui,
    /** How the next model (a dropped or opened .obj) becomes a body: { rigid, resolution }. */
    model: parts.files.model,
    /** Reflect a freshly loaded scene: picker, title, control values, which controls and folders apply. */
    showScene(scene, key) {
      shown = { scene, key };
      delete els.title.dataset.i18n; // no longer "Loading…"
      renderTitle();
      const visible = new Set();
      for (const part of built) for (const group of part.show?.(scene, key) ?? []) visible.add(group);
      parts.params.hideEmpty(visible);
      ui.clearLink();
    },
    /** stats: { readout: { particles, constraints, stepMs, steps }, fluid: World.fluidStats() or null }, either. */
    update(stats) { for (const part of built) part.update?.(stats); },
    setReadout(values) { ui.update({ readout: values }); },
    setFluidStats(stats) { ui.update({ fluid: stats }); },
    /**
     * The canvas's text alternative (aria-describedby, a polite live region): scene, counts, running or
     * paused, what is held. info: { particles, constraints, paused, heldParticles, heldColliders: [names] }.
     * Written only when the text changes, and the app calls it with the readout (a few times a second).
     */
    setDescription(info) {
      description = info;
      renderDescription();
    },
    /** Runs `fn` now and again whenever the language changes (for texts other modules add to the page). */
    translated(fn) {
      texts.push(fn);
      fn();
    },
    /** Switch every text on the page to `lang` ('en' or 'zh'). */
    setLanguage(l) {
      setLanguage(l);
      parts.language.showLanguage();
      for (const fn of texts) fn();
      renderTitle();
      renderDescription();
    },
    ...messages(els),
  };
  for (const name of ['setScenes', 'setPaused', 'isPaused']) ui[name] = parts.run[name];
  for (const name of ['setViewSwitch', 'setWaterUnavailable']) ui[name] = parts.view[name];
  for (const name of ['setLink', 'setEmbedCode', 'clearLink']) ui[name] = parts.share[name];
  return ui;
}

/** The message area: an error the user should read (role="alert") and passing notes (role="status"); text only. */
function messages(els) {
  let noticeTimer = 0;
  return {
    showError(text) {
      els.messageText.textContent = text;
      els.message.hidden = false;
    },
    clearError() {
      els.messageText.textContent = '';
      els.message.hidden = true;
    },
    /** A passing note, cleared after a while unless sticky. */
    showNotice(text, { sticky = false } = {}) {
      clearTimeout(noticeTimer);
      els.notice.textContent = text;
      if (!sticky) noticeTimer = setTimeout(() => { els.notice.textContent = ''; }, 4000);
    },
    clearNotice() {
      clearTimeout(noticeTimer);
      els.notice.textContent = '';
    },
  };
}
