// Types for scene-file.js: a scene file's contents to a validated scene (the page, the CLI and the API).
import type { NormalisedScene } from './scene.js';

/** The largest scene file read, in bytes (32 MiB). */
export const MAX_SCENE_FILE_BYTES: number;
/** A file refused before its scene could be validated (size, encoding, nesting, JSON); the message names the file. */
export class SceneFileError extends Error {
  name: 'SceneFileError';
}
/** "33.0 MB", "12 KB". */
export function byteSize(bytes: number): string;
/** Throws SceneFileError when a file of `bytes` bytes is over MAX_SCENE_FILE_BYTES. */
export function checkSceneFileSize(bytes: number, name?: string): void;
/** The validated scene in a file's bytes or text; throws SceneFileError or SceneError (the link's messages). */
export function parseSceneFile(data: Uint8Array | ArrayBuffer | string, name?: string): NormalisedScene;
/** The text of a scene file for `scene`: keys at their defaults left out, 2-space indented JSON (arrays of numbers on
 *  one line), a final newline; it opens back (parseSceneFile) to validateScene(scene). Throws SceneError. */
export function sceneFileText(scene: unknown): string;
