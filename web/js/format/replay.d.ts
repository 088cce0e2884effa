// Types of format/replay.js: a recorded run as a link (version 2) carries it (docs/scene-format.md "Link format").

import type { Scene } from '../minipbd.js';
import type { ParamInfo, ParamName } from '../minipbd.js';

/** One event: [dstep, kind, ...args] (the kinds are listed at the top of format/replay.js). */
export type ReplayEvent = [number, 'g' | 'm' | 'r' | 'c' | 'f' | 'p' | 'e', ...(number | string)[]];

/** The wire form: { v, steps, q, hash?, events }. Positions are integers in units of 1/q metre. */
export interface Replay {
  v: 1; steps: number; /** 100, 1000, 10000 or 100000 */ q: number;
  /** world.hash() after `steps` steps, when recorded */ hash?: number; events: ReplayEvent[];
}

export const REPLAY_VERSION: 1;
export const REPLAY_LIMITS: {
  readonly maxSteps: number; readonly maxEvents: number; readonly maxHeld: number;
  readonly quanta: readonly number[]; readonly grabStiffness: { readonly min: number; readonly max: number };
};
/** The parameters a replay may set ("p" events), by name. */
export const REPLAY_PARAMS: Readonly<Partial<Record<ParamName, ParamInfo>>>;

/** Checks one replay parameter value; returns it or throws a SceneError naming `path`. */
export function replayParamValue(name: string, value: unknown, path?: string, namePath?: string): number;

/** An event expanded to absolute values. */
export interface ReplayStepEvent { step: number; kind: 'grab' | 'move' | 'release' | 'collider' | 'material' | 'param' | 'emitter'; [field: string]: unknown; }

/** Reads an untrusted replay against a validated scene: the normalised wire form and its events expanded.
 *  @throws {import('./scene.js').SceneError} naming the path (under `path`, default "replay"). */
export function readReplay(input: unknown, scene: Scene, path?: string, particles?: number): { replay: Replay; events: ReplayStepEvent[] };

/** Validates an untrusted replay against a validated scene; returns a new normalised copy. */
export function validateReplay(input: unknown, scene: Scene): Replay;
