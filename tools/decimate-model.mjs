#!/usr/bin/env node
/* decimate-model -- makes a small copy of an OBJ model for tests/models/: reads it with the engine's own reader
   (web/js/format/obj.js: polygons fanned, vt/vn dropped), simplifies it with meshoptimizer's simplifier
   (Garland-Heckbert quadric edge collapse, which never moves a border vertex off its border, so holes stay holes)
   to at most --triangles triangles, drops unused vertices and writes the positions and triangles with a header
   saying where it came from and what it is (boundary edges, edges of more than two triangles, zero-area
   triangles, size). Units are left as they are: a model in millimetres stays in millimetres.

     npm install --no-save meshoptimizer@1.3.0     # once; or MESHOPTIMIZER=/path/to/meshoptimizer/index.js
     node tools/decimate-model.mjs IN.obj OUT.obj [--triangles 3000] [--source "text for the header"]
     node tools/decimate-model.mjs --stats FILE.obj  # the defects of a file, nothing written

   Deterministic: the same input and meshoptimizer version write the same bytes. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseObj } from '../web/js/format/obj.js';

const args = process.argv.slice(2);
const flag = (name, fallback) => { const i = args.indexOf(name); if (i < 0) return fallback; const v = args[i + 1]; args.splice(i, 2); return v; };

/** Boundary edges (one triangle), edges of more than two, zero-area triangles, bounding box. */
export function meshStats(v, t) {
  const edges = new Map();
  let degenerate = 0;
  for (let i = 0; i < t.length; i += 3) {
    const [a, b, c] = [t[i], t[i + 1], t[i + 2]];
    const e1 = [0, 1, 2].map((k) => v[3 * b + k] - v[3 * a + k]), e2 = [0, 1, 2].map((k) => v[3 * c + k] - v[3 * a + k]);
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    if (a === b || b === c || a === c || Math.hypot(...n) === 0) degenerate++;
    for (const [p, q] of [[a, b], [b, c], [c, a]]) {
      const key = p < q ? `${p},${q}` : `${q},${p}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  let boundary = 0, nonManifold = 0;
  for (const n of edges.values()) { if (n === 1) boundary++; if (n > 2) nonManifold++; }
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < v.length; i += 3) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[i + k]); hi[k] = Math.max(hi[k], v[i + k]); }
  return { vertices: v.length / 3, triangles: t.length / 3, boundary, nonManifold, degenerate, size: hi.map((h, k) => h - lo[k]) };
}

const describe = (s) => `${s.vertices} vertices, ${s.triangles} triangles; ${s.boundary} boundary edges, ${s.nonManifold} edges of more than two triangles, `
  + `${s.degenerate} zero-area triangles; bounding box ${s.size.map((x) => +x.toPrecision(4)).join(' x ')}`;

async function main() {
  if (args[0] === '--stats') {
    const m = parseObj(fs.readFileSync(args[1], 'utf8'));
    console.log(`${args[1]}: ${describe(meshStats(m.vertices, m.triangles))}`);
    return;
  }
  const target = Number(flag('--triangles', '3000'));
  const source = flag('--source', '');
  const [input, output] = args;
  if (!input || !output) throw new Error('usage: decimate-model.mjs IN.obj OUT.obj [--triangles N] [--source TEXT]');
  const { MeshoptSimplifier } = await import(process.env.MESHOPTIMIZER ? pathToFileURL(process.env.MESHOPTIMIZER).href : 'meshoptimizer');
  await MeshoptSimplifier.ready;
  const m = parseObj(fs.readFileSync(input, 'utf8'), { maxBytes: 64 * 1024 * 1024 });
  const before = meshStats(m.vertices, m.triangles);
  let tri = m.triangles;
  if (tri.length / 3 > target) {
    // target error 1 (relative to the mesh's extent): the triangle count decides where it stops
    [tri] = MeshoptSimplifier.simplify(Uint32Array.from(tri), Float32Array.from(m.vertices), 3, 3 * target, 1.0, []);
  }
  // keep the vertices used, in first-use order
  const remap = new Map(), xyz = [];
  const out = Uint32Array.from(tri, (i) => {
    if (!remap.has(i)) { remap.set(i, remap.size); xyz.push(m.vertices[3 * i], m.vertices[3 * i + 1], m.vertices[3 * i + 2]); }
    return remap.get(i);
  });
  const v = Float32Array.from(xyz);
  const after = meshStats(v, out);
  const lines = [
    `# ${path.basename(output, '.obj')}: ${source}`,
    `# made by tools/decimate-model.mjs from ${path.basename(input)} (${before.triangles} triangles), meshoptimizer simplify to at most ${target}`,
    `# ${describe(after)}`,
  ];
  const num = (x) => String(Math.fround(x));
  for (let i = 0; i < v.length; i += 3) lines.push(`v ${num(v[i])} ${num(v[i + 1])} ${num(v[i + 2])}`);
  for (let i = 0; i < out.length; i += 3) lines.push(`f ${out[i] + 1} ${out[i + 1] + 1} ${out[i + 2] + 1}`);
  fs.writeFileSync(output, `${lines.join('\n')}\n`);
  console.log(`${input} (${describe(before)})\n  -> ${output} (${describe(after)})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
