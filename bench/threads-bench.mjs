#!/usr/bin/env node
/* threads-bench.mjs -- the threads part of `make bench`: the 100k bench cloth (316 x 316, 1 substep
   x 10 passes: the cloth table's headline), the dam break of 25k particles (and of 50k: --cases fluid-scale-50k)
   and the solid piles (rigid-256, soft-20k) at 1 and 2 threads, natively (build/bench_native --threads N: one team of N started once for the
   process) and in the threaded wasm in this Node (build/minipbd_threads.wasm, helpers in worker_threads, stepping
   on this thread), next to the single-thread wasm; then each case stage by stage at 1 and 2 threads on both
   threaded builds (the step one unit a call: pbd_World_StepSlice(w, 1), pbd_World_StepStage before it names the
   unit's stage, the host clock around it), for the scaling per stage and an Amdahl estimate at 4 and 8 threads
   (report-threads.mjs). Every thread count and build must end each case on the same state hash: the bench
   prints them and fails (exit status 1) when they differ.

     node bench/threads-bench.mjs                  full run (also part of node bench/bench.mjs; ~3 minutes)
     node bench/threads-bench.mjs --quick          small sizes (cloth-20x20, the quick solids and fluid), writes nothing
   options: --out PATH (JSON records), --runs N, --cases a,b (name prefixes), --threads 1,2 (the counts; the
            stage table and speed-ups need 1 and 2), --wasm PATH, --wasm-threads PATH, --native PATH

   Records (the same fields as bench.mjs's, plus): threads (the world's thread count; the single-thread wasm has
   none), mode step or stages; stage records: stage_ms and stage_units (per step, by pbd_StageName), runs being
   the per-step sums of the stages; step records: speedup_vs_1, ratio_vs_single, ratio_vs_native (report-threads.mjs
   threadsDerive); one record of mode scaling per case and threaded build: stages (t1, t2, speedup, share,
   serial_fraction, est), estimate_ms, estimate_speedup, stops_scaling. cpu_per_wall: the process's CPU time (all
   its threads) over the wall time of the timed runs (the solids' and fluids' wasm step records: of the warm-up and
   runs together), so about 2 when two threads got two cores and about 1 when the second core was taken by other
   work: what the machine gave is next to what the code did with it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../web/js/minipbd.js';
import { runNative } from './native-run.mjs';
import { clothScene } from './scene-cases.mjs';
import { buildPlanWorld, opsText, planOps, solidCases } from './solid-cases.mjs';
import { runSolidWasm } from './solid-run.mjs';
import { fluidCases, fluidPlanOps } from './fluid-cases.mjs';
import { runFluidWasm } from './fluid-run.mjs';
import { QUALITY_FIELDS } from './report-solids.mjs';
import { STAGES, estimateLines, scaling, stageTable, threadsDerive, threadsHashCheck, threadsTable, threadsTargets } from './report-threads.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const hex = (h) => `0x${(h >>> 0).toString(16).padStart(8, '0')}`;
const load1 = () => Number(os.loadavg()[0].toFixed(2));

function median(values) {
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/**
 * The cases, in run order: the step runs as bench.mjs times them (the same warm-up, runs and steps, so the rows
 * stand next to its tables), and stages: the runs of the stage-by-stage timing, from the same warm-up.
 */
export function threadsCases(quick, { with50k = false } = {}) {
	const st = quick ? { runs: 1, steps: 2 } : { runs: 3, steps: 10 };
	const cloth = quick ? { name: 'cloth-20x20', res: 20, warmup: 3, runs: 2, steps: 2 } : { name: 'cloth-316x316', res: 316, warmup: 30, runs: 7, steps: 20 };
	// The dam break of 25k; the 50k block of the count series (the same dam break) only when --cases names it: on
	// this 2-core machine it takes about 3 minutes of the bench (170-250 ms a step, nine runs of it); --quick: one small block.
	const fluids = fluidCases(quick, { ours: [] }).filter((c) => c.mode === 'step' && (c.name.startsWith('fluid-dam-25k') || (with50k && !quick && c.name === 'fluid-scale-50k')));
	const solids = solidCases(quick, { ours: [] });
	return [{ mode: 'step', params: {}, ...cloth }, ...fluids, ...solids.reverse()].map((c) => ({ ...c, stages: st }));
}

