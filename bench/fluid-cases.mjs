/* fluid-cases.mjs -- the fluids' bench cases for bench.mjs: dam breaks of Position Based
   Fluids (Macklin & Mueller 2013, seed 002) in a glass tank, timed per step, per part of the substep
   (pbd_World_RunFluidPart) and against the particle count, on our builds and the plain-JS peer (peer-pbf.mjs).

   A case is a plan, as the solids' are (solid-cases.mjs): one list of operations (create the world with these
   capacities, set a parameter, add a fluid block, add a collider) that this file applies to a wasm world
   through the engine's exports (pbdjs_CreateWorld with the capacity fluidParticles,
   pbd_World_SetParam, pbdjs_AddFluid, pbdjs_AddCollider) and that bench.mjs writes to a file for bench_native
   (bench_native_world.c replays it with the C API). So every one of our builds starts from the same floats,
   and the peer starts from the particles the engine built, with the parameters read back from the engine.

   The scene (every size): a block of nx x ny x nz particles at the fluid's spacing d (fluid.spacing, the
   parameter table's default) standing in the corner x = 0, z = 0 of a tank 3 nx d long (x) and nz d wide (z),
   on the ground y = 0, between four box colliders (0.1 m thick, 3 ny d high); the block is released at rest
   and breaks along x. Walls and ground have no friction and no restitution (so the peer, which clamps to
   them, meets the same boundary). 2 substeps x 2 iterations per 1/60 s step (the split for 25k).

   Density error, next to every time: pbdFluidStats (pbd_World_GetFluidStats: a fresh search on the committed
   positions) on our builds; on the peer and, as the cross-check, on the wasm world's positions, densityFigures
   below, the same definition written here: rho_i = m W(0) + sum_j m W(|x_i - x_j|) with Poly6 (its constant
   fitted to the lattice as the engine's, kernels below), over the particles closer than h, plus the nearest
   wall's share (the engine counts the ground and the colliders as rest fluid beyond them: fluid.c
   Fluid_WallTable); densityError = mean_i max(rho_i / rho0 - 1, 0), maxDensity = max_i rho_i / rho0. */

import { OBJECT_FIELDS } from '../web/js/engine/param-table.js';

const MAX_POINTERS = 16; // what web/js's loader reserves for pointer attachments
// pbdObjectInfo's fields, all int32 (src/minipbd.h PBD_OBJECT_FIELDS, generated into web/js/engine/param-table.js)
const INFO = Object.fromEntries(OBJECT_FIELDS.map((f, k) => [f, k]));
const BOX = 2; // pbdColliderType box
const PART_NAMES = ['sort', 'neighbours', 'density', 'correct', 'vorticity', 'viscosity']; // pbdFluidPart order
export const FLUID_PARTS = PART_NAMES;

/* The block sizes (nx, ny, nz) by particle count: the two dam breaks of the issue and the scaling series. */
export const BLOCKS = {
	'216': [6, 6, 6], '2k': [10, 20, 10], '8k': [20, 20, 20], '25k': [25, 40, 25], '50k': [25, 40, 50], '100k': [50, 40, 50],
};

/** The dam-break plan of a block of n = [nx, ny, nz] particles (see the file's comment). */
export function damPlan(n, d) {
	const [nx, ny, nz] = n;
	const count = nx * ny * nz;
	// A quarter spacing past the last centre, so rounding cannot lose a row (builders/fluid.c counts floor(L / d)).
	const upper = n.map((k) => (k + 0.25) * d);
	const tank = { x: 3 * nx * d, z: nz * d, h: 3 * ny * d };
	const t = 0.05; // half the wall thickness
	const wall = (position, halfExtents) => ({ type: BOX, position, rotation: [0, 0, 0, 1], radius: 0.5, halfHeight: 0.5, halfExtents,
		staticFriction: 0, kineticFriction: 0, restitution: 0 });
	const hy = tank.h / 2;
	const colliders = [
		wall([-t, hy, tank.z / 2], [t, hy, tank.z / 2 + 2 * t]), wall([tank.x + t, hy, tank.z / 2], [t, hy, tank.z / 2 + 2 * t]),
		wall([tank.x / 2, hy, -t], [tank.x / 2 + 2 * t, hy, t]), wall([tank.x / 2, hy, tank.z + t], [tank.x / 2 + 2 * t, hy, t]),
	];
	return {
		count, block: n, tank,
		params: [['substeps', 2], ['iterations', 2], ['staticFriction', 0], ['kineticFriction', 0], ['restitution', 0]],
		fluid: { lower: [0, 0, 0], upper, velocity: [0, 0, 0], capacity: count },
		colliders,
	};
}

