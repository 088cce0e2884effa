// The fluid benchmark (bench/fluid-cases.mjs, fluid-run.mjs, peer-pbf.mjs, report-fluids.mjs): the density measure
// against its closed form on a lattice, the plain-JS PBF peer's physics (momentum kept, the unilateral density
// constraint leaves a sparse lattice alone), and bench.mjs --quick --cases fluid: records of every case on our
// builds and the peer, the same bits natively and in wasm, the bench's density measure equal to the engine's
// pbdFluidStats, and the native plan reader's refusals. No timing assertions.
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { densityFigures, fluidCases, fluidPlanOps, kernels } from '../../bench/fluid-cases.mjs';
import { createPeerFluid } from '../../bench/peer-pbf.mjs';
import { callsPerStep } from '../../bench/report-fluids.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function cleanEnv() {
  const env = { ...process.env };
  for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES']) delete env[k];
  return env;
}
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: cleanEnv(), maxBuffer: 1 << 24 });

/** n x n x n particles at `spacing` from `lower`, stride 4 (as the engine's positions). */
function lattice(n, spacing, lower = [0, 0, 0]) {
  const x = new Float32Array(4 * n * n * n);
  let p = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++, p++) {
    x[4 * p] = lower[0] + (i + 0.5) * spacing, x[4 * p + 1] = lower[1] + (j + 0.5) * spacing, x[4 * p + 2] = lower[2] + (k + 0.5) * spacing;
    x[4 * p + 3] = 1;
  }
  return x;
}

const D = 0.02;
const peerScene = (x0, over = {}) => ({
  x0, d: D, rho0: 1000, h: 2 * D, relaxation: 0.01, scorrK: 0.1, scorrN: 4, scorrDq: 0.2, vorticity: 0, viscosity: 0.01,
  dt: 1 / 60, substeps: 2, iterations: 2, gravity: [0, 0, 0], maxSpeed: 100, ground: 0, tank: { x: 2, z: 2, h: 2 }, ...over,
});

test('densityFigures: an interior particle of a rest lattice has rho0 (the fitted Poly6), h = 2d and 3d', () => {
  for (const h of [2 * D, 3 * D]) {
    const k = kernels(h, D);
    // At 2d: within r < 2d of a lattice point, itself, 6 at d, 12 at d sqrt 2, 8 at d sqrt 3 (the 6 at 2d are not < h).
    if (h === 2 * D) {
      const q = (r2) => (h * h - r2) ** 3;
      const sum = q(0) + 6 * q(D * D) + 12 * q(2 * D * D) + 8 * q(3 * D * D);
      assert.ok(Math.abs(k.poly6 * D ** 3 * sum - 1) < 1e-12, 'the constant makes the sum 1');
      // ... which is the continuous constant 315 / (64 pi h^9) with the lattice's 1.0% taken out
      const ratio = (315 / (64 * Math.PI * h ** 9)) / k.poly6;
      assert.ok(ratio > 1.005 && ratio < 1.015, `continuous / fitted ${ratio}`);
    }
    const f = densityFigures(lattice(7, D, [1, 1, 1]), 4, 0, 343, h, D);
    assert.ok(Math.abs(f.maxDensity - 1) < 2e-5, `h = ${h}: max ${f.maxDensity} (the interior; positions in float32)`);
    // Every other particle has fewer neighbours: no compression anywhere, the mean below 1.
    assert.ok(f.densityError < 2e-5, `h = ${h}: error ${f.densityError}`);
    assert.ok(f.meanDensity < 1);
  }
  // On the ground: the wall counts as the lattice continued through it, so the bottom layer (phi = d / 2) of a
  // block resting on it has rho0 too, the densest particle still exactly 1; without the wall it is short.
  const ground = [{ n: [0, 1, 0], c: 0 }];
  const x = lattice(7, D, [1, 0, 1]);
  const onGround = densityFigures(x, 4, 0, 343, 2 * D, D, ground);
  assert.ok(Math.abs(onGround.maxDensity - 1) < 2e-5 && onGround.densityError < 2e-5, `on the ground: ${JSON.stringify(onGround)}`);
  const noWall = densityFigures(x, 4, 0, 343, 2 * D, D);
  assert.ok(onGround.meanDensity - noWall.meanDensity > 0.02, `the wall fills the bottom layers: ${onGround.meanDensity} vs ${noWall.meanDensity}`);
  // A lattice sparser than h: no particle within h of another, each density its own m W(0) / rho0.
  const k = kernels(2 * D, D);
  const sparse = densityFigures(lattice(3, 2.5 * D, [1, 1, 1]), 4, 0, 27, 2 * D, D);
  assert.ok(Math.abs(sparse.maxDensity - D ** 3 * k.poly6 * (2 * D) ** 6) < 1e-9);
});

