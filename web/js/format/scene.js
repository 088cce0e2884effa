// scene.js — the MiniPBD scene description, format "minipbd-scene" version 2 (version 1 still read): strict
// validation and normalisation (docs/scene-format.md).
//
// Versions. Version 2 added solver.collisions (particles of different objects collide; the engine's default, on).
// In version 1 objects collided with each other exactly when self-collision was on, so a version 1 scene that
// does not say `collisions` gets collisions = selfCollision: it, and every link made before version 2, builds
// the world it always did. Normalised scenes are version 2.
//
// Usage (Node 20 or browser, no dependencies):
//   import { validateScene, SceneError } from './format/scene.js';
//   try { const scene = validateScene(JSON.parse(text)); world = pbd.createWorld(scene); }
//   catch (e) { if (e instanceof SceneError) showText(e.message); else throw e; }   // e.path = "objects[1].resolution[0]"
//
// validateScene(input) never mutates or returns `input`: it builds a NEW object holding every field of the
// schema (defaults filled in), so callers can rely on the full shape without `?? default` everywhere. Input is
// untrusted (it arrives in share links): the readers (format/read.js) walk only the known schema, read only own
// data properties, refuse forbidden keys and bound every length. The solver, ground, wind and fluid sections are
// the engine's parameters (engine/params.js, from the C table); each object's keys and rules are its type's rows
// (objects/, the registry; format/fields.js reads by them).

import { SCENE_PARAMS, fluidRatioProblem, parsePlace, placeFields } from '../engine/params.js';
import { checkSceneObjects, findObjectType, isObjectPlace, objectMeshSize, OBJECT_TYPES, sceneParticleCount } from '../objects/index.js';
import { readParams } from './fields.js';
import { SCENE_LIMITS } from './limits.js';
import {
  SceneError, array, boolean, coord3, fail, finite, join, name, number, optional, peek, quaternion, record, required, structuredCopy,
} from './read.js';

export { SceneError, SCENE_LIMITS, sceneParticleCount };

const L = SCENE_LIMITS;

const FORMAT = 'minipbd-scene';
/** The scene version this page writes (it reads 1 too). */
export const SCENE_VERSION = 2;

/** A version 1 scene without `collisions`: objects collide with each other as they did then, with self-collision. */
function upgradeFromVersion1(input, solver) {
  const given = input !== null && typeof input === 'object' && Object.hasOwn(input, 'collisions');
  if (!given) solver.collisions = solver.selfCollision;
}

// "$schema" is for editors (a file may name scene.schema.json to get completion and checks): it is read, bounded and
// left out of the normalised scene, which describes a world, so a link or a download does not carry an address.
const SCENE_KEYS = ['$schema', 'format', 'version', 'name', 'solver', 'ground', 'camera', 'wind', 'fluid', 'colliders', 'objects'];
const COLLIDER_KEYS = {
  sphere: ['type', 'name', 'position', 'radius', 'staticFriction', 'kineticFriction', 'restitution', 'glass'],
  capsule: ['type', 'name', 'position', 'rotation', 'radius', 'halfHeight', 'staticFriction', 'kineticFriction', 'restitution', 'glass'],
  box: ['type', 'name', 'position', 'rotation', 'halfExtents', 'staticFriction', 'kineticFriction', 'restitution', 'glass'],
};
const CAMERA_KEYS = ['target', 'yaw', 'pitch', 'distance', 'fov'];

// The sections whose fields are the engine's parameters: every first part of a place in the parameter table that is
// not an object type's (objects/, their `params` rows: "cloth.stiffness.stretch"), in the table's order (solver,
// ground, wind, fluid). Their keys, ranges and defaults are the table's (e.g. 10 substeps of 1 pass: of all splits of
// 10 passes per step it gives the least stretch per millisecond, tools/split-curve.mjs). A scene written before a
// field existed gets the engine's default, so it builds the same world.
const SECTIONS = Object.fromEntries(SCENE_PARAMS.filter((p) => !isObjectPlace(p.scene)).map((p) => parsePlace(p.scene).head)
  .map((head) => [head, placeFields(head)]));
for (const head of Object.keys(SECTIONS)) {
  if (!SCENE_KEYS.includes(head)) throw new Error(`format/scene.js: the parameter table's section ${head} has no place among SCENE_KEYS`);
}
const DEFAULT_COLLIDER = { rotation: [0, 0, 0, 1], radius: 0.5, halfHeight: 0.5, halfExtents: [0.5, 0.5, 0.5], staticFriction: 0.5, kineticFriction: 0.4, restitution: 0, glass: false };
const DEFAULT_CAMERA = { target: [0, 1, 0], yaw: 0.6, pitch: 0.25, distance: 4, fov: 45 };
const DEFAULT_SCENE_NAME = 'Untitled scene';

/** The scene's own keys and defaults as data, for the JSON Schema (tools/gen-scene-schema.mjs) to be made from the
 *  same tables this module checks against. */
export const SCENE_TABLES = Object.freeze({
  format: FORMAT, versions: Object.freeze([1, SCENE_VERSION]), keys: SCENE_KEYS, sections: Object.keys(SECTIONS),
  colliderKeys: COLLIDER_KEYS, colliderDefaults: DEFAULT_COLLIDER, cameraKeys: CAMERA_KEYS, cameraDefaults: DEFAULT_CAMERA,
  defaultName: DEFAULT_SCENE_NAME,
});

