/* solid-run.mjs -- bench.mjs's runs of the solid cases (solid-cases.mjs) in this process: on a wasm build, and
   on the plain-JS soft-body peer (peer-softbody.mjs). Each times the same warm-up and runs as every other
   implementation of the case and measures the quality of its final state with the same functions. */
import { performance } from 'node:perf_hooks';
import { bodyRanges, buildPlanWorld, interpenetration, shapeError, softMeshes, softQuality } from './solid-cases.mjs';
import { createPeerSoftBodies } from './peer-softbody.mjs';

const hex = (h) => `0x${(h >>> 0).toString(16).padStart(8, '0')}`;

function median(values) {
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/** Warm-up (then afterWarmup()), then `runs` timed batches of `steps` steps, each one call of step(n); ms per
 *  step of each batch. */
function time(step, c, afterWarmup = () => {}) {
	if (c.warmup > 0) step(c.warmup);
	afterWarmup();
	const runs = [];
	for (let r = 0; r < c.runs; r++) {
		const t0 = performance.now();
		step(c.steps);
		runs.push((performance.now() - t0) / c.steps);
	}
	return runs;
}

/** What a solid world is made of, read back from the engine: bodies' ranges, radii, rest positions, meshes. */
function describe(engine, world, c) {
	const ranges = bodyRanges(engine, world, c.plan.bodies.length);
	const radius = ranges.map((_, o) => engine.exports.pbd_World_GetObjectRadius(world.id, o));
	const x0 = Float32Array.from(world.positions);
	const meshes = c.solid === 'soft' ? softMeshes(c.plan, ranges, x0).map((m, o) => ({ ...m, ...ranges[o] })) : null;
	if (meshes) {
		const edges = meshes.reduce((s, m) => s + m.edges.length / 2, 0), tets = meshes.reduce((s, m) => s + m.tets.length / 4, 0);
		const engineTets = ranges.reduce((s, r) => s + r.tetCount, 0);
		if (edges !== world.constraintCount || tets !== engineTets) {
			throw new Error(`bench: ${c.name}: the lattice mirror has ${edges} edges and ${tets} tets, the engine ${world.constraintCount} and ${engineTets}`);
		}
	}
	return { ranges, radius, x0, meshes };
}

/** The quality figures of positions x (stride floats per particle) of case c. */
function quality(c, d, x, stride, ground, shape) {
	return {
		...(d.meshes ? softQuality(x, stride, d.meshes) : { max_shape_error: shape() }),
		...interpenetration(x, stride, d.ranges, d.radius, ground),
	};
}

/** The engine's own volume figures (pbd_World_GetObjectVolume): the soft quality's cross-check. */
function engineVolumes(engine, world, bodies) {
	let max = 0, inverted = 0;
	for (let o = 0; o < bodies; o++) {
		engine.heap.out('pbd_World_GetObjectVolume', [world.id, o]);
		const [v, v0, bad] = engine.heap.float64s(3);
		max = Math.max(max, Math.abs(v / v0 - 1));
		inverted += bad;
	}
	return { engine_volume_error_max: max, engine_inverted_tets: inverted };
}

/** Case c on a wasm engine: a record like runWasm's, with the solid's counts and quality. */
export function runSolidWasm(engine, c, impl, build) {
	const world = buildPlanWorld(engine, c.ops);
	try {
		const d = describe(engine, world, c);
		const passes = world.getParam('substeps') * world.getParam('iterations');
		let hashWarm;
		const runs = time((n) => world.step(n), c, () => { hashWarm = world.hash(); });
		const hashFinal = world.hash();
		const x = world.positions;
		const ms = median(runs);
		const tets = d.ranges.reduce((s, r) => s + r.tetCount, 0);
		return {
			case: c.name, impl, mode: 'step', solid: c.solid, params: {}, particles: world.particleCount, constraints: world.constraintCount,
			bodies: c.plan.bodies.length, tets, passes, warmup_steps: c.warmup, steps_per_run: c.steps, runs, ms_median: ms, ms_min: Math.min(...runs),
			proj_per_s: null, max_stretch: 0, max_stretch_final: 0, hash_after_warmup: hex(hashWarm), hash_final: hex(hashFinal),
			...quality(c, d, x, 4, world.getParam('groundHeight'), () => shapeError(engine, world, d.ranges, d.x0, x)),
			...(d.meshes ? engineVolumes(engine, world, c.plan.bodies.length) : {}),
			build,
		};
	} finally {
		world.destroy();
	}
}

/** Case c (a soft one) on the plain-JS peer, built from what `engine` built: the same particles and meshes. */
export function runSolidPeer(engine, c) {
	const world = buildPlanWorld(engine, c.ops);
	let d, scene;
	try {
		d = describe(engine, world, c);
		const p = (name) => world.getParam(name);
		scene = {
			x0: d.x0, meshes: d.meshes, radius: d.radius, dt: p('dt'), substeps: p('substeps'), passes: p('iterations'), gravityY: p('gravityY'),
			stiffness: { edge: p('stiffness.edge'), volume: p('stiffness.volume') }, selfFriction: p('selfFriction'), maxSpeed: p('maxSpeed'),
			ground: { height: p('groundHeight'), restitution: p('restitution'), staticFriction: p('staticFriction'), kineticFriction: p('kineticFriction') },
		};
		if (p('damping') !== 0 || p('gravityX') !== 0 || p('gravityZ') !== 0 || p('groundEnabled') !== 1) {
			throw new Error(`bench: ${c.name}: the soft peer has no damping, sideways gravity or switch for the ground`);
		}
	} finally {
		world.destroy();
	}
	const peer = createPeerSoftBodies(scene);
	const runs = time((n) => { for (let i = 0; i < n; i++) peer.step(); }, c);
	const ms = median(runs);
	return {
		case: c.name, impl: 'js', mode: 'step', solid: c.solid, params: {}, particles: peer.particles, constraints: peer.edges,
		bodies: c.plan.bodies.length, tets: peer.tets, passes: scene.substeps * scene.passes, warmup_steps: c.warmup, steps_per_run: c.steps, runs,
		ms_median: ms, ms_min: Math.min(...runs), proj_per_s: null, max_stretch: 0, max_stretch_final: 0, hash_after_warmup: null, hash_final: null,
		...quality(c, d, peer.positions, 3, scene.ground.height, null),
		build: 'plain JavaScript (Ten Minute Physics style soft bodies), Node/V8',
	};
}
