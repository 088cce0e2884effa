// The hand-written declarations agree with the one description of the scene format: each object type's interface
// (web/js/objects/<type>.d.ts, read with TypeScript's own parser) has exactly its rows' keys (format/fields.js), each
// optional unless the type requires it, each of the type its row's kind says; the Scene interface (minipbd.d.ts) has
// the scene's keys, each parameter section's interface the fields of the parameter table's places, and the camera's
// and a collider's interfaces their rows (format/scene.js SCENE_TABLES); every type has its name in both languages
// (object.<type>), and the recorder names no World call (format/replay-calls.js declares them). The .d.ts keep their
// comments (what the types say to an editor); what they declare is checked here, not copied.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { OBJECT_TYPES, OBJECT_TYPE_STRINGS } from '../../web/js/objects/index.js';
import { SCENE_TABLES } from '../../web/js/format/scene.js';
import { placeFields, parsePlace } from '../../web/js/engine/params.js';
import { WORLD_CALLS } from '../../web/js/format/replay-calls.js';
import { RECORDED_CALLS } from '../../web/js/record/capture.js';
import { tagRow, tagVariant } from '../../web/js/format/fields.js';
import { STRINGS } from '../../web/js/i18n/i18n.js';

const JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'js');

// ---------------------------------------------------------------- the declarations, parsed

/** Every interface and type alias of `files` (paths under web/js): name -> { members, extends } or { alias }. */
function declarations(files) {
  const out = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(JS, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const node of source.statements) {
      if (ts.isClassDeclaration(node)) {
        out.set(node.name.text, { file, methods: node.members.filter(ts.isMethodDeclaration).map((m) => m.name.getText()) });
      } else if (ts.isInterfaceDeclaration(node)) {
        const bases = (node.heritageClauses ?? []).flatMap((h) => h.types.map((t) => t.expression.getText()));
        out.set(node.name.text, { file, members: members(node.members), extends: bases });
      } else if (ts.isTypeAliasDeclaration(node)) {
        out.set(node.name.text, { file, alias: node.type });
      }
    }
  }
  return out;
}

function members(list) {
  return list.filter(ts.isPropertySignature).map((m) => ({ key: m.name.getText(), optional: Boolean(m.questionToken), type: m.type }));
}

/** An interface's members with those of the interfaces it extends. */
function allMembers(decls, name) {
  const d = decls.get(name);
  return [...d.extends.flatMap((base) => allMembers(decls, base)), ...d.members];
}

/** A type in one canonical spelling: names of interfaces and aliases expanded, union members sorted, object keys
 *  sorted (with "?" when optional); Partial<T> is T with every key optional. */
