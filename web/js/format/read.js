// read.js — the readers the scene format is written with (format/scene.js, format/replay.js and each object
// type's module in objects/ use them): strict, bounded and naming the path of the first bad value.
//
// Input is untrusted (it arrives in share links), hence:
//   - only the known schema is walked (no generic recursion: deeply nested junk cannot blow the stack);
//   - only own data properties are read (Object.hasOwn + descriptors: no inherited values, no getters);
//   - "__proto__", "constructor" and "prototype" keys are refused (JSON.parse makes "__proto__" an own key);
//   - array lengths are checked before any loop over them (a sparse array of length 1e9 is refused at once);
//   - offending values are previewed with a bounded renderer, never a full JSON.stringify.

import { SCENE_LIMITS as L } from './limits.js';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A refused scene. `.path` locates the bad value ("" = the scene itself), the message quotes path, rule, value. */
export class SceneError extends Error {
  constructor(path, message) {
    super(message);
    this.name = 'SceneError';
    this.path = path;
  }
}

// ---------------------------------------------------------------- error helpers

function label(path) { return path === '' ? 'scene' : path; }

export function fail(path, rule, value) {
  throw new SceneError(path, `${label(path)} ${rule}, got ${showValue(value)}`);
}

/** Bounded preview of any value (<= 40 chars). Never walks more than a few levels / elements. */
export function showValue(value) {
  let s;
  try { s = preview(value, 0); } catch { s = Object.prototype.toString.call(value); }
  return s.length > 40 ? s.slice(0, 39) + '…' : s;
}

function preview(v, depth) {
  switch (typeof v) {
    case 'undefined': return 'undefined';
    case 'number': return Object.is(v, -0) ? '-0' : String(v);   // String keeps NaN/Infinity (JSON would say null)
    case 'bigint': return `${v}n`;
    case 'boolean': return String(v);
    case 'string': return JSON.stringify(v.length > 41 ? v.slice(0, 41) : v);
    case 'symbol': return 'Symbol';
    case 'function': return 'function';
  }
  if (v === null) return 'null';
  const isArray = Array.isArray(v);
  if (depth >= 3) return isArray ? '[…]' : '{…}';
  const parts = [];
  const keys = isArray ? null : Object.keys(v);
  const n = isArray ? v.length : keys.length;
  // Stop after a few entries: the output is cut to 40 chars anyway.
  for (let i = 0; i < n && i < 8; i++) {
    const k = isArray ? String(i) : keys[i];
    const d = Object.getOwnPropertyDescriptor(v, k);
    const item = d === undefined ? '' : ('value' in d ? preview(d.value, depth + 1) : 'getter');
    parts.push(isArray ? item : `${JSON.stringify(k.slice(0, 41))}:${item}`);
  }
  if (n > 8) parts.push('…');
  return isArray ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

export function join(path, key) {
  if (typeof key === 'number') return `${path}[${key}]`;
  const k = key.length > 40 ? key.slice(0, 40) + '…' : key;
  if (/^[A-Za-z_$][\w$]*$/.test(k)) return path === '' ? k : `${path}.${k}`;
  return `${path}[${JSON.stringify(k)}]`;
}

// ---------------------------------------------------------------- readers

/** Checks `value` is a plain record with only `allowed` own keys; returns a getter for own data values. */
export function record(value, path, allowed, what = 'an object') {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, `must be ${what}`, value);
  // Reflect.ownKeys also sees symbol and non-enumerable keys, which Object.keys would silently skip.
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') fail(path, 'must not have symbol keys', value);
    const p = join(path, key);
    if (FORBIDDEN_KEYS.has(key)) throw new SceneError(p, `forbidden key ${p} (keys named __proto__, constructor or prototype are refused)`);
    if (!allowed.includes(key)) throw new SceneError(p, unknownKeyMessage(p, key, allowed));
    if (!('value' in Object.getOwnPropertyDescriptor(value, key))) fail(p, 'must be a plain value, not a getter', undefined);
  }
  return (key) => (Object.hasOwn(value, key) ? value[key] : undefined);
}

/** A key's own data value in an object, read before the object's keys are checked (an object's type chooses which
 *  keys it may have); undefined when `value` is not an object or has no such data property. */
export function peek(value, key) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
  const d = Object.getOwnPropertyDescriptor(value, key);
  return 'value' in d ? d.value : undefined;
}

/** "unknown key objects[0].resolutoin (did you mean "resolution"? allowed here: …)": a suggestion only when one
 *  allowed key is close, so a typo is named and a stranger's key is not dressed up as one. */
export function unknownKeyMessage(path, key, allowed) {
  const near = closestKey(key, allowed);
  const hint = near === null ? '' : `did you mean ${JSON.stringify(near)}? `;
  return `unknown key ${path} (${hint}allowed here: ${allowed.join(', ')})`;
}

