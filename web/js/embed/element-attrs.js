// element-attrs.js — what <minipbd-scene>'s model-viewer-like attributes do (parsed in attrs.js): alt, poster,
// loading, controls, camera-orbit, camera-target, field-of-view; their properties (alt, poster, loading, controls,
// cameraOrbit, cameraTarget, fieldOfView reflect the attributes) and getCameraOrbit() / getCameraTarget().
// withAttrs(Base) is a class over Base with them, which the element class extends; element.js calls the hooks below
// from its life cycle, so its own file keeps the life cycle and this one the attributes.
//
// A refused value is said once on the console (console.warn, naming the element and why) and kept in
// element.attributeErrors; the element then behaves as if the attribute were absent (it never fails for it).

import { cameraWith, orbitOf, parseCameraOrbit, parseCameraTarget, parseControls, parseFieldOfView, parseLoading,
  parsePosterUrl } from './attrs.js';
import { say } from './failure.js';
import { setPosterImage } from './poster.js';

export const ATTRIBUTES = ['alt', 'poster', 'loading', 'controls', 'camera-orbit', 'camera-target', 'field-of-view'];

const PARSERS = {
  loading: parseLoading,
  controls: parseControls,
  'camera-orbit': parseCameraOrbit,
  'camera-target': parseCameraTarget,
  'field-of-view': parseFieldOfView,
  poster: (v) => parsePosterUrl(v, document.baseURI),
};
const DEFAULTS = { loading: 'auto', controls: 'auto' };

/** The checked value of attribute `name` (its default when absent or refused); notes a refusal. */
function read(el, name) {
  const raw = el.getAttribute(name);
  const errors = el._attrErrors ??= new Map();
  if (raw === null) {
    errors.delete(name);
    return DEFAULTS[name] ?? null;
  }
  const { value, error } = PARSERS[name](raw);
  if (error) {
    if (errors.get(name) !== error) {
      errors.set(name, error);
      console.warn(`<minipbd-scene${el.id ? `#${el.id}` : ''}>: ${error}; the attribute is ignored`);
    }
    return DEFAULTS[name] ?? null;
  }
  errors.delete(name);
  return value;
}

/** The scene's camera block with camera-orbit, camera-target and field-of-view put over it (element._adopt). */
export function sceneCamera(el, base) {
  return cameraWith(base, { orbit: read(el, 'camera-orbit'), target: read(el, 'camera-target'), fov: read(el, 'field-of-view') });
}

/** True when the element should load now although it is not in view (loading="eager"). */
export function loadsEagerly(el) { return read(el, 'loading') === 'eager'; }

/** True unless controls="none". */
export function hasControls(el) { return read(el, 'controls') !== 'none'; }

/** The accessible name of the canvas and the poster: `alt`, else "MiniPBD scene: NAME" in the page's language. */
export function accessibleName(el) {
  const alt = el.getAttribute('alt');
  if (alt !== null && alt.trim() !== '') return alt.trim().slice(0, 500);
  return say(el._lang, 'embed.poster.label', { name: el._sceneName ?? say(el._lang, 'embed.poster.untitled') });
}

/** Puts the accessible name on the poster and the canvas (attributes only: alt and scene names are text). */
export function applyLabel(el) {
  const name = accessibleName(el);
  el._poster.root.setAttribute('aria-label', name);
  el._canvas?.setAttribute('aria-label', name);
}

/** Applies controls="none"/"auto" to the play button and the canvas's input (element._ensureContext, changes). */
export function applyControls(el) {
  const on = hasControls(el);
  if (el._input) el._input.enabled = on;
  if (el._canvas) {
    // No controls: the canvas is a picture, out of the tab order, and a finger on it scrolls and zooms the page.
    el._canvas.tabIndex = on ? 0 : -1;
    el._canvas.classList.toggle('static', !on);
    if (on) el._canvas.setAttribute('aria-describedby', 'hint');
    else el._canvas.removeAttribute('aria-describedby');
  }
  el._updateButton();
}

/** Called by element.js's attributeChangedCallback for ATTRIBUTES. */
export function attributeChanged(el, name) {
  switch (name) {
    case 'alt':
      applyLabel(el);
      break;
    case 'poster': {
      const url = read(el, 'poster');
      setPosterImage(el._poster, url, () => {
        console.warn(`<minipbd-scene${el.id ? `#${el.id}` : ''}>: the poster image could not be loaded; the drawing is shown`);
      });
      break;
    }
    case 'loading':
      if (el.isConnected && loadsEagerly(el) && !el._world && !el._loading && !el._failed) el._load();
      break;
    case 'controls':
      applyControls(el);
      break;
    default: // the camera: jumps there at once (a paused element redraws too)
      if (el._scene) {
        el._camera.set(sceneCamera(el, el._scene.camera));
        el._dirty = true;
        el._kick();
      } else read(el, name); // not loaded yet: checked now, so a bad value is said at once
  }
}

/** Sets a reflected attribute (null or undefined removes it). */
function reflect(el, attr, v) {
  if (v === null || v === undefined) el.removeAttribute(attr);
  else el.setAttribute(attr, String(v));
}

/**
 * The attributes' properties as a class over `Base` (embed/element.js: MiniPBDSceneElement extends
 * withControl(withAttrs(HTMLElement))). alt, poster, cameraOrbit, cameraTarget and fieldOfView reflect their
 * attribute as it is; loading and controls read the checked value.
 */
export const withAttrs = (Base) => class SceneAttrs extends Base {
  get alt() { return this.getAttribute('alt') ?? ''; }
  set alt(v) { reflect(this, 'alt', v); }
  get poster() { return this.getAttribute('poster') ?? ''; }
  set poster(v) { reflect(this, 'poster', v); }
  get cameraOrbit() { return this.getAttribute('camera-orbit') ?? ''; }
  set cameraOrbit(v) { reflect(this, 'camera-orbit', v); }
  get cameraTarget() { return this.getAttribute('camera-target') ?? ''; }
  set cameraTarget(v) { reflect(this, 'camera-target', v); }
  get fieldOfView() { return this.getAttribute('field-of-view') ?? ''; }
  set fieldOfView(v) { reflect(this, 'field-of-view', v); }
  get loading() { return read(this, 'loading'); }
  set loading(v) { reflect(this, 'loading', v); }
  get controls() { return read(this, 'controls'); }
  set controls(v) { reflect(this, 'controls', v); }
  /** The camera now (after the user's orbiting too): { theta, phi, radius } in radians and metres. */
  getCameraOrbit() { return orbitOf(this._camera); }
  /** The point the camera orbits now: { x, y, z } in metres. */
  getCameraTarget() { const [x, y, z] = this._camera.target; return { x, y, z }; }
  /** The refused attributes and why: { name: message } (empty when all are fine). */
  get attributeErrors() { return Object.fromEntries(this._attrErrors ?? []); }
};
