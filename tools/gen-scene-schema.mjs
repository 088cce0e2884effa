#!/usr/bin/env node
// gen-scene-schema.mjs — writes web/scene.schema.json, the scene format ("minipbd-scene", docs/scene-format.md) as
// a JSON Schema (draft 2020-12), from the validator's own tables: the scene's keys and defaults
// (format/scene.js SCENE_TABLES), its limits (format/limits.js SCENE_LIMITS), the engine's parameter table for the
// solver, ground, wind and fluid sections and the stiffnesses (engine/params.js placeFields), and each object
// type's keys (objects/: type.keys, the bodies' SHAPES and SHAPE_KEYS, the fluid's EMITTER_KEYS).
//
// Usage: node tools/gen-scene-schema.mjs [out]    (default web/scene.schema.json; tests/node/schema.test.mjs
//        fails when the committed file is not what this writes now)
//
// What a schema cannot say (one value checked against another: the particle budget, a pin inside its grid, the
// fluid's smoothing radius against its spacing, an OBJ text that parses…) is left to the validator; the schema
// test lists those rules by name. The schema accepts no less than the validator: every scene the validator takes
// passes it.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_RADIUS_SPACINGS, placeFields, fieldDefault } from '../web/js/engine/params.js';
import { SCENE_LIMITS as L } from '../web/js/format/limits.js';
import { SCENE_TABLES as T } from '../web/js/format/scene.js';
import { MASS_RANGE_KEYS } from '../web/js/format/read.js';
import { OBJECT_TYPES } from '../web/js/objects/index.js';
import { BODY_DEFAULTS, BODY_KEYS, SHAPES, SHAPE_KEYS } from '../web/js/objects/body-common.js';
import { EMITTER_DEFAULTS, EMITTER_KEYS } from '../web/js/objects/fluid.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- building blocks (format/read.js's readers)

