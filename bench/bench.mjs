#!/usr/bin/env node
/* bench.mjs -- `make bench`: the cloth scene at ~10k and ~100k particles, the page's
   built-in cloth-100k scene at its own settings, and the solids (soft-20k, rigid-256), on the wasm
   build (in this Node process), natively (build/bench_native*, spawned) and on two peers
   in this Node process (bench/peers.mjs: the same algorithm in plain JS, and Bullet's
   soft-body cloth through ammo.js), medians of several timed runs, every ratio from the
   same run, a markdown table on stdout and the same figures in dist/bench.json.

     node bench/bench.mjs                 full run, writes dist/bench.json (about 3 minutes)
     node bench/bench.mjs --quick         20x20 cloth, 2 runs of 2 steps, writes nothing
     node bench/bench.mjs --quick --out f also writes the records to f
   options: --out PATH, --wasm PATH (default dist/minipbd.wasm), --runs N (default 7),
            --wasm-scalar PATH (default build/minipbd_scalar.wasm),
            --impls a,b (default all: native,native-portable,native-clang,native-scalar,wasm,wasm-scalar,js,ammo,threads,meet),
            --wasm-threads PATH (default: minipbd_threads.wasm beside --wasm),
            --cases a,b (run only the cases whose name starts with one of these),
            --only-wasm / --only-native (= --impls wasm / the native builds)

   threads: bench/threads-bench.mjs after everything else (its own tables: 1 and 2 threads natively and
   in the threaded wasm, the single-thread wasm beside them, the scaling per stage and the estimate for 4 and 8
   threads; its records, marked threads_bench: true, are appended to dist/bench.json; a hash that differs between
   thread counts makes the exit status 1). --impls threads runs it alone; --cases filters its cases too.

   meet: bench/meet-bench.mjs last (issue 22 item 8): the scenes where kinds of object meet (water on a cloth, a box
   on a box, a resting tank, fast drags of the built-in cloth), wasm, each time with the figure a person would see
   beside it (leaks, drift, rms speed and density, knots); its records, marked meet_bench: true, are appended.
   --impls meet runs it alone; --cases filters its cases too.

   Implementations (impl):
     native           gcc -O3 -march=native (build/bench_native): the reference of ratio_vs_native
     native-portable  gcc -O2, any x86-64 (build/bench_native_portable)
     native-clang     clang -O3 -march=native (build/bench_native_clang, when clang is
                      installed): emcc's compiler natively; often the fastest native build
     native-scalar    gcc -O3 -march=native -DPBD_SCALAR=1 (build/bench_native_scalar): no
                      SIMD; the distance solve is solver.c's plain loop over the same colour
                      order (same bits), for the SIMD speed-up against good scalar code
     wasm             emcc -O3 -msimd128 in this Node (dist/minipbd.wasm)
     wasm-scalar      emcc -O3 -DPBD_SCALAR=1 without -msimd128 in this Node
                      (build/minipbd_scalar.wasm, when built): the SIMD speed-up of the
                      product itself, on the same engine (V8) in the same process
     js, ammo         the peers (bench/peers.mjs says exactly what they do; for soft-20k, js is
                      bench/peer-softbody.mjs, the same soft-body algorithm in plain JS)

   Cases: cloth-RxR (every impl), cloth-100k (our builds: the built-in scene of web/js/scene.js
   as the page runs it, 316 x 316 hanging from its whole top edge, tethers, 10 substeps x 1 pass,
   damping 0.05; next to the bench cloth of the same size at 1 x 10; --quick runs it at 20 x 20
   as cloth-100k/20x20), cloth-RxR/1-pass (iterations 1: with the 10-pass case it
   gives the solve stage alone, see below), cloth-RxR/self-off and /self-on (thickness about
   the grid spacing, selfCollision 0 and 1: the cost of self-collision in the step) and
   cloth-RxR/findpairs (pbd_World_FindPairs alone: spatial hash rebuild + pair search from
   the warmed-up positions, timed per call) and cloth-RxR/rebuild (the hash rebuild alone,
   native only: the engine's internal pbd_HashGrid_Build, which wasm does not export).
   Solids (bench/solid-cases.mjs): soft-20k, 16 soft cubes of 6 x 6 x 6 cells (20,736
   tets) dropped onto the ground and each other, on our builds and the js soft-body peer;
   rigid-256, 256 shape-matched boxes of 64 particles piling up in a pen of box colliders, on our
   builds; both at the scene defaults, 10 substeps x 1 pass, with their quality figures
   (--quick: 2 cubes of 2 x 2 x 2 cells, soft-20k/2-cubes; 4 boxes, rigid-256/4-boxes).

   Our builds (native*, wasm) build the same scene (bench_native.c mirrors minipbd.js
   World.build(); for cloth-100k it is handed the cloth and every parameter of the wasm world the
   scene builds, see nativeSceneSpec); the engine is bit-identical natively and in wasm, scalar or SIMD, so
   the state hash after the warm-up and after the runs (and the pair count) must be
   equal on every one of them. A mismatch means they did different work: the table is
   still printed but the exit status is 1. The peers do the same physics in other code
   and have no hash; their max_stretch shows what their speed costs in quality.

   Record fields (dist/bench.json is an array of them): case, impl, mode (step or
   findpairs), particles, constraints, passes (substeps x iterations), params (world
   parameters set on top of the scene), warmup_steps, steps_per_run (calls_per_run for
   findpairs and rebuild), runs (ms per step or call of each timed run), ms_median, ms_min
   (the fastest run: what the code costs when nothing else runs), proj_per_s (constraints x
   passes per second at the median; null but for steps), max_stretch (after the warm-up:
   the same simulated time on every implementation of a case), max_stretch_final (after
   the runs), hash_after_warmup, hash_final, hash_match (null for peers), pairs
   (self-collision pairs, when searched), ratio_vs_native (ms_median / native's of the
   same case, on every other record), fastest_native and ratio_vs_fastest_native (against
   the fastest SIMD native build of the case), node, cpu, load_1min; native: compiler, target,
   simd, build; scene cases: scene (its name); peers: build, lowest_y, wasm_speedup (peer ms / wasm ms: how many times
   faster our wasm is); 10-pass records with a 1-pass twin: solve_ms_est and
   other_ms_est; self-on records: ratio_vs_self_off. Solid records (report-solids.mjs) also:
   solid (soft or rigid), bodies, tets, constraints = the tets' edges, proj_per_s over edges and
   tets (null for rigid), the quality fields of report-solids.mjs QUALITY_FIELDS, and on native
   records quality_from (copied from the wasm record whose final hash they share).
   Fluids (bench/fluid-cases.mjs, fluid-run.mjs, report-fluids.mjs): dam breaks of Position Based Fluids
   in a tank at 2 substeps x 2 iterations: fluid-dam-8k and fluid-dam-25k on our builds and the plain-JS PBF peer
   (bench/peer-pbf.mjs), each part of the 25k substep alone (fluid-dam-25k/part-NAME: pbd_World_RunFluidPart, mode
   part, native and wasm) and fluid-scale-2k, -50k, -100k for ms per step against the count (--quick: 216
   particles). Fluid records (fluid: true) also: block, tank, substeps, iterations, density_error, max_density,
   mean_density (pbdFluidStats at the end; *_warmup after the warm-up; the peer's from fluid-cases.mjs
   densityFigures, and check_density_error the same function on the wasm state), mean_neighbours,
   dropped_neighbours; part records part, calls_per_step, step_ms_est, peer_ms_est, peer_ratio; the peer's step
   records part_ms (its parts' ms per step). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../web/js/minipbd.js';
import { loadAmmo, runAmmo, runJs } from './peers.mjs';
import { builtinCaseScene, clothScene, nativeSceneSpec } from './scene-cases.mjs';
import { runNative } from './native-run.mjs';
import { opsText, planOps, solidCases } from './solid-cases.mjs';
import { runSolidPeer, runSolidWasm } from './solid-run.mjs';
import { OURS, crossCheck, derive, fmt, pairsTable, stepTable, targets } from './report.mjs';
import { solidDerive, solidTable, solidTargets } from './report-solids.mjs';
import { fluidCases, fluidPlanOps } from './fluid-cases.mjs';
import { runFluidPeer, runFluidWasm } from './fluid-run.mjs';
import { fluidDerive, fluidTable, fluidTargets } from './report-fluids.mjs';
import { runThreadsBench } from './threads-bench.mjs';
import { runMeetBench } from './meet-bench.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const IMPLS = ['native', 'native-portable', 'native-clang', 'native-scalar', 'wasm', 'wasm-scalar', 'js', 'ammo', 'threads', 'meet'];
/* Our builds run scenes; the peers build the bench cloth themselves (peers.mjs) and cannot. */
const SCENE_IMPLS = [...OURS];
/* The two wasm builds, run in this process. */
const WASM_BUILDS = {
	wasm: { build: 'emcc -O3 -msimd128, Node/V8', required: true },
	'wasm-scalar': { build: 'emcc -O3 -DPBD_SCALAR=1 (no SIMD), Node/V8', required: false },
};
const NATIVE_BINARIES = {
	native: { file: 'build/bench_native', build: 'gcc -O3 -march=native', required: true },
	'native-portable': { file: 'build/bench_native_portable', build: 'gcc -O2', required: false },
	'native-clang': { file: 'build/bench_native_clang', build: 'clang -O3 -march=native', required: false },
	'native-scalar': { file: 'build/bench_native_scalar', build: 'gcc -O3 -march=native -DPBD_SCALAR=1', required: false },
};

