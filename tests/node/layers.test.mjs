// layers.test.mjs — tools/test-layers.sh runs `make test`'s layers side by side (test-c then test-node-threads
// beside test-browser-shared). dist is phony and its recipe starts with `rm -rf dist/js`, so a layer whose own make
// remade dist would pull the pages out from under the browser files running beside it (CI once saw the page test's
// js/bundle/main.js answer 404 when test-node-threads started). The script's own make command is read from it and
// dry-run (`make -n`) for every layer it names: none may remake dist; without the script's -o dist, each would.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = fs.readFileSync(path.join(root, 'tools', 'test-layers.sh'), 'utf8');

/** The make command the script runs a layer with: the line `make … "$name"`, as an argument list. */
function layerCommand() {
  const lines = script.split('\n').map((l) => l.trim()).filter((l) => /^make .*"\$name"$/.test(l));
  assert.equal(lines.length, 1, `one make command for a layer in tools/test-layers.sh, found ${lines.length}`);
  return lines[0].split(/\s+/).slice(1);
}

/** The layers the script runs (`layer NAME` and the serial loop's names), the build excepted. */
function layers() {
  const names = new Set();
  for (const m of script.matchAll(/\blayer (test-[a-z-]+)/g)) names.add(m[1]);
  const loop = /for name in ([a-z\- ]+); do layer/.exec(script);
  if (loop) for (const n of loop[1].trim().split(/\s+/)) names.add(n);
  return [...names];
}

const dryRun = (args) => execFileSync('make', ['-n', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, MAKEFLAGS: '' } });
const touchesDist = (out) => out.split('\n').filter((l) => /\brm -rf dist\b|tools\/bundle\.mjs dist|> dist\//.test(l));

test('no layer of make test remakes dist/ (the build did; a layer beside the browser files must not)', () => {
  const cmd = layerCommand();
  const names = layers();
  for (const n of ['test-c', 'test-node-threads', 'test-browser-shared', 'test-node-rest', 'test-browser-alone']) {
    assert.ok(names.includes(n), `the script runs ${n} (it runs ${names.join(', ')})`);
  }
  for (const name of names) {
    const out = dryRun(cmd.map((a) => (a === '"$name"' ? name : a)));
    assert.deepEqual(touchesDist(out), [], `${name}: its make would remake dist/`);
  }
});

test('the check can fail: without -o dist, a layer that needs dist/ remakes it', () => {
  assert.ok(touchesDist(dryRun(['--no-print-directory', 'test-node-threads'])).length > 0, 'make -n test-node-threads remakes dist');
});
