// masses.js — the panel's Masses folder: one field per object with a mass of its own (grams per particle), rebuilt
// for each scene. A body's `mass` is the whole body's (its own folder: bodies.js) and a fluid has none (each particle
// weighs rest density x spacing^3: the Fluid folder): neither is listed here.

import { decimals, niceStep, clean } from './widgets.js';
import { sceneBodies } from './bodies.js';

/** A panel folder (panel.js FOLDERS) in panel.folders.mass; show(scene) returns ['mass'] when any object is listed. */
export function buildMasses({ folders, rows: { numberField, help }, handlers }) {
  const folder = folders.mass;
  const masses = {};
  let ctrls = [];
  const ranges = new Map(); // `${scene name}|${index}|${name}` -> { min, max, step }: a range stays put while you play
  const describedBy = help({ domElement: folder.domElement }, 'mass.help', 'mass-help');

  function massRow(o, index, sceneName) {
    const grams = clean(o.mass * 1000);
    const rangeKey = `${sceneName}|${index}|${o.name}`;
    let range = ranges.get(rangeKey);
    if (!range) {
      const step = niceStep(grams / 10);
      range = { min: step, max: clean(Math.ceil((grams * 10) / step) * step), step };
      ranges.set(rangeKey, range);
    }
    masses[index] = grams;
    const c = folder.add(masses, String(index), range.min, range.max, range.step);
    c.name(o.name);
    c.$name.title = o.name;
    numberField(c, { id: `mass-${index}`, ...range, places: Math.max(0, decimals(clean(range.step))), describedBy });
    // Named "Mass per particle (g) <object name>": the folder title says what the number is.
    c.$input.setAttribute('aria-labelledby', `${folder.$title.id} ${c.$name.id}`);
    c.domElement.dataset.object = String(index);
    c.onChange((g) => handlers.onMass?.(index, g / 1000));
    return c;
  }

  return {
    show(scene) {
      for (const c of ctrls) c.destroy();
      const bodyIndices = new Set(sceneBodies(scene).map((b) => b.index));
      ctrls = scene.objects.flatMap((o, index) => (bodyIndices.has(index) || o.mass === undefined ? [] : [massRow(o, index, scene.name)]));
      return ctrls.length > 0 ? ['mass'] : [];
    },
  };
}
