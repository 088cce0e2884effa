// plots.js — two small line plots for the panel (seed 001 section 4.4): the convergence curve (mean
// relative constraint error after each solver pass of the last step, recorded in C) and the kinetic and
// potential energy over the last seconds of simulated time. Both draw a handful of numbers per readout, never per
// particle. Each has axes with ticks and units (pass / relative error, log scale; time s / J), a text readout of
// the point under the pointer (or the arrow keys on the focused plot; the latest point otherwise) in an <output>
// beside it, so the value is text a screen reader reads, not a tooltip, and a button that saves the plotted
// series as CSV. Each caption is text above its canvas (it wraps to the panel's width); under the convergence
// curve a note says when it is flat because each substep has one pass (every point is then after a new substep).
// Captions, notes and readouts follow the page's language at the next readout; the canvases' accessible names are
// index.html's data-i18n-aria-label.

import { t, formatNumber } from '../i18n/i18n.js';
import { downloadBlob, shortFileName } from './files.js';
import { csvTable, DEFAULT_DIGITS } from '../format/csv.js';

const HISTORY = 120; // energy samples kept (at 4 readouts a second: 30 s)
const COLOURS = { error: '#d9542f', kinetic: '#d9542f', potential: '#2f6fd9' };
const INSET = 5; // CSS px between the axes and the first and lowest points

/** About `count` round tick values in [lo, hi] (1, 2 or 5 times a power of ten apart). */
export function niceTicks(lo, hi, count = 3) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / count, mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

/** A tick label: short (3 significant digits), exponent form for the small and the large. */
function tickText(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a < 1e-3 || a >= 1e5 ? v.toExponential(0) : String(Number(v.toPrecision(3)));
}

/** Readout numbers: 4 significant digits (the plots show float32 sums, more digits would be noise). */
function valueText(v) { return Number.isFinite(v) ? String(Number(v.toPrecision(4))) : '–'; }

/** The y range widened to round ticks: decades on the log scale (values are log10 there), 1-2-5 steps on the linear one. */
function yRange(values, logScale) {
  let lo = Math.min(...values), hi = Math.max(...values), yTicks;
  if (logScale) {
    lo = Math.floor(lo); hi = Math.max(Math.ceil(hi), lo + 1);
    const every = Math.ceil((hi - lo) / 3);
    yTicks = [];
    for (let e = lo; e <= hi; e += every) yTicks.push(e);
  } else {
    if (hi - lo < 1e-12) { hi += 0.5; lo -= 0.5; }
    yTicks = niceTicks(lo, hi, 3);
    const step = yTicks.length > 1 ? yTicks[1] - yTicks[0] : hi - lo;
    lo = Math.min(lo, Math.floor(lo / step) * step); hi = Math.max(hi, Math.ceil(hi / step) * step);
    yTicks = niceTicks(lo, hi, 3);
  }
  return { lo, hi, yTicks };
}

/**
 * Draws `plot` ({ x: numbers, series: [{ data, color }], logScale, xUnit, yUnit }) on its canvas, with the point
 * `hover` (an index, or null) marked (the caption is text above the canvas: Plots.redraw). The left margin fits the
 * widest y tick label, and the points keep INSET px off the axes. Returns the plot box in canvas pixels, for hit
 * tests.
 */
