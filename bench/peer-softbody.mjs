/* peer-softbody.mjs -- the soft-body peer of bench.mjs's soft-20k case: MiniPBD's soft-body algorithm written
   in plain JavaScript the way web demos write it (Ten Minute Physics' 10-softBodies: Float32Array positions,
   previous positions and velocities, 3 floats per particle; tet edges and signed tet volumes projected by
   Gauss-Seidel in mesh order; no colouring, no SIMD, no allocation in the step), on the same scene: the
   particles where MiniPBD put them, the same tets and edges (solid-cases.mjs boxLatticeMesh), masses,
   radii, substeps, passes and stiffness. Per substep of h = dt / substeps, as MiniPBD's step (seed 000):

     predict     v += h g; prev = x; x += h v
     neighbours  particle pairs of different bodies closer than 1.2 (r_i + r_j), from a spatial hash of the
                 predicted positions (Ten Minute Physics' Hash of 11-hashing: cell counts, prefix sums,
                 one array of entries; query the 27 cells around a particle), rebuilt every substep
     solve       per pass: every edge  C = |x_i - x_j| - l0     (k' = 1 - (1 - k)^(1/passes), seed 000)
                 every tet   C = 6 (V - V0) with gradients e2 x e3, e3 x e1, e1 x e2 and minus their sum
                             (skipped when sum_j w_j |grad_j|^2 is ~0, as MiniPBD skips a degenerate tet)
                 every pair  C = |x_i - x_j| - (r_i + r_j) >= 0, mass-weighted, with positional friction
                             (selfFriction: the tangential travel cancelled under mu depth, else shortened)
                 the ground  y >= r, with static and kinetic positional friction (Macklin et al. 2014)
     velocities  v = (x - prev) / h; the ground's restitution past the resting speed 2 h |g|; |v| <= maxSpeed

   Ten Minute Physics writes its volume constraint with XPBD compliance; at compliance 0 that is this
   projection with k = 1, and MiniPBD's edges at k = 0.5 are its PBD stiffness, so the peer uses k' as
   MiniPBD does. Its doubles are stored to float32, so its state is close to MiniPBD's, not bit-identical:
   it has no hash, and its quality figures (solid-cases.mjs) show what its arithmetic gives. */

const MARGIN = 1.2; // MiniPBD's PBD_CONTACT_MARGIN: pairs searched within 1.2 (r_i + r_j)
const DEGENERATE = 1e-12; // a tet's sum_j w_j |grad_j|^2 below this times sum_j w_j: moved by 0

/** MiniPBD's pbd_PassStiffness. */
const passStiffness = (k, passes) => (k >= 1 ? 1 : 1 - Math.pow(1 - k, 1 / passes));

/** Ten Minute Physics' dense spatial hash: particles into cells of `spacing`, queried 27 cells at a time. */
class Hash {
	constructor(spacing, maxNumObjects) {
		this.spacing = spacing;
		this.tableSize = 2 * maxNumObjects;
		this.cellStart = new Int32Array(this.tableSize + 1);
		this.cellEntries = new Int32Array(maxNumObjects);
		this.queryIds = new Int32Array(maxNumObjects);
		this.querySize = 0;
	}

	hashCoords(xi, yi, zi) {
		const h = (xi * 92837111) ^ (yi * 689287499) ^ (zi * 283923481);
		return Math.abs(h) % this.tableSize;
	}

	intCoord(coord) { return Math.floor(coord / this.spacing); }

	hashPos(pos, nr) {
		return this.hashCoords(this.intCoord(pos[3 * nr]), this.intCoord(pos[3 * nr + 1]), this.intCoord(pos[3 * nr + 2]));
	}

	create(pos, numObjects) {
		this.cellStart.fill(0);
		this.cellEntries.fill(0);
		for (let i = 0; i < numObjects; i++) this.cellStart[this.hashPos(pos, i)]++;
		let start = 0;
		for (let i = 0; i < this.tableSize; i++) {
			start += this.cellStart[i];
			this.cellStart[i] = start;
		}
		this.cellStart[this.tableSize] = start;
		for (let i = 0; i < numObjects; i++) {
			const h = this.hashPos(pos, i);
			this.cellStart[h]--;
			this.cellEntries[this.cellStart[h]] = i;
		}
	}

