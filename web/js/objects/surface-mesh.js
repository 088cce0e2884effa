// surface-mesh.js — a closed triangle surface given in a scene, as "mesh" bodies (objects/body-common.js) and
// inflatables (objects/inflatable.js) take one: its record rows, `mesh` {vertices, triangles} or `obj` (OBJ text, read
// by format/obj.js), and its fitting to `size` (the longest side of its bounding box in metres).

import { SCENE_LIMITS as L } from '../format/limits.js';
import { parseObj, ObjError } from '../format/obj.js';
import { readRecord } from '../format/fields.js';
import { SceneError, fail, join } from '../format/read.js';

/**
 * A mesh model far outside the world's scale (a model in millimetres is hundreds of units long; a microscopic
 * one a hundredth of a unit) is fitted: its vertices scaled about their origin so the bounding box's longest side
 * is `size` metres (default 0.5, about the size of the bunny scene's bunny). Between `min` and `max` a model is
 * taken as it is, in metres, unless the scene gives `size`.
 */
export const MESH_FIT = Object.freeze({ min: 0.02, max: 20, size: 0.5 });

/** n-tuples of a mesh: vertices (within ±maxMeshCoord) or indices (integers below the mesh's vertex count). */
const VERTEX = { kind: 'number', min: -L.maxMeshCoord, max: L.maxMeshCoord, unit: 'm' };
export const INDEX = { kind: 'integer', min: 0, range: (ctx) => ({ min: 0, max: ctx.value('vertices').length - 1 }) };
export const tuples = (key, item, n, min, max, noun) => ({
  key, kind: 'list', min, max, noun, required: true, item: { kind: 'tuple', items: Array(n).fill(item), what: `an array of ${n} numbers` },
});
export const VERTICES = (max) => tuples('vertices', VERTEX, 3, 4, max, 'vertices [x, y, z]');
/** A surface: vertices and triangles [a, b, c], counter-clockwise from outside. */
export const SURFACE = { kind: 'record', def: 'surfaceMesh', fields: [VERTICES(L.maxSurfaceVertices), tuples('triangles', INDEX, 3, 4, L.maxSurfaceTriangles, 'triangles [a, b, c]')] };

/** The rows' descriptions of `size` and `obj` (the JSON Schema's), a mesh body's and an inflatable's. */
export const SIZE_TEXT = 'the longest side of the model\'s bounding box in metres: its vertices are scaled to it (a model far outside the world\'s scale is fitted to 0.5 m when no size is given)';
export const OBJ_TEXT = 'the text of an OBJ file (v and f lines)';

/**
 * Scales `mesh`'s vertices in place so its bounding box's longest side is `size` m (given, or MESH_FIT.size when
 * the model is outside [MESH_FIT.min, MESH_FIT.max]); returns the size used, undefined when left as it is. A mesh
 * already of that size is left exactly as it is, so reading a normalised scene again changes nothing.
 */
export function fitMesh(mesh, size) {
  const longest = longestSide(mesh);
  if (size === undefined) {
    if (!(longest > 0) || (longest >= MESH_FIT.min && longest <= MESH_FIT.max)) return undefined;
    size = MESH_FIT.size;
  }
  const factor = size / longest;
  if (longest > 0 && Math.abs(factor - 1) > 1e-9) mesh.vertices = mesh.vertices.map((v) => v.map((x) => x * factor));
  return size;
}

/** The longest side of a mesh's bounding box. */
export function longestSide(mesh) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const v of mesh.vertices) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[k]); hi[k] = Math.max(hi[k], v[k]); }
  return Math.max(...hi.map((h, k) => h - lo[k]));
}

/** A closed surface: `mesh` {vertices, triangles} or `obj` (OBJ text), exactly one (`what` takes them, in the message). */
export function surface(mesh, obj, path, ctx, what = 'a mesh body') {
  if ((mesh === undefined) === (obj === undefined)) {
    throw new SceneError(join(path, 'mesh'), `${join(path, 'mesh')} is required: ${what} takes "mesh" {vertices, triangles} or "obj" (OBJ text), exactly one`);
  }
  if (obj !== undefined) {
    const p = join(path, 'obj');
    if (typeof obj !== 'string') fail(p, 'must be the text of an OBJ file', obj);
    let parsed;
    try { parsed = parseObj(obj); } catch (e) {
      if (e instanceof ObjError) throw new SceneError(p, `${p} is refused: ${e.message}`);
      throw e;
    }
    return meshFromArrays(parsed.vertices, parsed.triangles);
  }
  return readRecord(SURFACE.fields, mesh, join(path, 'mesh'), ctx);
}

/** A mesh {vertices: [[x, y, z]...], triangles: [[a, b, c]...]} from parseObj's flat arrays. */
export function meshFromArrays(xyz, tri) {
  const vertices = [];
  for (let i = 0; i < xyz.length; i += 3) vertices.push([xyz[i], xyz[i + 1], xyz[i + 2]]);
  const triangles = [];
  for (let i = 0; i < tri.length; i += 3) triangles.push([tri[i], tri[i + 1], tri[i + 2]]);
  return { vertices, triangles };
}

/** Vertices and indices of an object's mesh (after reading) in a scene total: [vertices, triangles + tets]. */
export function meshSize(o) {
  if (!o.mesh) return [0, 0];
  return [o.mesh.vertices.length, (o.mesh.triangles ?? o.mesh.tets).length];
}