const USAGE = 'usage: node bench/bench.mjs [--quick] [--out PATH] [--wasm PATH] [--wasm-scalar PATH] [--wasm-threads PATH] [--runs N] [--impls a,b] [--cases a,b] [--only-wasm | --only-native]';

function parseArgs(argv) {
	const opts = { quick: false, out: null, wasm: path.join(root, 'dist', 'minipbd.wasm'),
		'wasm-scalar': path.join(root, 'build', 'minipbd_scalar.wasm'), 'wasm-threads': null, runs: null, impls: null, cases: null };
	const list = (v, known, what) => {
		const items = v.split(',').map((s) => s.trim()).filter(Boolean);
		for (const it of items) if (known && !known.includes(it)) usage(`unknown ${what} ${it} (known: ${known.join(', ')})`);
		if (items.length === 0) usage(`--${what}s needs a list`);
		return items;
	};
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
		else if (a === '--wasm-scalar') opts['wasm-scalar'] = value();
		else if (a === '--wasm-threads') opts['wasm-threads'] = value();
		else if (a === '--runs') {
			const v = value();
			if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 100) usage(`--runs needs a whole number in 1..100, got ${v}`);
			opts.runs = Number(v);
		} else if (a === '--impls') opts.impls = list(value(), IMPLS, 'impl');
		else if (a === '--cases') opts.cases = list(value(), null, 'case');
		else if (a === '--only-wasm') opts.impls = ['wasm'];
		else if (a === '--only-native') opts.impls = Object.keys(NATIVE_BINARIES);
		else if (a === '-h' || a === '--help') {
			console.log(USAGE);
			process.exit(0);
		} else usage(`unknown argument ${a}`);
	}
	opts.impls ??= IMPLS;
	// The threaded build beside the single-thread one given (make puts both in dist/ and build/).
	opts['wasm-threads'] ??= path.join(path.dirname(opts.wasm), 'minipbd_threads.wasm');
	if (!opts.quick && opts.out === null) opts.out = path.join(root, 'dist', 'bench.json');
	return opts;
}

