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
import { readReplay } from './replay.js';
import { withoutDefaults } from './defaults.js';

export { withoutDefaults, withoutDefaultsPerKey } from './defaults.js';
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
