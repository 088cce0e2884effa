// Smoke test for bench/bench.mjs (`make bench`): runs its --quick mode (a 20x20 cloth,
// 2 runs of 2 steps, on every implementation: our native builds and wasm (SIMD and scalar), and the peers,
// plain JS and ammo.js; the solids at their quick sizes: 2 soft cubes of 2 x 2 x 2 cells, on our builds and
// the plain-JS soft-body peer, and 4 rigid boxes) and checks the records' schema, that every implementation and
// case is there, and the hash cross-check of our builds. No timing assertions: only that
// the figures exist, are finite and positive, and agree where they must (same work on
// every one of our builds; the solids' counts from the lattice's closed forms, their quality figures
// measured by the bench equal to the engine's own).
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OURS = ['native', 'native-portable', 'native-clang', 'native-scalar', 'wasm', 'wasm-scalar'];
const PEERS = ['js', 'ammo'];
const SOFT = 'soft-20k/2-cubes', RIGID = 'rigid-256/4-boxes';
const CASES = ['cloth-20x20', 'cloth-100k/20x20', 'cloth-20x20/1-pass', 'cloth-20x20/self-off', 'cloth-20x20/self-on', 'cloth-20x20/findpairs', 'cloth-20x20/rebuild',
  SOFT, RIGID];
// A box of n x n x n Kuhn-split cells: (n + 1)^3 particles, 6 n^3 tets, and its edges: 3 n (n + 1)^2 along the
// axes, 3 n^2 (n + 1) face diagonals, n^3 main diagonals.
const lattice = (n) => ({ particles: (n + 1) ** 3, tets: 6 * n ** 3, edges: 3 * n * (n + 1) ** 2 + 3 * n * n * (n + 1) + n ** 3 });
const hasClang = spawnSync('sh', ['-c', 'command -v clang'], { encoding: 'utf8' }).status === 0;

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

// Builds (or refreshes, so the binaries and the wasm match the sources) what the bench runs:
// every native binary, since bench.mjs uses each one that exists and a stale one must not linger.
function ensureBuilt() {
  const targets = ['build/bench_native', 'build/bench_native_portable', 'build/bench_native_scalar', 'build/minipbd.wasm', 'build/minipbd_scalar.wasm',
    'build/minipbd_threads.wasm'];
  if (hasClang) targets.push('build/bench_native_clang');
  const r = run('make', ['-s', ...targets]);
  assert.equal(r.status, 0, `make failed:\n${r.stdout}\n${r.stderr}`);
  for (const t of targets) assert.ok(fs.existsSync(path.join(root, t)), `${t} was not built`);
}

const finitePositive = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

