// Types of format/csv.js: numbers and CSV tables as minipbd-run and the page's plots write them.

/** Significant digits by default (6). */
export const DEFAULT_DIGITS: number;
/** v rounded to `digits` significant digits (0: as it is); whole numbers and non-numbers are returned as they are. */
export function roundNumber<T>(v: T, digits?: number): T;
/** A copy of `value` with every float rounded. */
export function roundDeep<T>(value: T, digits?: number): T;
/** One CSV field: '' for null, undefined and non-finite numbers; quoted only when it must be. */
export function csvField(v: unknown): string;
/** A header row and `rows`, floats rounded to `digits` (0: exact), "\n" lines with a final newline. */
export function csvTable(columns: readonly string[], rows: readonly (readonly unknown[])[], digits?: number): string;