test('peer PBF: a compressed block in free space spreads and keeps its momentum (gravity and vorticity off)', () => {
  const peer = createPeerFluid(peerScene(lattice(6, 0.8 * D, [0.9, 0.9, 0.9])));
  const x0 = Float32Array.from(peer.positions);
  for (let s = 0; s < 5; s++) peer.step();
  const x = peer.positions;
  // Momentum: every pair's correction and viscosity terms are equal and opposite, so the centre of mass stays.
  const n = peer.particles;
  let moved = 0;
  const c0 = [0, 0, 0], c = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) c0[a] += x0[3 * i + a] / n, c[a] += x[3 * i + a] / n;
    moved = Math.max(moved, Math.hypot(x[3 * i] - x0[3 * i], x[3 * i + 1] - x0[3 * i + 1], x[3 * i + 2] - x0[3 * i + 2]));
  }
  assert.ok(moved > 0.1 * D, `the compressed block pushes itself apart (moved ${moved})`);
  for (let a = 0; a < 3; a++) assert.ok(Math.abs(c[a] - c0[a]) < 1e-5, `centre of mass axis ${a}: ${c0[a]} -> ${c[a]}`);
  const before = densityFigures(lattice(6, 0.8 * D, [0.9, 0.9, 0.9]), 4, 0, n, 2 * D, D);
  const after = densityFigures(x, 3, 0, n, 2 * D, D);
  assert.ok(after.densityError < before.densityError, `the solve lowers the compression: ${before.densityError} -> ${after.densityError}`);
});

test('peer PBF: the unilateral constraint leaves a lattice sparser than rest alone (seed 002 pitfalls)', () => {
  // At spacing 1.3 d every density is below rho0: C = max(rho / rho0 - 1, 0) = 0, no lambda, no correction; no
  // velocity, so XSPH has nothing to smooth: the positions stay to the bit.
  const x0 = lattice(4, 1.3 * D, [0.5, 0.5, 0.5]);
  const f = densityFigures(x0, 4, 0, 64, 2 * D, D);
  assert.ok(f.maxDensity < 1, `sparse: max density ${f.maxDensity}`);
  const peer = createPeerFluid(peerScene(x0, { scorrK: 0 }));
  const start = Float32Array.from(peer.positions);
  for (let s = 0; s < 3; s++) peer.step();
  assert.deepEqual(Array.from(peer.positions), Array.from(start));
});

test('fluid cases: the dam breaks hold the counts they are named for; calls per step follow the split', () => {
  const cases = fluidCases(false, { ours: ['native', 'wasm'] });
  const count = (name) => cases.find((c) => c.name === name).plan.count;
  assert.equal(count('fluid-dam-8k'), 8000);
  assert.ok(count('fluid-dam-25k') >= 25000);
  assert.equal(count('fluid-scale-100k'), 100000);
  for (const c of cases) {
    const ops = fluidPlanOps(c.plan);
    assert.equal(ops[0][0], 'create');
    const caps = Object.fromEntries(Array.from({ length: (ops[0].length - 1) / 2 }, (_, k) => ops[0].slice(1 + 2 * k, 3 + 2 * k)));
    assert.equal(caps.particles, c.plan.count, `${c.name}: particles = the block`);
    assert.equal(caps.fluidParticles, c.plan.count, `${c.name}: fluidParticles = the block`);
    assert.deepEqual(ops.filter((o) => o[0] === 'param').map((o) => o.slice(1, 3)).slice(0, 2), [['substeps', 2], ['iterations', 2]]);
  }
  assert.equal(callsPerStep('density', 2, 2), 4);
  assert.equal(callsPerStep('correct', 3, 2), 6);
  assert.equal(callsPerStep('neighbours', 2, 4), 2);
  assert.equal(callsPerStep('viscosity', 2, 4), 2);
});

