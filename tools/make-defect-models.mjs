#!/usr/bin/env node
/* make-defect-models -- writes the hand-made models of tests/models/ (our own, no third-party data): surfaces
   with the defects real models have, each small, each named for what it is.

     node tools/decimate-model.mjs web/assets/bunny.obj /tmp/bunny-2k.obj --triangles 2000 --source "bunny"
     node tools/make-defect-models.mjs --bunny /tmp/bunny-2k.obj [--out tests/models]

   The bunny variants start from web/assets/bunny.obj decimated to 2,000 triangles (tools/decimate-model.mjs;
   the full 6,240 would do too, but the corpus keeps to a few thousand triangles a model).

   open-box          a 0.4 m box without its top face: open (the teapot without a lid)
   bunny-holes       the bunny of web/assets/bunny.obj with two holes cut in its underside (a scan with holes)
   bunny-mm          the same bunny closed, in millimetres (480 units long)
   bunny-flipped     the bunny with every 25th triangle flipped: inconsistently oriented
   two-boxes-edge    two boxes sharing an edge: four triangles on it (non-manifold)
   overlapping-boxes two closed boxes through each other, not merged: self-intersecting
   degenerate        a box with zero-area triangles: a repeated vertex, three points on a line
   micro-box         a box of 0.2 mm: microscopic
   The same command writes the same bytes. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseObj } from '../web/js/format/obj.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => { const i = args.indexOf(name); return i < 0 ? fallback : args[i + 1]; };
const out = opt('--out', path.join(root, 'tests', 'models'));
const bunnyFile = opt('--bunny', path.join(root, 'web', 'assets', 'bunny.obj'));

/** A box's 8 corners (x fastest) and 12 triangles, counter-clockwise seen from outside. */
function box(lo, hi, first = 0) {
  const v = [];
  for (let i = 0; i < 8; i++) v.push([i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]]);
  const quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
  const t = quads.flatMap(([a, b, c, d]) => [[a, b, c], [a, c, d]]).map((tri) => tri.map((i) => i + first));
  return { v, t };
}

function write(name, comment, v, t) {
  const num = (x) => String(Math.fround(x));
  const lines = [`# ${name}: ${comment}`, '# made by tools/make-defect-models.mjs', ...v.map((p) => `v ${p.map(num).join(' ')}`),
    ...t.map((tri) => `f ${tri.map((i) => i + 1).join(' ')}`)];
  fs.writeFileSync(path.join(out, `${name}.obj`), `${lines.join('\n')}\n`);
}

const b = box([-0.2, 0, -0.2], [0.2, 0.4, 0.2]);
// +y face is quads[3] = triangles 6, 7
write('open-box', 'a 0.4 m box without its top face (open)', b.v, b.t.filter((_, i) => i !== 6 && i !== 7));

const bunny = parseObj(fs.readFileSync(bunnyFile, 'utf8'));
const bv = [], bt = [];
for (let i = 0; i < bunny.vertices.length; i += 3) bv.push([bunny.vertices[i], bunny.vertices[i + 1], bunny.vertices[i + 2]]);
for (let i = 0; i < bunny.triangles.length; i += 3) bt.push([bunny.triangles[i], bunny.triangles[i + 1], bunny.triangles[i + 2]]);
// two holes in the underside: triangles whose centroid is within 4 cm of two points on the bottom
const centroid = (tri) => [0, 1, 2].map((k) => (bv[tri[0]][k] + bv[tri[1]][k] + bv[tri[2]][k]) / 3);
const holes = [[0.12, 0, 0.05], [-0.1, 0, 0]];
const near = (c) => holes.some((h) => Math.hypot(c[0] - h[0], c[1] - h[1], c[2] - h[2]) < 0.04);
write('bunny-holes', 'the bunny of web/assets/bunny.obj (decimated) with two holes cut in its underside (open)', bv, bt.filter((tri) => !near(centroid(tri))));
write('bunny-mm', 'the bunny of web/assets/bunny.obj (decimated) in millimetres (closed)', bv.map((p) => p.map((x) => x * 1000)), bt);
write('bunny-flipped', 'the bunny of web/assets/bunny.obj (decimated) with every 25th triangle flipped (inconsistently oriented)', bv,
  bt.map((tri, i) => (i % 25 === 0 ? [tri[0], tri[2], tri[1]] : tri)));

// two boxes sharing the edge x = 0.2, z = 0.2 (y from 0 to 0.4): the second box's corners 0 and 2 are the first's 7 and 5's
// neighbours on that edge, so the edge's two vertices are shared and four triangles run along it
{
  const a = box([-0.2, 0, -0.2], [0.2, 0.4, 0.2]);
  const c = box([0.2, 0, 0.2], [0.6, 0.4, 0.6], 8);
  const v = [...a.v, ...c.v];
  // c's corners 0 (0.2, 0, 0.2) and 2 (0.2, 0.4, 0.2) are a's 5 and 7
  const map = (i) => (i === 8 ? 5 : i === 10 ? 7 : i);
  const t = [...a.t, ...c.t.map((tri) => tri.map(map))];
  write('two-boxes-edge', 'two 0.4 m boxes sharing an edge: four triangles on it (non-manifold); corners 9 and 11 unused', v, t);
}
{
  const a = box([-0.2, 0, -0.2], [0.2, 0.4, 0.2]);
  const c = box([0, 0.1, -0.1], [0.35, 0.3, 0.1], 8);
  write('overlapping-boxes', 'two closed boxes through each other, not merged (self-intersecting)', [...a.v, ...c.v], [...a.t, ...c.t]);
}
{
  const a = box([-0.2, 0, -0.2], [0.2, 0.4, 0.2]);
  const v = [...a.v, [0, 0, -0.2]]; // 8: the middle of edge 0-1
  const t = [...a.t, [0, 1, 1], [0, 8, 1], [2, 2, 2]]; // a repeated vertex; three points on a line; one vertex thrice
  write('degenerate', 'a 0.4 m box with three zero-area triangles (a repeated vertex, three points on a line)', v, t);
}
{
  const a = box([-1e-4, 0, -1e-4], [1e-4, 2e-4, 1e-4]);
  write('micro-box', 'a box of 0.2 mm (microscopic)', a.v, a.t);
}
console.log(`written to ${out}`);
