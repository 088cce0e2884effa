// The engine's counts against closed forms. Particle and constraint counts are the engine's alone: a world is sized
// from each type's counts() (pbd_BodyCounts, pbdjs_FluidBlockCount, pbdjs_ClothCounts, pbdjs_ChainCounts,
// pbdjs_InflatableCounts) and its creation checks the scene's limits against them (engine/loader.js countScene,
// objects/index.js checkSceneCounts); the validator keeps no float32 copy of a lattice or a fluid block. Here those
// counts, read through countScene as createWorld reads them, are held to what the shapes must have: an n x m cloth,
// a chain of s segments, an icosphere of resolution n, a box lattice of a x b x c cells (its nodes, its 7 kinds of
// edges, 6 tets a cell, its six faces' skin), a ball's cells whose centre is inside (decided in integers: no centre
// lies on the sphere), a given tet mesh, a fluid block of whole spacings. The sizes are chosen so no float32
// rounding is near a decision (whole numbers of cells, binary fractions), so the closed forms are exact.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { ENGINE_LIMITS } from '../../web/js/engine/param-table.js';

const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));

let seed = 20261203;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const whole = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const scene = (objects, extra = {}) => ({ format: 'minipbd-scene', version: 2, ...extra, objects });
/** The counts createWorld reserves for the scene's one object. */
const countsOf = (o, extra) => pbd.countScene(scene([o], extra)).objects[0];

test('an n x m cloth: n m particles, stretch + shear + bend constraints, 2 (n-1)(m-1) triangles; 200 random grids', () => {
  for (let k = 0; k < 200; k++) {
    const [n, m] = [whole(2, 120), whole(2, 120)];
    const c = countsOf({ type: 'cloth', origin: [0, 1, 0], size: [1, 1], resolution: [n, m] });
    const stretch = (n - 1) * m + n * (m - 1), shear = 2 * (n - 1) * (m - 1), bend = (n - 2) * m + n * (m - 2);
    assert.deepEqual([c.particles, c.constraints, c.triangles, c.lines], [n * m, stretch + shear + bend, 2 * (n - 1) * (m - 1), 0], `${n} x ${m}`);
  }
});

test('a chain of s segments: s + 1 particles, s constraints and s lines', () => {
  for (const s of [1, 2, 7, 100, 200]) {
    const c = countsOf({ type: 'chain', start: [0, 1, 0], end: [2, 1, 0], segments: s });
    assert.deepEqual([c.particles, c.constraints, c.lines, c.triangles], [s + 1, s, s, 0], `${s} segments`);
  }
});

test('an inflatable of resolution n (an icosahedron, each edge cut in n): 10 n^2 + 2 particles, 30 n^2 edges of 2 constraints, 20 n^2 triangles', () => {
  for (let n = 1; n <= ENGINE_LIMITS.inflatableMaxResolution; n++) {
    const c = countsOf({ type: 'inflatable', center: [0, 1, 0], radius: 0.2, resolution: n });
    assert.deepEqual([c.particles, c.constraints, c.triangles], [10 * n * n + 2, 2 * 30 * n * n, 20 * n * n], `resolution ${n}`);
  }
});

/** A full lattice of a x b x c cells: nodes, edges along the 3 axes, the 3 face diagonals and the body diagonal; its
 *  skin, each face cut into the cells it shows (a soft body's; a rigid one's is boxLattice(1, 1, 1)'s: a quad a face). */
function boxLattice(a, b, c) {
  const edges = a * (b + 1) * (c + 1) + (a + 1) * b * (c + 1) + (a + 1) * (b + 1) * c
    + a * b * (c + 1) + a * (b + 1) * c + (a + 1) * b * c + a * b * c;
  const faces = [[b, c], [a, c], [a, b]];
  return {
    particles: (a + 1) * (b + 1) * (c + 1), edges, tets: 6 * a * b * c,
    skinVertices: faces.reduce((t, [u, v]) => t + 2 * (u + 1) * (v + 1), 0), skinTriangles: faces.reduce((t, [u, v]) => t + 4 * u * v, 0),
  };
}

test('a box body of resolution r: r cells along its longest side, the others in proportion; its nodes, edges, tets and skin; 300 random boxes', () => {
  for (let k = 0; k < 300; k++) {
    const r = whole(1, ENGINE_LIMITS.bodyMaxResolution);
    // sides of whole numbers of cells (a binary fraction of a metre each), the longest r, in any order
    const cells = [r, whole(1, r), whole(1, r)].sort(() => rand() - 0.5);
    const h = 2 ** -whole(4, 7);
    const halfExtents = cells.map((n) => (n * h) / 2);
    const type = rand() < 0.5 ? 'soft' : 'rigid';
    const c = countsOf({ type, shape: 'box', position: [0, 1, 0], halfExtents, resolution: r });
    const want = boxLattice(...cells);
    const soft = type === 'soft';
    const skin = soft ? want : boxLattice(1, 1, 1);
    assert.deepEqual([c.particles, c.constraints, c.tets, c.skinVertices, c.skinTriangles],
      [want.particles, soft ? want.edges : 0, soft ? want.tets : 0, skin.skinVertices, skin.skinTriangles], `${type} ${cells} cells`);
  }
});

