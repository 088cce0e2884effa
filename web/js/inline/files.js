// files.js — files a bundle carries inside itself instead of fetching them: the wasm, the shaders, the assets.
//
// The unbundled modules never fill this table, so they fetch every file as before. tools/bundle.mjs fills it from
// a generated module that runs before the page's own: the hosted bundles carry the shaders (one request instead of
// one per shader), and the offline page (minipbd-offline.html, opened from disk) carries everything, since a
// file: page can fetch nothing. The loaders ask here first: engine/loader.js and app/build.js (the wasm),
// render/gl.js and embed/shared.js (the shaders), format/assets.js (the assets).

const carried = { wasm: new Map(), shaders: new Map(), assets: new Map() };

/**
 * Adds files to the table: `wasm` {file name: bytes (Uint8Array) or base64 text}, `shaders` {name: source},
 * `assets` {name: text}. Called once, by a bundle, before any file is asked for.
 */
export function carryFiles({ wasm = {}, shaders = {}, assets = {} } = {}) {
  for (const [name, bytes] of Object.entries(wasm)) {
    carried.wasm.set(name, typeof bytes === 'string' ? Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)) : bytes);
  }
  for (const [name, text] of Object.entries(shaders)) carried.shaders.set(name, text);
  for (const [name, text] of Object.entries(assets)) carried.assets.set(name, text);
}

/** The carried bytes of the wasm at `url` (by its file name: minipbd.wasm), or undefined. */
export function carriedWasm(url) {
  if (carried.wasm.size === 0) return undefined;
  const name = new URL(String(url), 'file:///').pathname.split('/').pop();
  return carried.wasm.get(name);
}

/** The carried source of shader `name` (a file of shaders/), or undefined. */
export function carriedShader(name) { return carried.shaders.get(name); }

/** The carried text of asset `name` (a file of assets/), or undefined. */
export function carriedAsset(name) { return carried.assets.get(name); }
