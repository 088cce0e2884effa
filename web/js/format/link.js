// link.js — share a MiniPBD scene, and optionally a recording of what was done to it, in a URL fragment:
// `#s=<version>.<base64url(deflate-raw(UTF-8 JSON))>`.
//   version 1: the JSON is the scene itself (scene.js). Written for links without a replay, so pages that
//              predate replays still open them.
//   version 2: the JSON is {"scene": <scene>, "replay": <replay>} ("replay" optional; format in scene.js,
//              readReplay). Written for links that carry a recording.
//
// Usage (Node 20 or browser; needs CompressionStream/DecompressionStream, TextEncoder/TextDecoder):
//   import { encodeLink, decodeLink, decodeRun, parseFragment, LinkError, LINK_WARN_LENGTH } from './link.js';
//   location.hash = await encodeLink(scene);                  // "s=1.…" (no '#'); throws LinkError
//   location.hash = await encodeLink(scene, { replay });      // "s=2.…": the scene and a recording
//   try { scene = await decodeLink(location.hash); }          // '#' optional; other &key=value params ignored
//   catch (e) { if (e instanceof LinkError) showText(e.message); else throw e; }   // e.reason: short code
//   const { scene, replay } = await decodeRun(location.hash); // replay: validated against the scene, or null
//
// A link is untrusted input, so decodeRun checks in order of cost and stops at the first failure:
//   length caps (before any decoding) -> version -> base64url charset -> inflate, stopping once the output
//   passes LINK_MAX_JSON bytes (decompression bombs) -> strict UTF-8 -> bracket depth scan (before JSON.parse,
//   whose recursion depth we do not control) -> JSON.parse -> validateScene -> validateReplay.
// Reason codes: 'too-long' 'no-scene' 'bad-version' 'too-old' 'too-new' 'no-payload' 'bad-base64' 'bad-deflate'
//   'too-large' 'bad-utf8' 'too-deep' 'bad-json' 'invalid-scene' 'invalid-replay'; and, from encodeLink only,
//   'mesh-too-large': the scene holds a body's mesh too large for a link ("save it as a file": scene JSON).
// Messages never contain '<' or '>' (they are written \u003c, \u003e), so no text from a link can become
// markup, even if a message were ever put into HTML.
// base64url is implemented here (no Buffer/atob), so the module runs unchanged in browsers.

import { validateScene, SceneError } from './scene.js';
import { join } from './read.js';
import { readReplay } from './replay.js';
import { objectMeshSize } from '../objects/index.js';

/** The newest link version this page writes and reads. */
export const LINK_VERSION = 2;
/** The oldest link version this page still reads. */
export const LINK_MIN_VERSION = 1;
/** Links longer than this (the whole fragment) still work but are awkward to paste; the UI should warn. */
export const LINK_WARN_LENGTH = 2000;
/** Maximum base64url payload length, in characters. */
export const LINK_MAX_PAYLOAD = 16384;
/** Maximum whole-fragment length: the payload plus room for "s=1." and a few short extra params. */
export const LINK_MAX_FRAGMENT = LINK_MAX_PAYLOAD + 1024;
/** Maximum inflated JSON size, in bytes. */
export const LINK_MAX_JSON = 262144;
/** Maximum JSON nesting depth ([ and { combined); the scene schema itself needs 6. */
export const LINK_MAX_DEPTH = 16;
// Inflating <= 12 KiB takes well under a millisecond; this only guards against a stream that never settles.
const INFLATE_TIMEOUT_MS = 5000;

/** A refused link. `.reason` is a short stable code, the message is for people. */
export class LinkError extends Error {
  constructor(reason, message, options) {
    super(String(message).replace(/</g, '\\u003c').replace(/>/g, '\\u003e'), options);
    this.name = 'LinkError';
    this.reason = reason;
  }
}

// ---------------------------------------------------------------- fragment grammar

function safeDecode(s) {
  try { return decodeURIComponent(s); } catch { return s; }   // malformed %-escapes: keep the raw text
}

/**
 * Splits a fragment ("#s=1.abc&lang=zh", '#' optional) into
 *   { version: string|null, payload: string|null, params: Map<string,string> }.
 * `version` is the raw text between "s=" and the first '.', `payload` the raw text after it (null when there is
 * no '.'); both are null when there is no "s" param. `params` holds the other params, %-decoded, first one wins;
 * a param without '=' has value "".
 */
export function parseFragment(fragment) {
  let f = String(fragment ?? '');
  if (f.startsWith('#')) f = f.slice(1);
  let version = null, payload = null, seenScene = false;
  const params = new Map();
  for (const part of f.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (key === 's') {
      if (seenScene) continue;                     // first "s" wins, like the other params
      seenScene = true;
      const dot = value.indexOf('.');
      version = dot < 0 ? value : value.slice(0, dot);
      payload = dot < 0 ? null : value.slice(dot + 1);
    } else if (!params.has(key)) {
      params.set(key, safeDecode(value));
    }
  }
  return { version, payload, params };
}

