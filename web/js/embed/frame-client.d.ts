// Types of the parent side of the iframe API (frame-client.js; package export 'minipbd/frame').

import type { Stats, FluidStats, Scene, ParamName } from '../minipbd.js';

/** The frame's stats: World.stats() plus time (steps × dt, s) and fluid when the scene has water. */
export interface FrameStats extends Stats {
  time: number;
  fluid?: FluidStats;
  /** True while steps are in flight: `steps` counts those ended, the errors, energies and fluid are those read
   *  at step `measuredAt` (the frame never waits on a step to answer). */
  busy?: boolean;
  measuredAt?: number;
  /** How far the step in flight is, in [0, 1) (the single-thread build; 0 on the threaded one). */
  progress?: number;
}

/** Codes of a refused command (the message says what was wrong). */
export type FrameErrorCode = 'bad-message' | 'bad-id' | 'unknown-command' | 'bad-args' | 'too-large' | 'too-deep'
  | 'not-ready' | 'refused' | 'failed' | 'timeout' | 'no-frame' | 'destroyed';

export class FrameCommandError extends Error {
  readonly code: FrameErrorCode | string;
}

export interface MiniPBDFrameOptions {
  /** The iframe page's origin; default new URL(iframe.src).origin. */
  origin?: string;
  /** Milliseconds to wait for a reply before rejecting with code 'timeout'; default 15000. */
  timeout?: number;
}

/** The load command's args: exactly one of a built-in scene's name, a link or a scene object. */
export type LoadArgs = { builtin: string } | { link: string } | { scene: Scene | object };

/** The load command's args for MiniPBDFrame.load(x) (a string: a link when it carries 's=', else a built-in). */
export function loadArgs(x: LoadArgs | Scene | string): LoadArgs;

export type Subscription = { every: number } | { hz: number };

/** A step job's progress (event minipbd:progress, after each chunk of about 100 ms of steps): `id` is the step
 *  command's, `done` of `n` steps have run, `steps` is the world's count then (null while a world is replaced). */
export interface StepProgress {
  id: number | string | null;
  done: number;
  n: number;
  steps: number | null;
}

/** The reply of step(n): the world's step count, the steps this call ran, and whether pause, reset, load or a
 *  newer step stopped it before n. */
export interface StepResult {
  steps: number;
  ran: number;
  cancelled: boolean;
}

export interface StepOptions {
  /** Called after each chunk of the job (also dispatched as the 'progress' event). */
  onProgress?: (progress: StepProgress) => void;
}

export interface MiniPBDFrameEventMap {
  ready: CustomEvent<{ particles: number }>;
  error: CustomEvent<{ message: string }>;
  stats: CustomEvent<FrameStats>;
  /** Every step job's progress (whichever call started it). */
  progress: CustomEvent<StepProgress>;
}

export class MiniPBDFrame extends EventTarget {
  constructor(iframe: HTMLIFrameElement, options?: MiniPBDFrameOptions);
  readonly iframe: HTMLIFrameElement;
  readonly origin: string;
  /** Resolves at the frame's minipbd:ready (create the client before the iframe has loaded). */
  readonly ready: Promise<{ particles: number }>;
  /** onProgress: the command's progress events (step); each of them starts the reply's timeout again. */
  command(command: string, args?: object, options?: StepOptions): Promise<unknown>;
  play(): Promise<{ paused: boolean }>;
  pause(): Promise<{ paused: boolean }>;
  reset(): Promise<{ particles: number; steps: number }>;
  /** Exactly n steps, 1..10000, also while paused, as a job: the frame answers every other command meanwhile
   *  (stats within a frame), reports progress after each chunk, and pause(), reset(), load() or another step()
   *  stop it after the step in flight (the result says how many ran). */
  step(n?: number, options?: StepOptions): Promise<StepResult>;
  set(name: ParamName | string, value: number): Promise<{ name: string; value: number }>;
  /** { builtin }, { link } or { scene } (the load command's args), or a shorthand: a built-in scene's name, a link
   *  ('s=1.…' or a URL with one) or a scene object. */
  load(x: LoadArgs | Scene | string): Promise<{ particles: number }>;
  stats(): Promise<FrameStats>;
  /** At most 60 events a second; a subscription lasts across load and reset until unsubscribe(). */
  subscribe(opts: Subscription, fn?: (stats: FrameStats) => void): Promise<Subscription>;
  unsubscribe(): Promise<{ subscribed: boolean }>;
  destroy(): void;
  addEventListener<K extends keyof MiniPBDFrameEventMap>(type: K, listener: (ev: MiniPBDFrameEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
}
