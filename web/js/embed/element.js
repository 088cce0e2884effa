// element.js — <minipbd-scene>: a MiniPBD scene as a custom element for any static page (loaded through js/embed.js,
// which also boots the iframe embed page, embed/page.js).
//
//   <script type="module" src="https://example.org/minipbd/js/embed.js"></script>
//   <minipbd-scene scene="flag" style="width: 480px; height: 300px"></minipbd-scene>
//   <minipbd-scene src="#s=1.…"></minipbd-scene>          (a link fragment, or a whole URL with one)
//
// Its attributes, properties, events and methods are typed and described in js/embed.d.ts (the reference), and
// for readers in docs/embedding.md; the model-viewer-like ones (alt, poster, loading, controls, the camera) are
// element-attrs.js's, the remote control (step(n), load, setParam, stats) element-control.js's.
//
// Life cycle: nothing is fetched or built until the element is first visible (IntersectionObserver); then the
// engine (one per page and wasm URL, shared by all elements), the shaders (fetched once, relative to this
// module) and the element's own world. It steps only while visible and while the page is visible
// (visibilitychange), drawing only when something changed.
//
// WebGL context budget and the poster: shared.js and poster.js. Before the module runs at all (not loaded yet, or
// refused: a module script from another origin needs CORS) the element is not upgraded and shows its own children.

import { Replayer } from '../record/replayer.js';
import { OrbitCamera } from '../render/camera.js';
import { Renderer } from '../render/renderer.js';
import { PointerInput } from '../input/pointer.js';
import { FixedStepLoop } from '../sim/loop.js';
import { StepDriver } from '../sim/driver.js';
import { DEFAULT_WASM_URL, sharedEngine, shaderSources, live, makeRoomForContext, contextReleased, stopWaiting, observers,
  elements, MAX_LIVE_CONTEXTS } from './shared.js';
import * as shared from './shared.js';
import { styleInto, sizeInto } from './style.js';
import { classify, languageOf, say, tagged } from './failure.js';
import { makePoster, namePoster } from './poster.js';
import { builtinName, fragmentOf, reducedMotion, resolveScene, waterOn } from './source.js';
import { withControl } from './element-control.js';
import { ATTRIBUTES, accessibleName, applyControls, applyLabel, attributeChanged, hasControls, withAttrs, loadsEagerly,
  sceneCamera } from './element-attrs.js';
import { dotsByDefault } from '../objects/index.js';
import { prepareAhead } from '../sim/prepare.js';

// Its remote control (step(n), load(input), setParam, stats(), paused: element-control.js) and its attributes'
// properties (alt, poster, loading, controls, cameraOrbit, …: element-attrs.js) are the classes it extends.
export class MiniPBDSceneElement extends withControl(withAttrs(HTMLElement)) {
  static get observedAttributes() { return ['src', 'scene', 'wasm', 'water', 'width', 'height', ...ATTRIBUTES]; }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    styleInto(root);
    this._stage = document.createElement('div');
    this._stage.className = 'stage';
    this._status = document.createElement('p');
    this._status.className = 'status';
    this._status.setAttribute('role', 'status');
    this._status.hidden = true;
    this._button = document.createElement('button');
    this._button.type = 'button';
    this._button.hidden = true;
    this._button.addEventListener('click', () => (this._playing ? this.pause() : this.play()));
    this._poster = makePoster();
    // How to use the canvas, for screen readers (its aria-describedby; its name is the alt: element-attrs.js).
    this._hint = document.createElement('p');
    this._hint.id = 'hint';
    this._hint.className = 'hint';
    root.append(this._poster.root, this._stage, this._status, this._button, this._hint);
    this._sceneName = null; // the scene's name as the poster shows it (the default alt)
    this._lang = 'en';
    this._failure = null; // { code, message } (failure.js), or null
    // Wheel over an embed scrolls the page (input.js would zoom): stop it before it reaches the canvas.
    this._stage.addEventListener('wheel', (e) => e.stopPropagation(), { capture: true });
    const markDirty = () => { this._dirty = true; };
    for (const type of ['pointermove', 'pointerdown', 'keydown']) this._stage.addEventListener(type, markDirty, { capture: true });

