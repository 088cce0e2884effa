/* peers.mjs -- the benchmark cloth on two peers, for bench.mjs (`make bench`):

   js    the same algorithm written in plain JavaScript the way web demos write it
         (Ten Minute Physics' cloth, Float32Array state with 3 floats per particle, one
         Gauss-Seidel loop over the constraints per pass in build order: no colouring,
         no SIMD). It does the work of one MiniPBD step: prediction, 10 passes of the
         stretch, shear and bend distance constraints with MiniPBD's per-pass stiffness
         k' = 1 - (1 - k)^(1/passes), the tethers (each particle to its nearest pin, as
         src/tethers.c) and the ground with friction in each pass, then velocities with
         restitution and the speed bound. JS numbers are doubles stored to float32, so its
         state is close to MiniPBD's but not bit-identical: it has no hash check.

   ammo  Bullet's soft-body cloth through ammo.js (npm package `ammojs-typed`, the wasm
         build: the npm package `ammo.js` is a build without soft bodies). The patch of
         btSoftBodyHelpers.CreatePatch (the same grid, links between grid neighbours),
         both diagonals of every quad and the links two apart along rows and columns
         appended with appendLink (generateBendingConstraints needs n^2 memory at 100k
         nodes), the same masses and pins, 10 position iterations and no velocity, drift
         or cluster iterations, gravity, dt 1/60 with one substep. Bullet applies a link
         material's kLST in every iteration, so the bending links get MiniPBD's per-pass
         k' for k = 0.1 (stretch and shear: 1). There is no ground: MiniPBD's cloth never
         comes near it in this run (bench.mjs prints the lowest point of every peer), and
         Bullet's soft-rigid collision would only add work. No tethers: Bullet has none.

   Both report max_stretch as MiniPBD's stats do: max over the stretch (grid neighbour)
   links of length / rest - 1, at least 0, after the warm-up (the same simulated time as
   every other implementation) and after the runs, so speed is never bought with quality
   silently. lowest_y is the lowest point seen at those two times. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/** The benchmark scene's values (bench.mjs clothScene and bench_native.c). */
export const CLOTH = {
	dt: 1 / 60, passes: 10, gravityY: -9.81, mass: 0.01, size: 2, origin: [-1, 2.5, 0],
	stiffness: { stretch: 1, shear: 1, bend: 0.1 },
	groundHeight: 0, thickness: 0.01, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3, maxSpeed: 100,
};

/** MiniPBD's pbd_PassStiffness: the stiffness per pass that gives k after `passes` passes. */
export const passStiffness = (k, passes) => (k >= 1 ? 1 : 1 - Math.pow(1 - k, 1 / passes));

/** The cloth's constraints in MiniPBD's build order (src/world.c pbd_World_AddCloth). */
function clothLinks(res) {
	const I = (i, j) => j * res + i;
	const stretch = [], shear = [], bend = [];
	for (let j = 0; j < res; j++) {
		for (let i = 0; i < res; i++) {
			if (i + 1 < res) stretch.push(I(i, j), I(i + 1, j));
			if (j + 1 < res) stretch.push(I(i, j), I(i, j + 1));
		}
	}
	for (let j = 0; j + 1 < res; j++) {
		for (let i = 0; i + 1 < res; i++) {
			shear.push(I(i, j), I(i + 1, j + 1));
			shear.push(I(i + 1, j), I(i, j + 1));
		}
	}
	for (let j = 0; j < res; j++) {
		for (let i = 0; i < res; i++) {
			if (i + 2 < res) bend.push(I(i, j), I(i + 2, j));
			if (j + 2 < res) bend.push(I(i, j), I(i, j + 2));
		}
	}
	return { stretch, shear, bend };
}

/** Max over the stretch links of length / rest - 1, at least 0; get(i) gives particle i as [x, y, z]. */
function maxStretchOf(get, stretch, rest) {
	let max = 0;
	for (let c = 0; c < stretch.length / 2; c++) {
		const a = get(stretch[2 * c]), b = get(stretch[2 * c + 1]);
		const s = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) / rest[c] - 1;
		if (s > max) max = s;
	}
	return max;
}

