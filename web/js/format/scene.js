// scene.js — the MiniPBD scene description, format "minipbd-scene" version 3 (versions 1 and 2 still read): strict
// validation and normalisation (docs/scene-format.md).
//
// Versions. Version 2 added solver.collisions (particles of different objects collide; the engine's default, on).
// In version 1 objects collided with each other exactly when self-collision was on, so a version 1 scene that
// does not say `collisions` gets collisions = selfCollision: it, and every link made before version 2, builds
// the world it always did. Version 3 solves soft bodies' volume by cells (solver.volumeSweeps, the engine's
// default 8: src/families/volume.c); a scene of version 1 or 2 that does not say `volumeSweeps` gets 0, the tet by
// tet volumes it was made with, so it and every link made before version 3 replay as they did. Normalised scenes
// are version 3.
//
// Usage (Node 20 or browser, no dependencies):
//   import { validateScene, SceneError } from './format/scene.js';
//   try { const scene = validateScene(JSON.parse(text)); world = pbd.createWorld(scene); }
//   catch (e) { if (e instanceof SceneError) showText(e.message); else throw e; }   // e.path = "objects[1].resolution[0]"
//
// validateScene(input) never mutates or returns `input`: it builds a NEW object holding every field of the
// schema (defaults filled in), so callers can rely on the full shape without `?? default` everywhere. Input is
// untrusted (it arrives in share links): the readers (format/read.js) walk only the known schema, read only own
// data properties, refuse forbidden keys and bound every length. The scene's keys are rows (format/fields.js,
// SCENE_ROWS below); its parameter sections (solver, ground, wind, fluid) are the places of the engine's parameter
// table (engine/params.js, from the C table); each object's keys and rules are its type's rows (objects/, the
// registry).

import { SCENE_PARAMS, fluidRatioProblem, parsePlace, placeFields } from '../engine/params.js';
import { checkSceneObjects, findObjectType, isObjectPlace, objectMeshSize, OBJECT_TYPES } from '../objects/index.js';
import { NAME_ROW, fieldKeys, readField } from './fields.js';
import { SCENE_LIMITS } from './limits.js';
import { SceneError, array, fail, join, peek, record } from './read.js';

export { SceneError, SCENE_LIMITS };

const L = SCENE_LIMITS;

const FORMAT = 'minipbd-scene';
/** The scene version this page writes (it reads the earlier ones too). */
export const SCENE_VERSION = 3;
/** The versions this page reads. */
const VERSIONS = Object.freeze([1, 2, SCENE_VERSION]);

/** Whether the scene's own `solver` (untrusted input) gives `key`. */
function says(input, key) {
  return input !== null && typeof input === 'object' && Object.hasOwn(input, key);
}

/** A version 1 scene without `collisions`: objects collide with each other as they did then, with self-collision. */
function upgradeFromVersion1(input, solver) {
  if (!says(input, 'collisions')) solver.collisions = solver.selfCollision;
}

/** A version 1 or 2 scene without `volumeSweeps`: soft bodies keep their volume tet by tet, as they did then. */
function upgradeFromVersion2(input, solver) {
  if (!says(input, 'volumeSweeps')) solver.volumeSweeps = 0;
}

// The scene's keys, one row each (format/fields.js), in the order a normalised scene writes them and an unknown key's
// message lists them: what the validator reads the camera, the colliders and the parameter sections with, the JSON
// Schema is made from (tools/gen-scene-schema.mjs) and tests/node/types.test.mjs checks minipbd.d.ts against. The
// rows marked `own` are read by validateScene itself (their messages, the objects' running totals).

// The sections whose fields are the engine's parameters: every first part of a place in the parameter table that is
// not an object type's (objects/, their `params` rows: "cloth.stiffness.stretch"), in the table's order. Their keys,
// ranges and defaults are the table's (e.g. 10 substeps of 1 pass: of all splits of 10 passes per step it gives the
// least stretch per millisecond, tools/split-curve.mjs). A scene written before a field existed gets the engine's
// default, so it builds the same world.
const SECTION_HEADS = [...new Set(SCENE_PARAMS.filter((p) => !isObjectPlace(p.scene)).map((p) => parsePlace(p.scene).head))];

