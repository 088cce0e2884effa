// bodies.js — the panel's Bodies folder: one sub-folder per soft or rigid body of the scene (titled with its name
// from the scene, as text), with its own material: the stiffness of each of its type's constraint kinds (a soft
// body's edges and volume, a rigid body's shape matching: objects/, `stiffness`, ranges from the parameter table)
// and its plasticity (yield, creep, max: seed 001 section 5.3), set live through world.setObjectStiffness and
// world.setObjectPlasticity (handlers.onObjectStiffness, onObjectPlasticity). Rebuilt for each scene, hidden
// when it has no body. The world-wide sliders of the same kinds stay in the Stiffness folder.

import { PARAMS } from '../engine/params.js';
import { objectTypeOf } from '../objects/index.js';
import { t } from '../i18n/i18n.js';
import { decimals } from './widgets.js';

/** The plasticity fields as the panel shows them: within what the engine takes (yield, max in [0, 10] strain;
 *  creep in [0, 1000] per second), narrowed to what a person tries by hand. */
export const PLASTICITY_FIELDS = [
  { key: 'yield', min: 0, max: 0.5, step: 0.005 },
  { key: 'creep', min: 0, max: 50, step: 0.5 },
  { key: 'max', min: 0, max: 2, step: 0.05 },
];

/** The scene's bodies: objects whose type draws a skin (soft and rigid), with their index in the scene. */
export function sceneBodies(scene) {
  const out = [];
  scene.objects.forEach((o, index) => {
    if (objectTypeOf(o).render?.primitive === 'skin') out.push({ o, index });
  });
  return out;
}

/** The stiffness fields of body `o`: one per kind of its type, { kind, param, min, max, step, value }. */
export function stiffnessFields(o) {
  const kinds = objectTypeOf(o).stiffness ?? {};
  return Object.entries(kinds).map(([kind, k]) => {
    const p = PARAMS[k.param];
    return { kind, param: k.param, min: p?.min ?? 0, max: p?.max ?? 1, step: 0.01, value: k.get(o) };
  });
}

/**
 * The Bodies folder inside `folder` (the panel's bodies folder); returns { show(scene) }. `rows` are the panel's
 * row builders (widgets.js), `tr` re-runs a text function on every language change.
 */
export function bodiesPanel(doc, folder, els, tr, handlers, { numberField }) {
  let subFolders = [];
  let ctrls = []; // [{ c, labelKey, helpKey }]
  const helpIds = {};
  const helpSpan = (key) => {
    if (helpIds[key]) return helpIds[key];
    const span = doc.createElement('span');
    span.id = `body-${key.replace(/\./g, '-')}-help`;
    els.helpTexts.append(span);
    tr(() => { span.textContent = t(`${key}.help`); });
    return (helpIds[key] = span.id);
  };

  function show(scene) {
    for (const f of subFolders) f.destroy();
    ctrls = [];
    subFolders = sceneBodies(scene).map(({ o, index }) => {
      const f = folder.addFolder(o.name);
      f.domElement.id = `body-${index}`;
      f.domElement.dataset.object = String(index);
      f.$title.id = `body-${index}-title`;
      const add = (values, key, spec, labelKey, helpKey, onChange) => {
        const c = f.add(values, key, spec.min, spec.max, spec.step);
        numberField(c, {
          id: spec.id, min: spec.min, max: spec.max, step: spec.step, places: decimals(spec.step), describedBy: helpSpan(helpKey),
        });
        c.$input.setAttribute('aria-labelledby', `${f.$title.id} ${c.$name.id}`);
        c.onChange(onChange);
        ctrls.push({ c, labelKey, helpKey });
        return c;
      };
      // Stiffness, one row per kind: the parameter's own label (the type's strings).
      const stiffness = {};
      for (const s of stiffnessFields(o)) {
        stiffness[s.kind] = s.value;
        const c = add(stiffness, s.kind, { ...s, id: `body-${index}-stiffness-${s.kind}` }, `param.${s.param}`, `param.${s.param}`,
          (v) => handlers.onObjectStiffness?.(index, s.kind, v));
        c.domElement.dataset.bodyField = `stiffness.${s.kind}`;
      }
      // Plasticity, when the type has it.
      if (o.plasticity) {
        const plasticity = { ...o.plasticity };
        for (const p of PLASTICITY_FIELDS) {
          // A scene may hold more than the panel shows: the field widens to it rather than clamping it.
          const spec = { ...p, max: Math.max(p.max, plasticity[p.key] ?? 0), id: `body-${index}-${p.key}` };
          const c = add(plasticity, p.key, spec, `body.${p.key}`, `body.${p.key}`, () => handlers.onObjectPlasticity?.(index, { ...plasticity }));
          c.domElement.dataset.bodyField = `plasticity.${p.key}`;
        }
      }
      return f;
    });
    renderTexts();
    return subFolders.length > 0;
  }

  function renderTexts() {
    for (const { c, labelKey, helpKey } of ctrls) {
      c.name(t(labelKey));
      c.domElement.title = t(`${helpKey}.help`);
    }
  }
  tr(renderTexts);

  return { show };
}
