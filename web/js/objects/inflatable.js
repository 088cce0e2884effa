// inflatable.js — the inflatable object type: a closed triangle surface kept inflated by the overpressure constraint
// of Müller et al. 2007 "Position Based Dynamics" §4.4 (C = V − k_pressure·V₀ over all its particles,
// src/families/inflatables.c), with a cloth's stretch and bend constraints on its edges (src/builders/inflatable.c,
// pbdjs_AddInflatable in src/wasm/api_inflatables.c). Registered in objects/index.js; drawn as a cloth is.
//
//   { "type": "inflatable", "name": "balloon", "center": [0, 1, 0], "radius": 0.2, "resolution": 6,
//     "pressure": 1.2, "mass": 0.0005, "stiffness": { "stretch": 0.3, "bend": 0.02 }, "colour": "#d83a3a" }
//
// The surface is the built-in geodesic sphere of `resolution` (10 n² + 2 particles, each of `mass` kg) and
// `radius` around `center`. `pressure` is k_pressure: the volume it holds against V₀, the volume as built.

import { SCENE_LIMITS as L } from '../format/limits.js';
import { ENGINE_LIMITS } from '../engine/params.js';
import { NAME_ROW, fieldKeys, readObject, typeRow } from '../format/fields.js';
import { FILTER_ROWS } from './filter.js';

const TYPE = 'inflatable';
const KINDS = { stretch: 0, bend: 2 }; // pbdConstraintKind
const MAX_RESOLUTION = ENGINE_LIMITS.inflatableMaxResolution; // src/minipbd.h PBD_LIMITS
const sphereParticles = (n) => 10 * n * n + 2;

const STIFFNESS = {
  kind: 'record',
  fields: [
    { key: 'stretch', kind: 'number', min: 0, max: 1, default: 0.3 },
    { key: 'bend', kind: 'number', min: 0, max: 1, default: 0.02 },
  ],
};

/** Its scene keys (format/fields.js). */
const FIELDS = [
  typeRow(TYPE),
  NAME_ROW,
  { key: 'center', kind: 'coord3', required: true, unit: 'm' },
  { key: 'radius', kind: 'number', min: 0.001, max: Math.min(1000, L.maxSize), default: 0.2, unit: 'm' },
  { key: 'resolution', kind: 'integer', min: 1, max: MAX_RESOLUTION, default: 6 },
  { key: 'pressure', kind: 'number', min: 0, minExcl: true, max: 100, default: 1 },
  { key: 'mass', kind: 'mass', default: 0.0005, unit: 'kg' },
  { key: 'stiffness', ...STIFFNESS, default: undefined },
  { key: 'colour', kind: 'colour' },
  ...FILTER_ROWS,
];

/** @type {import('./index.js').ObjectType} */
export const inflatable = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),
  read: readObject(FIELDS, TYPE),

  /** What the engine reserves for it (pbd_InflatableCounts). */
  counts(engine, o) {
    const [particles, constraints, triangles] = engine.counts('pbdjs_InflatableCounts', o.resolution);
    return { particles, constraints, triangles, lines: 0 };
  },

  /** Adds it to world `id` with its edges' stiffnesses; returns its first particle. */
  build(engine, id, o, index) {
    const e = engine.exports;
    const first = engine.check(e.pbdjs_AddInflatable(id, ...o.center, o.radius, o.resolution, 0, 0, 0, 0, o.mass, o.pressure, 1), 'engine', id);
    for (const k of Object.keys(KINDS)) engine.check(e.pbd_World_SetObjectStiffness(id, index, KINDS[k], o.stiffness[k]), 'engine', id);
    return first;
  },

  particlesWithOwnMass: () => new Set(),

  /** Its edges are the engine's stretch and bend kinds, which the cloth type owns on the page (one type per kind):
   *  it sets its own per object (build) and lists none here, so the panel's cloth sliders, which set every object's
   *  constraints of their kind, set its edges too. */
  stiffness: {},

  extent: (o) => 2 * o.radius,

  /** Drawn as a cloth's lit triangles; its colour through the surfaces' grid (one row: no weave to speak of). */
  render: {
    primitive: 'triangles',
    pointColor: 'clothParticle',
    sprite(o) {
      const spacing = (o.radius * 1.1) / o.resolution;
      return { radius: spacing * 0.1, pinnedRadius: spacing * 0.5, columns: sphereParticles(o.resolution), rows: 1, colour: o.colour ?? null };
    },
  },

  controls: [],
  strings: { en: { 'object.inflatable': 'Inflatable' }, zh: { 'object.inflatable': '充气物体' } },
};
