// poster.js — what a <minipbd-scene> shows while it has no live WebGL canvas: before it loads, while loading, when
// it cannot run (embed/failure.js: the reason is shown beside it as text) and while its context is given up. Never a
// blank box: a drawn placeholder (a 2D canvas, so no WebGL context is spent on it, and no inline styles, so a
// strict style-src allows it) with the scene's name.
//
// The drawing is a cloth hanging from two pins, sagging between them as a real one does (a catenary-like parabola
// per row, deeper towards the bottom), in the page's cloth colours; it is the same for every scene: the name says
// which one it is.

import { BUILTIN_SCENE_IDS, builtinScenes } from '../format/builtin-scenes.js';
import { STRINGS } from '../i18n/i18n.js';
import { decodeRun } from '../format/link.js';
import { say } from './failure.js';

const ART_W = 320;
const ART_H = 200;

/** Draws the placeholder into `canvas` (2D). Returns false when the browser gives no 2D context either (the
 *  poster is then its CSS background and the name). */
export function drawPosterArt(canvas) {
  canvas.width = ART_W;
  canvas.height = ART_H;
  let ctx = null;
  try {
    ctx = canvas.getContext('2d');
  } catch {
    ctx = null;
  }
  if (!ctx) return false;
  const sky = ctx.createLinearGradient(0, 0, 0, ART_H);
  sky.addColorStop(0, '#dbe4ee');
  sky.addColorStop(1, '#b8c4d2');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, ART_W, ART_H);
  ctx.fillStyle = '#9aa7b6'; // the ground
  ctx.fillRect(0, ART_H * 0.86, ART_W, ART_H * 0.14);

  // A 9 x 7 grid of particles; each row hangs between its ends with a sag growing towards the free bottom edge.
  const cols = 9;
  const rows = 7;
  const left = ART_W * 0.28;
  const right = ART_W * 0.72;
  const top = ART_H * 0.16;
  const step = (ART_H * 0.56) / (rows - 1);
  const point = (i, j) => {
    const u = i / (cols - 1);
    const sag = (0.06 + 0.1 * (j / (rows - 1))) * ART_H * 4 * u * (1 - u);
    const pinch = 0.08 * (right - left) * (j / (rows - 1)) * (u - 0.5); // the sides fall in a little
    return [left + u * (right - left) - pinch, top + j * step + sag * (j === 0 ? 0.35 : 1)];
  };
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#c2410c';
  ctx.fillStyle = 'rgba(234, 88, 12, 0.35)';
  for (let j = 0; j < rows - 1; j++) {
    for (let i = 0; i < cols - 1; i++) {
      const quad = [point(i, j), point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)];
      ctx.beginPath();
      ctx.moveTo(...quad[0]);
      for (const p of quad.slice(1)) ctx.lineTo(...p);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
  }
  ctx.fillStyle = '#1f2937'; // the two pins
  for (const p of [point(0, 0), point(cols - 1, 0)]) {
    ctx.beginPath();
    ctx.arc(p[0], p[1], 4, 0, 2 * Math.PI);
    ctx.fill();
  }
  return true;
}

/** The poster's elements, to put in the shadow root: { root, name }. `name` gets the scene's name (namePoster). */
export function makePoster() {
  const root = document.createElement('div');
  root.className = 'poster';
  root.setAttribute('role', 'img');
  const art = document.createElement('canvas');
  art.className = 'poster-art';
  art.setAttribute('aria-hidden', 'true');
  drawPosterArt(art);
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
 * `current()` is still true; else the built-in's words for its id (`builtin`), or the generic name.
 */
export function namePoster(poster, { src, builtin, lang, current = () => true }) {
  const untitled = say(lang, 'embed.poster.untitled');
  const set = (name) => {
    poster.name.textContent = name; // text from links only ever goes in as text
    poster.root.setAttribute('aria-label', say(lang, 'embed.poster.label', { name }));
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