function usage(message) {
	console.error(`bench: ${message}\n${USAGE}`);
	process.exit(2);
}

/* Self-collision thickness: about the grid spacing of the 2 m cloth (0.95 of it, two
   digits): 0.006 at 316 per side. */
const thicknessFor = (res) => Number((0.95 * 2 / (res - 1)).toPrecision(2));

/* The cases, in run order. steps: per timed run (sized so a run of our builds lasts
   ~0.2-0.5 s; the peers run the same steps, so every implementation is timed over the
   same stretch of simulated time). */
function makeCases(quick) {
	const all = IMPLS;
	const big = quick ? 20 : 316;
	const t = thicknessFor(big);
	const name = (res) => `cloth-${res}x${res}`;
	const list = quick
		? [{ name: name(20), res: 20, warmup: 3, runs: 2, steps: 2, impls: all }]
		: [
			{ name: name(100), res: 100, warmup: 30, runs: 7, steps: 100, impls: all },
			{ name: name(316), res: 316, warmup: 30, runs: 7, steps: 20, impls: all },
		];
	// The page's large cloth at its own defaults, next to the bench cloth of its size.
	list.push(quick
		? { name: 'cloth-100k/20x20', scene: 'cloth-100k', res: 20, warmup: 3, runs: 2, steps: 2, impls: SCENE_IMPLS }
		: { name: 'cloth-100k', scene: 'cloth-100k', warmup: 30, runs: 7, steps: 20, impls: SCENE_IMPLS });
	const w = quick ? { warmup: 3, runs: 2, steps: 2 } : { warmup: 30, runs: 7, steps: 20 };
	list.push(
		{ name: `${name(big)}/1-pass`, res: big, ...w, steps: quick ? 2 : 60, params: { iterations: 1 }, impls: ['native', 'native-scalar', 'wasm', 'wasm-scalar'] },
		{ name: `${name(big)}/self-off`, res: big, ...w, params: { thickness: t }, impls: ['native', 'wasm'] },
		{ name: `${name(big)}/self-on`, res: big, ...w, params: { thickness: t, selfCollision: 1 }, impls: ['native', 'wasm'] },
		{ name: `${name(big)}/findpairs`, res: big, ...w, mode: 'findpairs', params: { thickness: t }, impls: ['native', 'wasm'] },
		{ name: `${name(big)}/rebuild`, res: big, ...w, mode: 'rebuild', params: { thickness: t }, impls: ['native'] },
	);
	// The solids: soft-20k on our builds and the plain-JS soft-body peer, rigid-256 on our builds.
	// The fluids: dam breaks, the parts of a substep, and the particle count series.
	return [...list.map((c) => ({ mode: 'step', params: {}, ...c })), ...solidCases(quick, { ours: SCENE_IMPLS }),
		...fluidCases(quick, { ours: SCENE_IMPLS })];
}

