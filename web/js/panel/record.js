// record.js — the page's Record button (beside Copy link) and its status line, and the app hooks
// window.minipbd.app.startRecording() / stopRecording() / endReplay(): records a run (record/recorder.js) into a
// version-2 link, and replays the links that carry one (record/replayer.js). Its label and status lines are in
// i18n (English and Chinese).

import { Recorder } from '../record/recorder.js';
import { Replayer } from '../record/replayer.js';
import { t, plural, formatNumber } from '../i18n/i18n.js';

/**
 * Wires recording and replaying into the demo page. `app` is window.minipbd.app (state, camera, ui, input,
 * loadScene, copyLink). Adds a Record / Stop button after #copy-link (or at the end of the panel) and
 * app.startRecording(), app.stopRecording(), app.endReplay(). The app calls controller.worldChanged(world)
 * whenever it replaces the world and controller.play(replay) after opening a link that carries one.
 */
export function installRecorder(app, { doc = document } = {}) {
  const s = newSession(app, buildControls(doc));
  const controller = s.controller = makeController(s);
  // The click's world calls wait for the steps in flight (main.js: app.defer), so a recording starts and ends
  // between the same steps it would have synchronously.
  const later = app.defer ?? ((fn) => fn());
  s.controls.button.addEventListener('click', () => later(() => {
    if (s.recorder) controller.stop();
    else if (s.replayer) controller.endReplay();
    else controller.start();
  }));
  app.startRecording = () => controller.start();
  app.stopRecording = () => controller.stop();
  app.endReplay = () => controller.endReplay();
  app.recorder = controller;
  // A language switch rewrites the button and the status line (ui.js calls this back with its own texts).
  const translate = () => {
    update(s);
    s.controls.status.textContent = s.statusText();
  };
  if (app.ui?.translated) app.ui.translated(translate);
  else update(s);
  return controller;
}

/**
 * The panel's state, shared by the functions below: the running recorder or replayer (at most one), the scene the
 * running recording started from (with the camera it started with), the status line's text as a function of the
 * language (a switch rewrites it, like the rest of the page), and the controller handed to the app.
 */
function newSession(app, controls) {
  return { app, controls, recorder: null, replayer: null, scene: null, statusText: () => '', controller: null };
}

/** The controller the app holds (app.recorder): its state, and the actions the button and the app hooks call. */
function makeController(s) {
  const controller = {
    /** The last finished recording: { scene, replay, fragment, reason }. */
    last: null,
    /** The result of the last replay (Replayer onEnd), or null while one plays. */
    lastReplay: null,
    pending: null,
    get recording() { return s.recorder !== null; },
    get replaying() { return s.replayer !== null; },
    get recorder() { return s.recorder; },
    get replayer() { return s.replayer; },

    /** Restarts the current scene (keeping the camera) and records from its first step. */
    start() { return startRecording(s); },

    /** Stops the recording and makes its link; resolves to the fragment ('s=2.…'), or null. */
    async stop() {
      if (!s.recorder) return controller.pending ? controller.pending : null;
      s.recorder.stop();
      return controller.pending;
    },

    /** Plays `replay` (validated by decodeRun) on the world just built from its scene. */
    play(replay) { playReplay(s, replay); },

    /** Ends a running replay early. */
    endReplay() { s.replayer?.stop(); },

    /** The app replaced its world: a recording or replay of the old one ends (a recording is discarded). */
    worldChanged(world) { endForWorld(s, world); },
  };
  return controller;
}

/**
 * The button looks like its neighbour "Copy link": a lil-gui function controller when the panel is made with
 * lil-gui, a plain button otherwise. The status line below it says what the recorder is doing (text only).
 * Returns the elements, `label` (the element that holds the button's text) and `place()`, which puts them after
 * #copy-link (or at the end of the panel).
 */
function buildControls(doc) {
  const copy = doc.getElementById('copy-link');
  const lil = copy?.closest('.lil-controller');
  const box = doc.createElement('div');
  const button = doc.createElement('button');
  button.type = 'button';
  button.id = 'record';
  let label = button;
  if (lil) {
    box.className = 'lil-controller lil-function record-controls';
    const widget = doc.createElement('div');
    widget.className = 'lil-widget';
    label = doc.createElement('div');
    label.className = 'lil-name';
    button.append(label);
    widget.append(button);
    box.append(widget);
  } else {
    box.className = 'record-controls';
    box.append(button);
  }
  const status = doc.createElement('p');
  status.id = 'record-status';
  status.className = 'panel-note small';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const place = () => {
    const anchor = doc.getElementById('copy-link');
    const at = anchor?.closest('.lil-controller') ?? anchor;
    if (at) at.after(box, status);
    else (doc.getElementById('panel') ?? doc.querySelector('.panel') ?? doc.body).append(box, status);
  };
  place();
  return { box, button, label, status, place };
}

/** Sets the status line to `text()` (a function of the language). */
function say(s, text) {
  s.statusText = text;
  s.controls.status.textContent = text();
}

/** `steps` in seconds of simulated time, one decimal. */
function seconds(app, steps) {
  return (steps * (app.state.loop?.dt || 1 / 60)).toFixed(1);
}

