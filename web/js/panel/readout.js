// readout.js — the panel's readout (steps, particles, constraints, the time of one step) and the view's text
// alternative for screen readers (#view-description: scene, counts, running or paused, what is held). Text only.

import { t, plural, formatNumber } from '../i18n/i18n.js';

/** Writes the readout: { particles, constraints, stepMs, steps } into els.readout's four fields. */
export function writeReadout(els, { particles, constraints, stepMs, steps }) {
  els.readout.particles.textContent = formatNumber(particles);
  els.readout.constraints.textContent = formatNumber(constraints);
  els.readout.steps.textContent = Number.isFinite(steps) ? formatNumber(steps) : '–';
  els.readout.stepMs.textContent = formatStepMs(stepMs);
}

/** A step time in ms as the readout shows it: three decimals under 0.1 ms, two above, '–' when unknown. */
export function formatStepMs(ms) {
  return !Number.isFinite(ms) ? '–' : ms < 0.1 ? ms.toFixed(3) : ms.toFixed(2);
}

/** The view's description in the current language. info: { particles, constraints, paused, heldParticles,
 *  heldColliders: [names] }; `sceneName` is the scene's short title. */
export function describeView(info, sceneName) {
  const held = [];
  if (info.heldParticles > 0) held.push(plural('desc.particles', info.heldParticles));
  for (const name of info.heldColliders ?? []) held.push(String(name));
  return t('desc.text', {
    scene: sceneName,
    particles: formatNumber(info.particles),
    constraints: formatNumber(info.constraints),
    state: t(info.paused ? 'desc.paused' : 'desc.running'),
    held: held.length ? t('desc.held', { list: held.join(t('desc.listSeparator')) }) : t('desc.nothingHeld'),
  });
}
