// Types of the embedding module (embed.js, README "Embedding"): the <minipbd-scene> element and its attributes.

import type { Engine, World, Scene, ParamName, Stats, FluidStats } from './minipbd.js';

/** The attributes of <minipbd-scene> (all strings, as HTML gives them). */
export interface MiniPBDSceneAttributes {
  /** A link fragment ('s=1.…', 's=2.…' with a recording) or a whole URL carrying one. */
  src?: string;
  /** A built-in scene's id (cloth, flag, dam-break, …), used when there is no src; default cloth. */
  scene?: string;
  /** The engine's URL; default minipbd.wasm beside js/. */
  wasm?: string;
  /** "false" / "off" / "0" / "no" starts paused; on by default (never under prefers-reduced-motion). */
  autoplay?: string;
  /** "on" (default): fluids drawn as water where float render targets work; "off" (or "false", "0", "no"):
   *  as particles. Changing it redraws; the world stays. */
  water?: 'on' | 'off' | string;
}

export class MiniPBDSceneElement extends HTMLElement {
  /** The World, or null before the element has loaded (it loads when first scrolled into view). */
  readonly world: World | null;
  /** Which build runs (the threaded one only on a cross-origin isolated host page), null before load. */
  readonly build: { build: 'threads' | 'single'; threads: number; maxThreads: number; reason?: 'notIsolated' | 'failed' | 'swFailed'; error?: string } | null;
  /** True while the simulation is set to run (it still only steps while visible). */
  readonly playing: boolean;
  /** True while this element holds a WebGL context. */
  readonly graphicsActive: boolean;
  play(): void;
  pause(): void;
  /** Rebuilds the world from the scene (element.world is a new World afterwards). */
  reset(): void;
  // The control methods (embed/element-control.js; the iframe API drives them).
  /** True unless the simulation is set to run. */
  readonly paused: boolean;
  /** Exactly n steps (an integer in 1..10000), also while paused; resolves with stats().steps. */
  step(n: number): Promise<number>;
  /** A scene object, a link ('s=1.…' or a URL with one) or a built-in scene's name; rejects with the validator's
   *  message and keeps the running world when refused. */
  load(input: Scene | object | string): Promise<{ particles: number }>;
  /** World.setParam (its checks and messages). */
  setParam(name: ParamName | string, value: number): void;
  /** world.stats() plus time (steps × dt, s) and fluid when the scene has water. */
  stats(): Stats & { time: number; fluid?: FluidStats };
  /** stats() once the steps in flight are done, without making the page wait on them. */
  nextStats(): Promise<Stats & { time: number; fluid?: FluidStats }>;
  getAttribute(name: keyof MiniPBDSceneAttributes): string | null;
  setAttribute(name: keyof MiniPBDSceneAttributes, value: string): void;
}

export function bootEmbedPage(doc?: Document): void;
export const DEFAULT_WASM_URL: string;
export const SHADER_BASE_URL: string;
export const MAX_LIVE_CONTEXTS: number;
/** WebGL contexts the elements of this document hold now. */
export function liveContexts(): number;
/** The engine of this page for `wasmUrl` (one per URL, shared by every element). */
export function sharedEngine(wasmUrl?: string): Promise<Engine>;

declare global {
  interface HTMLElementTagNameMap { 'minipbd-scene': MiniPBDSceneElement; }
}
