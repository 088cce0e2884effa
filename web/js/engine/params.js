// params.js — everything the page knows about the engine's parameters, built from the one table
// (param-table.js, generated from src/minipbd.h PBD_PARAMS): lookup by name, the check World.setParam and the
// replay format apply, and the places parameters have in a scene description. No limit or default is written
// here or anywhere else in web/js (one parameter table): the scene format's parameter sections (format/scene.js:
// every first part of a place no object type claims), the link codec's defaults (it asks the validator), the replay's parameter events
// (format/replay.js), the panel's sliders (panel/controls.js) and the object types' stiffness (objects/) all
// read them from here.

import { PARAM_TABLE, ENGINE_LIMITS } from './param-table.js';

/** A particle's contact radius is at most this many spacings of its object's particles (src/minipbd.h
 *  PBD_MAX_RADIUS_SPACINGS): a body's particleRadius, thickness / 2 for every chain and cloth. */
const MAX_RADIUS_SPACINGS = ENGINE_LIMITS.maxRadiusSpacings;

export { PARAM_TABLE, ENGINE_LIMITS, MAX_RADIUS_SPACINGS };

/** name -> row ({ id, name, default, min, max, integer, boolean, unit, owner, scene }). */
export const PARAMS = Object.freeze(Object.fromEntries(PARAM_TABLE.map((p) => [p.name, p])));

/** Parameter names in C order. */
export const PARAM_NAMES = Object.freeze(PARAM_TABLE.map((p) => p.name));

/** The row of `name`, or undefined (never an inherited property). */
export function paramInfo(name) {
  return typeof name === 'string' && Object.hasOwn(PARAMS, name) ? PARAMS[name] : undefined;
}

/** The rule a value of `p` must follow, in words: "an integer in 1..64", "0 or 1", "a number in [0, 100]". */
export function paramRule(p) {
  if (p.boolean) return '0 or 1';
  if (p.integer) return `an integer in ${p.min}..${p.max}`;
  return `a number in [${p.min}, ${p.max}]`;
}

/** True when `value` is a value parameter `p` takes: a finite number of type number within its range, whole if
 *  the parameter is. The engine (pbd_World_SetParam) takes every such value; JS accepts no other. */
export function paramAccepts(p, value) {
  return typeof value === 'number' && Number.isFinite(value) && value >= p.min && value <= p.max
    && (!p.integer || Number.isInteger(value));
}

// ---------------------------------------------------------------- places in a scene description
//
// A parameter's scene place is a dotted path: "solver.dt", "ground.enabled", "solver.gravity.1" (a component of
// a vector), or "<object type>.<path>" ("cloth.stiffness.stretch", "chain.stiffness"): that field of every
// object of that type. A boolean parameter is a JSON boolean in the scene and 0 or 1 in the engine.

/** Whether place head `head` names a section of a normalised `scene` (format/scene.js makes one of every head of
 *  the table but the object types' parameter fields, objects/ `params` rows); else it names an object type. "fluid"
 *  is both a section and an object type: the fluid object has no parameter field, so "fluid.…" is the section's. */
export const isSection = (scene, head) => Object.hasOwn(scene, head);

/** "solver.gravity.1" -> { head: 'solver', key: 'gravity', index: 1, rest: ['gravity', 1] }. */
export function parsePlace(place) {
  const parts = place.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const [head, ...rest] = parts;
  const last = rest[rest.length - 1];
  return { head, key: rest[0], index: typeof last === 'number' ? last : null, rest };
}

/** Parameters with a place in the scene format (every one but the instruments, e.g. recordConvergence). */
export const SCENE_PARAMS = Object.freeze(PARAM_TABLE.filter((p) => p.scene !== ''));

/**
 * The fields of scene section `head` ('solver', 'ground', 'wind', 'fluid') or of object type `head` (objects/), in table
 * order: [{ key, params: [row] }] for a number or boolean, [{ key, params: [row, row, row] }] for a vector whose
 * components are parameters ("solver.gravity.0..2"). `key` may be a dotted path inside the object
 * ('stiffness.stretch').
 */
export function placeFields(head) {
  const fields = [];
  for (const p of SCENE_PARAMS) {
    const place = parsePlace(p.scene);
    if (place.head !== head) continue;
    const path = place.rest.filter((s) => typeof s === 'string').join('.');
    let field = fields.find((f) => f.key === path);
    if (!field) fields.push((field = { key: path, params: [] }));
    if (place.index === null) field.params = [p];
    else field.params[place.index] = p;
  }
  return fields;
}