/* ---------------------------------------------------------------- wasm */

/** The world of case c on `engine` (threaded: on its team, engine.threads threads). */
function buildWorld(engine, c) {
	return c.res ? engine.createWorld(clothScene(c.res)) : buildPlanWorld(engine, c.ops);
}

/** A cloth step record: as bench.mjs's runWasm, max stretch after the warm-up and at the end. */
function runClothWasm(engine, c, impl) {
	const world = buildWorld(engine, c);
	try {
		if (c.warmup > 0) world.step(c.warmup);
		const hashWarm = world.hash(), warm = world.stats();
		const runs = [];
		const cpu = cpuClock();
		for (let r = 0; r < c.runs; r++) {
			const t0 = performance.now();
			world.step(c.steps);
			runs.push((performance.now() - t0) / c.steps);
		}
		const passes = world.getParam('substeps') * world.getParam('iterations');
		return {
			case: c.name, impl, mode: 'step', params: {}, particles: world.particleCount, constraints: world.constraintCount, passes,
			warmup_steps: c.warmup, steps_per_run: c.steps, runs, ms_median: median(runs), ms_min: Math.min(...runs), cpu_per_wall: cpu(),
			max_stretch: warm.maxStretch, max_stretch_final: world.stats().maxStretch, hash_after_warmup: hex(hashWarm), hash_final: hex(world.hash()),
		};
	} finally {
		world.destroy();
	}
}

/** A clock of the cores this process got: cpu() gives its CPU time (every thread: the helpers are worker threads
 *  of this process) over the wall time since cpuClock() was called. */
function cpuClock() {
	const t0 = performance.now(), u0 = process.cpuUsage();
	return () => {
		const u = process.cpuUsage(u0);
		return (u.user + u.system) / 1000 / (performance.now() - t0);
	};
}

/** The stage-by-stage run of case c on `engine`: each unit timed alone and added to its stage. */
function runStagesWasm(engine, c, impl) {
	const e = engine.exports;
	const world = buildWorld(engine, c);
	try {
		if (c.warmup > 0) world.step(c.warmup);
		const hashWarm = world.hash();
		const stageMs = new Float64Array(STAGES.length + 1), stageUnits = new Float64Array(STAGES.length + 1);
		const runs = [];
		const cpu = cpuClock();
		for (let r = 0; r < c.stages.runs; r++) {
			let sum = 0;
			for (let i = 0; i < c.stages.steps; i++) {
				let left;
				do {
					const stage = e.pbd_World_StepStage(world.id);
					const t0 = performance.now();
					left = e.pbd_World_StepSlice(world.id, 1);
					const ms = performance.now() - t0;
					engine.check(left, 'step', world.id);
					stageMs[stage] += ms;
					stageUnits[stage] += 1;
					sum += ms;
				} while (left > 0);
			}
			runs.push(sum / c.stages.steps);
		}
		const cpuPerWall = cpu();
		engine.heap.refreshViews();
		const steps = c.stages.runs * c.stages.steps;
		const named = (a) => Object.fromEntries(STAGES.map((name) => [name, a[stageIndex(e, name)] / steps]));
		return {
			case: c.name, impl, mode: 'stages', warmup_steps: c.warmup, steps_per_run: c.stages.steps, runs, ms_median: median(runs), ms_min: Math.min(...runs), cpu_per_wall: cpuPerWall,
			stage_ms: named(stageMs), stage_units: named(stageUnits), hash_after_warmup: hex(hashWarm), hash_final: hex(world.hash()),
		};
	} finally {
		world.destroy();
	}
}