/**
 * The fluid cases in run order (bench.mjs makeCases appends them). A dam break's cost follows the motion (the
 * neighbour counts change as the column falls and spreads), so the step cases are timed as a timeline: 0.5 s
 * of warm-up (the column falls), then `runs` batches in order; every implementation times the same stretch.
 *   fluid-dam-8k, fluid-dam-25k   steps: our builds and the peer (the two targets)
 *   fluid-dam-25k/part-NAME       one pbd_World_RunFluidPart(NAME) per call, on the state after the warm-up
 *                                 (native and wasm; the peer's parts are timed inside its steps)
 *   fluid-scale-2k, -50k, -100k   the curve of ms per step against the count, with the two dam breaks
 * --quick: a 6 x 6 x 6 block for all of them (fluid-dam-216...).
 */
export function fluidCases(quick, impls, d = 0.02) {
	const ours = impls.ours;
	const main = ['native', 'native-clang', 'native-scalar', 'wasm', 'wasm-scalar'].filter((i) => ours.includes(i));
	const t = quick ? { warmup: 3, runs: 2, steps: 2 } : { warmup: 30, runs: 5, steps: 30 };
	const p = quick ? { warmup: 3, runs: 2, steps: 2 } : { warmup: 30, runs: 7, steps: 20 };
	const s = quick ? { warmup: 3, runs: 2, steps: 2 } : { warmup: 30, runs: 3, steps: 10 };
	const block = (k) => BLOCKS[quick ? '216' : k];
	const tag = (k) => (quick ? `${k}/216` : k);
	const list = [
		{ name: `fluid-dam-${tag('8k')}`, size: '8k', ...t, impls: [...main, 'js'] },
		{ name: `fluid-dam-${tag('25k')}`, size: '25k', ...t, impls: [...main, 'js'] },
		...PART_NAMES.map((part, k) => ({ name: `fluid-dam-${tag('25k')}/part-${part}`, size: '25k', mode: 'part', part: k, partName: part,
			...p, impls: ['native', 'wasm'] })),
		{ name: `fluid-scale-${tag('2k')}`, size: '2k', ...s, impls: ['native', 'wasm', 'js'] },
		{ name: `fluid-scale-${tag('50k')}`, size: '50k', ...s, impls: ['native', 'wasm', 'js'] },
		// The peer at 100k would take about a minute of the bench for one more point of a curve it already has.
		{ name: `fluid-scale-${tag('100k')}`, size: '100k', ...s, impls: ['native', 'wasm'] },
	];
	return list.map((c) => ({ mode: 'step', params: {}, fluid: true, plan: damPlan(block(c.size), d), ...c }));
}

/* ---------------------------------------------------------------- building */

const colliderArgs = (c) => [c.type, ...c.position, ...c.rotation, c.radius, c.halfHeight, ...c.halfExtents, c.staticFriction,
	c.kineticFriction, c.restitution];

/**
 * The plan's operations, in the order both builds run them: ['create', name, value, ...] (capacities by
 * name, minipbd.h PBD_CAPACITIES: one object, exact particle counts, the fluid's capacity as fluidParticles), ['param', name, value], ['fluid', lower, upper,
 * velocity, capacity] (pbdjs_AddFluid's arguments after the world), ['collider', ...pbdjs_AddCollider's].
 * The parameters come before the block: it is laid out at fluid.spacing.
 */
export function fluidPlanOps(plan) {
	const f = plan.fluid;
	const at1 = (n) => Math.max(n, 1);
	return [
		['create', 'particles', plan.count, 'constraints', 1, 'triangles', 1, 'lines', 1, 'attachments', MAX_POINTERS, 'objects', 1,
			'colliders', at1(plan.colliders.length), 'tets', 1, 'skinVertices', 1, 'skinTriangles', 1, 'fluidParticles', plan.count],
		...plan.params.map(([name, value]) => ['param', name, value]),
		['fluid', ...f.lower, ...f.upper, ...f.velocity, f.capacity],
		...plan.colliders.map((c) => ['collider', ...colliderArgs(c)]),
	];
}

