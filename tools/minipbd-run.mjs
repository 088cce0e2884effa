#!/usr/bin/env node
/* minipbd-run -- run a MiniPBD scene headlessly in Node on the same wasm as the page
   and print JSON statistics (and positions on request).

     node tools/minipbd-run.mjs builtin:cloth --steps 120
     node tools/minipbd-run.mjs scene.json --steps 600 --every 60 --set iterations=20
     node tools/minipbd-run.mjs 'http://host/#s=1.…' --positions
     node tools/minipbd-run.mjs 'http://host/#s=2.…'            (a link with a recording: replayed)

   The scene argument is a JSON file, a link (a whole URL or just its fragment, with or
   without '#'), or builtin:NAME. A link that carries a recording (link version 2) is
   replayed exactly as the page replays it: by default for the steps it covers, and the
   output's "replay" says whether the state matches the one recorded. Bad input exits
   with status 2 and a message naming what is wrong on stderr. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, builtinScenes, decodeRun, Replayer } from '../web/js/minipbd.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAX_SCENE_FILE = 1 << 20;

const USAGE = `usage: minipbd-run <scene.json | link | builtin:NAME> [options]
  --steps N        steps to run (default 60, or the steps a link's recording covers; at most 1000000)
  --every K        also record statistics every K steps ("series")
  --set name=value set a parameter before running (repeatable), e.g. --set iterations=20
  --positions      include final positions [[x, y, z], ...]
  --wasm PATH      wasm to load (default dist/minipbd.wasm)
built-in scenes: ${Object.keys(builtinScenes).join(', ')}`;

class UsageError extends Error {}

function parseArgs(argv) {
	const opts = { steps: null, every: 0, sets: [], positions: false, wasm: path.join(here, '..', 'dist', 'minipbd.wasm'), scene: null };
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
	if (opts.scene === null) throw new UsageError('no scene given');
	return opts;
}

/** The scene to run and the recording to replay on it (null unless a link carries one). */
async function readScene(arg) {
	if (arg.startsWith('builtin:')) {
		const name = arg.slice('builtin:'.length);
		if (!Object.hasOwn(builtinScenes, name)) throw new UsageError(`no built-in scene "${name}"; there are: ${Object.keys(builtinScenes).join(', ')}`);
		return { scene: builtinScenes[name], replay: null };
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

function snapshot(world) {
	const s = world.stats();
	return { step: s.steps, maxError: s.maxError, meanError: s.meanError, maxStretch: s.maxStretch, kineticEnergy: s.kineticEnergy, potentialEnergy: s.potentialEnergy };
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const { scene, replay } = await readScene(opts.scene);
	opts.steps ??= replay ? replay.steps : 60;
	const pbd = await loadMiniPBD(fs.readFileSync(opts.wasm));
	const world = pbd.createWorld(scene);
	for (const [name, value] of opts.sets) world.setParam(name, value);
	const player = replay ? new Replayer(world, replay) : null;
	const series = [];
	const t0 = performance.now();
	if (opts.every > 0) {
		series.push(snapshot(world));
		for (let done = 0; done < opts.steps;) {
			const n = Math.min(opts.every, opts.steps - done);
			world.step(n);
			done += n;
			series.push(snapshot(world));
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
	};
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
	process.stdout.write(JSON.stringify(out, null, opts.positions ? 0 : 2) + '\n');
}

main().catch((err) => {
	const known = err instanceof UsageError || ['SceneError', 'LinkError', 'MiniPBDError'].includes(err?.name) || err?.constructor?.name === 'LinkError';
	process.stderr.write(`minipbd-run: ${err?.message ?? err}\n`);
	if (err instanceof UsageError) process.stderr.write(`${USAGE}\n`);
	process.exit(known ? 2 : 1);
});
