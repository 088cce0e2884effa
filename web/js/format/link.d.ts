// Types of format/link.js (the package's "minipbd/link" entry point; docs/scene-format.md "Link format"): a scene, and
// optionally a recording, in a URL fragment "s=<version>.<base64url(deflate-raw(JSON))>".

import type { NormalisedScene } from './scene.js';
import type { Scene } from '../minipbd.js';
import type { Replay } from './replay.js';

export type { Replay };

/** Why a link was refused (LinkError.reason). */
export type LinkErrorReason = 'too-long' | 'no-scene' | 'bad-version' | 'too-old' | 'too-new' | 'no-payload' | 'bad-base64'
  | 'bad-deflate' | 'too-large' | 'bad-utf8' | 'too-deep' | 'bad-json' | 'invalid-scene' | 'invalid-replay' | 'mesh-too-large';

/** A refused link: `reason` is a short stable code, the message is for people (never holds '<' or '>'). */
export class LinkError extends Error {
  constructor(reason: LinkErrorReason, message: string, options?: { cause?: unknown });
  readonly name: 'LinkError';
  reason: LinkErrorReason;
}

/** The newest link version written and read. */
export const LINK_VERSION: 2;
/** The oldest link version still read. */
export const LINK_MIN_VERSION: 1;
/** Fragments longer than this still work but are awkward to paste (the page warns). */
export const LINK_WARN_LENGTH: number;
export const LINK_MAX_PAYLOAD: number;
export const LINK_MAX_FRAGMENT: number;
export const LINK_MAX_JSON: number;
export const LINK_MAX_DEPTH: number;

/** Splits a fragment ('#' optional) into the "s" param's version and payload (raw text) and the other params. */
export function parseFragment(fragment: string | null | undefined): { version: string | null; payload: string | null; params: Map<string, string> };
/** Whether `text` (JSON) nests [ ] / { } deeper than `max` outside its strings (scene files are checked with it). */
export function jsonDepthExceeds(text: string, max: number): boolean;
export function base64urlEncode(bytes: Uint8Array): string;
/** The bytes, or null when `text` is not base64url. */
export function base64urlDecode(text: string): Uint8Array | null;

/** Encodes a scene (and a replay) as a fragment "s=1.…" / "s=2.…" (no '#'), validated first.
 *  @throws {LinkError} 'invalid-scene' | 'invalid-replay' | 'too-large' | 'too-long' | 'mesh-too-large' */
export function encodeLink(scene: Scene, options?: { replay?: Replay | null; validate?: (scene: unknown) => NormalisedScene }): Promise<string>;
/** The normalised scene without the fields validateScene would fill in with the same value (a few probe
 *  validations; `validate` is for tests, to count them). */
export function withoutDefaults(normalised: NormalisedScene, validate?: (scene: unknown) => NormalisedScene): Scene;
/** The same by validating the scene once per key tried: the reference, and withoutDefaults' fallback. */
export function withoutDefaultsPerKey(normalised: NormalisedScene, validate?: (scene: unknown) => NormalisedScene): Scene;
/** Decodes a fragment into a validated scene. @throws {LinkError} with .reason */
export function decodeLink(fragment: string): Promise<NormalisedScene>;
/** Decodes a fragment into its version, validated scene and replay (null when it has none). @throws {LinkError} */
export function decodeRun(fragment: string): Promise<{ version: 1 | 2; scene: NormalisedScene; replay: Replay | null }>;