/** Nodes of the cells of an n^3 lattice over a ball whose centre is inside it, in integers: the centre of cell i is at
 *  (2i + 1 - n) / n radii, inside when the sum of the three squares is below n^2 (never equal: the sum is 3 mod 8 for
 *  even n and a multiple of 4 for odd n, n^2 is neither). */
function ballNodes(n) {
  const used = new Set();
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    if ((2 * i + 1 - n) ** 2 + (2 * j + 1 - n) ** 2 + (2 * k + 1 - n) ** 2 >= n * n) continue;
    for (let d = 0; d < 8; d++) used.add(((k + (d >> 2)) * (n + 1) + j + ((d >> 1) & 1)) * (n + 1) + i + (d & 1));
  }
  return used.size;
}

test('a ball body of resolution n: the nodes of the cells whose centre is inside, every n from 1 to the limit', () => {
  assert.deepEqual([1, 2, 3].map(ballNodes), [8, 27, 56], 'one cell; all 8; 27 but the 8 corner cells');
  for (let n = 1; n <= ENGINE_LIMITS.bodyMaxResolution; n++) {
    const radius = [0.25, 0.5, 1.5][n % 3];
    assert.equal(countsOf({ type: 'rigid', shape: 'ball', position: [0, 2, 0], radius, resolution: n }).particles, ballNodes(n), `resolution ${n}`);
  }
});

test('a mesh body of a box surface: the box lattice (every cell\'s centre inside); given tets: their vertices, edges and tets', () => {
  const [a, b, c] = [0.5, 0.25, 0.125];
  const v = [[-a, -b, -c], [a, -b, -c], [a, b, -c], [-a, b, -c], [-a, -b, c], [a, -b, c], [a, b, c], [-a, b, c]];
  const faces = [[1, 4, 3, 2], [5, 6, 7, 8], [1, 2, 6, 5], [2, 3, 7, 6], [3, 4, 8, 7], [4, 1, 5, 8]];
  const obj = [...v.map((p) => `v ${p.join(' ')}`), ...faces.map((f) => `f ${f.join(' ')}`)].join('\n');
  for (const r of [1, 4, 8, 16]) {
    const cells = [r, Math.max(1, r / 2), Math.max(1, r / 4)];
    const got = countsOf({ type: 'soft', shape: 'mesh', obj, resolution: r });
    assert.deepEqual([got.particles, got.constraints, got.tets], [boxLattice(...cells).particles, boxLattice(...cells).edges, boxLattice(...cells).tets], `resolution ${r}`);
  }
  // two tets sharing a face: 5 vertices, 6 + 3 edges
  const mesh = { vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], tets: [[0, 1, 2, 3], [1, 2, 3, 4]] };
  const t = countsOf({ type: 'soft', shape: 'tets', position: [0, 1, 0], mesh });
  assert.deepEqual([t.particles, t.constraints, t.tets], [5, 9, 2]);
});

test('a fluid block of whole spacings: their product on each axis; a side a hundredth of a spacing short has one fewer; 300 random blocks', () => {
  for (let k = 0; k < 300; k++) {
    const d = 2 ** -whole(3, 6);
    const n = [whole(0, 20), whole(0, 20), whole(0, 20)];
    const short = [rand() < 0.3, rand() < 0.3, rand() < 0.3];
    const lower = [whole(-40, 40) * d, whole(0, 40) * d, whole(-40, 40) * d];
    const upper = lower.map((x, i) => x + (n[i] - (short[i] && n[i] > 0 ? 0.01 : 0)) * d);
    const along = n.map((m, i) => (short[i] && m > 0 ? m - 1 : m));
    const want = along[0] * along[1] * along[2];
    assert.equal(pbd.exports.pbdjs_FluidBlockCount(...lower, ...upper, d), want, `${lower} - ${upper} at ${d}`);
    if (want === 0 || want > 200000) continue;
    const fluid = { spacing: d, smoothingRadius: 2 * d };
    const c = countsOf({ type: 'fluid', block: { lower, upper } }, { fluid });
    assert.deepEqual([c.particles, c.fluidParticles, c.constraints], [want, want, 0], `${lower} - ${upper} at ${d}`);
    assert.equal(countsOf({ type: 'fluid', block: { lower, upper }, capacity: want + 7 }, { fluid }).particles, want + 7, 'a capacity reserves itself');
  }
});

test('a scene\'s total is the sum of its objects\' counts', () => {
  const { total, objects } = pbd.countScene(scene([
    { type: 'cloth', origin: [0, 1, 0], size: [1, 1], resolution: [10, 20] },
    { type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 30 },
    { type: 'soft', shape: 'box', position: [0, 1, 0], halfExtents: [0.5, 0.25, 0.25], resolution: 4 },
  ]));
  assert.deepEqual(objects.map((o) => o.particles), [200, 31, 5 * 3 * 3]);
  assert.equal(total.particles, 200 + 31 + 45);
  assert.equal(total.objects, 3);
  assert.equal(total.lines, 30);
  assert.equal(total.tets, 6 * 4 * 2 * 2);
});
