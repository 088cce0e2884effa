// Types of record/replayer.js: plays a replay (format/replay.js) on a world built from its scene.

import type { World } from '../minipbd.js';
import type { Replay } from '../format/replay.js';

export interface ReplayEnd {
  /** steps replayed */ steps: number; /** the replay's steps */ total: number; hash: number | null; expected: number | null;
  /** the message of the event that failed, or null */ error: string | null;
  /** the hash equals the recorded one; null when the replay has none */ exact: boolean | null;
  /** ended early by a call that would change the run */ stopped?: boolean; reason?: string;
  cause?: 'setting' | 'collider' | 'particle';
}

export class Replayer {
  /** Validates `replay` against the world's scene (throws a SceneError, the world untouched), then applies each
   *  event just before its step. */
  constructor(world: World, replay: Replay | unknown, options?: {
    onEnd?: ((end: ReplayEnd) => void) | null; onParam?: ((name: string, value: number) => void) | null;
  });
  readonly world: World;
  readonly replay: Replay;
  readonly steps: number;
  readonly expected: number | null;
  /** Steps replayed so far. */
  readonly count: number;
  readonly active: boolean;
  readonly result: ReplayEnd | null;
  /** Ends the replay early (the grabs it holds are released); the world runs on. */
  stop(): void;
}
