// attrs.js — the model-viewer-like attributes of <minipbd-scene> (element.js): camera-orbit, camera-target,
// field-of-view, poster, loading, controls and alt. Parsing and checking only (no DOM), so the demo's
// "Copy embed code" (panel/share.js, app/main.js) writes the camera with the same functions the element reads it
// with, and Node can test them.
//
// Every parser returns { value } or { error } (a sentence naming the attribute, what was given and what is
// accepted): a refused value never throws inside the element; it says why on the console and the element
// behaves as if the attribute were absent.
//
// Camera: render/camera.js orbits `target` at `distance`, turned by yaw around +Y and raised by pitch. In
// model-viewer's terms (its spherical coordinates, which these attributes copy):
//   camera-orbit="θ φ r": θ = yaw (the azimuth: 0 looks down -Z from +Z), φ = the polar angle from straight up
//     (0 = looking straight down, 90deg = level, so φ = 90° − pitch), r = the distance to the target.
//     Angles take deg or rad (a bare number is radians, as in model-viewer); r takes m, cm or mm (bare: m).
//   camera-target="x y z": the point orbited, in m, cm or mm (bare: m).
//   field-of-view="45deg": the vertical field of view (deg or rad).
// Any component may be `auto`: the scene's own value for it.

import { DEFAULT_CAMERA } from '../render/camera.js';

const MAX_LEN = 200; // an attribute longer than this is refused unread (and never echoed whole)
/** The camera's own limits (render/camera.js): pitch within ±1.5 rad, so φ within these. */
export const MIN_PHI = Math.PI / 2 - 1.5;
export const MAX_PHI = Math.PI / 2 + 1.5;
export const MAX_RADIUS = 1e4;
export const MIN_RADIUS = 0.05;
export const MAX_COORD = 1e4;
export const MIN_FOV_DEG = 10;
export const MAX_FOV_DEG = 120;

const DEG = Math.PI / 180;
const NUM = '([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:e[+-]?\\d+)?)';
const ANGLE = new RegExp(`^${NUM}(deg|rad)?$`, 'i');
const LENGTH = new RegExp(`^${NUM}(m|cm|mm)?$`, 'i');
const LENGTH_SCALE = { m: 1, cm: 0.01, mm: 0.001 };

