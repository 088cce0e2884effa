// cli.test.mjs — minipbd-run's data out (docs/cli.md): CSV that a strict parser reads, its columns for a cloth and for a
// fluid, one row per sample, time = step x dt, --track equal to the same run in process, --digits rounding, --set
// and scene files checked with the validator's words, progress on stderr only. (engine.test.mjs and the
// fluid/replay/solids/threads tests cover the JSON summary, links, replays, OBJ models and threads.)

import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, loadBuiltinScene } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'tools', 'minipbd-run.mjs');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

function run(...args) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120000 });
}

function ok(...args) {
  const r = run(...args);
  assert.equal(r.status, 0, r.stderr);
  return r;
}

/** RFC 4180, strictly: "\n"-ended records, every record as wide as the header, quotes only around a whole field,
 *  every unquoted field a number or empty (what a spreadsheet reads as numbers). Throws on anything else. */
function parseCsv(text) {
  assert.ok(text.endsWith('\n'), 'the last record ends with a newline');
  const records = [];
  let field = '', record = [], i = 0, quoted = false;
  const end = () => { record.push(field); field = ''; };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; assert.ok(/[,\n]/.test(text[i]), `a closing quote ends its field (at ${i})`); continue; }
      field += c; i++; continue;
    }
    if (c === '"') { assert.equal(field, '', `a quote only opens a field (at ${i})`); quoted = true; i++; continue; }
    if (c === ',') { end(); i++; continue; }
    if (c === '\n') { end(); records.push(record); record = []; i++; continue; }
    assert.notEqual(c, '\r', 'no CR');
    field += c; i++;
  }
  assert.equal(quoted, false, 'no open quote at the end');
  const [header, ...rows] = records;
  for (const [k, r] of rows.entries()) {
    assert.equal(r.length, header.length, `row ${k} has as many fields as the header`);
    for (const f of r) assert.ok(f === '' || /^-?\d+(\.\d+)?(e[-+]\d+)?$/.test(f), `row ${k}: ${JSON.stringify(f)} is a number`);
  }
  return { header, rows: rows.map((r) => Object.fromEntries(r.map((f, j) => [header[j], f === '' ? null : Number(f)]))) };
}

const STATS = ['stepMs', 'kineticEnergy', 'potentialEnergy', 'maxError', 'meanError', 'maxStretch'];
const AXES = ['x', 'y', 'z', 'vx', 'vy', 'vz'];

test('csv: a cloth\'s header and rows; time = step x dt; --track equals the same run in process; the summary on stderr', async () => {
  const r = ok('builtin:chain', '--steps', '30', '--every', '10', '--format', 'csv', '--track', '12,last', '--digits', 'full');
  const { header, rows } = parseCsv(r.stdout);
  assert.deepEqual(header, ['step', 'time', ...STATS, ...['p12', 'p25'].flatMap((p) => AXES.map((a) => `${p}.${a}`))]);
  assert.deepEqual(rows.map((row) => row.step), [0, 10, 20, 30], 'step 0 and one row per --every');
  const world = pbd.createWorld(await loadBuiltinScene('chain'));
  const dt = world.getParam('dt');
  assert.notEqual(dt, 1 / 60, 'dt is the float32 nearest 1/60: the time column uses it');
  assert.equal(rows[0].stepMs, null, 'nothing was stepped before step 0');
  for (const row of rows) {
    assert.equal(row.time, row.step * dt, `time at step ${row.step}`);
    if (row.step > 0) { world.step(10); assert.ok(row.stepMs > 0); }
    const x = world.positions, v = world.velocities;
    for (const i of [12, 25]) {
      assert.deepEqual(AXES.map((a) => row[`p${i}.${a}`]), [x[4 * i], x[4 * i + 1], x[4 * i + 2], v[4 * i], v[4 * i + 1], v[4 * i + 2]],
        `particle ${i} at step ${row.step}`);
    }
    assert.equal(row.kineticEnergy, world.stats().kineticEnergy);
  }
  assert.ok(rows[3]['p25.y'] < rows[0]['p25.y'] - 0.1, 'the free end falls');
  const summary = JSON.parse(r.stderr);
  assert.equal(summary.hash, world.hash(), 'the summary (stderr, one JSON line) has the in-process hash');
  assert.deepEqual(summary.tracked, [12, 25]);
  world.destroy();
  // Without --every: the start and the end; the CSV run reaches the bits a plain run does.
  const plain = JSON.parse(ok('builtin:chain', '--steps', '30').stdout);
  const ends = parseCsv(ok('builtin:chain', '--steps', '30', '--format', 'csv').stdout).rows;
  assert.deepEqual(ends.map((row) => row.step), [0, 30]);
  assert.equal(JSON.parse(ok('builtin:chain', '--steps', '30', '--format', 'csv').stderr).hash, plain.hash);
});

