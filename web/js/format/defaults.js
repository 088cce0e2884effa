// defaults.js — a scene without what the validator would fill in anyway: what links (link.js encodeLink) and scene
// files (scene-file.js sceneFileText) write, so they are short and a page that predates a newer field (added with
// a default) still opens them.

import { validateScene, SceneError } from './scene.js';
import { join } from './read.js';

/**
 * The scene with every field left out that validateScene would fill in with the same value: the link
 * decodes to exactly `normalised`, is shorter, and a page that predates a newer field (added with a default)
 * still opens links that leave it at its default. The validator itself is the oracle (no second copy of the
 * defaults). Arrays (pins, positions) are kept or dropped whole; objects in arrays (objects, colliders, mass
 * ranges) are trimmed key by key.
 *
 * Bounded work (it runs on the page's thread for Copy link and Download scene): the defaults are read from a few
 * validations of "probe" scenes, one per nesting depth, in which every holder (section, object, collider, mass
 * range…) at that depth has its keys taken out at once (keys the validator requires are learned once per kind of
 * holder and kept; a kind of holder whose keys depend on each other, e.g. a fluid's capacity on its block, is
 * probed one key name at a time instead); a key is left out when its value equals the probe's. The result is
 * validated once: should it not give back exactly `normalised`, the slow per-key method (withoutDefaultsPerKey)
 * answers instead, so the round trip is exact by construction either way. That it leaves out exactly the keys the
 * per-key method would is checked by tests (every built-in scene, random ones), not by construction: a default
 * that hung on a sibling's value could keep a key the per-key method drops. `validate` is for tests (to count).
 */
export function withoutDefaults(normalised, validate = validateScene) {
  const target = JSON.stringify(normalised);
  const fast = fastWithoutDefaults(JSON.parse(target), validate);
  if (fast !== null) {
    let back = null;
    try { back = JSON.stringify(validate(fast)); } catch { /* fall back */ }
    if (back === target) return fast;
  }
  return withoutDefaultsPerKey(normalised, validate);
}

/**
 * The reference method: a key is dropped only if validating without it gives the same normalised scene (one
 * validation of the whole scene per key tried). Kept as the fallback of withoutDefaults and for tests.
 */
export function withoutDefaultsPerKey(normalised, validate = validateScene) {
  const target = JSON.stringify(normalised);
  const out = JSON.parse(target);
  const same = () => {
    try { return JSON.stringify(validate(out)) === target; } catch { return false; }
  };
  const trim = (holder, keep) => {
    for (const key of Object.keys(holder)) {
      if (keep.has(key)) continue;
      const saved = holder[key];
      delete holder[key];
      if (same()) continue;
      holder[key] = saved;
      if (Array.isArray(saved)) {
        for (const item of saved) if (item && typeof item === 'object' && !Array.isArray(item)) trim(item, TYPE_KEY);
      } else if (saved && typeof saved === 'object') {
        trim(saved, NO_KEY);
      }
    }
  };
  trim(out, TOP_KEYS);
  return out;
}

// Keys the validator requires, learned from its "… is required" (or any) refusal of a probe, by kind of holder:
// its path with indices left out, plus its "type" and "shape" (a rigid box requires a position, a rigid mesh not).
const REQUIRED = new Map();
// Kinds of holder a probe cannot take apart all at once (a refusal names none of the keys taken out).
const OPAQUE = new Set();
const MAX_PROBES = 64;

/** Learns from a probe's refusal at `path`: a key taken out that is required (its absence refused), or else a holder
 *  whose keys depend on each other (any other refusal under it). False when the refusal names no holder of the level. */