/** The index pbd_StageName gives `name` (read back from the engine, so a renumbering cannot mislabel a stage). */
function stageIndex(e, name) {
	for (let s = 0; s <= STAGES.length; s++) {
		const p = e.pbd_StageName(s);
		if (!p) break;
		const bytes = new Uint8Array(e.memory.buffer, p, 16);
		const text = new TextDecoder().decode(bytes.slice(0, bytes.indexOf(0)));
		if (text === name) return s;
	}
	throw new Error(`bench: the engine names no stage ${name}`);
}

function runStepWasm(engine, c, impl) {
	const cpu = c.res ? null : cpuClock(); // solids and fluids: over their warm-up and runs together (solid-run.mjs, fluid-run.mjs)
	const build = impl === 'wasm' ? 'emcc -O3 -msimd128, Node/V8' : 'clang 14 -matomics -msimd128, shared memory, worker_threads';
	const rec = c.solid ? runSolidWasm(engine, c, impl, build) : c.fluid ? runFluidWasm(engine, c, impl, build) : { ...runClothWasm(engine, c, impl), build };
	return { ...rec, ...(cpu ? { cpu_per_wall: cpu() } : {}), ...(c.solid ? { solid: c.solid } : {}) };
}

/* ---------------------------------------------------------------- the run */

/**
 * Runs the threads bench; returns { records, scales, hash, text } (text: the lines to print). opts: quick, runs,
 * cases (prefixes), threads (counts), wasm, wasmThreads, native (paths).
 */
