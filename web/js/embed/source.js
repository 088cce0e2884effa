// source.js — what a <minipbd-scene>'s attributes say (element.js): the scene to build (a link or a built-in), water
// on or off, and whether the user asks for reduced motion.

import { BUILTIN_SCENE_IDS, DEFAULT_SCENE_KEY, loadBuiltinScene } from '../format/builtin-scenes.js';
import { decodeRun } from '../format/link.js';

export const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The link fragment in `src`: 's=1.…', '#s=1.…' or a URL with '#s=1.…'. */
export function fragmentOf(src) {
  const s = String(src).trim();
  const i = s.indexOf('#');
  return i >= 0 ? s.slice(i + 1) : s;
}

/** The `water` attribute: on unless "off", "false", "0" or "no" (absent: on). */
export function waterOn(value) {
  return value === null || !/^(false|off|0|no)$/i.test(value.trim());
}

/** The built-in scene the `scene` attribute names (default cloth). */
export function builtinName(scene) { return (scene ?? DEFAULT_SCENE_KEY).trim(); }

/** { scene, replay } for the attributes `src` and `scene`: replay is the recording a link carries (validated
 *  against its scene), or null. A refused link or an unknown name rejects with the reason. */
export async function resolveScene(src, scene) {
  if (src !== null && src.trim() !== '') return decodeRun(fragmentOf(src));
  const name = builtinName(scene);
  if (!BUILTIN_SCENE_IDS.includes(name)) {
    throw new Error(`there is no built-in scene "${name.slice(0, 40)}" (known: ${BUILTIN_SCENE_IDS.join(', ')})`);
  }
  // A scene made from a model file (the bunny) reads it first, from beside this module (format/builtin-scenes.js).
  return { scene: structuredClone(await loadBuiltinScene(name)), replay: null };
}
