// obj.js — the Wavefront OBJ reader for closed triangle surfaces ("OBJ import"): a model dropped on the
// page, given to minipbd-run --obj or to the JS API becomes the `mesh` of a soft or rigid body (objects/).
//
//   import { parseObj, readObjFile, ObjError } from './format/obj.js';
//   const { vertices, triangles, name } = parseObj(text);     // Float32Array xyz, Uint32Array abc (0-based)
//   const mesh = await readObjFile(file);                     // a File or Blob: its size is checked before reading
//
// Read: `v x y z` (a w or colour after the three coordinates is ignored) and `f` with any number of corners
// (polygons are fanned into triangles from their first corner: a, b, c, then a, c, d, ...), each corner `v`,
// `v/vt`, `v//vn` or `v/vt/vn`, 1-based or negative (relative: -1 is the last vertex defined before the line).
// Everything else (vt, vn, o, g, s, usemtl, mtllib, l, p, comments) is skipped; the first `o` (else `g`) names it.
// The file is untrusted, so it is bounded before it is read (its size), while it is read (vertex and triangle
// counts) and value by value (numbers finite and within ±1e5, indices in range); a refusal is an ObjError whose
// message names the line and what is wrong. Whether the surface is closed and consistently oriented, and whether
// it encloses a positive volume, is checked by the engine (pbd_BodyCounts), whose message the scene error carries.
// Nothing here touches the DOM: messages are plain text.

import { SCENE_LIMITS } from './limits.js';

const L = SCENE_LIMITS;
/** The reader's bounds (SCENE_LIMITS: a surface body's limits in the engine, docs/api.md). */
export const OBJ_LIMITS = Object.freeze({
  maxBytes: L.maxObjBytes,
  maxVertices: L.maxSurfaceVertices,
  maxTriangles: L.maxSurfaceTriangles,
  maxCoord: L.maxMeshCoord,
});

/** A refused OBJ file: `.line` is the 1-based line of the problem (0 for the file as a whole). */
export class ObjError extends Error {
  constructor(line, message) {
    super(line > 0 ? `OBJ line ${line}: ${message}` : `OBJ file: ${message}`);
    this.name = 'ObjError';
    this.line = line;
  }
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INDEX = /^[+-]?\d+$/;
// Bytes a text file has no business holding (NUL and the other C0 controls but tab, LF, VT, FF, CR): binary data.
const BINARY = /[\u0000-\u0008\u000e-\u001f\u007f]/;

const fmt = (n) => n.toLocaleString('en-US');
const shown = (s) => JSON.stringify(s.length > 24 ? `${s.slice(0, 24)}…` : s);

/** The size bound: a string's length (UTF-16 units, at most its UTF-8 bytes for the ASCII of an OBJ) or a Blob's size. */
function checkSize(size, maxBytes) {
  if (size > maxBytes) throw new ObjError(0, `it is ${fmt(size)} bytes; at most ${fmt(maxBytes)} are read`);
}

/**
 * Parses OBJ text into a triangle surface. Throws ObjError naming the line and the problem.
 * @param {string} text
 * @param {{maxBytes?: number, maxVertices?: number, maxTriangles?: number}} [limits]
 * @returns {{vertices: Float32Array, triangles: Uint32Array, name: string}}
 */
export function parseObj(text, limits = {}) {
  const { maxBytes, maxVertices, maxTriangles, maxCoord } = { ...OBJ_LIMITS, ...limits };
  if (typeof text !== 'string') throw new ObjError(0, 'it must be text');
  checkSize(text.length, maxBytes);
  const bad = BINARY.exec(text);
  if (bad) {
    const line = lineOf(text, bad.index);
    throw new ObjError(line, `byte 0x${bad[0].charCodeAt(0).toString(16).padStart(2, '0')} is not text (a binary file?)`);
  }
  // Growable storage, bounded by the limits (checked before each push).
  let xyz = new Float32Array(3 * Math.min(1024, maxVertices));
  let tri = new Uint32Array(3 * Math.min(2048, maxTriangles));
  let triLine = new Uint32Array(Math.min(2048, maxTriangles)); // the line of each triangle, for range errors
  let nv = 0, nt = 0;
  let objectName = '', groupName = '';
  let lineNo = 0;
  let start = 0;
  const corner = [];
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    let line = text.slice(start, end);
    start = end + 1;
    const hash = line.indexOf('#');
    if (hash >= 0) line = line.slice(0, hash);
    line = line.trim();
    if (line === '') continue;
    const parts = line.split(/\s+/);
    const key = parts[0];
    if (key === 'v') {
      if (parts.length < 4 || parts.length > 8) throw new ObjError(lineNo, `a vertex needs 3 coordinates (x y z), got ${parts.length - 1} values`);
      if (nv >= maxVertices) throw new ObjError(lineNo, `more than ${fmt(maxVertices)} vertices`);
      if (3 * nv + 3 > xyz.length) xyz = grow(xyz, 3 * maxVertices);
      for (let k = 1; k <= 3; k++) {
        const s = parts[k];
        const v = NUMBER.test(s) ? Number(s) : NaN;
        if (!Number.isFinite(v)) throw new ObjError(lineNo, `vertex coordinate ${shown(s)} is not a finite number`);
        if (Math.abs(v) > maxCoord) throw new ObjError(lineNo, `vertex coordinate ${s} is outside ±${maxCoord}`);
        xyz[3 * nv + k - 1] = v;
      }
      for (let k = 4; k < parts.length; k++) {
        if (!NUMBER.test(parts[k])) throw new ObjError(lineNo, `vertex value ${shown(parts[k])} is not a number`);
      }
      nv++;
    } else if (key === 'f') {
      if (parts.length < 4) throw new ObjError(lineNo, `a face needs at least 3 corners, got ${parts.length - 1}`);
      corner.length = 0;
      for (let k = 1; k < parts.length; k++) corner.push(cornerIndex(parts[k], nv, lineNo));
      const fan = corner.length - 2;
      if (nt + fan > maxTriangles) throw new ObjError(lineNo, `more than ${fmt(maxTriangles)} triangles`);
      while (3 * (nt + fan) > tri.length) {
        tri = grow(tri, 3 * maxTriangles);
        triLine = grow(triLine, maxTriangles);
      }
      for (let k = 1; k <= fan; k++) {
        tri[3 * nt] = corner[0];
        tri[3 * nt + 1] = corner[k];
        tri[3 * nt + 2] = corner[k + 1];
        triLine[nt] = lineNo;
        nt++;
      }
    } else if (key === 'o' && objectName === '') {
      objectName = parts.slice(1).join(' ');
    } else if (key === 'g' && groupName === '') {
      groupName = parts.slice(1).join(' ');
    }
    // vt, vn, s, usemtl, mtllib, l, p and anything else: not part of a surface; skipped.
  }
  if (nt === 0) throw new ObjError(0, nv === 0 ? 'it has no vertices and no faces (is it an OBJ file?)' : 'it has no faces (f lines)');
  // Positive indices may point forward (some exporters write faces first); every one must exist at the end.
  for (let t = 0; t < 3 * nt; t++) {
    if (tri[t] >= nv) throw new ObjError(triLine[(t / 3) | 0], `vertex index ${tri[t] + 1} is out of range: the file has ${fmt(nv)} vertices`);
  }
  return { vertices: xyz.slice(0, 3 * nv), triangles: tri.slice(0, 3 * nt), name: cleanName(objectName || groupName) };
}