export async function runThreadsBench(opts = {}) {
	const quick = !!opts.quick;
	const counts = opts.threads ?? [1, 2];
	let cases = threadsCases(quick, { with50k: !!opts.cases?.some((p) => p.startsWith('fluid-scale-50k')) }).map((c) => ({ ...c, runs: opts.runs ?? c.runs }));
	if (opts.cases) cases = cases.filter((c) => opts.cases.some((p) => c.name.startsWith(p)));
	const paths = {
		wasm: opts.wasm ?? path.join(root, 'dist', 'minipbd.wasm'),
		wasmThreads: opts.wasmThreads ?? path.join(root, 'dist', 'minipbd_threads.wasm'),
		native: opts.native ?? path.join(root, 'build', 'bench_native'),
	};
	if (cases.length === 0) return { records: [], scales: [], hash: { ok: true, lines: [] }, text: ['threads bench: no case matches --cases'] };
	for (const [what, file] of Object.entries(paths)) if (!fs.existsSync(file)) throw new Error(`bench: ${file} (${what}) is missing: run make dist build/bench_native`);
	const text = [`threads bench${quick ? ' (quick)' : ''}: ${os.cpus().length} cpus, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the start; threads ${counts.join(', ')}`];
	const single = await loadMiniPBD(fs.readFileSync(paths.wasm));
	const threaded = await loadMiniPBD(fs.readFileSync(paths.wasmThreads), { threads: Math.max(...counts) });
	if (!threaded.threaded) throw new Error(`bench: ${paths.wasmThreads} is not the threaded build`);
	const native = { file: path.relative(root, paths.native), build: 'gcc -O3 -march=native, pthreads' };
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-threads-'));
	const records = [];
	const t0 = performance.now();
	try {
		for (const c of cases.filter((x) => x.solid || x.fluid)) {
			c.ops = c.fluid ? fluidPlanOps(c.plan) : planOps(single, c.plan);
			c.worldFile = path.join(dir, `${c.name.replace(/[^A-Za-z0-9-]/g, '_')}.plan`);
			fs.writeFileSync(c.worldFile, opsText(c.ops));
		}
		for (const c of cases) {
			const kind = { ...(c.solid ? { solid: c.solid } : {}), ...(c.fluid ? { fluid: true } : {}) };
			// Natively: one process per thread count, its team started once, the step runs then the stage runs.
			for (const n of counts) {
				const stageCase = { ...c, mode: 'stages', runs: c.stages.runs, steps: c.stages.steps };
				for (const rec of runNative(root, 'native', native, [c, stageCase], ['--threads', String(n)])) {
					records.push({ ...rec, ...kind, threads: n, load_1min: load1() });
				}
			}
			records.push({ ...runStepWasm(single, c, 'wasm'), load_1min: load1() });
			for (const n of counts) {
				threaded.threads = n;
				records.push({ ...runStepWasm(threaded, c, 'wasm-threads'), ...kind, threads: n, load_1min: load1() });
				records.push({ ...runStagesWasm(threaded, c, 'wasm-threads'), ...kind, threads: n, load_1min: load1() });
			}
		}
	} finally {
		threaded.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
	// Native solid records: the quality of the wasm record they share the state hash with (the same state to the bit).
	for (const r of records.filter((x) => x.solid && x.impl === 'native' && x.mode === 'step')) {
		const w = records.find((x) => x.case === r.case && x.impl === 'wasm' && x.hash_final === r.hash_final);
		if (w) for (const f of QUALITY_FIELDS) if (w[f] !== undefined) r[f] = w[f];
		if (w) r.quality_from = 'wasm (same state hash)';
	}
	for (const r of records) Object.assign(r, { threads_bench: true, node: process.version });
	threadsDerive(records);
	const hash = threadsHashCheck(records);
	const scales = scaling(records);
	for (const s of scales) records.push({ ...s, mode: 'scaling', threads_bench: true });
	const steps = records.filter((r) => r.mode === 'step');
	text.push('', threadsTable(steps), '', stageTable(scales), '', ...estimateLines(scales), '', ...hash.lines,
		hash.ok ? 'threads hash check: PASS (every thread count and build did bit-identical work)'
			: 'threads hash check: FAIL -- thread counts or builds ended on different states: the threads break "same bits for any thread count"',
		'', `threads targets (${quick ? 'quick run: sizes too small to mean anything' : 'every figure from this run'}):`,
		...threadsTargets(records, cases[0]?.res ? cases[0].name : null),
		'', ...records.filter((r) => r.mode !== 'scaling').map((r) => `runs ${r.case} ${r.impl}${r.threads ? ` x${r.threads}` : ''} ${r.mode}: ${r.runs.map((x) => x.toFixed(2)).join(', ')} ms, load ${r.load_1min}`),
		`threads bench took ${((performance.now() - t0) / 1000).toFixed(0)} s, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the end`);
	return { records, scales, hash, text };
}

/* ---------------------------------------------------------------- CLI */

const USAGE = 'usage: node bench/threads-bench.mjs [--quick] [--out PATH] [--runs N] [--cases a,b] [--threads 1,2] [--wasm PATH] [--wasm-threads PATH] [--native PATH]';

function parseArgs(argv) {
	const opts = { quick: false, out: null };
	const fail = (m) => { console.error(`threads-bench: ${m}\n${USAGE}`); process.exit(2); };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const value = () => (argv[i + 1] === undefined || argv[i + 1].startsWith('--') ? fail(`${a} needs a value`) : argv[++i]);
		if (a === '--quick') opts.quick = true;
		else if (a === '--out') opts.out = value();
		else if (a === '--runs') {
			const v = value();
			if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100) fail(`--runs needs a whole number in 1..100, got ${v}`);
			opts.runs = Number(v);
		} else if (a === '--cases') opts.cases = value().split(',').filter(Boolean);
		else if (a === '--threads') {
			const v = value();
			opts.threads = v.split(',').map(Number);
			if (opts.threads.some((n) => !Number.isInteger(n) || n < 1 || n > 16)) fail(`--threads needs counts in 1..16, got ${v}`);
		} else if (a === '--wasm') opts.wasm = value();
		else if (a === '--wasm-threads') opts.wasmThreads = value();
		else if (a === '--native') opts.native = value();
		else if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
		else fail(`unknown argument ${a}`);
	}
	return opts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const opts = parseArgs(process.argv.slice(2));
	runThreadsBench(opts).then(({ records, hash, text }) => {
		console.log(text.join('\n'));
		if (opts.out) {
			fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
			fs.writeFileSync(opts.out, JSON.stringify(records, null, 2) + '\n');
			console.log(`wrote ${opts.out}`);
		}
		if (!hash.ok) process.exitCode = 1;
	}).catch((err) => {
		console.error(`threads-bench: ${err.stack ?? err}`);
		process.exit(1);
	});
}
