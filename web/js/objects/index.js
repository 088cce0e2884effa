// index.js — the object types, registered in one list (a registry). The scene format,
// the World (counts, building, masses, stiffness), the panel, the strings, the renderer and the recorder ask this
// registry; nothing outside web/js/objects/ branches on an object's type. A new type is one module here with the
// members below, added to OBJECT_TYPES.
//
// @typedef {object} ObjectType
// @property {string} type             its "type" in a scene
// @property {object[]} fields         its scene keys, one row each (format/fields.js): kind, range, default, unit. The
//   one description of its keys: the validator reads with it, the JSON Schema is made from it
//   (tools/gen-scene-schema.mjs) and tests/node/types.test.mjs checks its .d.ts against it
// @property {string[]} keys           its rows' keys, the scene keys it allows
// @property {(get, path: string, index: number, scene) => object} read   validates and normalises by its rows
//   (format/fields.js, with the rules across values); `scene` holds the sections read so far (a fluid reads its spacing)
// @property {(engine, o, index: number, scene) => {particles, constraints, triangles, lines, tets?, skinVertices?,
//   skinTriangles?, fluidParticles?}} counts   what the engine reserves for it, the only count of its particles (may
//   throw a SceneError naming objects[index]: a count past what its keys allow)
// @property {(engine, o) => ({run: (deadline: number) => boolean, cancel: () => void})|null} [fillJob]   work its build
//                                      can do ahead, in parts (a mesh body's fill: objects/body-fill.js)
// @property {(scene) => void} [checkScene]   checks its objects of a scene together (throws a SceneError)
// @property {(o) => number} [thicknessSpacing]   its particles take solver.thickness / 2 as their contact radius: the
//   spacing that bounds it (thicknessProblem), with `thicknessField`, the key a refusal names
// @property {(engine, id: number, o, index: number) => number} build   adds it to a world; its first particle
// @property {(o, count: number) => number} [particleMass]   the mass of one of its `count` particles (default o.mass)
// @property {(o, world?, index?: number) => Set<number>} particlesWithOwnMass   local particles its `mass` does
//   not set (pins, ranges); a body reads its pins (w = 0) from the world when given
// @property {Object<string, {kind: number, param: string, get, set}>} stiffness   its constraint kinds
// @property {(o) => number} extent     its largest size in metres (a recording's quantum)
// @property {boolean} [shapeMatched]  its particles move as one rigid transform (World.getBodyTransform)
// @property {boolean} [water]        its particles are water: live counts that change at any step (hoses, drains),
//   World.fluidStats, drawn as water, not grabbed (hasWater: a scene with some)
// @property {(o) => object[]} [emitters]   its emitters (a fluid's hoses), the scene's own records: sceneEmitters
//   numbers them over the scene in the order the engine does (World.setEmitter, replays' "e" events, the hose switches)
// @property {(o) => number[]} [meshSize]   [vertices, triangles + tets] of its mesh, for the scene's totals
// @property {{primitive: 'lines'|'triangles'|'skin', pointColor: string, skinColor?: string, gloss?: number, sprite: (o) => object}} render
//   'skin': a body, drawn from world.skinPositions / skinNormals / skinTriangles after world.updateSkin()
// @property {object[]} [material]     per-object fields beyond stiffness (bodies: plasticity, contact radius):
//   { name, min, max, step, get(o), write(world, index, value) }, strings `material.<name>` and `.help`
// @property {object[]} controls       its panel controls (panel/control.js control())
// @property {string[]} [folders]      panel folders of its own (after the masses)
// Its words (en, zh) are OBJECT_TYPE_STRINGS[type], beside it (below).

import { chain, CHAIN_STRINGS } from './chain.js';
import { cloth } from './cloth.js';
import { CLOTH_STRINGS } from './cloth-strings.js';
import { fluid, FLUID_STRINGS } from './fluid.js';
import { inflatable, INFLATABLE_STRINGS } from './inflatable.js';
import { rigid, RIGID_STRINGS } from './rigid.js';
import { soft, SOFT_STRINGS } from './soft.js';
import { radiusSpacingProblem } from '../engine/params.js';
import { SCENE_LIMITS as L } from '../format/limits.js';
import { fail } from '../format/read.js';

/** The object types, in the order the panel shows their controls. */
export const OBJECT_TYPES = Object.freeze([cloth, chain, soft, rigid, fluid, inflatable]);

const BY_NAME = new Map(OBJECT_TYPES.map((t) => [t.type, t]));

/** The type named `name`, or undefined. */
export function findObjectType(name) {
  return typeof name === 'string' ? BY_NAME.get(name) : undefined;
}

/**
 * Whether a scene's particles are drawn as dots by default: only where they are the drawing (a chain's beads, the
 * objects drawn as lines); a cloth's hide in its weave and a body's in its skin. The page's View switch
 * and the embed follow it.
 */
export function dotsByDefault(scene) {
  return scene.objects.some((o) => findObjectType(o.type)?.render.primitive === 'lines');
}

