// csv.js — numbers and tables as MiniPBD writes them, one set of rules for the command line (tools/run/output.mjs:
// minipbd-run --format csv, --digits) and the page (the plots' Export CSV, panel/plots.js): floats rounded to a
// number of significant digits (the engine computes in float32, so 0.016666668 arrives as the double
// 0.01666666753590107: its last 10 digits are noise), tables as RFC 4180 CSV (comma-separated, a header row, "\n"
// lines, fields quoted only when they hold a comma, a quote or a line break).

/** Significant digits by default: float32 holds 6 to 9, and the 7th onwards of a sum of them is mostly noise. */
export const DEFAULT_DIGITS = 6;

/** v rounded to `digits` significant digits (0: the raw double). Whole numbers (steps, counts, hashes) are exact
 *  already and stay as they are, however many digits they have. */
export function roundNumber(v, digits = DEFAULT_DIGITS) {
  if (digits === 0 || typeof v !== 'number' || !Number.isFinite(v) || Number.isInteger(v)) return v;
  return Number(v.toPrecision(digits));
}

/** A copy of `value` (plain objects, arrays, numbers) with every float rounded. */
export function roundDeep(value, digits = DEFAULT_DIGITS) {
  if (digits === 0) return value;
  if (typeof value === 'number') return roundNumber(value, digits);
  if (Array.isArray(value)) return value.map((v) => roundDeep(v, digits));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v, digits)]));
  return value;
}

/** One CSV field: empty for no value (null, undefined, and NaN or an infinity, which a spreadsheet cannot read),
 *  quoted only when it must be. */
export function csvField(v) {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A whole table: the header `columns`, then `rows` (arrays of values, floats rounded to `digits`; 0: exact). */
export function csvTable(columns, rows, digits = DEFAULT_DIGITS) {
  const line = (values) => values.map((v) => csvField(roundNumber(v, digits))).join(',');
  return [line(columns), ...rows.map(line)].join('\n') + '\n';
}
