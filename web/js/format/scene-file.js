// scene-file.js — a scene file's bytes to a validated scene: the one reader for the page (a file dropped or
// picked: input/drop.js), the command line (tools/run/scene.mjs) and the API (minipbd.js exports it), so a file
// means the same everywhere and is refused with the same words.
//
// It is checked as a link's scene is (format/link.js decodeRun), in order of cost: its size (before a byte is
// decoded) -> strict UTF-8 -> bracket depth (LINK_MAX_DEPTH, before JSON.parse, whose recursion depth we do not
// control) -> JSON.parse -> validateScene, whose SceneError (the path and the rule, e.g. "objects[0].resolution[0]
// must be an integer in 2..1024, got 2000") is the very message a link with that scene gets, under the same
// SCENE_LIMITS. Only the byte cap differs: a file may hold a model's mesh, a link's JSON at most LINK_MAX_JSON.

import { validateScene } from './scene.js';
import { jsonDepthExceeds, LINK_MAX_DEPTH, withoutDefaults } from './link.js';

/** The largest scene file read (a scene with a 100,000-vertex mesh written as JSON is ~10 MB). */
export const MAX_SCENE_FILE_BYTES = 32 * 1024 * 1024;

/** A scene file refused before its scene could be validated (size, encoding, nesting, JSON); names the file. */
export class SceneFileError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SceneFileError';
  }
}

/** A byte count for messages: "33.0 MB", "12 KB". */
export function byteSize(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Refuses a file of `bytes` bytes before it is read. */
export function checkSceneFileSize(bytes, name = 'scene file') {
  if (bytes > MAX_SCENE_FILE_BYTES) {
    throw new SceneFileError(`${name} is ${byteSize(bytes)}; a scene file may be at most ${byteSize(MAX_SCENE_FILE_BYTES)}`);
  }
}

/**
 * The validated scene in a file's contents: `data` is its bytes (Uint8Array / ArrayBuffer) or its text, `name`
 * names it in messages. Throws SceneFileError or SceneError; touches no world.
 */
export function parseSceneFile(data, name = 'scene file') {
  let text;
  if (typeof data === 'string') {
    checkSceneFileSize(data.length, name); // UTF-16 units: at least the byte count of its ASCII, a fair bound
    text = data;
  } else if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
    checkSceneFileSize(data.byteLength, name);
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      throw new SceneFileError(`${name} is not UTF-8 text`);
    }
  } else {
    throw new SceneFileError(`${name}: a scene file's contents must be bytes or text`);
  }
  if (jsonDepthExceeds(text, LINK_MAX_DEPTH)) throw new SceneFileError(`${name}: its scene JSON is nested more than ${LINK_MAX_DEPTH} levels deep`);
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new SceneFileError(`${name} is not JSON (${err.message})`);
  }
  return validateScene(value);
}

/**
 * The text of a scene file for `scene` (the page's Download scene): validated, every key the validator would fill
 * in with the same value left out (sections all at their defaults vanish; format/link.js withoutDefaults, whose
 * oracle is the validator, so the file opens back to exactly the normalised scene), written as JSON with a 2-space
 * indent for a person to read and edit, and a final newline. An array of numbers or strings stays on one line:
 * a mesh's vertex is one line, not five.
 * @throws {SceneError} when `scene` is not a valid scene.
 */
export function sceneFileText(scene) {
  return `${prettyJson(withoutDefaults(validateScene(scene)), '')}\n`;
}

function prettyJson(value, indent) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    return `[\n${value.map((v) => inner + prettyJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${prettyJson(value[k], inner)}`).join(',\n')}\n${indent}}`;
}
