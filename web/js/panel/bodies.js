// bodies.js — the panel's Bodies folder: one sub-folder per soft or rigid body of the scene (titled with its name
// from the scene, as text) with its own mass (the whole body's, in kg), the stiffness of each of its type's
// constraint kinds (a soft body's edges and volume, a rigid body's shape: objects/, `stiffness`, ranges from the
// parameter table) and its type's material (objects/, `material`: plasticity, seed 001 section 5.3, and the
// contact radius), each set live for that body only (handlers.onMass, onObjectStiffness, onObjectMaterial).
// Rebuilt for each scene, hidden when it has none. The world-wide sliders of the same kinds stay in Stiffness.

import { PARAMS } from '../engine/params.js';
import { objectTypeOf } from '../objects/index.js';
import { t } from '../i18n/i18n.js';
import { clean, decimals, niceStep } from './widgets.js';

/** The scene's bodies: objects whose type draws a skin (soft and rigid), with their index in the scene. */
export function sceneBodies(scene) {
  const out = [];
  scene.objects.forEach((o, index) => {
    if (objectTypeOf(o).render?.primitive === 'skin') out.push({ o, index });
  });
  return out;
}

/**
 * The rows of body `o`: [{ field, id suffix, label and help keys, min, max, step, value, write: (handlers, index,
 * v) => … }]: its mass, one stiffness per kind of its type, then its type's material.
 */
export function bodyFields(o) {
  const type = objectTypeOf(o);
  const massStep = niceStep(o.mass / 10);
  const rows = [{
    field: 'mass', label: 'body.mass', help: 'body.mass.help', min: massStep, max: clean(Math.ceil((o.mass * 10) / massStep) * massStep),
    step: massStep, value: o.mass, write: (h, index, v) => h.onMass?.(index, v),
  }];
  for (const [kind, k] of Object.entries(type.stiffness ?? {})) {
    const p = PARAMS[k.param];
    rows.push({
      field: `stiffness.${kind}`, label: `param.${k.param}`, help: `param.${k.param}.help`, min: p.min, max: p.max, step: 0.01,
      value: k.get(o), write: (h, index, v) => h.onObjectStiffness?.(index, kind, v),
    });
  }
  for (const m of type.material ?? []) {
    // A scene may hold more than the panel shows: the field widens to it rather than clamping it.
    rows.push({
      field: m.name, label: `material.${m.name}`, help: `material.${m.name}.help`, min: m.min, max: Math.max(m.max, m.get(o)),
      step: m.step, value: m.get(o), write: (h, index, v) => h.onObjectMaterial?.(index, m, v),
    });
  }
  return rows;
}

/**
 * The bodies' sub-folders inside `folder` (the panel's Bodies folder); returns { show(scene) -> whether the scene
 * has a body }. `rows` are the panel's row builders (widgets.js), `tr` re-runs a text function on every
 * language change.
 */
export function bodiesPanel(doc, folder, els, tr, handlers, { numberField }) {
  let subFolders = [];
  let ctrls = []; // [{ c, row }]
  const helpIds = new Map();
  const helpSpan = (key) => {
    if (!helpIds.has(key)) {
      const span = doc.createElement('span');
      span.id = `body-${key.replace(/\./g, '-')}`;
      els.helpTexts.append(span);
      tr(() => { span.textContent = t(key); });
      helpIds.set(key, span.id);
    }
    return helpIds.get(key);
  };

  function show(scene) {
    for (const f of subFolders) f.destroy();
    ctrls = [];
    subFolders = sceneBodies(scene).map(({ o, index }) => {
      const f = folder.addFolder(o.name);
      f.domElement.id = `body-${index}`;
      f.domElement.dataset.object = String(index);
      f.$title.id = `body-${index}-title`;
      const values = {};
      for (const row of bodyFields(o)) {
        values[row.field] = row.value;
        const c = f.add(values, row.field, row.min, row.max, row.step);
        numberField(c, {
          id: `body-${index}-${row.field.replace(/\./g, '-')}`, min: row.min, max: row.max, step: row.step,
          places: Math.max(0, decimals(clean(row.step))), describedBy: helpSpan(row.help),
        });
        // Named "<body> <field>": the sub-folder's title and the row's label.
        c.$input.setAttribute('aria-labelledby', `${f.$title.id} ${c.$name.id}`);
        c.domElement.dataset.bodyField = row.field;
        c.onChange((v) => row.write(handlers, index, v));
        ctrls.push({ c, row });
      }
      return f;
    });
    renderTexts();
    return subFolders.length > 0;
  }

  function renderTexts() {
    for (const { c, row } of ctrls) {
      c.name(t(row.label));
      c.domElement.title = t(row.help);
    }
  }
  tr(renderTexts);

  return { show };
}

/** A panel folder (panel.js FOLDERS) in panel.folders.bodies; show(scene) returns ['bodies'] when it has a body. */
export function buildBodies({ doc, folders, els, tr, handlers, rows }) {
  const bodies = bodiesPanel(doc, folders.bodies, els, tr, handlers, rows);
  return { show: (scene) => (bodies.show(scene) ? ['bodies'] : []) };
}
