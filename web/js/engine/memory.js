// memory.js — the wasm heap as JS sees it: typed-array views that follow memory growth, C strings, the engine's
// error messages, and the records C writes for JS (counts, stats, object and collider info).
//
// The memory map is declared once in C (pbd_World_GetBuffer, src/wasm/api.c, src/wasm/api_colliders.c) and
// mirrored once here. Views are rebuilt only when wasm memory has grown, which can happen in createWorld but never
// in a step (the world's pool is reserved at creation), so the views a frame holds stay valid (wasm4's habit).
//
// Records: a pbdjs_ call that returns a record gets an out-pointer as its last argument, this engine's own
// scratch block (allocated once with the exported malloc), so C keeps no static exchange block (threads are
// coming). The call and its record are in one place: out().
//
// Error messages are per world in C: a failed call on a world is described by pbd_World_GetLastErrorMessage(world),
// a failed call without one (an invalid id, creating a world) by pbd_GetLastErrorMessage().

import { MiniPBDError } from './args.js';
import { OBJECT_FIELDS } from './param-table.js';

// Mirrors src/minipbd.h's pbdBuffer.
export const BUFFER = Object.freeze({ positions: 0, velocities: 1, normals: 2, triangles: 3, lines: 4, errors: 5, convergence: 6,
  skinPositions: 7, skinNormals: 8, skinTriangles: 9, densities: 10, previous: 11 });
// Mirrors the records of src/wasm/api.c (float64 slots, or int32 for counts).
export const STATS_FIELDS = Object.freeze(['steps', 'particles', 'constraints', 'attachments', 'maxError', 'meanError',
  'maxStretch', 'kineticEnergy', 'potentialEnergy']);
// pbdObjectInfo's fields: generated from the engine's PBD_OBJECT_FIELDS (engine/param-table.js; the loader checks
// them against the engine's pbd_ObjectFieldName), not written here.
export { OBJECT_FIELDS };
// Mirrors pbdShapeType and pbdColliderInfo (16 float64 from pbdjs_GetColliderInfo).
export const COLLIDER_TYPES = Object.freeze(['sphere', 'capsule', 'box']);
export const COLLIDER_FIELDS = 16;

const SCRATCH_BYTES = 256; // the largest record: 32 float64

export class Heap {
  constructor(exports) {
    this.exports = exports;
    this.memory = exports.memory;
    this.generation = 0;
    this.refreshViews();
    const malloc = exports.malloc ?? exports._malloc;
    this.scratch = malloc ? malloc(SCRATCH_BYTES) : 0;
    this.refreshViews();
    if (!this.scratch) throw new MiniPBDError('load', 'the engine exports no malloc: no room for its records');
    const bytes = exports.pbdjs_ExchangeBytes ? exports.pbdjs_ExchangeBytes() : SCRATCH_BYTES;
    if (bytes > SCRATCH_BYTES) throw new MiniPBDError('load', `the engine's records need ${bytes} bytes, this loader has ${SCRATCH_BYTES}`);
  }

  /** Rebuilds the views when memory has grown: a growing memory detaches its buffer (the views' length is then 0),
   *  a shared one keeps it but a view does not reach the new pages (threads.js), so the lengths are compared. */
  refreshViews() {
    const buf = this.memory.buffer;
    if (this.u8 && this.u8.length === buf.byteLength) return;
    this.u8 = new Uint8Array(buf);
    this.i32 = new Int32Array(buf);
    this.f32 = new Float32Array(buf);
    this.f64 = new Float64Array(buf);
    this.generation++;
  }

  /** The NUL-terminated UTF-8 string at `ptr`. */
  readString(ptr) {
    this.refreshViews();
    let end = ptr;
    while (this.u8[end] !== 0) end++;
    // a copy (slice): browsers' TextDecoder refuses a view of shared memory (the threaded build's)
    return new TextDecoder().decode(this.u8.slice(ptr, end));
  }

  /** The engine's last error message: world `world`'s when given (a live id), else that of calls without one. */
  lastError(world = 0) {
    const e = this.exports;
    return this.readString(world > 0 && e.pbd_World_IsValid(world) ? e.pbd_World_GetLastErrorMessage(world) : e.pbd_GetLastErrorMessage());
  }