/** Makes the button say what a click would do, and lets the pointer grab bodies unless a replay plays. */
function update(s) {
  const { box, button, label, place } = s.controls;
  if (!box.isConnected) place(); // the panel may have been rebuilt
  const key = s.recorder ? 'record.stop' : s.replayer ? 'record.endReplay' : 'record.start';
  label.textContent = t(key);
  button.title = t(`${key}.help`);
  if (s.app.input) s.app.input.canGrab = () => s.replayer === null; // a replay is not pulled about while it plays
}

/** Why a recording ended early, in the current language ('' when it was stopped by the user). */
function whyStopped(rec, reason) {
  if (reason === 'stopped') return '';
  if (reason === 'steps') return t('record.limitSteps', { n: formatNumber(rec.maxSteps) });
  if (reason === 'events') return t('record.limitEvents', { n: formatNumber(rec.maxEvents) });
  const cause = rec.stopCause;
  return t('record.because', { reason: cause ? t(`record.cause.${cause.key}`, cause.vars) : reason });
}

const replayCount = (result) => ({ done: String(result.steps), total: String(result.total) });

/** How a replay ended (Replayer onEnd's result), in the current language. */
function replayText(result) {
  if (result.error) return t('replay.failed', { ...replayCount(result), error: result.error });
  if (result.stopped) {
    return result.cause ? t('replay.stoppedBecause', { ...replayCount(result), cause: t(`replay.cause.${result.cause}`) })
      : t('replay.stopped', replayCount(result));
  }
  if (result.exact === true) return t('replay.exact', { steps: String(result.steps) });
  if (result.exact === false) return t('replay.differs', { steps: String(result.steps) });
  return t('replay.finished', { steps: String(result.steps) });
}

/** Restarts the current scene (keeping the camera) and records from its first step; false when it cannot. */
function startRecording(s) {
  const { app, controller } = s;
  const { state } = app;
  if (s.recorder || !state.pbd || !state.scene) return false;
  const next = structuredClone(state.scene);
  next.camera = app.camera.toJSON();
  try {
    app.loadScene(next, state.sceneKey, { keepCamera: true });
    s.scene = structuredClone(state.scene);
    s.recorder = new Recorder(state.world, { onStop: (rec, reason) => { controller.pending = finishRecording(s, rec, reason); } });
  } catch (err) {
    app.ui.showError(t('error.record', { error: err?.message ?? String(err) }));
    return false;
  }
  controller.last = null;
  app.ui.clearLink?.();
  say(s, () => t('record.recording'));
  update(s);
  return true;
}

/** A recording ended (Recorder onStop): makes its link and says so; resolves to the fragment, or null. */
async function finishRecording(s, rec, reason) {
  const { app, controller, scene } = s;
  s.recorder = null;
  update(s);
  if (reason === 'destroyed') {
    controller.last = null;
    say(s, () => t('record.discarded'));
    return null;
  }
  let replay;
  try {
    replay = rec.toReplay();
  } catch (err) {
    say(s, () => t('record.unusable', { error: err.message }));
    return null;
  }
  const grabs = replay.events.filter((e) => e[1] === 'g').length;
  controller.last = { scene, replay, fragment: null, reason };
  const fragment = await app.copyLink({ scene, replay });
  controller.last.fragment = fragment ?? null;
  const steps = String(replay.steps);
  say(s, fragment
    ? () => t('record.done', { steps, seconds: seconds(app, replay.steps), grabs: plural('record.grabs', grabs) }) + whyStopped(rec, reason)
    : () => t('record.noLink', { steps }) + whyStopped(rec, reason));
  return fragment ?? null;
}

/** Plays `replay` (validated by decodeRun) on the world just built from its scene. */
function playReplay(s, replay) {
  const { app, controller } = s;
  controller.lastReplay = null;
  const player = new Replayer(app.state.world, replay, {
    onParam: (name) => followParam(app.state, name),
    onEnd(result) {
      s.replayer = null;
      controller.lastReplay = result;
      update(s);
      if (result.destroyed) return;
      say(s, () => replayText(result));
      app.ui.showNotice?.(replayText(result));
    },
  });
  s.replayer = player.active ? player : null; // a replay of 0 steps has already ended
  if (s.replayer) {
    const text = () => t('replay.playing', { steps: String(replay.steps), seconds: seconds(app, replay.steps) });
    say(s, text);
    app.ui.showNotice?.(text());
  }
  update(s);
}

/** A replay set parameter `name`: what the loop and the renderer keep of it follows (as after a panel change). */
function followParam(state, name) {
  if (name === 'dt') state.loop.dt = state.world.getParam('dt');
  if (name === 'groundEnabled') state.view.groundEnabled = Boolean(state.world.getParam('groundEnabled'));
  if (name === 'groundHeight') state.view.groundHeight = state.world.getParam('groundHeight');
}

/** The app replaced its world: a recording or replay of the old one ends (a recording is discarded). */
function endForWorld(s, world) {
  if (s.recorder && s.recorder.world !== world) s.recorder._stop('destroyed');
  if (s.replayer && s.replayer.world !== world) {
    const r = s.replayer;
    s.replayer = null;
    r._finish(null, { stopped: true, destroyed: true });
    say(s, () => '');
  }
  update(s);
}
