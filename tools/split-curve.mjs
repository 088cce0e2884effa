#!/usr/bin/env node
/* split-curve -- how to spend a cloth's solver passes: substeps x iterations.
   For each split of the same pass budget, runs a 100 x 100 cloth released flat and
   pinned at two corners (it swings down and hangs: the dynamic case is where stretch
   shows) for 300 steps on the wasm build, and prints the mean and worst of the per-step
   max stretch, the median ms per step, and stretch x ms (lower is better: the least
   stretch per millisecond). The "Substeps or passes" table of docs/physics.md comes from here.

     node tools/split-curve.mjs [--budget 10] [--res 100] [--tethers 1] */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : def;
};
const budget = arg('budget', 10), res = arg('res', 100), tethers = arg('tethers', 1), steps = arg('steps', 300);
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

const splits = [];
for (let s = 1; s <= budget; s++) if (budget % s === 0) splits.push([s, budget / s]);
const rows = [];
for (const [substeps, iterations] of splits) {
	const world = pbd.createWorld({
		format: 'minipbd-scene', version: 1, name: 'split curve',
		solver: { substeps, iterations, damping: 0.1, tethers },
		ground: { enabled: false },
		objects: [{ type: 'cloth', origin: [-1, 2, -1], size: [2, 2], resolution: [res, res], plane: 'xz', pins: [[0, 0], [res - 1, 0]] }],
	});
	const stretch = [], ms = [];
	for (let i = 0; i < steps; i++) {
		world.step(1);
		ms.push(world.lastStepMs);
		stretch.push(world.stats().maxStretch);
	}
	ms.sort((a, b) => a - b);
	const median = ms[ms.length >> 1];
	const mean = stretch.reduce((a, b) => a + b, 0) / stretch.length;
	rows.push({ substeps, iterations, meanStretch: mean, worstStretch: Math.max(...stretch), ms: median, score: mean * median });
	world.destroy();
}
const best = rows.reduce((a, b) => (b.score < a.score ? b : a));
console.log(`cloth ${res} x ${res}, ${budget} passes per step, tethers ${tethers}, ${steps} steps, wasm in Node`);
console.log('| substeps x iterations | mean max stretch | worst max stretch | ms/step (median) | stretch x ms |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows) {
	const mark = r === best ? ' (best)' : '';
	console.log(`| ${r.substeps} x ${r.iterations}${mark} | ${(100 * r.meanStretch).toFixed(2)}% | ${(100 * r.worstStretch).toFixed(2)}% | ${r.ms.toFixed(3)} | ${(100 * r.score).toFixed(3)} |`);
}