function learnFrom(path, message, level, out) {
  const under = (p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`);
  for (const h of level) {
    for (const key of out.get(h)) {
      // Only a refusal of the key's absence itself: "objects[0].origin is required", "objects must be …, got undefined".
      if (path !== pathOf([...h.segs, key]) || !/( is required|, got undefined)$/.test(message)) continue;
      const kind = kindOf(h);
      if (!REQUIRED.has(kind)) REQUIRED.set(kind, new Set());
      if (REQUIRED.get(kind).has(key)) return false;
      REQUIRED.get(kind).add(key);
      return true;
    }
  }
  for (const h of level) {
    if (h.segs.length === 0 || !under(pathOf(h.segs)) || OPAQUE.has(kindOf(h))) continue;
    OPAQUE.add(kindOf(h));
    return true;
  }
  return false;
}

const isHolder = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every holder the per-key method would trim, as { node, segs, depth, keep }, walking `scene` as it does. */
function holders(scene) {
  const list = [];
  const walk = (node, segs, depth, keep) => {
    list.push({ node, segs, depth, keep });
    for (const key of Object.keys(node)) {
      if (keep.has(key)) continue;
      const v = node[key];
      if (Array.isArray(v)) {
        v.forEach((item, i) => { if (isHolder(item)) walk(item, [...segs, key, i], depth + 1, TYPE_KEY); });
      } else if (isHolder(v)) {
        walk(v, [...segs, key], depth + 1, NO_KEY);
      }
    }
  };
  walk(scene, [], 0, TOP_KEYS);
  return list;
}

function kindOf(h) {
  const pattern = h.segs.map((s) => (typeof s === 'number' ? '[]' : s)).join('.');
  const t = typeof h.node.type === 'string' ? h.node.type : '';
  const shape = typeof h.node.shape === 'string' ? h.node.shape : '';
  return `${pattern}|${t}|${shape}`;
}

function at(root, segs) {
  let v = root;
  for (const s of segs) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, s)) return undefined;
    v = v[s];
  }
  return v;
}

const pathOf = (segs) => segs.reduce((p, s) => join(p, s), '');

/** The candidate of withoutDefaults (validated by the caller), or null when a probe could not be read. */
function fastWithoutDefaults(scene, validate) {
  const all = holders(scene);
  const depths = Math.max(...all.map((h) => h.depth)) + 1;
  const defaults = [];   // per depth: the probe's normalised scene
  const stripped = [];   // per depth: Map holder -> Set of keys taken out of it
  const byKey = new Map(); // opaque holder -> Map key -> the normalised scene of its one-key probe
  let probes = 0;
  for (let d = 0; d < depths; d++) {
    const level = all.filter((h) => h.depth === d);
    for (;;) {
      if (++probes > MAX_PROBES) return null;
      const probe = JSON.parse(JSON.stringify(scene));
      const out = new Map();
      for (const h of level) {
        const req = REQUIRED.get(kindOf(h));
        const node = at(probe, h.segs);
        const keys = new Set();
        if (OPAQUE.has(kindOf(h))) { out.set(h, keys); continue; }
        for (const key of Object.keys(h.node)) {
          if (h.keep.has(key) || req?.has(key)) continue;
          delete node[key];
          keys.add(key);
        }
        out.set(h, keys);
      }
      let result;
      try {
        result = validate(probe);
      } catch (e) {
        if (!(e instanceof SceneError)) throw e;
        if (!learnFrom(String(e.path), String(e.message), level, out)) return null;
        continue;
      }
      defaults[d] = result;
      stripped[d] = out;
      break;
    }
    // Holders whose keys depend on each other (a fluid's capacity on its block) are probed one key at a time, the
    // key taken out of every such holder of this depth at once, its other keys as they are.
    const opaque = level.filter((h) => OPAQUE.has(kindOf(h)));
    const names = [...new Set(opaque.flatMap((h) => Object.keys(h.node).filter((k) => !h.keep.has(k))))];
    for (const key of names) {
      const probe = JSON.parse(JSON.stringify(scene));
      for (const h of opaque) delete at(probe, h.segs)[key];
      let result;
      try { result = validate(probe); } catch (e) {
        if (!(e instanceof SceneError)) throw e;
        continue;        // kept in all of them
      }
      for (const h of opaque) if (Object.hasOwn(h.node, key)) byKey.set(h, (byKey.get(h) ?? new Map()).set(key, result));
    }
  }
  // Drop, as the per-key method walks, each key whose value the probe of its depth filled in alike; a kept one's
  // holders are trimmed in turn (those of a dropped one vanish with it).
  const dropped = new Set();
  for (const h of all) {
    if (h.segs.some((_, i) => dropped.has(pathOf(h.segs.slice(0, i + 1))))) continue;
    const keys = stripped[h.depth].get(h);
    const own = byKey.get(h);
    for (const key of Object.keys(h.node)) {
      const probed = keys.has(key) ? defaults[h.depth] : own?.get(key);
      if (probed === undefined) continue;
      const d = at(probed, [...h.segs, key]);
      if (d !== undefined && JSON.stringify(d) === JSON.stringify(h.node[key])) {
        delete h.node[key];
        dropped.add(pathOf([...h.segs, key]));
      }
    }
  }
  return scene;
}
const TOP_KEYS = new Set(['format', 'version']);
const TYPE_KEY = new Set(['type']);
const NO_KEY = new Set();