/** A wasm World made by the plan's operations: the solids' replayer, which knows the fluid operation. */
export { buildPlanWorld as buildFluidWorld } from './solid-cases.mjs';

/** The fluid object's live particles (object 0 of a fluid plan): { first, count }. */
export function fluidRange(engine, world) {
	engine.heap.out('pbdjs_GetObjectInfo', [world.id, 0]);
	const f = engine.heap.int32s(OBJECT_FIELDS.length);
	return { first: f[INFO.firstParticle], count: f[INFO.activeParticles] };
}

/** pbdFluidStats of the world now (6 int32 then 4 float32), or null with the engine's reason when it refuses. */
export function fluidStats(engine, world) {
	const r = engine.heap.out('pbdjs_GetFluidStats', [world.id], false);
	if (r < 0) return { error: engine.lastError(world.id) };
	const i = engine.heap.int32s(6), f = engine.heap.float32s(10).slice(6);
	return { particles: i[0], capacity: i[1], emitted: i[2], drained: i[3], full: i[4], droppedNeighbours: i[5],
		meanNeighbours: f[0], meanDensity: f[1], maxDensity: f[2], densityError: f[3] };
}

/** The record fields of a stats reading (fluidStats or the peer's), `suffix` '' for the final state, '_warmup'. */
export function densityFields(s, suffix = '') {
	if (!s || s.error) return { [`density_error${suffix}`]: null, [`max_density${suffix}`]: null, ...(s?.error ? { stats_error: s.error } : {}) };
	return {
		[`density_error${suffix}`]: s.densityError, [`max_density${suffix}`]: s.maxDensity, [`mean_density${suffix}`]: s.meanDensity,
		...(s.meanNeighbours === undefined ? {} : { [`mean_neighbours${suffix}`]: s.meanNeighbours }),
		...(s.droppedNeighbours === undefined ? {} : { [`dropped_neighbours${suffix}`]: s.droppedNeighbours }),
	};
}

/* ---------------------------------------------------------------- the density figures, one definition */

/**
 * Poly6 and spiky constants of smoothing radius h at spacing d, as the engine's (families/fluid.c
 * pbd_Fluid_UpdateKernel): spiky -45 / (pi h^6) (Mueller et al. 2003); Poly6's constant fitted so that a particle
 * of a rest lattice has rho = rho0 exactly, d^3 poly6 sum_lattice (h^2 - r^2)^3 = 1, the point itself included
 * (the continuous 315 / (64 pi h^9) is 1.0% off at h = 2 d); restGrad = sum over the lattice's other points of
 * |d^3 spiky (h - r)^2|^2, the rest sum of |grad C|^2 that epsilon and s_corr are relative to; wall: the walls'
 * share in rho / rho0 at distance phi (fluid.c Fluid_WallTable: a half-space of rest lattice continued through
 * the wall, its first layer d from a particle resting at phi = d / 2), tabulated at WALL_SAMPLES + 2 points.
 */
export function kernels(h, d) {
	const spiky = -45 / (Math.PI * h ** 6);
	const reach = Math.floor(h / d) + 1;
	let sumW = 0, restGrad = 0;
	for (let a = -reach; a <= reach; a++) {
		for (let b = -reach; b <= reach; b++) {
			for (let c = -reach; c <= reach; c++) {
				const r2 = d * d * (a * a + b * b + c * c);
				if (!(r2 < h * h)) continue;
				sumW += (h * h - r2) ** 3;
				if (r2 > 0) restGrad += (d ** 3 * spiky * (h - Math.sqrt(r2)) ** 2) ** 2;
			}
		}
	}
	const wall = new Float64Array(WALL_SAMPLES + 2);
	for (let s = 0; s <= WALL_SAMPLES + 1; s++) {
		const phi = h * s / WALL_SAMPLES;
		let sum = 0;
		for (let a = -reach; a <= reach; a++) {
			for (let b = -reach; b <= reach; b++) {
				for (let c = 0; c <= reach; c++) {
					const z = phi + 0.5 * d + c * d, r2 = d * d * (a * a + b * b) + z * z;
					if (r2 < h * h) sum += (h * h - r2) ** 3;
				}
			}
		}
		wall[s] = sum / sumW;
	}
	return { h, h2: h * h, poly6: 1 / (d ** 3 * sumW), spiky, restGrad, wall, wallInvStep: WALL_SAMPLES / h };
}

