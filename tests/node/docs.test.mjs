// docs.test.mjs — every code block of the docs that a reader would run is run (the convention is in
// tests/node/doc-blocks.mjs and docs/tests.md "The docs' code blocks"): the package is packed and installed into a
// fresh npm init -y project as a reader would, each Node block runs there as it is written and prints what this
// process computes, and each command-line block runs there line by line. The browser blocks (the element, the
// iframe) are run by tests/browser/docs.test.mjs. A block that looks runnable but is not marked fails here.

import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, docBlocks, conventionProblem } from './doc-blocks.mjs';
import { packedProject } from './package-project.mjs';
import { loadMiniPBD, builtinScenes, loadBuiltinScene } from '../../web/js/minipbd.js';

// `node tools/minipbd-run.mjs` lines (in a clone of the repository) run the repository's CLI.
const REPO_CLI = `"${process.execPath}" "${path.join(ROOT, 'tools', 'minipbd-run.mjs')}"`;
// `npx minipbd-run` lines run the installed package's bin, offline, in the project where it was installed: what a
// reader who followed the docs has.
const NPX_MINIPBD_RUN = 'npx --offline minipbd-run';

const blocks = docBlocks();
const pbd = await loadMiniPBD(fs.readFileSync(path.join(ROOT, 'dist', 'minipbd.wasm')));

/** world.hash() of `scene` after `steps` steps, in this process (the single-thread build). */
async function hashAfter(scene, steps) {
  const world = pbd.createWorld(typeof scene === 'string' ? await loadBuiltinScene(scene) : scene);
  world.step(steps);
  const out = { hash: world.hash(), particles: world.particleCount };
  world.destroy();
  return out;
}

const chainLine = async () => {
  const { hash, particles } = await hashAfter(builtinScenes.chain, 120);
  return `particles ${particles} hash ${hash}`;
};

/** What each Node block must print (stdout, trimmed), computed here. A block id without an entry fails, and so
 *  does an entry whose block is gone. */
const NODE_CHECKS = {
  'readme-node': chainLine,
  'api-node': chainLine,
  'api-node-cjs': chainLine,
  'pkg-node': chainLine,
  // The threaded build on 2 threads ends on the single-thread build's bits.
  'api-threads': async () => `threads 2 hash ${(await hashAfter(builtinScenes.cloth, 60)).hash}`,
  'pkg-scene': async () => '11 44',
};

// The browser test's ids (tests/browser/docs.test.mjs checks each); listed here so an unknown one fails in Node too.
const BROWSER_IDS = ['element', 'iframe', 'embed-elements', 'embed-iframe', 'listener', 'frame-client', 'csp', 'pkg-element'];

test('every block a reader would run is marked, and every marked block has its check', () => {
  const problems = blocks.map(conventionProblem).filter(Boolean);
  assert.deepEqual(problems, []);
  const ids = blocks.filter((b) => b.id).map((b) => b.id);
  assert.equal(new Set(ids).size, ids.length, `ids are unique: ${ids}`);
  for (const b of blocks.filter((b) => b.run === 'node' || b.run === 'node-cjs')) {
    assert.ok(NODE_CHECKS[b.id], `${b.file}:${b.line}: no check for id=${b.id} in NODE_CHECKS`);
  }
  for (const id of Object.keys(NODE_CHECKS)) assert.ok(ids.includes(id), `NODE_CHECKS has ${id}, but no doc block has that id`);
  for (const b of blocks.filter((b) => b.run === 'browser')) assert.ok(BROWSER_IDS.includes(b.id), `${b.file}:${b.line}: browser id ${b.id}`);
  for (const id of BROWSER_IDS) assert.ok(ids.includes(id), `no doc block has the browser id ${id}`);
  // The README's first two commands are the ones CI and a newcomer run.
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const commands = [...readme.matchAll(/^(make \w+)/gm)].map((m) => m[1]);
  assert.deepEqual(commands.slice(0, 2), ['make serve', 'make test']);
});

let project;
test.after(() => project?.cleanup());

test('the package, packed and installed offline into a fresh npm init -y project', { timeout: 120000 }, () => {
  project = packedProject('minipbd-docs-');
  assert.ok(fs.existsSync(path.join(project.project, 'node_modules', 'minipbd', 'package.json')));
  // What the CLI blocks read: a scene file and a model, as a reader would have them.
  const scene = JSON.parse(JSON.stringify(builtinScenes.chain));
  fs.writeFileSync(path.join(project.project, 'my-scene.json'), `${JSON.stringify(scene, null, 2)}\n`);
  fs.copyFileSync(path.join(ROOT, 'tests', 'node', 'fixtures', 'obj', 'cube.obj'), path.join(project.project, 'model.obj'));
});

