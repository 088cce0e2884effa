// handlers.js — what the page does when the panel reports an intent (panel/panel.js's handlers): a scene chosen,
// a parameter moved, pause, step, reset, the thread count, a view switch, the language; the edits of one object or
// collider (edits.js), files, links. The handlers that call the world run at once when it is free, else wait in
// the driver's queue (driver.defer); the others touch only the page and answer at once.

import { t } from '../i18n/i18n.js';
import { paramLabel } from '../panel/panel.js';
import { Plots } from '../panel/plots.js';
import { editHandlers } from './edits.js';
import { builtin } from './builtins.js';
import { errorText } from './errors.js';

// The panel's callbacks that call the world (pause, view switches, language, copy link, step touch only the page).
const DEFERRED_HANDLERS = ['onParam', 'onEmitter', 'onMass', 'onColliderMaterial', 'onObjectStiffness',
  'onObjectMaterial', 'onDownloadScene', 'onOpenFiles', 'onPlots', 'onThreads'];

/** The panel's handlers over main.js's `app` (its ui, files and scene loading come after: read when called). */
export function pageHandlers(app) {
  const handlers = {
    ...runHandlers(app),
    ...editHandlers({ state: app.state, exposed: app.exposed, followWorld: () => app.followWorld(), ui: () => app.ui }),
    ...viewHandlers(app),
    onDownloadScene: () => app.files?.download(),
    onOpenFiles: (list) => app.files?.open(list),
    onCopyLink: (...args) => app.copyLink(...args),
    onCopyEmbed: () => app.copyEmbed(),
  };
  for (const name of DEFERRED_HANDLERS) {
    const fn = handlers[name];
    handlers[name] = (...args) => app.driver.defer(() => fn(...args));
  }
  return handlers;
}

/** The scene picker, a parameter, Pause / Step / Reset and the thread count. */
function runHandlers(app) {
  const { state, driver, exposed } = app;
  return {
    async onSceneChange(key) {
      if (!state.pbd) return;
      let scene;
      try {
        scene = await builtin(key);
      } catch (err) {
        app.ui.showError(t('error.scene', { error: errorText(err) }));
        if (state.scene) app.ui.showScene(state.scene, state.sceneKey); // put the picker back
        return;
      }
      driver.drop(); // the old world's steps due, and the one in flight, are not waited for
      driver.defer(() => {
        app.tryLoad(scene, key);
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
        app.ui.showError(t('error.param', { label: paramLabel(param), error: errorText(err) }));
      }
      // What the loop and the renderer keep of the parameters follows them.
      state.loop.dt = state.world.getParam('dt');
      state.view.groundEnabled = Boolean(state.world.getParam('groundEnabled'));
      state.view.groundHeight = state.world.getParam('groundHeight');
      // The world keeps its description in step, so links carry the change. Colliders stay where the scene
      // put them: moving one with the pointer is play, like pulling the cloth, and Reset puts it back (their
      // materials set from the panel are in our description already: onColliderMaterial).
      app.followWorld();
      app.ui.clearLink();
    },
    onTogglePause() {
      app.setPaused(!state.paused);
      app.updateReadout(performance.now(), true);
    },
    onStep() {
      if (state.world && state.paused) driver.request(1, { now: true }); // now, or as soon as the world is free
    },
    onReset() {
      if (!state.scene) return;
      driver.drop(); // the steps due and in flight of the world Reset replaces are not waited for
      driver.defer(() => app.tryLoad(state.scene, state.sceneKey, { keepCamera: true }));
    },
    /** Steps share out over `n` threads from the next step on (the threaded build only; the same bits). */
    onThreads(n) {
      if (!state.world || exposed.build?.build !== 'threads') return;
      try {
        state.pbd.threads = n;
        state.world.setThreads(n);
        app.threadsUI.setBuild(exposed.build = { ...exposed.build, threads: n });
      } catch (err) { app.ui.showError(errorText(err)); }
    },
  };
}

/** The View switches and the language: the page only. */
function viewHandlers({ state }) {
  return {
    onHeatMap(on) { state.view.heatMap = on; },
    onPlots(on) {
      state.plots = on ? new Plots(document.getElementById('convergence-plot'), document.getElementById('energy-plot')) : null;
      // the solver records the mean error after every pass only while someone is looking
      state.world?.setParam('recordConvergence', on ? 1 : 0);
    },
    onShowParticles(show) { state.view.showParticles = show; },
    onVelocityArrows(on) { state.view.velocityArrows = on; }, // drawn by renderer.js
    onWater(on) { state.view.water = on; }, // fluids as water (render/fluid.js) or as particles
    onLanguage(lang) {
      // Keep the choice in the query (a reload or a copied link opens in it); the fragment stays the link's.
      const url = new URL(location.href);
      url.searchParams.set('lang', lang);
      history.replaceState(history.state, '', url);
    },
  };
}