test('bench.mjs --quick: every implementation and case, well-formed records, our builds agree bit for bit', { timeout: 300_000 }, () => {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-bench-'));
  try {
    const out = path.join(dir, 'bench.json');
    const r = run(process.execPath, ['bench/bench.mjs', '--quick', '--out', out, '--wasm', 'build/minipbd.wasm']);
    assert.equal(r.status, 0, `bench.mjs --quick failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^hash check: PASS/m, 'the printed hash check passed');
    assert.match(r.stdout, /^\| case +\| impl +\| particles +\| constraints +\| passes +\| ms\/step \(median\) +\| \(min\) +\| Mproj\/s +\| max stretch +\| ratio vs native +\|$/m,
      'the markdown table header is printed');
    assert.match(r.stdout, /^targets \(/m, 'the targets summary is printed');
    assert.match(r.stdout, /^\| case +\| impl +\| bodies +\| particles +\| edges +\| tets +\| passes +\| ms\/step \(median\)/m, 'the soft table is printed');
    assert.match(r.stdout, /^\| case +\| impl +\| bodies +\| particles +\| passes +\| ms\/step \(median\) .*\| shape error \(mm\)/m, 'the rigid table is printed');
    assert.doesNotMatch(r.stdout, /^\((ammo|js)\b.*(skipped|failed)/m, 'no peer was skipped or failed');

    const all = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.ok(Array.isArray(all), 'the output is an array of records');
    // The threads part (bench/threads-bench.mjs) runs last and appends its own records: tests/node/bench_threads.test.mjs
    // checks them; here only that it ran and agreed with itself.
    assert.match(r.stdout, /^threads hash check: PASS/m, 'the threads part ran and its thread counts agree');
    assert.ok(all.some((x) => x.threads_bench && x.mode === 'scaling'), 'the threads part appended its records');
    // Where kinds meet (bench/meet-bench.mjs) runs after it, wasm only: its table, and a record per case with a figure
    // that can be checked here: the water counted under the cloth is a count of the 900, the drift a length.
    assert.match(r.stdout, /^\| case \| particles \| steps \| ms\/step \(median\) \| figures \|$/m, 'the meet table is printed');
    const meet = all.filter((x) => x.meet_bench);
    assert.deepEqual(meet.map((x) => x.case), ['water-on-cloth/set-down', 'water-on-cloth/thrown-5', 'water-on-cloth/thrown-5-2x4', 'box-on-box/10deg', 'box-on-slope/9.3deg', 'press/soft-half', 'press/soft-fifth', 'press/soft-half-tets', 'press/rigid-slab', 'bodies-on-cloth', 'tank-rest/0.1m', 'tank-rest/0.2m', 'tank-rest/0.3m',
      ...['2x4', '4x2', '8x1', '1x8', '3x3', '2x2', '1x4', '2x4-eps0.01'].map((v) => `tank-rest/0.3m-${v}`), 'knots/random']);
    for (const m of meet) assert.ok(finitePositive(m.ms_median) && m.runs.length > 0, `${m.case}: timed`);
    for (const m of meet.filter((x) => x.case.startsWith('water'))) assert.ok(m.water === 900 && Number.isInteger(m.under) && m.under <= 900, `${m.case}: ${m.under} of ${m.water}`);
    assert.equal(meet[0].under, 0, 'water set down on the cloth never gets under it (tests/c/test_fluid_sheets.c, by the bench\'s own measure)');
    assert.ok(meet.every((x) => !x.case.startsWith('box-on-box') || (Number.isFinite(x.drift_mm) && x.drift_mm >= 0)), 'the drift is a length');
    assert.ok(meet.every((x) => !x.case.startsWith('box-on-slope') || Number.isFinite(x.slid_mm)), 'the slide is a number');
    assert.ok(meet.every((x) => !x.case.startsWith('press/soft') || (x.pressed_volume > 0 && Number.isInteger(x.inverted) && x.released_volume > 0)), 'the press reads volumes');
    const rigid = meet.find((x) => x.case === 'press/rigid-slab'), onCloth = meet.find((x) => x.case === 'bodies-on-cloth');
    assert.ok(Number.isFinite(rigid.worst_mm) && rigid.worst_mm >= 0 && Number.isFinite(rigid.sank_mm), 'the rigid press reads lengths');
    assert.ok(onCloth.bodies === 2 && Number.isInteger(onCloth.through) && onCloth.through <= onCloth.bodies && onCloth.ke_worst >= onCloth.ke_median,
      'the bodies on the cloth are counted, each once');
    const records = all.filter((x) => !x.threads_bench && !x.meet_bench);
    const has = (name, impl) => records.some((x) => x.case === name && x.impl === impl);

    // Every implementation on the main case, our builds and the peers.
    for (const impl of [...OURS.filter((i) => i !== 'native-clang' || hasClang), ...PEERS]) {
      assert.ok(has('cloth-20x20', impl), `a cloth-20x20 record for ${impl}`);
    }
    // The built-in cloth-100k scene (at 20 x 20 here) on every one of our builds: they must agree bit for bit below.
    for (const impl of OURS.filter((i) => i !== 'native-clang' || hasClang)) assert.ok(has('cloth-100k/20x20', impl), `cloth-100k/20x20 ${impl}`);
    // The cases behind the solve-stage, self-collision and hash figures.
    for (const impl of ['native', 'native-scalar', 'wasm', 'wasm-scalar']) assert.ok(has('cloth-20x20/1-pass', impl), `1-pass ${impl}`);
    for (const name of ['cloth-20x20/self-off', 'cloth-20x20/self-on', 'cloth-20x20/findpairs']) {
      for (const impl of ['native', 'wasm']) assert.ok(has(name, impl), `${name} ${impl}`);
    }
    // The rebuild alone reaches an internal function: a record, or a note saying it was skipped.
    assert.ok(has('cloth-20x20/rebuild', 'native') || /^\(native cloth-20x20\/rebuild: skipped/m.test(r.stdout), 'rebuild record or note');

    // The fluid cases' records: tests/node/bench_fluid.test.mjs.
    for (const rec of records.filter((x) => !x.fluid)) {
      const where = `${rec.case}/${rec.impl}`;
      assert.ok(CASES.includes(rec.case), `${where}: a quick case`);
      assert.ok([...OURS, ...PEERS].includes(rec.impl), `${where}: a known impl`);
      assert.ok(['step', 'findpairs', 'rebuild'].includes(rec.mode), `${where}: mode`);
      for (const f of ['particles', 'passes']) assert.ok(Number.isInteger(rec[f]) && rec[f] > 0, `${where}: ${f} = ${rec[f]}`);
      if (rec.solid) {
        checkSolid(rec, where);
      } else {
        assert.equal(rec.particles, 400, `${where}: 20 x 20 particles`);
        assert.equal(rec.constraints, 2202, `${where}: stretch + shear + bend of a 20 x 20 grid`);
      }
      assert.equal(rec.passes, rec.case.endsWith('/1-pass') ? 1 : 10, `${where}: passes`);
      assert.ok(finitePositive(rec.ms_median), `${where}: ms_median = ${rec.ms_median}`);
      assert.ok(finitePositive(rec.ms_min) && rec.ms_min <= rec.ms_median, `${where}: ms_min = ${rec.ms_min}`);
      for (const f of ['max_stretch', 'max_stretch_final']) {
        assert.ok(typeof rec[f] === 'number' && Number.isFinite(rec[f]) && rec[f] >= 0, `${where}: ${f} = ${rec[f]}`);
      }
      assert.ok(Array.isArray(rec.runs) && rec.runs.length === 2, `${where}: runs holds the 2 quick runs`);
      for (const ms of rec.runs) assert.ok(finitePositive(ms), `${where}: run ${ms} is finite and positive`);
      assert.equal(typeof rec.params, 'object', `${where}: params`);
      if (rec.solid === 'rigid') {
        assert.equal(rec.proj_per_s, null, `${where}: shape matching has no projection count`);
      } else if (rec.mode === 'step') {
        // proj_per_s is derived from the median, not measured separately (a soft body: its edges and tets).
        const expected = (rec.constraints + (rec.tets ?? 0)) * rec.passes / (rec.ms_median / 1000);
        assert.ok(Math.abs(rec.proj_per_s - expected) <= 1e-6 * expected, `${where}: proj_per_s = constraints x passes / s`);
      } else {
        assert.equal(rec.proj_per_s, null, `${where}: no projections when timing the hash`);
        assert.ok(Number.isInteger(rec.calls_per_run) && rec.calls_per_run > 0, `${where}: calls_per_run`);
      }
      if (rec.mode === 'findpairs' || rec.case.endsWith('/self-on')) {
        assert.ok(Number.isInteger(rec.pairs) && rec.pairs >= 0, `${where}: pairs = ${rec.pairs}`);
      }
      assert.match(rec.node, /^v\d+\./, `${where}: node version`);
      assert.ok(typeof rec.cpu === 'string' && rec.cpu.length > 0, `${where}: cpu model`);
      assert.equal(typeof rec.build, 'string', `${where}: build`);
      if (rec.impl === 'native') {
        assert.equal(rec.ratio_vs_native, undefined, `${where}: the reference has no ratio`);
      } else if (has(rec.case, 'native')) {
        assert.ok(finitePositive(rec.ratio_vs_native), `${where}: ratio_vs_native`);
      }
      if (OURS.includes(rec.impl)) {
        assert.match(rec.hash_after_warmup, /^0x[0-9a-f]{8}$/, `${where}: hash_after_warmup`);
        assert.match(rec.hash_final, /^0x[0-9a-f]{8}$/, `${where}: hash_final`);
        assert.equal(rec.hash_match, true, `${where}: hash matches native`);
      } else {
        assert.equal(rec.hash_match, null, `${where}: peers have no hash`);
        assert.ok(finitePositive(rec.wasm_speedup), `${where}: wasm_speedup`);
        if (!rec.solid) assert.ok(Number.isFinite(rec.lowest_y), `${where}: lowest_y`);
      }
    }

    // Same work on every one of our builds: final state, its statistics and pairs agree exactly.
    for (const name of CASES) {
      const mine = records.filter((x) => x.case === name && OURS.includes(x.impl));
      for (const rec of mine) {
        assert.equal(rec.hash_after_warmup, mine[0].hash_after_warmup, `${name} ${rec.impl}: hash after warm-up`);
        assert.equal(rec.hash_final, mine[0].hash_final, `${name} ${rec.impl}: hash after the runs`);
        assert.equal(Math.fround(rec.max_stretch), Math.fround(mine[0].max_stretch), `${name} ${rec.impl}: max stretch`);
        assert.equal(rec.pairs, mine[0].pairs, `${name} ${rec.impl}: pairs`);
      }
    }
    // The peers build the same cloth: same counts (checked above) and a sane stretch.
    for (const impl of PEERS) {
      const rec = records.find((x) => x.case === 'cloth-20x20' && x.impl === impl);
      assert.ok(rec.max_stretch < 10, `${impl}: max stretch ${rec.max_stretch} of a small cloth is sane`);
    }
    // The solids: every one of our builds and, for the soft bodies, the plain-JS peer.
    for (const impl of [...OURS.filter((i) => i !== 'native-clang' || hasClang), 'js']) assert.ok(has(SOFT, impl), `${SOFT} ${impl}`);
    for (const impl of OURS.filter((i) => i !== 'native-clang' || hasClang)) assert.ok(has(RIGID, impl), `${RIGID} ${impl}`);
    // A native record has the quality of the wasm one, whose state it ended on to the bit.
    for (const name of [SOFT, RIGID]) {
      const wasm = records.find((x) => x.case === name && x.impl === 'wasm');
      for (const rec of records.filter((x) => x.case === name && x.impl.startsWith('native'))) {
        assert.match(rec.quality_from, /^wasm/, `${name} ${rec.impl}: quality_from`);
        assert.equal(rec.max_penetration, wasm.max_penetration, `${name} ${rec.impl}: the wasm record's quality`);
      }
    }
    // Derived figures exist where the twin cases ran.
    for (const impl of ['native', 'native-scalar', 'wasm']) {
      const rec = records.find((x) => x.case === 'cloth-20x20' && x.impl === impl);
      assert.ok(Number.isFinite(rec.solve_ms_est), `${impl}: solve_ms_est from the 1-pass twin`);
    }
    for (const impl of ['native', 'wasm']) {
      const rec = records.find((x) => x.case === 'cloth-20x20/self-on' && x.impl === impl);
      assert.ok(finitePositive(rec.ratio_vs_self_off), `${impl}: ratio_vs_self_off`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A solid record: its counts from the lattice's closed forms, its quality figures present and sane. */
function checkSolid(rec, where) {
  const finite = (f) => assert.ok(Number.isFinite(rec[f]) && rec[f] >= 0, `${where}: ${f} = ${rec[f]}`);
  finite('max_penetration');
  finite('max_penetration_ratio');
  if (rec.solid === 'soft') {
    const cube = lattice(2);
    assert.equal(rec.case, SOFT, `${where}: the quick soft case`);
    assert.equal(rec.bodies, 2, `${where}: 2 cubes`);
    assert.equal(rec.particles, 2 * cube.particles, `${where}: particles`);
    assert.equal(rec.constraints, 2 * cube.edges, `${where}: the tets' edges`);
    assert.equal(rec.tets, 2 * cube.tets, `${where}: 6 tets per cell`);
    for (const f of ['volume_error_mean', 'volume_error_max', 'max_edge_stretch', 'max_edge_compression']) finite(f);
    assert.ok(rec.volume_error_mean <= rec.volume_error_max, `${where}: mean <= max`);
    // Cubes dropped a few cm keep their volume (within 1% at rest) and no tet turns over.
    assert.ok(rec.volume_error_max < 0.01, `${where}: volume error ${rec.volume_error_max}`);
    assert.equal(rec.inverted_tets, 0, `${where}: inverted tets`);
    if (rec.impl !== 'js') {
      // The bench's mesh mirror (solid-cases.mjs boxLatticeMesh) measures what the engine measures.
      assert.ok(Math.abs(rec.engine_volume_error_max - rec.volume_error_max) < 1e-6, `${where}: volume error ${rec.volume_error_max} vs the engine's ${rec.engine_volume_error_max}`);
      assert.equal(rec.engine_inverted_tets, rec.inverted_tets, `${where}: inverted tets as the engine counts them`);
    }
  } else {
    assert.equal(rec.case, RIGID, `${where}: the quick rigid case`);
    assert.equal(rec.bodies, 4, `${where}: 4 boxes`);
    assert.equal(rec.particles, 4 * lattice(3).particles, `${where}: 4 x 4 x 4 particles each`);
    assert.equal(rec.constraints, 0, `${where}: no distance constraints`);
    assert.equal(rec.tets, 0, `${where}: no tets`);
    finite('max_shape_error');
    // Rigid boxes stay rigid: no particle a particle radius (1/6 of the 0.2 m box) off its goal.
    assert.ok(rec.max_shape_error < 0.2 / 6, `${where}: shape error ${rec.max_shape_error}`);
  }
}

test('bench.mjs --quick without --out writes no file', { timeout: 300_000 }, () => {
  ensureBuilt();
  const benchJson = path.join(root, 'dist', 'bench.json');
  const before = fs.statSync(benchJson, { throwIfNoEntry: false })?.mtimeMs ?? null;
  const r = run(process.execPath, ['bench/bench.mjs', '--quick', '--wasm', 'build/minipbd.wasm', '--impls', 'native,wasm,js']);
  assert.equal(r.status, 0, `bench.mjs --quick failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stdout, /^wrote /m);
  const after = fs.statSync(benchJson, { throwIfNoEntry: false })?.mtimeMs ?? null;
  assert.equal(after, before, 'dist/bench.json untouched');
});

test('bench.mjs refuses unknown arguments and implementations', () => {
  let r = run(process.execPath, ['bench/bench.mjs', '--bogus']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown argument --bogus/);
  r = run(process.execPath, ['bench/bench.mjs', '--impls', 'native,bullet']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown impl bullet/);
});

test('bench_native refuses a bad case spec', () => {
  ensureBuilt();
  for (const [spec, message] of [
    ['res=20,bogusParam=1', /not a known world parameter/],
    ['warmup=3', /needs res=N/],
    ['res=20,mode=fly', /mode must be/],
    ['res=20,runs', /not key=value/],
  ]) {
    const r = run(path.join(root, 'build', 'bench_native'), [spec]);
    assert.equal(r.status, 2, `${spec}: exit status`);
    assert.match(r.stderr, message, `${spec}: message`);
  }
});

test('bench_native refuses a bad solid plan file, naming the line', () => {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-plan-'));
  try {
    const create = 'create particles 64 constraints 1 triangles 1 lines 1 attachments 16 objects 1 colliders 1 tets 1 skinVertices 96 skinTriangles 48';
    const body = 'body 3 0 0 0.2 0 0 0 0 1 0 0 0 0.1 0.1 0.1 0.5 3 0.5 0';
    for (const [text, status, message] of [
      ['param dt 0.01\n', 2, /line 1: the first operation, and only it, must be create/],
      [`${create}\nfly 1 2\n`, 2, /line 2: unknown operation/],
      [`${create}\n${body}\n`, 2, /line 2: body takes 24 numbers/],
      [`${create}\n${body} 0 0 0 0 nan\n`, 2, /line 2: a word is not a finite number/],
      [`${create}\n${body} 0 1024 0 0 0\n`, 2, /line 2: a body with mesh arrays/],
      [`${create}\n${body} 0 0 0 0 4096\n`, 2, /line 2: a body with mesh arrays or cells/],
      [`${create}\nparam bogus 1\n`, 2, /line 2: not a world parameter/],
      // the engine's own refusal, with its message: a mass out of range
      [`${create}\n${body.replace(/ 0\.5 0$/, ' -1 0')} 0 0 0 0 0\n`, 1, /line 2 refused: .*body mass must be/],
    ]) {
      const file = path.join(dir, 'case.plan');
      fs.writeFileSync(file, text);
      const r = run(path.join(root, 'build', 'bench_native'), [`name=x,world=${file},warmup=0,runs=1,steps=1`]);
      assert.equal(r.status, status, `${JSON.stringify(text)}: exit status (${r.stderr})`);
      assert.match(r.stderr, message, `${JSON.stringify(text)}: message`);
    }
    const r = run(path.join(root, 'build', 'bench_native'), [`name=x,world=${path.join(dir, 'none.plan')}`]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot open world file/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
