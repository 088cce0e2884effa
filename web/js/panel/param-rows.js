// param-rows.js — the parameters' folders (controls.js GROUPS) and one row per parameter control (controls.js: the
// solver, ground and contacts, and each object type's own, such as a cloth's stiffness, options and wind). The other
// folders of a group (masses.js, colliders.js, bodies.js, fluid.js) add their rows to the folders made here.

import { PARAMS_CONTROLS, GROUPS } from './controls.js';
import { PARAMS, sceneParamShown } from '../engine/params.js';
import { decimals } from './widgets.js';
import { t } from '../i18n/i18n.js';

/** Makes panel.folders (one per group) and the parameter rows. show(scene) returns the groups with a row shown;
 *  hideEmpty(groups) hides every other group's folder. */
export function buildParamRows(panel) {
  const { gui, tr } = panel;
  for (const group of GROUPS) {
    const f = gui.addFolder('');
    f.domElement.id = `folder-${group}`;
    f.$title.id = `folder-${group}-title`;
    tr(() => f.title(t(`folder.${group}`)));
    panel.folders[group] = f;
  }
  // Exact current value of every control (a field shows its value rounded; the engine keeps the scene's own
  // value until the user moves that control), and the last "on" value of toggled parameters.
  const values = {};
  const remembered = new Map();
  const ctx = { value: (name) => values[name], remembered: (param, fallback) => remembered.get(param) ?? fallback };
  const rows = new Map();
  const updateEnabled = () => {
    for (const { c, param } of rows.values()) if (param.enabledBy) c.disable(!values[param.enabledBy]);
  };
  const changed = (param, value) => {
    const pairs = param.write ? param.write(value, ctx) : [[param.name, value]];
    for (const [name, v] of pairs) if (v !== 0) remembered.set(name, v);
    if (param.kind === 'toggle') updateEnabled();
    panel.handlers.onParam(param, pairs);
  };
  for (const param of PARAMS_CONTROLS) {
    const c = paramRow(panel, param, values);
    c.onChange((v) => changed(param, v));
    rows.set(param.name, { c, param });
  }
  return {
    show(scene) {
      rememberSceneValues(scene, rows, remembered);
      const types = new Set(scene.objects.map((o) => o.type));
      const visible = new Set();
      for (const { c, param } of rows.values()) {
        const shown = !param.objectType || types.has(param.objectType);
        c.show(shown);
        if (shown) visible.add(param.group);
        // undefined: the scene has no value for it (tearing off, no wind): keep the last one shown.
        values[param.name] = param.read(scene) ?? values[param.name] ?? param.fallback;
        c.updateDisplay();
      }
      updateEnabled();
      return visible;
    },
    /** A folder whose controls are all hidden (no cloth in the scene) is hidden with its title. */
    hideEmpty(visible) {
      for (const group of GROUPS) panel.folders[group].show(visible.has(group));
    },
  };
}

/** One parameter's row in its group's folder: a switch or a number field, with its help text. */
function paramRow({ folders, rows: { numberField, help }, tr }, param, values) {
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
  return c;
}

/** A toggle that switches a parameter off and on again restores the scene's own value (a tether stiffness, an air
 *  density): remember each toggled parameter's value in the scene when it is on. */
function rememberSceneValues(scene, rows, remembered) {
  remembered.clear();
  for (const { param } of rows.values()) {
    if (param.kind !== 'toggle' || !PARAMS[param.param]) continue;
    const v = sceneParamShown(scene, PARAMS[param.param]);
    if (typeof v === 'number' && v > 0) remembered.set(param.param, v);
  }
}
