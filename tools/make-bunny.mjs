#!/usr/bin/env node
/* make-bunny -- writes web/assets/bunny.obj, the model of the `bunny` built-in scene: a bunny of our own making
   (no scanned data), an implicit surface of ellipsoids (body, haunches, head, ears, tail, paws) joined by a smooth
   minimum, polygonised by marching tetrahedra into a closed, consistently oriented triangle mesh.

     node tools/make-bunny.mjs [--out web/assets/bunny.obj] [--cell 0.025]

   Why marching tetrahedra: every cube of the sampling grid is cut into the same 6 tets (Kuhn), so neighbouring
   cubes cut their shared faces alike and a tet has no ambiguous case: with one vertex per grid edge the surface
   is watertight and 2-manifold wherever the field is non-zero at the grid's nodes (the iso-value is offset so it
   never is exactly). Each triangle is oriented so its normal points from the inside corner to the outside one,
   which makes the whole surface counter-clockwise from outside. The output is checked before it is written:
   every edge used by exactly two triangles in opposite directions, no degenerate triangle, positive volume. The
   same arguments write the same bytes. Units are metres: the bunny is about 0.48 m long, 0.49 m tall and 0.26 m wide, its feet at y = 0. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// Ellipsoids: centre, radii, rotation about z (radians; the ears lean back). y is up, the bunny faces +x.
const PARTS = [
  { c: [-0.02, 0.15, 0], r: [0.17, 0.13, 0.12], a: 0.15 },    // body
  { c: [-0.08, 0.12, 0], r: [0.12, 0.12, 0.13], a: 0 },       // haunches
  { c: [0.15, 0.27, 0], r: [0.085, 0.08, 0.075], a: -0.2 },   // head
  { c: [0.21, 0.25, 0], r: [0.04, 0.035, 0.04], a: 0 },       // muzzle
  { c: [0.10, 0.41, 0.035], r: [0.03, 0.1, 0.022], a: 0.35 },  // ears
  { c: [0.10, 0.41, -0.035], r: [0.03, 0.1, 0.022], a: 0.35 },
  { c: [-0.19, 0.17, 0], r: [0.04, 0.04, 0.04], a: 0 },       // tail
  { c: [0.12, 0.03, 0.05], r: [0.05, 0.03, 0.03], a: 0 },     // front paws
  { c: [0.12, 0.03, -0.05], r: [0.05, 0.03, 0.03], a: 0 },
  { c: [-0.06, 0.03, 0.09], r: [0.1, 0.03, 0.04], a: 0 },     // hind feet
  { c: [-0.06, 0.03, -0.09], r: [0.1, 0.03, 0.04], a: 0 },
];
const BLEND = 0.03; // m: how far the smooth minimum rounds the joins

/** Approximate signed distance to an ellipsoid (negative inside): (|q / r| - 1) times its smallest radius. */
function ellipsoid(p, { c, r, a }) {
  const dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
  const x = Math.cos(a) * dx + Math.sin(a) * dy, y = -Math.sin(a) * dx + Math.cos(a) * dy;
  return (Math.hypot(x / r[0], y / r[1], dz / r[2]) - 1) * Math.min(...r);
}

/** Polynomial smooth minimum (Quilez). */
function smin(a, b, k) {
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.min(a, b) - (h * h * k) / 4;
}

/** The field: positive inside the bunny. */
function field(p) {
  let d = Infinity;
  for (const part of PARTS) d = d === Infinity ? ellipsoid(p, part) : smin(d, ellipsoid(p, part), BLEND);
  return -d;
}

// The 6 tets of a cube (corners numbered x + 2y + 4z), all around the main diagonal 0-7 (Kuhn/Freudenthal).
const KUHN = [[0, 1, 3, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7], [0, 4, 5, 7], [0, 5, 1, 7]];