/** The value a field of `placeFields` has when a scene leaves it out: from the table's defaults. */
export function fieldDefault(field) {
  const value = (p) => (p.boolean ? p.default !== 0 : p.default);
  return field.params.length === 1 && parsePlace(field.params[0].scene).index === null
    ? value(field.params[0]) : field.params.map(value);
}

/** The engine value (a number) of parameter `p` in a holder (a scene section or an object). */
function readIn(holder, rest, p) {
  let v = holder;
  for (const k of rest) v = v?.[k];
  return p.boolean ? (v ? 1 : 0) : v;
}

function writeIn(holder, rest, p, value) {
  let h = holder;
  for (const k of rest.slice(0, -1)) h = h[k];
  h[rest[rest.length - 1]] = p.boolean ? value !== 0 : value;
}

/**
 * The engine value of parameter `p` in a normalised scene: its section's field, or for an object type's field
 * the value of the objects of that type when they all agree (undefined when they differ or there is none).
 */
export function sceneParamValue(scene, p) {
  const { head, rest } = parsePlace(p.scene);
  if (isSection(scene, head)) return readIn(scene[head], rest, p);
  const values = scene.objects.filter((o) => o.type === head).map((o) => readIn(o, rest, p));
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : undefined;
}

/** The first object's value of an object-type parameter, or the section value (the panel shows one value). */
export function sceneParamShown(scene, p) {
  const { head, rest } = parsePlace(p.scene);
  if (isSection(scene, head)) return readIn(scene[head], rest, p);
  const o = scene.objects.find((x) => x.type === head);
  return o ? readIn(o, rest, p) : undefined;
}

/** Writes engine value `value` of parameter `p` into a normalised scene (every object of the type, for an
 *  object-type parameter), so the description follows World.setParam. */
export function writeSceneParam(scene, p, value) {
  if (p.scene === '') return;
  const { head, rest } = parsePlace(p.scene);
  if (isSection(scene, head)) writeIn(scene[head], rest, p, value);
  else for (const o of scene.objects) if (o.type === head) writeIn(o, rest, p, value);
}

// ---------------------------------------------------------------- the fluid's smoothing radius
//
// The smoothing radius h of Position Based Fluids (seed 002) is a multiple of the particle spacing d: below d a
// particle has no neighbour at rest (the density constraint sees only itself), past 4d each particle has
// hundreds and the step slows to a crawl. The engine clamps h into [d, 4d] (docs/fluids.md); the scene format,
// World.setParam and the replay refuse a pair outside it, so a description always says what the engine uses.

/** The range of fluid.smoothingRadius / fluid.spacing a scene may hold. */
export const FLUID_RATIO = Object.freeze({ min: 1, max: 4 });

/** The message when the pair (spacing d, smoothing radius h) is outside FLUID_RATIO, else null. */
export function fluidRatioProblem(spacing, smoothingRadius) {
  const r = smoothingRadius / spacing;
  if (r >= FLUID_RATIO.min && r <= FLUID_RATIO.max) return null;
  return `fluid.smoothingRadius must be ${FLUID_RATIO.min} to ${FLUID_RATIO.max} times fluid.spacing, got ${smoothingRadius} with fluid.spacing ${spacing}`;
}

/** A float32 in few digits, for a message. */
const short = (x) => Number(x.toPrecision(4));

/**
 * null when a contact radius, or a thickness (a diameter: `thickness` true), is within MAX_RADIUS_SPACINGS spacings of
 * particles `spacing` m apart (src/minipbd.h PBD_MAX_RADIUS_SPACINGS); else what a message needs: { spacings, spacing,
 * limit, why }. Compared in float32 as the engine does (the factor is a power of two, so the limit is exact).
 */
export function radiusSpacingProblem(value, spacing, thickness) {
  const spacings = thickness ? 2 * MAX_RADIUS_SPACINGS : MAX_RADIUS_SPACINGS;
  const limit = Math.fround(spacings * spacing);
  if (Math.fround(value) <= limit) return null;
  return { spacings, spacing: short(spacing), limit: short(limit), why: `a contact radius reaches at most ${MAX_RADIUS_SPACINGS} particle spacings` };
}
