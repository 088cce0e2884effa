#!/usr/bin/env node
/* bench.mjs -- `make bench`: the cloth scene at ~10k and ~100k particles on the wasm
   build (in this Node process) and natively (build/bench_native, spawned), medians of
   several timed runs, the wasm/native ratio, a markdown table on stdout and the same
   figures in dist/bench.json.

     node bench/bench.mjs                 full run, writes dist/bench.json
     node bench/bench.mjs --quick         20x20 cloth, 2 runs of 2 steps, writes nothing
     node bench/bench.mjs --quick --out f also writes the records to f
   options: --out PATH, --wasm PATH (default dist/minipbd.wasm), --runs N (default 7),
            --only-wasm / --only-native (no ratio then; skips the cross-check)

   Both sides build the same scene (bench_native.c mirrors minipbd.js World.build());
   the engine is bit-identical natively and in wasm, so the state hash after the
   warm-up must be equal on every side. A mismatch means the sides did different work:
   the table is still printed but the exit status is 1.

   Record fields (dist/bench.json is an array of them): case, impl, particles,
   constraints, passes (substeps x iterations), warmup_steps, steps_per_run, runs
   (ms/step of each timed run), ms_median, proj_per_s (constraints x passes per
   second at the median), max_stretch (stats after the runs), hash_after_warmup,
   hash_final, hash_match, ratio_vs_native (ms_median / native's, on non-native
   records), node, cpu, plus compiler/target for native ones. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `usage: node bench/bench.mjs [--quick] [--out PATH] [--wasm PATH] [--runs N] [--only-wasm | --only-native]`;

function parseArgs(argv) {
	const opts = { quick: false, out: null, wasm: path.join(root, 'dist', 'minipbd.wasm'), runs: null, wasmOn: true, nativeOn: true };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const value = () => {
			const v = argv[++i];
			if (v === undefined || v.startsWith('--')) usage(`${a} needs a value`);
			return v;
		};
		if (a === '--quick') opts.quick = true;
		else if (a === '--out') opts.out = value();
		else if (a === '--wasm') opts.wasm = value();
		else if (a === '--runs') {
			const v = value();
			if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100) usage(`--runs needs a whole number in 1..100, got ${v}`);
			opts.runs = Number(v);
		} else if (a === '--only-wasm') opts.nativeOn = false;
		else if (a === '--only-native') opts.wasmOn = false;
		else if (a === '-h' || a === '--help') {
			console.log(USAGE);
			process.exit(0);
		} else usage(`unknown argument ${a}`);
	}
	if (!opts.wasmOn && !opts.nativeOn) usage('--only-wasm and --only-native exclude each other');
	if (!opts.quick && opts.out === null) opts.out = path.join(root, 'dist', 'bench.json');
	return opts;
}

function usage(message) {
	console.error(`bench: ${message}\n${USAGE}`);
	process.exit(2);
}

/* Cases: cloth resolution per side, warm-up steps, timed runs, steps per run. The
   batches are sized so each timed run lasts ~0.3-1 s on a desktop core. */
const FULL_CASES = [
	{ res: 100, warmup: 30, runs: 7, steps: 100 },
	{ res: 316, warmup: 30, runs: 7, steps: 20 },
];
const QUICK_CASES = [{ res: 20, warmup: 3, runs: 2, steps: 2 }];

/* The native binaries: the tuned one is the reference for the ratio; the portable one
   (-O2, no -march=native) is reported when it has been built. */
const NATIVE_BINARIES = [
	{ impl: 'native', file: path.join(root, 'build', 'bench_native'), required: true },
	{ impl: 'native-portable', file: path.join(root, 'build', 'bench_native_portable'), required: false },
];

