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
   and "threads" is 1. The hash is the same either way (issue 12: same bits for any thread count). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_THREADS } from '../web/js/engine/threads.js';
import {
  loadMiniPBD, BUILTIN_SCENE_IDS, loadBuiltinScene, decodeRun, Replayer, parseObj, ObjError, OBJ_LIMITS, SCENE_VERSION, SCENE_LIMITS,
} from '../web/js/minipbd.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// A scene file may carry a body's mesh (100,000 vertices and 200,000 triangles as JSON: about 10 MB).
const MAX_SCENE_FILE = 32 << 20;

const USAGE = `usage: minipbd-run <scene.json | link | builtin:NAME> [options]
       minipbd-run --obj FILE [--rigid] [--resolution N] [options]
  --steps N        steps to run (default 60, or the steps a link's recording covers; at most 1000000)
  --every K        also record statistics every K steps ("series")
  --set name=value set a parameter before running (repeatable), e.g. --set iterations=20
  --positions      include final positions [[x, y, z], ...]
  --obj FILE       add an OBJ model (a closed triangle surface) to the scene as a soft body
  --rigid          ... as a rigid body instead
  --resolution N   lattice cells along the model's longest side (${SCENE_LIMITS.bodyResolution.min}..${SCENE_LIMITS.bodyResolution.max}, default 8)
  --threads N      run on N threads (1..${MAX_THREADS}) with the threaded build (default dist/minipbd_threads.wasm)
  --wasm PATH      wasm to load (default dist/minipbd.wasm, or the threaded build with --threads)
built-in scenes: ${BUILTIN_SCENE_IDS.join(', ')}`;

class UsageError extends Error {}

function parseArgs(argv) {
	const opts = { steps: null, every: 0, sets: [], positions: false, wasm: null, scene: null,
		obj: null, rigid: false, resolution: null, threads: null };
	const wholeNumber = (flag, v, max) => {
		if (!/^\d+$/.test(v ?? '') || Number(v) > max) throw new UsageError(`${flag} needs a whole number from 0 to ${max}, got ${JSON.stringify(v ?? '')}`);
		return Number(v);
	};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--steps') opts.steps = wholeNumber(a, argv[++i], 1000000);
		else if (a === '--every') opts.every = wholeNumber(a, argv[++i], 1000000);
		else if (a === '--positions') opts.positions = true;
		else if (a === '--wasm') opts.wasm = argv[++i];
		else if (a === '--threads') {
			const v = argv[++i];
			if (!/^\d+$/.test(v ?? '') || Number(v) < 1 || Number(v) > MAX_THREADS) {
				throw new UsageError(`--threads needs a whole number from 1 to ${MAX_THREADS}, got ${JSON.stringify(v ?? '')}`);
			}
			opts.threads = Number(v);
		}
		else if (a === '--obj') {
			opts.obj = argv[++i];
			if (opts.obj === undefined) throw new UsageError('--obj needs a file');
		} else if (a === '--rigid') opts.rigid = true;
		else if (a === '--resolution') {
			const { min, max } = SCENE_LIMITS.bodyResolution;
			opts.resolution = wholeNumber(a, argv[++i], max);
			if (opts.resolution < min) throw new UsageError(`--resolution needs a whole number from ${min} to ${max}, got ${opts.resolution}`);
		}
		else if (a === '--set') {
			const m = /^([A-Za-z.]+)=(.+)$/.exec(argv[++i] ?? '');
			if (!m || !Number.isFinite(Number(m[2]))) throw new UsageError(`--set needs name=number, got ${JSON.stringify(argv[i] ?? '')}`);
			opts.sets.push([m[1], Number(m[2])]);
		} else if (a === '-h' || a === '--help') {
			console.log(USAGE);
			process.exit(0);
		} else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
		else if (opts.scene === null) opts.scene = a;
		else throw new UsageError(`more than one scene given: ${a}`);
	}
	if (opts.scene === null && opts.obj === null) throw new UsageError('no scene given');
	if (opts.obj === null && (opts.rigid || opts.resolution !== null)) throw new UsageError('--rigid and --resolution go with --obj');
	opts.wasm ??= path.join(here, '..', 'dist', opts.threads !== null ? 'minipbd_threads.wasm' : 'minipbd.wasm');
	return opts;
}

/** The scene to run and the recording to replay on it (null unless a link carries one). */
async function readScene(arg) {
	if (arg.startsWith('builtin:')) {
		const name = arg.slice('builtin:'.length);
		if (!BUILTIN_SCENE_IDS.includes(name)) throw new UsageError(`no built-in scene "${name}"; there are: ${BUILTIN_SCENE_IDS.join(', ')}`);
		return { scene: await loadBuiltinScene(name), replay: null };
	}
	const hash = arg.indexOf('#');
	if (hash >= 0 || arg.startsWith('s=')) {
		const { scene, replay } = await decodeRun(hash >= 0 ? arg.slice(hash) : arg);
		return { scene, replay };
	}
	const stat = fs.statSync(arg, { throwIfNoEntry: false });
	if (!stat) throw new UsageError(`no such scene file: ${arg}`);
	if (stat.size > MAX_SCENE_FILE) throw new UsageError(`scene file ${arg} is ${stat.size} bytes; the limit is ${MAX_SCENE_FILE}`);
	let json;
	try {
		json = JSON.parse(fs.readFileSync(arg, 'utf8'));
	} catch (err) {
		throw new UsageError(`scene file ${arg} is not valid JSON: ${err.message}`);
	}
	return { scene: json, replay: null };
}