/** The allowed key nearest `key` by edit distance (a swap of neighbours counts one edit; case is ignored, then
 *  breaks ties), or null when none is within a third of the key's length (at most 2 edits): "nam" -> "name",
 *  "foo" -> nothing. Keys longer than 64 characters are nobody's typo. */
export function closestKey(key, allowed) {
  if (key.length > 64) return null;
  const limit = Math.min(2, Math.max(1, Math.floor(key.length / 3)));
  let best = null, bestScore = Infinity;
  for (const candidate of allowed) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d > limit) continue;
    const score = d * 2 + (editDistance(key, candidate) > d ? 1 : 0);
    if (score < bestScore) { best = candidate; bestScore = score; }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours. */
export function editDistance(a, b) {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
    }
  }
  return rows[a.length][b.length];
}

/** Checks `value` is an array with length in [min, max]; returns its elements (own data values only). */
export function array(value, path, min, max, what) {
  if (!Array.isArray(value)) fail(path, `must be ${what}`, value);
  if (value.length < min || value.length > max) fail(path, `must be ${what}`, value);
  const out = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const d = Object.getOwnPropertyDescriptor(value, i);   // undefined for holes in sparse arrays
    if (d === undefined || !('value' in d)) fail(join(path, i), 'must be present (no holes or getters)', undefined);
    out[i] = d.value;
  }
  return out;
}

function fmtRange(min, max, minExcl, maxExcl) {
  return `${minExcl ? '(' : '['}${min}, ${max}${maxExcl ? ')' : ']'}`;
}

/** Finite number in a range; -0 becomes 0 so JSON round trips are exact. */
export function number(value, path, min, max, { minExcl = false, maxExcl = false } = {}) {
  const ok = typeof value === 'number' && Number.isFinite(value)
    && (minExcl ? value > min : value >= min) && (maxExcl ? value < max : value <= max);
  if (!ok) fail(path, `must be a number in ${fmtRange(min, max, minExcl, maxExcl)}`, value);
  return value + 0;
}

export function finite(value, path) {
  if (!(typeof value === 'number' && Number.isFinite(value))) fail(path, 'must be a finite number', value);
  return value + 0;
}

export function integer(value, path, min, max) {
  if (!(Number.isInteger(value) && value >= min && value <= max)) fail(path, `must be an integer in ${min}..${max}`, value);
  return value + 0;
}

export function optional(value, fallback, read) { return value === undefined ? fallback : read(value); }

export function vec(value, path, n, min, max, opts) {
  const items = array(value, path, n, n, `an array of ${n} numbers`);
  return items.map((v, i) => number(v, join(path, i), min, max, opts));
}

export function coord3(value, path) { return vec(value, path, 3, -L.maxCoord, L.maxCoord); }

/** A rotation [x, y, z, w]: four numbers, not all (nearly) zero; the engine normalises it. */
export function quaternion(value, path) {
  const q = vec(value, path, 4, -1e4, 1e4);
  if (Math.hypot(...q) < 1e-6) fail(path, 'must be a non-zero quaternion [x, y, z, w]', q);
  return q;
}

// Lone surrogates cannot be encoded as UTF-8 (TextEncoder would turn them into U+FFFD, breaking link round
// trips); control characters have no business in a one-line title.
const BAD_NAME_CHARS = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function name(value, path) {
  if (typeof value !== 'string' || value.length > L.maxNameLength) fail(path, `must be a string of at most ${L.maxNameLength} characters`, value);
  if (BAD_NAME_CHARS.test(value)) fail(path, 'must not contain control characters or unpaired surrogates', value);
  return value;
}

/** A scene value of engine parameter `p` (a row of the table): true/false, an integer or a number in its range. */
export function paramValue(p, value, path) {
  if (p.boolean) return boolean(value, path);
  if (p.integer) return integer(value, path, p.min, p.max);
  return number(value, path, p.min, p.max);
}

export function boolean(v, path) {
  if (typeof v !== 'boolean') fail(path, 'must be true or false', v);
  return v;
}

/** A colour as a scene writes it: sRGB '#rrggbb' (how it is drawn only). */
export function colour(value, path) {
  if (typeof value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(value)) fail(path, 'must be a colour "#rrggbb"', value);
  return value.toLowerCase();
}

export function mass(value, path) { return number(value, path, 0, L.maxMass, { minExcl: true }); }

export function required(get, key, path) {
  const v = get(key);
  if (v === undefined) throw new SceneError(join(path, key), `${join(path, key)} is required`);
  return v;
}

export function structuredCopy(v) { return JSON.parse(JSON.stringify(v)); }

export function deepFreeze(v) {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze(v[k]);
  }
  return v;
}
