// fields.js — how an object type describes its scene keys: a table of rows (`fields` in objects/<type>.js), one per
// key, in the order an unknown key's message lists them and a normalised object writes them. It is the one
// description of a type's keys: the validator reads and normalises with it (readObject below, with format/read.js's
// readers and messages), tools/gen-scene-schema.mjs writes the JSON Schema from it and tests/node/types.test.mjs
// fails when objects/<type>.d.ts declares other keys or kinds.
//
// A row: { key, kind, ...its kind's own, required?, default?, unit?, first?, shapes?, range?, check?, read? }
//   required     the object must give it ("… is required")
//   default      its value when left out; a function of the reading context when it depends on it (a name on the
//                object's index, an emitter's radius on the scene's spacing). No default: left out of the normalised
//                object, except a record's or parameters' (their rows' defaults)
//   unit         'm', 'kg', 'm/s' (the schema's description; the types' comments say it too)
//   first        read before the other rows: what they are checked against (a cloth's grid), so the first mistake
//                reported is the one it always was
//   shapes       a body's key only these shapes have (objects/body-common.js)
//   range(ctx)   the validator's bounds where they depend on the object (a pin inside its grid); min/max are the
//                static ones the schema says
//   check(value, path, ctx)   a rule across values (a chain's end differs from its start), once the value is read
//   read(value, path, ctx)    a reader of its own, where the kind's does not say all (a cloth pin, a body's mesh)
// Kinds: const {value} (the "type"), name, number {min, max, minExcl?, maxExcl?}, integer {min, max?}, mass,
//   coord3, quaternion, vec {n, min, max, minExcl?}, tuple {items, what}, enum {values}, colour, boolean,
//   params (engine parameters: paramsRow; `orNull`: null means the defaults, a scene's ground), list {item, max,
//   min?, noun}, record {fields}, nullable {of} (null or `of`), finite (any finite number: a camera's yaw); text
//   {maxLength}, anyOf {of} and object (an object of a registered type, a scene's objects) have no reader of the
//   kind's: their row's read, or their reader's (a body's OBJ text is read with its mesh, the objects by
//   format/scene.js), reads them.
// A tag: a record one of whose rows has `tag: true` (an enum: a collider's type, a body's shape) has one variant
//   per value of that row, each the rows without `shapes` and those whose `shapes` hold the value (variantRows);
//   the record's keys are its variant's (readTagged), and the JSON Schema says one variant per value.
// A row's `description` (what it is, for editors) goes into the JSON Schema; a row without one says its unit.
//
// The reading context (ctx) holds what the object's reader was given (type, index, scene, a fluid's spacing) and
// value(key): a key of the record being read, else of the records around it, read first if it was not yet.

import { fieldDefault, placeFields } from '../engine/params.js';
import { SCENE_LIMITS as L } from './limits.js';
import {
  SceneError, array, boolean, colour, coord3, fail, finite, integer, join, mass, name, number, paramValue, peek, quaternion, record, structuredCopy,
  vec,
} from './read.js';

const KINDS = {
  const: (f) => f.value,
  name: (f, v, p) => name(v, p),
  number: (f, v, p, ctx) => { const r = bounds(f, ctx); return number(v, p, r.min, r.max, r); },
  integer: (f, v, p, ctx) => { const r = bounds(f, ctx); return integer(v, p, r.min, r.max); },
  mass: (f, v, p) => mass(v, p),
  coord3: (f, v, p) => coord3(v, p),
  quaternion: (f, v, p) => quaternion(v, p),
  vec: (f, v, p) => vec(v, p, f.n, f.min, f.max, f),
  tuple: (f, v, p, ctx) => array(v, p, f.items.length, f.items.length, f.what).map((x, i) => readField(f.items[i], x, join(p, i), ctx)),
  enum: (f, v, p) => {
    // Two choices read "a" or "b"; more, a list.
    if (!f.values.includes(v)) fail(p, `must be ${f.values.map((s) => `"${s}"`).join(f.values.length > 2 ? ', ' : ' or ')}`, v);
    return v;
  },
  colour: (f, v, p) => colour(v, p),
  boolean: (f, v, p) => boolean(v, p),
  finite: (f, v, p) => finite(v, p),
  // Left out (v undefined; null too where the row says `orNull`): the table's defaults.
  params: (f, v, p) => (!f.field ? readParams(f.fields, f.orNull && v === null ? undefined : v, p, f.orNull ? 'an object or null' : undefined)
    : v === undefined ? fieldDefault(f.field) : paramField(f.field, v, p)),
  list: (f, v, p, ctx) => {
    const min = f.min ?? 0;
    return array(v, p, min, f.max, `an array of ${min > 0 ? `${min}..` : 'at most '}${f.max} ${f.noun}`)
      .map((x, i) => readField(f.item, x, join(p, i), ctx, i));
  },
  record: (f, v, p, ctx, index) => (tagRow(f.fields) ? readTagged(f.fields, v, p, index) : readRecord(f.fields, v, p, ctx)),
  nullable: (f, v, p, ctx) => (v === null ? null : readField(f.of, v, p, ctx)),
};