/** Whether a scene has water (an object of a type with `water`): its fluid statistics are worth asking for. */
export function hasWater(scene) {
  return scene.objects.some((o) => findObjectType(o.type)?.water === true);
}

/** The type of a (validated) scene object. */
export function objectTypeOf(o) {
  const t = BY_NAME.get(o.type);
  if (!t) throw new Error(`no object type ${String(o.type).slice(0, 40)} is registered`);
  return t;
}

/** Places of the parameter table that are object types' fields (their `params` rows: "cloth.stiffness" holds
 *  "cloth.stiffness.stretch"); the table's other places are the scene's sections (format/scene.js). */
const OBJECT_PLACES = OBJECT_TYPES.flatMap((t) => t.fields.filter((f) => f.kind === 'params').map((f) => f.place));
export const isObjectPlace = (place) => OBJECT_PLACES.some((q) => place === q || place.startsWith(`${q}.`));

/** The types' panel controls, each marked with the type it belongs to (the panel shows it when the scene has one). */
export const OBJECT_CONTROLS = Object.freeze(OBJECT_TYPES.flatMap((t) => t.controls.map((c) => ({ ...c, objectType: t.type }))));

/** Each type's words ({en, zh}: its name `object.<type>`, its controls' labels and help), by type. Beside the types,
 *  not on them: only the page's i18n reads them, so the element's bundle, which has no panel, leaves them out
 *  (3.9 KB gzip). tests/node/types.test.mjs holds that every registered type has its entry. */
export const OBJECT_TYPE_STRINGS = /* @__PURE__ */ Object.freeze({
  cloth: CLOTH_STRINGS, chain: CHAIN_STRINGS, soft: SOFT_STRINGS, rigid: RIGID_STRINGS, fluid: FLUID_STRINGS,
  inflatable: INFLATABLE_STRINGS,
});

/** The types' strings for `lang` ('en', 'zh'), merged. */
export function objectStrings(lang) {
  return Object.assign({}, ...OBJECT_TYPES.map((t) => OBJECT_TYPE_STRINGS[t.type][lang] ?? {}));
}

/**
 * The scene's limits on what its objects reserve together, from the engine's counts of each (`counts`, in scene
 * order: engine/loader.js countScene): at most maxParticles particles and maxFluidParticles fluid particles. Throws a
 * SceneError naming the object where the total passes the limit. The validator cannot say it (a lattice body's or a
 * fluid block's count is the engine's float32 plan), so a world's creation does, before anything is made.
 */
export function checkSceneCounts(scene, counts) {
  let particles = 0, fluid = 0;
  counts.forEach((c, i) => {
    const at = `objects[${i}]`;
    if ((particles += c.particles) > L.maxParticles) fail('objects', `must have at most ${L.maxParticles} particles in total (exceeded at ${at})`, particles);
    if ((fluid += c.fluidParticles ?? 0) > L.maxFluidParticles) fail('objects', `must have at most ${L.maxFluidParticles} fluid particles in all (exceeded at ${at})`, fluid);
  });
}

/** Each type's checks of a scene's objects together (a fluid's capacities, emitters and drains in all). */
export function checkSceneObjects(scene) {
  for (const t of OBJECT_TYPES) t.checkScene?.(scene);
  const thick = thicknessProblem(scene, scene.solver.thickness);
  if (thick) {
    const { index, type, problem } = thick;
    const o = scene.objects[index];
    fail(`objects[${index}].${type.thicknessField}`, `puts the ${type.type}'s particles ${problem.spacing} m apart, and solver.thickness `
      + `${scene.solver.thickness} may be at most ${problem.spacings} times that (${problem.limit} m: ${problem.why})`, o[type.thicknessField]);
  }
}

/**
 * The first object whose particles take `thickness` / 2 as their contact radius (a type with thicknessSpacing: chains,
 * cloth) and would reach past MAX_RADIUS_SPACINGS of their spacing: { index, type, problem } (engine/params.js
 * radiusSpacingProblem), or null. The one rule for the scene validator (above) and World.setParam
 * (engine/param-relations.js); the engine refuses the same values.
 */
export function thicknessProblem(scene, thickness) {
  for (const [index, o] of scene.objects.entries()) {
    const type = objectTypeOf(o);
    const spacing = type.thicknessSpacing?.(o);
    const problem = spacing === undefined ? null : radiusSpacingProblem(thickness, spacing, true);
    if (problem) return { index, type, problem };
  }
  return null;
}

/** The scene's emitters in engine order (scene order over the objects whose type has `emitters`, as build() adds
 *  them and pbd_World_AddEmitter numbers them): [{ object, k, emitter }] (object: its scene index, k: its index there,
 *  emitter: the scene's own record, which World.setEmitter updates). */
export function sceneEmitters(scene) {
  const out = [];
  scene.objects.forEach((o, object) => (findObjectType(o.type)?.emitters?.(o) ?? []).forEach((emitter, k) => out.push({ object, k, emitter })));
  return out;
}

/** The object's mesh data in a scene's totals: [vertices, triangles + tets] (0 for grids and chains). */
export function objectMeshSize(o) {
  return objectTypeOf(o).meshSize?.(o) ?? [0, 0];
}
