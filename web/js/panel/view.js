// view.js — the panel's View folder: particles, heat map, plots (the plot area opens under its switch), velocity
// arrows and water. Without float render targets (render/fluid-targets.js) the water switch is off and disabled,
// and says why.

import { t } from '../i18n/i18n.js';

const SWITCHES = [ // [property, input id, string key, handler]
  ['showParticles', 'show-particles', 'view.particles', 'onShowParticles'],
  ['heatMap', 'heat-map', 'view.heatMap', 'onHeatMap'],
  ['plots', 'plots', 'view.plots', 'onPlots'],
  ['velocityArrows', 'velocity-arrows', 'view.velocityArrows', 'onVelocityArrows'],
  ['water', 'water', 'view.water', 'onWater'],
];

/** A panel folder (panel.js FOLDERS); also setViewSwitch(prop, on) and setWaterUnavailable(reason | null). */
export function buildView({ gui, els, tr, handlers }) {
  const view = { showParticles: true, heatMap: false, plots: false, velocityArrows: false, water: true };
  const folder = gui.addFolder('');
  folder.domElement.id = 'folder-view';
  tr(() => folder.title(t('folder.view')));
  const ctrls = SWITCHES.map(([prop, id, key, handler]) => {
    const c = folder.add(view, prop).onChange((on) => {
      if (prop === 'plots') els.plotArea.hidden = !on;
      handlers[handler]?.(on);
    });
    c.$input.id = id;
    tr(() => c.name(t(key)));
    return c;
  });
  ctrls[2].domElement.after(els.plotArea);
  const water = ctrls[4];
  let waterUnavailable = null;
  const waterName = () => water.name(waterUnavailable === null ? t('view.water') : t('view.waterUnavailable', { reason: waterUnavailable }));
  tr(waterName);
  return {
    /** Sets a View switch from the page (the particles' default per scene) without calling its handler. */
    setViewSwitch(prop, on) { view[prop] = on; ctrls.find((c) => c.property === prop)?.updateDisplay(); },
    /** `reason` null: the water switch works; otherwise it is disabled and names the reason (English, technical). */
    setWaterUnavailable(reason) {
      waterUnavailable = reason;
      water.enable(reason === null);
      waterName();
    },
  };
}