/** A row's bounds: its own, or its range in this record, asked once per record (a mesh's 600,000 indices ask the
 *  vertex count once). */
function bounds(f, ctx) {
  if (!f.range) return f;
  const known = Object.hasOwn(ctx, 'ranges') ? ctx.ranges : (ctx.ranges = new Map());
  if (!known.has(f)) known.set(f, f.range(ctx));
  return known.get(f);
}

/** One row's value (`value` undefined: left out), read, checked and normalised; undefined when it stays out. `index`:
 *  its place in the list it is an item of (a collider's default name counts it). */
export function readField(f, value, path, ctx, index) {
  if (value === undefined) {
    if (f.required) throw new SceneError(path, `${path} is required`);
    if (typeof f.default === 'function') return f.default(ctx);
    if (f.default !== undefined) return structuredCopy(f.default);
    return f.kind === 'record' || f.kind === 'params' ? KINDS[f.kind](f, undefined, path, ctx) : undefined;
  }
  const v = f.read ? f.read(value, path, ctx) : KINDS[f.kind](f, value, path, ctx, index);
  f.check?.(v, path, ctx);
  return v;
}

/**
 * A reader of the rows `fields` of one record (`get` reads its own keys, already checked): returns its context, whose
 * value(key) reads a row once (the rows around it when `key` is not one of these) and all() reads the rest, the `first`
 * rows before the others, and returns the record normalised, in the rows' order.
 */
export function fieldReader(fields, get, path, parent = {}) {
  const got = new Map();
  const rows = new Map(fields.map((f) => [f.key, f]));
  const ctx = Object.create(parent);
  ctx.get = get;
  ctx.value = (key) => {
    const f = rows.get(key);
    if (!f) return parent.value(key);
    if (!got.has(key)) got.set(key, readField(f, get(key), join(path, key), ctx));
    return got.get(key);
  };
  ctx.all = (rows = fields) => {
    for (const f of rows) if (f.first) ctx.value(f.key);
    for (const f of rows) ctx.value(f.key);
    const out = {};
    for (const f of rows) if (got.get(f.key) !== undefined) out[f.key] = got.get(f.key);
    return out;
  };
  return ctx;
}

/** A record of rows (undefined: every row's default). */
export function readRecord(fields, value, path, ctx) {
  const get = value === undefined ? () => undefined : record(value, path, fields.map((f) => f.key));
  return fieldReader(fields, get, path, ctx).all();
}

/**
 * The rows of one variant of a table whose keys depend on one of its values (a body's shape): the rows without
 * `shapes` and those whose `shapes` hold it, each `required` for it or not (a list of shapes), a `perShape` row as
 * that shape's (a body's mesh: a surface or tets).
 */
export function variantRows(fields, shape) {
  return fields.filter((f) => !f.shapes || f.shapes.includes(shape)).map((f) => {
    const g = f.perShape ? { ...f, ...f.perShape[shape] } : f;
    return Array.isArray(g.required) ? { ...g, required: g.required.includes(shape) } : g;
  });
}

const TAGS = new WeakMap(); // rows -> their tag row (null: none) and its variants' rows by value

/** The tag row of a table of rows (the one with `tag: true`), or undefined. */
export const tagRow = (fields) => fields.find((f) => f.tag);

/** The rows of the variant `value` of a tagged table, its tag row a const of that value. */
export function tagVariant(fields, value) {
  if (!TAGS.has(fields)) TAGS.set(fields, new Map());
  const known = TAGS.get(fields);
  if (!known.has(value)) {
    const tag = tagRow(fields);
    known.set(value, variantRows(fields, value).map((f) => (f === tag ? { key: f.key, kind: 'const', value, required: true } : f)));
  }
  return known.get(value);
}

/** "a", "b" or "c": the values of an enum in a message. */
const choices = (values) => values.map((s) => `"${s}"`).join(', ').replace(/, ([^,]*)$/, ' or $1');

/** A record of a tagged table (a collider): its tag first, then the keys against that variant's own list (a
 *  capsule's "halfExtents" is as unknown as "foo", and the message lists a capsule's keys). */
