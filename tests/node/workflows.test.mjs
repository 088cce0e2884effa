// workflows.test.mjs — the GitHub Actions workflows (.github/workflows/) cannot run here, so their commands are
// checked against the tree: every `make X` names a target of the Makefile, every `bash F` / `node F` / `./F` a file
// that exists, every `npm run X` a script of package.json, and `npm publish` the folder tools/package.mjs writes.
// The YAML is read with a small line parser (the workflows use `run: command` and `run: |` blocks only); the
// triggers and permissions each workflow needs are checked on the text.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKFLOWS = path.join(root, '.github', 'workflows');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** The commands of a workflow's `run:` steps, one per line (a `run: |` block gives its lines). */
export function runCommands(yaml) {
  const lines = yaml.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?run:\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    if (m[2] !== '|' && m[2] !== '>') { out.push(m[2]); continue; }
    const indent = m[1].length;
    for (i++; i < lines.length && (lines[i].trim() === '' || lines[i].search(/\S/) > indent); i++) {
      if (lines[i].trim() !== '') out.push(lines[i].trim());
    }
    i--;
  }
  return out.map((c) => c.replace(/\s+#.*$/, '').trim()).filter((c) => c !== '' && !c.startsWith('#'));
}

/** The Makefile's targets (rules `name: …`, and the default goal's `make` with no target). */
function makeTargets() {
  const text = fs.readFileSync(path.join(root, 'Makefile'), 'utf8');
  const targets = new Set(['']);
  for (const m of text.matchAll(/^([A-Za-z0-9_.\-/ ]+?)\s*:(?!=)/gm)) for (const t of m[1].split(/\s+/)) targets.add(t);
  return targets;
}

// $(node -p "require('./package.json').version") in a command: the version, as the shell would give it.
const VERSION_EXPR = /\$\(node -p "require\('\.\/package\.json'\)\.version"\)/g;

/** Problems with `command` (empty: every program, target, file and script it names exists). */
function checkCommand(command, targets) {
  const problems = [];
  const cmd = command.replace(VERSION_EXPR, pkg.version);
  for (const part of cmd.split(/&&|\|\||;|\|/).map((s) => s.trim()).filter(Boolean)) {
    const words = part.match(/"[^"]*"|'[^']*'|\S+/g).map((w) => w.replace(/^["']|["']$/g, ''));
    const [prog, ...args] = words.filter((w) => !/^[A-Z_]+=/.test(w)); // leading VAR=value assignments
    const file = (f) => fs.existsSync(path.join(root, f)) || problems.push(`${command}: no file ${f}`);
    if (prog === 'make') {
      for (const a of args.filter((x) => !x.startsWith('-') && !x.includes('='))) {
        if (!targets.has(a)) problems.push(`${command}: no Makefile target ${a}`);
      }
      if (!args.some((x) => !x.startsWith('-') && !x.includes('=')) && !targets.has('all')) problems.push(`${command}: no default target`);
    } else if (prog === 'bash' || prog === 'node') {
      const f = args.find((x) => !x.startsWith('-'));
      if (f && !['-p', '-e'].includes(args[0])) file(f);
    } else if (prog.startsWith('./') || prog.startsWith('.ci/') || prog.startsWith('tools/')) {
      file(prog);
    } else if (prog === 'npm') {
      if (args[0] === 'run' && !Object.hasOwn(pkg.scripts ?? {}, args[1])) problems.push(`${command}: no npm script ${args[1]}`);
      if (args[0] === 'publish') {
        const folder = args.find((x, k) => k > 0 && !x.startsWith('-'));
        // tools/package.mjs writes dist/NAME@VERSION: the folder npm publishes must be that one.
        if (folder !== `dist/${pkg.name}@${pkg.version}`) problems.push(`${command}: publishes ${folder}, make writes dist/${pkg.name}@${pkg.version}`);
      }
      if (!['ci', 'run', 'publish', 'test'].includes(args[0])) problems.push(`${command}: npm ${args[0]} is not expected here`);
    } else if (!['test', 'echo', 'cd'].includes(prog)) {
      problems.push(`${command}: unknown program ${prog}`);
    }
  }
  return problems;
}

const read = (name) => fs.readFileSync(path.join(WORKFLOWS, name), 'utf8');

test('the line parser reads run: lines and run: | blocks', () => {
  assert.deepEqual(runCommands('steps:\n  - run: make test # all\n  - name: x\n    run: |\n      bash a.sh\n\n      node b.mjs\n  - uses: y\n'),
    ['make test', 'bash a.sh', 'node b.mjs']);
});

test('a command naming what does not exist is caught (the check can fail)', () => {
  const targets = makeTargets();
  assert.equal(checkCommand('make no-such-target', targets).length, 1);
  assert.equal(checkCommand('bash tools/no-such.sh', targets).length, 1);
  assert.equal(checkCommand('npm run no-such-script', targets).length, 1);
  assert.equal(checkCommand('npm publish dist/minipbd@0.0.0 --access public', targets).length, 1);
  assert.deepEqual(checkCommand('make dist && node tools/package.mjs dist', targets), []);
});

test('every command the workflows run exists: make targets, files, npm scripts, the published folder', () => {
  const targets = makeTargets();
  const files = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort();
  assert.deepEqual(files, ['ci.yml', 'pages.yml', 'publish.yml']);
  let n = 0;
  for (const f of files) {
    const commands = runCommands(read(f));
    assert.ok(commands.length > 0, `${f} runs something`);
    for (const c of commands) {
      assert.deepEqual(checkCommand(c, targets), [], `${f}: ${c}`);
      n++;
    }
  }
  assert.ok(n >= 7, `${n} commands checked`);
});

test('ci runs the README\'s test command on every push and pull request', () => {
  const ci = read('ci.yml');
  assert.match(ci, /^on:\n(?:\s+.*\n)*?\s+push:/m);
  assert.match(ci, /^\s+pull_request:/m);
  assert.ok(runCommands(ci).includes('make test'));
  assert.match(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), /make test/);
});

test('pages builds dist/ (with the release downloads) and deploys it, with coi-sw.js in it for isolation', () => {
  const pages = read('pages.yml');
  assert.ok(runCommands(pages).includes('make release'));
  assert.match(fs.readFileSync(path.join(root, 'Makefile'), 'utf8'), /^release: dist\b/m, 'make release builds dist/ first');
  assert.match(pages, /uses: actions\/upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist\n/);
  assert.match(pages, /uses: actions\/deploy-pages@v\d+/);
  assert.match(pages, /pages: write/);
  assert.match(pages, /id-token: write/);
  // The Makefile's dist rule copies the service worker the pages isolate themselves with.
  assert.match(fs.readFileSync(path.join(root, 'Makefile'), 'utf8'), /cp web\/coi-sw\.js dist\//);
});

test('publish runs on v* tags: make, then npm publish of the package folder with provenance', () => {
  const publish = read('publish.yml');
  assert.match(publish, /tags: \['v\*'\]/);
  assert.match(publish, /id-token: write/);
  const commands = runCommands(publish);
  const make = commands.indexOf('make');
  const npm = commands.findIndex((c) => c.startsWith('npm publish'));
  assert.ok(make >= 0 && npm > make, commands.join('\n'));
  assert.match(commands[npm], /--provenance/);
  assert.match(commands[npm], /--access public/);
});
