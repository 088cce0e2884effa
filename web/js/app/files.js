// files.js — what the demo page does with files: a .json scene dropped on the view or opened from the panel
// replaces the running scene; an .obj model becomes a body (of the type the panel says) added to the running
// scene where it was dropped, the scene rebuilt from its description with the model in it (a world's
// capacities are reserved when it is built, so a body cannot be added to a running one); Download scene saves
// the current scene, settings and view as JSON (format/scene-file.js sceneFileText: indented, defaults left out). A refused file changes nothing: the new world is built before
// the running one is let go (main.js, loadScene), and the reason is shown as text.

import { fileKind, readSceneFile, readModelFile, modelObject, groundPoint, installDrop } from '../input/drop.js';
import { downloadText, sceneFileName } from '../panel/files.js';
import { sceneFileText } from '../format/scene-file.js';
import { t } from '../i18n/i18n.js';
import { prepareAhead } from '../sim/prepare.js';

function errorText(err) {
  return err && typeof err.message === 'string' && err.message ? err.message : String(err);
}

/**
 * The page's file actions. `app` is main.js's app ({ state, camera, canvas, ui, loadScene }); `dropTarget` the
 * element files may be dropped on. Returns { open(files, clientX?, clientY?), download() } (promises settle when
 * done, for tests).
 */
export function fileActions(app, dropTarget) {
  const { state, camera, canvas, ui } = app;

  /** The current scene as it would be saved or shared: its settings and the view as it is now. */
  function currentScene() {
    const scene = structuredClone(state.scene);
    scene.camera = camera.toJSON();
    return scene;
  }

  async function openScene(file) {
    try {
      const input = await readSceneFile(file);
      await prepareAhead(app.state.pbd, input); // its models' cells, between frames (sim/prepare.js)
      await app.run(() => app.loadScene(input, null)); // after the steps in flight (main.js)
      ui.clearError();
      ui.showNotice(t('notice.sceneOpened', { name: file.name }));
      // The page no longer shows the link's scene: a reload must not bring it back.
      if (location.hash) history.replaceState(null, '', location.pathname + location.search);
      return true;
    } catch (err) {
      ui.showError(t('error.open', { name: file.name, error: errorText(err) }));
      return false;
    }
  }

  async function addModel(file, clientX, clientY) {
    const { type, resolution } = ui.model;
    try {
      const model = await readModelFile(file);
      const at = clientX === undefined
        ? [camera.target[0], state.view.groundHeight, camera.target[2]]
        : groundPoint(camera, canvas, clientX, clientY, state.view.groundHeight);
      const scene = currentScene();
      const name = file.name.replace(/\.obj$/i, '');
      scene.objects.push(modelObject(model, { type, resolution, at, name }));
      await prepareAhead(app.state.pbd, scene);
      await app.run(() => app.loadScene(scene, null, { keepCamera: true }));
      ui.clearError();
      ui.showNotice(t('notice.modelAdded', { name, kind: t(`object.${type}`) }));
      if (location.hash) history.replaceState(null, '', location.pathname + location.search);
      return true;
    } catch (err) {
      ui.showError(t('error.model', { name: file.name, error: errorText(err) }));
      return false;
    }
  }

  /** Opens the first of `files` (a drop at page position clientX, clientY places a model there). */
  async function open(files, clientX, clientY) {
    const file = files[0];
    if (!file || !state.pbd) return false;
    const kind = fileKind(file);
    if (kind === 'scene') return openScene(file);
    if (kind === 'obj') return addModel(file, clientX, clientY);
    ui.showError(t('error.fileKind', { name: file.name }));
    return false;
  }

  function download() {
    if (!state.scene) return null;
    try {
      const scene = currentScene();
      const name = sceneFileName(scene.name);
      downloadText(document, name, sceneFileText(scene));
      return name;
    } catch (err) {
      ui.showError(t('error.download', { error: errorText(err) }));
      return null;
    }
  }

  if (dropTarget) installDrop(dropTarget, (files, x, y) => { open(files, x, y); });
  return { open, download };
}