test('csv: a cloth has the statistics\' columns alone, a fluid scene adds the water\'s; json series carry time and stepMs too', () => {
  const cloth = parseCsv(ok('builtin:cloth', '--steps', '6', '--every', '2', '--format', 'csv').stdout);
  assert.deepEqual(cloth.header, ['step', 'time', ...STATS]);
  assert.deepEqual(cloth.rows.map((row) => row.step), [0, 2, 4, 6]);
  const { header, rows } = parseCsv(ok('builtin:dam-break', '--steps', '4', '--every', '2', '--format', 'csv').stdout);
  assert.deepEqual(header, ['step', 'time', ...STATS, 'fluidParticles', 'meanDensity', 'maxDensity', 'densityError']);
  assert.equal(rows.length, 3);
  assert.ok(rows.every((row) => row.fluidParticles === 8192));
  const json = JSON.parse(ok('builtin:chain', '--steps', '4', '--every', '2', '--track', 'top').stdout);
  assert.deepEqual(json.series.map((s) => [s.step, s.time]), [[0, 0], [2, 0.0333333], [4, 0.0666667]], 'time rounded to 6 digits');
  assert.equal(json.series[0].stepMs, null);
  assert.equal(json.time, 0.0666667);
  assert.deepEqual(json.tracked, [0], 'top: the pin, the highest particle at the start (lowest index on a tie)');
  assert.deepEqual(json.series[2].track[0], { particle: 0, position: [0, 3, 0], velocity: [0, 0, 0] });
});

test('--digits: no printed float has more significant digits than asked; full gives float32 values exactly', () => {
  const digitsOf = (v) => (Number.isInteger(v) ? 0 : v.toExponential().split('e')[0].replace(/^-/, '').replace('.', '').length);
  const floats = (value, out = []) => {
    if (typeof value === 'number') out.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) floats(v, out);
    return out;
  };
  for (const [d, max] of [[[], 6], [['--digits', '3'], 3], [['--digits', '1'], 1]]) {
    const out = JSON.parse(ok('builtin:chain', '--steps', '5', '--every', '1', '--track', '25', '--positions', ...d).stdout);
    const all = floats(out).filter((v) => !Number.isInteger(v));
    assert.ok(all.length > 20, `${all.length} floats`);
    assert.ok(all.every((v) => digitsOf(v) <= max), `at most ${max} digits: ${all.find((v) => digitsOf(v) > max)}`);
  }
  const full = JSON.parse(ok('builtin:chain', '--steps', '5', '--digits', 'full').stdout);
  assert.equal(full.params.dt, Math.fround(1 / 60), 'full: the raw double of the float32');
  assert.equal(JSON.parse(ok('builtin:chain', '--steps', '5', '--digits', '0').stdout).params.dt, full.params.dt);
  assert.equal(JSON.parse(ok('builtin:chain', '--steps', '5').stdout).params.dt, 0.0166667);
  const csv = parseCsv(ok('builtin:chain', '--steps', '5', '--format', 'csv', '--digits', '2').stdout);
  assert.ok(csv.rows.flatMap((row) => Object.values(row)).every((v) => v === null || digitsOf(v) <= 2));
  assert.equal(run('builtin:chain', '--digits', '18').status, 2);
});

test('bad input exits 2 with a message naming it, before anything runs: --set ranges, unknown names, --track, scene files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-cli-'));
  const bad = path.join(dir, 'bad.json');
  fs.writeFileSync(bad, JSON.stringify({ format: 'minipbd-scene', version: 2, solver: { iterations: 500 } }));
  // Counts are the engine's: refused by the world's creation (the wasm loaded), before a step, with the same words.
  const big = path.join(dir, 'big.json');
  fs.writeFileSync(big, JSON.stringify({ format: 'minipbd-scene', version: 2, objects: [
    { type: 'cloth', origin: [0, 1, 0], size: [20, 20], resolution: [512, 512] }, { type: 'chain', start: [0, 1, 0], end: [2, 1, 0], segments: 10 }] }));
  const water = path.join(dir, 'water.json');
  fs.writeFileSync(water, JSON.stringify({ format: 'minipbd-scene', version: 2, objects: [
    { type: 'fluid', block: { lower: [0, 0, 0], upper: [0.2, 0.1, 0.1] }, capacity: 49 }] }));
  for (const [args, pattern] of [
    [['builtin:chain', '--set', 'iterations=500'], /parameter iterations must be an integer in 1\.\.200, got 500/],
    [['builtin:chain', '--set', 'dt=0.5'], /parameter dt must be a number in \[0\.0001, 0\.1\], got 0\.5/],
    [['builtin:chain', '--set', 'dt=abc'], /parameter dt must be a number in \[0\.0001, 0\.1\], got abc/],
    [['builtin:chain', '--set', 'iterationz=5'], /unknown parameter "iterationz"; known: dt, substeps, iterations/],
    [['builtin:chain', '--track', '26'], /particle 26 does not exist; this scene has 26 particles \(0\.\.25\)/],
    [['builtin:chain', '--track', 'bob'], /--track: "bob" is not a particle index/],
    [['builtin:chain', '--format', 'xml'], /--format must be json or csv/],
    [[bad], /solver\.iterations must be an integer in 1\.\.200, got 500/],
    [[big], /^minipbd-run: objects must have at most 262144 particles in total \(exceeded at objects\[1\]\), got 262155$/m],
    [[water], /^minipbd-run: objects\[0\]\.capacity must be at least the block's 250 particles \(at fluid\.spacing 0\.02\), or 0 for exactly those, got 49$/m],
    // the wasm is never read: the checks come first
    [['builtin:chain', '--set', 'iterations=0', '--wasm', '/nonexistent.wasm'], /parameter iterations must be/],
    [[bad, '--wasm', '/nonexistent.wasm'], /solver\.iterations must be/],
    [['builtin:dam-break', '--set', 'fluid.smoothingRadius=0.1', '--wasm', '/nonexistent.wasm'],
      /parameter fluid\.smoothingRadius: fluid\.smoothingRadius must be 1 to 4 times fluid\.spacing, got 0\.1 with fluid\.spacing 0\.02/],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stdout, '');
  }
  fs.rmSync(dir, { recursive: true });
});