/** The rules of a section beyond its fields: the ground may be null (the default ground; {"enabled": false} switches
 *  it off), and the fluid's smoothing radius is 1 to 4 times its spacing (engine/params.js FLUID_RATIO; objects/fluid.js
 *  reads the spacing). */
const SECTION_RULES = {
  ground: { orNull: true },
  fluid: {
    check(out, path) {
      const problem = fluidRatioProblem(out.spacing, out.smoothingRadius);
      if (problem) throw new SceneError(join(path, 'smoothingRadius'), problem);
    },
  },
};
const sectionRow = (head) => ({ key: head, kind: 'params', place: head, fields: placeFields(head), ...SECTION_RULES[head] });

const CAMERA = {
  key: 'camera', kind: 'record',
  fields: [
    { key: 'target', kind: 'coord3', default: [0, 1, 0], unit: 'm' },
    // yaw has no range in the spec (an orbiting user may wind it up): any finite number.
    { key: 'yaw', kind: 'finite', default: 0.6, unit: 'rad' },
    { key: 'pitch', kind: 'number', min: -L.maxPitch, max: L.maxPitch, minExcl: true, maxExcl: true, default: 0.25, unit: 'rad' },
    { key: 'distance', kind: 'number', min: L.distance.min, max: L.distance.max, default: 4, unit: 'm' },
    { key: 'fov', kind: 'number', min: L.fov.min, max: L.fov.max, default: 45, unit: 'degrees' },
  ],
};

/** A collider: a sphere, capsule or box (its `type`, the tag: the rows with `shapes` are those shapes' only). */
const COLLIDER_SIZE = { kind: 'number', min: 0, minExcl: true, max: L.colliderSize.max, unit: 'm' };
const FRICTION = { kind: 'number', ...L.colliderFriction };
const COLLIDER = {
  kind: 'record',
  fields: [
    { key: 'type', kind: 'enum', values: ['sphere', 'capsule', 'box'], required: true, tag: true },
    NAME_ROW,
    { key: 'position', kind: 'coord3', required: true, unit: 'm' },
    { key: 'rotation', kind: 'quaternion', default: [0, 0, 0, 1], shapes: ['capsule', 'box'] },
    { key: 'radius', ...COLLIDER_SIZE, default: 0.5, shapes: ['sphere', 'capsule'] },
    { key: 'halfHeight', ...COLLIDER_SIZE, default: 0.5, shapes: ['capsule'] },
    { key: 'halfExtents', ...COLLIDER_SIZE, kind: 'vec', n: 3, default: [0.5, 0.5, 0.5], shapes: ['box'] },
    { key: 'staticFriction', ...FRICTION, default: 0.5 },
    { key: 'kineticFriction', ...FRICTION, default: 0.4 },
    { key: 'restitution', kind: 'number', ...L.colliderRestitution, default: 0 },
    // How it is drawn, not what it does: a glass collider is translucent (render/colliders.js), the physics the same.
    { key: 'glass', kind: 'boolean', default: false },
  ],
};

/** The rows of the scene's parts that are not sections, and where each stands among the sections (`after`: the
 *  camera has stood after the ground since version 1, and the order of a normalised scene is in every link's bytes). */
const SCENE_ROWS = (() => {
  const rows = SECTION_HEADS.map(sectionRow);
  rows.splice(rows.findIndex((f) => f.key === 'ground') + 1, 0, CAMERA);
  return [
    // "$schema" is for editors (a file may name scene.schema.json to get completion and checks): it is read, bounded
    // and left out of the normalised scene, which describes a world, so a link or a download does not carry an address.
    { key: '$schema', kind: 'text', maxLength: L.maxSchemaLength, own: true,
      description: 'the address of this schema, for editors (the validator reads and drops it)' },
    { key: 'format', kind: 'const', value: FORMAT, required: true, own: true },
    { key: 'version', kind: 'enum', values: VERSIONS, required: true, own: true,
      description: `the scene version (this page writes ${SCENE_VERSION})` },
    { key: 'name', kind: 'name', default: 'Untitled scene' },
    ...rows,
    { key: 'colliders', kind: 'list', item: COLLIDER, max: L.maxColliders, noun: 'colliders', default: [] },
    { key: 'objects', kind: 'list', item: { kind: 'object', types: OBJECT_TYPES }, min: 1, max: L.maxObjects, noun: 'objects', required: true, own: true },
  ];
})();
const SCENE_KEYS = fieldKeys(SCENE_ROWS);

