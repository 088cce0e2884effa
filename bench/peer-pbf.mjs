/* peer-pbf.mjs -- the fluid peer of bench.mjs's fluid cases: Position Based Fluids (Macklin & Mueller 2013,
   seed 002) written in plain JavaScript the way web demos write it: Float32Array positions, predicted
   positions and velocities, 3 floats per particle; a uniform grid of cells h wide over the tank (Ten Minute
   Physics' counting-sort layout of 11-hashing), rebuilt every substep, and per-particle neighbour arrays (a
   fixed 80 slots each, as the engine's lists) filled from it; every loop a plain scalar loop over particles and their neighbours (no SIMD,
   no wasm, no allocation in the step). Same scene as the engine's case (the particles where MiniPBD put them,
   the tank of fluid-cases.mjs damPlan) and the same parameters, read back from the engine world.

   Per substep of ts = dt / substeps, as Macklin & Mueller's Algorithm 1 and MiniPBD's step:
     predict     v += ts g; p = x + ts v
     neighbours  the grid of p, then for each particle the others closer than h (27 cells)
     solve       per iteration: rho_i = m W(0) + sum_j m W(r_ij) (Poly6, fitted so a rest lattice has rho0), C_i = max(rho_i / rho0 - 1, 0) (the
                 unilateral form, seed 002 pitfalls), lambda_i = -C_i / (sum_k |grad_k C_i|^2 + eps) with the
                 spiky gradient, grad_j C_i = -(m / rho0) grad W_ij, eps = relaxation x the rest lattice's sum;
                 dp_i = (m / rho0) sum_j (lambda_i + lambda_j + s_corr_ij) grad W_ij (Jacobi), s_corr =
                 -k (W(r) / W(dq h))^n / S_rest (k made dimensionless by the rest lattice's sum S_rest, the
                 units of lambda); the nearest wall (ground or tank wall, found with the neighbours) counts as rest
                 fluid beyond it, its share in rho and in grad_i C, and it mirrors lambda_i in dp_i (the engine's
                 wall table, fluid-cases.mjs wallAt); p += dp; then the walls and the ground: p clamped to r = d / 2 inside them
                 (frictionless, as the case's colliders and ground are)
     velocities  v = (p - x) / ts, |v| <= maxSpeed; then, both from these same v (the paper's Algorithm 1 lines
                 21-22, as fluid_velocity.c): vorticity confinement (eqs. 15-16): w_i = sum_j (m / rho0)
                 grad_i W_ij x (v_j - v_i), eta_i = sum_j (|w_j| - |w_i|) grad W_ij, N = eta / |eta|, a push
                 vorticity h (N x w_i) (fluid_velocity.c's dimensionless scaling: a share per pass, linear in w);
                 XSPH (eq. 17, symmetric): viscosity sum_j (m / rho0) (v_j - v_i) W_ij; v_i += both (Jacobi:
                 every sum reads the velocities before the passes); x = p

   Its doubles are stored to float32, so its state is close to MiniPBD's, not bit-identical: it has no hash,
   and its density error (fluid-cases.mjs densityFigures on its positions) shows what its arithmetic gives.
   Each part's time is summed over the timed steps (performance.now around each part of each substep). */
import { kernels, nearestPlane, tankPlanes, wallAt } from './fluid-cases.mjs';
import { performance } from 'node:perf_hooks';

const MAX_NEIGHBOURS = 80; // per particle, as the engine's lists (80 x maxFluidParticles entries)
export const PEER_PARTS = ['predict', 'neighbours', 'density', 'correct', 'vorticity', 'viscosity'];

/** A uniform grid of cells `spacing` wide over the tank (counting sort: cell counts, prefix sums, one array of
 *  entries, as Ten Minute Physics' 11-hashing lays out its hash, but dense: the tank is known, so no hash
 *  collisions); a particle outside (a splash above the walls) is counted in the nearest cell, which the 27-cell
 *  query around the nearest cell still covers. */
class Grid {
	constructor(spacing, size, maxNumObjects) {
		this.spacing = spacing;
		this.dims = size.map((s) => Math.max(1, Math.ceil(s / spacing)));
		this.cellStart = new Int32Array(this.dims[0] * this.dims[1] * this.dims[2] + 1);
		this.cellEntries = new Int32Array(maxNumObjects);
		this.cellOf = new Int32Array(maxNumObjects);
	}

	coord(value, axis) {
		const c = Math.floor(value / this.spacing);
		return c < 0 ? 0 : c >= this.dims[axis] ? this.dims[axis] - 1 : c;
	}

	cell(a, b, c) { return (a * this.dims[1] + b) * this.dims[2] + c; }

