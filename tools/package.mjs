#!/usr/bin/env node
// package.mjs — writes dist/minipbd@VERSION/ from the assembled dist/ (the Makefile's dist rule runs it last):
// ONE folder that is both the npm package (`npm pack dist/minipbd@VERSION`) and the CDN folder, whose layout is what
// a CDN serving the npm package shows at …/minipbd@VERSION/… (docs/api.md
// "Install"). The root package.json is the development workspace (private, devDependencies); the package's own
// package.json is generated here from its name, version, description and license.
//
// Usage: node tools/package.mjs [dist]      (prints the folder it wrote)
//
// The folder is made afresh every time (like dist/js), and any other minipbd@* folder in dist/ is removed, so a
// module that went away, or an older version, never lingers in what is published.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The entry points: subpath -> [module, its types]. The one place the package's public surface is written. */
export const ENTRY_POINTS = Object.freeze({
  '.': ['./js/minipbd.js', './js/minipbd.d.ts'],
  './scene': ['./js/format/scene.js', './js/format/scene.d.ts'],
  './link': ['./js/format/link.js', './js/format/link.d.ts'],
  './recorder': ['./js/record/recorder.js', './js/record/recorder.d.ts'],
  './embed': ['./js/embed.js', './js/embed.d.ts'],
  './frame': ['./js/embed/frame-client.js', './js/embed/frame-client.d.ts'],
});
/** Files exported as they are (fetched or read by URL: the wasm builds, the schema). */
export const FILE_EXPORTS = Object.freeze(['./minipbd.wasm', './minipbd_threads.wasm', './scene.schema.json', './package.json']);

/** What the folder holds besides package.json, LICENSE and README.md: dist/'s files and folders, by name. */
const CONTENTS = ['js', 'minipbd.wasm', 'minipbd_threads.wasm', 'shaders', 'assets', 'css', 'index.html', 'embed.html',
  'gallery.html', 'example.html', 'coi-sw.js', 'scene.schema.json'];

// Modules with effects on import, which a bundler must keep even when nothing is imported from them: the element
// definition (customElements.define), the pages' entry modules, the thread worker and the service worker.
const SIDE_EFFECTS = ['./js/embed.js', './js/embed/*.js', './js/app/main.js', './js/gallery/*.js',
  './js/engine/thread-worker.js', './coi-sw.js'];

/** The command line (minipbd-run) as the package's bin: tools/minipbd-run.mjs and tools/run/*.mjs copied to bin/,
 *  where the page's modules are js/ and the wasm files the folder's own (tools/run/web.mjs names that layout: its
 *  copy is written with the package's). */
export const BIN = Object.freeze({ 'minipbd-run': './bin/minipbd-run.mjs' });

/** web.mjs as the package has it: its imports of ../../web/js/ become ../../js/, its wasm folder ../../dist/ the
 *  package folder. Each must be there exactly as written, so a change to web.mjs that this misses stops the build. */
export function packagedWebModule(text) {
  const rules = [[/'\.\.\/\.\.\/web\/js\//g, "'../../js/"], [/'\.\.\/\.\.\/dist\/'/g, "'../../'"]];
  let out = text;
  for (const [from, to] of rules) {
    if (!from.test(out)) throw new Error(`tools/run/web.mjs: no ${from} to rewrite for the package`);
    out = out.replace(from, to);
  }
  if (/web\/js\/|dist\//.test(out.replace(/^\/\/.*$/gm, ''))) throw new Error('tools/run/web.mjs: a path of the repository is left in the package\'s copy');
  return out;
}

/** Copies the CLI into `out`/bin: minipbd-run.mjs (executable, its shebang kept) and run/*.mjs. */
function copyCli(out) {
  const bin = path.join(out, 'bin');
  fs.mkdirSync(path.join(bin, 'run'), { recursive: true });
  const main = path.join(bin, 'minipbd-run.mjs');
  const source = fs.readFileSync(path.join(ROOT, 'tools', 'minipbd-run.mjs'), 'utf8');
  if (!source.startsWith('#!/usr/bin/env node\n')) throw new Error('tools/minipbd-run.mjs must start with #!/usr/bin/env node');
  fs.writeFileSync(main, source);
  fs.chmodSync(main, 0o755);
  for (const f of fs.readdirSync(path.join(ROOT, 'tools', 'run'))) {
    if (!f.endsWith('.mjs')) continue;
    const text = fs.readFileSync(path.join(ROOT, 'tools', 'run', f), 'utf8');
    if (f !== 'web.mjs' && /web\/js\//.test(text.replace(/^\/\/.*$/gm, ''))) throw new Error(`tools/run/${f}: imports the page's modules other than through web.mjs`);
    fs.writeFileSync(path.join(bin, 'run', f), f === 'web.mjs' ? packagedWebModule(text) : text);
  }
}

/** The generated package.json for the root's `meta` (name, version, description, license). */
export function packageJson(meta, present = () => true) {
  const exports = {};
  for (const [sub, [js, types]] of Object.entries(ENTRY_POINTS)) exports[sub] = { types, default: js };
  for (const file of FILE_EXPORTS) exports[file] = file;
  return {
    name: meta.name,
    version: meta.version,
    description: meta.description,
    license: meta.license,
    type: 'module',
    main: './js/minipbd.js',
    types: './js/minipbd.d.ts',
    exports,
    bin: { ...BIN },
    files: [...CONTENTS.filter(present).map((f) => (path.extname(f) === '' ? `${f}/` : f)), 'bin/'],
    sideEffects: SIDE_EFFECTS,
    keywords: ['physics', 'position-based-dynamics', 'webassembly', 'cloth', 'fluid', 'simulation'],
  };
}

function main() {
  const dist = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
  const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  if (!/^\d+\.\d+\.\d+$/.test(meta.version ?? '')) throw new Error(`package.json: version must be x.y.z, got ${meta.version}`);
  const out = path.join(dist, `${meta.name}@${meta.version}`);
  for (const e of fs.readdirSync(dist)) if (e.startsWith(`${meta.name}@`)) fs.rmSync(path.join(dist, e), { recursive: true });
  fs.mkdirSync(out);
  const present = (f) => fs.existsSync(path.join(dist, f));
  for (const f of CONTENTS) {
    if (!present(f)) throw new Error(`${path.join(dist, f)} is missing: run make dist`);
    fs.cpSync(path.join(dist, f), path.join(out, f), { recursive: true });
  }
  copyCli(out);
  fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(out, 'LICENSE'));
  // The package's README is the user's (install, entry points, examples), not the repository's front door.
  fs.copyFileSync(path.join(ROOT, 'docs', 'package-README.md'), path.join(out, 'README.md'));
  const pkg = packageJson(meta, present);
  fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  // Every export must name a file of the folder: a typo here would publish a package whose import fails.
  for (const [sub, files] of Object.entries(ENTRY_POINTS)) {
    for (const f of files) if (!fs.existsSync(path.join(out, f))) throw new Error(`export ${sub}: ${f} is not in ${out}`);
  }
  for (const f of FILE_EXPORTS) if (!fs.existsSync(path.join(out, f))) throw new Error(`export ${f} is not in ${out}`);
  for (const [name, f] of Object.entries(BIN)) if (!fs.existsSync(path.join(out, f))) throw new Error(`bin ${name}: ${f} is not in ${out}`);
  console.log(path.relative(process.cwd(), out) || out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
