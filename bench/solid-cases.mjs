/* solid-cases.mjs -- the solids' bench cases for bench.mjs: soft-20k (soft lattice cubes,
   tet edges + signed tet volumes) and rigid-256 (shape-matched lattice boxes piling up between walls).

   A case is a plan: one list of operations (create the world with these capacities, set a parameter, add a
   body, add a collider) that this file applies to a wasm world through the engine's exports
   (pbdjs_CreateWorld, pbd_World_SetParam, pbdjs_AddBody, pbdjs_AddCollider, as web/js's World.build() does)
   and that bench.mjs writes to a file for bench_native (bench_native_world.c reads it and makes the same C
   calls in the same order). So the plan is written once, and every one of our builds starts from the same
   floats: JS writes each number as its shortest round-trip decimal, C reads it with strtod, and both round
   the double to float32 the same way.

   Quality, next to the time (measured here on the final state, for our wasm and the JS peer alike; a native
   record ends on the same hash as the wasm one, so it has the same state and the same figures):
     soft   per body |V / V0 - 1| (V its tets' signed volumes summed), mean and max over the bodies;
            inverted tets (V <= 0); max edge stretch max(len / rest - 1, 0) and max compression
            max(1 - len / rest, 0) over every tet edge; max interpenetration (below)
     rigid  max shape error: the largest distance of a particle from its rigid goal c + R(q) (x0 - c0)
            (c, q: pbd_World_GetBodyTransform; x0, c0: the rest shape as built); max interpenetration
     interpenetration: the deepest overlap r_i + r_j - |x_i - x_j| of two particles of different bodies,
            or r_i - (y_i - ground) of a particle and the ground, in m and as a share of the particle radius */
import { World } from '../web/js/minipbd.js';
import { OBJECT_FIELDS } from '../web/js/engine/param-table.js';

