// Types of record/recorder.js (the package's "minipbd/recorder" entry point; docs/scene-format.md "Link format"): records what
// is done to a freshly built world as a replay a version 2 link carries.

import type { Scene, World } from '../minipbd.js';
import type { Replay } from '../format/replay.js';

export type { Replay };

export interface RecorderOptions {
  /** Position quantum, one of REPLAY_LIMITS.quanta (default: chooseQuantum(scene)). */
  q?: number;
  /** At most REPLAY_LIMITS.maxSteps / maxEvents; reaching one ends the recording. */
  maxSteps?: number;
  maxEvents?: number;
  /** Called once when the recording ends, whatever ended it. */
  onStop?: ((recorder: Recorder, reason: string) => void) | null;
}

/** Why a call the recording cannot carry ended it (the page words it in its language). */
export interface StopCause { key: 'position' | 'velocity' | 'mass' | 'param' | 'call'; vars: Record<string, unknown>; }

export class Recorder {
  /** Starts recording `world`, which must be freshly built (no step, no attachment); wraps its calls. */
  constructor(world: World, options?: RecorderOptions);
  readonly world: World;
  /** The scene the replay starts from (world.describe() when recording began). */
  readonly scene: Scene;
  readonly q: number;
  readonly maxSteps: number;
  readonly maxEvents: number;
  /** Steps recorded so far. */
  readonly steps: number;
  readonly eventCount: number;
  /** True until the recording ends. */
  readonly active: boolean;
  /** Set when recording failed (toReplay then throws). */
  readonly failed: string | null;
  /** 'stopped' (stop()), 'steps' / 'events' (a limit), 'destroyed', or a sentence. */
  readonly stopReason: string | null;
  readonly stopCause: StopCause | null;
  /** Ends the recording (if it still runs) and returns the replay. */
  stop(): Replay;
  /** The replay of what was recorded; throws while the recording runs or when it failed. */
  toReplay(): Replay;
}

/** The position quantum (1/q metre) for a scene: fine enough for its largest object. */
export function chooseQuantum(scene: Scene): number;