function median(values) {
	const s = [...values].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/** Warm-up, `runs` timed batches of `steps` steps, median ms per step; stats() after the warm-up. */
function timeSteps(step, stats, c) {
	for (let i = 0; i < c.warmup; i++) step();
	const warm = stats();
	const runs = [];
	for (let r = 0; r < c.runs; r++) {
		const t0 = performance.now();
		for (let i = 0; i < c.steps; i++) step();
		runs.push((performance.now() - t0) / c.steps);
	}
	return { runs, ms: median(runs), warm };
}

/* ---------------------------------------------------------------- plain JS */

/** The cloth as a web demo writes it. Returns { step(), stats() }. */
export function createJsCloth(res) {
	const P = CLOTH;
	const n = res * res;
	const pos = new Float32Array(3 * n), prev = new Float32Array(3 * n), vel = new Float32Array(3 * n);
	const invMass = new Float32Array(n), contact = new Uint8Array(n);
	for (let j = 0; j < res; j++) {
		for (let i = 0; i < res; i++) {
			const k = j * res + i;
			pos[3 * k] = P.origin[0] + P.size * (i / (res - 1));
			pos[3 * k + 1] = P.origin[1] - P.size * (j / (res - 1));
			pos[3 * k + 2] = P.origin[2];
			invMass[k] = 1 / P.mass;
		}
	}
	invMass[0] = 0;
	invMass[res - 1] = 0;
	const links = clothLinks(res);
	const all = [...links.stretch, ...links.shear, ...links.bend];
	const m = all.length / 2;
	const ids = Int32Array.from(all);
	const rest = new Float32Array(m);
	for (let c = 0; c < m; c++) {
		const a = 3 * ids[2 * c], b = 3 * ids[2 * c + 1];
		rest[c] = Math.hypot(pos[a] - pos[b], pos[a + 1] - pos[b + 1], pos[a + 2] - pos[b + 2]);
	}
	const groups = [
		{ end: links.stretch.length / 2, k: passStiffness(P.stiffness.stretch, P.passes) },
		{ end: (links.stretch.length + links.shear.length) / 2, k: passStiffness(P.stiffness.shear, P.passes) },
		{ end: m, k: passStiffness(P.stiffness.bend, P.passes) },
	];
	// Tethers: each particle to its nearest pin in the rest pose (src/tethers.c).
	const pins = [];
	for (let i = 0; i < n; i++) if (invMass[i] === 0) pins.push(i);
	const tetherAnchor = new Int32Array(n).fill(-1), tetherRest = new Float32Array(n);
	for (let i = 0; i < n; i++) {
		if (invMass[i] === 0) continue;
		let best = Infinity;
		for (const q of pins) {
			const d = Math.hypot(pos[3 * i] - pos[3 * q], pos[3 * i + 1] - pos[3 * q + 1], pos[3 * i + 2] - pos[3 * q + 2]);
			if (d < best) { best = d; tetherAnchor[i] = q; }
		}
		tetherRest[i] = best;
	}
	const kTether = passStiffness(1, P.passes);
	const ground = P.groundHeight + 0.5 * P.thickness;
	const h = P.dt, g = P.gravityY;
	const restingSpeed = 2 * h * Math.abs(g);

	function solveGroup(from, end, k) {
		for (let c = from; c < end; c++) {
			const i1 = ids[2 * c], i2 = ids[2 * c + 1];
			const w1 = invMass[i1], w2 = invMass[i2];
			const wsum = w1 + w2;
			if (wsum <= 0) continue;
			const a = 3 * i1, b = 3 * i2;
			const dx = pos[a] - pos[b], dy = pos[a + 1] - pos[b + 1], dz = pos[a + 2] - pos[b + 2];
			const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
			if (len < 1e-9) continue;
			const s = k * (len - rest[c]) / (wsum * len);
			pos[a] -= s * w1 * dx;
			pos[a + 1] -= s * w1 * dy;
			pos[a + 2] -= s * w1 * dz;
			pos[b] += s * w2 * dx;
			pos[b + 1] += s * w2 * dy;
			pos[b + 2] += s * w2 * dz;
		}
	}

	function step() {
		for (let i = 0; i < n; i++) {
			contact[i] = 0;
			if (invMass[i] > 0) vel[3 * i + 1] += h * g;
			prev[3 * i] = pos[3 * i];
			prev[3 * i + 1] = pos[3 * i + 1];
			prev[3 * i + 2] = pos[3 * i + 2];
			pos[3 * i] += h * vel[3 * i];
			pos[3 * i + 1] += h * vel[3 * i + 1];
			pos[3 * i + 2] += h * vel[3 * i + 2];
		}
		for (let pass = 0; pass < P.passes; pass++) {
			let from = 0;
			for (const grp of groups) {
				if (grp.k > 0) solveGroup(from, grp.end, grp.k);
				from = grp.end;
			}
			for (let i = 0; i < n; i++) {
				const a = tetherAnchor[i];
				if (a < 0) continue;
				const dx = pos[3 * i] - pos[3 * a], dy = pos[3 * i + 1] - pos[3 * a + 1], dz = pos[3 * i + 2] - pos[3 * a + 2];
				const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
				const limit = tetherRest[i];
				if (len <= limit || len < 1e-9) continue;
				const s = kTether * (len - limit) / len;
				pos[3 * i] -= s * dx;
				pos[3 * i + 1] -= s * dy;
				pos[3 * i + 2] -= s * dz;
			}
			for (let i = 0; i < n; i++) {
				if (pos[3 * i + 1] >= ground || invMass[i] <= 0) continue;
				const depth = ground - pos[3 * i + 1];
				pos[3 * i + 1] = ground;
				contact[i] = 1;
				const tx = pos[3 * i] - prev[3 * i], tz = pos[3 * i + 2] - prev[3 * i + 2];
				const travel = Math.sqrt(tx * tx + tz * tz);
				if (travel < P.staticFriction * depth) {
					pos[3 * i] = prev[3 * i];
					pos[3 * i + 2] = prev[3 * i + 2];
				} else if (travel > 0) {
					const f = Math.min(1, P.kineticFriction * depth / travel);
					pos[3 * i] -= tx * f;
					pos[3 * i + 2] -= tz * f;
				}
			}
		}
		const maxSpeed2 = P.maxSpeed * P.maxSpeed;
		for (let i = 0; i < n; i++) {
			const approach = vel[3 * i + 1];
			vel[3 * i] = (pos[3 * i] - prev[3 * i]) / h;
			vel[3 * i + 1] = (pos[3 * i + 1] - prev[3 * i + 1]) / h;
			vel[3 * i + 2] = (pos[3 * i + 2] - prev[3 * i + 2]) / h;
			if (contact[i] && approach < -restingSpeed) vel[3 * i + 1] = Math.max(vel[3 * i + 1], -P.restitution * approach);
			const s2 = vel[3 * i] ** 2 + vel[3 * i + 1] ** 2 + vel[3 * i + 2] ** 2;
			if (s2 > maxSpeed2) {
				const f = P.maxSpeed / Math.sqrt(s2);
				vel[3 * i] *= f;
				vel[3 * i + 1] *= f;
				vel[3 * i + 2] *= f;
			}
		}
	}

	function stats() {
		const get = (i) => [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]];
		let lowest = Infinity;
		for (let i = 0; i < n; i++) lowest = Math.min(lowest, pos[3 * i + 1]);
		return { maxStretch: maxStretchOf(get, links.stretch, rest), lowest };
	}
	return { particles: n, constraints: m, step, stats };
}