function canon(decls, node) {
  const c = (n) => canon(decls, n);
  switch (node.kind) {
    case ts.SyntaxKind.NumberKeyword: return 'number';
    case ts.SyntaxKind.StringKeyword: return 'string';
    case ts.SyntaxKind.BooleanKeyword: return 'boolean';
    case ts.SyntaxKind.ParenthesizedType: return c(node.type);
    case ts.SyntaxKind.LiteralType: return node.literal.kind === ts.SyntaxKind.NullKeyword ? 'null' : `'${node.literal.text}'`;
    case ts.SyntaxKind.TupleType: return `[${node.elements.map(c).join(',')}]`;
    case ts.SyntaxKind.ArrayType: return `${wrap(c(node.elementType))}[]`;
    case ts.SyntaxKind.UnionType: return union(node.types.map(c));
    case ts.SyntaxKind.TypeLiteral: return object(members(node.members).map((m) => [m.key, m.optional, c(m.type)]));
    case ts.SyntaxKind.TypeReference: {
      const name = node.typeName.getText();
      if (name === 'Partial') return c(node.typeArguments[0]).replace(/([{,])(\w+):/g, '$1$2?:');
      const d = decls.get(name);
      assert.ok(d, `no declaration of ${name}`);
      if (d.alias) return c(d.alias);
      return object(allMembers(decls, name).map((m) => [m.key, m.optional, c(m.type)]));
    }
    default: throw new Error(`types.test: no canonical form for ${ts.SyntaxKind[node.kind]} (${node.getText()})`);
  }
}
const wrap = (t) => (t.includes('|') && !/^[[{]/.test(t) ? `(${t})` : t);
const union = (types) => [...new Set(types)].sort().join('|');
const object = (entries) => `{${entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, opt, t]) => `${k}${opt ? '?' : ''}:${t}`).join(',')}}`;

// ---------------------------------------------------------------- what the rows say

const tuple = (n, t = 'number') => `[${Array(n).fill(t).join(',')}]`;
const param = (p) => (p.boolean ? 'boolean' : 'number');

/** The TypeScript type a row's kind stands for (format/fields.js), in canon's spelling. */
function rowType(f) {
  if (f.perShape) return union(Object.values(f.perShape).map(rowType));
  switch (f.kind) {
    case 'const': return `'${f.value}'`;
    case 'name': case 'colour': case 'text': return 'string';
    case 'number': case 'integer': case 'mass': case 'finite': return 'number';
    case 'boolean': return 'boolean';
    case 'coord3': return tuple(3);
    case 'quaternion': return tuple(4);
    case 'vec': return tuple(f.n);
    case 'tuple': return `[${f.items.map(rowType).join(',')}]`;
    case 'enum': return union(f.values.map((v) => `'${v}'`));
    case 'params': return f.field ? param(f.field.params[0]) : object(f.fields.map((x) => [x.key, true, param(x.params[0])]));
    case 'list': return `${wrap(rowType(f.item))}[]`;
    case 'record': return object(f.fields.map((x) => [x.key, x.required !== true, rowType(x)]));
    case 'nullable': return union([rowType(f.of), 'null']);
    case 'anyOf': return union(f.of.map(rowType));
    default: throw new Error(`types.test: no type for kind ${f.kind}`);
  }
}

/** A parameter section's type (format/fields.js readParams): dotted keys are sub-records, vectors tuples. */
function sectionType(fields) {
  const entries = [];
  const subs = new Map();
  for (const f of fields) {
    const dot = f.key.indexOf('.');
    if (dot >= 0) {
      const head = f.key.slice(0, dot);
      if (!subs.has(head)) subs.set(head, []);
      subs.get(head).push({ ...f, key: f.key.slice(dot + 1) });
    } else {
      const vector = f.params.length > 1 || parsePlace(f.params[0].scene).index !== null;
      entries.push([f.key, false, vector ? `[${f.params.map(param).join(',')}]` : param(f.params[0])]);
    }
  }
  for (const [head, sub] of subs) entries.push([head, false, sectionType(sub)]);
  return object(entries);
}

// ---------------------------------------------------------------- the checks

const FILES = ['minipbd.d.ts', 'format/scene.d.ts', 'format/replay.d.ts', 'record/recorder.d.ts', 'record/replayer.d.ts', ...fs.readdirSync(path.join(JS, 'objects')).filter((f) => f.endsWith('.d.ts')).map((f) => `objects/${f}`)];
const decls = declarations(FILES);

/** The interface of object type `t`: the one whose "type" is the literal t.type (SceneObject names it). */
function objectInterface(t) {
  const names = [...decls].filter(([, d]) => d.members?.some((m) => m.key === 'type' && m.type.getText() === `'${t.type}'`)).map(([n]) => n);
  assert.equal(names.length, 1, `one interface has type '${t.type}': ${names.join(', ')}`);
  return names[0];
}

test('SceneObject is one interface per registered object type, each in its type\'s .d.ts', () => {
  const union = decls.get('SceneObject').alias;
  const named = union.types.map((n) => n.getText()).sort();
  assert.deepEqual(named, OBJECT_TYPES.map(objectInterface).sort());
  for (const t of OBJECT_TYPES) assert.equal(decls.get(objectInterface(t)).file, `objects/${t.type}.d.ts`, t.type);
});

test('each object type\'s interface has exactly its rows\' keys, optional unless required, of the rows\' kinds', () => {
  let checked = 0;
  for (const t of OBJECT_TYPES) {
    const name = objectInterface(t);
    const declared = new Map(allMembers(decls, name).map((m) => [m.key, m]));
    assert.deepEqual([...declared.keys()].sort(), [...t.keys].sort(), `${name}: its keys are ${t.type}'s rows' (objects/${t.type}.js)`);
    for (const f of t.fields) {
      const m = declared.get(f.key);
      // A key some shapes require (a body's position) is optional in the one interface of all shapes.
      assert.equal(m.optional, f.required !== true, `${name}.${f.key}: ${f.required === true ? 'required' : 'optional'}`);
      assert.equal(canon(decls, m.type), rowType(f), `${name}.${f.key}: the type its row says`);
      checked++;
    }
  }
  assert.ok(checked > 50, `${checked} keys checked`);
});

test('the Scene interface has the scene\'s keys, and each parameter section\'s interface the table\'s fields', () => {
  const scene = new Map(allMembers(decls, 'Scene').map((m) => [m.key, m]));
  assert.deepEqual([...scene.keys()].sort(), [...SCENE_TABLES.keys].sort());
  for (const key of ['format', 'version', 'objects']) assert.equal(scene.get(key).optional, false, key);
  for (const head of SCENE_TABLES.sections) {
    const m = scene.get(head);
    assert.ok(m.optional, head);
    // Partial<…Settings> (the ground also null): the settings as a normalised scene holds them, every field present.
    const declared = canon(decls, m.type).split('|').filter((x) => x !== 'null').join('|').replace(/\?:/g, ':');
    assert.equal(declared, sectionType(placeFields(head)), `Scene.${head}: the table's fields of "${head}"`);
  }
});

test('the replay\'s types name the World calls of format/replay-calls.js: their events, kinds and causes', () => {
  const carried = WORLD_CALLS.filter((c) => c.code);
  const literals = (node) => canon(decls, node);
  const event = decls.get('ReplayEvent').alias.elements[1];
  assert.equal(literals(event), union(carried.map((c) => `'${c.code}'`)), 'ReplayEvent: the events\' letters');
  const kind = decls.get('ReplayStepEvent').members.find((m) => m.key === 'kind').type;
  assert.equal(literals(kind), union(carried.map((c) => `'${c.kind}'`)), 'ReplayStepEvent: their kinds');
  const ends = decls.get('ReplayEnd').members.find((m) => m.key === 'cause').type;
  assert.equal(literals(ends), union(WORLD_CALLS.filter((c) => c.ends).map((c) => `'${c.ends}'`)), 'ReplayEnd.cause');
  const stop = decls.get('StopCause').members.find((m) => m.key === 'key').type;
  for (const c of WORLD_CALLS.filter((x) => x.cause)) assert.ok(literals(stop).split('|').includes(`'${c.cause}'`), `StopCause ${c.cause}`);
  const world = decls.get('World').methods;
  for (const c of WORLD_CALLS) assert.ok(world.includes(c.call), `World.${c.call} is declared`);
});

test('the camera\'s and a collider\'s interfaces are their rows: a collider\'s keys those of every type, required as each says', () => {
  const camera = SCENE_TABLES.camera;
  // Partial<CameraSettings> in a scene: the settings as a normalised scene holds them, every field present.
  assert.equal(canon(decls, allMembers(decls, 'Scene').find((m) => m.key === 'camera').type).replace(/\?:/g, ':'),
    object(camera.fields.map((f) => [f.key, false, rowType(f)])), 'Scene.camera: the camera\'s rows');
  const collider = SCENE_TABLES.collider;
  const tag = tagRow(collider.fields);
  const declared = new Map(allMembers(decls, 'ColliderDescription').map((m) => [m.key, m]));
  assert.deepEqual([...declared.keys()].sort(), collider.fields.map((f) => f.key).sort(), 'ColliderDescription: its rows\' keys');
  assert.equal(canon(decls, declared.get(tag.key).type), union(tag.values.map((v) => `'${v}'`)), 'its type: the tag\'s values');
  for (const f of collider.fields.filter((x) => x !== tag)) {
    // Required only where every type requires it (a position); a key some types lack is optional.
    const everywhere = tag.values.every((v) => tagVariant(collider.fields, v).some((x) => x.key === f.key && x.required === true));
    assert.equal(declared.get(f.key).optional, !everywhere, `ColliderDescription.${f.key}`);
    assert.equal(canon(decls, declared.get(f.key).type), rowType(f), `ColliderDescription.${f.key}: the type its row says`);
  }
  assert.equal(allMembers(decls, 'Scene').find((m) => m.key === 'colliders').type.getText(), 'ColliderDescription[]', 'Scene.colliders');
});

test('NormalisedScene requires every key a normalised scene always holds: the rows the validator fills in', () => {
  const required = decls.get('NormalisedScene').alias.types.find((n) => n.typeName?.getText() === 'Required').typeArguments[0].typeArguments[1];
  const filled = SCENE_TABLES.rows.filter((f) => !f.own).map((f) => `'${f.key}'`);
  assert.equal(canon(decls, required), union(filled));
});

test('every object type has its name in both languages (object.<type>: the panel\'s and notices\' word for it)', () => {
  assert.deepEqual(Object.keys(OBJECT_TYPE_STRINGS).sort(), OBJECT_TYPES.map((t) => t.type).sort(), 'every registered type has its words, and no other');
  for (const t of OBJECT_TYPES) {
    const words = OBJECT_TYPE_STRINGS[t.type];
    for (const lang of ['en', 'zh']) {
      assert.ok(typeof words[lang][`object.${t.type}`] === 'string', `${t.type}: object.${t.type} in ${lang}`);
      assert.equal(STRINGS[lang][`object.${t.type}`], words[lang][`object.${t.type}`], `${lang}: the registry's strings are the page's`);
    }
  }
});

test('the recorder and replayer name no World call that changes a run: they find them in format/replay-calls.js', () => {
  const code = (file) => fs.readFileSync(path.join(JS, file), 'utf8').split('\n').filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l))
    .map((l) => l.replace(/\/\/.*$/, '')).join('\n');
  for (const file of ['record/recorder.js', 'record/replayer.js', 'record/common.js', 'format/replay.js']) {
    const text = code(file);
    for (const c of WORLD_CALLS) assert.ok(!new RegExp(`\\b${c.call}\\b`).test(text), `${file} names ${c.call}`);
  }
  // read and apply in the rows; capture and write, the recorder's alone, in record/capture.js
  assert.ok(RECORDED_CALLS.filter((c) => c.code).every((c) => typeof c.capture === 'function' && typeof c.read === 'function'
    && typeof c.write === 'function' && typeof c.apply === 'function'), 'each carried call is captured, read, written and applied');
  assert.ok(WORLD_CALLS.every((c) => c.capture === undefined && c.write === undefined), 'a row of format/replay-calls.js carries no capture');
});
