// args.js — the checks every World entry point applies to its arguments before anything reaches the engine.
// wasm takes any JS value and converts it: NaN becomes particle 0, 45.9
// becomes 45, "45" becomes 45, 2^32 + 45 becomes 45, true becomes 1. So in JS an index must be a number that is
// an integer in range, and a quantity a finite number of type number (no strings, booleans, BigInts, objects).
// A refusal is a MiniPBDError (code 'argument') whose message names the call, the argument and what was wrong,
// and it comes before any change: the world, its hash and its description stay as they were.

/** Thrown for refused calls; `.code` names the kind, the message names what is wrong. */
export class MiniPBDError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'MiniPBDError';
    this.code = code;
  }
}

/** A bounded preview of an argument for messages: 45.9, "0.5", true, 10n, NaN, an array of 2, an object. */
export function showArg(v) {
  if (typeof v === 'string') return JSON.stringify(v.length > 24 ? `${v.slice(0, 24)}…` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'boolean' || v === undefined || v === null) return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of ${v.length}`;
  return typeof v === 'function' ? 'a function' : 'an object';
}

const refuse = (call, message) => {
  throw new MiniPBDError('argument', `${call}: ${message}`);
};

/** An index into `count` things: a number that is an integer in 0..count-1. */
export function argIndex(call, what, value, count) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < count) return value;
  if (count <= 0) refuse(call, `${what} must be an index, but there is none; got ${showArg(value)}`);
  return refuse(call, `${what} must be an integer in 0..${count - 1}, got ${showArg(value)}`);
}

/** A handle the engine gave out (an attachment id): a positive int32. Whether it is still valid, C checks. */
export function argHandle(call, what, value) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 0x7fffffff) return value;
  return refuse(call, `${what} must be an id this world returned (a positive integer), got ${showArg(value)}`);
}

/** A finite number of type number, optionally within [min, max]. */
export function argNumber(call, what, value, min = -Infinity, max = Infinity) {
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return refuse(call, `${what} must be in [${min}, ${max}], got ${showArg(value)}`);
  return refuse(call, `${what} must be a finite number, got ${showArg(value)}`);
}

/** A whole count in [min, max]. */
export function argCount(call, what, value, min, max) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  return refuse(call, `${what} must be an integer in ${min}..${max}, got ${showArg(value)}`);
}

/** n finite numbers (an array or a typed array), read once: [x, y, z] for n = 3, a quaternion for n = 4. */
export function argVector(call, what, value, n) {
  const shape = n === 3 ? '[x, y, z]' : '[x, y, z, w]';
  if (!Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView))) {
    refuse(call, `${what} must be ${shape}, got ${showArg(value)}`);
  }
  if (value.length !== n) refuse(call, `${what} must be ${shape}: ${n === 3 ? 'three' : 'four'} numbers, got ${showArg(value)}`);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = value[i];
    if (!(typeof v === 'number' && Number.isFinite(v))) refuse(call, `${what}[${i}] must be a finite number, got ${showArg(v)}`);
    out[i] = v;
  }
  return out;
}

export const argVec3 = (call, what, value) => argVector(call, what, value, 3);
export const argQuat = (call, what, value) => argVector(call, what, value, 4);

/** A plain object with only `allowed` own keys (an options bag such as a collider material). */
export function argRecord(call, what, value, allowed) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(call, `${what} must be an object, got ${showArg(value)}`);
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string' || !allowed.includes(key)) {
      refuse(call, `${what} has an unknown key ${showArg(String(key))} (allowed: ${allowed.join(', ')})`);
    }
  }
  return value;
}

/** The mass range of one particle (pbd_World_SetMass), kg: checked here too, so a refusal names the call. */
export const PARTICLE_MASS = Object.freeze({ min: 1e-6, max: 1e6 });
/** An attachment's stiffness (pbd_World_AddAttachment). */
export const ATTACHMENT_STIFFNESS = Object.freeze({ min: 0, max: 1 });
/** Steps one World.step call may take. */
export const MAX_STEPS_PER_CALL = 100000;
