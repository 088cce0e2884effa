#!/usr/bin/env node
/* minipbd-run -- run a MiniPBD scene headlessly in Node on the same wasm as the page
   and print JSON statistics (and positions on request).

     node tools/minipbd-run.mjs builtin:cloth --steps 120
     node tools/minipbd-run.mjs scene.json --steps 600 --every 60 --set iterations=20
     node tools/minipbd-run.mjs 'http://host/#s=1.…' --positions
     node tools/minipbd-run.mjs 'http://host/#s=2.…'            (a link with a recording: replayed)
     node tools/minipbd-run.mjs --obj model.obj --rigid           (an OBJ model dropped into an empty scene)
     node tools/minipbd-run.mjs builtin:trampoline --obj model.obj --resolution 10
     node tools/minipbd-run.mjs builtin:cloth-100k --threads 2    (the threaded build on 2 threads)

   The scene argument is a JSON file, a link (a whole URL or just its fragment, with or
   without '#'), or builtin:NAME. A link that carries a recording (link version 2) is
   replayed exactly as the page replays it: by default for the steps it covers, and the
   output's "replay" says whether the state matches the one recorded. --obj FILE reads a
   closed triangle surface (format/obj.js) and adds it to the scene (or to an empty one) as
   a soft body (--rigid: a rigid one) of --resolution cells along its longest side, centred
   over the origin with its lowest point 0.5 m up. Bad input (a bad OBJ file too) exits
   with status 2 and a message naming what is wrong on stderr.

   A scene with water (fluid objects) also prints "fluid": world.fluidStats() at the end
   (live particles of the capacity, emitted, drained, full, neighbours, mean and largest
   rho / rho0, and densityError, the mean compression the solve left), and each "series"
   entry carries the live count and densities. "particles" counts every slot, parked fluid
   capacity too; "fluid.particles" is the water there is. The constraint error in "stats"
   is the other families' (the fluid's is densityError). Measuring changes nothing: the hash
   is the one a run without it reaches.

   --threads N loads the threaded build (dist/minipbd_threads.wasm, or --wasm PATH) with a team of N
   (Node's thread and N - 1 worker_threads) and prints "threads": N; without it the single-thread build runs
   and "threads" is 1. The hash is the same either way (the threaded build: same bits for any thread count).

   Data out (docs/cli.md "Data for a spreadsheet"): --format csv prints a spreadsheet of the samples (tools/run/output.mjs), --track the
   chosen particles' positions and velocities (tools/run/track.mjs), --digits the significant digits of every
   float. Each sample has its time (s = step x dt); stepMs times world.step alone, never the snapshots. Options:
   tools/run/args.mjs. */
import fs from 'node:fs';
import { loadMiniPBD, Replayer, validateScene, fluidRatioProblem } from './run/web.mjs';
import { USAGE, UsageError, parseArgs } from './run/args.mjs';
import { readScene, objBody, withBody } from './run/scene.mjs';
import { resolveTrack, trackSample } from './run/track.mjs';
import { roundDeep, csvColumns, csvRow } from './run/output.mjs';

/** One sample: step, time, the step time of the chunk that led to it (null at the start), the statistics. */
function sampleOf(world, hasFluid, tracked, dt, stepMs) {
	const s = world.stats();
	const out = { step: s.steps, time: s.steps * dt, stepMs, maxError: s.maxError, meanError: s.meanError, maxStretch: s.maxStretch,
		kineticEnergy: s.kineticEnergy, potentialEnergy: s.potentialEnergy };
	if (hasFluid) {
		const f = world.fluidStats();
		Object.assign(out, { fluidParticles: f.particles, meanDensity: f.meanDensity, maxDensity: f.maxDensity, densityError: f.densityError });
	}
	if (tracked.length) out.track = trackSample(world, tracked);
	return out;
}

/** Steps `steps` in samples of `every` (0: one); the clock runs around world.step only, so snapshots and progress
 *  lines cost stepMs nothing. Progress: a line on stderr at most every PROGRESS_SECONDS of wall time, checked
 *  between chunks of at most 10 steps (a chunk's size changes no bit: the step is the same either way). */
