// main.js — the demo page (index.html), composed here: loads the engine and shaders, opens the scene named by the
// link in location.hash (or ?scene=, or the default scene), and runs the fixed-step simulation loop (sim/loop.js)
// and the drawing (frame.js). The panel (panel/) reports to the handlers (handlers.js); scenes are loaded by
// scene-load.js, links made and opened by links.js, files dropped or opened by files.js.
// Everything tests need is exposed as window.minipbd = { world, scene, app, ready, build }.
// The world steps without the page waiting (sim/driver.js): while busy the frame redraws, and the page's own world
// calls (panel, pointer, recorder, files, scene loads) wait in the driver's queue, run in order after the steps.

import { loadEngine } from './build.js';
import { defaultScene } from '../format/builtin-scenes.js';
import { installRecorder } from '../panel/record.js';
import { OrbitCamera } from '../render/camera.js';
import { createRenderer } from '../render/renderer.js';
import { PointerInput } from '../input/pointer.js';
import { createUI } from '../panel/panel.js';
import { t, detectLanguage } from '../i18n/i18n.js';
import { installViewTools } from '../panel/view-tools.js';
import { FixedStepLoop } from '../sim/loop.js';
import { StepDriver } from '../sim/driver.js';
import { addThreadsControl } from '../panel/threads.js';
import { fileActions } from './files.js';
import { canvasSize } from './canvas-size.js';
import { loadBuiltins, builtin, builtinKeyFor, builtinEntries } from './builtins.js';
import { pageHandlers } from './handlers.js';
import { sceneLoading } from './scene-load.js';
import { linkActions } from './links.js';
import { frameLoop } from './frame.js';
import { errorText } from './errors.js';

const exposed = { scene: null, app: null, ready: false, build: null };
let currentWorld = () => null; // main() sets it: a tool reading window.minipbd.world sees the page's calls done
Object.defineProperty(exposed, 'world', { get: () => currentWorld(), enumerable: true });
window.minipbd = exposed;

async function main() {
  const canvas = document.getElementById('view');
  const app = createApp(canvas);
  const handlers = pageHandlers(app);
  app.ui = createUI(document, handlers, { lang: detectLanguage({ search: location.search, languages: navigator.languages ?? [navigator.language] }) });
  app.ui.setPaused(false);
  app.threadsUI = addThreadsControl(document, app.ui.gui, app.ui.els.readoutBlock, app.ui.translated, handlers);
  Object.assign(app, sceneLoading(app), linkActions(app));
  const viewTools = installViewTools({ canvas, stage: canvas.closest('.stage'), sceneName: () => app.state.scene?.name, notice: (text) => app.ui.showNotice(text) });
  const frames = frameLoop(app, { size: canvasSize(canvas), viewTools });
  app.updateReadout = frames.updateReadout;
  app.requestRedraw = frames.requestRedraw; // for a tool or a test that changed the world from outside the page
  if (!(await startEngine(app, canvas))) return;
  app.input = new PointerInput(canvas, app.camera, () => app.state.world);
  app.input.mustWait = () => app.driver.mustWait;
  app.input.defer = (fn) => app.driver.defer(fn);
  app.recorder = installRecorder(app);
  app.files = fileActions(app, document.body);
  await openFirstScene(app);
  window.addEventListener('hashchange', () => {
    if (location.hash === app.state.ownHash) return;
    if (location.hash.length <= 1) return; // link removed: keep the current scene
    app.openLink(location.hash, { fallback: false });
  });
  requestAnimationFrame(frames.frame);
  frames.startReadoutTimer();
}

/** The page's state, camera and step driver, and the calls tools and tests make (window.minipbd.app); the panel,
 *  the renderer, the pointer, the recorder and files are added as main() makes them. */
