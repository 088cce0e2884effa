// drop.js — files given to the page, dropped on the view or opened from the panel: an .obj model (parsed by
// format/obj.js, checked again by C when the body is built) becomes a soft or rigid body in the running scene; a
// .json file is a scene (checked as a link's scene is: readSceneFile). Every size is checked before a file is
// read, so a 100 MB file is refused at once. Nothing here touches the world: the app builds a new world from the
// new scene and keeps the running one when that is refused (main.js), and the reason is shown as text.

import { readObjFile } from '../format/obj.js';
import { SCENE_LIMITS } from '../format/limits.js';
import { checkSceneFileSize, parseSceneFile } from '../format/scene-file.js';
import { intersectPlane } from '../render/camera.js';

/** A dropped model's largest side, when its own size is not a body's (outside MODEL_SIZE). */
const MODEL_FIT = 0.6;
const MODEL_SIZE = { min: 0.15, max: 2 }; // metres: a model within these keeps its own size
const DROP_HEIGHT = 0.4; // metres above the ground its lowest point starts
const ROUND = 1e5; // model vertices are kept to 10 µm: shorter scene files, nothing visible lost

/** 'obj' (a model), 'scene' (JSON) or null, from the file's name (or its type when the name says nothing). */
export function fileKind(file) {
  const name = String(file?.name ?? '').toLowerCase();
  if (name.endsWith('.obj')) return 'obj';
  if (name.endsWith('.json')) return 'scene';
  if (file?.type === 'application/json') return 'scene';
  if (file?.type === 'model/obj') return 'obj';
  return null;
}

/**
 * The scene a .json file holds, validated as everywhere else (format/scene-file.js: size before a byte is read,
 * strict UTF-8, nesting, JSON, then the link's validator and limits). Throws SceneFileError or SceneError; reads
 * nothing of the world.
 */
export async function readSceneFile(file) {
  checkSceneFileSize(file.size, file.name);
  return parseSceneFile(new Uint8Array(await file.arrayBuffer()), file.name);
}

/** The model an .obj file holds: { vertices: Float32Array, triangles: Uint32Array, name } (format/obj.js, which
 *  checks the file's size before reading it). */
export function readModelFile(file) {
  return readObjFile(file);
}

/**
 * A scene object for `model`: a body of `type` (an object type drawn as a skin) with the model as its surface, at `resolution`
 * lattice cells along its longest side, its lowest point DROP_HEIGHT above `at` (a point on the ground). A model
 * whose largest side is not a body's size (a model in millimetres) is scaled to MODEL_FIT; its vertices are
 * centred over `at`.
 */
export function modelObject(model, { type, resolution = 8, at = [0, 0, 0], name } = {}) {
  const V = model.vertices;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < V.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c], V[i + c]);
      hi[c] = Math.max(hi[c], V[i + c]);
    }
  }
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const scale = extent >= MODEL_SIZE.min && extent <= MODEL_SIZE.max ? 1 : MODEL_FIT / (extent || 1);
  const centre = [(lo[0] + hi[0]) / 2, lo[1], (lo[2] + hi[2]) / 2];
  const vertices = [];
  for (let i = 0; i < V.length; i += 3) vertices.push([0, 1, 2].map((c) => Math.round((V[i + c] - centre[c]) * scale * ROUND) / ROUND));
  const T = model.triangles;
  const triangles = [];
  for (let i = 0; i < T.length; i += 3) triangles.push([T[i], T[i + 1], T[i + 2]]);
  const round = (v) => Math.round(v * 1e4) / 1e4;
  return {
    type,
    name: String(name || model.name || 'model').slice(0, SCENE_LIMITS.maxNameLength),
    shape: 'mesh',
    position: [round(at[0]), round(at[1] + DROP_HEIGHT), round(at[2])],
    resolution,
    mesh: { vertices, triangles },
  };
}

/** Where a drop at page position (clientX, clientY) lands on the ground plane y = groundHeight, or the camera's
 *  target when the ray misses it (looking up). */
export function groundPoint(camera, canvas, clientX, clientY, groundHeight) {
  const r = canvas.getBoundingClientRect();
  const w = r.width || 1, h = r.height || 1;
  camera.update(w / h);
  const { origin, dir } = camera.rayFromPixel(clientX - r.left, clientY - r.top, w, h);
  const hit = intersectPlane(origin, dir, [0, groundHeight, 0], [0, 1, 0]);
  const far = hit && Math.hypot(hit[0] - camera.target[0], hit[2] - camera.target[2]) > 4 * camera.distance;
  return hit && !far ? hit : [camera.target[0], groundHeight, camera.target[2]];
}

/**
 * Lets files be dropped on `target`: while a drag with files is over it, it has the class `dropping`; a drop
 * calls onDrop(files, clientX, clientY). Other drags (text, links) are left to the browser.
 */
export function installDrop(target, onDrop) {
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  let depth = 0; // dragenter/leave fire for every child the drag crosses
  target.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    target.classList.add('dropping');
  });
  target.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault(); // without this the browser opens the file instead
    e.dataTransfer.dropEffect = 'copy';
  });
  target.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) target.classList.remove('dropping');
  });
  target.addEventListener('drop', (e) => {
    depth = 0;
    target.classList.remove('dropping');
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    e.preventDefault();
    onDrop(files, e.clientX, e.clientY);
  });
}