    this._world = null;
    this._scene = null; // the normalised scene the world was built from (reset() rebuilds it)
    this._replay = null; // the recording the link carries (replayed on load and reset), or null
    this._replayer = null;
    this._engine = null;
    this._renderer = null;
    this._input = null;
    this._canvas = null;
    this._camera = new OrbitCamera();
    this._view = { showParticles: true, groundEnabled: true, groundHeight: 0, held: [], heldColliders: [], water: true };
    this._playing = null; // null: not decided yet (autoplay / reduced motion decide at load)
    this._visible = false;
    this._loading = false;
    this._failed = false;
    this._gen = 0; // bumped whenever a pending load must be forgotten
    this._raf = 0;
    // The page's fixed-step loop (sim/loop.js) and its stepping without waiting (sim/driver.js, as the page's:
    // while the world is busy the element redraws and its pointer's world calls wait); a held collider moves
    // toward the pointer before every step.
    this._loop = new FixedStepLoop((n) => this._driver.request(n), { timed: false });
    this._driver = new StepDriver({
      world: () => this._world,
      loop: this._loop,
      oneAtATime: (world) => Boolean(this._input?.collidersMoving) || Object.hasOwn(world, 'step'),
      beforeStep: () => this._input?.moveHeldColliders(this._loop.dt),
      active: () => this._active(),
      onSlow: (ms) => {
        this.pause();
        this._showStatus(say(this._lang, 'embed.slow', { s: (ms / 1000).toFixed(1) }));
      },
    });
    this._dirty = true;
    this._deviceSize = null; // the element's size in device pixels (CSS x devicePixelRatio), when measured
    this._frameBound = (t) => this._frame(t);
  }

  /** The World, or null before the element has loaded (it loads when first scrolled into view). */
  get world() {
    if (this._driver.queue.length > 0) this._driver.flush(); // the element's own calls waiting run first
    return this._world;
  }
  /** Which build the element runs: { build: 'threads' | 'single', threads, maxThreads, reason? } (app/build.js). */
  get build() { return this._engine?.buildInfo ?? null; }
  /** True while the simulation is set to run (it still only steps while visible). */
  get playing() { return this._playing === true; }
  /** True while this element holds a WebGL context. */
  get graphicsActive() { return this._renderer !== null; }
  /** Why the element cannot run: { code, message } (code 'webgl', 'wasm', 'fetch', 'scene', 'context-budget',
   *  'runtime'), or null. */
  get failure() { return this._failure ? { ...this._failure } : null; }

  connectedCallback() {
    elements.add(this);
    this._lang = languageOf(this);
    this._hint.textContent = say(this._lang, 'embed.view');
    this._showPoster();
    if (!this._ro) {
      this._ro = new ResizeObserver((entries) => {
        const r = entries[entries.length - 1].contentRect;
        const dpr = window.devicePixelRatio || 1;
        this._deviceSize = [Math.round(r.width * dpr), Math.round(r.height * dpr)];
      });
    }
    observers().visible.observe(this);
    observers().far.observe(this);
    this._ro.observe(this);
    if (loadsEagerly(this) && !this._world && !this._loading && !this._failed) this._load(); // loading="eager"
  }

  disconnectedCallback() {
    elements.delete(this);
    // Moving the element (remove + insert in one task) keeps its world; only a real removal tears down.
    queueMicrotask(() => {
      if (this.isConnected) return;
      observers().visible.unobserve(this);
      observers().far.unobserve(this);
      this._ro?.disconnect();
      this._visible = false;
      stopWaiting(this);
      this._unload();
    });
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (ATTRIBUTES.includes(name)) {
      attributeChanged(this, name); // alt, poster, loading, controls, the camera: element-attrs.js
      return;
    }
    if (name === 'width' || name === 'height') {
      sizeInto(this.shadowRoot, this.getAttribute('width'), this.getAttribute('height'));
      return;
    }
    if (name === 'water') {
      this._view.water = waterOn(newValue);
      this._dirty = true;
      this._kick(); // a paused element redraws too
      return;
    }
    if (!this._world && !this._loading && !this._failed) { // not started: the new value is read at load
      if (name === 'src' || name === 'scene') this._showPoster();
      return;
    }
    this._unload();
    this._showPoster();
    if (this._visible || loadsEagerly(this)) this._load();
  }

  play() {
    this._playing = true;
    this._loop.restartClock();
    if (this._input) this._input.paused = false;
    this._updateButton();
    this._kick();
  }

  pause() {
    this._playing = false;
    this._driver.cancel(); // the steps due and a step(n) job stop (after the step in flight)
    this._loop.accumulator = 0;
    if (this._input) this._input.paused = true;
    this._updateButton();
  }

  /** Rebuilds the world from the scene it was loaded from (element.world is then a new World). */
  reset() {
    if (!this._world || !this._engine) return;
    this._driver.drop(); // the old world's steps due (a job too) and the one in flight
    this._driver.flush(); // the calls waiting (drop() stopped the steps in flight; element.world is new afterwards)
    this._dropPointers();
    const world = this._engine.createWorld(this._scene);
    const old = this._world;
    this._adopt(world);
    this._startReplay();
    old.destroy();
  }

  // ------------------------------------------------------------ internals

  _onVisible(visible) {
    if (visible) {
      if (live.has(this)) { live.delete(this); live.add(this); } // most recently visible last
      if (!this._world && !this._loading && !this._failed) this._load();
      else this._ensureContext();
    } else stopWaiting(this);
    this._kick();
  }

  /** Starts the frame loop if there is something to do (visible, page shown, loaded). */
  _kick() {
    this._loop.lastTime = null;
    if (!this._raf && this._active()) this._raf = requestAnimationFrame(this._frameBound);
  }

  _active() { return this.isConnected && this._visible && !document.hidden && this._world !== null; }

  _running() { return this._active() && this._playing === true && !this._failed; }

  _builtinName() { return builtinName(this.getAttribute('scene')); }

  /** { scene, replay } for the element's attributes (source.js); rejects with the reason a link is refused. */
  _resolveScene() { return resolveScene(this.getAttribute('src'), this.getAttribute('scene')); }

  /** Shows the poster with the scene's name (poster.js). */
  _showPoster() {
    const src = this.getAttribute('src');
    const gen = this._gen;
    namePoster(this._poster, { src: src?.trim() ? fragmentOf(src) : null, builtin: this._builtinName(), lang: this._lang,
      current: () => gen === this._gen && this.getAttribute('src') === src,
      onName: (name) => { this._sceneName = name; applyLabel(this); } });
    this._syncPoster();
  }

  /** The poster is shown exactly while there is no live canvas. */
  _syncPoster() { this._poster.root.hidden = this._renderer !== null; }

  /** The result of the link's replay once it has ended ({ steps, hash, expected, exact }), else null. */
  get replayResult() { return this._replayer?.result ?? null; }

  /** Replays the link's recording, if any, on the world just built (load and reset). */
  _startReplay() {
    this._replayer = this._replay ? new Replayer(this._world, this._replay) : null;
  }

  async _load() {
    const gen = ++this._gen;
    this._loading = true;
    this._failed = false;
    this._failure = null;
    this._showStatus(say(this._lang, 'embed.loading'));
    let world = null;
    try {
      // No WebAssembly at all (turned off, a lockdown mode): say so before fetching anything.
      if (typeof WebAssembly !== 'object' || WebAssembly === null || typeof WebAssembly.compile !== 'function') {
        throw Object.assign(new Error(say(this._lang, 'embed.fail.noWasm')), { failureCode: 'wasm' });
      }
      const wasm = this.getAttribute('wasm');
      const [{ scene, replay }, engine] = await Promise.all([
        this._resolveScene().catch(tagged('scene')),
        sharedEngine(wasm ? new URL(wasm, document.baseURI).href : DEFAULT_WASM_URL).catch(tagged('engine')),
        shaderSources().catch(tagged('shaders')),
      ]);
      if (gen !== this._gen || !(await prepareAhead(engine, scene, () => gen !== this._gen))) return; // its models
      try {
        world = engine.createWorld(scene);
      } catch (err) {
        tagged('world')(err);
      }
      this._engine = engine;
      this._adopt(world);
      this._replay = replay;
      this._startReplay();
      if (this._visible) this._ensureContext(true);
    } catch (err) {
      if (gen !== this._gen) return;
      this._loading = false;
      if (world) {
        this._releaseContext();
        world.destroy();
        this._world = null;
      }
      this._fail(err);
      return;
    }
    this._loading = false;
    if (!this._failure) this._hideStatus(); // (a context-budget wait keeps its reason shown)
    if (this._playing === null) {
      const a = this.getAttribute('autoplay');
      const off = a !== null && /^(false|off|0|no)$/i.test(a.trim());
      this._playing = !off && !reducedMotion();
    }
    if (this._input) this._input.paused = !this._playing;
    this._updateButton();
    this.dispatchEvent(new CustomEvent('load', { detail: { world } }));
    this._kick();
  }

  /** Uses `world` from now on (first load or reset). */
  _adopt(world) {
    this._world = world;
    this._scene = world.describe();
    this._view.showParticles = dotsByDefault(this._scene); // as on the page: dots only where they are the drawing
    this._loop.reset(world.getParam('dt'));
    this._view.groundEnabled = Boolean(world.getParam('groundEnabled'));
    this._view.groundHeight = world.getParam('groundHeight');
    this._camera.set(sceneCamera(this, this._scene.camera)); // camera-orbit & co. over the scene's own
    this._renderer?.setWorld(world, this._scene);
    this._dirty = true;
  }

  _unload() {
    this._gen++;
    this._loading = false;
    this._failed = false;
    this._releaseContext();
    if (this._world) {
      this._driver.drop(); // a step(n) job ends (cancelled); slices: the step in flight is dropped
      this._world.destroy();
      this._world = null;
    }
    this._replay = null;
    this._replayer = null;
    this._failure = null;
    this._hideStatus();
    this._button.hidden = true;
  }

  /** Stops for good (until the attributes change): the poster with the reason as text, element.failure, 'error'. */
  _fail(err) {
    this._failed = true;
    this._button.hidden = true;
    this._report(err?.failureCode ? { code: err.failureCode, message: err.message } : classify(err, this._lang),
      (reason) => say(this._lang, 'embed.failed', { reason }));
  }

  _report(failure, wrap = (text) => text) {
    this._failure = failure;
    this._showStatus(wrap(failure.message), true);
    this._syncPoster();
    this.dispatchEvent(new CustomEvent('error', { detail: { ...failure } }));
  }

  _showStatus(text, isError = false) {
    this._status.textContent = text; // text from links only ever goes in as text
    this._status.classList.toggle('error', isError);
    this._status.setAttribute('role', isError ? 'alert' : 'status');
    this._status.hidden = false;
  }

  _hideStatus() { this._status.hidden = true; }

  _updateButton() {
    const playing = this._playing === true;
    this._button.hidden = !this._world || this._failed || !hasControls(this);
    this._button.textContent = playing ? '❚❚' : '▶';
    this._button.setAttribute('aria-label', say(this._lang, playing ? 'embed.pause' : 'embed.play'));
    this._button.classList.toggle('big', !playing);
  }

  /** Gives the element a canvas with a live context, if it has a world and none yet. */
  _ensureContext(throwOnError = false) {
    if (this._renderer || !this._world) return;
    if (!makeRoomForContext(this)) {
      // Every context of the budget is held by an element on screen: wait (shared.js retries when one is released)
      // and say why, once per wait; the world stays and steps.
      if (this._failure?.code !== 'context-budget') {
        this._report({ code: 'context-budget', message: say(this._lang, 'embed.fail.contextBudget', { n: MAX_LIVE_CONTEXTS }) });
      }
      return;
    }
    stopWaiting(this);
    const canvas = document.createElement('canvas');
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', accessibleName(this));
    const r = this.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this._deviceSize = [Math.round(r.width * dpr), Math.round(r.height * dpr)]; // sized by renderer.fit (below)
    this._stage.replaceChildren(canvas);
    let renderer;
    try {
      if (!shared.shaderCache) throw new Error('the shaders are not loaded');
      renderer = new Renderer(canvas, shared.shaderCache); // the load awaited the shaders
    } catch (err) {
      canvas.remove();
      const e = err instanceof Error ? err : new Error(String(err));
      if (!e.stage) e.stage = 'webgl';
      if (throwOnError) throw e;
      this._fail(e);
      return;
    }
    if (this._failure?.code === 'context-budget') {
      this._failure = null;
      this._hideStatus();
    }
    renderer.setWorld(this._world, this._scene);
    renderer.onContextChange = () => { this._dirty = true; };
    this._canvas = canvas;
    this._renderer = renderer;
    // touchScroll: a finger's vertical swipe scrolls the host page; a hold grabs (input/pointer.js).
    this._input = new PointerInput(canvas, this._camera, () => this._world, { touchScroll: true });
    this._input.mustWait = () => this._driver.mustWait;
    this._input.defer = (fn) => this._driver.defer(fn);
    this._input.canGrab = () => !this._replayer?.active; // a replay is not pulled about while it plays
    this._input.paused = this._playing !== true;
    applyControls(this);
    live.add(this);
    this._syncPoster();
    this._dirty = true;
  }

  _releaseContext() {
    if (!this._renderer) return;
    this._dropPointers();
    const gl = this._renderer.gl;
    this._renderer.world = null; // draws nothing from now on
    try {
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    } catch {
      // already lost
    }
    this._canvas.remove();
    this._renderer = null;
    this._input = null;
    this._canvas = null;
    live.delete(this);
    this._syncPoster();
    contextReleased();
  }

  /** Lets go of whatever the pointers hold (their attachments live in the world). */
  _dropPointers() {
    const input = this._input;
    if (!input) return;
    for (const p of input.pointers.values()) {
      if (p.mode === 'grab' && p.world === this._world && !p.world.destroyed) {
        try { p.world.removeAttachment(p.attachment); } catch { /* already gone */ }
      }
    }
    input.reset();
  }

  _frame(now) {
    this._raf = 0;
    if (!this._active()) {
      this._loop.lastTime = null;
      return;
    }
    this._raf = requestAnimationFrame(this._frameBound);
    try {
      // 'upload': the world is free (new state after steps, or none taken); 'redraw': busy, touch nothing.
      const what = this._driver.frame(now, this._running());
      const stepped = this._driver.stepped;
      const renderer = this._renderer;
      if (!renderer || renderer.contextLost) {
        if (what === 'upload') this._driver.afterDraw();
        return;
      }
      const canvas = this._canvas;
      // The view's size in device pixels, or a part of it on a software renderer (render/renderer.js fit).
      if (this._deviceSize && renderer.fit(...this._deviceSize)) this._dirty = true;
      // Between steps the picture moves every frame (the blend, sim/driver.js); a redraw keeps the last upload's.
      const blend = what === 'upload' ? this._driver.blend(this._running()) : renderer.blend;
      if (stepped || this._dirty || this._input.pointers.size > 0 || blend !== renderer.blend) {
        this._camera.update(canvas.width / canvas.height);
        this._view.held = this._input.heldParticles;
        this._view.heldColliders = this._input.heldColliders;
        // A draw declined (a software renderer's frame rate, render/renderer.js) is owed: the next frame draws.
        if (renderer.draw(this._camera, this._view, { upload: what === 'upload', time: now, blend })) this._dirty = false;
        else if (stepped) this._dirty = true;
      }
      if (what === 'upload') this._driver.afterDraw();
    } catch (err) {
      this.pause();
      this._fail(Object.assign(err instanceof Error ? err : new Error(String(err)), { stage: 'runtime' }));
    }
  }
}

if (!customElements.get('minipbd-scene')) customElements.define('minipbd-scene', MiniPBDSceneElement);