/** The scene's rows as data, for the JSON Schema (tools/gen-scene-schema.mjs) and the types' test to be made from and
 *  checked against the same tables this module reads with. */
export const SCENE_TABLES = Object.freeze({
  format: FORMAT, versions: VERSIONS, rows: SCENE_ROWS, keys: SCENE_KEYS, sections: SECTION_HEADS,
  camera: CAMERA, collider: COLLIDER,
});

/**
 * Validates an untrusted scene (parsed JSON or a JS object) and returns a new, fully normalised scene.
 * @throws {SceneError} naming the path of the first bad value.
 */
export function validateScene(input) {
  const get = record(input, '', SCENE_KEYS, 'a JSON object');
  const schemaRef = get('$schema');
  if (schemaRef !== undefined && (typeof schemaRef !== 'string' || schemaRef.length > L.maxSchemaLength)) {
    fail('$schema', `must be a string of at most ${L.maxSchemaLength} characters (the address of a JSON Schema)`, schemaRef);
  }
  const format = get('format');
  if (format !== FORMAT) fail('format', `must be "${FORMAT}"`, format);
  const version = get('version');
  if (!VERSIONS.includes(version)) fail('version', `must be ${VERSIONS.slice(0, -1).join(', ')} or ${SCENE_VERSION} (the scene versions this page reads)`, version);
  const scene = { format: FORMAT, version: SCENE_VERSION };
  // The name, the sections, the camera and the colliders, in the order of the scene's keys.
  const ctx = {};
  for (const f of SCENE_ROWS) if (!f.own) scene[f.key] = readField(f, get(f.key), f.key, ctx);
  scene.objects = [];
  if (version === 1) upgradeFromVersion1(get('solver'), scene.solver);
  if (version <= 2) upgradeFromVersion2(get('solver'), scene.solver);
  const list = array(get('objects'), 'objects', 1, L.maxObjects, `an array of 1..${L.maxObjects} objects`);
  // Particle counts are not the validator's: they are the engine's plan (a lattice body, a fluid block), and a
  // world's creation checks them against maxParticles (engine/loader.js countScene, objects/index.js checkSceneCounts).
  let meshVertices = 0, meshElements = 0;
  for (let i = 0; i < list.length; i++) {
    const path = join('objects', i);
    // The type first, then the keys against that type's own list: "origin" on a chain is as unknown as "foo", and
    // the message lists a chain's keys, not every type's.
    if (list[i] === null || typeof list[i] !== 'object' || Array.isArray(list[i])) fail(path, 'must be an object', list[i]);
    const typeName = peek(list[i], 'type');
    const type = typeof typeName === 'string' ? findObjectType(typeName) : null;
    if (!type) fail(join(path, 'type'), `must be ${OBJECT_TYPES.map((t) => JSON.stringify(t.type)).join(' or ')}`, typeName);
    const objGet = record(list[i], path, type.keys);
    const obj = type.read(objGet, path, i, scene);
    // Bodies' meshes are bounded one by one (objects/body-common.js) and together, so 64 of the largest cannot
    // pass as one scene.
    const [v, e] = objectMeshSize(obj);
    meshVertices += v;
    meshElements += e;
    if (meshVertices > L.maxMeshVertices || meshElements > L.maxMeshElements) {
      fail('objects', `must have at most ${L.maxMeshVertices} mesh vertices and ${L.maxMeshElements} triangles and tets in total (exceeded at ${path})`,
        meshVertices > L.maxMeshVertices ? meshVertices : meshElements);
    }
    scene.objects.push(obj);
  }
  checkSceneObjects(scene);
  return scene;
}