/** A face corner "v", "v/vt", "v//vn" or "v/vt/vn" -> its 0-based vertex (negative: relative to the `nv` so far).
 *  A positive index past nv is kept and checked at the end. */
function cornerIndex(token, nv, lineNo) {
  const fields = token.split('/');
  if (fields.length > 3 || !INDEX.test(fields[0]) || fields.slice(1).some((f) => f !== '' && !INDEX.test(f))) {
    throw new ObjError(lineNo, `face corner ${shown(token)} is not v, v/vt, v//vn or v/vt/vn`);
  }
  const i = Number(fields[0]);
  if (i === 0) throw new ObjError(lineNo, 'vertex index 0: OBJ indices start at 1 (or are negative, counting back)');
  if (i < 0) {
    if (-i > nv) throw new ObjError(lineNo, `relative vertex index ${i} points before the first vertex (${fmt(nv)} defined so far)`);
    return nv + i;
  }
  if (i > 0xffffffff) throw new ObjError(lineNo, `vertex index ${fields[0]} is out of range`);
  return i - 1;
}

function grow(a, cap) {
  const b = new a.constructor(Math.min(cap, Math.max(a.length * 2, 16)));
  b.set(a);
  return b;
}

function lineOf(text, index) {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

// A model's name is shown as text in the page: printable, at most 80 characters (the scene format's name rule).
function cleanName(s) {
  const t = s.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[\ud800-\udfff]/g, '').trim();
  return t.length > L.maxNameLength ? t.slice(0, L.maxNameLength) : t;
}

/**
 * Reads an OBJ File or Blob (a page's drop, a file input): its size is checked before a byte is read, then its
 * text must be UTF-8, then parseObj. Resolves to parseObj's result; rejects with an ObjError.
 */
export async function readObjFile(blob, limits = {}) {
  const { maxBytes } = { ...OBJ_LIMITS, ...limits };
  if (!blob || typeof blob.size !== 'number' || typeof blob.arrayBuffer !== 'function') throw new ObjError(0, 'it must be a File or Blob');
  checkSize(blob.size, maxBytes);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await blob.arrayBuffer());
  } catch {
    throw new ObjError(0, 'it is not UTF-8 text (a binary file?)');
  }
  return parseObj(text, limits);
}
