/* fluid-run.mjs -- bench.mjs's runs of the fluid cases (fluid-cases.mjs) in this process: on a wasm build (a
   step case, or one part of the substep through pbd_World_RunFluidPart), and on the plain-JS PBF peer
   (peer-pbf.mjs). Each times the same warm-up and runs as every other implementation of the case and puts the
   density error of the state it timed next to the time. */
import { performance } from 'node:perf_hooks';
import { buildFluidWorld, densityFields, densityFigures, fluidRange, fluidStats, tankPlanes, usedRadius } from './fluid-cases.mjs';
import { PEER_PARTS, createPeerFluid } from './peer-pbf.mjs';

const hex = (h) => `0x${(h >>> 0).toString(16).padStart(8, '0')}`;

function median(values) {
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/** warm(warm-up steps), afterWarmup(), then `runs` timed batches, each one call of batch(steps); ms per step or
 *  call of each batch. */
function time(warm, batch, c, afterWarmup = () => {}) {
	if (c.warmup > 0) warm(c.warmup);
	afterWarmup();
	const runs = [];
	for (let r = 0; r < c.runs; r++) {
		const t0 = performance.now();
		batch(c.steps);
		runs.push((performance.now() - t0) / c.steps);
	}
	return runs;
}

/** The fields every fluid record has, from the case. */
const caseFields = (c) => ({
	case: c.name, mode: c.mode, fluid: true, params: { ...c.params }, block: c.plan.block, tank: c.plan.tank,
	...(c.mode === 'part' ? { part: c.partName } : {}),
});

/**
 * Case c on a wasm engine: a record like runWasm's, with the fluid's counts and density figures (pbdFluidStats
 * after the warm-up and at the end; check_density_error: densityFigures on the same positions). A part case whose
 * part the engine refuses gives { skipped } with the engine's message.
 */
export function runFluidWasm(engine, c, impl, build) {
	const world = buildFluidWorld(engine, c.ops);
	const e = engine.exports;
	try {
		const range = fluidRange(engine, world);
		const passes = world.getParam('substeps') * world.getParam('iterations');
		let hashWarm, warmStats;
		const steps = (n) => world.step(n);
		const parts = (n) => {
			for (let i = 0; i < n; i++) {
				if (e.pbd_World_RunFluidPart(world.id, c.part) < 0) throw Object.assign(new Error(engine.lastError(world.id)), { refused: true });
			}
		};
		let runs;
		try {
			runs = time(steps, c.mode === 'part' ? parts : steps, c, () => {
				hashWarm = world.hash();
				warmStats = fluidStats(engine, world);
			});
		} catch (err) {
			if (err.refused) return { ...caseFields(c), impl, skipped: `pbd_World_RunFluidPart(${c.partName}) refused: ${err.message}` };
			throw err;
		}
		const hashFinal = world.hash();
		const stats = fluidStats(engine, world);
		const d = world.getParam('fluid.spacing'), h = usedRadius(world.getParam('fluid.smoothingRadius'), d);
		const check = densityFigures(world.positions, 4, range.first, range.count, h, d, tankPlanes(c.plan.tank, world.getParam('groundHeight')));
		const ms = median(runs);
		return {
			...caseFields(c), impl, particles: range.count, constraints: world.constraintCount, passes, warmup_steps: c.warmup,
			[c.mode === 'part' ? 'calls_per_run' : 'steps_per_run']: c.steps, runs, ms_median: ms, ms_min: Math.min(...runs),
			proj_per_s: null, max_stretch: 0, max_stretch_final: 0,
			hash_after_warmup: hex(hashWarm), hash_final: hex(hashFinal),
			...densityFields(warmStats, '_warmup'), ...densityFields(stats),
			check_density_error: check.densityError, check_max_density: check.maxDensity,
			build,
		};
	} finally {
		world.destroy();
	}
}

/** Case c on the plain-JS peer, built from what `engine` built: the same particles, parameters and tank. */
export function runFluidPeer(engine, c) {
	const world = buildFluidWorld(engine, c.ops);
	let scene;
	try {
		const range = fluidRange(engine, world);
		const p = (name) => world.getParam(name);
		const d = p('fluid.spacing');
		const x0 = Float32Array.from(world.positions.subarray(4 * range.first, 4 * (range.first + range.count)));
		scene = {
			x0, d, rho0: p('fluid.restDensity'), h: usedRadius(p('fluid.smoothingRadius'), d), relaxation: p('fluid.relaxation'),
			scorrK: p('fluid.scorrK'), scorrN: p('fluid.scorrN'), scorrDq: p('fluid.scorrDq'), vorticity: p('fluid.vorticity'),
			viscosity: p('fluid.viscosity'), dt: p('dt'), substeps: p('substeps'), iterations: p('iterations'),
			gravity: [p('gravityX'), p('gravityY'), p('gravityZ')], maxSpeed: p('maxSpeed'), ground: p('groundHeight'), tank: c.plan.tank,
		};
		// Fluid particles feel fluid.friction (default 0) of the ground's and colliders' friction (ground.c, colliders.c).
		const frictionless = p('fluid.friction') === 0 || (p('staticFriction') === 0 && p('kineticFriction') === 0);
		if (p('damping') !== 0 || p('groundEnabled') !== 1 || !frictionless || p('restitution') !== 0) {
			throw new Error(`bench: ${c.name}: the fluid peer has no damping, friction, restitution or switch for the ground`);
		}
	} finally {
		world.destroy();
	}
	const peer = createPeerFluid(scene);
	const planes = tankPlanes(scene.tank, scene.ground);
	const steps = (n) => { for (let i = 0; i < n; i++) peer.step(); };
	let warmFigures;
	const runs = time(steps, steps, c, () => {
		warmFigures = densityFigures(peer.positions, 3, 0, peer.particles, scene.h, scene.d, planes);
		peer.resetPartTimes();
	});
	const ms = median(runs);
	const timedSteps = c.runs * c.steps;
	const partMs = Object.fromEntries(PEER_PARTS.map((name) => [name, peer.partMs[name] / timedSteps]));
	const figures = densityFigures(peer.positions, 3, 0, peer.particles, scene.h, scene.d, planes);
	const passes = scene.substeps * scene.iterations;
	return {
		...caseFields(c), impl: 'js', particles: peer.particles, constraints: 0, passes, warmup_steps: c.warmup,
		steps_per_run: c.steps, runs, ms_median: ms, ms_min: Math.min(...runs), proj_per_s: null,
		max_stretch: 0, max_stretch_final: 0, hash_after_warmup: null, hash_final: null,
		...densityFields(warmFigures, '_warmup'), ...densityFields(figures), mean_neighbours: peer.meanNeighbours, dropped_neighbours: peer.droppedNeighbours,
		part_ms: partMs,
		build: 'plain JavaScript (PBF as web demos write it: Float32Arrays, spatial hash, neighbour arrays), Node/V8',
	};
}
