#!/usr/bin/env node
// bundle.mjs — the minified bundles of the hosted pages (esbuild, pinned in package-lock.json), written by the
// Makefile's dist rule into dist/js/bundle/ after dist/js/ is assembled:
//
//   js/bundle/main.js           the demo (index.html)
//   js/bundle/embed.js          <minipbd-scene> (example.html, and a page that embeds)
//   js/bundle/embed-page.js     <minipbd-scene> and the iframe page (embed.html)
//   js/bundle/gallery.js        the gallery (gallery.html)
//   js/bundle/thread-worker.js  the threaded build's worker (engine/thread-worker.js, which has no imports)
//
// The unbundled modules stay in dist/js/ (and the package) for those who import them; the pages of dist/ are
// rewritten here to load the bundles. A bundle sits at the same depth as the modules (js/<folder>/<file>.js), so
// the URLs they make from import.meta.url still name the right files: ../../minipbd.wasm, ../../shaders/,
// ../../assets/, and ./thread-worker.js (threads.js), which is why the worker is written beside the bundles.
// Each bundle carries the shaders (inline/files.js), so a page makes one request for its code, not one per shader.
//
// Usage: node tools/bundle.mjs [dist]

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The hosted bundles: output name -> the module it starts from (under dist/js/), and the pages that load it. */
export const BUNDLES = Object.freeze({
  'main.js': { entry: 'app/main.js', pages: ['index.html'] },
  // The element alone (embed/element.js defines <minipbd-scene> when it runs) for a page that embeds scenes, and the
  // element with the iframe page's code (embed.js: the frame API and its boot) for embed.html: a page that only
  // embeds does not download the iframe API.
  'embed.js': { entry: 'embed/element.js', pages: ['example.html'], loads: 'embed.js' },
  'embed-page.js': { entry: 'embed.js', pages: ['embed.html'] },
  'gallery.js': { entry: 'gallery/gallery.js', pages: ['gallery.html'] },
});
export const BUNDLE_DIR = 'bundle';

/**
 * A shader's source without its comments and indentation (GLSL has no string literals, so a // or /* always starts
 * a comment). Lines stay lines: a preprocessor directive ends at its newline, and #version stays the first line.
 */
export function compactShader(source) {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n') + '\n';
}

/** Every shader of `dist`/shaders, compacted: {name: source}. */
export function readShaders(dist) {
  const dir = path.join(dist, 'shaders');
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, compactShader(fs.readFileSync(path.join(dir, f), 'utf8'))]));
}

/**
 * Bundles dist/js/`entry` with `carry` (inline/files.js's carryFiles argument: the files the bundle answers from
 * itself) registered before the entry's first module runs. Resolves to the bundle's text (ES module).
 */
export async function bundleText(dist, entry, carry, { minify = true } = {}) {
  const js = path.join(dist, 'js');
  const filesModule = path.join(js, 'inline', 'files.js');
  // The carried files as a module of their own, imported first: ES modules run in import order, so the table is
  // full before the page's modules ask for a file.
  const carryPlugin = {
    name: 'minipbd-carry',
    setup(build) {
      build.onResolve({ filter: /^minipbd:carried-files$/ }, () => ({ path: 'carried-files', namespace: 'minipbd-carry' }));
      build.onLoad({ filter: /.*/, namespace: 'minipbd-carry' }, () => ({
        contents: `import { carryFiles } from ${JSON.stringify(filesModule)};\ncarryFiles(${JSON.stringify(carry)});\n`,
        resolveDir: js,
        loader: 'js',
      }));
    },
  };
  const result = await esbuild.build({
    stdin: { contents: `import 'minipbd:carried-files';\nexport * from './${entry}';\n`, resolveDir: js, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    // Node's own modules are imported only on Node's paths (reading a file: URL, worker_threads): never in a page.
    external: ['node:*'],
    legalComments: 'eof', // lil-gui's licence stays with its code
    // Text as UTF-8 (module scripts are always decoded as UTF-8), not \uXXXX escapes: the Chinese strings take
    // half the bytes (gzip made up most of the difference already).
    charset: 'utf8',
    plugins: [carryPlugin],
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** Writes dist/js/bundle/ and points dist/'s pages at it. Returns {file: bytes} of what it wrote. */
export async function writeBundles(dist) {
  const out = path.join(dist, 'js', BUNDLE_DIR);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const shaders = readShaders(dist);
  const written = {};
  // `loads`: the module the page's own tag names, when it is not the bundle's entry (the page loads embed.js, whose
  // bundle is the element alone).
  for (const [name, { entry, pages, loads = entry }] of Object.entries(BUNDLES)) {
    const text = await bundleText(dist, entry, { shaders });
    fs.writeFileSync(path.join(out, name), text);
    written[name] = Buffer.byteLength(text);
    for (const page of pages) {
      const file = path.join(dist, page);
      const html = fs.readFileSync(file, 'utf8');
      // example.html writes its src without "./"; both spellings name the same module.
      // Only the page's own <script> tag: example.html also shows the tag as text (&lt;script …), which stays.
      // A page already pointed at its bundle (this tool run twice on one dist/) is left as it is.
      const esc = (f) => f.replace(/[.]/g, '\\.');
      const re = new RegExp(`(<script type="module" )src="(?:\\./)?js/(?:${esc(loads)}|${BUNDLE_DIR}/${esc(name)})"`, 'g');
      if (!re.test(html)) throw new Error(`${page} has no <script type="module" src="js/${loads}">: cannot point it at the bundle`);
      fs.writeFileSync(file, html.replace(re, `$1src="./js/${BUNDLE_DIR}/${name}"`));
    }
  }
  const worker = await esbuild.transform(fs.readFileSync(path.join(dist, 'js', 'engine', 'thread-worker.js'), 'utf8'),
    { minify: true, format: 'esm', target: 'es2022', loader: 'js' });
  fs.writeFileSync(path.join(out, 'thread-worker.js'), worker.code);
  written['thread-worker.js'] = Buffer.byteLength(worker.code);
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
  const written = await writeBundles(dist);
  for (const [f, n] of Object.entries(written)) console.log(`${path.join(dist, 'js', BUNDLE_DIR, f)}  ${(n / 1024).toFixed(1)} KB`);
}
