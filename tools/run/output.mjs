// output.mjs — what minipbd-run prints: floats rounded to a number of significant digits (the engine computes
// in float32, so 0.016666668 arrives as the double 0.01666666753590107: its last 10 digits are noise), samples
// as JSON entries or CSV rows (RFC 4180: comma-separated, a header row, CRLF-free "\n" lines, fields quoted only
// when they hold a comma, a quote or a line break).

/** v rounded to `digits` significant digits (0: the raw double). Whole numbers (steps, counts, hashes) are exact
 *  already and stay as they are, however many digits they have. */
export function roundNumber(v, digits) {
  if (digits === 0 || typeof v !== 'number' || !Number.isFinite(v) || Number.isInteger(v)) return v;
  return Number(v.toPrecision(digits));
}

/** A copy of `value` (plain objects, arrays, numbers) with every float rounded. */
export function roundDeep(value, digits) {
  if (digits === 0) return value;
  if (typeof value === 'number') return roundNumber(value, digits);
  if (Array.isArray(value)) return value.map((v) => roundDeep(v, digits));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v, digits)]));
  return value;
}

/** The per-sample statistics, in column order; the fluid ones only in a scene with water. */
export const STAT_COLUMNS = ['stepMs', 'kineticEnergy', 'potentialEnergy', 'maxError', 'meanError', 'maxStretch'];
export const FLUID_COLUMNS = ['fluidParticles', 'meanDensity', 'maxDensity', 'densityError'];
const AXES = ['x', 'y', 'z', 'vx', 'vy', 'vz'];

/** CSV header: step, time, the statistics, then p<index>.x .. p<index>.vz for each tracked particle. */
export function csvColumns(hasFluid, tracked) {
  return ['step', 'time', ...STAT_COLUMNS, ...(hasFluid ? FLUID_COLUMNS : []), ...tracked.flatMap((i) => AXES.map((a) => `p${i}.${a}`))];
}

function csvField(v) {
  if (v === null || v === undefined) return ''; // no value (stepMs of step 0: nothing was stepped yet)
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line of a sample (see sampleOf in minipbd-run.mjs), its values already rounded. */
export function csvRow(sample, columns) {
  const flat = { ...sample };
  for (const t of sample.track ?? []) {
    AXES.forEach((a, k) => { flat[`p${t.particle}.${a}`] = k < 3 ? t.position[k] : t.velocity[k - 3]; });
  }
  return columns.map((c) => csvField(flat[c])).join(',');
}