export function makeBunny(cell = 0.025) {
  const lo = [-0.3, -0.03, -0.2], hi = [0.3, 0.55, 0.2];
  const n = lo.map((l, k) => Math.ceil((hi[k] - l) / cell));
  const node = (i, j, k) => (k * (n[1] + 1) + j) * (n[0] + 1) + i;
  const pos = (id) => {
    const i = id % (n[0] + 1), j = Math.floor(id / (n[0] + 1)) % (n[1] + 1), k = Math.floor(id / ((n[0] + 1) * (n[1] + 1)));
    return [lo[0] + i * cell, lo[1] + j * cell, lo[2] + k * cell];
  };
  // Sampled once per node; a value of exactly 0 is nudged so every edge is plainly crossed or not.
  const values = new Float64Array((n[0] + 1) * (n[1] + 1) * (n[2] + 1));
  for (let id = 0; id < values.length; id++) {
    const v = field(pos(id));
    values[id] = v === 0 ? -1e-12 : v;
  }
  const vertices = [];
  const edgeVertex = new Map();
  const vertexOn = (a, b) => {
    const key = a < b ? a * values.length + b : b * values.length + a;
    let v = edgeVertex.get(key);
    if (v === undefined) {
      // Linear interpolation to the zero, kept off the nodes so no triangle degenerates.
      const t = Math.min(0.95, Math.max(0.05, values[a] / (values[a] - values[b])));
      const pa = pos(a), pb = pos(b);
      v = vertices.length;
      vertices.push(pa.map((x, k) => x + t * (pb[k] - x)));
      edgeVertex.set(key, v);
    }
    return v;
  };
  const triangles = [];
  // One triangle (u, v, w) crossing from the inside node `inside` toward the outside node `outside`: flipped
  // when its normal points inward.
  const emit = (u, v, w, inside, outside) => {
    const [a, b, c] = [u, v, w].map((x) => vertices[x]);
    const nrm = cross(sub(b, a), sub(c, a));
    const out = sub(pos(outside), pos(inside));
    triangles.push(dot(nrm, out) >= 0 ? [u, v, w] : [u, w, v]);
  };
  for (let k = 0; k < n[2]; k++) for (let j = 0; j < n[1]; j++) for (let i = 0; i < n[0]; i++) {
    const corner = [0, 1, 2, 3, 4, 5, 6, 7].map((c) => node(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2)));
    for (const tet of KUHN) {
      const ids = tet.map((c) => corner[c]);
      const ins = ids.filter((id) => values[id] > 0);
      const outs = ids.filter((id) => values[id] <= 0);
      if (ins.length === 0 || outs.length === 0) continue;
      if (ins.length === 1 || outs.length === 1) {
        const [apex, others, inside] = ins.length === 1 ? [ins[0], outs, true] : [outs[0], ins, false];
        const [p, q, r] = others.map((o) => vertexOn(apex, o));
        emit(p, q, r, inside ? apex : others[0], inside ? others[0] : apex);
      } else {
        const [a, b] = ins, [c, d] = outs;
        const ac = vertexOn(a, c), ad = vertexOn(a, d), bc = vertexOn(b, c), bd = vertexOn(b, d);
        // The quad ac-ad-bd-bc, as two triangles.
        emit(ac, ad, bd, a, c);
        emit(ac, bd, bc, a, c);
      }
    }
  }
  return { vertices, triangles };
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Throws unless the surface is closed, consistently oriented, free of degenerate triangles and of positive volume. */
export function checkClosed(vertices, triangles) {
  const directed = new Map();
  let volume = 0;
  triangles.forEach((t, f) => {
    const [a, b, c] = t.map((i) => vertices[i]);
    if (Math.hypot(...cross(sub(b, a), sub(c, a))) < 1e-12) throw new Error(`triangle ${f} is degenerate`);
    volume += dot(a, cross(b, c)) / 6;
    for (let e = 0; e < 3; e++) {
      const key = `${t[e]},${t[(e + 1) % 3]}`;
      if (directed.has(key)) throw new Error(`edge ${key} is used twice in the same direction`);
      directed.set(key, f);
    }
  });
  for (const key of directed.keys()) {
    const [u, v] = key.split(',');
    if (!directed.has(`${v},${u}`)) throw new Error(`edge ${key} has no opposite: the surface is open`);
  }
  if (!(volume > 0)) throw new Error(`the volume is ${volume}: the surface is inside out`);
  return volume;
}

export function toObj({ vertices, triangles }) {
  const lines = ['# bunny.obj: generated by tools/make-bunny.mjs (an implicit bunny of ellipsoids, marching tetrahedra); do not edit',
    `# ${vertices.length} vertices, ${triangles.length} triangles, closed, counter-clockwise from outside, metres`, 'o bunny'];
  // Six decimals (micrometres): the file stays small and reads back to the same float32 every time.
  for (const v of vertices) lines.push(`v ${v.map((x) => x.toFixed(6)).join(' ')}`);
  for (const t of triangles) lines.push(`f ${t.map((i) => i + 1).join(' ')}`);
  return `${lines.join('\n')}\n`;
}

function main(argv) {
  let out = path.join(here, '..', 'web', 'assets', 'bunny.obj');
  let cell = 0.025;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--cell') cell = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]} (usage: make-bunny.mjs [--out FILE] [--cell METRES])`);
  }
  if (!(cell >= 0.004 && cell <= 0.05)) throw new Error('--cell must be in [0.004, 0.05] m');
  const mesh = makeBunny(cell);
  // Checked on the coordinates as written (rounded), which are what every reader gets.
  const written = mesh.vertices.map((v) => v.map((x) => Number(x.toFixed(6))));
  const volume = checkClosed(written, mesh.triangles);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, toObj(mesh));
  console.log(`${out}: ${mesh.vertices.length} vertices, ${mesh.triangles.length} triangles, volume ${(volume * 1000).toFixed(3)} L`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try { main(process.argv.slice(2)); } catch (e) { console.error(`make-bunny: ${e.message}`); process.exit(1); }
}
