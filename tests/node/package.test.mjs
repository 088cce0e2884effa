// The npm package: `npm pack` of dist/minipbd@VERSION (make dist writes it, tools/package.mjs),
// installed offline into a fresh project with npm's default package.json (CommonJS), runs docs/api.md's Node example
// there as it is written (an ES module and the CommonJS form), and its types are real: a typed example over every
// entry point passes `tsc --strict` (module nodenext), a file with deliberate type errors fails it with those errors.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, builtinScenes } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const meta = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const PKG_DIR = path.join(root, 'dist', `${meta.name}@${meta.version}`);
const TSC = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const API_DOC = fs.readFileSync(path.join(root, 'docs', 'api.md'), 'utf8');

/** The code block of docs/api.md whose info string names `id=ID` (tests/node/docs.test.mjs runs every such block). */
function docBlock(id) {
  const m = API_DOC.match(new RegExp(`\`\`\`js [^\\n]*\\bid=${id}\\b[^\\n]*\\n([\\s\\S]*?)\`\`\`\\n`));
  assert.ok(m, `docs/api.md has no block with id=${id}`);
  return m[1];
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-pkg-'));
const project = path.join(tmp, 'project');
// npm's own cache in the temporary folder: nothing of the user's is read or written, and no network is asked.
// No FORCE_COLOR: `node --test` in a terminal sets it for its children, and a console.log of a number would then
// print colour codes around it.
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'FORCE_COLOR'));
const npmEnv = { ...plainEnv, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false', NODE_PATH: '' };
const npm = (args, cwd) => execFileSync('npm', args, { cwd, env: npmEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const run = (file) => spawnSync(process.execPath, [file], { cwd: project, env: { ...plainEnv, NODE_PATH: '' }, encoding: 'utf8' });
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

let packed; // npm pack --json's record of the tarball

test('npm pack of the package folder, installed offline into a fresh CommonJS project', { timeout: 60000 }, () => {
  assert.ok(fs.existsSync(path.join(PKG_DIR, 'package.json')), `${PKG_DIR} is missing: run make dist`);
  [packed] = JSON.parse(npm(['pack', PKG_DIR, '--json', '--pack-destination', tmp], tmp));
  const files = new Set(packed.files.map((f) => f.path));
  for (const f of ['package.json', 'LICENSE', 'README.md', 'minipbd.wasm', 'minipbd_threads.wasm', 'scene.schema.json',
    'js/minipbd.js', 'js/minipbd.d.ts', 'js/format/scene.d.ts', 'js/format/link.d.ts', 'js/record/recorder.d.ts',
    'js/embed.d.ts', 'js/engine/param-table.js', 'shaders/cloth.vert', 'assets/bunny.obj', 'index.html', 'embed.html']) {
    assert.ok(files.has(f), `the tarball holds ${f}`);
  }
  for (const f of files) assert.ok(!/^(node_modules|tests|src|tools|build)\//.test(f), `the tarball holds no ${f}`);

  fs.mkdirSync(project);
  npm(['init', '-y'], project);
  const pkg = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8'));
  assert.ok(pkg.type === undefined || pkg.type === 'commonjs', `npm init -y made a CommonJS project (type ${pkg.type})`);
  npm(['install', path.join(tmp, packed.filename), '--offline', '--no-audit', '--no-fund'], project);
  const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'minipbd', 'package.json'), 'utf8'));
  assert.equal(installed.version, meta.version);
  assert.equal(installed.dependencies, undefined, 'the package needs nothing else');
});

test('docs/api.md\'s Node example runs there as written, as an ES module and in the CommonJS form, with the engine\'s bits', async () => {
  assert.ok(packed, 'the package is installed');
  const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  const world = pbd.createWorld(builtinScenes.chain);
  world.step(120);
  const expected = `particles ${world.particleCount} hash ${world.hash()}`;
  world.destroy();
  for (const [file, id] of [['example.mjs', 'api-node'], ['example.js', 'api-node-cjs']]) {
    fs.writeFileSync(path.join(project, file), docBlock(id));
    const r = run(file);
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    assert.equal(r.stdout.trim(), expected, `${file} prints the particle count and the hash of the run in this process`);
  }
  // A CommonJS require() of an ES module package is refused by Node 20: the docs say to import() it instead.
  assert.match(docBlock('api-node-cjs'), /await import\('minipbd'\)/);
});

test('every export resolves from the project: the entry points, the wasm files, the schema', () => {
  assert.ok(packed, 'the package is installed');
  const probe = `
    const out = {};
    for (const s of ['minipbd', 'minipbd/scene', 'minipbd/link', 'minipbd/recorder', 'minipbd/embed', 'minipbd/frame',
      'minipbd/minipbd.wasm', 'minipbd/minipbd_threads.wasm', 'minipbd/scene.schema.json', 'minipbd/package.json']) {
      try { out[s] = import.meta.resolve(s); } catch (e) { out[s] = 'ERROR ' + e.message; }
    }
    const scene = await import('minipbd/scene');
    const link = await import('minipbd/link');
    const rec = await import('minipbd/recorder');
    out.kinds = [typeof scene.validateScene, typeof link.decodeRun, typeof rec.Recorder];
    console.log(JSON.stringify(out));`;
  fs.writeFileSync(path.join(project, 'probe.mjs'), probe);
  const r = run('probe.mjs');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const inPkg = (spec, file) => assert.equal(fileURLToPath(out[spec]), path.join(project, 'node_modules', 'minipbd', file), spec);
  inPkg('minipbd', 'js/minipbd.js');
  inPkg('minipbd/scene', 'js/format/scene.js');
  inPkg('minipbd/link', 'js/format/link.js');
  inPkg('minipbd/recorder', 'js/record/recorder.js');
  inPkg('minipbd/embed', 'js/embed.js');
  inPkg('minipbd/minipbd.wasm', 'minipbd.wasm');
  inPkg('minipbd/minipbd_threads.wasm', 'minipbd_threads.wasm');
  inPkg('minipbd/scene.schema.json', 'scene.schema.json');
  inPkg('minipbd/package.json', 'package.json');
  inPkg('minipbd/frame', 'js/embed/frame-client.js');
  assert.deepEqual(out.kinds, ['function', 'function', 'function']);
  const schema = fs.readFileSync(path.join(project, 'node_modules', 'minipbd', 'scene.schema.json'), 'utf8');
  assert.equal(schema, fs.readFileSync(path.join(root, 'web', 'scene.schema.json'), 'utf8'));
});

test('the command line is the package\'s bin: npx minipbd-run in the project prints its usage and runs a built-in scene', { timeout: 120000 }, async () => {
  assert.ok(packed, 'the package is installed');
  assert.ok(packed.files.some((f) => f.path === 'bin/minipbd-run.mjs'), 'the tarball holds bin/minipbd-run.mjs');
  for (const f of ['args', 'output', 'scene', 'track', 'web']) assert.ok(packed.files.some((x) => x.path === `bin/run/${f}.mjs`), `bin/run/${f}.mjs`);
  const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'minipbd', 'package.json'), 'utf8'));
  assert.deepEqual(installed.bin, { 'minipbd-run': './bin/minipbd-run.mjs' });
  const main = path.join(project, 'node_modules', 'minipbd', 'bin', 'minipbd-run.mjs');
  assert.ok(fs.readFileSync(main, 'utf8').startsWith('#!/usr/bin/env node\n'), 'a shebang');
  assert.ok((fs.statSync(main).mode & 0o111) !== 0, 'executable');
  // The package's copy reaches the page's modules in js/ and the wasm in the package folder, never the repository.
  const web = fs.readFileSync(path.join(project, 'node_modules', 'minipbd', 'bin', 'run', 'web.mjs'), 'utf8');
  assert.match(web, /from '\.\.\/\.\.\/js\/minipbd\.js'/);
  assert.doesNotMatch(web.replace(/^\/\/.*$/gm, ''), /web\/js|dist\//);
  const npx = (...args) => spawnSync('npx', ['--offline', '--no-install', 'minipbd-run', ...args],
    { cwd: project, env: { ...npmEnv, NODE_PATH: '' }, encoding: 'utf8', timeout: 60000 });
  const help = npx('--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^usage: minipbd-run <scene\.json \| link \| builtin:NAME> \[options\]\n/);
  const bad = npx('builtin:chain', '--bogus');
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.split('\n')[0], 'minipbd-run: unknown option --bogus');
  // A real run: the same bits as this process, its CSV a header and one row per sample, 6 significant digits.
  const r = npx('builtin:chain', '--steps', '30', '--every', '10', '--format', 'csv');
  assert.equal(r.status, 0, r.stderr);
  const [header, ...rows] = r.stdout.trimEnd().split('\n').map((line) => line.split(','));
  assert.deepEqual(header.slice(0, 4), ['step', 'time', 'stepMs', 'kineticEnergy']);
  assert.deepEqual(rows.map((row) => Number(row[0])), [0, 10, 20, 30]);
  for (const row of rows) {
    assert.equal(row.length, header.length);
    for (const f of row.slice(3)) assert.ok(f !== '' && Number.isFinite(Number(f)) && Number(f) === Number(Number(f).toPrecision(6)), `${f} is a number of at most 6 digits`);
  }
  const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
  const world = pbd.createWorld(builtinScenes.chain);
  world.step(30);
  assert.equal(JSON.parse(r.stderr).hash, world.hash(), 'the summary on stderr has this process\'s hash');
  world.destroy();
});