const WALL_SAMPLES = 64; // PBD_FLUID_WALL_SAMPLES

/** The walls' share in rho / rho0 at distance phi from the wall, and its slope d/dphi (fluid_solve.c Wall): the
 *  table read by linear interpolation, 0 from h on. out[0] = value, out[1] = slope. */
export function wallAt(k, phi, out) {
	out[0] = 0, out[1] = 0;
	if (!(phi < k.h)) return out;
	const s = Math.max(phi, 0) * k.wallInvStep;
	const at = Math.min(Math.floor(s), WALL_SAMPLES - 1);
	const a = k.wall[at], e = k.wall[at + 1] - a;
	out[0] = a + e * (s - at), out[1] = e * k.wallInvStep;
	return out;
}

/**
 * The walls of a dam-break tank as the engine finds them (fluid.c FindWalls: the ground first, then each collider
 * in order, the nearest within 2 h kept): planes n . p + c = phi, the ground's and the four walls' inner faces.
 */
export function tankPlanes(tank, ground = 0) {
	return [
		{ n: [0, 1, 0], c: -ground }, { n: [1, 0, 0], c: 0 }, { n: [-1, 0, 0], c: tank.x }, { n: [0, 0, 1], c: 0 }, { n: [0, 0, -1], c: tank.z },
	];
}

/** The nearest plane of `planes` to point (x, y, z) within `far` (strictly nearer than every earlier one), or -1. */
export function nearestPlane(planes, x, y, z, far) {
	let best = far, which = -1;
	for (let q = 0; q < planes.length; q++) {
		const { n, c } = planes[q];
		const phi = n[0] * x + n[1] * y + n[2] * z + c;
		if (phi < best) best = phi, which = q;
	}
	return which;
}

/** The smoothing radius as the engine uses it: fluid.smoothingRadius clamped to [d, 4 d] (docs/fluids.md). */
export const usedRadius = (smoothingRadius, d) => Math.min(Math.max(smoothingRadius, d), 4 * d);

/**
 * Density figures of `count` particles from `first` in positions x (stride floats per particle): a uniform
 * grid of cells h wide (a Map of cell keys: this runs once per record, not in a step), Poly6 over pairs closer
 * than h, plus the nearest of `planes`' wall share (tankPlanes; none by default), in doubles. Returns { meanDensity, maxDensity, densityError } (rho / rho0 units, as pbdFluidStats).
 */
export function densityFigures(x, stride, first, count, h, d, planes = []) {
	const k = kernels(h, d);
	const wall = [0, 0];
	const m = d * d * d; // the mass over rho0: every density below is rho / rho0
	const cellOf = (p) => [Math.floor(x[stride * p] / h), Math.floor(x[stride * p + 1] / h), Math.floor(x[stride * p + 2] / h)];
	const grid = new Map();
	for (let p = first; p < first + count; p++) {
		const key = cellOf(p).join(',');
		if (!grid.has(key)) grid.set(key, []);
		grid.get(key).push(p);
	}
	let sum = 0, max = 0, err = 0;
	for (let p = first; p < first + count; p++) {
		const [ci, cj, ck] = cellOf(p);
		const q = nearestPlane(planes, x[stride * p], x[stride * p + 1], x[stride * p + 2], 2 * h);
		let rho = m * k.poly6 * k.h2 ** 3;
		if (q >= 0) {
			const { n, c } = planes[q];
			rho += wallAt(k, n[0] * x[stride * p] + n[1] * x[stride * p + 1] + n[2] * x[stride * p + 2] + c, wall)[0];
		}
		for (let di = -1; di <= 1; di++) {
			for (let dj = -1; dj <= 1; dj++) {
				for (let dk = -1; dk <= 1; dk++) {
					for (const q of grid.get(`${ci + di},${cj + dj},${ck + dk}`) ?? []) {
						if (q === p) continue;
						const dx = x[stride * p] - x[stride * q], dy = x[stride * p + 1] - x[stride * q + 1], dz = x[stride * p + 2] - x[stride * q + 2];
						const r2 = dx * dx + dy * dy + dz * dz;
						if (r2 < k.h2) rho += m * k.poly6 * (k.h2 - r2) ** 3;
					}
				}
			}
		}
		sum += rho;
		max = Math.max(max, rho);
		err += Math.max(rho - 1, 0);
	}
	return { meanDensity: sum / count, maxDensity: max, densityError: err / count };
}
