// main.js — the demo page (index.html): loads the engine and shaders, opens the scene named by the link in
// location.hash (or the default scene), and runs the fixed-step simulation loop (sim/loop.js) and the drawing.
// The panel (panel/), the renderer (render/), the pointer (input/) and files dropped or opened (files.js) report
// to it; it decides what happens.
// Everything tests need is exposed as window.minipbd = { world, scene, app, ready, build }.
// The world steps without the page waiting (sim/driver.js): while busy the frame redraws, and the page's own world
// calls (panel, pointer, recorder, files, scene loads) wait in the driver's queue, run in order after the steps.

import { loadEngine } from './build.js';
import { BUILTIN_SCENE_IDS, builtinScenes, builtinSceneName, loadBuiltinScene, defaultScene } from '../format/builtin-scenes.js';
import { encodeLink, decodeRun, LINK_WARN_LENGTH } from '../format/link.js';
import { installRecorder } from '../panel/record.js';
import { OrbitCamera } from '../render/camera.js';
import { createRenderer } from '../render/renderer.js';
import { PointerInput } from '../input/pointer.js';
import { createUI, shortName, paramLabel } from '../panel/panel.js';
import { t, detectLanguage, getLanguage } from '../i18n/i18n.js';
import { Plots } from '../panel/plots.js';
import { installViewTools } from '../panel/view-tools.js';
import { FixedStepLoop } from '../sim/loop.js';
import { StepDriver } from '../sim/driver.js';
import { addThreadsControl } from '../panel/threads.js';
import { fileActions } from './files.js';
import { canvasSize } from './canvas-size.js';
import { editHandlers } from './edits.js';
import { dotsByDefault, hasWater } from '../objects/index.js';
import { embedCode } from '../panel/embed-code.js';
import { builtinTitle, posterName } from '../embed/poster.js';
import { prepareAhead } from '../sim/prepare.js';

const READOUT_INTERVAL_MS = 200;
// The panel's callbacks that call the world: run at once when it is free, else queued (driver.defer). The others
// (pause, view switches, language, copy link, step) touch only the page and answer at once.
const DEFERRED_HANDLERS = ['onParam', 'onEmitter', 'onMass', 'onColliderMaterial', 'onObjectStiffness',
  'onObjectMaterial', 'onDownloadScene', 'onOpenFiles', 'onPlots', 'onThreads'];

const exposed = { scene: null, app: null, ready: false, build: null };
let currentWorld = () => null; // main() sets it: a tool reading window.minipbd.world sees the page's calls done
Object.defineProperty(exposed, 'world', { get: () => currentWorld(), enumerable: true });
window.minipbd = exposed;

// The built-in scenes as loaded (those made from a model file, the bunny, read it first: loadBuiltinScene), by id.
const builtins = new Map();

/** Loads the built-in scenes that need no file (once). One made from a model file (the bunny: 51 KB gzipped) is read
 *  when it is first chosen (builtin()): the page neither waits for nor downloads a model it may never show. */
async function loadBuiltins() {
  await Promise.all(BUILTIN_SCENE_IDS.filter((key) => Object.hasOwn(builtinScenes, key)).map(async (key) => {
    try {
      builtins.set(key, await loadBuiltinScene(key));
    } catch {
      // its file is missing or broken: choosing it shows why (onSceneChange)
    }
  }));
}

// Always hand out a fresh copy (the UI edits scenes).
async function builtin(key) {
  if (!builtins.has(key)) builtins.set(key, await loadBuiltinScene(key));
  return structuredClone(builtins.get(key));
}

function builtinKeyFor(scene) {
  const text = JSON.stringify(scene);
  for (const [key, s] of builtins) {
    if (JSON.stringify(s) === text) return key;
  }
  return null;
}

/** The link encoder's refusal of a scene whose mesh data is too large for a link (format/link.js). */
function isTooLargeForLink(err) {
  return err?.name === 'LinkError' && /too large for a link/i.test(String(err.message));
}

function errorText(err) {
  return err && typeof err.message === 'string' && err.message ? err.message : String(err);
}