function createApp(canvas) {
  const state = {
    pbd: null,
    world: null,
    scene: null,
    sceneKey: null,
    paused: false,
    slowPause: false, // paused by onSlow, not by the user
    // The fixed-step loop (sim/loop.js): its dt follows the world's; it says how many steps are due and the
    // driver takes them (a held collider moves toward the pointer a bounded distance before every step).
    loop: new FixedStepLoop((n) => driver.request(n), { timed: false }),
    view: { showParticles: true, heatMap: false, velocityArrows: false, water: true, groundEnabled: true, groundHeight: 0, held: [], heldColliders: [] },
    ownHash: null, // the hash we wrote ourselves (Copy link): its hashchange is not a new link
    linkSeq: 0,
    lastReadout: 0,
  };
  const app = { state, canvas, exposed, camera: new OrbitCamera(), renderer: null, input: null, recorder: null, files: null };
  // One step at a time while each needs a call before it: a collider held, a recorder or replayer wrapping step.
  const driver = app.driver = new StepDriver({
    world: () => state.world,
    loop: state.loop,
    oneAtATime: (world) => Boolean(app.input?.collidersMoving) || Object.hasOwn(world, 'step'),
    beforeStep: () => app.input?.moveHeldColliders(state.loop.dt),
    onSlow: (ms) => {
      // A link whose step is far beyond this machine opens paused, and says so; the page keeps answering.
      app.setPaused(true);
      state.slowPause = true; // the page's own pause, for this world only: scene-load.js lifts it for the next
      app.ui.showNotice(t('notice.slowStep', { seconds: (ms / 1000).toFixed(ms < 10_000 ? 1 : 0) }), { sticky: true });
    },
  });
  currentWorld = () => (driver.queue.length > 0 && driver.flush(), state.world); // the page's waiting calls first
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
    if (app.input?.collidersMoving) app.input.step(state.world, n, state.loop.dt); // a collider moved before each step
    else state.world.stepAsync(n);
    return driver.whenIdle();
  };
  app.setPaused = (paused) => {
    state.paused = Boolean(paused);
    state.slowPause = false; // a pause or resume asked for is the user's from now on
    state.loop.accumulator = 0;
    if (state.paused) driver.cancel({ job: false });
    if (app.input) app.input.paused = state.paused;
    app.ui.setPaused(state.paused);
  };
  return app;
}

/** Loads the engine, the renderer and the built-in scenes together; false (with the reason shown) if one failed. */
async function startEngine(app, canvas) {
  const { ui } = app;
  try {
    const [loaded, renderer] = await Promise.all([
      loadEngine(new URL('./minipbd.wasm', document.baseURI), { search: location.search, serviceWorker: true }),
      createRenderer(canvas),
      loadBuiltins(),
    ]);
    app.renderer = renderer;
    app.state.pbd = loaded.engine;
    exposed.build = loaded.info;
    app.threadsUI.setBuild(loaded.info);
    ui.setScenes(builtinEntries());
  } catch (err) {
    ui.showError(t('error.start', { error: errorText(err) }));
    console.error(err);
    return false;
  }
  const renderer = app.renderer;
  renderer.onContextChange = (what) => {
    app.requestRedraw();
    if (what === 'lost') ui.showNotice(t('notice.contextLost'), { sticky: true });
    else ui.clearNotice();
    ui.setWaterUnavailable(renderer.waterUnavailable); // asked again of the new context
  };
  ui.setWaterUnavailable(renderer.waterUnavailable);
  return true;
}

/** ?scene=ID opens a built-in scene (the gallery's links); a link in the fragment wins; an unknown id says so. */
async function openFirstScene(app) {
  const asked = location.hash.length > 1 ? null : new URLSearchParams(location.search).get('scene');
  const start = asked === null ? null : await builtin(asked).catch((err) => void app.ui.showError(t('error.scene', { error: errorText(err) })));
  if (location.hash.length > 1) await app.openLink(location.hash, { fallback: true });
  else if (start) app.loadScene(start, asked);
  else app.loadScene(defaultScene(), builtinKeyFor(defaultScene()));
}

main().catch((err) => {
  console.error(err);
  const el = document.getElementById('message-text');
  if (el) {
    el.textContent = t('error.start', { error: errorText(err) });
    document.getElementById('message').hidden = false;
  }
});
