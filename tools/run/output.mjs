// output.mjs — what minipbd-run prints: floats rounded to a number of significant digits and samples as JSON
// entries or CSV rows, by the rules the page's CSV follows too (web/js/format/csv.js).

import { csvField } from './web.mjs';

export { DEFAULT_DIGITS, roundNumber, roundDeep, csvField } from './web.mjs';

/** The per-sample statistics, in column order; the fluid ones only in a scene with water. */
export const STAT_COLUMNS = ['stepMs', 'kineticEnergy', 'potentialEnergy', 'maxError', 'meanError', 'maxStretch'];
export const FLUID_COLUMNS = ['fluidParticles', 'meanDensity', 'maxDensity', 'densityError'];
const AXES = ['x', 'y', 'z', 'vx', 'vy', 'vz'];

/** CSV header: step, time, the statistics, then p<index>.x .. p<index>.vz for each tracked particle. */
export function csvColumns(hasFluid, tracked) {
  return ['step', 'time', ...STAT_COLUMNS, ...(hasFluid ? FLUID_COLUMNS : []), ...tracked.flatMap((i) => AXES.map((a) => `p${i}.${a}`))];
}

/** One CSV line of a sample (see sampleOf in minipbd-run.mjs), its values already rounded. */
export function csvRow(sample, columns) {
  const flat = { ...sample };
  for (const t of sample.track ?? []) {
    AXES.forEach((a, k) => { flat[`p${t.particle}.${a}`] = k < 3 ? t.position[k] : t.velocity[k - 3]; });
  }
  return columns.map((c) => csvField(flat[c])).join(',');
}