for (const block of blocks.filter((b) => b.run === 'node' || b.run === 'node-cjs')) {
  test(`${block.file}:${block.line} (id=${block.id}) runs in the project and prints what this process computes`, { timeout: 120000 }, async () => {
    assert.ok(project, 'the project is made');
    const file = `doc-${block.id}.${block.run === 'node' ? 'mjs' : 'js'}`;
    fs.writeFileSync(path.join(project.project, file), block.code);
    const r = project.run(file);
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    assert.equal(r.stdout.trim(), await NODE_CHECKS[block.id]());
  });
}

/** The CLI line as it runs here: the CLI's name in the docs replaced by the command that runs it. */
function cliCommand(line) {
  return line
    .replace(/^node tools\/minipbd-run\.mjs(?=\s|$)/, REPO_CLI)
    .replace(/^npx minipbd-run(?=\s|$)/, NPX_MINIPBD_RUN);
}

/** Checks of one CLI line's output where it is deterministic: the hash of a built-in scene, the CSV's rows. */
async function checkCliOutput(line, r) {
  const steps = Number(line.match(/--steps (\d+)/)?.[1] ?? 60);
  const every = Number(line.match(/--every (\d+)/)?.[1] ?? 0);
  const builtin = line.match(/\bbuiltin:([\w-]+)/)?.[1];
  const csvFile = line.match(/--format csv > (\S+)/)?.[1];
  if (csvFile) {
    const rows = fs.readFileSync(path.join(project.project, csvFile), 'utf8').trim().split('\n');
    assert.equal(rows.length, 1 + (every ? Math.floor(steps / every) : 1) + 1, `${csvFile}: a header, then step 0 and one row per sample`);
    assert.match(rows[0], /^step,time,stepMs,/);
    const summary = line.match(/2> (\S+)/)?.[1];
    if (summary) assert.equal(JSON.parse(fs.readFileSync(path.join(project.project, summary), 'utf8')).steps, steps);
    return;
  }
  if (/>/.test(line.replace(/#.*$/, ''))) return;
  const out = JSON.parse(r.stdout);
  assert.equal(out.steps, steps);
  if (builtin && !/--(set|obj|threads|wasm)\b/.test(line)) {
    assert.equal(out.hash, (await hashAfter(builtin, steps)).hash, `${line}: the hash this process computes`);
  }
}

for (const block of blocks.filter((b) => b.run === 'cli')) {
  test(`${block.file}:${block.line}: every command-line line runs`, { timeout: 300000 }, async () => {
    assert.ok(project, 'the project is made');
    const lines = block.code.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    assert.ok(lines.length > 0);
    for (const line of lines) {
      const command = cliCommand(line);
      assert.notEqual(command, line, `${block.file}:${block.line}: ${line} does not start with the CLI's name`);
      const r = project.sh(command);
      assert.equal(r.status, 0, `${line}: ${r.stderr}`);
      await checkCliOutput(line, r);
    }
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens (a repeat gets -1, -2, …). */
function anchors(text) {
  const seen = new Map();
  const out = new Set();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^ *```/.test(line)) fenced = !fenced;
    const h = !fenced && line.match(/^#{1,6}\s+(.*)$/);
    if (!h) continue;
    const base = h[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test('every link between the docs names a file of the repository and a heading that exists', () => {
  const problems = [];
  for (const file of ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [rel, anchor] = target.split('#');
      const dest = rel ? path.join(path.dirname(path.join(ROOT, file)), rel) : path.join(ROOT, file);
      if (!fs.existsSync(dest)) { problems.push(`${file}: ${target}: no such file`); continue; }
      if (anchor && dest.endsWith('.md') && !anchors(fs.readFileSync(dest, 'utf8')).has(anchor)) problems.push(`${file}: ${target}: no such heading`);
    }
  }
  assert.deepEqual(problems, []);
});

test('no doc names a file that is not in the repository (the old design notes) or an internal issue number in a heading', () => {
  for (const file of ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    assert.doesNotMatch(text, /\barch1\d*(\.md)?\b/, `${file} names a design note that is not in the repository`);
    for (const line of text.split('\n').filter((l) => /^#{1,6}\s/.test(l))) assert.doesNotMatch(line, /\bissue \d+/i, `${file}: ${line}`);
  }
});