test('bench.mjs --quick --cases fluid: every case on native, wasm and the peer, same bits, the engine\'s density measured alike', { timeout: 300_000 }, () => {
  const made = run('make', ['-s', 'build/bench_native', 'build/minipbd.wasm']);
  assert.equal(made.status, 0, `make failed:\n${made.stdout}\n${made.stderr}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-bench-fluid-'));
  try {
    const out = path.join(dir, 'bench.json');
    const r = run(process.execPath, ['bench/bench.mjs', '--quick', '--cases', 'fluid', '--impls', 'native,wasm,js', '--out', out, '--wasm', 'build/minipbd.wasm']);
    assert.equal(r.status, 0, `bench.mjs failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^hash check: PASS/m);
    assert.match(r.stdout, /^\| case +\| impl +\| particles +\| substeps x iters +\| ms\/step \(median\)/m, 'the fluid table is printed');
    const records = JSON.parse(fs.readFileSync(out, 'utf8'));
    const cases = fluidCases(true, { ours: ['native', 'wasm'] });
    for (const c of cases) {
      for (const impl of c.impls) {
        const rec = records.find((x) => x.case === c.name && x.impl === impl);
        const where = `${c.name}/${impl}`;
        if (!rec) {
          // Only a part the engine refuses may be missing, and the run says so.
          assert.equal(c.mode, 'part', `${where}: a record`);
          assert.match(r.stdout, new RegExp(`^\\(${impl} ${c.name.replace(/[/]/g, '\\/')}: skipped: `, 'm'), `${where}: a skipped note`);
          continue;
        }
        assert.equal(rec.fluid, true, where);
        assert.equal(rec.particles, 216, `${where}: 6 x 6 x 6`);
        assert.equal(rec.passes, 4, `${where}: 2 substeps x 2 iterations`);
        assert.equal(rec.substeps, 2, where);
        assert.ok(rec.runs.length === 2 && rec.runs.every((ms) => Number.isFinite(ms) && ms > 0), `${where}: runs`);
        assert.ok('density_error' in rec && 'max_density' in rec && 'density_error_warmup' in rec, `${where}: density fields`);
        if (impl === 'js') {
          assert.ok(Number.isFinite(rec.density_error) && rec.density_error >= 0 && rec.max_density > 0, `${where}: its density measured`);
          assert.ok(rec.wasm_speedup > 0, `${where}: wasm_speedup`);
        } else {
          assert.equal(rec.hash_match, true, `${where}: same bits as native`);
        }
        if (impl === 'wasm' && rec.density_error !== null) {
          // The bench's densityFigures measures what pbd_World_GetFluidStats does, on the same positions.
          assert.ok(Math.abs(rec.check_density_error - rec.density_error) < 1e-5, `${where}: ${rec.check_density_error} vs ${rec.density_error}`);
          assert.ok(Math.abs(rec.check_max_density - rec.max_density) < 1e-5 * rec.max_density, `${where}: max density`);
        }
        if (c.mode === 'part') assert.equal(rec.calls_per_step, callsPerStep(c.partName, 2, 2), `${where}: calls per step`);
      }
    }
    // Native and wasm records of a case carry the same density figures (the same state).
    for (const c of cases) {
      const n = records.find((x) => x.case === c.name && x.impl === 'native'), w = records.find((x) => x.case === c.name && x.impl === 'wasm');
      if (n && w && w.density_error !== null) assert.equal(Math.fround(n.density_error), Math.fround(w.density_error), `${c.name}: density error`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('bench_native refuses a bad fluid plan line, naming it', () => {
  const made = run('make', ['-s', 'build/bench_native']);
  assert.equal(made.status, 0, made.stderr);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-plan-'));
  try {
    const create = 'create particles 64 attachments 16 objects 1 colliders 4 fluidParticles 64';
    for (const [text, status, message] of [
      [`${create}\nfluid 0 0 0 0.1 0.1\n`, 2, /line 2: fluid takes 10 numbers/],
      [`${create} 7\n`, 2, /line 1: create takes capacity names and values/],
      [`${create} bogus 7\n`, 2, /line 1: not a capacity of minipbd.h PBD_CAPACITIES/],
      // the engine's own refusal: a block whose upper corner is below its lower one
      [`${create}\nfluid 0 0 0 -0.1 0.1 0.1 0 0 0 0\n`, 1, /line 2 refused: .*upper corner is below/],
    ]) {
      const file = path.join(dir, 'case.plan');
      fs.writeFileSync(file, text);
      const r = run(path.join(root, 'build', 'bench_native'), [`name=x,world=${file},warmup=0,runs=1,steps=1`]);
      assert.equal(r.status, status, `${JSON.stringify(text)}: exit status (${r.stderr})`);
      assert.match(r.stderr, message, `${JSON.stringify(text)}: message`);
    }
    const r = run(path.join(root, 'build', 'bench_native'), ['res=4,mode=part,part=9']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /part must be a whole number in \[0, 5\]/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// bench/ab.mjs --fluid (docs/benchmarks.md "Fluids"): one build against itself on the 216-particle dam break at 2 x 4.
// The same build ends on the same state; its density figures are the engine's own for that world stepped the same
// 30 + runs x steps steps in this process; a size or split it does not know is refused by name.
test('ab.mjs --fluid: the same build ends alike, its density figures are the engine\'s, a bad spec is named', async () => {
  const dist = path.join(root, 'dist');
  const r = run(process.execPath, ['bench/ab.mjs', '--dist-a', dist, '--dist-b', dist, '--fluid', '216@2x4', '--runs', '2', '--steps', '3']);
  assert.equal(r.status, 0, r.stderr);
  const row = r.stdout.split('\n').find((l) => l.startsWith('| wasm | fluid-dam-216 2x4 |'));
  assert.ok(row, r.stdout);
  const m = row.match(/\| same; density error ([0-9.]+) \/ ([0-9.]+), densest ([0-9.]+) \/ ([0-9.]+)/);
  assert.ok(m, row);
  assert.equal(m[1], m[2]);
  assert.equal(m[3], m[4]);
  const { loadMiniPBD } = await import('../../web/js/minipbd.js');
  const { BLOCKS, damPlan, buildFluidWorld, fluidStats } = await import('../../bench/fluid-cases.mjs');
  const engine = await loadMiniPBD(fs.readFileSync(path.join(dist, 'minipbd.wasm')));
  const plan = damPlan(BLOCKS['216'], 0.02);
  plan.params = plan.params.map(([k, v]) => [k, k === 'substeps' ? 2 : k === 'iterations' ? 4 : v]);
  const world = buildFluidWorld(engine, fluidPlanOps(plan));
  for (let s = 0; s < 30 + 2 * 3; s++) engine.exports.pbd_World_Step(world.id);
  const st = fluidStats(engine, world);
  world.destroy();
  assert.equal(m[1], st.densityError.toFixed(4));
  assert.equal(m[3], st.maxDensity.toFixed(3));
  for (const [spec, says] of [['3k', "no dam break of size '3k'"], ['8k@2by4', 'the split is SUBSTEPSxPASSES']]) {
    const bad = run(process.execPath, ['bench/ab.mjs', '--dist-a', dist, '--dist-b', dist, '--fluid', spec, '--runs', '1', '--steps', '1']);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, new RegExp(says.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
});
