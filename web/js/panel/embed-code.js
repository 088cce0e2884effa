// embed-code.js — the demo's "Copy embed code" (share.js, app/main.js): the HTML that shows the current scene, from
// the current camera, in another page: the <minipbd-scene> element with the script tag of the package's embed
// module, and the same as an <iframe> of embed.html. Both point back at the site the demo is served from (URLs
// resolved against the demo's own address), so the snippet works pasted anywhere that may load them.
//
// No DOM here. Every value goes through htmlAttr (a scene's name comes from links and files: it is text, and
// nothing in it may end the attribute or open a tag).

import { formatCameraOrbit, formatCameraTarget, formatFieldOfView, htmlAttr } from '../embed/attrs.js';

/** The size the snippets give the embed (CSS px), the element's default 16:10. */
export const EMBED_WIDTH = 640;
export const EMBED_HEIGHT = 400;

/**
 * { element, iframe, code } for the scene link `fragment` ('s=1.…', which carries the scene, its settings and the
 * camera) seen from `camera` (OrbitCamera or a scene camera block), on the demo page at `pageUrl`; `title` is the
 * embed's accessible name (the iframe's title; the element names itself from the scene in its host's language).
 */
export function embedCode({ pageUrl, fragment, camera, title }) {
  const page = new URL(pageUrl);
  const link = new URL(page.pathname, page.origin);
  link.hash = fragment;
  const frame = new URL('embed.html', link);
  frame.hash = fragment;
  const module = new URL('js/embed.js', link);
  const element = `<script type="module" src="${htmlAttr(module.href)}"></script>\n`
    + `<minipbd-scene src="${htmlAttr(link.href)}" camera-orbit="${htmlAttr(formatCameraOrbit(camera))}" `
    + `camera-target="${htmlAttr(formatCameraTarget(camera))}" field-of-view="${htmlAttr(formatFieldOfView(camera))}" `
    + `width="${EMBED_WIDTH}" height="${EMBED_HEIGHT}"></minipbd-scene>`;
  const iframe = `<iframe src="${htmlAttr(frame.href)}" width="${EMBED_WIDTH}" height="${EMBED_HEIGHT}" `
    + `title="${htmlAttr(title)}" loading="lazy" style="border: 0"></iframe>`;
  return { element, iframe, code: `${element}\n\n${iframe}\n` };
}
