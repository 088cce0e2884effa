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

  controls: [
    ...Object.keys(KINDS).map((k) => control({ name: `stiffness.${k}`, param: `stiffness.${k}`, group: 'stiffness', step: 0.01 })),
    // How many times a pass sweeps the cells that hold a soft body's volume (src/families/volume.c); 0 is the tet
    // by tet model of scenes before version 3. Up to 16 by hand: past 8 a pressed cube keeps no more volume.
    control({ name: 'volumeSweeps', param: 'volumeSweeps', group: 'stiffness', max: 16, step: 1 }),
  ],
  /** Per-object material beyond the stiffness (plasticity, contact radius): body-common.js. */
  material: BODY_MATERIAL,

};

/** Its words (objects/index.js objectStrings, for the page's i18n; kept off the type so that a bundle without
 *  the panel, the element's, leaves them out). */
export const SOFT_STRINGS = {
  en: {
    'object.soft': 'Soft body',
    'param.stiffness.edge': 'Soft edges',
    'param.stiffness.edge.help': 'Soft bodies: stiffness of their tetrahedra\'s edges (shape)',
    'param.stiffness.volume': 'Soft volume',
    'param.stiffness.volume.help': 'Soft bodies: how firmly each body keeps its volume',
    'param.volumeSweeps': 'Volume sweeps',
    'param.volumeSweeps.help': 'Soft bodies: how many times each pass corrects the volume of their lattice cells '
      + '(more holds it better under a squeeze; 0 = tet by tet, as in scenes made before version 3)',
    ...BODY_MATERIAL_STRINGS.en,
  },
  zh: {
    'object.soft': '软体',
    'param.stiffness.edge': '软体棱边',
    'param.stiffness.edge.help': '软体：四面体棱边的刚度（形状）',
    'param.stiffness.volume': '软体体积',
    'param.stiffness.volume.help': '软体：每个物体保持体积的强度',
    'param.volumeSweeps': '体积扫描次数',
    'param.volumeSweeps.help': '软体：每次迭代校正其晶格单元体积的次数（越多，受挤压时体积保持得越好；0 = 逐个四面体，与版本 3 之前的场景相同）',
    ...BODY_MATERIAL_STRINGS.zh,
  },
};