	query(pos, nr, maxDist) {
		const x0 = this.intCoord(pos[3 * nr] - maxDist), y0 = this.intCoord(pos[3 * nr + 1] - maxDist), z0 = this.intCoord(pos[3 * nr + 2] - maxDist);
		const x1 = this.intCoord(pos[3 * nr] + maxDist), y1 = this.intCoord(pos[3 * nr + 1] + maxDist), z1 = this.intCoord(pos[3 * nr + 2] + maxDist);
		this.querySize = 0;
		for (let xi = x0; xi <= x1; xi++) {
			for (let yi = y0; yi <= y1; yi++) {
				for (let zi = z0; zi <= z1; zi++) {
					const h = this.hashCoords(xi, yi, zi);
					for (let i = this.cellStart[h]; i < this.cellStart[h + 1]; i++) this.queryIds[this.querySize++] = this.cellEntries[i];
				}
			}
		}
	}
}

/**
 * The soft bodies as a web demo keeps them. `scene`: { x0 (float4 per particle: x, y, z, 1/m, as MiniPBD built
 * them), meshes (per body: tets, edges, first, count), radius (per body), dt, substeps, passes, gravityY,
 * stiffness { edge, volume }, ground { height, restitution, staticFriction, kineticFriction }, selfFriction,
 * maxSpeed }. Returns { step(), positions (Float32Array, 3 per particle), particles, constraints }.
 */