export function runJs(c) {
	const cloth = createJsCloth(c.res);
	const { runs, ms, warm } = timeSteps(cloth.step, cloth.stats, c);
	const s = cloth.stats();
	return {
		particles: cloth.particles, constraints: cloth.constraints, passes: CLOTH.passes, runs, ms_median: ms,
		max_stretch: warm.maxStretch, max_stretch_final: s.maxStretch, lowest_y: Math.min(warm.lowest, s.lowest),
		build: 'plain JS: Float32Array xyz, Gauss-Seidel in build order, same constraints, tethers and ground',
	};
}

/* ---------------------------------------------------------------- ammo.js */

/** Loads the ammo.js wasm build; null (with the reason) when the package is missing. */
export async function loadAmmo() {
	const require = createRequire(import.meta.url);
	let factory, wasmFile, version;
	try {
		factory = require('ammojs-typed/wasm');
		wasmFile = require.resolve('ammojs-typed/ammo.wasm.wasm');
		version = require('ammojs-typed/package.json').version;
	} catch (err) {
		return { Ammo: null, reason: `ammojs-typed is not installed (npm ci): ${err.message.split('\n')[0]}` };
	}
	const Ammo = await factory({ wasmBinary: fs.readFileSync(wasmFile), print: () => {}, printErr: () => {} });
	return { Ammo, version };
}