function run(world, opts, sample) {
	const { steps } = opts;
	const every = opts.every > 0 ? opts.every : Math.max(steps, 1);
	const chunk = opts.progress ? 10 : every;
	const series = [];
	if (opts.sampling) series.push(sample(null));
	let stepping = 0, lastNote = performance.now();
	for (let done = 0; done < steps;) {
		const n = Math.min(every, steps - done);
		let ms = 0;
		for (let k = 0; k < n;) {
			const m = Math.min(chunk, n - k);
			const t0 = performance.now();
			world.step(m);
			ms += performance.now() - t0;
			k += m;
			if (opts.progress && performance.now() - lastNote >= opts.progressSeconds * 1000) {
				lastNote = performance.now();
				process.stderr.write(`step ${done + k} / ${steps} (${Math.floor((100 * (done + k)) / steps)}%)\n`);
			}
		}
		done += n;
		stepping += ms;
		if (opts.sampling) series.push(sample(ms / n));
	}
	return { series, stepMs: steps > 0 ? stepping / steps : 0 };
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const read = opts.scene === null ? { scene: null, replay: null } : await readScene(opts.scene);
	const { replay } = read;
	const scene = opts.obj === null ? read.scene : withBody(read.scene, objBody(opts.obj, opts.rigid, opts.resolution, opts.size));
	if (opts.obj !== null && replay) throw new UsageError('--obj changes the scene, so the link\'s recording cannot be replayed on it');
	// The page's checks and messages before the wasm is loaded (createWorld checks again), and the one rule of
	// --set that needs the scene: the fluid's smoothing radius 1 to 4 times its spacing (World.setParam's words).
	const fluid = { ...validateScene(scene).fluid };
	for (const [name, value] of opts.sets) {
		if (name !== 'fluid.spacing' && name !== 'fluid.smoothingRadius') continue;
		fluid[name.slice('fluid.'.length)] = value;
		const problem = fluidRatioProblem(fluid.spacing, fluid.smoothingRadius);
		if (problem) throw new UsageError(`parameter ${name}: ${problem}`);
	}
	opts.steps ??= replay ? replay.steps : 60;
	// csv and --track are made of samples; without --every the samples are the start and the end.
	opts.sampling = opts.every > 0 || opts.format === 'csv' || opts.track.length > 0;
	const pbd = await loadMiniPBD(fs.readFileSync(opts.wasm), { threads: opts.threads ?? 1 });
	if (opts.threads > 1 && !pbd.threaded) throw new UsageError(`--threads ${opts.threads} needs the threaded build; ${opts.wasm} is the single-thread one`);
	const world = pbd.createWorld(scene);
	for (const [name, value] of opts.sets) world.setParam(name, value);
	const player = replay ? new Replayer(world, replay) : null;
	const hasFluid = world.objects.some((o) => o.type === 'fluid');
	const tracked = resolveTrack(world, opts.track);
	// time = steps x dt with the dt in force when the run starts (a replayed link that changes dt mid-way: the
	// time column keeps the first dt).
	const dt = world.getParam('dt');
	const { series, stepMs } = run(world, opts, (ms) => sampleOf(world, hasFluid, tracked, dt, ms));
	const stats = world.stats();
	const params = Object.fromEntries(pbd.paramNames.map((n) => [n, world.getParam(n)]));
	const out = {
		scene: world.scene.name,
		steps: opts.steps,
		time: opts.steps * dt,
		particles: world.particleCount,
		constraints: world.constraintCount,
		params,
		stats: { ...stats, stepMs },
		hash: world.hash(),
		threads: world.threads,
	};
	if (hasFluid) out.fluid = world.fluidStats();
	if (player) {
		// result: set once the run reached the end of the recording (hash and exact are those at its last step)
		const r = player.result;
		out.replay = { steps: replay.steps, events: replay.events.length, recordedHash: replay.hash ?? null,
			hashAtEnd: r?.hash ?? null, exact: r ? r.exact : null };
	}
	if (tracked.length) out.tracked = tracked;
	if (opts.positions) {
		const x = world.positions;
		out.positions = Array.from({ length: world.particleCount }, (_, i) => [x[4 * i], x[4 * i + 1], x[4 * i + 2]]);
	}
	pbd.close();
	if (opts.format === 'csv') {
		// stdout holds the table alone (what a spreadsheet opens cleanly: no comment lines); the summary is one JSON
		// line on stderr.
		const columns = csvColumns(hasFluid, tracked);
		const lines = [columns.join(','), ...roundDeep(series, opts.digits).map((s) => csvRow(s, columns))];
		process.stdout.write(lines.join('\n') + '\n');
		process.stderr.write(JSON.stringify(roundDeep(out, opts.digits)) + '\n');
		return;
	}
	if (series.length) out.series = series;
	process.stdout.write(JSON.stringify(roundDeep(out, opts.digits), null, opts.positions ? 0 : 2) + '\n');
}

main().catch((err) => {
	const known = err instanceof UsageError || ['SceneError', 'SceneFileError', 'LinkError', 'MiniPBDError', 'ObjError'].includes(err?.name) || err?.constructor?.name === 'LinkError';
	process.stderr.write(`minipbd-run: ${err?.message ?? err}\n`);
	if (err instanceof UsageError) process.stderr.write(`${USAGE}\n`);
	process.exit(known ? 2 : 1);
});
