// chain.js — the chain object type (ropes, pendulums): segments + 1 particles from `start` to `end`, joined by
// distance constraints of kind chain (pbdjs_AddChain, src/builders). Everything the page knows about chains is
// here, registered in objects/index.js: its scene keys and validation, its counts, how it is built in the engine,
// its mass rule, its stiffness and panel control, its strings, how it is drawn and how big it is for a recording.
//
//   { "type": "chain", "name": "rope", "start": [0, 3, 0], "end": [2.5, 3, 0], "segments": 25, "mass": 0.05,
//     "stiffness": 1, "pins": [0], "masses": [{ "from": 25, "to": 25, "mass": 1 }] }

import { PARAMS } from '../engine/params.js';
import { SCENE_LIMITS as L } from '../format/limits.js';
import { NAME_ROW, fieldKeys, massRangesRow, paramsRow, readObject, typeRow } from '../format/fields.js';
import { FILTER_ROWS } from './filter.js';
import { fail } from '../format/read.js';
import { control } from '../panel/control.js';

const TYPE = 'chain';
const STIFFNESS = PARAMS['stiffness.chain'];
const DEFAULT_MASS = 0.05; // kg per particle
const f = Math.fround;

/** The distance between its particles, as the engine computes it (src/builders/chain.c, float32): what bounds its
 *  contact radius, solver.thickness / 2. */
export function chainSpacing(o) {
  const d = [0, 1, 2].map((k) => f(f(o.end[k]) - f(o.start[k])));
  return f(f(Math.sqrt(f(f(f(d[0] * d[0]) + f(d[1] * d[1])) + f(d[2] * d[2])))) / o.segments);
}

/** A particle of the chain: 0..segments (the schema knows only the longest chain). */
const INDEX = { kind: 'integer', min: 0, max: L.segments.max, range: (ctx) => ({ min: 0, max: ctx.value('segments') }) };

/** Its scene keys (format/fields.js): its ends and segments first, the pins and mass ranges are checked against them. */
const FIELDS = [
  typeRow(TYPE),
  NAME_ROW,
  { key: 'start', kind: 'coord3', required: true, first: true, unit: 'm' },
  {
    key: 'end', kind: 'coord3', required: true, first: true, unit: 'm',
    check: (end, p, ctx) => { if (ctx.value('start').every((v, i) => v === end[i])) fail(p, 'must differ from start', end); },
  },
  { key: 'segments', kind: 'integer', min: L.segments.min, max: L.segments.max, required: true, first: true },
  { key: 'mass', kind: 'mass', default: DEFAULT_MASS, unit: 'kg' },
  paramsRow(TYPE, 'stiffness'),
  { key: 'pins', kind: 'list', item: INDEX, max: L.maxPins, noun: 'particle indices', default: [] },
  massRangesRow(INDEX, 'mass ranges', (a, b) => a <= b),
  ...FILTER_ROWS,
];

/** @type {import('./index.js').ObjectType} */
export const chain = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),
  read: readObject(FIELDS, TYPE),

  /** Its particles are spheres of solver.thickness / 2, so the thickness is bounded by its spacing (index.js
   *  thicknessProblem); a refusal names its segments. */
  thicknessSpacing: chainSpacing,
  thicknessField: 'segments',

  /** What the engine reserves for it (pbd_ChainCounts). */
  counts(engine, o) {
    const [particles, constraints, lines] = engine.counts('pbdjs_ChainCounts', o.segments);
    return { particles, constraints, triangles: 0, lines };
  },

  /** Adds it to world `id` (its stiffness, masses and pins too); returns its first particle. */
  build(engine, id, o, index) {
    const e = engine.exports;
    const first = engine.check(e.pbdjs_AddChain(id, ...o.start, ...o.end, o.segments, o.mass), 'engine', id);
    engine.check(e.pbd_World_SetObjectStiffness(id, index, chain.stiffness.chain.kind, o.stiffness), 'engine', id);
    for (const m of o.masses) for (let i = m.from; i <= m.to; i++) engine.check(e.pbd_World_SetMass(id, first + i, m.mass), 'engine', id);
    for (const i of o.pins) engine.check(e.pbd_World_SetInvMass(id, first + i, 0), 'engine', id);
    return first;
  },

  /** Local indices of its particles whose mass its `mass` does not set: pins and `masses` ranges. */
  particlesWithOwnMass(o) {
    const keep = new Set(o.pins);
    for (const m of o.masses) for (let i = m.from; i <= m.to; i++) keep.add(i);
    return keep;
  },

  /** Its constraint kinds: the engine's pbdConstraintKind, the parameter, where one object keeps its own. */
  stiffness: {
    chain: { kind: 3, param: STIFFNESS.name, get: (o) => o.stiffness, set: (o, v) => { o.stiffness = v; } },
  },

  /** Its largest size in metres (a recording's position quantum follows it). */
  extent: (o) => Math.hypot(...o.end.map((v, k) => v - o.start[k])),

  /** Drawn as lines (world.lines), with beads sized by the segment length. */
  render: {
    primitive: 'lines',
    pointColor: 'particle',
    sprite(o) {
      const seg = chain.extent(o) / Math.max(1, o.segments);
      const radius = Math.min(0.05, Math.max(0.006, seg * 0.28));
      return { radius, pinnedRadius: radius * 1.6, columns: 0, rows: 0 };
    },
  },

  controls: [control({ name: STIFFNESS.name, param: STIFFNESS.name, group: 'stiffness', step: 0.01 })],

};

/** Its words (objects/index.js objectStrings, for the page's i18n; kept off the type so that a bundle without
 *  the panel, the element's, leaves them out). */
export const CHAIN_STRINGS = {
  en: {
    'object.chain': 'Chain',
    'param.stiffness.chain': 'Chain',
    'param.stiffness.chain.help': 'Chain link stiffness',
  },
  zh: {
    'object.chain': '链条',
    'param.stiffness.chain': '链条',
    'param.stiffness.chain.help': '链条连接的刚度',
  },
};
