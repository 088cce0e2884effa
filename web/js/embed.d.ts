// Types of the embedding module (embed.js, docs/embedding.md "Embedding"): the <minipbd-scene> element and its attributes.

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
  /** The element's width: a number of CSS pixels ("480") or a CSS length ("30em", "100%"). The way to size it
   *  under a strict CSP (style-src 'self' drops style="…"); the host's own stylesheet still overrides it. */
  width?: string;
  /** The element's height, as `width`. With both, the default 16:10 aspect ratio is off. */
  height?: string;
  /** The accessible name of the canvas (role img) and of the poster; default "MiniPBD scene: NAME", the scene's
   *  name in the host page's language. Text only. */
  alt?: string;
  /** An image URL shown instead of the drawn poster (before the scene starts, while it has no WebGL context, and
   *  when it cannot run). http:, https:, a relative URL or data:image/… only; anything else is refused. */
  poster?: string;
  /** "auto" (default) or "lazy": start when scrolled into view; "eager": fetch and build the world at once (the
   *  WebGL context still waits until it is in view). */
  loading?: 'auto' | 'lazy' | 'eager';
  /** "auto" (default): the play/pause button, and grabbing, orbiting, pinch and arrow keys on the canvas; "none":
   *  none of them: a picture that plays (the host drives it with play(), pause() and the camera attributes), out of
   *  the tab order, every gesture over it the page's. */
  controls?: 'auto' | 'none';
  /** "θ φ r" as model-viewer: θ the azimuth (the camera's yaw), φ the angle from straight up (90deg = level;
   *  within 4.1deg..175.9deg), r the distance to the target (0.05 m..10 km). Angles in deg or rad (bare: rad),
   *  distances in m, cm or mm (bare: m); any part may be "auto" (the scene's). E.g. "30deg 75deg 4m". */
  'camera-orbit'?: string;
  /** "x y z": the point the camera orbits, in m, cm or mm (bare: m), each part may be "auto". E.g. "0 1.2m 0". */
  'camera-target'?: string;
  /** The vertical field of view, 10deg..120deg (deg or rad), or "auto". E.g. "45deg". */
  'field-of-view'?: string;
}

/** The camera's orbit in model-viewer's terms: radians and metres. */
export interface MiniPBDCameraOrbit { theta: number; phi: number; radius: number; }

/** Why an element cannot run (element.failure, the 'error' event's detail). */
export type MiniPBDFailureCode = 'webgl' | 'wasm' | 'fetch' | 'scene' | 'context-budget' | 'runtime';
export interface MiniPBDFailure {
  /** 'webgl': no WebGL2 context; 'wasm': no WebAssembly, or the page's CSP forbids it (script-src without
   *  'wasm-unsafe-eval'); 'fetch': the wasm, a shader or an asset could not be fetched (network, HTTP status, or
   *  CORS); 'scene': the link or the scene name is refused; 'context-budget': the page's embeds hold all the WebGL
   *  contexts they may keep, on screen (the element starts when one is released); 'runtime': the simulation threw. */
  code: MiniPBDFailureCode;
  /** The reason as plain text, in the host page's language (shown on the poster). */
  message: string;
}

/** Which build an element runs. */
export interface MiniPBDBuildInfo {
  build: 'threads' | 'single';
  threads: number;
  maxThreads: number;
  /** Why the single-thread build: the host page is not cross-origin isolated; the threaded build failed to start;
   *  (the page only) the isolation service worker did not isolate it; our modules come from another origin than
   *  the page (no worker starts from another origin's script). */
  reason?: 'notIsolated' | 'failed' | 'swFailed' | 'crossOrigin';
  error?: string;
}

export interface MiniPBDSceneEventMap extends Omit<HTMLElementEventMap, 'load' | 'error'> {
  /** The scene runs (once per load; not again after reset()). */
  load: CustomEvent<{ world: World }>;
  /** The element cannot run: the same { code, message } as element.failure. */
  error: CustomEvent<MiniPBDFailure>;
}