const SOFT = 2, RIGID = 3; // PBD_OBJECT_SOFT, PBD_OBJECT_RIGID
const BOX = 0; // pbdBodyShape_box
const MAX_POINTERS = 16; // what web/js's loader reserves for pointer attachments
// pbdObjectInfo's fields, all int32 (src/minipbd.h PBD_OBJECT_FIELDS, generated into web/js/engine/param-table.js)
const INFO = Object.fromEntries(OBJECT_FIELDS.map((f, k) => [f, k]));
/* Kuhn's 6 tets of a cell, corner v = x + 2 y + 4 z (src/families/volume.c pbd_VolumeKuhn). */
const KUHN = [[0, 1, 3, 7], [0, 1, 7, 5], [0, 2, 7, 3], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 7, 6]];

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32): the layouts' jitter, the same every run. */
function random(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A unit quaternion [x, y, z, w] of `angle` radians about the unit `axis`. */
const quat = (axis, angle) => [...axis.map((a) => a * Math.sin(angle / 2)), Math.cos(angle / 2)];

const body = (type, position, rotation, halfExtent, resolution, mass) => ({
	type, shape: BOX, position, rotation, velocity: [0, 0, 0], halfExtents: [halfExtent, halfExtent, halfExtent],
	radius: 0.5, resolution, mass, particleRadius: 0,
});

/* ---------------------------------------------------------------- the cases */

/**
 * soft-20k: 16 soft cubes of 0.3 m, 6 x 6 x 6 cells (343 particles, 1,296 tets each: 20,736 tets), 1 kg,
 * edge stiffness 0.5 and volume stiffness 1 (the jelly scene's), in two layers of 4 x 2: the lower one drops
 * 7.5 cm onto the ground, the upper one 0.3 m onto it, shifted and turned so each upper cube lands across
 * two lower ones. 10 substeps x 1 pass (the scene defaults). --quick: 2 cubes of 2 x 2 x 2 cells, one on the other.
 */
export function softPlan(quick) {
	const rnd = random(20736);
	const half = 0.15, res = quick ? 2 : 6;
	const bodies = [];
	const grid = quick ? [[0, 0]] : Array.from({ length: 8 }, (_, k) => [(k % 4) - 1.5, (k >> 2) - 0.5]);
	for (const [i, k] of grid) bodies.push(body(SOFT, [0.4 * i, 0.25, 0.4 * k], [0, 0, 0, 1], half, res, 1));
	for (const [i, k] of grid) {
		const turn = quat([0, 1, 0], 0.6 * (rnd() - 0.5));
		bodies.push(body(SOFT, [0.4 * i + (quick ? 0.05 : 0.2), 0.85, 0.4 * k + 0.1 * (rnd() - 0.5)], turn, half, res, 1));
	}
	return { params: [['stiffness.edge', 0.5], ['stiffness.volume', 1]], bodies, colliders: [] };
}

/**
 * rigid-256: 256 rigid boxes of 0.2 m, 3 x 3 x 3 cells (4 x 4 x 4 = 64 particles each), 0.5 kg, shape
 * stiffness 1, in 4 layers of 8 x 8 on a 0.27 m grid, each tilted at random (up to ~35 degrees about a
 * random axis), dropped into a 2.3 m square pen of four box colliders: they land on each other and on the
 * ground and pile up, pressed together by the walls. --quick: 4 boxes, 2 layers of 2 x 1, the pen around them.
 */
export function rigidPlan(quick) {
	const rnd = random(256);
	const n = quick ? 2 : 8, layers = quick ? 2 : 4, across = quick ? 1 : n, pitch = 0.27;
	const bodies = [];
	for (let l = 0; l < layers; l++) {
		for (let k = 0; k < across; k++) {
			for (let i = 0; i < n; i++) {
				const axis = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
				const len = Math.hypot(...axis) || 1;
				const q = quat(axis.map((a) => a / len), 0.6 * rnd());
				const at = [pitch * (i - (n - 1) / 2), 0.2 + 0.3 * l, pitch * (k - (across - 1) / 2)];
				bodies.push(body(RIGID, at, q, 0.1, 3, 0.5));
			}
		}
	}
	// The pen: four walls 0.1 m thick and 1.5 m high, their inner faces 0.05 m beyond the outer boxes.
	const inner = pitch * (n - 1) / 2 + 0.2, innerZ = pitch * (across - 1) / 2 + 0.2;
	const wall = (position, halfExtents) => ({ type: 2, position, rotation: [0, 0, 0, 1], radius: 0.5, halfHeight: 0.5, halfExtents,
		staticFriction: 0.5, kineticFriction: 0.4, restitution: 0 });
	const colliders = [
		wall([inner + 0.05, 0.75, 0], [0.05, 0.75, innerZ + 0.1]), wall([-inner - 0.05, 0.75, 0], [0.05, 0.75, innerZ + 0.1]),
		wall([0, 0.75, innerZ + 0.05], [inner + 0.1, 0.75, 0.05]), wall([0, 0.75, -innerZ - 0.05], [inner + 0.1, 0.75, 0.05]),
	];
	return { params: [['stiffness.shape', 1]], bodies, colliders };
}

/**
 * The solid cases in run order (bench.mjs makeCases appends them): warm-up, runs, steps per run, impls. The cost
 * of a step follows the motion (the contacts' neighbour search dominates while bodies move and falls away once
 * they rest), so the timed runs are a timeline of the drop: 0.5 s of warm-up (the lower layer lands), then 5
 * runs of 0.5 s each (landing, settling, at rest by ~2.5 s); the median is the middle one, the slowest is
 * reported next to it, and the quality is that of the state at rest, 3 s after the drop.
 */
export function solidCases(quick, impls) {
	const t = quick ? { warmup: 3, runs: 2, steps: 2 } : { warmup: 30, runs: 5, steps: 30 };
	return [
		{ name: quick ? 'soft-20k/2-cubes' : 'soft-20k', solid: 'soft', plan: softPlan(quick), ...t, impls: [...impls.ours, 'js'] },
		{ name: quick ? 'rigid-256/4-boxes' : 'rigid-256', solid: 'rigid', plan: rigidPlan(quick), ...t, impls: impls.ours },
	].map((c) => ({ mode: 'step', params: {}, ...c }));
}

/* ---------------------------------------------------------------- building */

const bodyArgs = (b) => [b.type, b.shape, ...b.position, ...b.rotation, ...b.velocity, ...b.halfExtents, b.radius, b.resolution, b.mass,
	b.particleRadius, 0, 0, 0, 0, 0]; // no mesh arrays, no cells (a surface's fill)
const colliderArgs = (c) => [c.type, ...c.position, ...c.rotation, c.radius, c.halfHeight, ...c.halfExtents, c.staticFriction,
	c.kineticFriction, c.restitution];

/**
 * The plan's operations, in the order both builds run them: ['create', name, value, ...] (capacities by the
 * engine's capacity names, minipbd.h PBD_CAPACITIES; the counts of pbdjs_BodyCounts summed, as web/js's loader
 * sizes a world), ['param', name, value], ['body', ...pbdjs_AddBody
 * arguments after the world], ['collider', ...pbdjs_AddCollider arguments after the world].
 */
export function planOps(engine, plan) {
	const total = { particles: 0, edges: 0, tets: 0, skinVertices: 0, skinTriangles: 0 };
	for (const b of plan.bodies) {
		const r = engine.heap.out('pbdjs_BodyCounts', bodyArgs(b), false);
		if (r < 0) throw new Error(`bench: a body of the plan is refused: ${engine.lastError()}`);
		const [particles, edges, tets, skinVertices, skinTriangles] = engine.heap.int32s(5);
		Object.entries({ particles, edges, tets, skinVertices, skinTriangles }).forEach(([k, v]) => { total[k] += v; });
	}
	const at1 = (n) => Math.max(n, 1);
	return [
		['create', 'particles', at1(total.particles), 'constraints', at1(total.edges), 'triangles', 1, 'lines', 1,
			'attachments', MAX_POINTERS, 'objects', plan.bodies.length, 'colliders', at1(plan.colliders.length), 'tets', at1(total.tets),
			'skinVertices', at1(total.skinVertices), 'skinTriangles', at1(total.skinTriangles)],
		...plan.params.map(([name, value]) => ['param', name, value]),
		...plan.bodies.map((b) => ['body', ...bodyArgs(b)]),
		...plan.colliders.map((c) => ['collider', ...colliderArgs(c)]),
	];
}

/** The operations as bench_native_world.c reads them: one per line, words separated by spaces. */
export const opsText = (ops) => ops.map((op) => op.map(String).join(' ')).join('\n') + '\n';

/** A wasm World (engine/world.js: step, hash, stats, positions) made by a plan's operations (the solids' and the
 *  fluids' plans: param, body, fluid, collider), as bench_native_world.c replays them natively. */
export function buildPlanWorld(engine, ops) {
	const e = engine.exports;
	const [create, ...rest] = ops;
	const caps = {};
	for (let k = 1; k < create.length; k += 2) caps[create[k]] = create[k + 1];
	const id = engine.createWorldWith(caps);
	// The threaded build: on the engine's team with its default thread count, as engine.createWorld does.
	if (engine.team) engine.check(e.pbd_World_SetThreads(id, engine.team, engine.threads), 'create', id);
	const world = new World(engine, id, { objects: [], colliders: [] });
	try {
		for (const [op, ...args] of rest) {
			if (op === 'param') engine.check(e.pbd_World_SetParam(id, engine.paramIds.get(args[0]), args[1]), 'engine', id);
			else if (op === 'body') engine.check(e.pbdjs_AddBody(id, ...args), 'engine', id);
			else if (op === 'fluid') engine.check(e.pbdjs_AddFluid(id, ...args), 'engine', id);
			else if (op === 'collider') engine.check(e.pbdjs_AddCollider(id, ...args), 'engine', id);
			else throw new Error(`bench: unknown plan operation ${op}`);
		}
	} catch (err) {
		e.pbd_DestroyWorld(id);
		throw err;
	}
	engine.heap.refreshViews();
	return world;
}

/** Each body's particle range and tet count (pbdjs_GetObjectInfo). */
export function bodyRanges(engine, world, count) {
	return Array.from({ length: count }, (_, o) => {
		engine.heap.out('pbdjs_GetObjectInfo', [world.id, o]);
		const f = engine.heap.int32s(OBJECT_FIELDS.length);
		return { first: f[INFO.firstParticle], count: f[INFO.particleCount], firstTet: f[INFO.firstTet], tetCount: f[INFO.tetCount] };
	});
}

/* ---------------------------------------------------------------- the soft bodies' mesh, for the peer and the quality */

/**
 * The tets and edges of a box body of n x n x n cells as the engine builds it (src/builders/lattice.c: every
 * corner a particle, ranked i + (n + 1) (j + (n + 1) k); cells by (k, j, i), 6 Kuhn tets each), particle indices
 * from `first`; edges: each tet edge once, in the order the tets first name them (as a mesh file lists them).
 */
export function boxLatticeMesh(n, first) {
	const m = n + 1;
	const corner = (i, j, k) => first + i + m * (j + m * k);
	const tets = [], edges = [], seen = new Set();
	for (let k = 0; k < n; k++) {
		for (let j = 0; j < n; j++) {
			for (let i = 0; i < n; i++) {
				const c = Array.from({ length: 8 }, (_, v) => corner(i + (v & 1), j + ((v >> 1) & 1), k + (v >> 2)));
				for (const t of KUHN) {
					const ids = t.map((v) => c[v]);
					tets.push(...ids);
					for (let a = 0; a < 4; a++) {
						for (let b = a + 1; b < 4; b++) {
							const lo = Math.min(ids[a], ids[b]), hi = Math.max(ids[a], ids[b]);
							const key = lo * 1e7 + hi;
							if (!seen.has(key)) { seen.add(key); edges.push(lo, hi); }
						}
					}
				}
			}
		}
	}
	return { tets: Int32Array.from(tets), edges: Int32Array.from(edges) };
}

/** Six times the signed volume of tet t of `tets` in positions x (stride floats per particle), in doubles. */
export function tetVolume6(x, stride, tets, t) {
	const a = stride * tets[4 * t], b = stride * tets[4 * t + 1], c = stride * tets[4 * t + 2], d = stride * tets[4 * t + 3];
	const e1x = x[b] - x[a], e1y = x[b + 1] - x[a + 1], e1z = x[b + 2] - x[a + 2];
	const e2x = x[c] - x[a], e2y = x[c + 1] - x[a + 1], e2z = x[c + 2] - x[a + 2];
	const e3x = x[d] - x[a], e3y = x[d + 1] - x[a + 1], e3z = x[d + 2] - x[a + 2];
	return e1x * (e2y * e3z - e2z * e3y) + e1y * (e2z * e3x - e2x * e3z) + e1z * (e2x * e3y - e2y * e3x);
}

const edgeLength = (x, stride, edges, e) => {
	const a = stride * edges[2 * e], b = stride * edges[2 * e + 1];
	return Math.hypot(x[a] - x[b], x[a + 1] - x[b + 1], x[a + 2] - x[b + 2]);
};

/** The soft bodies' meshes (boxLatticeMesh per body) with rest volumes and lengths from positions x0 (stride 4). */
export function softMeshes(plan, ranges, x0) {
	return plan.bodies.map((b, o) => {
		const mesh = boxLatticeMesh(b.resolution, ranges[o].first);
		const restVolume6 = Float64Array.from({ length: mesh.tets.length / 4 }, (_, t) => tetVolume6(x0, 4, mesh.tets, t));
		const restLength = Float64Array.from({ length: mesh.edges.length / 2 }, (_, e) => edgeLength(x0, 4, mesh.edges, e));
		return { ...mesh, restVolume6, restLength };
	});
}

/* ---------------------------------------------------------------- quality */

/** Volume and edge figures of soft bodies in positions x (stride floats per particle). */
export function softQuality(x, stride, meshes) {
	let sumErr = 0, maxErr = 0, inverted = 0, stretch = 0, compression = 0;
	for (const m of meshes) {
		let v = 0, v0 = 0;
		for (let t = 0; t < m.restVolume6.length; t++) {
			const v6 = tetVolume6(x, stride, m.tets, t);
			if (v6 <= 0) inverted++;
			v += v6;
			v0 += m.restVolume6[t];
		}
		const err = Math.abs(v / v0 - 1);
		sumErr += err;
		maxErr = Math.max(maxErr, err);
		for (let e = 0; e < m.restLength.length; e++) {
			const s = edgeLength(x, stride, m.edges, e) / m.restLength[e] - 1;
			stretch = Math.max(stretch, s);
			compression = Math.max(compression, -s);
		}
	}
	return { volume_error_mean: sumErr / meshes.length, volume_error_max: maxErr, inverted_tets: inverted,
		max_edge_stretch: stretch, max_edge_compression: compression };
}

/**
 * The deepest interpenetration in positions x (stride floats per particle): of two particles of different
 * bodies (ranges[o] = { first, count }, radius[o]), through a uniform grid of cells the largest contact
 * distance wide, and of a particle and the ground at `ground`. Returns { max_penetration (m), ..._ratio (of
 * the radius of the particle, or the smaller one of the pair) }.
 */
export function interpenetration(x, stride, ranges, radius, ground) {
	const n = ranges.reduce((s, r) => s + r.count, 0);
	const owner = new Int32Array(n);
	ranges.forEach((r, o) => owner.fill(o, r.first, r.first + r.count));
	const cell = 2 * Math.max(...radius);
	const key = (i, j, k) => `${i},${j},${k}`;
	const grid = new Map();
	const at = (p) => [Math.floor(x[stride * p] / cell), Math.floor(x[stride * p + 1] / cell), Math.floor(x[stride * p + 2] / cell)];
	for (let p = 0; p < n; p++) {
		const k = key(...at(p));
		if (!grid.has(k)) grid.set(k, []);
		grid.get(k).push(p);
	}
	let depth = 0, ratio = 0;
	const note = (d, r) => {
		if (d > depth) depth = d;
		if (d / r > ratio) ratio = d / r;
	};
	for (let p = 0; p < n; p++) {
		const rp = radius[owner[p]];
		note(rp - (x[stride * p + 1] - ground), rp);
		const [ci, cj, ck] = at(p);
		for (let di = -1; di <= 1; di++) {
			for (let dj = -1; dj <= 1; dj++) {
				for (let dk = -1; dk <= 1; dk++) {
					for (const q of grid.get(key(ci + di, cj + dj, ck + dk)) ?? []) {
						if (q <= p || owner[q] === owner[p]) continue;
						const rq = radius[owner[q]];
						const a = stride * p, b = stride * q;
						const d = rp + rq - Math.hypot(x[a] - x[b], x[a + 1] - x[b + 1], x[a + 2] - x[b + 2]);
						if (d > 0) note(d, Math.min(rp, rq));
					}
				}
			}
		}
	}
	return { max_penetration: depth, max_penetration_ratio: ratio };
}

/** The largest distance of a rigid body's particle from its goal c + R(q) (x0 - c0), over every body. */
export function shapeError(engine, world, ranges, x0, x) {
	const heap = engine.heap;
	let worst = 0;
	ranges.forEach((r, o) => {
		heap.out('pbd_World_GetBodyTransform', [world.id, o]);
		const f = heap.f32.subarray(heap.scratch >> 2, (heap.scratch >> 2) + 7);
		const [cx, cy, cz, qx, qy, qz, qw] = f;
		// c0: the rest centre, the mean of the rest positions (a body's particles weigh the same)
		const c0 = [0, 0, 0];
		for (let p = r.first; p < r.first + r.count; p++) for (let k = 0; k < 3; k++) c0[k] += x0[4 * p + k] / r.count;
		for (let p = r.first; p < r.first + r.count; p++) {
			const vx = x0[4 * p] - c0[0], vy = x0[4 * p + 1] - c0[1], vz = x0[4 * p + 2] - c0[2];
			// v rotated by q: v + 2w (u x v) + 2 u x (u x v)
			const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
			const gx = cx + vx + qw * tx + (qy * tz - qz * ty), gy = cy + vy + qw * ty + (qz * tx - qx * tz), gz = cz + vz + qw * tz + (qx * ty - qy * tx);
			worst = Math.max(worst, Math.hypot(x[4 * p] - gx, x[4 * p + 1] - gy, x[4 * p + 2] - gz));
		}
	});
	return worst;
}