test('progress: lines on stderr only, when asked (--progress) or on a terminal; --quiet and pipes get none; same bits', () => {
  const r = ok('builtin:chain', '--steps', '40', '--format', 'csv', '--progress', '--progress-every', '0');
  const lines = r.stderr.trim().split('\n');
  const progress = lines.filter((l) => l.startsWith('step '));
  assert.deepEqual(progress, ['step 10 / 40 (25%)', 'step 20 / 40 (50%)', 'step 30 / 40 (75%)', 'step 40 / 40 (100%)']);
  assert.ok(!/step \d+ \//.test(r.stdout), 'nothing of it on stdout');
  assert.equal(parseCsv(r.stdout).rows.length, 2);
  const quiet = ok('builtin:chain', '--steps', '40', '--format', 'csv', '--quiet');
  assert.equal(quiet.stderr.split('\n').filter((l) => l.startsWith('step ')).length, 0);
  assert.equal(ok('builtin:chain', '--steps', '40').stderr, '', 'stderr is a pipe here: no progress by default');
  assert.equal(JSON.parse(lines[lines.length - 1]).hash, JSON.parse(quiet.stderr).hash, 'stepping in chunks changes no bit');
});

test('options (util.parseArgs, strict): unknown ones and missing values refused by name, exit 2 before anything runs; --help exits 0', () => {
  const cases = [
    [['builtin:chain', '--stpes', '5'], 'unknown option --stpes'],
    [['builtin:chain', '-x'], 'unknown option -x'],
    [['builtin:chain', '--steps'], '--steps needs a whole number from 0 to 1000000'],
    [['builtin:chain', '--steps', '--every', '3'], '--steps needs a whole number from 0 to 1000000'],
    [['builtin:chain', '--steps', '2x'], '--steps needs a whole number from 0 to 1000000, got "2x"'],
    [['builtin:chain', '--track'], '--track needs a list of particles, e.g. --track 12,40 or --track last'],
    [['builtin:chain', '--quiet=yes'], '--quiet takes no value'],
    [['builtin:chain', 'builtin:cloth'], 'more than one scene given: builtin:cloth'],
    [[], 'no scene given'],
    [['builtin:chain', '--rigid'], '--rigid, --resolution and --size go with --obj'],
    [['builtin:chain', '--digits', '18'], '--digits needs a whole number from 1 to 17, or 0 or full (the raw double), got "18"'],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.split('\n')[0], `minipbd-run: ${message}`, args.join(' '));
    assert.match(r.stderr, /\nusage: minipbd-run /);
    assert.equal(r.stdout, '');
  }
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: minipbd-run <scene\.json \| link \| builtin:NAME> \[options\]\n/);
  assert.match(help.stdout, /\n {2}-h, --help {7}this text\n/);
  assert.equal(run('-h').stdout, help.stdout);
  // The same options in either spelling, and the later of --progress and --quiet wins.
  const a = JSON.parse(ok('builtin:chain', '--steps=4', '--digits=3').stdout);
  const b = JSON.parse(ok('builtin:chain', '--steps', '4', '--digits', '3').stdout);
  assert.equal(a.hash, b.hash);
  assert.equal(a.steps, 4);
  assert.equal(ok('builtin:chain', '--steps', '20', '--progress', '--progress-every', '0', '--quiet').stderr, '');
  assert.match(ok('builtin:chain', '--steps', '20', '--quiet', '--progress', '--progress-every', '0').stderr, /^step 10 \/ 20 \(50%\)\n/);
});
