// gallery.js — the gallery page (gallery.html): every built-in scene (BUILTIN_SCENE_IDS, in the demo's
// order) as a card with its name, a one-line description in the page's language (i18n/gallery-strings.js), a live
// <minipbd-scene> and a link to the demo with that scene (index.html?scene=ID, app/main.js). The language follows
// ?lang= and then the browser's languages, as the demo's does. The embeds are mounted only near the screen and at
// most MAX_LIVE_CONTEXTS at once (gallery/mount.js), so the page stays within the WebGL context budget.
// Text is written with textContent only (scene names come from the scenes).
// For tests: window.minipbdGallery = { ready, mounted() (the ids of the cards holding an element) }.

import '../embed.js'; // defines <minipbd-scene>
import { MAX_LIVE_CONTEXTS } from '../embed/shared.js';
import { BUILTIN_SCENE_IDS, builtinScenes, loadBuiltinScene } from '../format/builtin-scenes.js';
import { t, setLanguage, detectLanguage, HTML_LANG } from '../i18n/i18n.js';
import { CardMounter } from './mount.js';

/** A scene's name up to its colon ("Hanging cloth: 2 m x 2 m, …" -> "Hanging cloth"). */
const shortName = (name) => String(name).split(':')[0].trim();

const lang = setLanguage(detectLanguage({ search: location.search, languages: navigator.languages ?? [navigator.language] }));
document.documentElement.lang = HTML_LANG[lang];
document.title = t('gallery.title');
for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);

/** The demo's URL for scene `id`, in this page's language when the query chose one. */
function demoUrl(id) {
  const url = new URL('./index.html', location.href);
  url.searchParams.set('scene', id);
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked) url.searchParams.set('lang', lang);
  return url.pathname + url.search;
}
const demo = new URL('./index.html', location.href);
if (new URLSearchParams(location.search).has('lang')) demo.searchParams.set('lang', lang);
document.getElementById('demo-link').href = demo.pathname + demo.search;

function makeCard(id) {
  const card = document.createElement('li');
  card.className = 'card';
  card.id = `card-${id}`;
  card.dataset.scene = id;
  const stage = document.createElement('div');
  stage.className = 'stage';
  const waiting = document.createElement('p');
  waiting.className = 'waiting';
  waiting.textContent = t('gallery.waiting');
  stage.append(waiting);
  const title = document.createElement('h2');
  title.className = 'card-name';
  const description = document.createElement('p');
  description.className = 'card-description';
  description.textContent = t(`gallery.scene.${id}`);
  const open = document.createElement('a');
  open.className = 'card-open';
  open.href = demoUrl(id);
  open.textContent = t('gallery.open');
  const setName = (name) => {
    title.textContent = name;
    open.setAttribute('aria-label', t('gallery.openLabel', { name }));
    card.dataset.name = name;
  };
  // A scene made from a model file (the bunny) has its name once its model is read: the id until then.
  setName(builtinScenes[id] ? shortName(builtinScenes[id].name) : id);
  if (!builtinScenes[id]) card.nameLoaded = () => loadBuiltinScene(id).then((s) => setName(shortName(s.name)), () => {});
  card.append(stage, title, description, open);
  return card;
}

function mountEmbed(card) {
  const el = document.createElement('minipbd-scene');
  el.setAttribute('scene', card.dataset.scene);
  el.setAttribute('aria-label', card.dataset.name);
  card.querySelector('.stage').append(el);
  card.nameLoaded?.();
  card.nameLoaded = null;
  return el;
}

const list = document.getElementById('cards');
const mounter = new CardMounter(MAX_LIVE_CONTEXTS, mountEmbed);
for (const id of BUILTIN_SCENE_IDS) {
  const card = makeCard(id);
  list.append(card);
  mounter.observe(card);
}

window.minipbdGallery = {
  ready: true,
  max: MAX_LIVE_CONTEXTS,
  mounted: () => [...mounter.mounted.keys()].map((card) => card.dataset.scene),
};
