#!/usr/bin/env node
// gen-scene-schema.mjs — writes web/scene.schema.json, the scene format ("minipbd-scene", docs/scene-format.md) as
// a JSON Schema (draft 2020-12), by walking the validator's own declarative tables, with no function of its own for
// any part of a scene: the scene's rows (format/scene.js SCENE_TABLES.rows: its keys, camera, colliders and the
// parameter sections), the engine's parameter table for the sections and the stiffnesses (engine/params.js
// placeFields), and each object type's rows (objects/<type>.js `fields`), all rows of format/fields.js: one schema
// per kind, one variant per value of a tag row (a collider's type, a body's shape), a row's `description` or unit.
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
import { tagRow, tagVariant } from '../web/js/format/fields.js';

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

/** One parameter field (read.js paramField): a parameter, or a vector of them; its default the table's. */
function paramSchema(f) {
  const vector = f.params.length > 1 || /\.\d+$/.test(f.params[0].scene);
  const s = vector
    ? { type: 'array', prefixItems: f.params.map(param), items: false, minItems: f.params.length, maxItems: f.params.length }
    : param(f.params[0]);
  return { ...s, default: fieldDefault(f) };
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
    props[f.key] = paramSchema(f);
  }
  for (const [head, sub] of subs) props[head] = paramSection(sub, `${where}.${head}`);
  return record(Object.keys(props), props, [], where);
}


// ---------------------------------------------------------------- rows (format/fields.js): the scene's, its colliders' and camera's, each object type's

const KIND_SCHEMA = {
  const: (f) => ({ const: f.value }),
  name: () => nameSchema(),
  number: (f) => num(f.min, f.max, f),
  integer: (f) => (f.max === undefined ? { type: 'integer', minimum: f.min } : int(f.min, f.max)),
  finite: () => ({ type: 'number' }),
  mass: () => mass(),
  coord3: () => coord3(),
  quaternion: () => quaternion(),
  vec: (f) => vec(f.n, f.min, f.max, f),
  tuple: (f) => ({ type: 'array', prefixItems: f.items.map(fieldSchema), items: false, minItems: f.items.length, maxItems: f.items.length }),
  enum: (f) => ({ enum: f.values }),
  colour: () => ({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$' }),
  boolean: () => ({ type: 'boolean' }),
  text: (f) => ({ type: 'string', maxLength: f.maxLength }),
  params: (f) => {
    const s = f.field ? paramSchema(f.field) : paramSection(f.fields, f.place);
    return f.orNull ? { oneOf: [{ type: 'null' }, s] } : s; // null and absent both: the defaults
  },
  list: (f) => list(fieldSchema(f.item), f.max, f.min),
  record: (f) => {
    const s = () => recordSchema(f.fields, f.def ?? 'a record');
    return f.def ? def(f.def, s)() : s();
  },
  // An object of one of the registered types, chosen by its type (objects/index.js OBJECT_TYPES: each its rows).
  object: (f) => byTag('type', f.types.map((t) => {
    if (t.keys.join() !== t.fields.map((x) => x.key).join()) throw new Error(`gen-scene-schema: ${t.type}: its keys are not its rows'`);
    return recordSchema(t.fields, t.type, { key: 'type', value: t.type });
  })),
  nullable: (f) => ({ oneOf: [{ type: 'null' }, fieldSchema(f.of)] }),
  anyOf: (f) => ({ anyOf: f.of.map(fieldSchema) }),
};

/** A row's schema: its kind's, with its default (a static one: a default that depends on the scene or the
 *  object's index is the validator's) and what it is, for editors. */
function fieldSchema(f) {
  if (!Object.hasOwn(KIND_SCHEMA, f.kind)) throw new Error(`gen-scene-schema: ${f.key}: no schema for kind ${f.kind}`);
  const s = { ...KIND_SCHEMA[f.kind](f) };
  if (f.default !== undefined && typeof f.default !== 'function' && !f.required) s.default = f.default;
  const description = f.description ?? (f.unit ? `unit: ${f.unit}` : undefined);
  if (description && f.key !== undefined) s.description = description;
  return s;
}

/** The record of `rows` (a `first` row is read first by the validator; the schema has no order). */
function rowsSchema(rows, where) {
  const props = Object.fromEntries(rows.map((f) => [f.key, fieldSchema(f)]));
  return record(rows.map((f) => f.key), props, rows.filter((f) => f.required).map((f) => f.key), where);
}

/** A record of rows; with a tag row (a collider's type, a body's shape: format/fields.js), one variant per value of
 *  the tag, chosen by it (a discriminator): a mistake in a box is one error about the box, not one per shape it
 *  failed to be. `outer`: the tag of the choice it is a variant of ({key: 'type', value: 'soft'}), which it states. */
function recordSchema(fields, where, outer) {
  const tag = tagRow(fields);
  if (!tag) return rowsSchema(fields, where);
  const variants = tag.values.map((value) => {
    const rows = tagVariant(fields, value);
    const s = rowsSchema(rows, `${where} ${value}`);
    // "exactly one of" (a mesh body's mesh or obj). Each branch names its key in its own properties: Ajv's strict
    // mode checks a "required" against the properties beside it (oneOf is applied before them).
    const either = rows.find((f) => f.or);
    if (either) s.oneOf = [either.or, either.key].map((k) => ({ properties: { [k]: true }, required: [k] }));
    return s;
  });
  if (!outer) return byTag(tag.key, variants);
  return {
    type: 'object',
    properties: { [outer.key]: { const: outer.value }, [tag.key]: true },
    required: [outer.key, tag.key],
    discriminator: { propertyName: tag.key },
    oneOf: variants,
  };
}

// ---------------------------------------------------------------- the scene

/** One of `variants`, chosen by the value of its `tag` (a discriminator: Ajv with its `discriminator` option, the
 *  OpenAPI keyword; a validator that does not know it still has the oneOf). Chosen, not tried: one mistake in a
 *  cloth is one error about the cloth, where a plain oneOf reports why it is not each of the other types too. */
function byTag(tag, variants) {
  // Every variant requires its tag (as Ajv's discriminator asks), so a missing one is one error, the tag's.
  if (!variants.every((v) => v.required?.includes(tag))) throw new Error(`gen-scene-schema: a variant does not require its ${tag}`);
  return { type: 'object', discriminator: { propertyName: tag }, oneOf: variants };
}

/** The scene: its rows (format/scene.js SCENE_TABLES.rows), walked as every record's. */
export function sceneSchema() {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'MiniPBD scene',
    description: 'A MiniPBD scene description (docs/scene-format.md). GENERATED by tools/gen-scene-schema.mjs from the '
      + 'validator\'s tables (web/js/format/scene.js validateScene); rules across values (particle budgets, pins inside '
      + 'their grid, the fluid\'s smoothing radius against its spacing, OBJ text) are the validator\'s alone.',
    ...rowsSchema(T.rows, 'scene'),
    $defs: Object.fromEntries(Object.keys(DEFS).sort().map((k) => [k, DEFS[k]])),
  };
}
export const schemaText = () => `${JSON.stringify(sceneSchema(), null, 2)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? path.join(ROOT, 'web', 'scene.schema.json');
  fs.writeFileSync(out, schemaText());
  console.log(`${path.relative(process.cwd(), out)}: written`);
}