// ---------------------------------------------------------------- base64url (RFC 4648 §5, no padding)

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;

export function base64urlEncode(bytes) {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i] << 16;
    out += B64[n >> 18] + B64[(n >> 12) & 63];
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63];
  }
  return out;
}

/** Strict decode: only [A-Za-z0-9_-], no padding, no impossible length, unused tail bits must be zero
 *  (so every byte string has exactly one accepted spelling). Returns null when invalid. */
export function base64urlDecode(text) {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor(text.length * 3 / 4));
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? B64_INDEX[c] : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0 && (acc & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

// ---------------------------------------------------------------- streams

/**
 * Pushes `bytes` through a transform stream and collects the output, stopping (and cancelling the stream)
 * once more than `maxOut` bytes come out. Returns the bytes, or null when the cap was passed.
 * Stream errors (corrupt or truncated deflate data) reject.
 */
async function transform(stream, bytes, maxOut, timeoutMs) {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // Errors surface through reader.read(); the writer's copy would otherwise be an unhandled rejection.
  writer.write(bytes).then(() => writer.close()).catch(() => {});
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
  });
  timeout.catch(() => {});
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      total += value.byteLength;
      if (total > maxOut) return null;
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
    // Stop the producer on every early exit (cap, error, timeout); harmless after a normal end.
    reader.cancel().catch(() => {});
    writer.abort().catch(() => {});
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.byteLength; }
  return out;
}

/** Depth of [ ] / { } nesting outside strings; stops counting (returns early) once `max` is exceeded. Scene files
 *  are scanned with it too (input/drop.js). */
export function jsonDepthExceeds(text, max) {
  let depth = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;                 // backslash: skip the escaped char (handles \" and \\)
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) { if (++depth > max) return true; }
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

// ---------------------------------------------------------------- encode / decode

/** Wraps a SceneError keeping its message (it already names the bad path) and its .path. */
function invalidScene(e, reason = 'invalid-scene') {
  const err = new LinkError(reason, e.message, { cause: e });
  err.path = e.path;
  return err;
}

function validated(read, reason) {
  try { return read(); } catch (e) {
    if (e instanceof SceneError) throw invalidScene(e, reason);
    throw e;
  }
}

const fmt = (n) => n.toLocaleString('en-US');

/**
 * Encodes a scene as a fragment "s=1.<payload>" (no '#'), or with `replay` (scene.js, readReplay) scene and
 * replay as "s=2.<payload>". Both are validated and normalised first, so decodeRun(encodeLink(x, {replay}))
 * deep-equals { scene: validateScene(x), replay: validateReplay(replay, that scene) }. `validate` stands in for
 * validateScene (tests count the validations: a few per link, not one per key).
 * @throws {LinkError} 'invalid-scene' | 'invalid-replay' | 'too-large' | 'too-long' when the result could not
 *   be decoded again (the message names the length and the limit); 'mesh-too-large' instead when the scene has a
 *   body's mesh (message: "this scene's mesh is too large for a link: save it as a file (…)").
 */
export async function encodeLink(scene, { replay = null, validate = validateScene } = {}) {
  const normalised = validated(() => validate(scene), 'invalid-scene');
  // A body's mesh (an OBJ model, given tets) rarely fits: such a scene travels as a file (scene JSON) instead.
  const meshes = normalised.objects.some((o) => objectMeshSize(o)[0] > 0);
  const tooLarge = (detail) => (meshes
    ? new LinkError('mesh-too-large', `this scene's mesh is too large for a link: save it as a file (${detail})`)
    : null);
  if (meshes) {
    const bytes = new TextEncoder().encode(JSON.stringify(normalised)).byteLength;
    if (bytes > LINK_MAX_JSON) throw tooLarge(`its JSON is ${fmt(bytes)} bytes; links hold at most ${fmt(LINK_MAX_JSON)}`);
  }
  const written = withoutDefaults(normalised, validate);
  let value = written, version = 1;
  if (replay !== null && replay !== undefined) {
    value = { scene: written, replay: validated(() => readReplay(replay, normalised).replay, 'invalid-replay') };
    version = 2;
  }
  const json = new TextEncoder().encode(JSON.stringify(value));
  if (json.byteLength > LINK_MAX_JSON) {
    throw tooLarge(`its JSON is ${fmt(json.byteLength)} bytes; links hold at most ${fmt(LINK_MAX_JSON)}`)
      ?? new LinkError('too-large', `the link's JSON would be ${fmt(json.byteLength)} bytes; links hold at most ${fmt(LINK_MAX_JSON)}`);
  }
  const deflated = await transform(new CompressionStream('deflate-raw'), json, Infinity, INFLATE_TIMEOUT_MS);
  const payload = base64urlEncode(deflated);
  if (payload.length > LINK_MAX_PAYLOAD) {
    throw tooLarge(`the link would be ${fmt(payload.length + 4)} characters long; links hold at most ${fmt(LINK_MAX_PAYLOAD)} characters of data`)
      ?? new LinkError('too-long', `the link would be ${fmt(payload.length + 4)} characters long (${fmt(payload.length)} of data); links hold at most ${fmt(LINK_MAX_PAYLOAD)} characters of data`);
  }
  return `s=${version}.${payload}`;
}

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

