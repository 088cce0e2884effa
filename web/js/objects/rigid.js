// rigid.js — the rigid body object type: particles held in their rest shape by shape matching (Müller
// et al. 2005; the rotation of A_pq by Müller et al. 2016's iterative method, shapes family), made from a box, a
// ball, a surface (a mesh or an OBJ file, closed or not) or given tets' vertices (pbdjs_AddBody), drawn as its surface
// moved by the body's rotation and translation. Everything the page knows about rigid bodies is here and in
// body-common.js (what it shares with soft bodies), registered in objects/index.js.
//
//   { "type": "rigid", "name": "block", "shape": "box", "position": [0, 0.5, 0], "halfExtents": [0.2, 0.1, 0.1],
//     "resolution": 4, "mass": 1, "stiffness": 1 }
// stiffness < 1 makes it a soft shape-matched body (its goal pulls it only part of the way each pass).

import { PARAMS } from '../engine/params.js';
import { fieldKeys } from '../format/fields.js';
import { control } from '../panel/control.js';
import {
  BODY_MATERIAL, BODY_MATERIAL_STRINGS, bodyCounts, bodyDefaultRadius, bodyFillJob, bodyExtent, bodyOwnMass, bodyParticleMass,
  bodyFields, bodySprite, buildBody, meshSize, readBody,
} from './body-common.js';

const TYPE = 'rigid';
const TYPE_CODE = 3; // PBD_OBJECT_RIGID
const STIFFNESS = PARAMS['stiffness.shape'];
const KIND = 6; // pbdKind_shape

/** Its scene keys: a body's (body-common.js), its stiffness the parameter stiffness.shape. */
const FIELDS = bodyFields(TYPE);

/** @type {import('./index.js').ObjectType} */
export const rigid = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),
  read: (get, path, index) => readBody(FIELDS, get, path, index, TYPE),
  counts: (engine, o, index) => bodyCounts(engine, o, index, TYPE_CODE),
  fillJob: (engine, o) => bodyFillJob(engine, o, TYPE_CODE),

  /** Adds it to world `id` (its stiffness, plasticity and pins too); returns its first particle. */
  build(engine, id, o, index) {
    const first = buildBody(engine, id, o, index, TYPE_CODE);
    engine.check(engine.exports.pbd_World_SetObjectStiffness(id, index, KIND, o.stiffness), 'engine', id);
    return first;
  },

  /** Its particles move as one transform (World.getBodyTransform, pbd_World_GetBodyTransform). */
  shapeMatched: true,
  particleMass: bodyParticleMass,
  defaultRadius: bodyDefaultRadius,
  particlesWithOwnMass: bodyOwnMass,

  /** Its constraint kind: the engine's pbdConstraintKind, the parameter, where one object keeps its own. */
  stiffness: {
    shape: { kind: KIND, param: STIFFNESS.name, get: (o) => o.stiffness, set: (o, v) => { o.stiffness = v; } },
  },

  extent: bodyExtent,
  meshSize,

  /** Drawn as its skin moved by the body's transform (world.skinPositions after world.updateSkin()), matte like
   *  wood. Colours: render/palette.js. */
  render: { primitive: 'skin', pointColor: 'rigidParticle', skinColor: 'rigidBody', gloss: 0.15, sprite: bodySprite },

  controls: [control({ name: STIFFNESS.name, param: STIFFNESS.name, group: 'stiffness', step: 0.01 })],
  /** Per-object material beyond the stiffness (plasticity of the rest shape, contact radius): body-common.js. */
  material: BODY_MATERIAL,

};

/** Its words (objects/index.js objectStrings, for the page's i18n; kept off the type so that a bundle without
 *  the panel, the element's, leaves them out). */
export const RIGID_STRINGS = {
  en: {
    'object.rigid': 'Rigid body',
    'param.stiffness.shape': 'Rigid shape',
    'param.stiffness.shape.help': 'Shape-matched bodies: how fully each pass pulls them to their rest shape (1 = rigid)',
    ...BODY_MATERIAL_STRINGS.en,
  },
  zh: {
    'object.rigid': '刚体',
    'param.stiffness.shape': '刚体形状',
    'param.stiffness.shape.help': '形状匹配物体：每次迭代把它拉回静止形状的程度（1 = 刚性）',
    ...BODY_MATERIAL_STRINGS.zh,
  },
};