test('a copied dist/ runs inside the CommonJS project too (dist/package.json says "type": "module")', () => {
  assert.ok(packed, 'the project is made');
  const copy = path.join(project, 'vendor', 'minipbd');
  fs.mkdirSync(copy, { recursive: true });
  for (const f of ['package.json', 'js', 'minipbd.wasm']) fs.cpSync(path.join(root, 'dist', f), path.join(copy, f), { recursive: true });
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(copy, 'package.json'), 'utf8')), { type: 'module' });
  fs.writeFileSync(path.join(project, 'copied.js'), `import('./vendor/minipbd/js/minipbd.js').then(async ({ loadMiniPBD, builtinScenes }) => {
  const world = (await loadMiniPBD()).createWorld(builtinScenes.chain);
  world.step(120);
  console.log(world.hash());
});
`);
  const r = run('copied.js');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.trim(), /^\d+$/);
});

test('loadMiniPBD: no URL (minipbd.wasm beside js/), only the options, a file: URL and bytes give one engine; a missing file is named', async () => {
  const dist = await import(new URL('../../dist/js/minipbd.js', import.meta.url).href);
  const wasm = path.join(root, 'dist', 'minipbd.wasm');
  const hashes = [];
  for (const load of [() => dist.loadMiniPBD(), () => dist.loadMiniPBD({ threads: 1 }), () => dist.loadMiniPBD(new URL(`file://${wasm}`)),
    () => dist.loadMiniPBD(`file://${wasm}`), () => dist.loadMiniPBD(fs.readFileSync(wasm))]) {
    const world = (await load()).createWorld(builtinScenes.chain);
    world.step(30);
    hashes.push(world.hash());
    world.destroy();
  }
  assert.equal(new Set(hashes).size, 1, `one run: ${hashes}`);
  await assert.rejects(dist.loadMiniPBD(new URL('file:///nonexistent/minipbd.wasm')), /nonexistent\/minipbd\.wasm/);
});