/** A value as a message may show it: quoted, cut short. */
function shown(value) {
  const s = String(value);
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

function angle(token) {
  if (token === 'auto') return null;
  const m = ANGLE.exec(token);
  if (!m) return undefined;
  const v = Number(m[1]) * ((m[2] ?? 'rad').toLowerCase() === 'deg' ? DEG : 1);
  return Number.isFinite(v) ? v : undefined;
}

function length(token) {
  if (token === 'auto') return null;
  const m = LENGTH.exec(token);
  if (!m) return undefined;
  const v = Number(m[1]) * LENGTH_SCALE[(m[2] ?? 'm').toLowerCase()];
  return Number.isFinite(v) ? v : undefined;
}

function tokens(name, value, n, what) {
  const s = String(value).trim();
  if (s.length > MAX_LEN) return { error: `${name} is ${s.length} characters long; it takes ${what}` };
  const parts = s.split(/\s+/).filter(Boolean);
  if (parts.length !== n) return { error: `${name}=${shown(value)} needs ${n} values (${what}), got ${parts.length}` };
  return { parts: parts.map((p) => p.toLowerCase()) };
}

/** camera-orbit="θ φ r" -> { value: { theta, phi, radius } } in radians and metres (null: auto), or { error }. */
export function parseCameraOrbit(value) {
  const name = 'camera-orbit';
  const what = 'θ φ r: two angles in deg or rad and a distance in m, cm or mm, or auto';
  const t = tokens(name, value, 3, what);
  if (t.error) return t;
  const [theta, phi, radius] = [angle(t.parts[0]), angle(t.parts[1]), length(t.parts[2])];
  if (theta === undefined) return { error: `${name}: θ ${shown(t.parts[0])} is not an angle (e.g. 30deg, 0.5rad, auto)` };
  if (phi === undefined) return { error: `${name}: φ ${shown(t.parts[1])} is not an angle (e.g. 75deg, 1.3rad, auto)` };
  if (radius === undefined) return { error: `${name}: r ${shown(t.parts[2])} is not a distance (e.g. 4m, 250cm, auto)` };
  if (phi !== null && (phi < MIN_PHI - 1e-9 || phi > MAX_PHI + 1e-9)) {
    return { error: `${name}: φ must be within ${(MIN_PHI / DEG).toFixed(1)}deg..${(MAX_PHI / DEG).toFixed(1)}deg (0 is straight down, 90deg level), got ${shown(t.parts[1])}` };
  }
  if (radius !== null && (radius < MIN_RADIUS || radius > MAX_RADIUS)) {
    return { error: `${name}: r must be within ${MIN_RADIUS}m..${MAX_RADIUS}m, got ${shown(t.parts[2])}` };
  }
  return { value: { theta, phi, radius } };
}

/** camera-target="x y z" -> { value: { x, y, z } } in metres (null: auto), or { error }. */
export function parseCameraTarget(value) {
  const name = 'camera-target';
  const t = tokens(name, value, 3, 'x y z in m, cm or mm, or auto');
  if (t.error) return t;
  const out = {};
  for (const [k, token] of [['x', t.parts[0]], ['y', t.parts[1]], ['z', t.parts[2]]]) {
    const v = length(token);
    if (v === undefined) return { error: `${name}: ${k} ${shown(token)} is not a distance (e.g. 1.2m, 50cm, auto)` };
    if (v !== null && Math.abs(v) > MAX_COORD) return { error: `${name}: ${k} must be within ±${MAX_COORD}m, got ${shown(token)}` };
    out[k] = v;
  }
  return { value: out };
}

/** field-of-view="45deg" -> { value: degrees (null: auto) } or { error }. */
export function parseFieldOfView(value) {
  const name = 'field-of-view';
  const t = tokens(name, value, 1, 'an angle in deg or rad, or auto');
  if (t.error) return t;
  const v = angle(t.parts[0]);
  if (v === undefined) return { error: `${name}: ${shown(t.parts[0])} is not an angle (e.g. 45deg, auto)` };
  if (v === null) return { value: null };
  const deg = v / DEG;
  if (deg < MIN_FOV_DEG || deg > MAX_FOV_DEG) return { error: `${name} must be within ${MIN_FOV_DEG}deg..${MAX_FOV_DEG}deg, got ${shown(t.parts[0])}` };
  return { value: deg };
}

/** The scene camera block `base` (DEFAULT_CAMERA's fields) with the attributes' values put over it; `orbit`,
 *  `target`, `fov` are the parsers' values or null (absent or refused). */
export function cameraWith(base, { orbit = null, target = null, fov = null } = {}) {
  const cam = { ...DEFAULT_CAMERA, ...(base ?? {}) };
  cam.target = [...cam.target];
  if (orbit) {
    if (orbit.theta !== null) cam.yaw = orbit.theta;
    if (orbit.phi !== null) cam.pitch = Math.PI / 2 - orbit.phi;
    if (orbit.radius !== null) cam.distance = orbit.radius;
  }
  if (target) ['x', 'y', 'z'].forEach((k, i) => { if (target[k] !== null) cam.target[i] = target[k]; });
  if (fov !== null) cam.fov = fov;
  return cam;
}

/** The orbit of a camera (OrbitCamera or a scene camera block): { theta, phi, radius } in radians and metres,
 *  θ wrapped into (-π, π] (orbiting winds yaw up). */
export function orbitOf(cam) {
  return { theta: Math.atan2(Math.sin(cam.yaw), Math.cos(cam.yaw)), phi: Math.PI / 2 - cam.pitch, radius: cam.distance };
}

const fixed = (v, digits) => String(Number(v.toFixed(digits))); // no trailing zeros, no "-0"
const clean = (v, digits) => fixed(Object.is(Number(v.toFixed(digits)), -0) ? 0 : v, digits);

/** camera-orbit's text for a camera (the demo's "Copy embed code"): degrees to 0.01, metres to 1 mm. */
export function formatCameraOrbit(cam) {
  const o = orbitOf(cam);
  return `${clean(o.theta / DEG, 2)}deg ${clean(o.phi / DEG, 2)}deg ${clean(o.radius, 3)}m`;
}

/** camera-target's text for a camera: metres to 1 mm. */
export function formatCameraTarget(cam) {
  return cam.target.map((v) => `${clean(v, 3)}m`).join(' ');
}

/** field-of-view's text for a camera. */
export function formatFieldOfView(cam) { return `${clean(cam.fov, 2)}deg`; }

/** poster: an image URL. Accepted: http(s), a relative URL (resolved against `base`), or data:image/…; refused:
 *  every other scheme (javascript:, data:text/html, blob:, file:…). -> { value: absolute URL } or { error }. */
export function parsePosterUrl(value, base) {
  const s = String(value).trim();
  if (s === '') return { value: null };
  if (s.length > 65536) return { error: `poster is ${s.length} characters long; at most 65536` };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    try {
      return { value: new URL(s, base).href };
    } catch {
      return { error: `poster=${shown(s)} is not a URL` };
    }
  }
  if (scheme === 'data') {
    return /^data:image\/[a-z0-9.+-]+[;,]/i.test(s) ? { value: s } : { error: 'poster: a data: URL must be an image (data:image/…)' };
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return { error: `poster: the scheme "${scheme.slice(0, 20)}:" is not allowed (http, https, a relative URL or data:image/… only)` };
  }
  try {
    return { value: new URL(s).href };
  } catch {
    return { error: `poster=${shown(s)} is not a URL` };
  }
}

/** loading: "auto" (default), "lazy" or "eager". */
export function parseLoading(value) {
  if (value === null) return { value: 'auto' };
  const s = String(value).trim().toLowerCase();
  if (s === '' || s === 'auto' || s === 'lazy' || s === 'eager') return { value: s || 'auto' };
  return { error: `loading=${shown(value)} is not one of auto, lazy, eager` };
}

/** controls: "auto" (default: the play button, and grabbing/orbiting on the canvas) or "none". */
export function parseControls(value) {
  if (value === null) return { value: 'auto' };
  const s = String(value).trim().toLowerCase();
  if (s === '' || s === 'auto' || s === 'none') return { value: s || 'auto' };
  return { error: `controls=${shown(value)} is not one of auto, none` };
}

/** An attribute value put in HTML between double quotes (the demo's embed code): nothing in it can end the
 *  attribute or open a tag. */
export function htmlAttr(value) {
  return String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