export function createPeerSoftBodies(scene) {
	const n = scene.x0.length / 4;
	const pos = new Float32Array(3 * n), prev = new Float32Array(3 * n), vel = new Float32Array(3 * n);
	const invMass = new Float32Array(n), radius = new Float32Array(n), body = new Int32Array(n);
	const touched = new Uint8Array(n), approach = new Float32Array(n);
	for (let i = 0; i < n; i++) {
		for (let k = 0; k < 3; k++) pos[3 * i + k] = scene.x0[4 * i + k];
		invMass[i] = scene.x0[4 * i + 3];
	}
	scene.meshes.forEach((m, o) => {
		body.fill(o, m.first, m.first + m.count);
		radius.fill(scene.radius[o], m.first, m.first + m.count);
	});
	// One array of each kind for all bodies, mesh by mesh, with the rest state from the start positions.
	const edgeIds = Int32Array.from(scene.meshes.flatMap((m) => Array.from(m.edges)));
	const tetIds = Int32Array.from(scene.meshes.flatMap((m) => Array.from(m.tets)));
	const numEdges = edgeIds.length / 2, numTets = tetIds.length / 4;
	const edgeLengths = new Float32Array(numEdges), restVol = new Float32Array(numTets);
	for (let e = 0; e < numEdges; e++) {
		const a = 3 * edgeIds[2 * e], b = 3 * edgeIds[2 * e + 1];
		edgeLengths[e] = Math.hypot(pos[a] - pos[b], pos[a + 1] - pos[b + 1], pos[a + 2] - pos[b + 2]);
	}
	const grads = new Float32Array(12);
	const tetVolume6 = (t) => {
		const a = 3 * tetIds[4 * t], b = 3 * tetIds[4 * t + 1], c = 3 * tetIds[4 * t + 2], d = 3 * tetIds[4 * t + 3];
		const e1x = pos[b] - pos[a], e1y = pos[b + 1] - pos[a + 1], e1z = pos[b + 2] - pos[a + 2];
		const e2x = pos[c] - pos[a], e2y = pos[c + 1] - pos[a + 1], e2z = pos[c + 2] - pos[a + 2];
		const e3x = pos[d] - pos[a], e3y = pos[d + 1] - pos[a + 1], e3z = pos[d + 2] - pos[a + 2];
		grads[3] = e2y * e3z - e2z * e3y, grads[4] = e2z * e3x - e2x * e3z, grads[5] = e2x * e3y - e2y * e3x;
		grads[6] = e3y * e1z - e3z * e1y, grads[7] = e3z * e1x - e3x * e1z, grads[8] = e3x * e1y - e3y * e1x;
		grads[9] = e1y * e2z - e1z * e2y, grads[10] = e1z * e2x - e1x * e2z, grads[11] = e1x * e2y - e1y * e2x;
		for (let k = 0; k < 3; k++) grads[k] = -(grads[3 + k] + grads[6 + k] + grads[9 + k]);
		return e1x * grads[3] + e1y * grads[4] + e1z * grads[5];
	};
	for (let t = 0; t < numTets; t++) restVol[t] = tetVolume6(t);

	const h = scene.dt / scene.substeps, g = scene.gravityY;
	const kEdge = passStiffness(scene.stiffness.edge, scene.passes), kVolume = passStiffness(scene.stiffness.volume, scene.passes);
	const G = scene.ground, mu = scene.selfFriction;
	const restingSpeed = 2 * h * Math.abs(g);
	const maxRadius = Math.max(...scene.radius);
	const hash = new Hash(MARGIN * 2 * maxRadius, n);
	const maxPairs = 8 * n; // MiniPBD's default contact capacity
	const pairs = new Int32Array(2 * maxPairs);
	let numPairs = 0;

	function findPairs() {
		hash.create(pos, n);
		numPairs = 0;
		const reach = MARGIN * 2 * maxRadius;
		for (let i = 0; i < n; i++) {
			hash.query(pos, i, reach);
			for (let q = 0; q < hash.querySize; q++) {
				const j = hash.queryIds[q];
				if (j <= i || body[j] === body[i] || numPairs === maxPairs) continue;
				const dx = pos[3 * i] - pos[3 * j], dy = pos[3 * i + 1] - pos[3 * j + 1], dz = pos[3 * i + 2] - pos[3 * j + 2];
				const d = MARGIN * (radius[i] + radius[j]);
				if (dx * dx + dy * dy + dz * dz < d * d) {
					pairs[2 * numPairs] = i;
					pairs[2 * numPairs + 1] = j;
					numPairs++;
				}
			}
		}
	}

	function solveEdges() {
		for (let e = 0; e < numEdges; e++) {
			const i0 = edgeIds[2 * e], i1 = edgeIds[2 * e + 1];
			const w0 = invMass[i0], w1 = invMass[i1], w = w0 + w1;
			if (w === 0) continue;
			const a = 3 * i0, b = 3 * i1;
			const dx = pos[a] - pos[b], dy = pos[a + 1] - pos[b + 1], dz = pos[a + 2] - pos[b + 2];
			const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
			if (len === 0) continue;
			const s = kEdge * (len - edgeLengths[e]) / (w * len);
			pos[a] -= s * w0 * dx, pos[a + 1] -= s * w0 * dy, pos[a + 2] -= s * w0 * dz;
			pos[b] += s * w1 * dx, pos[b + 1] += s * w1 * dy, pos[b + 2] += s * w1 * dz;
		}
	}

	function solveVolumes() {
		for (let t = 0; t < numTets; t++) {
			const vol6 = tetVolume6(t);
			let w = 0, weights = 0;
			for (let j = 0; j < 4; j++) {
				const wj = invMass[tetIds[4 * t + j]];
				w += wj * (grads[3 * j] ** 2 + grads[3 * j + 1] ** 2 + grads[3 * j + 2] ** 2);
				weights += wj;
			}
			if (!(w > DEGENERATE * weights)) continue;
			const s = -kVolume * (vol6 - restVol[t]) / w;
			for (let j = 0; j < 4; j++) {
				const id = tetIds[4 * t + j], f = s * invMass[id];
				pos[3 * id] += f * grads[3 * j], pos[3 * id + 1] += f * grads[3 * j + 1], pos[3 * id + 2] += f * grads[3 * j + 2];
			}
		}
	}

	function solveContacts() {
		for (let c = 0; c < numPairs; c++) {
			const i = pairs[2 * c], j = pairs[2 * c + 1];
			const wi = invMass[i], wj = invMass[j], w = wi + wj;
			if (w === 0) continue;
			const a = 3 * i, b = 3 * j;
			const dx = pos[a] - pos[b], dy = pos[a + 1] - pos[b + 1], dz = pos[a + 2] - pos[b + 2];
			const D = radius[i] + radius[j];
			const d2 = dx * dx + dy * dy + dz * dz;
			if (d2 >= D * D || d2 === 0) continue;
			const d = Math.sqrt(d2), nx = dx / d, ny = dy / d, nz = dz / d;
			const depth = D - d, si = depth * wi / w, sj = depth * wj / w;
			pos[a] += si * nx, pos[a + 1] += si * ny, pos[a + 2] += si * nz;
			pos[b] -= sj * nx, pos[b + 1] -= sj * ny, pos[b + 2] -= sj * nz;
			// friction: the relative tangential travel of this substep, Coulomb-bounded by the push
			let rx = pos[a] - prev[a] - (pos[b] - prev[b]), ry = pos[a + 1] - prev[a + 1] - (pos[b + 1] - prev[b + 1]);
			let rz = pos[a + 2] - prev[a + 2] - (pos[b + 2] - prev[b + 2]);
			const rn = rx * nx + ry * ny + rz * nz;
			rx -= rn * nx, ry -= rn * ny, rz -= rn * nz;
			const travel2 = rx * rx + ry * ry + rz * rz;
			if (travel2 === 0) continue;
			const limit = mu * depth, f = travel2 > limit * limit ? limit / Math.sqrt(travel2) : 1;
			const fi = f * wi / w, fj = f * wj / w;
			pos[a] -= fi * rx, pos[a + 1] -= fi * ry, pos[a + 2] -= fi * rz;
			pos[b] += fj * rx, pos[b + 1] += fj * ry, pos[b + 2] += fj * rz;
		}
	}

	function solveGround() {
		for (let i = 0; i < n; i++) {
			const floor = G.height + radius[i];
			if (pos[3 * i + 1] >= floor || invMass[i] === 0) continue;
			const depth = floor - pos[3 * i + 1];
			pos[3 * i + 1] = floor;
			if (!touched[i]) { touched[i] = 1; approach[i] = vel[3 * i + 1]; }
			const tx = pos[3 * i] - prev[3 * i], tz = pos[3 * i + 2] - prev[3 * i + 2];
			const travel = Math.sqrt(tx * tx + tz * tz);
			if (travel < G.staticFriction * depth) {
				pos[3 * i] = prev[3 * i];
				pos[3 * i + 2] = prev[3 * i + 2];
			} else if (travel > 0) {
				const f = Math.min(1, G.kineticFriction * depth / travel);
				pos[3 * i] -= tx * f;
				pos[3 * i + 2] -= tz * f;
			}
		}
	}

	function substep() {
		for (let i = 0; i < n; i++) {
			touched[i] = 0;
			if (invMass[i] === 0) continue;
			vel[3 * i + 1] += h * g;
			for (let k = 3 * i; k < 3 * i + 3; k++) {
				prev[k] = pos[k];
				pos[k] += h * vel[k];
			}
		}
		findPairs();
		for (let pass = 0; pass < scene.passes; pass++) {
			solveEdges();
			solveVolumes();
			solveContacts();
			solveGround();
		}
		const maxSpeed2 = scene.maxSpeed * scene.maxSpeed;
		for (let i = 0; i < n; i++) {
			if (invMass[i] === 0) continue;
			for (let k = 3 * i; k < 3 * i + 3; k++) vel[k] = (pos[k] - prev[k]) / h;
			if (touched[i] && approach[i] < -restingSpeed) vel[3 * i + 1] = Math.max(vel[3 * i + 1], -G.restitution * approach[i]);
			const s2 = vel[3 * i] ** 2 + vel[3 * i + 1] ** 2 + vel[3 * i + 2] ** 2;
			if (s2 > maxSpeed2) {
				const f = scene.maxSpeed / Math.sqrt(s2);
				for (let k = 3 * i; k < 3 * i + 3; k++) vel[k] *= f;
			}
		}
	}

	return {
		particles: n, edges: numEdges, tets: numTets,
		positions: pos,
		get pairs() { return numPairs; },
		step() { for (let s = 0; s < scene.substeps; s++) substep(); },
	};
}
