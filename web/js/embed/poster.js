// poster.js — what a <minipbd-scene> shows while it has no live WebGL canvas: before it loads, while loading, when
// it cannot run (embed/failure.js: the reason is shown beside it as text) and while its context is given up. Never a
// blank box: a drawn placeholder (an SVG, so no WebGL context is spent on it, and no inline styles, so a strict
// style-src allows it) with the scene's name.
//
// The drawing is a cloth hanging from two pins, sagging between them as a real one does (a catenary-like parabola
// per row, deeper towards the bottom), in the page's cloth colours; it is the same for every scene: the name says
// which one it is.

import { BUILTIN_SCENE_IDS, builtinScenes } from '../format/builtin-scenes.js';
import { ELEMENT_STRINGS as STRINGS } from '../i18n/element-strings.js';
import { decodeRun } from '../format/link.js';
import { say } from './failure.js';

const ART_W = 320;
const ART_H = 200;
const SVG = 'http://www.w3.org/2000/svg';

function svg(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** The placeholder drawing as an <svg> (presentation attributes only: nothing a strict CSP refuses, no canvas for
 *  anything querying the element's canvas to find). */
export function posterArt() {
  const root = svg('svg', { viewBox: `0 0 ${ART_W} ${ART_H}`, preserveAspectRatio: 'xMidYMid slice', class: 'poster-art', 'aria-hidden': 'true' });
  const defs = svg('defs', {});
  const sky = svg('linearGradient', { id: 'minipbd-sky', x1: 0, y1: 0, x2: 0, y2: 1 });
  sky.append(svg('stop', { offset: 0, 'stop-color': '#dbe4ee' }), svg('stop', { offset: 1, 'stop-color': '#b8c4d2' }));
  defs.append(sky);
  root.append(defs, svg('rect', { width: ART_W, height: ART_H, fill: 'url(#minipbd-sky)' }),
    svg('rect', { y: ART_H * 0.86, width: ART_W, height: ART_H * 0.14, fill: '#9aa7b6' })); // the ground

  // A 9 x 7 grid of particles; each row hangs between its ends with a sag growing towards the free bottom edge.
  const cols = 9;
  const rows = 7;
  const left = ART_W * 0.28;
  const right = ART_W * 0.72;
  const top = ART_H * 0.16;
  const step = (ART_H * 0.56) / (rows - 1);
  const point = (i, j) => {
    const u = i / (cols - 1);
    const sag = (0.04 + 0.08 * (j / (rows - 1))) * ART_H * 4 * u * (1 - u);
    return [left + u * (right - left), top + j * step + sag * (j === 0 ? 0.35 : 1)];
  };
  const cloth = svg('g', { fill: 'rgba(234, 88, 12, 0.35)', stroke: '#c2410c', 'stroke-width': 1.5, 'stroke-linejoin': 'round' });
  for (let j = 0; j < rows - 1; j++) {
    for (let i = 0; i < cols - 1; i++) {
      const quad = [point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)];
      cloth.append(svg('polygon', { points: quad.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ') }));
    }
  }
  root.append(cloth);
  for (const [x, y] of [point(0, 0), point(cols - 1, 0)]) root.append(svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 4, fill: '#1f2937' })); // pins
  return root;
}

/** The poster's elements, to put in the shadow root: { root, name }. `name` gets the scene's name (namePoster). */
export function makePoster() {
  const root = document.createElement('div');
  root.className = 'poster';
  root.setAttribute('role', 'img');
  const art = posterArt();
  const name = document.createElement('p');
  name.className = 'poster-name';
  root.append(art, name);
  return { root, name };
}

/** A scene's name as the poster shows it: a built-in's words for its id, else the scene's own name (cut at 120
 *  characters; shown as text only). */
export function posterName(sceneName, fallback) {
  const s = typeof sceneName === 'string' ? sceneName.trim() : '';
  if (!s) return fallback;
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}

/**
 * Names the scene on `poster` (makePoster's): for a link (`src`, its fragment), the name inside it once decoded
 * (decoding fetches nothing; a link that does not decode keeps the generic name, and the load says why), while
 * `current()` is still true; else the built-in's words for its id (`builtin`), or the generic name. `onName(name)` is
 * called with each name set.
 */
export function namePoster(poster, { src, builtin, lang, current = () => true, onName = null }) {
  const untitled = say(lang, 'embed.poster.untitled');
  const set = (name) => {
    poster.name.textContent = name; // text from links only ever goes in as text
    poster.root.setAttribute('aria-label', say(lang, 'embed.poster.label', { name }));
    onName?.(name); // the element's alt may replace that label (element-attrs.js)
  };
  if (src) {
    set(untitled);
    decodeRun(src).then(({ scene }) => { if (current()) set(posterName(scene?.name, untitled)); }, () => {});
  } else set(BUILTIN_SCENE_IDS.includes(builtin) ? builtinTitle(builtin, lang) : untitled);
}

/** A built-in's short name: the language's own words (scene.ID, as the page's picker), else the part of its
 *  English name before the colon ("Hanging cloth: 2 m x 2 m, …" -> "Hanging cloth"), else the id. */
export function builtinTitle(id, lang) {
  const key = `scene.${id}`;
  if (Object.hasOwn(STRINGS[lang] ?? {}, key)) return STRINGS[lang][key];
  const name = Object.hasOwn(builtinScenes, id) ? builtinScenes[id].name : null;
  return typeof name === 'string' && name ? name.split(':')[0].trim() : id;
}

/**
 * Shows the image at `url` (checked by attrs.js parsePosterUrl) on `poster` in place of the drawing, or the drawing
 * again when `url` is null. The image is decorative (alt=""): the poster's own aria-label names it. If it cannot
 * be loaded (404, the host's img-src) the drawing comes back and `onError` is called.
 */
export function setPosterImage(poster, url, onError = () => {}) {
  const art = poster.root.querySelector('.poster-art');
  poster.image?.remove();
  poster.image = null;
  art.removeAttribute('hidden');
  if (!url) return;
  const img = document.createElement('img');
  img.className = 'poster-image';
  img.alt = '';
  img.decoding = 'async';
  img.addEventListener('error', () => {
    if (poster.image !== img) return;
    img.remove();
    poster.image = null;
    art.removeAttribute('hidden');
    onError();
  });
  img.src = url;
  art.setAttribute('hidden', '');
  poster.image = img;
  poster.root.insertBefore(img, poster.name);
}
