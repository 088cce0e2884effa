// The threads bench (bench/threads-bench.mjs, part of `make bench`) in its --quick mode: the cloth,
// the dam break and the solid piles at small sizes, at 1 and 2 threads natively (bench_native --threads N) and in
// the threaded wasm (worker_threads), beside the single-thread wasm, then stage by stage. Checks the records'
// structure, that every thread count and build ends on the same state hash (the bench's own check, and again here
// from the records), and that the per-stage figures add up (the stages' ms are the step's, the Amdahl estimate is
// the formula's). No timing assertion: only that the figures exist, are finite and relate as defined.
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CASES = ['cloth-20x20', 'fluid-dam-25k/216', 'rigid-256/4-boxes', 'soft-20k/2-cubes'];
const STAGES = ['start', 'predict', 'contacts', 'solve', 'update', 'velocities', 'commit', 'end'];

function cleanEnv() {
  const env = { ...process.env };
  for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES']) delete env[k];
  return env;
}
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: cleanEnv(), maxBuffer: 1 << 24 });
const finite = (v) => typeof v === 'number' && Number.isFinite(v);
const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

test('threads-bench.mjs --quick: 1 and 2 threads, native and wasm, the same hash on every one, the stages add up', { timeout: 300_000 }, () => {
  const built = run('make', ['-s', 'build/bench_native', 'build/minipbd.wasm', 'build/minipbd_threads.wasm']);
  assert.equal(built.status, 0, `make failed:\n${built.stdout}\n${built.stderr}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-threads-'));
  try {
    const out = path.join(dir, 'threads.json');
    const r = run(process.execPath, ['bench/threads-bench.mjs', '--quick', '--out', out, '--wasm', 'build/minipbd.wasm',
      '--wasm-threads', 'build/minipbd_threads.wasm']);
    assert.equal(r.status, 0, `threads-bench.mjs failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^threads bench \(quick\): \d+ cpus, load [\d.]+ [\d.]+ [\d.]+ at the start/m, 'the load average is printed');
    assert.match(r.stdout, /^threads hash check: PASS/m);
    assert.match(r.stdout, /^\| case +\| build +\| threads +\| ms\/step \(median\) +\| \(min\) +\| cores used +\| speed-up vs 1 thread /m, 'the threads table');
    assert.match(r.stdout, /^\| case +\| build +\| stage +\| units\/step +\| ms\/step 1 thread +\| 2 threads +\| speed-up +\| share +\| serial f +\| est\. 4 +\| est\. 8 +\|$/m, 'the stage table');
    for (const c of CASES) assert.match(r.stdout, new RegExp(`^hash ${c.replace(/[/.]/g, '\\$&')}: equal on 3 builds at threads 1, 2:`, 'm'), `${c}: hash line`);
    assert.match(r.stdout, /^estimate cloth-20x20 native: .* stops scaling: (start|predict|contacts|solve|update|velocities|commit|end) /m);

    const records = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.ok(records.every((x) => x.threads_bench === true), 'every record is marked');
    for (const c of CASES) {
      const mine = records.filter((x) => x.case === c && x.mode !== 'scaling');
      // native x1, x2 and wasm-threads x1, x2 (step and stages), the single-thread wasm (step): 9 records.
      const key = (x) => `${x.impl}/${x.threads ?? '-'}/${x.mode}`;
      assert.deepEqual(mine.map(key).sort(), ['native/1/stages', 'native/1/step', 'native/2/stages', 'native/2/step', 'wasm-threads/1/stages',
        'wasm-threads/1/step', 'wasm-threads/2/stages', 'wasm-threads/2/step', 'wasm/-/step'], `${c}: its records`);
      // Same bits for any thread count and build: one warm-up hash, one final hash per mode (the same steps).
      assert.equal(new Set(mine.map((x) => x.hash_after_warmup)).size, 1, `${c}: warm-up hashes ${mine.map((x) => x.hash_after_warmup)}`);
      for (const mode of ['step', 'stages']) {
        const finals = new Set(mine.filter((x) => x.mode === mode).map((x) => x.hash_final));
        assert.equal(finals.size, 1, `${c} ${mode}: final hashes ${[...finals]}`);
      }
      for (const x of mine) {
        const where = `${c} ${key(x)}`;
        assert.match(x.hash_final, /^0x[0-9a-f]{8}$/, `${where}: hash`);
        assert.equal(x.hash_match, true, `${where}: hash_match`);
        assert.ok(finite(x.ms_median) && x.ms_median > 0 && x.ms_min > 0 && x.ms_min <= x.ms_median, `${where}: ms ${x.ms_median} / ${x.ms_min}`);
        assert.ok(Array.isArray(x.runs) && x.runs.length >= 1 && x.runs.every((v) => finite(v) && v > 0), `${where}: runs`);
        assert.ok(finite(x.load_1min), `${where}: load`);
        assert.ok(finite(x.cpu_per_wall) && x.cpu_per_wall >= 0, `${where}: cores used ${x.cpu_per_wall}`);
        if (x.mode === 'stages') {
          assert.deepEqual(Object.keys(x.stage_ms).sort(), [...STAGES].sort(), `${where}: every stage timed`);
          const sum = STAGES.reduce((s, k) => s + x.stage_ms[k], 0);
          const mean = x.runs.reduce((s, v) => s + v, 0) / x.runs.length;
          // The stages' ms per step add up to the step (the runs are per-step sums of the units; native adds the loop).
          assert.ok(sum <= mean * 1.0001 && sum >= 0.5 * mean, `${where}: stages ${sum} vs step ${mean}`);
          // The step's start is cut too (world/step.c: a unit per family with a start hook, more for a fluid's emit
          // and sort): a whole number of units, at least one a step.
          assert.ok(Number.isInteger(x.stage_units.start) && x.stage_units.start >= 1, `${where}: start units ${x.stage_units.start} a step`);
          assert.equal(x.stage_units.predict, x.stage_units.commit, `${where}: a predict and a commit per substep`);
          assert.ok(x.stage_units.solve >= x.stage_units.predict, `${where}: at least a pass a substep`);
        }
      }
      // Quality next to every step time, equal where the state is.
      const steps = mine.filter((x) => x.mode === 'step');
      const q = c.startsWith('cloth') ? 'max_stretch_final' : c.startsWith('fluid') ? 'density_error' : c.startsWith('rigid') ? 'max_shape_error' : 'volume_error_max';
      for (const x of steps) assert.ok(finite(x[q]), `${c} ${key(x)}: ${q} = ${x[q]}`);
      assert.equal(new Set(steps.map((x) => Math.fround(x[q]))).size, 1, `${c}: one ${q} for one state`);
      const two = steps.filter((x) => x.threads === 2);
      for (const x of two) assert.ok(finite(x.speedup_vs_1) && x.speedup_vs_1 > 0, `${c} ${key(x)}: speedup_vs_1`);
      for (const x of steps.filter((y) => y.impl === 'wasm-threads')) assert.ok(finite(x.ratio_vs_single) && finite(x.ratio_vs_native), `${c}: ratios`);

      // The scaling record of each threaded build: Amdahl's serial fraction and estimate, as defined.
      for (const impl of ['native', 'wasm-threads']) {
        const s = records.find((x) => x.case === c && x.impl === impl && x.mode === 'scaling');
        assert.ok(s, `${c} ${impl}: a scaling record`);
        assert.deepEqual(s.stages.map((x) => x.stage), STAGES, `${c} ${impl}: every stage in step order`);
        let est4 = 0;
        for (const x of s.stages) {
          assert.ok(x.serial_fraction >= 0 && x.serial_fraction <= 1, `${c} ${impl} ${x.stage}: f in [0, 1]`);
          if (x.t2 > 0 && x.t1 / x.t2 >= 1 && x.t1 / x.t2 <= 2) assert.ok(close(x.serial_fraction, 2 * x.t2 / x.t1 - 1), `${c} ${impl} ${x.stage}: f = 2/S2 - 1`);
          assert.ok(close(x.est[4], x.t1 * (x.serial_fraction + (1 - x.serial_fraction) / 4)), `${c} ${impl} ${x.stage}: estimate at 4`);
          est4 += x.est[4];
        }
        assert.ok(close(s.estimate_ms[4], est4), `${c} ${impl}: the step's estimate is the stages' sum`);
        assert.ok(s.estimate_ms[8] <= s.estimate_ms[4] * (1 + 1e-12) && s.estimate_ms[4] <= s.ms_1 * (1 + 1e-12), `${c} ${impl}: more threads, no slower`);
        assert.ok(STAGES.includes(s.stops_scaling), `${c} ${impl}: stops_scaling names a stage`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('threads-bench.mjs refuses a bad thread count', () => {
  const r = run(process.execPath, ['bench/threads-bench.mjs', '--threads', '1,0']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--threads needs counts in 1\.\.16, got 1,0/);
});