async function main() {
  const canvas = document.getElementById('view');
  const state = {
    pbd: null,
    world: null,
    scene: null,
    sceneKey: null,
    paused: false,
    // The fixed-step loop (sim/loop.js): its dt follows the world's; it says how many steps are due and the
    // driver takes them (a held collider moves toward the pointer a bounded distance before every step).
    loop: new FixedStepLoop((n) => driver.request(n), { timed: false }),
    view: { showParticles: true, heatMap: false, velocityArrows: false, water: true, groundEnabled: true, groundHeight: 0, held: [], heldColliders: [] },
    ownHash: null, // the hash we wrote ourselves (Copy link): its hashchange is not a new link
    linkSeq: 0,
    lastReadout: 0,
  };
  const camera = new OrbitCamera();
  // One step at a time while each needs a call before it: a collider held, a recorder or replayer wrapping step.
  const driver = new StepDriver({
    world: () => state.world,
    loop: state.loop,
    oneAtATime: (world) => Boolean(input?.collidersMoving) || Object.hasOwn(world, 'step'),
    beforeStep: () => input?.moveHeldColliders(state.loop.dt),
    onSlow: (ms) => {
      // A link whose step is far beyond this machine opens paused, and says so; the page keeps answering.
      app.setPaused(true);
      state.slowNotice = t('notice.slowStep', { seconds: (ms / 1000).toFixed(ms < 10_000 ? 1 : 0) });
      ui.showNotice(state.slowNotice, { sticky: true });
    },
  });
  let renderer = null;
  let input = null;
  let recorder = null; // recorder.js: the Record button; replays links that carry a recording
  let files = null; // files.js: scene files and models, dropped or opened

  /** Our description follows the world's after a change made through it; the colliders stay ours (onParam). */
  function followWorld() {
    const scene = state.world.describe();
    scene.colliders = state.scene.colliders;
    state.scene = scene;
    exposed.scene = scene;
  }

  // The language: ?lang=zh|en in the query wins over the browser's preferred languages.
  const handlers = {
    async onSceneChange(key) {
      if (!state.pbd) return;
      let scene;
      try {
        scene = await builtin(key);
      } catch (err) {
        ui.showError(t('error.scene', { error: errorText(err) }));
        if (state.scene) ui.showScene(state.scene, state.sceneKey); // put the picker back
        return;
      }
      driver.drop(); // the old world's steps due, and the one in flight, are not waited for
      driver.defer(() => {
        tryLoad(scene, key);
        // The page now shows a built-in scene; drop the old link (and ?scene=) so a reload does not bring it back.
        const url = new URL(location.href);
        url.searchParams.delete('scene');
        if (location.hash || url.href !== location.href) history.replaceState(null, '', url.pathname + url.search);
      });
    },
    onParam(param, pairs) {
      if (!state.world) return;
      try {
        for (const [name, value] of pairs) state.world.setParam(name, value);
      } catch (err) {
        ui.showError(t('error.param', { label: paramLabel(param), error: errorText(err) }));
      }
      // What the loop and the renderer keep of the parameters follows them.
      state.loop.dt = state.world.getParam('dt');
      state.view.groundEnabled = Boolean(state.world.getParam('groundEnabled'));
      state.view.groundHeight = state.world.getParam('groundHeight');
      // The world keeps its description in step, so links carry the change. Colliders stay where the scene
      // put them: moving one with the pointer is play, like pulling the cloth, and Reset puts it back (their
      // materials set from the panel are in our description already: onColliderMaterial).
      followWorld();
      ui.clearLink();
    },
    ...editHandlers({ state, exposed, followWorld, ui: () => ui }),
    onDownloadScene: () => files?.download(),
    onOpenFiles: (list) => files?.open(list),
    onTogglePause() {
      state.paused = !state.paused;
      state.loop.accumulator = 0;
      if (state.paused) driver.cancel({ job: false }); // the steps due are not due any more
      if (input) input.paused = state.paused;
      ui.setPaused(state.paused);
      updateReadout(performance.now(), true);
    },
    onStep() {
      if (state.world && state.paused) driver.request(1, { now: true }); // now, or as soon as the world is free
    },
    /** Steps share out over `n` threads from the next step on (the threaded build only; the same bits). */
    onThreads(n) {
      if (!state.world || exposed.build?.build !== 'threads') return;
      try {
        state.pbd.threads = n;
        state.world.setThreads(n);
        threadsUI.setBuild(exposed.build = { ...exposed.build, threads: n });
      } catch (err) { ui.showError(errorText(err)); }
    },
    onReset() {
      if (!state.scene) return;
      driver.drop(); // the steps due and in flight of the world Reset replaces are not waited for
      driver.defer(() => tryLoad(state.scene, state.sceneKey, { keepCamera: true }));
    },
    onCopyLink: copyLink,
    onCopyEmbed: copyEmbed,
    onHeatMap(on) {
      state.view.heatMap = on;
    },
    onPlots(on) {
      state.plots = on ? new Plots(document.getElementById('convergence-plot'), document.getElementById('energy-plot')) : null;
      // the solver records the mean error after every pass only while someone is looking
      state.world?.setParam('recordConvergence', on ? 1 : 0);
    },
    onShowParticles(show) {
      state.view.showParticles = show;
    },
    onVelocityArrows(on) {
      state.view.velocityArrows = on; // drawn by renderer.js
    },
    onWater(on) {
      state.view.water = on; // fluids as water (render/fluid.js) or as particles
    },
    onLanguage(lang) {
      // Keep the choice in the query (a reload or a copied link opens in it); the fragment stays the link's.
      const url = new URL(location.href);
      url.searchParams.set('lang', lang);
      history.replaceState(history.state, '', url);
    },
  };
  for (const name of DEFERRED_HANDLERS) {
    const fn = handlers[name];
    handlers[name] = (...args) => driver.defer(() => fn(...args));
  }
  const ui = createUI(document, handlers, { lang: detectLanguage({ search: location.search, languages: navigator.languages ?? [navigator.language] }) });
  ui.setPaused(false);
  const threadsUI = addThreadsControl(document, ui.gui, ui.els.readoutBlock, ui.translated, handlers);

  currentWorld = () => (driver.queue.length > 0 && driver.flush(), state.world); // the page's waiting calls first
  const app = { state, camera, ui, canvas, loadScene, copyLink, copyEmbed, openLink, driver, get renderer() { return renderer; }, get input() { return input; } };
  exposed.app = app;
  /** The page's own world calls wait here while the world is busy (files.js, record.js). */
  app.defer = (fn) => driver.defer(fn);
  app.run = (fn) => driver.run(fn);
  app.whenIdle = () => driver.whenIdle();
  // Tools and tests: exactly n steps after whatever is in flight or waiting, through World.stepAsync (replays and
  // recordings see them); resolves when done, and a world call made before that finishes them first (World.alive).
  app.stepN = (n) => {
    if (!state.world || !(n > 0)) return Promise.resolve();
    driver.flush();
    if (input?.collidersMoving) input.step(state.world, n, state.loop.dt); // a collider moved before each step
    else state.world.stepAsync(n);
    return driver.whenIdle();
  };
  app.setPaused = (paused) => {
    state.paused = Boolean(paused);
    state.loop.accumulator = 0;
    if (state.paused) driver.cancel({ job: false });
    if (input) input.paused = state.paused;
    ui.setPaused(state.paused);
  };

  /** Replace the running world with one built from `scene`. Throws (and changes nothing) if it is refused. */
  function loadScene(scene, key = null, { keepCamera = false } = {}) {
    driver.drop(); // nothing more of the old world's steps, not even the one in flight
    state.world?.engine.stepping?.settle(); // the threaded runner's call in flight ends first
    const world = state.pbd.createWorld(scene);
    const old = state.world;
    input?.reset();
    recorder?.worldChanged(world);
    state.world = world;
    state.scene = world.describe(); // normalised, with every default filled in
    state.sceneKey = key;
    state.loop.reset(world.getParam('dt'));
    state.view.groundEnabled = Boolean(world.getParam('groundEnabled'));
    state.view.groundHeight = world.getParam('groundHeight');
    old?.destroy();
    if (state.plots) {
      world.setParam('recordConvergence', 1);
      state.plots.reset();
    }
    renderer?.setWorld(world, state.scene);
    if (renderer?.fluids.length > 0 && renderer.waterUnavailable !== null) {
      ui.showNotice(t('notice.waterFallback', { reason: renderer.waterUnavailable }));
    }
    if (!keepCamera) {
      camera.set(state.scene.camera);
      // Particle dots by default only where they are the drawing (objects/index.js); Reset keeps the switch as it is.
      ui.setViewSwitch('showParticles', state.view.showParticles = dotsByDefault(state.scene));
    }
    ui.showScene(state.scene, key);
    exposed.scene = state.scene;
    updateReadout(performance.now(), true);
  }

  function tryLoad(scene, key, opts) {
    try {
      loadScene(scene, key, opts);
      return true;
    } catch (err) {
      ui.showError(t('error.scene', { error: errorText(err) }));
      if (state.scene) ui.showScene(state.scene, state.sceneKey); // put the picker back
      return false;
    }
  }

  /**
   * Open the link in `hash` ('#s=1.…'). On failure show why; at startup (fallback) run the default scene,
   * later keep the current scene running.
   */
  async function openLink(hash, { fallback }) {
    const seq = ++state.linkSeq;
    try {
      const { scene, replay } = await decodeRun(hash.replace(/^#/, ''));
      if (seq !== state.linkSeq) return; // a newer link arrived while this one was decoding
      if (!(await prepareAhead(state.pbd, scene, () => seq !== state.linkSeq))) return; // its models, between frames
      driver.drop();
      await driver.run(() => {
        loadScene(scene, builtinKeyFor(scene));
        if (replay) recorder?.play(replay); // the link carries a recording: replay it on the fresh world
      });
      ui.clearError();
      return;
    } catch (err) {
      if (seq !== state.linkSeq) return;
      ui.showError(t('error.link', { error: errorText(err) }));
    }
    if (fallback) await driver.run(() => loadScene(defaultScene(), builtinKeyFor(defaultScene())));
  }

  /** Makes the link (with `replay` and its scene: a recording's link) and shows it; resolves to the fragment or null. */
  async function copyLink({ scene: recorded = null, replay = null } = {}) {
    if (!state.scene) return null;
    // The link carries the scene with the current settings and the current view.
    const scene = structuredClone(recorded ?? state.scene);
    if (!recorded) scene.camera = camera.toJSON();
    let fragment;
    try {
      fragment = await encodeLink(scene, { replay });
    } catch (err) {
      // A scene with a large mesh (a model) fits no link: say so where the link would be, and what to do instead.
      if (isTooLargeForLink(err)) ui.setLink('', t('share.tooLarge'));
      ui.showError(t('error.makeLink', { error: errorText(err) }));
      return null;
    }
    state.ownHash = `#${fragment}`;
    location.hash = fragment;
    const url = location.href;
    const long = url.length > LINK_WARN_LENGTH;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      // Clipboard access needs permission/focus; the URL is in the field to copy by hand.
    }
    ui.setLink(url, t(copied ? 'share.copied' : 'share.selectToCopy') + (long ? t('share.long', { n: url.length }) : ''));
    return fragment;
  }

  /**
   * Copy embed code: the <minipbd-scene> and <iframe> HTML for this scene (its link, with these settings) seen from
   * this camera (panel/embed-code.js); copied and shown in the Share folder. Resolves to { element, iframe, code }
   * or null (no scene, or one too large for a link). The address bar keeps its own link: this makes none for it.
   */
  async function copyEmbed() {
    if (!state.scene) return null;
    const scene = structuredClone(state.scene);
    scene.camera = camera.toJSON();
    let fragment;
    try {
      fragment = await encodeLink(scene);
    } catch (err) {
      if (isTooLargeForLink(err)) ui.setEmbedCode('', t('share.tooLarge'));
      ui.showError(t('error.makeLink', { error: errorText(err) }));
      return null;
    }
    const lang = getLanguage();
    const name = BUILTIN_SCENE_IDS.includes(state.sceneKey) ? builtinTitle(state.sceneKey, lang) : posterName(scene.name, t('embed.poster.untitled'));
    const made = embedCode({ pageUrl: location.href, fragment, camera: scene.camera, title: t('embed.poster.label', { name }) });
    let copied = false;
    try {
      await navigator.clipboard.writeText(made.code);
      copied = true;
    } catch {
      // no clipboard permission or focus: the code is in the box to copy by hand
    }
    ui.setEmbedCode(made.code, t(copied ? 'share.embedCopied' : 'share.embedSelect'));
    return made;
  }

  // Every READOUT_INTERVAL_MS whatever a step costs, never waiting on the world: World.peekStats() reads stats()
  // when the world is free (≤ 3 ms on the largest scenes: errors and energies over the whole world, so a few times
  // a second, not every frame), else what the stepper knows (steps ended one by one, the last step's time or the
  // estimate of the one in flight) with the errors and energies read last.
  function updateReadout(now, force = false) {
    if (!state.world || state.world.destroyed || (!force && now - state.lastReadout < READOUT_INTERVAL_MS)) return;
    state.lastReadout = now;
    const s = state.world.peekStats();
    const stepMs = Number.isFinite(s.stepMs) && s.stepMs > 0 ? s.stepMs : state.loop.stepMs;
    ui.setReadout({ particles: s.particles, constraints: s.constraints, stepMs, steps: s.steps });
    ui.setDescription({
      particles: s.particles,
      constraints: s.constraints,
      paused: state.paused,
      heldParticles: input?.heldParticles.length ?? 0,
      heldColliders: (input?.heldColliders ?? []).map((i) => state.scene?.colliders[i]?.name ?? `#${i + 1}`),
    });
    state.plots?.update(state.world, s, state.loop.dt);
    ui.setFluidStats(fluidStats(state.world));
  }

  /** The fluid's statistics (the last read while steps are in flight), or null when the scene has no fluid (or the
   *  engine cannot measure it yet). */
  function fluidStats(world) {
    if (!hasWater(world.scene)) return null;
    try { return world.peekFluidStats(); } catch { return null; }
  }

  const size = canvasSize(canvas);
  const viewTools = installViewTools({ canvas, stage: canvas.closest('.stage'), sceneName: () => state.scene?.name, notice: (text) => ui.showNotice(text) });

  function frame(now) {
    requestAnimationFrame(frame);
    if (!state.world) {
      state.loop.lastTime = now;
      return;
    }
    try {
      const what = driver.frame(now, !state.paused); // 'upload' (new state, the world free) or 'redraw' (busy)
      size.apply(renderer.gl);
      camera.update(canvas.width / canvas.height);
      state.view.held = input.heldParticles;
      state.view.heldColliders = input.heldColliders;
      const drew = renderer.draw(camera, state.view, { upload: what === 'upload' });
      viewTools.drawn(); // a screenshot asked for is taken now, while the frame is in the drawing buffer
      if (drew && !exposed.ready) {
        exposed.ready = true;
        document.documentElement.dataset.ready = 'true';
      }
      updateReadout(now); // busy or not
      if (what === 'upload') driver.afterDraw(); // the steps due start now: the threaded runner takes them while the page waits a frame
    } catch (err) {
      state.paused = true;
      if (input) input.paused = true;
      ui.setPaused(true);
      ui.showError(t('error.stopped', { error: errorText(err) }));
    }
  }

  // --- start up ---
  const showScenes = () => ui.setScenes(BUILTIN_SCENE_IDS.map((key) => {
    const name = builtins.get(key)?.name ?? builtinSceneName(key) ?? key;
    return { key, name, label: shortName(name) || key };
  }));
  try {
    let loaded;
    [loaded, renderer] = await Promise.all([
      loadEngine(new URL('./minipbd.wasm', document.baseURI), { search: location.search, serviceWorker: true }),
      createRenderer(canvas),
      loadBuiltins(),
    ]);
    state.pbd = loaded.engine;
    exposed.build = loaded.info;
    threadsUI.setBuild(loaded.info);
    showScenes();
  } catch (err) {
    ui.showError(t('error.start', { error: errorText(err) }));
    console.error(err);
    return;
  }
  renderer.onContextChange = (what) => {
    if (what === 'lost') ui.showNotice(t('notice.contextLost'), { sticky: true });
    else ui.clearNotice();
    ui.setWaterUnavailable(renderer.waterUnavailable); // asked again of the new context
  };
  ui.setWaterUnavailable(renderer.waterUnavailable);
  input = new PointerInput(canvas, camera, () => state.world);
  input.mustWait = () => driver.mustWait;
  input.defer = (fn) => driver.defer(fn);
  recorder = installRecorder(app);
  files = fileActions(app, document.body);
  app.files = files;

  // ?scene=ID opens a built-in scene (the gallery's links); a link in the fragment wins; an unknown id says so.
  const asked = location.hash.length > 1 ? null : new URLSearchParams(location.search).get('scene');
  const start = asked === null ? null : await builtin(asked).catch((err) => void ui.showError(t('error.scene', { error: errorText(err) })));
  if (location.hash.length > 1) await openLink(location.hash, { fallback: true });
  else if (start) loadScene(start, asked);
  else loadScene(defaultScene(), builtinKeyFor(defaultScene()));

  window.addEventListener('hashchange', () => {
    if (location.hash === state.ownHash) return;
    if (location.hash.length <= 1) return; // link removed: keep the current scene
    openLink(location.hash, { fallback: false });
  });
  requestAnimationFrame(frame);
  // The readout also from a timer: frames may come slower than 4 a second (a software GPU, a busy machine), the
  // readout and the described view do not (peekStats never waits on the world).
  setInterval(() => {
    try { updateReadout(performance.now()); } catch (err) { console.error(err); }
  }, READOUT_INTERVAL_MS / 4);
}

main().catch((err) => {
  console.error(err);
  const el = document.getElementById('message-text');
  if (el) {
    el.textContent = t('error.start', { error: errorText(err) });
    document.getElementById('message').hidden = false;
  }
});