/** The OBJ file as a body: centred over the origin in x and z, its lowest point 0.5 m above y = 0. */
function objBody(file, rigid, resolution) {
	const stat = fs.statSync(file, { throwIfNoEntry: false });
	if (!stat) throw new UsageError(`no such OBJ file: ${file}`);
	// Refused by its size before a byte of it is read.
	if (stat.size > OBJ_LIMITS.maxBytes) throw new ObjError(0, `it is ${stat.size.toLocaleString('en-US')} bytes; at most ${OBJ_LIMITS.maxBytes.toLocaleString('en-US')} are read`);
	let text;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(file));
	} catch {
		throw new ObjError(0, 'it is not UTF-8 text (a binary file?)');
	}
	const { vertices, triangles, name } = parseObj(text);
	const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
	for (let i = 0; i < vertices.length; i++) {
		lo[i % 3] = Math.min(lo[i % 3], vertices[i]);
		hi[i % 3] = Math.max(hi[i % 3], vertices[i]);
	}
	const v = [];
	for (let i = 0; i < vertices.length; i += 3) v.push([vertices[i], vertices[i + 1], vertices[i + 2]]);
	const t = [];
	for (let i = 0; i < triangles.length; i += 3) t.push([triangles[i], triangles[i + 1], triangles[i + 2]]);
	return {
		type: rigid ? 'rigid' : 'soft', name: (name || path.basename(file)).slice(0, SCENE_LIMITS.maxNameLength), shape: 'mesh',
		position: [-(lo[0] + hi[0]) / 2, 0.5 - lo[1], -(lo[2] + hi[2]) / 2], resolution: resolution ?? 8,
		mesh: { vertices: v, triangles: t },
	};
}

/** The scene with the body added (a copy: built-in scenes are frozen), or an empty scene holding it. */
function withBody(scene, body) {
	if (scene === null) return { format: 'minipbd-scene', version: SCENE_VERSION, name: `OBJ model: ${body.name}`.slice(0, SCENE_LIMITS.maxNameLength), objects: [body] };
	const copy = JSON.parse(JSON.stringify(scene));
	if (!Array.isArray(copy?.objects)) return copy; // the validator names what is wrong
	copy.objects.push(body);
	return copy;
}

function snapshot(world, hasFluid) {
	const s = world.stats();
	const out = { step: s.steps, maxError: s.maxError, meanError: s.meanError, maxStretch: s.maxStretch, kineticEnergy: s.kineticEnergy, potentialEnergy: s.potentialEnergy };
	if (hasFluid) {
		const f = world.fluidStats();
		Object.assign(out, { fluidParticles: f.particles, meanDensity: f.meanDensity, maxDensity: f.maxDensity, densityError: f.densityError });
	}
	return out;
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const read = opts.scene === null ? { scene: null, replay: null } : await readScene(opts.scene);
	const { replay } = read;
	const scene = opts.obj === null ? read.scene : withBody(read.scene, objBody(opts.obj, opts.rigid, opts.resolution));
	if (opts.obj !== null && replay) throw new UsageError('--obj changes the scene, so the link\'s recording cannot be replayed on it');
	opts.steps ??= replay ? replay.steps : 60;
	const pbd = await loadMiniPBD(fs.readFileSync(opts.wasm), { threads: opts.threads ?? 1 });
	if (opts.threads > 1 && !pbd.threaded) throw new UsageError(`--threads ${opts.threads} needs the threaded build; ${opts.wasm} is the single-thread one`);
	const world = pbd.createWorld(scene);
	for (const [name, value] of opts.sets) world.setParam(name, value);
	const player = replay ? new Replayer(world, replay) : null;
	const hasFluid = world.objects.some((o) => o.type === 'fluid');
	const series = [];
	const t0 = performance.now();
	if (opts.every > 0) {
		series.push(snapshot(world, hasFluid));
		for (let done = 0; done < opts.steps;) {
			const n = Math.min(opts.every, opts.steps - done);
			world.step(n);
			done += n;
			series.push(snapshot(world, hasFluid));
		}
	} else {
		world.step(opts.steps);
	}
	const ms = performance.now() - t0;
	const stats = world.stats();
	const params = Object.fromEntries(pbd.paramNames.map((n) => [n, world.getParam(n)]));
	const out = {
		scene: world.scene.name,
		steps: opts.steps,
		particles: world.particleCount,
		constraints: world.constraintCount,
		params,
		stats: { ...stats, stepMs: opts.steps > 0 ? ms / opts.steps : 0 },
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
	if (series.length) out.series = series;
	if (opts.positions) {
		const x = world.positions;
		out.positions = Array.from({ length: world.particleCount }, (_, i) => [x[4 * i], x[4 * i + 1], x[4 * i + 2]]);
	}
	pbd.close();
	process.stdout.write(JSON.stringify(out, null, opts.positions ? 0 : 2) + '\n');
}

main().catch((err) => {
	const known = err instanceof UsageError || ['SceneError', 'LinkError', 'MiniPBDError', 'ObjError'].includes(err?.name) || err?.constructor?.name === 'LinkError';
	process.stderr.write(`minipbd-run: ${err?.message ?? err}\n`);
	if (err instanceof UsageError) process.stderr.write(`${USAGE}\n`);
	process.exit(known ? 2 : 1);
});