/** The scene a case runs: the bench cloth, or a built-in scene (scene-cases.mjs). */
const caseScene = (c) => (c.scene ? builtinCaseScene(c) : clothScene(c.res));

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

const load1 = () => Number(os.loadavg()[0].toFixed(2));

function baseRecord(c, impl) {
	return { case: c.name, impl, mode: c.mode, ...(c.scene ? { scene: c.scene } : {}), params: { ...c.params } };
}

async function runWasm(engine, c, impl) {
	const world = engine.createWorld(caseScene(c));
	try {
		for (const [k, v] of Object.entries(c.params)) world.setParam(k, v);
		const passes = world.getParam('substeps') * world.getParam('iterations');
		const findPairs = () => engine.check(engine.exports.pbd_World_FindPairs(world.id));
		if (c.warmup > 0) world.step(c.warmup);
		const hashWarm = world.hash();
		const warm = world.stats();
		const runs = [];
		let pairs;
		for (let r = 0; r < c.runs; r++) {
			const t0 = performance.now();
			if (c.mode === 'findpairs') for (let i = 0; i < c.steps; i++) pairs = findPairs();
			else world.step(c.steps);
			runs.push((performance.now() - t0) / c.steps);
		}
		const stats = world.stats();
		const hashFinal = world.hash();
		if (c.mode !== 'findpairs' && world.getParam('selfCollision') !== 0) pairs = findPairs();
		const ms = median(runs);
		return {
			...baseRecord(c, impl), particles: world.particleCount, constraints: world.constraintCount, passes,
			warmup_steps: c.warmup, [c.mode === 'findpairs' ? 'calls_per_run' : 'steps_per_run']: c.steps, runs, ms_median: ms,
			ms_min: Math.min(...runs), proj_per_s: c.mode === 'findpairs' ? null : world.constraintCount * passes / (ms / 1000),
			max_stretch: warm.maxStretch, max_stretch_final: stats.maxStretch,
			hash_after_warmup: hex(hashWarm), hash_final: hex(hashFinal), ...(pairs === undefined ? {} : { pairs }),
			build: WASM_BUILDS[impl].build,
		};
	} finally {
		world.destroy();
	}
}

