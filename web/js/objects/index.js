// index.js — the object types, registered in one list (issue 9, "object types as a registry"). The scene format,
// the World (counts, building, masses, stiffness), the panel, the strings, the renderer and the recorder ask this
// registry; nothing outside web/js/objects/ branches on an object's type. A new type is one module here with the
// members below, added to OBJECT_TYPES.
//
// @typedef {object} ObjectType
// @property {string} type             its "type" in a scene
// @property {string[]} keys           the scene keys it allows
// @property {(get, path: string, index: number) => object} read   validates and normalises (format/read.js readers)
// @property {(o) => number} particleCount
// @property {(engine, o) => {particles, constraints, triangles, lines}} counts   what the engine reserves for it
// @property {(engine, id: number, o, index: number) => number} build   adds it to a world; its first particle
// @property {(o) => Set<number>} particlesWithOwnMass   local particles its `mass` does not set (pins, ranges)
// @property {Object<string, {kind: number, param: string, get, set}>} stiffness   its constraint kinds
// @property {(o) => number} extent     its largest size in metres (a recording's quantum)
// @property {{primitive: 'lines'|'triangles', pointColor: string, sprite: (o) => object}} render
// @property {object[]} controls       its panel controls (panel/control.js control())
// @property {string[]} [folders]      panel folders of its own (after the masses)
// @property {{en: object, zh: object}} strings   its i18n strings

import { chain } from './chain.js';
import { cloth } from './cloth.js';

/** The object types, in the order the panel shows their controls. */
export const OBJECT_TYPES = Object.freeze([cloth, chain]);

const BY_NAME = new Map(OBJECT_TYPES.map((t) => [t.type, t]));

/** The type named `name`, or undefined. */
export function findObjectType(name) {
  return typeof name === 'string' ? BY_NAME.get(name) : undefined;
}

/** The type of a (validated) scene object. */
export function objectTypeOf(o) {
  const t = BY_NAME.get(o.type);
  if (!t) throw new Error(`no object type ${String(o.type).slice(0, 40)} is registered`);
  return t;
}

/** Every key some type allows (an object's keys are checked against these first, then against its type's). */
export const OBJECT_KEYS = Object.freeze([...new Set(OBJECT_TYPES.flatMap((t) => t.keys))]);

/** The types' panel controls, each marked with the type it belongs to (the panel shows it when the scene has one). */
export const OBJECT_CONTROLS = Object.freeze(OBJECT_TYPES.flatMap((t) => t.controls.map((c) => ({ ...c, objectType: t.type }))));

/** The types' strings for `lang` ('en', 'zh'), merged. */
export function objectStrings(lang) {
  return Object.assign({}, ...OBJECT_TYPES.map((t) => t.strings[lang] ?? {}));
}

/** Particles of a validated scene (every object's count). */
export function sceneParticleCount(scene) {
  let total = 0;
  for (const o of scene.objects) total += objectTypeOf(o).particleCount(o);
  return total;
}