function readTagged(fields, value, path, index) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'must be an object', value);
  const tag = tagRow(fields);
  const v = peek(value, tag.key);
  if (typeof v !== 'string' || !tag.values.includes(v)) fail(join(path, tag.key), `must be ${choices(tag.values)}`, v);
  const rows = tagVariant(fields, v);
  return fieldReader(rows, record(value, path, fieldKeys(rows)), path, { type: v, index }).all();
}

/** The keys of a table of rows. */
export const fieldKeys = (fields) => fields.map((f) => f.key);

/** An object type's reader from its rows alone (`get` reads its own keys, already checked against them). */
export const readObject = (fields, type) => (get, path, index, scene) => fieldReader(fields, get, path, { type, index, scene }).all();

// ---------------------------------------------------------------- rows every type has, or several

export const typeRow = (type) => ({ key: 'type', kind: 'const', value: type, required: true });
export const NAME_ROW = { key: 'name', kind: 'name', default: (ctx) => `${ctx.type} ${ctx.index + 1}` };

/** A box {lo, hi} ({min, max}, {lower, upper}) in world coordinates, its corners in order. */
export function boxRecord(lo, hi) {
  const ordered = (h, p, ctx) => ctx.value(lo).forEach((v, k) => { if (v > h[k]) fail(join(p, k), `must not be below ${lo}[${k}] (${v})`, h[k]); });
  return { kind: 'record', fields: [{ key: lo, kind: 'coord3', required: true, unit: 'm' }, { key: hi, kind: 'coord3', required: true, unit: 'm', check: ordered }] };
}

/** `masses`: inclusive ranges {from, to, mass} of particles (each end an `index` row) that weigh `mass` kg each;
 *  `from` must not lie after `to` (an empty range is almost surely a typo). */
export function massRangesRow(index, noun, ordered) {
  const to = (v, p, ctx) => {
    const from = ctx.value('from');
    if (!ordered(from, v)) fail(p, `must not be before from (${JSON.stringify(from)})`, v);
  };
  return {
    key: 'masses', kind: 'list', max: L.maxMassRanges, noun, default: [],
    item: {
      kind: 'record',
      fields: [{ key: 'from', ...index, required: true }, { key: 'to', ...index, required: true, check: to }, { key: 'mass', kind: 'mass', required: true, unit: 'kg' }],
    },
  };
}

// ---------------------------------------------------------------- engine parameters (engine/params.js placeFields)

/**
 * The row of key `key` of object type `type` whose value is engine parameters: the table's places
 * "<type>.<key>" (one number: "chain.stiffness") or "<type>.<key>.<kind>" (a record: "cloth.stiffness.stretch").
 * Its `place` claims those places for the type: the other heads of the table's places are the scene's sections.
 */
export function paramsRow(type, key) {
  const all = placeFields(type);
  const field = all.find((f) => f.key === key);
  const fields = all.filter((f) => f.key.startsWith(`${key}.`)).map((f) => ({ ...f, key: f.key.slice(key.length + 1) }));
  return { key, kind: 'params', place: `${type}.${key}`, ...(field ? { field } : { fields }) };
}

/** A record of parameter fields (a scene section, a cloth's stiffness): every field of the table, defaults filled
 *  in. A field may sit in a sub-record ("fluid.scorr.k": the key "k" of the section's "scorr"), read the same way. */
export function readParams(fields, value, path, what = 'an object') {
  const subs = new Map(); // first part of a dotted key -> its fields, with the rest of the key
  const keys = [];
  for (const f of fields) {
    const dot = f.key.indexOf('.');
    const key = dot < 0 ? f.key : f.key.slice(0, dot);
    if (!keys.includes(key)) keys.push(key);
    if (dot >= 0) {
      if (!subs.has(key)) subs.set(key, []);
      subs.get(key).push({ ...f, key: f.key.slice(dot + 1) });
    }
  }
  const get = value === undefined ? () => undefined : record(value, path, keys, what);
  const out = {};
  for (const key of keys) {
    const v = get(key);
    if (subs.has(key)) out[key] = readParams(subs.get(key), v, join(path, key));
    else {
      const f = fields.find((x) => x.key === key);
      out[key] = v === undefined ? fieldDefault(f) : paramField(f, v, join(path, key));
    }
  }
  return out;
}

/** One parameter field: a parameter's value, or a vector whose components are parameters. */
function paramField(field, value, path) {
  const { params } = field;
  if (params.length === 1 && !/\.\d+$/.test(params[0].scene)) return paramValue(params[0], value, path);
  const items = array(value, path, params.length, params.length, `an array of ${params.length} numbers`);
  return items.map((v, i) => paramValue(params[i], v, join(path, i)));
}