/** What a native record of a fluid case lacks against the wasm one (fluid-run.mjs caseFields). */
const fluidFields = (c) => (c.fluid ? { fluid: true, block: c.plan.block, tank: c.plan.tank, ...(c.mode === 'part' ? { part: c.partName } : {}) } : {});

function runPeer(impl, c, ammo) {
	const out = impl === 'js' ? runJs(c) : runAmmo(ammo.Ammo, ammo.version, c);
	return {
		...baseRecord(c, impl), particles: out.particles, constraints: out.constraints, passes: out.passes,
		warmup_steps: c.warmup, steps_per_run: c.steps, runs: out.runs, ms_median: out.ms_median, ms_min: Math.min(...out.runs),
		proj_per_s: out.constraints * out.passes / (out.ms_median / 1000), max_stretch: out.max_stretch,
		max_stretch_final: out.max_stretch_final,
		hash_after_warmup: null, hash_final: null, lowest_y: out.lowest_y, build: out.build,
		...(out.heap_mb ? { heap_mb: out.heap_mb } : {}),
	};
}

/* ---------------------------------------------------------------- main */

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	let cases = makeCases(opts.quick).map((c) => ({ ...c, runs: opts.runs ?? c.runs }));
	if (opts.cases) cases = cases.filter((c) => opts.cases.some((p) => c.name.startsWith(p)));
	const threadsWanted = opts.impls.includes('threads'), meetWanted = opts.impls.includes('meet');
	if (cases.length === 0 && !threadsWanted && !meetWanted) usage('no case matches --cases');
	const big = opts.quick ? 20 : 316;
	const env = { node: process.version, cpu: cpuModel() };
	console.log(`MiniPBD bench${opts.quick ? ' (quick)' : ''}: node ${env.node}, ${env.cpu}, ${os.cpus().length} cpus, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
	console.log(`impls: ${opts.impls.join(', ')}`);
	console.log(`cases: ${cases.map((c) => `${c.name} (${c.warmup} warm-up, ${c.runs} runs of ${c.steps} ${c.mode === 'step' ? 'steps' : 'calls'})`).join(', ')}`);

	const records = [];
	const notes = [];
	const wants = (c, impl) => opts.impls.includes(impl) && c.impls.includes(impl);
	const t0 = performance.now();
	// Case by case, every implementation in turn (native builds as child processes, while
	// this one idles; then wasm and the peers here), so that the figures a ratio compares
	// are taken close together in time on a machine that may be shared.
	const natives = Object.entries(NATIVE_BINARIES).filter(([impl, bin]) => {
		if (!cases.some((c) => wants(c, impl))) return false;
		if (fs.existsSync(path.join(root, bin.file))) return true;
		if (bin.required) throw new Error(`${bin.file} is missing: run make ${bin.file}`);
		notes.push(`(${impl}: ${bin.file} not built; skipped: make ${bin.file})`);
		return false;
	});
	const engines = {};
	for (const [impl, spec] of Object.entries(WASM_BUILDS)) {
		if (!cases.some((c) => wants(c, impl))) continue;
		if (fs.existsSync(opts[impl])) engines[impl] = await loadMiniPBD(fs.readFileSync(opts[impl]));
		else if (spec.required) throw new Error(`${opts[impl]} is missing: run make`);
		else notes.push(`(${impl}: ${path.relative(root, opts[impl])} not built; skipped: make build/minipbd_scalar.wasm)`);
	}
	// bench_native is handed a scene case as its cloth and the parameters of its wasm world, a solid case as the
	// file of its plan's operations (solid-cases.mjs: the same calls the wasm world is built by).
	let describer = engines.wasm ?? null;
	const describe = async () => (describer ??= await loadMiniPBD(fs.readFileSync(opts.wasm)));
	const solids = cases.filter((c) => (c.solid || c.fluid) && c.impls.some((impl) => opts.impls.includes(impl)));
	const planDir = solids.length ? fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-bench-')) : null;
	for (const c of solids) {
		c.ops = c.fluid ? fluidPlanOps(c.plan) : planOps(await describe(), c.plan);
		c.worldFile = path.join(planDir, `${c.name.replace(/[^A-Za-z0-9-]/g, '_')}.plan`);
		fs.writeFileSync(c.worldFile, opsText(c.ops));
	}
	const sceneNatives = (c) => c.scene && natives.some(([impl]) => wants(c, impl));
	if (cases.some(sceneNatives)) {
		await describe();
		for (const c of cases.filter(sceneNatives)) {
			c.nativeScene = nativeSceneSpec(describer, c);
			if (!c.nativeScene) notes.push(`(${c.name}: bench_native cannot build scene ${c.scene}; native builds skipped)`);
		}
	}
	const ammo = cases.some((c) => wants(c, 'ammo')) ? await loadAmmo() : null;
	if (ammo && !ammo.Ammo) notes.push(`(ammo: ${ammo.reason}; skipped)`);
	let ammoBroken = false;
	for (const c of cases) {
		for (const [impl, bin] of natives) {
			if (!wants(c, impl) || (c.scene && !c.nativeScene)) continue;
			for (const rec of runNative(root, impl, bin, [c])) {
				if (rec.skipped) notes.push(`(${impl} ${rec.case}: skipped: ${rec.skipped})`);
				else records.push({ ...rec, ...(c.solid ? { solid: c.solid } : {}), ...fluidFields(c), load_1min: load1() });
			}
		}
		for (const [impl, engine] of Object.entries(engines)) {
			if (!wants(c, impl)) continue;
			const rec = c.solid ? runSolidWasm(engine, c, impl, WASM_BUILDS[impl].build)
				: c.fluid ? runFluidWasm(engine, c, impl, WASM_BUILDS[impl].build) : await runWasm(engine, c, impl);
			if (rec.skipped) notes.push(`(${impl} ${rec.case}: skipped: ${rec.skipped})`);
			else records.push({ ...rec, load_1min: load1() });
		}
		if (wants(c, 'js')) {
			const peer = c.solid ? runSolidPeer(await describe(), c) : c.fluid ? runFluidPeer(await describe(), c) : runPeer('js', c);
			records.push({ ...peer, load_1min: load1() });
		}
		if (ammo?.Ammo && !ammoBroken && wants(c, 'ammo')) {
			try {
				records.push({ ...runPeer('ammo', c, ammo), load_1min: load1() });
			} catch (err) {
				notes.push(`(ammo at ${c.name} failed: ${String(err.message ?? err).split('\n')[0]})`);
				ammoBroken = true; // an aborted Emscripten module is unusable
			}
		}
	}
	const seconds = (performance.now() - t0) / 1000;
	if (planDir) fs.rmSync(planDir, { recursive: true, force: true });

	// Records in case order, then implementation order.
	const order = (r) => cases.findIndex((c) => c.name === r.case) * IMPLS.length + IMPLS.indexOf(r.impl);
	records.sort((a, b) => order(a) - order(b));
	for (const r of records) Object.assign(r, env);
	derive(records, cases);
	const check = crossCheck(records, cases);
	solidDerive(records, cases);
	fluidDerive(records, cases);
	const compared = new Set(records.filter((r) => OURS.has(r.impl)).map((r) => r.impl)).size > 1;

	console.log('');
	const steps = records.filter((r) => r.mode === 'step' && !r.solid && !r.fluid), pairs = records.filter((r) => r.mode !== 'step' && !r.fluid);
	const solidRecords = records.filter((r) => r.solid), fluidRecords = records.filter((r) => r.fluid);
	if (steps.length) console.log(stepTable(steps));
	if (pairs.length) console.log(`\n${pairsTable(pairs)}`);
	if (solidRecords.length) console.log(`\n${solidTable(solidRecords)}`);
	if (fluidRecords.length) console.log(`\n${fluidTable(fluidRecords)}`);
	console.log('');
	for (const n of notes) console.log(n);
	for (const l of check.lines) console.log(l);
	console.log(compared
		? `hash check: ${check.ok ? 'PASS (our builds did bit-identical work)' : 'FAIL (our builds did different work: ratios are meaningless)'}`
		: 'hash check: skipped (only one of our implementations ran)');
	const goals = [...targets(records, big), ...solidTargets(records), ...fluidTargets(records)];
	if (goals.length) {
		console.log(`\ntargets (${opts.quick ? 'quick run: sizes too small to mean anything' : 'every figure from this run'}):`);
		for (const g of goals) console.log(g);
	}
	for (const r of records.filter((x) => !OURS.has(x.impl) && x.lowest_y !== undefined)) {
		console.log(`peer ${r.case} ${r.impl}: lowest point y = ${r.lowest_y.toFixed(3)} m${r.heap_mb ? `, wasm heap ${r.heap_mb.toFixed(0)} MB` : ''}`);
	}
	// The machine may be shared: show each record's spread so a noisy run is visible.
	console.log('');
	for (const r of records) {
		const lo = Math.min(...r.runs), hi = Math.max(...r.runs);
		const spread = (hi - lo) / r.ms_median;
		// A solid case's runs are the drop from landing to rest, a dam break's the water falling and spreading, in
		// order: a step costs what the motion makes it cost.
		if (r.solid || (r.fluid && r.mode === 'step')) {
			console.log(`runs ${r.case} ${r.impl}: ${r.runs.map(fmt.ms).join(', ')} ms, ${r.solid ? 'landing to rest' : 'in order of time'}, load ${r.load_1min}`);
		} else {
			console.log(`runs ${r.case} ${r.impl}: ${fmt.ms(lo)}..${fmt.ms(hi)} ms over ${r.runs.length} runs, load ${r.load_1min}` +
				(spread > 0.1 && r.runs.length > 2 ? ` (spread ${(100 * spread).toFixed(0)}%: noisy, rerun on an idle machine)` : ''));
		}
	}
	console.log(`bench took ${seconds.toFixed(0)} s`);

	// The threads: after the rest, so its tables are not interleaved with theirs.
	let threadsOk = true;
	if (threadsWanted) {
		const t = await runThreadsBench({ quick: opts.quick, runs: opts.runs ?? undefined, cases: opts.cases ?? undefined,
			wasm: opts.wasm, wasmThreads: opts['wasm-threads'], native: path.join(root, NATIVE_BINARIES.native.file) });
		console.log(`\n${t.text.join('\n')}`);
		for (const r of t.records) records.push({ ...r, cpu: env.cpu });
		threadsOk = t.hash.ok;
	}

	// Where kinds meet: last, wasm only, each time beside its quality figures.
	if (meetWanted) {
		const m = await runMeetBench({ quick: opts.quick, cases: opts.cases ?? undefined, wasm: opts.wasm });
		console.log(`\n${m.text.join('\n')}`);
		for (const r of m.records) records.push({ ...r, ...env });
	}

	if (opts.out) {
		fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
		fs.writeFileSync(opts.out, JSON.stringify(records, null, 2) + '\n');
		console.log(`wrote ${path.relative(process.cwd(), path.resolve(opts.out)) || opts.out}`);
	}
	if ((compared && !check.ok) || !threadsOk) process.exitCode = 1;
}

main().catch((err) => {
	console.error(`bench: ${err.stack ?? err}`);
	process.exit(1);
});