function draw(canvas, plot, hover) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(canvas.clientWidth * dpr), h = Math.round(canvas.clientHeight * dpr);
  if (w === 0 || h === 0) return null;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, w, h);
  const box = { left: 44 * dpr, right: w - 10 * dpr, top: 16 * dpr, bottom: h - 16 * dpr };
  const ink = getComputedStyle(canvas).color || '#5b6472';
  ctx.font = `${10 * dpr}px system-ui, sans-serif`;
  ctx.fillStyle = ink;
  const ys = (v) => (plot.logScale ? Math.log10(Math.max(v, 1e-9)) : v);
  const values = plot.series.flatMap((s) => s.data).filter(Number.isFinite).map(ys);
  const xs = plot.x;
  // units: y at the top left, x at the bottom left (under the y labels)
  ctx.fillText(plot.yUnit, 2 * dpr, 11 * dpr);
  ctx.fillText(plot.xUnit, 2 * dpr, h - 4 * dpr);
  if (values.length === 0 || xs.length === 0) return null;
  const { lo, hi, yTicks } = yRange(values, plot.logScale);
  const yLabel = (u) => (plot.logScale ? `1e${u}` : tickText(u));
  box.left = Math.max(box.left, Math.max(...yTicks.map((u) => ctx.measureText(yLabel(u)).width)) + 9 * dpr);
  const inset = INSET * dpr;
  const x0 = xs[0], x1 = xs.length > 1 ? xs[xs.length - 1] : xs[0] + 1;
  const px = (x) => box.left + inset + ((box.right - box.left - 2 * inset) * (x - x0)) / (x1 - x0 || 1);
  const pyRaw = (u) => box.bottom - inset - ((box.bottom - box.top - 2 * inset) * (u - lo)) / (hi - lo);
  const py = (v) => pyRaw(ys(v));
  // axes and ticks
  ctx.strokeStyle = ink;
  ctx.lineWidth = dpr;
  ctx.globalAlpha = 0.6;
  ctx.beginPath();
  ctx.moveTo(box.left, box.top); ctx.lineTo(box.left, box.bottom); ctx.lineTo(box.right, box.bottom);
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const u of yTicks) {
    const y = pyRaw(u);
    ctx.fillRect(box.left - 3 * dpr, y, 3 * dpr, dpr);
    ctx.fillText(yLabel(u), box.left - 5 * dpr, y);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const v of niceTicks(x0, x1, 4)) {
    if (plot.integerX && !Number.isInteger(v)) continue;
    const x = px(v);
    ctx.fillRect(x, box.bottom, dpr, 3 * dpr);
    ctx.fillText(tickText(v), x, box.bottom + 4 * dpr);
  }
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  // the lines
  ctx.lineWidth = 1.5 * dpr;
  for (const s of plot.series) {
    ctx.strokeStyle = s.color;
    ctx.beginPath();
    s.data.forEach((v, i) => { if (i === 0) ctx.moveTo(px(xs[i]), py(v)); else ctx.lineTo(px(xs[i]), py(v)); });
    ctx.stroke();
  }
  if (hover !== null && hover < xs.length) {
    const x = px(xs[hover]);
    ctx.fillStyle = ink;
    ctx.fillRect(x, box.top, dpr, box.bottom - box.top);
    for (const s of plot.series) {
      ctx.fillStyle = s.color;
      ctx.beginPath(); ctx.arc(x, py(s.data[hover]), 3 * dpr, 0, 2 * Math.PI); ctx.fill();
    }
  }
  return { ...box, px };
}

/** One CSV text: a header row, then one row per point; String(v) is the shortest text that reads back as v. */
/** The two plots' data, captions and readouts; `which` is 'convergence' or 'energy'. */
const KINDS = ['convergence', 'energy'];
let active = null; // the Plots the page shows (a new one each time the plots are switched on)
const wired = new WeakSet();

/** Pointer, keys and buttons go to whichever Plots is active: they are wired once per document. */
function wire(doc) {
  if (wired.has(doc)) return;
  wired.add(doc);
  for (const kind of KINDS) {
    const canvas = doc.getElementById(`${kind}-plot`);
    canvas.addEventListener('pointermove', (e) => active?.pointAt(kind, e.offsetX * (window.devicePixelRatio || 1)));
    canvas.addEventListener('pointerleave', () => active?.setHover(kind, null));
    canvas.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      e.stopPropagation();
      active?.stepHover(kind, e.key === 'ArrowLeft' ? -1 : 1);
    });
    canvas.addEventListener('blur', () => active?.setHover(kind, null));
    doc.getElementById(`${kind}-csv`).addEventListener('click', () => active?.exportCsv(kind, doc.getElementById('csv-full')?.checked === true));
  }
}

export class Plots {
  constructor(convergenceCanvas, energyCanvas) {
    this.canvas = { convergence: convergenceCanvas, energy: energyCanvas };
    const doc = convergenceCanvas.ownerDocument;
    this.readout = { convergence: doc.getElementById('convergence-readout'), energy: doc.getElementById('energy-readout') };
    this.kinetic = [];
    this.potential = [];
    this.times = [];
    this.curve = [];
    this.hover = { convergence: null, energy: null };
    this.box = { convergence: null, energy: null };
    this.sceneName = '';
    this.passes = NaN; // passes per substep of the last readout
    // each plot's caption (text above its canvas) and the convergence plot's note, made once per document
    const made = (id, cls, before) => {
      let el = doc.getElementById(id);
      if (!el) {
        el = doc.createElement('p');
        el.id = id;
        el.className = cls;
        before.before(el);
      }
      return el;
    };
    this.caption = Object.fromEntries(KINDS.map((kind) => [kind, made(`${kind}-caption`, 'plot-caption', this.canvas[kind])]));
    this.note = made('convergence-note', 'plot-note', this.canvas.convergence.nextElementSibling ?? this.canvas.convergence);
    active = this;
    wire(doc);
  }

  reset() { this.kinetic.length = 0; this.potential.length = 0; this.times.length = 0; }

  /** Called at each readout with the world, its stats() (or peekStats()) and its dt (read from it if not given). */
  update(world, stats, dt = undefined) {
    // While steps are in flight (stats from World.peekStats: busy) the world is not asked anything: the energies
    // are those of step measuredAt, the curve the last step's read before.
    const busy = stats.busy === true;
    if (dt > 0) this.dt = dt;
    else if (!busy || !(this.dt > 0)) this.dt = world.getParam('dt');
    const time = (busy ? stats.measuredAt : stats.steps) * this.dt;
    const last = this.times.length ? this.times[this.times.length - 1] : -Infinity;
    if (time < last) this.reset(); // reset: time starts again
    if (time === last) { this.kinetic.pop(); this.potential.pop(); this.times.pop(); } // paused: one point per time
    this.times.push(time);
    this.kinetic.push(stats.kineticEnergy);
    this.potential.push(stats.potentialEnergy);
    if (this.kinetic.length > HISTORY) { this.kinetic.shift(); this.potential.shift(); this.times.shift(); }
    if (!busy) {
      this.curve = Array.from(world.convergence);
      this.passes = world.getParam('iterations');
    }
    this.sceneName = world.scene?.name ?? '';
    this.redraw();
  }