  /** Throws a MiniPBDError carrying the engine's message when `result` is negative; returns it otherwise. */
  check(result, code = 'engine', world = 0) {
    if (result < 0) throw new MiniPBDError(code, this.lastError(world));
    return result;
  }

  /** Calls pbdjs export `name` with `args` (the world id first, if any) and the out-pointer; returns its result
   *  (checked when `check`). */
  out(name, args, check = true) {
    const result = this.exports[name](...args, this.scratch);
    this.refreshViews();
    return check ? this.check(result, 'engine', typeof args[0] === 'number' ? args[0] : 0) : result;
  }

  /** `n` int32 of the record just written. */
  int32s(n) { return Array.from(this.i32.subarray(this.scratch >> 2, (this.scratch >> 2) + n)); }

  /** `n` float32 of the record just written. */
  float32s(n) { return Array.from(this.f32.subarray(this.scratch >> 2, (this.scratch >> 2) + n)); }

  /** `n` float64 of the record just written. */
  float64s(n) { return this.scratchFloat64s(n); }

  /** `n` float64 at our own out-pointer (for the calls that always take one, such as pbdjs_ParamInfo). */
  scratchFloat64s(n) {
    this.refreshViews();
    return Array.from(this.f64.subarray(this.scratch >> 3, (this.scratch >> 3) + n));
  }

  /**
   * Copies typed arrays (a body's vertices and indices) into wasm memory allocated with the exported malloc,
   * calls fn(pointers) and frees them whatever happens; returns fn's result. An empty array gets pointer 0.
   * Memory may grow in malloc, so the views are rebuilt before each copy (and the callee sees the new buffer).
   */
  withArrays(arrays, fn) {
    const e = this.exports;
    const malloc = e.malloc ?? e._malloc;
    const free = e.free ?? e._free;
    const ptrs = [];
    try {
      for (const a of arrays) {
        if (a.length === 0) { ptrs.push(0); continue; }
        const ptr = malloc(a.byteLength);
        if (!ptr) throw new MiniPBDError('memory', `the engine could not allocate ${a.byteLength} bytes for a mesh`);
        ptrs.push(ptr);
        this.refreshViews();
        new Uint8Array(this.memory.buffer, ptr, a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      }
      return fn(...ptrs);
    } finally {
      for (const p of ptrs) if (p) free(p);
      this.refreshViews();
    }
  }

  /** A view of `count` x `per` elements of `Type` over the world's buffer `buffer`. */
  bufferView(world, buffer, Type, per) {
    const e = this.exports;
    const ptr = e.pbd_World_GetBuffer(world, buffer, 0);
    const count = e.pbd_World_GetCount(world, buffer);
    this.refreshViews();
    // An empty buffer (no bodies: no skin) may have no storage: an empty view.
    return count > 0 && ptr ? new Type(this.memory.buffer, ptr, count * per) : new Type(this.memory.buffer, 0, 0);
  }
}

/** Object `index` of world `world` as { type, name, ...its pbdObjectInfo ranges } (OBJECT_FIELDS but the type). */
export function readObjectInfo(heap, world, index, { type, name }) {
  heap.out('pbdjs_GetObjectInfo', [world, index]);
  const fields = heap.int32s(OBJECT_FIELDS.length);
  const info = { type, name };
  OBJECT_FIELDS.forEach((f, k) => { if (f !== 'type') info[f] = fields[k]; });
  return info;
}

/** World `world`'s pbdjs_GetStats record as { steps, particles, constraints, ... } (STATS_FIELDS order). */
export function readStats(heap, world) {
  heap.out('pbdjs_GetStats', [world]);
  const f = heap.float64s(STATS_FIELDS.length);
  return Object.fromEntries(STATS_FIELDS.map((name, k) => [name, f[k]]));
}

/** The constraints each family of world `world` holds now, by family name (pbdjs_GetConstraintCounts, names from
 *  pbd_FamilyName): distance, volume, tethers, attachments, fluid (one per live fluid particle), shapes (one per
 *  rigid body); the contacts, colliders and ground families find theirs again every substep and count 0. */
export function readConstraintCounts(heap, world) {
  const n = heap.out('pbdjs_GetConstraintCounts', [world]);
  const counts = heap.int32s(n);
  return Object.fromEntries(counts.map((c, f) => [heap.readString(heap.exports.pbd_FamilyName(f)), c]));
}