/**
 * Decodes a fragment ("#s=1.…" or "s=1.…", other &key=value params ignored) into a validated scene. A link
 * carrying a replay gives its scene (the replay is checked too: a link with a bad replay is refused).
 * @throws {LinkError} with .reason (see the top of this file); never hangs on truncated or hostile data.
 */
export async function decodeLink(fragment) {
  return (await decodeRun(fragment)).scene;
}

const VERSIONS = `versions ${LINK_MIN_VERSION} to ${LINK_VERSION}`;

/**
 * Decodes a fragment into { version, scene, replay }: `scene` validated, `replay` validated against it (the
 * normalised wire form, see scene.js readReplay) or null when the link has none.
 * @throws {LinkError} with .reason (see the top of this file); never hangs on truncated or hostile data.
 */
export async function decodeRun(fragment) {
  if (typeof fragment !== 'string') throw new LinkError('no-scene', 'link fragment must be a string');
  // Length first: nothing below may run on megabytes of attacker text.
  if (fragment.length > LINK_MAX_FRAGMENT) {
    throw new LinkError('too-long', `link is ${fmt(fragment.length)} characters long; at most ${fmt(LINK_MAX_FRAGMENT)} are read`);
  }
  const { version, payload } = parseFragment(fragment);
  if (payload !== null && payload.length > LINK_MAX_PAYLOAD) {
    throw new LinkError('too-long', `link data is ${fmt(payload.length)} characters long; at most ${fmt(LINK_MAX_PAYLOAD)} are read`);
  }
  if (version === null || version === '') throw new LinkError('no-scene', 'link has no scene (expected "s=1.<data>")');
  const shown = version.length > 20 ? version.slice(0, 20) + '…' : version;
  if (!/^[0-9]+$/.test(version)) {
    throw new LinkError('bad-version', `link version "${shown}" is not a number (this page reads ${VERSIONS})`);
  }
  if (version.length > 1 && version[0] === '0') {
    throw new LinkError('bad-version', `link version "${shown}" is not written as this page writes versions (it reads ${VERSIONS})`);
  }
  const number = version.length > 9 ? Infinity : Number(version);
  if (number < LINK_MIN_VERSION) {
    throw new LinkError('too-old', `link version ${shown} is too old: this page reads ${VERSIONS}`);
  }
  if (number > LINK_VERSION) {
    throw new LinkError('too-new', `link version ${shown} is newer than this page, which reads ${VERSIONS}; reload the page to get the newest one`);
  }
  if (payload === null || payload === '') throw new LinkError('no-payload', 'link has a version but no scene data after it');

  const deflated = base64urlDecode(payload);
  if (deflated === null) throw new LinkError('bad-base64', 'link scene data is not valid base64url (damaged or cut while copying?)');

  let bytes;
  try {
    bytes = await transform(new DecompressionStream('deflate-raw'), deflated, LINK_MAX_JSON, INFLATE_TIMEOUT_MS);
  } catch (e) {
    throw new LinkError('bad-deflate', 'link scene data cannot be decompressed (damaged or cut while copying?)', { cause: e });
  }
  if (bytes === null) throw new LinkError('too-large', `link scene expands to more than ${LINK_MAX_JSON} bytes`);

  let text;
  try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) {
    throw new LinkError('bad-utf8', 'link scene data is not UTF-8 text', { cause: e });
  }
  if (jsonDepthExceeds(text, LINK_MAX_DEPTH)) {
    throw new LinkError('too-deep', `link scene JSON is nested more than ${LINK_MAX_DEPTH} levels deep`);
  }
  let value;
  try { value = JSON.parse(text); } catch (e) {
    throw new LinkError('bad-json', `link scene data is not valid JSON: ${e.message}`, { cause: e });
  }
  if (number === 1) return { version: 1, scene: validated(() => validateScene(value), 'invalid-scene'), replay: null };
  // Version 2: {"scene": …, "replay": …}.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new LinkError('invalid-scene', 'link data must be an object {"scene": …, "replay": …} (link version 2)');
  }
  for (const key of Reflect.ownKeys(value)) {
    if (key !== 'scene' && key !== 'replay') {
      const k = String(key).slice(0, 40);
      throw new LinkError('invalid-scene', `link data has an unknown key ${JSON.stringify(k)} (allowed: scene, replay)`);
    }
  }
  if (!Object.hasOwn(value, 'scene')) throw new LinkError('invalid-scene', 'link data has no "scene" (link version 2)');
  const scene = validated(() => validateScene(value.scene), 'invalid-scene');
  const replay = Object.hasOwn(value, 'replay') ? validated(() => readReplay(value.replay, scene).replay, 'invalid-replay') : null;
  return { version: 2, scene, replay };
}
