// soft.js — the soft body object type: a tetrahedral mesh whose tets keep their edges' lengths
// (distance family, kind edge) and their signed volume C = V - V0 (volume family, seed 001), made from a box, a
// ball, a surface (a mesh or an OBJ file, closed or not) or given tets (pbdjs_AddBody, src/builders/body.c), drawn as its
// skin: a smooth surface embedded in the tets. Everything the page knows about soft bodies is here and in
// body-common.js (what it shares with rigid bodies), registered in objects/index.js.
//
//   { "type": "soft", "name": "jelly", "shape": "box", "position": [0, 1, 0], "halfExtents": [0.2, 0.2, 0.2],
//     "resolution": 5, "mass": 1, "stiffness": { "edge": 0.5, "volume": 1 },
//     "plasticity": { "yield": 0.1, "creep": 0, "max": 0.5 }, "pins": [], "pinBoxes": [] }

import { fieldKeys } from '../format/fields.js';
import { control } from '../panel/control.js';
import {
  BODY_MATERIAL, BODY_MATERIAL_STRINGS, bodyCounts, bodyDefaultRadius, bodyFillJob, bodyExtent, bodyOwnMass, bodyParticleMass,
  bodyFields, bodySprite, buildBody, meshSize, readBody,
} from './body-common.js';

const TYPE = 'soft';
const TYPE_CODE = 2; // PBD_OBJECT_SOFT
const KINDS = { edge: 4, volume: 5 }; // pbdKind_edge, pbdKind_volume

/** Its scene keys: a body's (body-common.js), its stiffness the parameters stiffness.edge and stiffness.volume. */
const FIELDS = bodyFields(TYPE);

/** @type {import('./index.js').ObjectType} */
export const soft = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),
  read: (get, path, index) => readBody(FIELDS, get, path, index, TYPE),
  counts: (engine, o, index) => bodyCounts(engine, o, index, TYPE_CODE),
  fillJob: (engine, o) => bodyFillJob(engine, o, TYPE_CODE),

  /** Adds it to world `id` (its stiffnesses, plasticity and pins too); returns its first particle. */
  build(engine, id, o, index) {
    const first = buildBody(engine, id, o, index, TYPE_CODE);
    for (const [k, kind] of Object.entries(KINDS)) {
      engine.check(engine.exports.pbd_World_SetObjectStiffness(id, index, kind, o.stiffness[k]), 'engine', id);
    }
    return first;
  },

  particleMass: bodyParticleMass,
  defaultRadius: bodyDefaultRadius,
  particlesWithOwnMass: bodyOwnMass,

  /** Its constraint kinds: the engine's pbdConstraintKind, the parameter, where one object keeps its own. */
  stiffness: Object.fromEntries(Object.entries(KINDS).map(([k, kind]) => [k, {
    kind, param: `stiffness.${k}`, get: (o) => o.stiffness[k], set: (o, v) => { o.stiffness[k] = v; },
  }])),

  extent: bodyExtent,
  meshSize,

  /** Drawn as its skin (world.skinPositions/skinTriangles after world.updateSkin()), glossy like a jelly;
   *  particles at their radius. Colours: render/palette.js. */
  render: { primitive: 'skin', pointColor: 'softParticle', skinColor: 'softBody', gloss: 1, sprite: bodySprite },

  controls: Object.keys(KINDS).map((k) => control({ name: `stiffness.${k}`, param: `stiffness.${k}`, group: 'stiffness', step: 0.01 })),
  /** Per-object material beyond the stiffness (plasticity, contact radius): body-common.js. */
  material: BODY_MATERIAL,

  strings: {
    en: {
      'object.soft': 'Soft body',
      'param.stiffness.edge': 'Soft edges',
      'param.stiffness.edge.help': 'Soft bodies: stiffness of their tetrahedra\'s edges (shape)',
      'param.stiffness.volume': 'Soft volume',
      'param.stiffness.volume.help': 'Soft bodies: how firmly each tetrahedron keeps its volume',
      ...BODY_MATERIAL_STRINGS.en,
    },
    zh: {
      'object.soft': '软体',
      'param.stiffness.edge': '软体棱边',
      'param.stiffness.edge.help': '软体：四面体棱边的刚度（形状）',
      'param.stiffness.volume': '软体体积',
      'param.stiffness.volume.help': '软体：每个四面体保持体积的强度',
      ...BODY_MATERIAL_STRINGS.zh,
    },
  },
};