	create(pos, numObjects) {
		const { cellStart, cellEntries, cellOf } = this;
		cellStart.fill(0);
		for (let i = 0; i < numObjects; i++) {
			const cell = this.cell(this.coord(pos[3 * i], 0), this.coord(pos[3 * i + 1], 1), this.coord(pos[3 * i + 2], 2));
			cellOf[i] = cell;
			cellStart[cell]++;
		}
		let start = 0;
		for (let i = 0; i < cellStart.length - 1; i++) {
			start += cellStart[i];
			cellStart[i] = start;
		}
		cellStart[cellStart.length - 1] = start;
		for (let i = 0; i < numObjects; i++) cellEntries[--cellStart[cellOf[i]]] = i;
	}
}

/**
 * The peer world. scene: { x0 (Float32Array, stride 4: the engine's live fluid particles), d, rho0, h (as used),
 * relaxation, scorrK, scorrN, scorrDq, vorticity, viscosity, dt, substeps, iterations, gravity [3], maxSpeed,
 * ground (height), tank { x, z } }.
 */
export function createPeerFluid(scene) {
	const n = scene.x0.length / 4;
	const { d, h, substeps, iterations } = scene;
	const k = kernels(h, d);
	const vol = d * d * d; // m / rho0
	const r = d / 2;
	const x = new Float32Array(3 * n), p = new Float32Array(3 * n), v = new Float32Array(3 * n);
	for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) x[3 * i + c] = scene.x0[4 * i + c];
	const lambda = new Float32Array(n), density = new Float32Array(n);
	const dp = new Float32Array(3 * n), w = new Float32Array(3 * n), dv = new Float32Array(3 * n), wlen = new Float32Array(n);
	const dvw = new Float32Array(3 * n); // the confinement's push, added with XSPH's after both read the same v
	const neighbours = new Int32Array(n * MAX_NEIGHBOURS), neighbourCount = new Int32Array(n);
	// Each particle's nearest wall (the ground or a tank wall within 2 h, found with its neighbours) as the
	// plane n . p + c: index into planes, -1 for none.
	const planes = tankPlanes(scene.tank, scene.ground), wallOf = new Int8Array(n), wall = [0, 0];
	const grid = new Grid(h, [scene.tank.x, scene.tank.h, scene.tank.z], n);
	const partMs = Object.fromEntries(PEER_PARTS.map((name) => [name, 0]));
	let dropped = 0;

	const h2 = k.h2, poly6 = k.poly6, spiky = k.spiky;
	const W = (r2) => {
		if (r2 >= h2) return 0;
		const q = h2 - r2;
		return poly6 * q * q * q;
	};
	const scorrN = scene.scorrN;
	// The rest lattice's sum of |grad_j C_i|^2 (fluid-cases.mjs kernels): eps and s_corr's units.
	const restSum = k.restGrad;
	const eps = scene.relaxation * restSum;
	const scorrW = scene.scorrDq > 0 ? W((scene.scorrDq * h) ** 2) : 0;
	const scorrK = scorrW > 0 ? scene.scorrK / restSum : 0;

	function findNeighbours() {
		grid.create(p, n);
		dropped = 0;
		const { cellStart, cellEntries, dims } = grid;
		for (let i = 0; i < n; i++) {
			const px = p[3 * i], py = p[3 * i + 1], pz = p[3 * i + 2];
			const xi = grid.coord(px, 0), yi = grid.coord(py, 1), zi = grid.coord(pz, 2);
			let count = 0;
			for (let a = Math.max(xi - 1, 0); a <= Math.min(xi + 1, dims[0] - 1); a++) {
				for (let b = Math.max(yi - 1, 0); b <= Math.min(yi + 1, dims[1] - 1); b++) {
					for (let c = Math.max(zi - 1, 0); c <= Math.min(zi + 1, dims[2] - 1); c++) {
						const cell = grid.cell(a, b, c);
						for (let e = cellStart[cell]; e < cellStart[cell + 1]; e++) {
							const j = cellEntries[e];
							if (j === i) continue;
							const dx = px - p[3 * j], dy = py - p[3 * j + 1], dz = pz - p[3 * j + 2];
							if (dx * dx + dy * dy + dz * dz >= h2) continue;
							if (count < MAX_NEIGHBOURS) neighbours[i * MAX_NEIGHBOURS + count++] = j;
							else dropped++;
						}
					}
				}
			}
			neighbourCount[i] = count;
			wallOf[i] = nearestPlane(planes, px, py, pz, 2 * h);
		}
	}

	function solveDensity() {
		for (let i = 0; i < n; i++) {
			const px = p[3 * i], py = p[3 * i + 1], pz = p[3 * i + 2];
			let rho = vol * poly6 * h2 * h2 * h2;
			let gx = 0, gy = 0, gz = 0, sum2 = 0;
			for (let s = 0; s < neighbourCount[i]; s++) {
				const j = neighbours[i * MAX_NEIGHBOURS + s];
				const dx = px - p[3 * j], dy = py - p[3 * j + 1], dz = pz - p[3 * j + 2];
				const r2 = dx * dx + dy * dy + dz * dz;
				if (r2 >= h2) continue;
				const q = h2 - r2;
				rho += vol * poly6 * q * q * q;
				const len = Math.sqrt(r2);
				if (len === 0) continue; // coincident: no direction, no gradient
				const f = vol * spiky * (h - len) * (h - len) / len;
				gx += f * dx, gy += f * dy, gz += f * dz;
				sum2 += f * f * r2;
			}
			if (wallOf[i] >= 0) {
				// The wall counts as rest fluid beyond it: its share and its slope along the normal (fluid_solve.c).
				const { n: wn, c } = planes[wallOf[i]];
				wallAt(k, wn[0] * px + wn[1] * py + wn[2] * pz + c, wall);
				rho += wall[0];
				gx += wall[1] * wn[0], gy += wall[1] * wn[1], gz += wall[1] * wn[2];
			}
			density[i] = rho;
			const C = Math.max(rho - 1, 0);
			const denom = sum2 + gx * gx + gy * gy + gz * gz + eps;
			lambda[i] = C > 0 && denom > 0 ? -C / denom : 0;
		}
	}

	function solveCorrect() {
		for (let i = 0; i < n; i++) {
			const px = p[3 * i], py = p[3 * i + 1], pz = p[3 * i + 2];
			let sx = 0, sy = 0, sz = 0;
			for (let s = 0; s < neighbourCount[i]; s++) {
				const j = neighbours[i * MAX_NEIGHBOURS + s];
				const dx = px - p[3 * j], dy = py - p[3 * j + 1], dz = pz - p[3 * j + 2];
				const r2 = dx * dx + dy * dy + dz * dz;
				if (r2 >= h2) continue;
				const len = Math.sqrt(r2);
				if (len === 0) continue;
				let scorr = 0;
				if (scorrK > 0) {
					const ratio = W(r2) / scorrW;
					let pow = ratio;
					for (let e = 1; e < scorrN; e++) pow *= ratio;
					scorr = -scorrK * pow;
				}
				const f = vol * (lambda[i] + lambda[j] + scorr) * spiky * (h - len) * (h - len) / len;
				sx += f * dx, sy += f * dy, sz += f * dz;
			}
			if (wallOf[i] >= 0) {
				// The wall mirrors lambda_i and does not move: (lambda_i + lambda_i) grad rho_wall.
				const { n: wn, c } = planes[wallOf[i]];
				const g = (lambda[i] + lambda[i]) * wallAt(k, wn[0] * px + wn[1] * py + wn[2] * pz + c, wall)[1];
				sx += g * wn[0], sy += g * wn[1], sz += g * wn[2];
			}
			dp[3 * i] = sx, dp[3 * i + 1] = sy, dp[3 * i + 2] = sz;
		}
		const lo = r, hiX = scene.tank.x - r, hiZ = scene.tank.z - r, floor = scene.ground + r;
		for (let i = 0; i < n; i++) {
			p[3 * i] = Math.min(Math.max(p[3 * i] + dp[3 * i], lo), hiX);
			p[3 * i + 1] = Math.max(p[3 * i + 1] + dp[3 * i + 1], floor);
			p[3 * i + 2] = Math.min(Math.max(p[3 * i + 2] + dp[3 * i + 2], lo), hiZ);
		}
	}

	function vorticity() {
		if (scene.vorticity === 0) return;
		for (let i = 0; i < n; i++) {
			let ox = 0, oy = 0, oz = 0;
			for (let s = 0; s < neighbourCount[i]; s++) {
				const j = neighbours[i * MAX_NEIGHBOURS + s];
				const dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1], dz = p[3 * i + 2] - p[3 * j + 2];
				const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
				if (len === 0 || len >= h) continue;
				// grad_j W(p_i - p_j) = -grad W(p_i - p_j)
				const f = -vol * spiky * (h - len) * (h - len) / len;
				const gx = f * dx, gy = f * dy, gz = f * dz;
				const ux = v[3 * j] - v[3 * i], uy = v[3 * j + 1] - v[3 * i + 1], uz = v[3 * j + 2] - v[3 * i + 2];
				ox += uy * gz - uz * gy, oy += uz * gx - ux * gz, oz += ux * gy - uy * gx;
			}
			w[3 * i] = ox, w[3 * i + 1] = oy, w[3 * i + 2] = oz;
			wlen[i] = Math.hypot(ox, oy, oz);
		}
		for (let i = 0; i < n; i++) {
			let ex = 0, ey = 0, ez = 0;
			for (let s = 0; s < neighbourCount[i]; s++) {
				const j = neighbours[i * MAX_NEIGHBOURS + s];
				const dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1], dz = p[3 * i + 2] - p[3 * j + 2];
				const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
				if (len === 0 || len >= h) continue;
				const f = (wlen[j] - wlen[i]) * spiky * (h - len) * (h - len) / len; // V scales eta, not N: left out
				ex += f * dx, ey += f * dy, ez += f * dz;
			}
			const el = Math.hypot(ex, ey, ez);
			if (el === 0) { dvw[3 * i] = dvw[3 * i + 1] = dvw[3 * i + 2] = 0; continue; }
			const nx = ex / el, ny = ey / el, nz = ez / el;
			const ox = w[3 * i], oy = w[3 * i + 1], oz = w[3 * i + 2];
			const s = scene.vorticity * h; // dt eps = vorticity h (fluid_velocity.c): linear in w
			dvw[3 * i] = s * (ny * oz - nz * oy), dvw[3 * i + 1] = s * (nz * ox - nx * oz), dvw[3 * i + 2] = s * (nx * oy - ny * ox);
		}
	}

	// XSPH from the same v as the curl above, then v += XSPH + confinement (fluid_velocity.c's order).
	function viscosity() {
		const vort = scene.vorticity !== 0;
		if (scene.viscosity === 0) {
			if (vort) for (let i = 0; i < 3 * n; i++) v[i] += dvw[i];
			return;
		}
		for (let i = 0; i < n; i++) {
			let sx = 0, sy = 0, sz = 0;
			for (let s = 0; s < neighbourCount[i]; s++) {
				const j = neighbours[i * MAX_NEIGHBOURS + s];
				const dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1], dz = p[3 * i + 2] - p[3 * j + 2];
				const wij = vol * W(dx * dx + dy * dy + dz * dz);
				sx += wij * (v[3 * j] - v[3 * i]), sy += wij * (v[3 * j + 1] - v[3 * i + 1]), sz += wij * (v[3 * j + 2] - v[3 * i + 2]);
			}
			dv[3 * i] = scene.viscosity * sx, dv[3 * i + 1] = scene.viscosity * sy, dv[3 * i + 2] = scene.viscosity * sz;
		}
		if (vort) for (let i = 0; i < 3 * n; i++) v[i] = v[i] + dv[i] + dvw[i];
		else for (let i = 0; i < 3 * n; i++) v[i] += dv[i];
	}

	const timed = (name, fn) => {
		const t0 = performance.now();
		fn();
		partMs[name] += performance.now() - t0;
	};

	const ts = scene.dt / substeps;
	function substep() {
		const [gx, gy, gz] = scene.gravity;
		timed('predict', () => {
			for (let i = 0; i < n; i++) {
				v[3 * i] += ts * gx, v[3 * i + 1] += ts * gy, v[3 * i + 2] += ts * gz;
				p[3 * i] = x[3 * i] + ts * v[3 * i], p[3 * i + 1] = x[3 * i + 1] + ts * v[3 * i + 1], p[3 * i + 2] = x[3 * i + 2] + ts * v[3 * i + 2];
			}
		});
		timed('neighbours', findNeighbours);
		for (let it = 0; it < iterations; it++) {
			timed('density', solveDensity);
			timed('correct', solveCorrect);
		}
		timed('predict', () => {
			const vmax = scene.maxSpeed;
			for (let i = 0; i < n; i++) {
				let vx = (p[3 * i] - x[3 * i]) / ts, vy = (p[3 * i + 1] - x[3 * i + 1]) / ts, vz = (p[3 * i + 2] - x[3 * i + 2]) / ts;
				const speed = Math.hypot(vx, vy, vz);
				if (speed > vmax) { const s = vmax / speed; vx *= s, vy *= s, vz *= s; }
				v[3 * i] = vx, v[3 * i + 1] = vy, v[3 * i + 2] = vz;
			}
		});
		timed('vorticity', vorticity);
		timed('viscosity', viscosity);
		x.set(p);
	}

	return {
		particles: n,
		positions: x,
		partMs,
		get droppedNeighbours() { return dropped; },
		/** Neighbours per particle in the last substep's lists (pbdFluidStats.meanNeighbours' figure). */
		get meanNeighbours() {
			let sum = 0;
			for (let i = 0; i < n; i++) sum += neighbourCount[i];
			return sum / n;
		},
		resetPartTimes() { for (const name of PEER_PARTS) partMs[name] = 0; },
		step() { for (let s = 0; s < substeps; s++) substep(); },
	};
}
