// plots.js — two small line plots for the panel (seed 001 section 4.4): the convergence curve (mean
// relative constraint error after each solver pass of the last step, recorded in C) and the kinetic and
// potential energy over the last seconds. Both draw a handful of numbers per readout, never per particle.
// Their captions (drawn in the canvas) are in i18n.js and follow the page's language at the next readout; the
// canvases' accessible names are index.html's data-i18n-aria-label.

import { t, formatNumber } from '../i18n/i18n.js';

const HISTORY = 120; // energy samples kept (at 4 readouts a second: 30 s)

function drawLines(canvas, series, { logScale = false, labels = [] } = {}) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(canvas.clientWidth * dpr), h = Math.round(canvas.clientHeight * dpr);
  if (w === 0 || h === 0) return;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, w, h);
  const values = series.flatMap((s) => s.data).filter(Number.isFinite).map((v) => (logScale ? Math.log10(Math.max(v, 1e-9)) : v));
  if (values.length === 0) return;
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 1e-12) { hi += 0.5; lo -= 0.5; }
  const pad = 4 * dpr;
  ctx.lineWidth = 1.5 * dpr;
  for (const s of series) {
    if (s.data.length === 0) continue;
    ctx.strokeStyle = s.color;
    ctx.beginPath();
    s.data.forEach((raw, i) => {
      const v = logScale ? Math.log10(Math.max(raw, 1e-9)) : raw;
      const x = pad + ((w - 2 * pad) * i) / Math.max(1, s.data.length - 1);
      const y = h - pad - ((h - 2 * pad) * (v - lo)) / (hi - lo);
      if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    });
    ctx.stroke();
  }
  ctx.fillStyle = '#5b6472';
  ctx.font = `${11 * dpr}px system-ui, sans-serif`;
  labels.forEach((text, i) => ctx.fillText(text, pad, pad + (12 + 13 * i) * dpr));
}

export class Plots {
  constructor(convergenceCanvas, energyCanvas) {
    this.convergenceCanvas = convergenceCanvas;
    this.energyCanvas = energyCanvas;
    this.kinetic = [];
    this.potential = [];
  }

  reset() { this.kinetic.length = 0; this.potential.length = 0; }

  /** Called at each readout with the world and its stats(). */
  update(world, stats) {
    this.kinetic.push(stats.kineticEnergy);
    this.potential.push(stats.potentialEnergy);
    if (this.kinetic.length > HISTORY) { this.kinetic.shift(); this.potential.shift(); }
    const curve = Array.from(world.convergence);
    const last = curve.length ? curve[curve.length - 1] : NaN;
    const convergence = [t('plot.convergenceLabel', { n: formatNumber(curve.length) }), Number.isFinite(last) ? t('plot.last', { value: (100 * last).toFixed(3) }) : ''];
    const energy = [t('plot.energyLabel')];
    drawLines(this.convergenceCanvas, [{ data: curve, color: '#d9542f' }], { logScale: true, labels: convergence });
    drawLines(this.energyCanvas, [{ data: this.kinetic, color: '#d9542f' }, { data: this.potential, color: '#2f6fd9' }], { labels: energy });
    /** The captions drawn last, [convergence lines, energy lines] (the canvas itself has no text to read). */
    this.captions = [convergence, energy];
  }
}