const num = (min, max, { minExcl = false, maxExcl = false } = {}) => ({
  type: 'number', [minExcl ? 'exclusiveMinimum' : 'minimum']: min, [maxExcl ? 'exclusiveMaximum' : 'maximum']: max,
});
const int = (min, max) => ({ type: 'integer', minimum: min, maximum: max });
const tuple = (item, n) => ({ type: 'array', prefixItems: Array(n).fill(item), items: false, minItems: n, maxItems: n });
const vec = (n, min, max, opts) => tuple(num(min, max, opts), n);
// Shared pieces are written once, under $defs, and referred to.
const DEFS = {};
const def = (key, make) => () => { DEFS[key] ??= make(); return { $ref: `#/$defs/${key}` }; };
const coord3 = def('coord3', () => vec(3, -L.maxCoord, L.maxCoord));
const list = (items, max, min = 0) => ({ type: 'array', items, ...(min > 0 ? { minItems: min } : {}), maxItems: max });
const mass = def('mass', () => num(0, L.maxMass, { minExcl: true }));
const quaternion = def('quaternion', () => vec(4, -1e4, 1e4)); // read.js vec(…, 4, -1e4, 1e4); non-zero: the validator's
// read.js name(): at most maxNameLength, no control characters or unpaired surrogates (with the "u" flag a lone
// surrogate is a code point of its own, a pair is one astral code point).
const nameSchema = def('name', () => ({ type: 'string', maxLength: L.maxNameLength, pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$' }));

/** A record with exactly `keys` (each must have a schema in `props`, and nothing else: a key the validator allows
 *  without a schema, or the reverse, stops the generator). */
function record(keys, props, required = [], where = '') {
  const have = Object.keys(props);
  const missing = keys.filter((k) => !have.includes(k));
  const extra = have.filter((k) => !keys.includes(k));
  if (missing.length || extra.length) {
    throw new Error(`gen-scene-schema: ${where}: keys without a schema: [${missing}], schemas of no key: [${extra}]`);
  }
  return {
    type: 'object',
    properties: Object.fromEntries(keys.map((k) => [k, props[k]])),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** What a parameter's range does not say (a JSON Schema holds no rule between two values; the validator checks it):
 *  the contact radius's bound (src/minipbd.h PBD_MAX_RADIUS_SPACINGS). */
const RELATIONS = {
  thickness: `at most ${2 * MAX_RADIUS_SPACINGS} times the particle spacing of every chain (a segment) and cloth (its finer grid step): `
    + `a contact radius reaches at most ${MAX_RADIUS_SPACINGS} particle spacings`,
};

/** One engine parameter's value (read.js paramValue): a boolean, an integer or a number in the table's range. */
function param(p) {
  const base = p.boolean ? { type: 'boolean' } : p.integer ? int(p.min, p.max) : num(p.min, p.max);
  const rule = RELATIONS[p.name] ? `; ${RELATIONS[p.name]}` : '';
  return { ...base, description: `engine parameter ${p.name}${p.unit && p.unit !== '1' ? ` (${p.unit})` : ''}${rule}` };
}

/** A section of parameter fields (format/scene.js paramSection): dotted keys are sub-records. */
function paramSection(fields, where) {
  const props = {};
  const subs = new Map();
  for (const f of fields) {
    const dot = f.key.indexOf('.');
    if (dot >= 0) {
      const head = f.key.slice(0, dot);
      if (!subs.has(head)) subs.set(head, []);
      subs.get(head).push({ ...f, key: f.key.slice(dot + 1) });
      continue;
    }
    const vector = f.params.length > 1 || /\.\d+$/.test(f.params[0].scene);
    props[f.key] = vector
      ? { type: 'array', prefixItems: f.params.map(param), items: false, minItems: f.params.length, maxItems: f.params.length }
      : param(f.params[0]);
    props[f.key].default = fieldDefault(f);
  }
  for (const [head, sub] of subs) props[head] = paramSection(sub, `${where}.${head}`);
  return record(Object.keys(props), props, [], where);
}

/** An object type's parameter fields (its stiffness): `stiffness` a number, or a record of its kinds. */
function typeParams(type) {
  const section = paramSection(placeFields(type), type);
  return section.properties.stiffness;
}

// ---------------------------------------------------------------- the scene's sections

function camera() {
  const d = T.cameraDefaults;
  return record(T.cameraKeys, {
    target: { ...coord3(), default: d.target },
    yaw: { type: 'number', default: d.yaw },
    pitch: { ...num(-L.maxPitch, L.maxPitch, { minExcl: true, maxExcl: true }), default: d.pitch },
    distance: { ...num(L.distance.min, L.distance.max), default: d.distance },
    fov: { ...num(L.fov.min, L.fov.max), default: d.fov },
  }, [], 'camera');
}

function collider(type) {
  const d = T.colliderDefaults;
  const size = () => num(0, L.colliderSize.max, { minExcl: true });
  const all = {
    type: { const: type },
    name: nameSchema(),
    position: coord3(),
    rotation: { ...quaternion(), default: d.rotation },
    radius: { ...size(), default: d.radius },
    halfHeight: { ...size(), default: d.halfHeight },
    halfExtents: { ...tuple(size(), 3), default: d.halfExtents },
    staticFriction: { ...num(L.colliderFriction.min, L.colliderFriction.max), default: d.staticFriction },
    kineticFriction: { ...num(L.colliderFriction.min, L.colliderFriction.max), default: d.kineticFriction },
    restitution: { ...num(L.colliderRestitution.min, L.colliderRestitution.max), default: d.restitution },
    glass: { type: 'boolean', default: d.glass },
  };
  const keys = T.colliderKeys[type];
  return record(keys, Object.fromEntries(keys.map((k) => [k, all[k]])), ['type', 'position'], `collider ${type}`);
}

// ---------------------------------------------------------------- the object types

function massRanges(index, what) {
  return list(record(MASS_RANGE_KEYS, { from: index, to: index, mass: mass() }, MASS_RANGE_KEYS, what), L.maxMassRanges);
}

function cloth(t) {
  const cell = tuple(int(0, L.resolution.max - 1), 2);
  // a pin is a cell, or a cell and where it is held: [i, j, x, y, z] (objects/cloth.js)
  const coord = num(-L.maxCoord, L.maxCoord);
  const placed = { type: 'array', prefixItems: [...cell.prefixItems, coord, coord, coord], items: false, minItems: 5, maxItems: 5 };
  return record(t.keys, {
    type: { const: t.type }, name: nameSchema(), origin: coord3(),
    size: vec(2, 0, L.maxSize, { minExcl: true }),
    resolution: tuple(int(L.resolution.min, L.resolution.max), 2),
    plane: { enum: ['xy', 'xz'], default: 'xy' },
    mass: mass(), stiffness: typeParams(t.type),
    pins: list({ anyOf: [cell, placed] }, L.maxPins), masses: massRanges(cell, 'cloth.masses'),
    colour: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
  }, ['type', 'origin', 'size', 'resolution'], 'cloth');
}

function chain(t) {
  const index = int(0, L.segments.max);
  return record(t.keys, {
    type: { const: t.type }, name: nameSchema(), start: coord3(), end: coord3(),
    segments: int(L.segments.min, L.segments.max), mass: mass(), stiffness: typeParams(t.type),
    pins: list(index, L.maxPins), masses: massRanges(index, 'chain.masses'),
  }, ['type', 'start', 'end', 'segments'], 'chain');
}

const meshCoord = () => tuple(num(-L.maxMeshCoord, L.maxMeshCoord), 3);
const tetMesh = def('tetMesh', () => record(['vertices', 'tets'], {
  vertices: list(meshCoord(), L.maxTetVertices, 4),
  tets: list(tuple({ type: 'integer', minimum: 0 }, 4), L.maxTets, 1),
}, ['vertices', 'tets'], 'tets mesh'));
const surfaceMesh = def('surfaceMesh', () => record(['vertices', 'triangles'], {
  vertices: list(meshCoord(), L.maxSurfaceVertices, 4),
  triangles: list(tuple({ type: 'integer', minimum: 0 }, 3), L.maxSurfaceTriangles, 4),
}, ['vertices', 'triangles'], 'surface mesh'));

/** A soft or rigid body: one variant per shape (objects/body-common.js readBody: the shape's own keys only). */
function body(t) {
  if (t.keys !== BODY_KEYS) throw new Error(`gen-scene-schema: ${t.type}: a body's keys are body-common.js BODY_KEYS`);
  const size = () => num(0, L.maxSize, { minExcl: true });
  const d = BODY_DEFAULTS;
  const plasticity = Object.fromEntries(Object.entries(L.plasticity).map(([k, r]) => [k, { ...num(r.min, r.max), default: d.plasticity[k] }]));
  const all = (shape) => ({
    type: { const: t.type }, name: nameSchema(), shape: { const: shape },
    position: coord3(), rotation: quaternion(), velocity: coord3(),
    halfExtents: { ...tuple(size(), 3), default: d.halfExtents },
    radius: { ...size(), default: d.radius },
    resolution: { ...int(L.bodyResolution.min, L.bodyResolution.max), default: d.resolution },
    mass: { ...mass(), default: d.mass },
    particleRadius: { ...num(0, L.maxBodyRadius), default: d.particleRadius,
      description: `contact radius (m), 0: half the lattice spacing (tets: half the shortest edge); at most ${MAX_RADIUS_SPACINGS} lattice `
        + 'spacings (tets: shortest edges): a contact radius reaches at most that many particle spacings' },
    stiffness: typeParams(t.type),
    plasticity: record(Object.keys(L.plasticity), plasticity, [], `${t.type}.plasticity`),
    pins: list({ type: 'integer', minimum: 0 }, L.maxPins),
    pinBoxes: list(record(['min', 'max'], { min: coord3(), max: coord3() }, ['min', 'max'], 'pinBox'), L.maxPinBoxes),
    colour: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
    mesh: shape === 'tets' ? tetMesh() : surfaceMesh(),
    obj: { type: 'string', maxLength: L.maxObjBytes, description: 'the text of an OBJ file (v and f lines)' },
    size: { ...size(), description: 'the longest side of the model\'s bounding box in metres: its vertices are scaled to it (a model far outside the world\'s scale is fitted to 0.5 m when no size is given)' },
  });
  const onlySome = [...new Set(Object.values(SHAPE_KEYS).flat())];
  return {
    // Chosen by its shape (a discriminator, as the objects are by type): a mistake in a box is one error about the
    // box, not one per shape it failed to be.
    type: 'object',
    properties: { type: { const: t.type }, shape: true },
    required: ['type', 'shape'],
    discriminator: { propertyName: 'shape' },
    oneOf: SHAPES.map((shape) => {
      const keys = BODY_KEYS.filter((k) => !onlySome.includes(k) || SHAPE_KEYS[shape].includes(k));
      const props = all(shape);
      const required = ['type', 'shape', ...(shape === 'box' || shape === 'ball' ? ['position'] : []), ...(shape === 'tets' ? ['mesh'] : [])];
      const s = record(keys, Object.fromEntries(keys.map((k) => [k, props[k]])), required, `${t.type} ${shape}`);
      // A mesh body takes "mesh" or "obj", exactly one. Each branch names its key in its own properties: Ajv's
      // strict mode checks a "required" against the properties beside it (oneOf is applied before them).
      if (shape === 'mesh') s.oneOf = ['mesh', 'obj'].map((k) => ({ properties: { [k]: true }, required: [k] }));
      return s;
    }),
  };
}

function fluid(t) {
  const box = (where) => record(['lower', 'upper'], { lower: coord3(), upper: coord3() }, ['lower', 'upper'], where);
  const emitter = record(EMITTER_KEYS, {
    position: coord3(), direction: coord3(),
    speed: { ...num(0, L.emitterSpeed.max, { minExcl: true }), default: EMITTER_DEFAULTS.speed },
    // At least fluid.spacing / 2: the validator's (a rule across sections).
    radius: num(0, L.emitterRadius.max, { minExcl: true }),
    enabled: { type: 'boolean', default: EMITTER_DEFAULTS.enabled },
  }, ['position', 'direction'], 'emitter');
  return record(t.keys, {
    type: { const: t.type }, name: nameSchema(),
    block: { oneOf: [{ type: 'null' }, box('fluid.block')] },
    velocity: vec(3, -L.maxFluidSpeed, L.maxFluidSpeed),
    capacity: { ...int(0, L.maxFluidParticles), default: 0 },
    emitters: list(emitter, L.maxEmitters),
    drains: list(box('drain'), L.maxDrains),
  }, ['type'], 'fluid');
}

const OBJECT_SCHEMAS = { cloth, chain, soft: body, rigid: body, fluid };

// ---------------------------------------------------------------- the scene

/** One of `variants`, chosen by the value of its "type" (a discriminator: Ajv with its `discriminator` option, the
 *  OpenAPI keyword; a validator that does not know it still has the oneOf). Chosen, not tried: one mistake in a
 *  cloth is one error about the cloth, where a plain oneOf reports why it is not each of the other types too. */
function byType(variants) {
  // Every variant requires "type" (as Ajv's discriminator asks), so a missing type is one error, the tag's.
  if (!variants.every((v) => v.required?.includes('type'))) throw new Error('gen-scene-schema: a variant does not require its type');
  return { type: 'object', discriminator: { propertyName: 'type' }, oneOf: variants };
}

export function sceneSchema() {
  const objects = OBJECT_TYPES.map((t) => {
    if (!Object.hasOwn(OBJECT_SCHEMAS, t.type)) throw new Error(`gen-scene-schema: object type ${t.type} has no schema here`);
    return OBJECT_SCHEMAS[t.type](t);
  });
  const props = {
    $schema: { type: 'string', maxLength: L.maxSchemaLength, description: 'the address of this schema, for editors (the validator reads and drops it)' },
    format: { const: T.format },
    version: { enum: [...T.versions], description: `the scene version (this page writes ${T.versions.at(-1)})` },
    name: { ...nameSchema(), default: T.defaultName },
    solver: paramSection(placeFields('solver'), 'solver'),
    ground: { oneOf: [{ type: 'null' }, paramSection(placeFields('ground'), 'ground')] },
    camera: camera(),
    wind: paramSection(placeFields('wind'), 'wind'),
    fluid: paramSection(placeFields('fluid'), 'fluid'),
    colliders: list(byType(Object.keys(T.colliderKeys).map(collider)), L.maxColliders),
    objects: list(byType(objects), L.maxObjects, 1),
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'MiniPBD scene',
    description: 'A MiniPBD scene description (docs/scene-format.md). GENERATED by tools/gen-scene-schema.mjs from the '
      + 'validator\'s tables (web/js/format/scene.js validateScene); rules across values (particle budgets, pins inside '
      + 'their grid, the fluid\'s smoothing radius against its spacing, OBJ text) are the validator\'s alone.',
    ...record(T.keys, props, ['format', 'version', 'objects'], 'scene'),
    $defs: Object.fromEntries(Object.keys(DEFS).sort().map((k) => [k, DEFS[k]])),
  };
}

export const schemaText = () => `${JSON.stringify(sceneSchema(), null, 2)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? path.join(ROOT, 'web', 'scene.schema.json');
  fs.writeFileSync(out, schemaText());
  console.log(`${path.relative(process.cwd(), out)}: written`);
}
