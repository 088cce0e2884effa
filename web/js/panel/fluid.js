// fluid.js — the panel's Fluid folder beyond its parameter sliders (those come from the table's "fluid" owner
// through objects/fluid.js controls, like every folder's): one on/off switch per hose (emitter, scene order over
// the fluid objects: handlers.onEmitter(index, on)), and the fluid's statistics (live particles of the capacity,
// density error), with a message when a hose has filled the capacity. All text is written with textContent.

import { sceneEmitters } from '../engine/world-fluid.js';
import { hasWater } from '../objects/index.js';
import { formatNumber, t } from '../i18n/i18n.js';

/** The hose switches and statistics inside `folder` (the panel's Fluid folder); returns { show(scene) -> whether
 *  the scene has a fluid, update(stats | null) }. `tr` re-runs a text function on every language change. */
export function fluidPanel(doc, folder, tr, handlers) {
  let ctrls = [];
  let stats = null;
  const info = doc.createElement('p');
  info.id = 'fluid-stats';
  info.className = 'fluid-stats';
  const full = doc.createElement('p');
  full.id = 'fluid-full';
  full.setAttribute('role', 'status');
  full.hidden = true;
  folder.$children.append(info, full);

  function show(scene) {
    for (const c of ctrls) c.destroy();
    const values = {};
    ctrls = sceneEmitters(scene).map(({ emitter }, i) => {
      values[i] = emitter.enabled;
      const c = folder.add(values, String(i)).onChange((on) => handlers.onEmitter?.(i, on));
      c.$input.id = `fluid-hose-${i}`;
      return c;
    });
    folder.$children.append(info, full); // after the switches
    stats = null;
    render();
    return hasWater(scene);
  }

  function render() {
    ctrls.forEach((c, i) => {
      c.name(t('fluid.hose', { n: i + 1 }));
      c.domElement.title = t('fluid.hose.help');
    });
    info.textContent = stats ? t('fluid.stats', {
      particles: formatNumber(stats.particles), capacity: formatNumber(stats.capacity),
      error: stats.measuredAt === 0 ? '–' : (100 * stats.densityError).toFixed(2), // no step has measured it yet
    }) : '';
    full.hidden = !stats?.full;
    full.textContent = stats?.full ? t('fluid.full', { particles: formatNumber(stats.particles), capacity: formatNumber(stats.capacity) }) : '';
  }
  tr(render);

  return {
    show,
    /** The fluid's statistics (World.fluidStats()), or null when there are none. */
    update(s) { stats = s; render(); },
  };
}

/** A panel folder (panel.js FOLDERS) in panel.folders.fluid; show(scene) returns ['fluid'] when the scene has water,
 *  update({ fluid }) shows the fluid's statistics (World.fluidStats(), or null). */
export function buildFluid({ doc, folders, tr, handlers }) {
  const fluid = fluidPanel(doc, folders.fluid, tr, handlers);
  return {
    show: (scene) => (fluid.show(scene) ? ['fluid'] : []),
    update(stats) { if ('fluid' in stats) fluid.update(stats.fluid); },
  };
}
