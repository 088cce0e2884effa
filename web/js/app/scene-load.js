// scene-load.js — replacing the running world with one built from a scene (a built-in one, a link's, a file's, or
// the same again: Reset), and keeping the page's description of the scene in step with the world's.

import { t } from '../i18n/i18n.js';
import { dotsByDefault } from '../objects/index.js';
import { errorText } from './errors.js';

/** app: main.js's { state, camera, ui, driver, exposed, renderer, input, recorder, updateReadout }. Returns
 *  { loadScene, tryLoad, followWorld }. */
export function sceneLoading(app) {
  const { state, camera, driver, exposed } = app;

  /** Replace the running world with one built from `scene`. Throws (and changes nothing) if it is refused. */
  function loadScene(scene, key = null, { keepCamera = false } = {}) {
    driver.drop(); // nothing more of the old world's steps, not even the one in flight
    state.world?.engine.stepping?.settle(); // the threaded runner's call in flight ends first
    const world = state.pbd.createWorld(scene);
    // A pause the page made itself because the old world's step was far beyond the machine (main.js onSlow) was that
    // world's: the new one runs, and pauses again only if it is as slow. (Kept, it left the new world paused under
    // the old one's notice: a link opened from a slow scene never took a step.) A pause the user asked for stays.
    if (state.slowPause) {
      app.setPaused(false);
      app.ui.clearNotice();
    }
    const old = state.world;
    app.input?.reset();
    app.recorder?.worldChanged(world);
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
    const renderer = app.renderer;
    renderer?.setWorld(world, state.scene);
    if (renderer?.fluids.length > 0 && renderer.waterUnavailable !== null) {
      app.ui.showNotice(t('notice.waterFallback', { reason: renderer.waterUnavailable }));
    }
    if (!keepCamera) {
      camera.set(state.scene.camera);
      // Particle dots by default only where they are the drawing (objects/index.js); Reset keeps the switch as it is.
      app.ui.setViewSwitch('showParticles', state.view.showParticles = dotsByDefault(state.scene));
    }
    app.ui.showScene(state.scene, key);
    exposed.scene = state.scene;
    app.updateReadout(performance.now(), true);
  }

  /** loadScene, or the refusal shown with the picker put back on the running scene; returns whether it loaded. */
  function tryLoad(scene, key, opts) {
    try {
      loadScene(scene, key, opts);
      return true;
    } catch (err) {
      app.ui.showError(t('error.scene', { error: errorText(err) }));
      if (state.scene) app.ui.showScene(state.scene, state.sceneKey); // put the picker back
      return false;
    }
  }

  /** Our description follows the world's after a change made through it; the colliders stay ours (onParam). */
  function followWorld() {
    const scene = state.world.describe();
    scene.colliders = state.scene.colliders;
    state.scene = scene;
    exposed.scene = scene;
  }

  return { loadScene, tryLoad, followWorld };
}
