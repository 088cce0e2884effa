// links.js — the page's links: opening one (the fragment of the address, '#s=1.…', with or without a recording),
// Copy link (this scene with these settings and this camera, in the address bar and the clipboard) and Copy embed
// code (the <minipbd-scene> and <iframe> HTML for another page: panel/embed-code.js).

import { BUILTIN_SCENE_IDS, defaultScene } from '../format/builtin-scenes.js';
import { encodeLink, decodeRun, LINK_WARN_LENGTH } from '../format/link.js';
import { readReplay } from '../format/replay.js';
import { t, getLanguage } from '../i18n/i18n.js';
import { embedCode } from '../panel/embed-code.js';
import { builtinTitle, posterName } from '../embed/poster.js';
import { prepareAhead } from '../sim/prepare.js';
import { builtinKeyFor } from './builtins.js';
import { errorText, isTooLargeForLink } from './errors.js';

/**
 * A link is read against the scene's particle limit (before any engine): its scene's counts against the limits, and
 * its replay's grabs against the engine's count of the world it asks for, before the running world is touched.
 * Throws the SceneError createWorld or the Replayer would.
 */
function checkCounts(engine, scene, replay) {
  const { total } = engine.countScene(scene);
  if (replay) readReplay(replay, scene, 'replay', total.particles);
}

/** app: main.js's { state, camera, ui, driver, loadScene, recorder }. Returns { openLink, copyLink, copyEmbed }. */
export function linkActions(app) {
  const { state, driver } = app;

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
      checkCounts(state.pbd, scene, replay);
      driver.drop();
      await driver.run(() => {
        app.loadScene(scene, builtinKeyFor(scene));
        if (replay) app.recorder?.play(replay); // the link carries a recording: replay it on the fresh world
      });
      app.ui.clearError();
      return;
    } catch (err) {
      if (seq !== state.linkSeq) return;
      app.ui.showError(t('error.link', { error: errorText(err) }));
    }
    if (fallback) await driver.run(() => app.loadScene(defaultScene(), builtinKeyFor(defaultScene())));
  }

  /** The link's fragment for `scene`, or null with the refusal shown (`show`: where the link would be). */
  async function encode(scene, replay, show) {
    try {
      return await encodeLink(scene, { replay });
    } catch (err) {
      // A scene with a large mesh (a model) fits no link: say so where the link would be, and what to do instead.
      if (isTooLargeForLink(err)) show('', t('share.tooLarge'));
      app.ui.showError(t('error.makeLink', { error: errorText(err) }));
      return null;
    }
  }

  /** Makes the link (with `replay` and its scene: a recording's link) and shows it; resolves to the fragment or null. */
  async function copyLink({ scene: recorded = null, replay = null } = {}) {
    if (!state.scene) return null;
    // The link carries the scene with the current settings and the current view.
    const scene = structuredClone(recorded ?? state.scene);
    if (!recorded) scene.camera = app.camera.toJSON();
    const fragment = await encode(scene, replay, app.ui.setLink);
    if (fragment === null) return null;
    state.ownHash = `#${fragment}`;
    location.hash = fragment;
    const url = location.href;
    const long = url.length > LINK_WARN_LENGTH;
    const copied = await copyText(url); // without permission or focus the URL is in the field to copy by hand
    app.ui.setLink(url, t(copied ? 'share.copied' : 'share.selectToCopy') + (long ? t('share.long', { n: url.length }) : ''));
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
    scene.camera = app.camera.toJSON();
    const fragment = await encode(scene, null, app.ui.setEmbedCode);
    if (fragment === null) return null;
    const lang = getLanguage();
    const name = BUILTIN_SCENE_IDS.includes(state.sceneKey) ? builtinTitle(state.sceneKey, lang) : posterName(scene.name, t('embed.poster.untitled'));
    const made = embedCode({ pageUrl: location.href, fragment, camera: scene.camera, title: t('embed.poster.label', { name }) });
    const copied = await copyText(made.code); // no clipboard permission or focus: the code is in the box to copy by hand
    app.ui.setEmbedCode(made.code, t(copied ? 'share.embedCopied' : 'share.embedSelect'));
    return made;
  }

  return { openLink, copyLink, copyEmbed };
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