export class MiniPBDSceneElement extends HTMLElement {
  /** The World, or null before the element has loaded (it loads when first scrolled into view). */
  readonly world: World | null;
  /** Which build runs (the threaded one only on a cross-origin isolated host page), null before load. */
  readonly build: MiniPBDBuildInfo | null;
  /** Why the element cannot run, or null (it runs, or has not tried yet). */
  readonly failure: MiniPBDFailure | null;
  /** The result of a link's replay once it has ended, else null. */
  readonly replayResult: { steps: number; total: number; hash: number | null; expected: number | null; exact: boolean | null;
    error: string | null; stopped?: boolean } | null;
  /** True while the simulation is set to run (it still only steps while visible). */
  readonly playing: boolean;
  /** True while this element holds a WebGL context. */
  readonly graphicsActive: boolean;
  // The attributes as properties (element-attrs.js): setting one sets the attribute (null removes it).
  alt: string;
  poster: string;
  /** The checked value: 'auto' when the attribute is absent or refused. */
  loading: 'auto' | 'lazy' | 'eager';
  /** The checked value: 'auto' when the attribute is absent or refused. */
  controls: 'auto' | 'none';
  cameraOrbit: string;
  cameraTarget: string;
  fieldOfView: string;
  /** The camera now (the user's orbiting included): θ, φ in radians, r in metres. */
  getCameraOrbit(): MiniPBDCameraOrbit;
  /** The point the camera orbits now, in metres. */
  getCameraTarget(): { x: number; y: number; z: number };
  /** The refused attributes and why ({ 'camera-orbit': '…' }); each is also said once with console.warn, and the
   *  element behaves as if it were absent. */
  readonly attributeErrors: Partial<Record<keyof MiniPBDSceneAttributes, string>>;
  play(): void;
  pause(): void;
  /** Rebuilds the world from the scene (element.world is a new World afterwards). */
  reset(): void;
  // The control methods (embed/element-control.js; the iframe API drives them).
  /** True unless the simulation is set to run. */
  readonly paused: boolean;
  /** Resolves once no step is in flight or due: after pause(), the step count then holds still. */
  idle(): Promise<void>;
  /** Exactly n steps (an integer in 1..10000), also while paused; resolves with stats().steps. pause(), reset(),
   *  load() or another step stop it early (stepJob says how many ran). */
  step(n: number): Promise<number>;
  /** step(n) as a job: in chunks of about 100 ms, onProgress({ done, n }) after each; resolves with the world's
   *  step count, the steps this call ran and whether it was stopped early. */
  stepJob(n: number, options?: { onProgress?: (p: { done: number; n: number }) => void }): Promise<{ steps: number; ran: number; cancelled: boolean }>;
  /** A scene object, a link ('s=1.…' or a URL with one) or a built-in scene's name; rejects with the validator's
   *  message and keeps the running world when refused. */
  load(input: Scene | object | string): Promise<{ particles: number }>;
  /** World.setParam (its checks and messages). */
  setParam(name: ParamName | string, value: number): void;
  /** world.stats() plus time (steps × dt, s) and fluid when the scene has water; never waits on the steps in
   *  flight: then busy is true, steps counts those ended and the rest is as read at step measuredAt. */
  stats(): Stats & { time: number; fluid?: FluidStats; busy?: boolean; measuredAt?: number; progress?: number };
  /** stats() as a Promise (it never waits on the steps in flight either). */
  nextStats(): Promise<Stats & { time: number; fluid?: FluidStats; busy?: boolean; measuredAt?: number; progress?: number }>;
  getAttribute(name: keyof MiniPBDSceneAttributes): string | null;
  setAttribute(name: keyof MiniPBDSceneAttributes, value: string): void;
  addEventListener<K extends keyof MiniPBDSceneEventMap>(type: K, listener: (this: MiniPBDSceneElement, ev: MiniPBDSceneEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof MiniPBDSceneEventMap>(type: K, listener: (this: MiniPBDSceneElement, ev: MiniPBDSceneEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
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