/** The rules of a section beyond its fields: the ground may be null (the default ground), and the fluid's smoothing
 *  radius is 1 to 4 times its spacing (engine/params.js FLUID_RATIO; objects/fluid.js reads the spacing). */
const SECTION_RULES = {
  ground: {
    // null and absent both mean "default ground"; {"enabled": false} switches it off.
    read(value, path) {
      if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) fail(path, 'must be an object or null', value);
      return value ?? undefined;
    },
  },
  fluid: {
    check(out, path) {
      const problem = fluidRatioProblem(out.spacing, out.smoothingRadius);
      if (problem) throw new SceneError(join(path, 'smoothingRadius'), problem);
    },
  },
};

/** A section of engine parameters: every field of the table, defaults filled in (format/fields.js readParams). */
function section(head, value) {
  const rule = SECTION_RULES[head] ?? {};
  const out = readParams(SECTIONS[head], rule.read ? rule.read(value, head) : value, head);
  rule.check?.(out, head);
  return out;
}

function collider(value, path, index) {
  // The type first: an unknown key is then named against this type's keys, not every collider's.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'must be an object', value);
  const type = peek(value, 'type');
  if (typeof type !== 'string' || !Object.hasOwn(COLLIDER_KEYS, type)) fail(join(path, 'type'), 'must be "sphere", "capsule" or "box"', type);
  const get = record(value, path, COLLIDER_KEYS[type]);
  const d = DEFAULT_COLLIDER;
  const size = (v, p) => number(v, p, 0, L.colliderSize.max, { minExcl: true });
  const out = {
    type,
    name: optional(get('name'), `${type} ${index + 1}`, (v) => name(v, join(path, 'name'))),
    position: coord3(required(get, 'position', path), join(path, 'position')),
  };
  if (type !== 'sphere') {
    out.rotation = optional(get('rotation'), [...d.rotation], (v) => quaternion(v, join(path, 'rotation')));
  }
  if (type !== 'box') out.radius = optional(get('radius'), d.radius, (v) => size(v, join(path, 'radius')));
  if (type === 'capsule') out.halfHeight = optional(get('halfHeight'), d.halfHeight, (v) => size(v, join(path, 'halfHeight')));
  if (type === 'box') {
    out.halfExtents = optional(get('halfExtents'), [...d.halfExtents], (v) => {
      const p = join(path, 'halfExtents');
      return array(v, p, 3, 3, 'an array of 3 numbers').map((x, i) => size(x, join(p, i)));
    });
  }
  const friction = (key) => optional(get(key), d[key], (v) => number(v, join(path, key), L.colliderFriction.min, L.colliderFriction.max));
  out.staticFriction = friction('staticFriction');
  out.kineticFriction = friction('kineticFriction');
  out.restitution = optional(get('restitution'), d.restitution, (v) => number(v, join(path, 'restitution'), L.colliderRestitution.min, L.colliderRestitution.max));
  // How it is drawn, not what it does: a glass collider is translucent (render/colliders.js), the physics the same.
  out.glass = optional(get('glass'), d.glass, (v) => boolean(v, join(path, 'glass')));
  return out;
}

function camera(value, path) {
  if (value === undefined) return structuredCopy(DEFAULT_CAMERA);
  const get = record(value, path, CAMERA_KEYS);
  const d = DEFAULT_CAMERA;
  return {
    target: optional(get('target'), [...d.target], (v) => coord3(v, join(path, 'target'))),
    // yaw has no range in the spec (an orbiting user may wind it up): any finite number.
    yaw: optional(get('yaw'), d.yaw, (v) => finite(v, join(path, 'yaw'))),
    pitch: optional(get('pitch'), d.pitch, (v) => number(v, join(path, 'pitch'), -L.maxPitch, L.maxPitch, { minExcl: true, maxExcl: true })),
    distance: optional(get('distance'), d.distance, (v) => number(v, join(path, 'distance'), L.distance.min, L.distance.max)),
    fov: optional(get('fov'), d.fov, (v) => number(v, join(path, 'fov'), L.fov.min, L.fov.max)),
  };
}

/** The scene's parts that are not parameter sections. */
const PARTS = {
  camera,
  colliders: (value, path) => optional(value, [], (v) => array(v, path, 0, L.maxColliders, `an array of at most ${L.maxColliders} colliders`)
    .map((c, i) => collider(c, join(path, i), i))),
};

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
  if (version !== 1 && version !== SCENE_VERSION) fail('version', `must be 1 or ${SCENE_VERSION} (the scene versions this page reads)`, version);
  const scene = {
    format: FORMAT,
    version: SCENE_VERSION,
    name: optional(get('name'), DEFAULT_SCENE_NAME, (v) => name(v, 'name')),
  };
  // The sections, the camera and the colliders, in the order of the scene's keys.
  for (const key of SCENE_KEYS.slice(SCENE_KEYS.indexOf('name') + 1, -1)) {
    scene[key] = Object.hasOwn(SECTIONS, key) ? section(key, get(key)) : PARTS[key](get(key), key);
  }
  scene.objects = [];
  if (version === 1) upgradeFromVersion1(get('solver'), scene.solver);
  const list = array(get('objects'), 'objects', 1, L.maxObjects, `an array of 1..${L.maxObjects} objects`);
  let total = 0, meshVertices = 0, meshElements = 0;
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
    total += type.particleCount(obj, scene);
    if (total > L.maxParticles) {
      fail('objects', `must have at most ${L.maxParticles} particles in total (exceeded at ${path})`, total);
    }
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

