// panel.js — the control panel, built with lil-gui: scene picker, pause/step/reset, the readout (readout.js),
// every parameter control (controls.js: the solver, ground and contacts, and each object type's own, such as a
// cloth's stiffness, options and wind), masses per object, each body's material (bodies.js), each collider's
// friction and bounce, view switches, the share link (share.js), scene files and models (files.js), keyboard
// shortcuts (shortcuts.js) and the language picker; also the message area, the
// hint and a text description of the view for screen readers. Rows are made with widgets.js.
//
// It only touches the DOM and reports user intent through handlers; the app decides what happens. Every
// text that may come from a link (scene, object and collider names, error messages) and every translated
// string is written with textContent or setAttribute, never as HTML (lil-gui's name() and title() use
// textContent too). lil-gui is created with injectStyles: false: the page's policy allows no inline
// <style>, so its stylesheet is linked from index.html (css/vendor/lil-gui.min.css).

import { GUI } from '../vendor/lil-gui.esm.min.js';
import { PARAMS_CONTROLS, COLLIDER_FIELDS, GROUPS } from './controls.js';
import { PARAMS, sceneParamShown } from '../engine/params.js';
import { rowBuilders, decimals, niceStep, clean, shortName } from './widgets.js';
import { installShortcuts } from './shortcuts.js';
import { addShareFolder } from './share.js';
import { addFilesFolder } from './files.js';
import { bodiesPanel, sceneBodies } from './bodies.js';
import { fluidPanel } from './fluid.js';
import { describeView, writeReadout } from './readout.js';
import { t, hasOwnString, getLanguage, setLanguage, LANGUAGES, LANGUAGE_NAMES, HTML_LANG } from '../i18n/i18n.js';

export { shortName, paramLabel } from './widgets.js';

const LINK_OPTION = '__link';

/**
 * Wire the panel in `doc`. handlers: onSceneChange(key), onParam(param, [[engineParam, value], ...]),
 * onMass(objectIndex, kg), onColliderMaterial(colliderIndex, { staticFriction, kineticFriction, restitution }),
 * onObjectStiffness(objectIndex, kind, value), onObjectMaterial(objectIndex, materialField, value) (objects/: a type's
 * `material`),
 * onTogglePause(), onStep(), onReset(), onCopyLink(), onDownloadScene(), onOpenFiles([File]), onShowParticles(bool),
 * onHeatMap(bool), onPlots(bool), onVelocityArrows(bool), onWater(bool), onLanguage(lang).
 * options.lang: the language to start in ('en' or 'zh'; see i18n.detectLanguage).
 */