// ---------------------------------------------------------------- the types

// The parent page's side of the iframe API (the frame client, frame helper's module): when it is in the package.
const FRAME_TYPED = `import { MiniPBDFrame, FrameCommandError, type FrameStats } from 'minipbd/frame';
export async function teach(iframe: HTMLIFrameElement): Promise<number> {
  const client = new MiniPBDFrame(iframe, { timeout: 5000 });
  await client.ready;
  await client.pause();
  const { steps } = await client.step(10);
  await client.set('gravityY', -1.62);
  await client.subscribe({ every: 10 }, (s: FrameStats) => console.log(s.time, s.kineticEnergy));
  try { await client.load('chain'); } catch (e) { if (e instanceof FrameCommandError) console.log(e.code); }
  const stats: FrameStats = await client.stats();
  client.destroy();
  return steps + stats.time;
}`;
const TYPED = `
import { loadMiniPBD, builtinScenes, BUILTIN_SCENE_IDS, PARAMS, type World, type Stats, type Scene } from 'minipbd';
import { validateScene, SceneError, SCENE_LIMITS, SCENE_VERSION, type NormalisedScene } from 'minipbd/scene';
import { encodeLink, decodeRun, LinkError, type LinkErrorReason } from 'minipbd/link';
import { Recorder, type Replay } from 'minipbd/recorder';
import type { MiniPBDSceneElement } from 'minipbd/embed';
${FRAME_TYPED}

const pbd = await loadMiniPBD();
const source: Scene = { format: 'minipbd-scene', version: 2, objects: [{ type: 'chain', start: [0, 2, 0], end: [1, 2, 0], segments: 10 }] };
const scene: NormalisedScene = validateScene(source);
const world: World = pbd.createWorld(scene);
const recorder = new Recorder(world, { maxSteps: 100 });
world.setParam('iterations', 2);
world.step(10);
const replay: Replay = recorder.stop();
const fragment: string = await encodeLink(scene, { replay });
const decoded = await decodeRun(fragment);
const steps: number = decoded.replay?.steps ?? 0;
const stats: Stats = world.stats();
const budget: number = SCENE_LIMITS.maxParticles + SCENE_VERSION + PARAMS.dt.max + BUILTIN_SCENE_IDS.length;
try { validateScene(builtinScenes.cloth); } catch (e) {
  if (e instanceof SceneError) console.log(e.path.length);
  if (e instanceof LinkError) { const why: LinkErrorReason = e.reason; console.log(why); }
}
export function drive(element: MiniPBDSceneElement): number {
  element.pause();
  return element.world?.particleCount ?? 0;
}
export const found: MiniPBDSceneElement | null = typeof document === 'undefined' ? null : document.querySelector('minipbd-scene');
console.log(steps, stats.kineticEnergy, budget, world.hash());
world.destroy();
`;
// Each line a deliberate error tsc must report (its code): a parameter that does not exist, a missing export, a
// scene object of no type, a string where the scene wants numbers.
const WRONG = [
  ["import { loadMiniPBD } from 'minipbd';", null],
  ["import { decodeEverything } from 'minipbd/link';", 'TS2305'],
  ['const world = (await loadMiniPBD()).createWorld({ format: "minipbd-scene", version: 2, objects: [] });', null],
  ["world.setParam('gravityW', 1);", 'TS2345'],
  ['const n: string = world.hash();', 'TS2322'],
  ["world.createWorld;", 'TS2339'],
];