/** The benchmark scene: same values as bench_native.c's BuildCloth. */
function clothScene(res) {
	return {
		format: 'minipbd-scene', version: 1,
		name: `bench cloth ${res}x${res}`,
		solver: { dt: 1 / 60, substeps: 1, iterations: 10, gravity: [0, -9.81, 0], damping: 0 },
		ground: { enabled: true, height: 0, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3 },
		objects: [{
			type: 'cloth', name: 'cloth', origin: [-1, 2.5, 0], size: [2, 2], resolution: [res, res], plane: 'xy',
			mass: 0.01, stiffness: { stretch: 1, shear: 1, bend: 0.1 }, pins: [[0, 0], [res - 1, 0]],
		}],
	};
}

const caseName = (c) => `cloth-${c.res}x${c.res}`;
const hex = (h) => `0x${(h >>> 0).toString(16).padStart(8, '0')}`;

function median(values) {
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

function cpuModel() {
	try {
		const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
		if (m) return m[1].trim();
	} catch { /* not Linux */ }
	return os.cpus()[0]?.model?.trim() || 'unknown';
}

async function runWasm(engine, c) {
	const world = engine.createWorld(clothScene(c.res));
	try {
		const s = world.scene.solver;
		const passes = s.substeps * s.iterations;
		if (c.warmup > 0) world.step(c.warmup);
		const hashWarm = world.hash();
		const runs = [];
		for (let r = 0; r < c.runs; r++) {
			const t0 = performance.now();
			world.step(c.steps);
			runs.push((performance.now() - t0) / c.steps);
		}
		const stats = world.stats();
		const ms = median(runs);
		return {
			case: caseName(c), impl: 'wasm', particles: world.particleCount, constraints: world.constraintCount, passes,
			warmup_steps: c.warmup, steps_per_run: c.steps, runs, ms_median: ms,
			proj_per_s: world.constraintCount * passes / (ms / 1000), max_stretch: stats.maxStretch,
			hash_after_warmup: hex(hashWarm), hash_final: hex(world.hash()),
		};
	} finally {
		world.destroy();
	}
}

function runNative(bin, cases) {
	const args = ['--impl', bin.impl];
	for (const c of cases) args.push(String(c.res), String(c.warmup), String(c.runs), String(c.steps));
	const r = spawnSync(bin.file, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
	if (r.error) throw new Error(`could not run ${bin.file}: ${r.error.message}`);
	if (r.status !== 0) throw new Error(`${bin.file} exited with ${r.status ?? r.signal}: ${r.stderr.trim()}`);
	const records = r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => {
		try { return JSON.parse(l); } catch { throw new Error(`${bin.file} printed a line that is not JSON: ${l.slice(0, 200)}`); }
	});
	if (records.length !== cases.length) throw new Error(`${bin.file} printed ${records.length} records for ${cases.length} cases`);
	return records;
}

const fmt = {
	int: (n) => n.toLocaleString('en-US'),
	ms: (n) => (n >= 100 ? n.toFixed(1) : n >= 10 ? n.toFixed(2) : n.toFixed(3)),
	mproj: (n) => (n / 1e6).toFixed(1),
	stretch: (n) => n.toPrecision(4),
	ratio: (n) => (n === undefined ? '—' : `${n.toFixed(2)}x`),
};

function table(records) {
	const head = ['case', 'impl', 'particles', 'constraints', 'passes', 'ms/step (median)', 'Mproj/s', 'max stretch', 'ratio vs native'];
	const rows = records.map((r) => [r.case, r.impl, fmt.int(r.particles), fmt.int(r.constraints), String(r.passes),
		fmt.ms(r.ms_median), fmt.mproj(r.proj_per_s), fmt.stretch(r.max_stretch), fmt.ratio(r.ratio_vs_native)]);
	const right = [false, false, true, true, true, true, true, true, true];
	const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
	const line = (cells) => `| ${cells.map((c, i) => (right[i] ? c.padStart(width[i]) : c.padEnd(width[i]))).join(' | ')} |`;
	const rule = `|${width.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : `:${'-'.repeat(w + 1)}`)).join('|')}|`;
	return [line(head), rule, ...rows.map(line)].join('\n');
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const cases = (opts.quick ? QUICK_CASES : FULL_CASES).map((c) => ({ ...c, runs: opts.runs ?? c.runs }));
	const env = { node: process.version, cpu: cpuModel() };
	console.log(`MiniPBD bench${opts.quick ? ' (quick)' : ''}: node ${env.node}, ${env.cpu}, ${os.cpus().length} cpus`);
	console.log(`cases: ${cases.map((c) => `${caseName(c)} (${c.warmup} warm-up steps, ${c.runs} runs of ${c.steps} steps)`).join(', ')}`);

	const records = [];
	// Native first (a child process; this one idles meanwhile), then wasm here.
	if (opts.nativeOn) {
		for (const bin of NATIVE_BINARIES) {
			if (!fs.existsSync(bin.file)) {
				if (bin.required) throw new Error(`${path.relative(root, bin.file)} is missing: run make ${path.relative(root, bin.file)}`);
				console.log(`(${bin.impl}: ${path.relative(root, bin.file)} not built; skipped)`);
				continue;
			}
			records.push(...runNative(bin, cases));
		}
	}
	if (opts.wasmOn) {
		const engine = await loadMiniPBD(fs.readFileSync(opts.wasm));
		for (const c of cases) records.push(await runWasm(engine, c));
	}

	// Cross-check and ratios, per case, against the tuned native record.
	let hashOk = true;
	const checks = [];
	for (const c of cases) {
		const mine = records.filter((r) => r.case === caseName(c));
		const ref = mine.find((r) => r.impl === 'native') ?? mine[0];
		for (const r of mine) {
			r.hash_match = r.hash_after_warmup === ref.hash_after_warmup && r.hash_final === ref.hash_final;
			hashOk &&= r.hash_match;
			if (r.impl !== 'native' && ref.impl === 'native') r.ratio_vs_native = r.ms_median / ref.ms_median;
			Object.assign(r, env);
		}
		const same = mine.every((r) => r.hash_match);
		const verdict = mine.length < 2 ? 'nothing to compare' : same ? 'SAME' : 'DIFFERENT';
		checks.push(`${caseName(c)}: ${mine.map((r) => `${r.impl} ${r.hash_after_warmup}`).join(', ')} after warm-up -> ${verdict}`);
	}
	const compared = opts.wasmOn && opts.nativeOn;

	console.log('');
	console.log(table(records));
	console.log('');
	for (const line of checks) console.log(`hash check ${line}`);
	console.log(compared
		? `hash check: ${hashOk ? 'PASS (native and wasm did bit-identical work)' : 'FAIL (the implementations did different work: ratios are meaningless)'}`
		: 'hash check: skipped (only one implementation ran)');
	// The machine may be shared: show each record's spread so a noisy run is visible.
	for (const r of records) {
		const lo = Math.min(...r.runs), hi = Math.max(...r.runs);
		const spread = (hi - lo) / r.ms_median;
		console.log(`runs ${r.case} ${r.impl}: ${fmt.ms(lo)}..${fmt.ms(hi)} ms/step over ${r.runs.length} runs` +
			(spread > 0.1 && r.runs.length > 2 ? ` (spread ${(100 * spread).toFixed(0)}%: noisy, rerun on an idle machine)` : ''));
	}
	for (const r of records.filter((x) => x.ratio_vs_native !== undefined)) {
		console.log(`${r.case}: ${r.impl} takes ${r.ratio_vs_native.toFixed(2)}x the time of native (median of ${r.runs.length} runs)`);
	}

	if (opts.out) {
		fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
		fs.writeFileSync(opts.out, JSON.stringify(records, null, 2) + '\n');
		console.log(`wrote ${path.relative(process.cwd(), path.resolve(opts.out)) || opts.out}`);
	}
	if (compared && !hashOk) process.exitCode = 1;
}

main().catch((err) => {
	console.error(`bench: ${err.stack ?? err}`);
	process.exit(1);
});
