// inflatable.js — the inflatable object type: a closed triangle surface kept inflated by the overpressure constraint
// of Müller et al. 2007 "Position Based Dynamics" §4.4 (C = V − k_pressure·V₀ over all its particles,
// src/families/inflatables.c), with a cloth's stretch and bend constraints on its edges (src/builders/inflatable.c,
// pbdjs_AddInflatable in src/wasm/api_inflatables.c). Registered in objects/index.js; drawn as a cloth is.
//
//   { "type": "inflatable", "name": "balloon", "center": [0, 1, 0], "radius": 0.2, "resolution": 6,
//     "pressure": 1.2, "mass": 0.0005, "stiffness": { "stretch": 0.3, "bend": 0.02 }, "colour": "#d83a3a" }
//
// The surface is the built-in geodesic sphere of `resolution` (10 n² + 2 particles, each of `mass` kg) and
// `radius` around `center`, or a closed mesh (`mesh` {vertices, triangles} or `obj`, OBJ text, as a "mesh" body's:
// objects/surface-mesh.js, `size` its longest side) moved by `center`, a particle a vertex. `pressure` is
// k_pressure: the volume it holds against V₀, the volume as built.

import { SCENE_LIMITS as L } from '../format/limits.js';
import { ENGINE_LIMITS } from '../engine/params.js';
import { NAME_ROW, fieldKeys, fieldReader, typeRow } from '../format/fields.js';
import { SceneError, join } from '../format/read.js';
import { FILTER_ROWS } from './filter.js';
import { OBJ_TEXT, SIZE_TEXT, SURFACE, fitMesh, longestSide, meshSize, surface } from './surface-mesh.js';

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
  // A mesh instead of the sphere (`mesh` or `obj`, at most one), as a mesh body's.
  { key: 'size', kind: 'number', min: 0, minExcl: true, max: L.maxSize, unit: 'm', description: SIZE_TEXT },
  { key: 'mesh', ...SURFACE, description: 'a closed surface instead of the sphere, moved by center' },
  { key: 'obj', kind: 'text', maxLength: L.maxObjBytes, description: OBJ_TEXT },
];
/** The keys only the sphere has, and those only a mesh has (read last: mesh is the long one). */
const SPHERE_KEYS = ['radius', 'resolution'];
const MESH_KEYS = ['size', 'mesh', 'obj'];

/** Reads it: the sphere's keys or a mesh's (`mesh` or `obj`: surface-mesh.js refuses both), never both kinds. */
function readInflatable(get, path, index, scene) {
  const r = fieldReader(FIELDS, get, path, { type: TYPE, index, scene });
  const given = (keys) => keys.find((k) => get(k) !== undefined);
  const meshKey = given(['mesh', 'obj']);
  const wrong = given(meshKey ? SPHERE_KEYS : ['size']);
  if (wrong) {
    const p = join(path, wrong);
    throw new SceneError(p, `${p} is not a key of an inflatable ${meshKey ? `with "${meshKey}"` : 'without a mesh'}`);
  }
  const o = r.all(FIELDS.filter((f) => !MESH_KEYS.includes(f.key) && !(meshKey && SPHERE_KEYS.includes(f.key))));
  if (meshKey) {
    const mesh = surface(get('mesh'), get('obj'), path, r, 'an inflatable');
    const size = fitMesh(mesh, r.value('size'));
    if (size !== undefined) o.size = size;
    o.mesh = mesh;
  }
  return o;
}

/** Its particles' spacing, for their drawn size: the sphere's about 1.1 r / n, a mesh's as if a sphere of as many. */
const spacing = (o) => (o.mesh ? (0.55 * longestSide(o.mesh)) / Math.sqrt(o.mesh.vertices.length / 10) : (o.radius * 1.1) / o.resolution);

/** @type {import('./index.js').ObjectType} */
export const inflatable = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),
  read: readInflatable,
  meshSize,

  /** What the engine reserves for it (pbd_InflatableCounts, pbd_InflatableMeshCounts). */
  counts(engine, o) {
    const [particles, constraints, triangles] = o.mesh
      ? engine.counts('pbdjs_InflatableMeshCounts', o.mesh.vertices.length, o.mesh.triangles.length)
      : engine.counts('pbdjs_InflatableCounts', o.resolution);
    return { particles, constraints, triangles, lines: 0 };
  },

  /** Adds it to world `id` with its edges' stiffnesses; returns its first particle. A mesh the engine refuses (not
   *  closed, manifold, oriented; a degenerate triangle, a loose vertex) is a SceneError with the engine's reason. */
  build(engine, id, o, index) {
    const e = engine.exports;
    const vertices = Float32Array.from(o.mesh?.vertices.flat() ?? []), indices = Uint32Array.from(o.mesh?.triangles.flat() ?? []);
    const r = engine.heap.withArrays([vertices, indices], (vp, ip) => e.pbdjs_AddInflatable(id, ...o.center, o.radius ?? 0, o.resolution ?? 0,
      vp, vertices.length / 3, ip, indices.length / 3, o.mass, o.pressure, 1));
    if (r < 0 && o.mesh) {
      const p = join(join('objects', index), 'mesh');
      throw new SceneError(p, `${p} is refused by the engine: ${engine.lastError(id)}`);
    }
    const first = engine.check(r, 'engine', id);
    for (const k of Object.keys(KINDS)) engine.check(e.pbd_World_SetObjectStiffness(id, index, KINDS[k], o.stiffness[k]), 'engine', id);
    return first;
  },

  particlesWithOwnMass: () => new Set(),

  /** Its edges are the engine's stretch and bend kinds, which the cloth type owns on the page (one type per kind):
   *  it sets its own per object (build) and lists none here, so the panel's cloth sliders, which set every object's
   *  constraints of their kind, set its edges too. */
  stiffness: {},

  extent: (o) => (o.mesh ? longestSide(o.mesh) : 2 * o.radius),

  /** Drawn as a cloth's lit triangles; its colour through the surfaces' grid (one row: no weave to speak of). */
  render: {
    primitive: 'triangles',
    pointColor: 'clothParticle',
    sprite(o) {
      const d = spacing(o);
      return { radius: d * 0.1, pinnedRadius: d * 0.5, columns: o.mesh ? o.mesh.vertices.length : sphereParticles(o.resolution), rows: 1, colour: o.colour ?? null };
    },
  },

  controls: [],
};

/** Its words (objects/index.js objectStrings, for the page's i18n; kept off the type so that a bundle without
 *  the panel, the element's, leaves them out). */
export const INFLATABLE_STRINGS = { en: { 'object.inflatable': 'Inflatable' }, zh: { 'object.inflatable': '充气物体' } };
