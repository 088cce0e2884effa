// Smoke test for bench/bench.mjs (`make bench`): runs its --quick mode (a 20x20 cloth,
// 2 runs of 2 steps, natively and in wasm) and checks the records' schema and the
// native/wasm hash cross-check. No timing assertions: only that the figures exist,
// are finite and positive, and agree where they must (same work on every side).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NUMBER_FIELDS = ['particles', 'constraints', 'passes', 'ms_median', 'proj_per_s', 'max_stretch'];
const INTEGER_FIELDS = ['particles', 'constraints', 'passes'];

// A make started from a make (make test -> node --test) must not inherit the outer
// make's jobserver descriptors, which its child processes do not have.
function cleanEnv() {
  const env = { ...process.env };
  for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES']) delete env[k];
  return env;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: cleanEnv(), maxBuffer: 1 << 24 });
  if (r.error) throw r.error;
  return r;
}

// Builds (or refreshes, so the binary and the wasm match the sources) what the bench runs.
function ensureBuilt() {
  // both native binaries: bench.mjs uses the portable one whenever it exists, so a stale one must not linger
  const r = run('make', ['-s', 'build/bench_native', 'build/bench_native_portable', 'build/minipbd.wasm']);
  assert.equal(r.status, 0, `make failed:\n${r.stdout}\n${r.stderr}`);
  assert.ok(fs.existsSync(path.join(root, 'build', 'bench_native')), 'build/bench_native was not built');
}

test('bench.mjs --quick writes well-formed records and the native/wasm hashes agree', { timeout: 300_000 }, () => {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-bench-'));
  try {
    const out = path.join(dir, 'bench.json');
    const r = run(process.execPath, ['bench/bench.mjs', '--quick', '--out', out, '--wasm', 'build/minipbd.wasm']);
    assert.equal(r.status, 0, `bench.mjs --quick failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^hash check: PASS/m, 'the printed hash check passed');
    assert.match(r.stdout, /^\| case +\| impl +\| particles +\| constraints +\| passes +\| ms\/step \(median\) +\| Mproj\/s +\| max stretch +\| ratio vs native +\|$/m,
      'the markdown table header is printed');

    const records = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.ok(Array.isArray(records), 'the output is an array of records');
    const impls = new Set(records.map((x) => x.impl));
    assert.ok(impls.has('wasm'), 'a wasm record');
    assert.ok(impls.has('native'), 'a native record');

    for (const rec of records) {
      const where = `${rec.case}/${rec.impl}`;
      assert.equal(typeof rec.case, 'string', `${where}: case`);
      assert.equal(rec.case, 'cloth-20x20', `${where}: the quick case`);
      assert.equal(typeof rec.impl, 'string', `${where}: impl`);
      for (const f of NUMBER_FIELDS) {
        assert.equal(typeof rec[f], 'number', `${where}: ${f} is a number`);
        assert.ok(Number.isFinite(rec[f]) && rec[f] > 0, `${where}: ${f} = ${rec[f]} is finite and positive`);
      }
      for (const f of INTEGER_FIELDS) assert.ok(Number.isInteger(rec[f]), `${where}: ${f} is an integer`);
      assert.equal(rec.particles, 400, `${where}: 20 x 20 particles`);
      assert.equal(rec.passes, 10, `${where}: 1 substep x 10 iterations`);
      assert.ok(Array.isArray(rec.runs) && rec.runs.length === 2, `${where}: runs holds the 2 quick runs`);
      for (const ms of rec.runs) assert.ok(Number.isFinite(ms) && ms > 0, `${where}: run ${ms} is finite and positive`);
      // proj_per_s is derived from the median, not measured separately.
      const expected = rec.constraints * rec.passes / (rec.ms_median / 1000);
      assert.ok(Math.abs(rec.proj_per_s - expected) <= 1e-6 * expected, `${where}: proj_per_s = constraints x passes / s`);
      assert.match(rec.hash_after_warmup, /^0x[0-9a-f]{8}$/, `${where}: hash_after_warmup`);
      assert.equal(rec.hash_match, true, `${where}: hash matches native`);
      assert.equal(typeof rec.node, 'string', `${where}: node version`);
      assert.match(rec.node, /^v\d+\./, `${where}: node version`);
      assert.ok(typeof rec.cpu === 'string' && rec.cpu.length > 0, `${where}: cpu model`);
      if (rec.impl === 'native') {
        assert.equal(rec.ratio_vs_native, undefined, `${where}: the reference has no ratio`);
      } else {
        assert.ok(Number.isFinite(rec.ratio_vs_native) && rec.ratio_vs_native > 0, `${where}: ratio_vs_native`);
      }
    }

    // Same work on every side: counts, final state and its statistics agree exactly.
    const [first] = records;
    for (const rec of records) {
      assert.equal(rec.constraints, first.constraints, `${rec.impl}: constraints`);
      assert.equal(rec.hash_after_warmup, first.hash_after_warmup, `${rec.impl}: hash after warm-up`);
      assert.equal(rec.hash_final, first.hash_final, `${rec.impl}: hash after the runs`);
      assert.equal(Math.fround(rec.max_stretch), Math.fround(first.max_stretch), `${rec.impl}: max stretch`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('bench.mjs --quick without --out writes no file', { timeout: 300_000 }, () => {
  ensureBuilt();
  const benchJson = path.join(root, 'dist', 'bench.json');
  const before = fs.statSync(benchJson, { throwIfNoEntry: false })?.mtimeMs ?? null;
  const r = run(process.execPath, ['bench/bench.mjs', '--quick', '--wasm', 'build/minipbd.wasm']);
  assert.equal(r.status, 0, `bench.mjs --quick failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stdout, /^wrote /m);
  const after = fs.statSync(benchJson, { throwIfNoEntry: false })?.mtimeMs ?? null;
  assert.equal(after, before, 'dist/bench.json untouched');
});

test('bench.mjs refuses unknown arguments', () => {
  const r = run(process.execPath, ['bench/bench.mjs', '--bogus']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown argument --bogus/);
});