/** Bullet's soft-body cloth. Returns { step(), stats(), destroy() }. */
export function createAmmoCloth(Ammo, res) {
	const P = CLOTH;
	const keep = []; // every object made here, destroyed at the end
	const make = (o) => (keep.push(o), o);
	const vec = (x, y, z) => make(new Ammo.btVector3(x, y, z));
	const config = make(new Ammo.btSoftBodyRigidBodyCollisionConfiguration());
	const dispatcher = make(new Ammo.btCollisionDispatcher(config));
	const broadphase = make(new Ammo.btDbvtBroadphase());
	const solver = make(new Ammo.btSequentialImpulseConstraintSolver());
	const softSolver = make(new Ammo.btDefaultSoftBodySolver());
	const world = new Ammo.btSoftRigidDynamicsWorld(dispatcher, broadphase, solver, config, softSolver);
	const gravity = vec(0, P.gravityY, 0);
	world.setGravity(gravity);
	world.getWorldInfo().set_m_gravity(gravity);

	const [ox, oy, oz] = P.origin;
	const helpers = make(new Ammo.btSoftBodyHelpers());
	// Node (i, j) = j * res + i, at origin + (i, -j) * size / (res - 1): MiniPBD's layout.
	const body = helpers.CreatePatch(world.getWorldInfo(), vec(ox, oy, oz), vec(ox + P.size, oy, oz),
		vec(ox, oy - P.size, oz), vec(ox + P.size, oy - P.size, oz), res, res, 0, false);
	const I = (i, j) => j * res + i;
	const stiff = body.get_m_materials().at(0); // kLST = 1: stretch (CreatePatch's links) and shear
	const bend = body.appendMaterial();
	bend.set_m_kLST(passStiffness(P.stiffness.bend, P.passes));
	for (let j = 0; j + 1 < res; j++) {
		for (let i = 0; i + 1 < res; i++) {
			body.appendLink(I(i, j), I(i + 1, j + 1), stiff, false);
			body.appendLink(I(i + 1, j), I(i, j + 1), stiff, false);
		}
	}
	for (let j = 0; j < res; j++) {
		for (let i = 0; i < res; i++) {
			if (i + 2 < res) body.appendLink(I(i, j), I(i + 2, j), bend, false);
			if (j + 2 < res) body.appendLink(I(i, j), I(i, j + 2), bend, false);
		}
	}
	const n = res * res;
	for (let i = 0; i < n; i++) body.setMass(i, P.mass);
	body.setMass(I(0, 0), 0);
	body.setMass(I(res - 1, 0), 0);
	const cfg = body.get_m_cfg();
	cfg.set_piterations(P.passes);
	cfg.set_viterations(0);
	cfg.set_diterations(0);
	cfg.set_citerations(0);
	world.addSoftBody(body, 1, -1);
	const links = clothLinks(res);
	const m = (links.stretch.length + links.shear.length + links.bend.length) / 2;

	// Node positions straight from the heap: Node i's m_x (x, y, z, pad) lives at a fixed
	// offset in the node array; checked against the accessor once here.
	const nodes = body.get_m_nodes();
	const base = Ammo.getPointer(nodes.at(0));
	const stride = Ammo.getPointer(nodes.at(1)) - base;
	const offset = Ammo.getPointer(nodes.at(0).get_m_x()) - base;
	const probe = nodes.at(n - 1).get_m_x();
	const at = (i) => {
		const f = Ammo.HEAPF32, k = (base + i * stride + offset) >> 2;
		return [f[k], f[k + 1], f[k + 2]];
	};
	const last = at(n - 1);
	if (last[0] !== probe.x() || last[1] !== probe.y() || last[2] !== probe.z()) {
		throw new Error('ammo: unexpected btSoftBody::Node layout');
	}
	const rest = new Float32Array(links.stretch.length / 2);
	for (let c = 0; c < rest.length; c++) {
		const a = at(links.stretch[2 * c]), b = at(links.stretch[2 * c + 1]);
		rest[c] = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
	}

	return {
		particles: n, constraints: m,
		step: () => world.stepSimulation(P.dt, 0), // maxSubSteps 0: exactly one step of dt
		stats() {
			let lowest = Infinity;
			for (let i = 0; i < n; i++) lowest = Math.min(lowest, at(i)[1]);
			return { maxStretch: maxStretchOf(at, links.stretch, rest), lowest };
		},
		destroy() {
			world.removeSoftBody(body);
			Ammo.destroy(body);
			Ammo.destroy(world);
			for (const o of keep.reverse()) Ammo.destroy(o);
		},
	};
}

export function runAmmo(Ammo, version, c) {
	const cloth = createAmmoCloth(Ammo, c.res);
	try {
		const { runs, ms, warm } = timeSteps(cloth.step, cloth.stats, c);
		const s = cloth.stats();
		return {
			particles: cloth.particles, constraints: cloth.constraints, passes: CLOTH.passes, runs, ms_median: ms,
			max_stretch: warm.maxStretch, max_stretch_final: s.maxStretch, lowest_y: Math.min(warm.lowest, s.lowest),
			heap_mb: Ammo.HEAP8.length / 2 ** 20,
			build: `Bullet soft body, ammojs-typed ${version} (wasm), piterations 10, links only`,
		};
	} finally {
		cloth.destroy();
	}
}