  plot(kind) {
    if (kind === 'convergence') {
      const n = this.curve.length;
      const last = n ? this.curve[n - 1] : NaN;
      return { x: this.curve.map((_, i) => i + 1), series: [{ data: this.curve, color: COLOURS.error }], logScale: true, integerX: true,
        xUnit: t('plot.axis.pass'), yUnit: t('plot.axis.error'),
        caption: [t('plot.convergenceLabel', { n: formatNumber(n) }), Number.isFinite(last) ? t('plot.last', { value: (100 * last).toFixed(3) }) : ''] };
    }
    return { x: this.times, series: [{ data: this.kinetic, color: COLOURS.kinetic }, { data: this.potential, color: COLOURS.potential }],
      xUnit: t('plot.axis.time'), yUnit: t('plot.axis.energy'), caption: [t('plot.energyLabel')] };
  }

  redraw() {
    const plots = KINDS.map((kind) => this.plot(kind));
    KINDS.forEach((kind, k) => {
      const n = plots[k].x.length;
      if (this.hover[kind] !== null && this.hover[kind] >= n) this.hover[kind] = n ? n - 1 : null;
      this.box[kind] = draw(this.canvas[kind], plots[k], this.hover[kind]);
      this.readout[kind].textContent = this.readoutText(kind, this.hover[kind] ?? n - 1);
    });
    /** The captions drawn last, [convergence lines, energy lines] (the canvas itself has no text to read). */
    this.captions = plots.map((p) => p.caption);
    KINDS.forEach((kind, k) => { this.caption[kind].textContent = plots[k].caption.filter(Boolean).join(' · '); });
    // One pass per substep: the curve's points are each after a new substep, so it cannot fall; say so.
    const flat = this.passes === 1 && this.curve.length > 1;
    this.note.hidden = !flat;
    this.note.textContent = flat ? t('plot.flatNote') : '';
  }

  /** The point `i` of a plot in words (the readout beside the canvas). */
  readoutText(kind, i) {
    if (kind === 'convergence') {
      if (!(i >= 0 && i < this.curve.length)) return t('plot.readout.empty');
      return t('plot.readout.convergence', { pass: i + 1, n: this.curve.length, value: valueText(this.curve[i]) });
    }
    if (!(i >= 0 && i < this.times.length)) return t('plot.readout.empty');
    return t('plot.readout.energy', { time: valueText(this.times[i]), kinetic: valueText(this.kinetic[i]), potential: valueText(this.potential[i]) });
  }

  setHover(kind, i) {
    if (this.hover[kind] === i) return;
    this.hover[kind] = i;
    this.redraw();
  }

  /** The point nearest canvas x (device pixels) along the plot's x axis. */
  pointAt(kind, x) {
    const box = this.box[kind], xs = this.plot(kind).x;
    if (!box || xs.length === 0) return;
    let best = 0;
    for (let i = 1; i < xs.length; i++) if (Math.abs(box.px(xs[i]) - x) < Math.abs(box.px(xs[best]) - x)) best = i;
    this.setHover(kind, best);
  }

  stepHover(kind, by) {
    const n = this.plot(kind).x.length;
    if (n === 0) return;
    const at = this.hover[kind] ?? (by < 0 ? n : -1);
    this.setHover(kind, Math.min(n - 1, Math.max(0, at + by)));
  }

  /** The plotted series as CSV. convergence: pass (1-based), meanError (relative, a fraction); energy: time (s),
   *  kineticEnergy, potentialEnergy (J). Floats have `digits` significant digits as minipbd-run's --digits (0: every
   *  digit, each value reads back to the same double). */
  csvText(kind, digits = DEFAULT_DIGITS) {
    if (kind === 'convergence') return csvTable(['pass', 'meanError'], this.curve.map((v, i) => [i + 1, v]), digits);
    return csvTable(['time', 'kineticEnergy', 'potentialEnergy'], this.times.map((tm, i) => [tm, this.kinetic[i], this.potential[i]]), digits);
  }

  /** Saves a plot's CSV as minipbd-<scene>-<kind>.csv; `full`: every digit. */
  exportCsv(kind, full = false) {
    const text = this.csvText(kind, full ? 0 : DEFAULT_DIGITS);
    downloadBlob(document, shortFileName(this.sceneName, 'csv', kind), new Blob([text], { type: 'text/csv' }));
  }
}
