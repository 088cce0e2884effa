// body-fill.js — a mesh body's inside test (which lattice cells it keeps: src/builders/surface.c) run ahead of its
// world, in parts (pbd_BodyFill_*, src/minipbd.h). For an open surface it is the generalized winding number at every
// cell (Jacobson et al. 2013): 1 to 3 s of wasm at resolution 48, one call before, run twice (the counts, then the
// build). Now the cells are found once per engine, kept by the mesh's contents and resolution, and given to the counts
// and the build (pbdBodyDef.cells: the same cells, so the same body). engine.prepareScene runs the fills a few
// milliseconds at a time, so a page answers its input while a link's models are filled (app/prepare.js).

const ROW_BYTES = 8;
/** Rows of cells the engine hands out (src/minipbd.h PBD_BODY_FILL_ROWS: 48 x 48). */
const FILL_ROWS = 48 * 48;
/** Fills kept per engine (the last ones: a page goes back and forth between a few scenes). */
const KEEP = 8;

const now = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** FNV-1a over the words of the typed arrays: the fill's key, with the resolution. */
function fillKey(resolution, arrays) {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const words = new Uint32Array(a.buffer, a.byteOffset, a.byteLength >> 2);
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
    h = Math.imul(h ^ a.length, 0x01000193);
  }
  return `${resolution}:${(h >>> 0).toString(16)}:${arrays.map((a) => a.length).join(':')}`;
}

/** The engine's kept fills: key -> the cells' bytes (FILL_ROWS rows of 8). */
function kept(engine) {
  return (engine.bodyFills ??= new Map());
}

function keep(engine, key, cells) {
  const map = kept(engine);
  map.delete(key);
  map.set(key, cells);
  while (map.size > KEEP) map.delete(map.keys().next().value);
}

/** The cells of a surface body of these arguments (bodyArgs): those kept, else filled now, whole (and kept); null when
 *  the engine refuses the body (its build then says why). */
export function bodyCells(engine, args) {
  const job = new BodyFillJob(engine, args);
  job.run(Infinity);
  return kept(engine).get(job.key) ?? null;
}

/**
 * A surface body's fill as a job: run(deadline) works until performance.now() passes `deadline` and returns true
 * once the cells are kept (or the def is refused: createWorld then says why, as before); cancel() frees what it
 * holds. `args` are bodyArgs' (the flat scalars of pbdjs_AddBody without the world, the mesh's arrays).
 */
export class BodyFillJob {
  constructor(engine, args) {
    this.engine = engine;
    this.args = args;
    this.key = fillKey(args.resolution, [args.vertices, args.indices]);
    this.done = false;
    this.ptrs = null;
    this.cells = 48; // cells a pbd_BodyFill_Run: set toward a millisecond's worth as they go
  }

  /** Mallocs the arrays and the fill and begins it; false when refused. */
  begin() {
    const { engine, args } = this;
    const e = engine.exports;
    const heap = engine.heap;
    const copy = (a) => {
      const p = e.malloc(Math.max(a.byteLength, 8));
      if (!p) return 0;
      heap.refreshViews();
      new Uint8Array(heap.memory.buffer, p, a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      return p;
    };
    const vp = copy(args.vertices), ip = copy(args.indices);
    this.ptrs = [vp, ip];
    if (!vp || !ip) return false;
    const flat = [...args.scalars, vp, args.vertices.length / 3, ip, args.indices.length];
    const bytes = e.pbdjs_BodyFillBytes(...flat);
    if (bytes <= 0) return false;
    const fill = e.malloc(bytes);
    this.ptrs.push(fill);
    heap.refreshViews();
    return Boolean(fill) && e.pbdjs_BodyFillBegin(fill, bytes, ...flat) === 0;
  }

  run(deadline) {
    if (this.done || (!this.ptrs && kept(this.engine).has(this.key))) return (this.done = true); // kept meanwhile: a twin
    if (!this.ptrs && !this.begin()) return this.finish(null);
    const e = this.engine.exports;
    const fill = this.ptrs[2];
    for (;;) {
      const t0 = now();
      if (e.pbd_BodyFill_Run(fill, this.cells) === 0) {
        const at = e.pbd_BodyFill_Cells(fill);
        this.engine.heap.refreshViews();
        return this.finish(new Uint8Array(this.engine.heap.memory.buffer, at, FILL_ROWS * ROW_BYTES).slice());
      }
      const t1 = now();
      // a cell costs microseconds far from the surface, up to milliseconds beside it: aim each call at about 1 ms
      this.cells = Math.min(8192, Math.max(48, Math.round(this.cells / Math.max(t1 - t0, 0.05))));
      if (t1 >= deadline) return false;
    }
  }

  finish(cells) {
    if (cells) keep(this.engine, this.key, cells);
    this.cancel();
    this.done = true;
    return true;
  }

  cancel() {
    if (!this.ptrs) return;
    const e = this.engine.exports;
    for (const p of this.ptrs) if (p) e.free(p);
    this.ptrs = null;
    this.engine.heap.refreshViews();
  }
}