/** Every name each entry point exports at run time: imported in Node, or read from the export statements of the
 *  modules that need a DOM (the element, the frame client). */
async function runtimeExports() {
  const pkgRoot = path.join(project, 'node_modules', 'minipbd');
  const fromSource = (file) => {
    const text = fs.readFileSync(path.join(pkgRoot, file), 'utf8');
    const names = [];
    for (const m of text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)/gm)) names.push(m[1]);
    for (const m of text.matchAll(/^export\s*\{([^}]*)\}/gm)) {
      for (const part of m[1].split(',')) if (part.trim()) names.push(part.trim().split(/\s+as\s+/).pop());
    }
    return names;
  };
  const out = {};
  for (const [spec, file] of [['minipbd', 'js/minipbd.js'], ['minipbd/scene', 'js/format/scene.js'], ['minipbd/link', 'js/format/link.js'],
    ['minipbd/recorder', 'js/record/recorder.js']]) {
    out[spec] = Object.keys(await import(path.join(pkgRoot, file)));
  }
  out['minipbd/embed'] = fromSource('js/embed.js');
  out['minipbd/frame'] = fromSource('js/embed/frame-client.js');
  return out;
}

function tsc(...files) {
  return spawnSync(process.execPath, [TSC, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--target', 'es2022', '--lib', 'es2022,dom', ...files], { cwd: project, encoding: 'utf8' });
}

test('the types are real: every export of every entry point is declared, a typed example passes tsc --strict, deliberate errors fail it', { timeout: 60000 }, async () => {
  assert.ok(packed, 'the package is installed');
  // Every run-time export of every entry point has a declaration: importing each by name type-checks.
  const exported = await runtimeExports();
  let k = 0;
  const lines = Object.entries(exported).flatMap(([spec, names]) => names.map((n) => `import { ${n} as x${k++} } from '${spec}'; void x${k - 1};`));
  assert.ok(k > 60, `${k} exports`);
  fs.writeFileSync(path.join(project, 'exports.mts'), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(project, 'typed.mts'), TYPED);
  const good = tsc('typed.mts', 'exports.mts'); // one run: tsc's start-up is most of its time
  assert.equal(good.status, 0, `typed.mts, exports.mts (an export without a type?): ${good.stdout}${good.stderr}`);
  fs.writeFileSync(path.join(project, 'wrong.mts'), `${WRONG.map(([line]) => line).join('\n')}\n`);
  const bad = tsc('wrong.mts');
  assert.notEqual(bad.status, 0, 'wrong.mts must fail the check');
  WRONG.forEach(([, code], i) => {
    if (code) assert.match(bad.stdout, new RegExp(`wrong\\.mts\\(${i + 1},\\d+\\): error ${code}`), `line ${i + 1}: ${bad.stdout}`);
  });
  const reported = bad.stdout.split('\n').filter((l) => l.startsWith('wrong.mts'));
  assert.equal(reported.length, WRONG.filter(([, c]) => c).length, `only the deliberate errors: ${bad.stdout}`);
});
