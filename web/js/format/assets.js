// assets.js — the files the built-in scenes load (web/assets/, copied by make to dist/assets/): read from the
// page's own origin in a browser (fetch, relative to this module) and from the file system in Node, where
// fetch() does not read file: URLs. Only names of this list are read: nothing from a link or a scene picks a URL.

import { carriedAsset } from '../inline/files.js';

/** Asset files, by name: the largest size read (bytes). */
export const ASSETS = Object.freeze({ 'bunny.obj': 1 << 20 });

/** The text of asset `name` (web/assets/<name>); rejects naming the file when it cannot be read. */
export async function readAsset(name) {
  if (!Object.hasOwn(ASSETS, name)) throw new Error(`no asset named ${JSON.stringify(String(name).slice(0, 40))}`);
  const url = new URL(`../../assets/${name}`, import.meta.url);
  let bytes;
  const carried = carriedAsset(name); // a bundle's own copy (inline/files.js): the offline page fetches nothing
  if (carried !== undefined) {
    bytes = new TextEncoder().encode(carried);
  } else if (url.protocol === 'file:') {
    const fs = await import('node:fs/promises'); // Node only: never reached in a browser
    bytes = await fs.readFile(url);
  } else {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not load ${url.href}: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  if (bytes.byteLength > ASSETS[name]) throw new Error(`asset ${name} is ${bytes.byteLength} bytes, more than its ${ASSETS[name]}`);
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
