// builtins.js — the built-in scenes as the page loaded them (format/builtin-scenes.js), by id: those that need no
// file at start, one made from a model file (the bunny: 51 KB gzipped) when it is first chosen, so the page neither
// waits for nor downloads a model it may never show.

import { BUILTIN_SCENE_IDS, builtinScenes, builtinSceneName, loadBuiltinScene } from '../format/builtin-scenes.js';
import { shortName } from '../panel/widgets.js';

const builtins = new Map();

/** Loads the built-in scenes that need no file (once); a scene whose file is missing or broken says why when it is
 *  chosen (builtin() throws then). */
export async function loadBuiltins() {
  await Promise.all(BUILTIN_SCENE_IDS.filter((key) => Object.hasOwn(builtinScenes, key)).map(async (key) => {
    try {
      builtins.set(key, await loadBuiltinScene(key));
    } catch {
      // its file is missing or broken: choosing it shows why (onSceneChange)
    }
  }));
}

/** A fresh copy of built-in scene `key` (the page edits scenes), loaded first if it was not. */
export async function builtin(key) {
  if (!builtins.has(key)) builtins.set(key, await loadBuiltinScene(key));
  return structuredClone(builtins.get(key));
}

/** The id of the built-in scene `scene` is exactly, or null (a link's scene with other settings). */
export function builtinKeyFor(scene) {
  const text = JSON.stringify(scene);
  for (const [key, s] of builtins) {
    if (JSON.stringify(s) === text) return key;
  }
  return null;
}

/** The scene picker's entries (ui.setScenes): [{ key, name, label }]. */
export function builtinEntries() {
  return BUILTIN_SCENE_IDS.map((key) => {
    const name = builtins.get(key)?.name ?? builtinSceneName(key) ?? key;
    return { key, name, label: shortName(name) || key };
  });
}