export function createUI(doc, handlers, { lang = getLanguage() } = {}) {
  const $ = (id) => {
    const el = doc.getElementById(id);
    if (!el) throw new Error(`page is missing #${id}`);
    return el;
  };
  const els = {
    panel: $('panel'),
    title: $('scene-title'),
    readoutBlock: $('readout'),
    plotArea: $('plot-area'),
    shareNote: $('share-note'),
    linkStatus: $('link-status'),
    shortcuts: $('shortcuts'),
    footer: $('panel-footer'),
    helpTexts: $('help-texts'),
    description: $('view-description'),
    message: $('message'),
    messageText: $('message-text'),
    messageClose: $('message-close'),
    notice: $('notice'),
    readout: {
      steps: $('readout-steps'),
      particles: $('readout-particles'),
      constraints: $('readout-constraints'),
      stepMs: $('readout-step'),
    },
  };

  setLanguage(lang);
  // Texts that follow the language: each entry re-applies one (run once now, again on a language change).
  const texts = [];
  const tr = (fn) => { texts.push(fn); fn(); };

  const rowsBuild = rowBuilders(doc, els, tr);
  const { numberField, help } = rowsBuild;

  // ---------- the GUI ----------
  // touchStyles off: app.css sizes the controls for touch itself (larger than lil-gui's 28 px).
  const gui = new GUI({ container: els.panel, injectStyles: false, touchStyles: false, title: t('panel.title') });
  gui.domElement.id = 'gui';
  tr(() => gui.title(t('panel.title')));

  // Scene picker, Pause / Step / Reset, readout.
  const run = {
    scene: '',
    pause: () => handlers.onTogglePause(),
    step: () => handlers.onStep(),
    reset: () => handlers.onReset(),
  };
  let sceneEntries = []; // [{ key, name, label }]
  let linkLabel = null; // the picker's "From link: …" entry, when the scene came from a link
  const sceneCtrl = gui.add(run, 'scene', []);
  sceneCtrl.$select.id = 'scene-select';
  sceneCtrl.domElement.classList.add('scene-picker'); // app.css: its name takes only its own width
  tr(() => sceneCtrl.name(t('scene')));
  sceneCtrl.onChange((key) => {
    if (key !== LINK_OPTION) handlers.onSceneChange(key);
  });

  function sceneLabel({ key, label }) {
    return hasOwnString(`scene.${key}`) ? t(`scene.${key}`) : label;
  }

  function renderSceneOptions() {
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
    sceneCtrl.options(map);
    [...sceneCtrl.$select.options].forEach((o, i) => { o.value = entries[i].value; });
    sceneCtrl.updateDisplay();
  }
  texts.push(renderSceneOptions);

  const pauseCtrl = gui.add(run, 'pause');
  const stepCtrl = gui.add(run, 'step');
  const resetCtrl = gui.add(run, 'reset');
  const runRow = doc.createElement('div');
  runRow.className = 'run-buttons';
  for (const [c, id, keys] of [[pauseCtrl, 'pause', 'Space'], [stepCtrl, 'step', '.'], [resetCtrl, 'reset', 'R']]) {
    c.$button.id = id;
    c.$button.setAttribute('aria-keyshortcuts', keys);
    runRow.append(c.domElement);
  }
  gui.$children.append(runRow, els.readoutBlock);
  let paused = false;
  tr(() => {
    stepCtrl.name(t('step'));
    resetCtrl.name(t('reset'));
    pauseCtrl.name(t(paused ? 'resume' : 'pause'));
  });

  // Folders for the parameters.
  const folders = {};
  for (const group of GROUPS) {
    const f = gui.addFolder('');
    f.domElement.id = `folder-${group}`;
    f.$title.id = `folder-${group}-title`;
    tr(() => f.title(t(`folder.${group}`)));
    folders[group] = f;
  }

  // Exact current value of every control (a field shows its value rounded; the engine keeps the scene's own
  // value until the user moves that control), and the last "on" value of toggled parameters.
  const values = {};
  const remembered = new Map();
  const ctx = {
    value: (name) => values[name],
    remembered: (param, fallback) => remembered.get(param) ?? fallback,
  };

  const rows = new Map();
  for (const param of PARAMS_CONTROLS) {
    const folder = folders[param.group];
    const id = `param-${param.name.replace('.', '-')}`;
    let c;
    if (param.kind === 'toggle') {
      values[param.name] = false;
      c = folder.add(values, param.name);
      c.$input.id = id;
      c.$input.setAttribute('aria-describedby', help(c, `param.${param.name}.help`, `${id}-help`));
    } else {
      values[param.name] = param.fallback ?? param.min;
      c = folder.add(values, param.name, param.min, param.max, param.step);
      numberField(c, {
        id, min: param.min, max: param.max, step: param.step, places: param.decimals ?? decimals(param.step),
        describedBy: help(c, `param.${param.name}.help`, `${id}-help`),
      });
    }
    c.domElement.dataset.param = param.name;
    tr(() => c.name(t(`param.${param.name}`)));
    c.onChange((v) => changed(param, v));
    rows.set(param.name, { c, param });
  }

  function changed(param, value) {
    const pairs = param.write ? param.write(value, ctx) : [[param.name, value]];
    for (const [name, v] of pairs) if (v !== 0) remembered.set(name, v);
    if (param.kind === 'toggle') updateEnabled();
    handlers.onParam(param, pairs);
  }

  function updateEnabled() {
    for (const { c, param } of rows.values()) {
      if (param.enabledBy) c.disable(!values[param.enabledBy]);
    }
  }

  // Masses: one field per object (grams per particle), rebuilt for each scene.
  const masses = {};
  let massCtrls = [];
  const massRanges = new Map(); // `${scene name}|${index}` -> { min, max, step }: a range stays put while you play
  const massHelp = help({ domElement: folders.mass.domElement }, 'mass.help', 'mass-help');

  // A body's `mass` is the whole body's, not a particle's: bodies are not listed here. Returns whether any object is.
  function showMasses(scene) {
    for (const c of massCtrls) c.destroy();
    const bodyIndices = new Set(sceneBodies(scene).map((b) => b.index));
    // A fluid has no `mass` of its own (each particle weighs rest density x spacing^3: the Fluid folder).
    massCtrls = scene.objects.flatMap((o, index) => (bodyIndices.has(index) || o.mass === undefined ? [] : [[o, index]])).map(([o, index]) => {
      const grams = clean(o.mass * 1000);
      const rangeKey = `${scene.name}|${index}|${o.name}`;
      let range = massRanges.get(rangeKey);
      if (!range) {
        const step = niceStep(grams / 10);
        range = { min: step, max: clean(Math.ceil((grams * 10) / step) * step), step };
        massRanges.set(rangeKey, range);
      }
      masses[index] = grams;
      const c = folders.mass.add(masses, String(index), range.min, range.max, range.step);
      c.name(o.name);
      c.$name.title = o.name;
      numberField(c, { id: `mass-${index}`, ...range, places: Math.max(0, decimals(clean(range.step))), describedBy: massHelp });
      // Named "Mass per particle (g) <object name>": the folder title says what the number is.
      c.$input.setAttribute('aria-labelledby', `${folders.mass.$title.id} ${c.$name.id}`);
      c.domElement.dataset.object = String(index);
      c.onChange((g) => handlers.onMass?.(index, g / 1000));
      return c;
    });
    return massCtrls.length > 0;
  }

  // Colliders: one sub-folder per collider of the scene (its name from the scene, as text), with its static and
  // kinetic friction and its bounce; rebuilt for each scene, hidden when the scene has none. A field is named
  // "<collider> <field>" (the sub-folder's title and the row's label) and described by the field's help text.
  let colliderFolders = [];
  let colliderCtrls = []; // [{ c, field }]
  const colliderHelp = Object.fromEntries(COLLIDER_FIELDS.map(({ key }) => {
    const span = doc.createElement('span');
    span.id = `collider-${key}-help`;
    els.helpTexts.append(span);
    tr(() => { span.textContent = t(`collider.${key}.help`); });
    return [key, span.id];
  }));

  function showColliders(scene) {
    for (const f of colliderFolders) f.destroy();
    colliderCtrls = [];
    colliderFolders = scene.colliders.map((collider, index) => {
      const f = folders.colliders.addFolder(collider.name);
      f.domElement.id = `collider-${index}`;
      f.domElement.dataset.collider = String(index);
      f.$title.id = `collider-${index}-title`;
      const material = Object.fromEntries(COLLIDER_FIELDS.map(({ key }) => [key, collider[key]]));
      for (const field of COLLIDER_FIELDS) {
        const c = f.add(material, field.key, field.min, field.max, field.step);
        numberField(c, {
          id: `collider-${index}-${field.key}`, min: field.min, max: field.max, step: field.step,
          places: decimals(field.step), describedBy: colliderHelp[field.key],
        });
        c.$input.setAttribute('aria-labelledby', `${f.$title.id} ${c.$name.id}`);
        c.domElement.dataset.colliderField = field.key;
        c.onChange(() => handlers.onColliderMaterial?.(index, { ...material }));
        colliderCtrls.push({ c, field });
      }
      return f;
    });
    renderColliderTexts();
  }

  // Bodies: one sub-folder per soft or rigid body, with its mass, stiffness and material (bodies.js).
  const bodies = bodiesPanel(doc, folders.bodies, els, tr, handlers, rowsBuild);
  // Fluid: the hoses' switches and the fluid's statistics, after its sliders (fluid.js).
  const fluid = fluidPanel(doc, folders.fluid, tr, handlers);

  function renderColliderTexts() {
    for (const { c, field } of colliderCtrls) {
      c.name(t(`collider.${field.key}`));
      c.domElement.title = t(`collider.${field.key}.help`);
    }
  }
  texts.push(renderColliderTexts);

  // View switches.
  const view = { showParticles: true, heatMap: false, plots: false, velocityArrows: false, water: true };
  const viewFolder = gui.addFolder('');
  viewFolder.domElement.id = 'folder-view';
  tr(() => viewFolder.title(t('folder.view')));
  const viewCtrls = [
    ['showParticles', 'show-particles', 'view.particles', (on) => handlers.onShowParticles(on)],
    ['heatMap', 'heat-map', 'view.heatMap', (on) => handlers.onHeatMap?.(on)],
    ['plots', 'plots', 'view.plots', (on) => {
      els.plotArea.hidden = !on;
      handlers.onPlots?.(on);
    }],
    ['velocityArrows', 'velocity-arrows', 'view.velocityArrows', (on) => handlers.onVelocityArrows?.(on)],
    ['water', 'water', 'view.water', (on) => handlers.onWater?.(on)],
  ].map(([prop, id, key, fn]) => {
    const c = viewFolder.add(view, prop).onChange(fn);
    c.$input.id = id;
    tr(() => c.name(t(key)));
    return c;
  });
  viewCtrls[2].domElement.after(els.plotArea);
  // Without float render targets (render/fluid-targets.js) the water switch is off and disabled, and says why.
  let waterUnavailable = null;
  tr(() => viewCtrls[4].name(waterUnavailable === null ? t('view.water') : t('view.waterUnavailable', { reason: waterUnavailable })));

  const shareLink = addShareFolder(gui, els, tr, handlers);
  const files = addFilesFolder(doc, gui, tr, handlers, rowsBuild);

  installShortcuts(doc, gui, els, tr, handlers, { isPaused: () => paused, notice: (text) => ui.showNotice(text) });

  // Language.
  const language = { lang: getLanguage() };
  const langCtrl = gui.add(language, 'lang', Object.fromEntries(LANGUAGES.map((l) => [LANGUAGE_NAMES[l], l])));
  langCtrl.$select.id = 'language-select';
  [...langCtrl.$select.options].forEach((o, i) => {
    o.value = LANGUAGES[i];
    o.lang = HTML_LANG[LANGUAGES[i]];
  });
  tr(() => langCtrl.name(t('language')));
  langCtrl.onChange((l) => {
    ui.setLanguage(l);
    handlers.onLanguage?.(l);
  });
  gui.$children.append(els.footer);

  // Static text in index.html: data-i18n (text), data-i18n-aria-label, data-i18n-content (meta).
  tr(() => {
    for (const el of doc.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
    for (const el of doc.querySelectorAll('[data-i18n-aria-label]')) el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel));
    for (const el of doc.querySelectorAll('[data-i18n-content]')) el.setAttribute('content', t(el.dataset.i18nContent));
    doc.title = t('page.title');
    doc.documentElement.lang = HTML_LANG[getLanguage()];
  });

  els.messageClose.addEventListener('click', () => ui.clearError());

  let noticeTimer = 0;
  let shown = null; // { scene, key }: the scene the panel shows (re-titled on a language change)
  let description = null; // what setDescription was last given
  const ui = {
    els,
    gui,
    /** How the next model (a dropped or opened .obj) becomes a body: { rigid, resolution }. */
    model: files.model,

    /** entries: [{ key, name, label }] for the built-in scenes (name: the scene's full name). */
    setScenes(entries) {
      sceneEntries = entries.map(({ key, name, label }) => ({ key, name, label }));
      renderSceneOptions();
    },

    /** Reflect a freshly loaded scene: picker, title, control values, which controls apply, masses. */
    showScene(scene, key) {
      shown = { scene, key };
      linkLabel = key ? null : shortName(scene.name);
      run.scene = key || LINK_OPTION;
      renderSceneOptions();
      delete els.title.dataset.i18n; // no longer "Loading…"
      renderTitle();
      const types = new Set(scene.objects.map((o) => o.type));
      // A toggle that switches a parameter off and on again restores the scene's own value (a tether
      // stiffness, an air density): remember each toggled parameter's value in the scene when it is on.
      remembered.clear();
      for (const { param } of rows.values()) {
        if (param.kind !== 'toggle' || !PARAMS[param.param]) continue;
        const v = sceneParamShown(scene, PARAMS[param.param]);
        if (typeof v === 'number' && v > 0) remembered.set(param.param, v);
      }
      const visibleGroups = new Set();
      for (const { c, param } of rows.values()) {
        const visible = !param.objectType || types.has(param.objectType);
        c.show(visible);
        if (visible) visibleGroups.add(param.group);
        // undefined: the scene has no value for it (tearing off, no wind): keep the last one shown.
        values[param.name] = param.read(scene) ?? values[param.name] ?? param.fallback;
        c.updateDisplay();
      }
      if (showMasses(scene)) visibleGroups.add('mass');
      showColliders(scene);
      if (scene.colliders.length > 0) visibleGroups.add('colliders');
      if (bodies.show(scene)) visibleGroups.add('bodies');
      if (fluid.show(scene)) visibleGroups.add('fluid');
      // A folder whose controls are all hidden (no cloth in the scene) is hidden with its title.
      for (const group of GROUPS) folders[group].show(visibleGroups.has(group));
      updateEnabled();
      ui.clearLink();
    },

    setPaused(p) {
      paused = p;
      pauseCtrl.name(t(paused ? 'resume' : 'pause'));
      pauseCtrl.$button.setAttribute('aria-pressed', String(paused));
      stepCtrl.disable(!paused);
    },

    setReadout(values) { writeReadout(els, values); },

    /** Sets a View switch from the page (the particles' default per scene) without calling its handler. */
    setViewSwitch(prop, on) { view[prop] = on; viewCtrls.find((c) => c.property === prop)?.updateDisplay(); },

    /** The fluid's statistics (World.fluidStats()) in the Fluid folder, null for none. */
    setFluidStats(stats) { fluid.update(stats); },

    /**
     * The canvas's text alternative (aria-describedby, a polite live region): scene, counts, running or
     * paused, what is held. info: { particles, constraints, paused, heldParticles, heldColliders: [names] }.
     * Written only when the text changes, and the app calls it with the readout (a few times a second).
     */
    setDescription(info) {
      description = info;
      renderDescription();
    },

    setLink: (url, note) => shareLink.setLink(url, note),

    /** Shows the embed code made by Copy embed code, and the note under it. */
    setEmbedCode: (code, note) => shareLink.setEmbedCode(code, note),

    /** The shown link no longer matches the settings: clear it rather than offer a stale one. */
    clearLink: () => shareLink.clearLink(),

    /** `reason` null: the water switch works; otherwise it is disabled and names the reason (English, technical). */
    setWaterUnavailable(reason) {
      waterUnavailable = reason;
      viewCtrls[4].enable(reason === null);
      viewCtrls[4].name(reason === null ? t('view.water') : t('view.waterUnavailable', { reason }));
    },

    /** An error the user should read (role="alert"); text only. */
    showError(text) {
      els.messageText.textContent = text;
      els.message.hidden = false;
    },

    clearError() {
      els.messageText.textContent = '';
      els.message.hidden = true;
    },

    /** A passing note (role="status"), cleared after a while unless sticky. */
    showNotice(text, { sticky = false } = {}) {
      clearTimeout(noticeTimer);
      els.notice.textContent = text;
      if (!sticky) noticeTimer = setTimeout(() => { els.notice.textContent = ''; }, 4000);
    },

    clearNotice() {
      clearTimeout(noticeTimer);
      els.notice.textContent = '';
    },

    /** Runs `fn` now and again whenever the language changes (for texts other modules add to the page). */
    translated(fn) {
      texts.push(fn);
      fn();
    },

    /** Switch every text on the page to `lang` ('en' or 'zh'). */
    setLanguage(l) {
      setLanguage(l);
      language.lang = getLanguage();
      langCtrl.updateDisplay();
      for (const fn of texts) fn();
      renderTitle();
      renderDescription();
    },
  };

  // A built-in scene's name is translated, also when it comes back from a link with other settings.
  function sceneTitle(scene, key, short) {
    key ??= sceneEntries.find((e) => e.name === scene.name)?.key;
    if (key && hasOwnString(`scene.${key}${short ? '' : '.title'}`)) return t(`scene.${key}${short ? '' : '.title'}`);
    const name = short ? shortName(scene.name) : scene.name;
    return name || t('scene.untitled');
  }

  function renderTitle() {
    if (shown) els.title.textContent = sceneTitle(shown.scene, shown.key, false);
  }

  function renderDescription() {
    if (!description || !shown) return;
    const text = describeView(description, sceneTitle(shown.scene, shown.key, true));
    if (els.description.textContent !== text) els.description.textContent = text;
  }

  return ui;
}
