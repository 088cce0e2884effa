// loader.js — loads the MiniPBD wasm and builds worlds from scene descriptions. Runs unchanged in browsers and in
// Node 20 (ES module, no dependencies).
//
//   const pbd = await loadMiniPBD();                    // minipbd.wasm beside js/ (a browser fetches it, Node reads it)
//   const pbd = await loadMiniPBD('./minipbd.wasm');   // or any URL, or the bytes (Node: fs.readFileSync)
//   const world = pbd.createWorld(scene);               // validated (format/scene.js); a World (world.js)

import { MiniPBDError } from './args.js';
import { Heap } from './memory.js';
import { PARAM_TABLE } from './params.js';
import { OBJECT_FIELDS } from './param-table.js';
import { World } from './world.js';
import { validateScene } from '../format/scene.js';
import { checkSceneCounts, objectTypeOf } from '../objects/index.js';
import { attachThreaded, checkThreads, isThreadedModule } from './threads.js';
import { carriedWasm } from '../inline/files.js';

const MAX_POINTERS = 16; // attachments reserved per world: one per finger and then some

const isBytes = (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v);

async function fetchBytes(source) {
  if (isBytes(source)) return source;
  // This module is js/engine/loader.js; the wasm is beside js/ (dist/ and the package's folder, docs/api.md "Install").
  // The URL is written inline: bundlers follow and copy new URL('literal', import.meta.url), not a variable.
  if (source === undefined) source = new URL('../../minipbd.wasm', import.meta.url);
  const url = source instanceof URL ? source : new URL(String(source), typeof location !== 'undefined' ? location.href : undefined);
  // A bundle carrying the wasm (the offline page: a file: page fetches nothing) answers from its own bytes.
  const carried = carriedWasm(url);
  if (carried) return carried;
  if (url.protocol === 'file:') {
    // Node only: fetch() does not read files. The import never runs in a browser.
    const fs = await import('node:fs/promises');
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new MiniPBDError('load', `could not load ${url.href}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Loads the engine. `source` is a URL (string or URL; file: URLs work in Node) or the
 * wasm bytes; left out (or given only the options), minipbd.wasm beside js/: fetched in a browser, read with
 * node:fs/promises in Node. Resolves to an engine whose createWorld builds worlds. The threaded build
 * (minipbd_threads.wasm, known by the memory it imports) starts its team of `options.threads`
 * (threads.js); the single-thread build ignores the options.
 * @param {string|URL|ArrayBuffer|Uint8Array|{threads?: number, runner?: boolean}} [source]
 * @param {{threads?: number, runner?: boolean}} [options]
 */
export async function loadMiniPBD(source, options = {}) {
  // loadMiniPBD({ threads: 2 }): the options alone (a plain object is neither a URL nor bytes).
  if (source !== null && typeof source === 'object' && !(source instanceof URL) && !isBytes(source)) {
    [source, options] = [undefined, source];
  }
  const bytes = await fetchBytes(source);
  const module = await WebAssembly.compile(bytes);
  const engine = new Engine();
  if (isThreadedModule(module)) return attachThreaded(engine, module, options);
  // The standalone wasm imports almost nothing; answer whatever it names so a libc
  // detail (WASI, memory-growth notices) cannot stop it from loading.
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = imp.name === 'emscripten_notify_memory_growth'
      ? () => engine.refreshViews()
      : imp.name === 'proc_exit'
        ? (code) => { throw new MiniPBDError('abort', `engine exited with code ${code}`); }
        : () => 0;
  }
  const instance = await WebAssembly.instantiate(module, imports);
  engine.attach(instance.exports);
  return engine;
}

export class Engine {
  attach(exports) {
    this.exports = exports;
    this.memory = exports.memory;
    if (exports._initialize) exports._initialize();
    this.heap = new Heap(exports);
    this.paramIds = new Map();
    for (let i = 0; ; i++) {
      const ptr = exports.pbd_ParamName(i);
      if (!ptr) break;
      this.paramIds.set(this.readString(ptr), i);
    }
    this.checkParamTable();
    this.capacities = this.readCapacities();
    this.worlds = new Set();
  }

  /**
   * The engine's capacity table (src/minipbd.h PBD_CAPACITIES), in the order pbdjs_CreateWorld takes it:
   * [{ name, offset, fixed, perParticle, limit, counted, clamped }], name as object counts call it ('particles',
   * 'constraints', ...). Also checks that the pbdObjectInfo record is param-table.js's OBJECT_FIELDS.
   */
  readCapacities() {
    const e = this.exports;
    const caps = [];
    for (let i = 0, ptr; (ptr = e.pbdjs_CapacityInfo(i, this.heap.scratch)); i++) {
      const [offset, fixed, perParticle, limit, flags] = this.heap.int32s(5);
      caps.push(Object.freeze({ name: this.readString(ptr), offset, fixed, perParticle, limit, counted: (flags & 1) !== 0,
        clamped: (flags & 2) !== 0 }));
    }
    const fields = [];
    for (let i = 0, ptr; (ptr = e.pbd_ObjectFieldName(i)); i++) fields.push(this.readString(ptr));
    if (fields.join() !== OBJECT_FIELDS.join()) {
      throw new MiniPBDError('load', `engine/param-table.js's OBJECT_FIELDS are not this engine's (${fields.join(', ')}): regenerate it with make`);
    }
    return Object.freeze(caps);
  }

  /**
   * A world of the capacities `caps` by name ({ particles: 1000, constraints: 8000, ... }; the names of
   * engine.capacities), the others the engine's defaults; returns its id (checked: throws the engine's refusal).
   */
  createWorldWith(caps = {}) {
    const known = new Set(this.capacities.map((c) => c.name));
    for (const name of Object.keys(caps)) {
      if (!known.has(name)) throw new MiniPBDError('create', `unknown capacity ${name} (the engine has ${[...known].join(', ')})`);
    }
    const values = this.capacities.map((c) => caps[c.name] ?? 0);
    const id = this.heap.withArrays([Int32Array.from(values)], (ptr) => this.exports.pbdjs_CreateWorld(ptr, values.length));
    this.heap.refreshViews();
    return this.check(id, 'create');
  }

  /**
   * The engine's parameter table must be param-table.js's (generated from the wasm by make): a stale module would
   * check values against the wrong ranges or set the wrong parameters, so it is refused here, naming the first
   * parameter that differs.
   */
  checkParamTable() {
    const names = [...this.paramIds.keys()];
    const stale = (why) => {
      throw new MiniPBDError('load', `engine/param-table.js is not this engine's table (${why}): regenerate it with make`);
    };
    if (names.length !== PARAM_TABLE.length) stale(`${names.length} parameters, the module has ${PARAM_TABLE.length}`);
    for (const p of PARAM_TABLE) {
      if (names[p.id] !== p.name) stale(`parameter ${p.id} is ${names[p.id]}, the module says ${p.name}`);
      if (this.exports.pbdjs_ParamInfo(p.id, this.heap.scratch) < 0) stale(`no row for ${p.name}`);
      const [def, min, max, flags] = this.heap.scratchFloat64s(4);
      const same = def === Math.fround(p.default) && min === Math.fround(p.min) && max === Math.fround(p.max)
        && ((flags & 3) !== 0) === p.integer && ((flags & 2) !== 0) === p.boolean;
      if (!same) stale(`${p.name} is [${min}, ${max}] (${def}) in the engine`);
    }
  }

  /** The threaded build (threads.js) with its team; the single-thread build: false, one thread, no team. */
  get threaded() { return this.threadTeam !== undefined; }

  /** The team's size (1 without one, or once closed). */
  get maxThreads() { return this.threadTeam?.maxThreads ?? 1; }

  /** The thread count new worlds step with, in [1, maxThreads] (default: maxThreads). */
  get threads() { return this.threadTeam?.threads ?? 1; }
  set threads(n) {
    if (this.threadTeam) this.threadTeam.setDefault(n);
    else checkThreads('engine.threads', n, 1);
  }

  /** The team's address in wasm memory (0: none). */
  get team() { return this.threadTeam?.team ?? 0; }

  /** Stops the team and its workers (Node can exit; worlds go on stepping on this thread alone). */
  close() { this.threadTeam?.close(); }

  /** Rebuilds the heap views when memory has grown (memory.js). */
  refreshViews() { this.heap?.refreshViews(); }

  /** Bumped whenever the heap views were rebuilt (a World's views follow it). */
  get generation() { return this.heap.generation; }

  readString(ptr) { return this.heap.readString(ptr); }

  lastError(world = 0) { return this.heap.lastError(world); }

  /** Throws a MiniPBDError carrying the engine's message (world `world`'s, when the call was on one) when `result`
   *  is negative. */
  check(result, code = 'engine', world = 0) { return this.heap.check(result, code, world); }

  /** The counts an object type's pbdjs_<Type>Counts export writes (particles, constraints, lines or triangles).
   *  Bodies have their own call (objects/body-common.js: pbdjs_BodyCounts writes five). */
  counts(name, ...args) {
    this.heap.out(name, args, false);
    return this.heap.int32s(3);
  }

  /** Names of the settable parameters, in C order. */
  get paramNames() { return [...this.paramIds.keys()]; }

  /**
   * Building a world from `input` in pieces, ahead of createWorld(input): a mesh body's inside test (seconds for an
   * open model at resolution 48; objects/body-fill.js), then the world an object at a time (World.building: two soft
   * boxes of 48³ cells are 0.23-0.36 s of wasm in one call). A job: run(ms) works about that long (an object at
   * least) and returns true when nothing is left, cancel() drops what is unfinished. createWorld(input), with the
   * same input, then returns the world built (a scene the validator or the engine refuses: createWorld says why).
   */
  prepareScene(input) {
    let jobs;
    try {
      jobs = validateScene(input).objects.map((o) => objectTypeOf(o).fillJob?.(this, o)).filter(Boolean);
    } catch {
      return { run: () => true, cancel: () => {} }; // createWorld refuses it with the reason
    }
    let started = null, built = false;
    const drop = () => { if (started && !built) this.exports.pbd_DestroyWorld(started.world.id); started = null; };
    return {
      run: (ms = 8) => {
        const deadline = performance.now() + ms;
        while (jobs.length > 0 && jobs[0].run(deadline)) jobs.shift();
        if (jobs.length > 0) return false;
        if (built || started === false) return true;
        try {
          started ??= this.beginWorld(input);
          do { // an object at least
            if (!started.pieces.next().done) continue;
            built = true;
            if (this.prepared) this.exports.pbd_DestroyWorld(this.prepared.world.id); // an older one never taken
            this.prepared = { input, world: started.world };
            return true;
          } while (performance.now() < deadline);
          return false;
        } catch {
          drop();
          started = false; // createWorld builds it again, and throws
          return true;
        }
      },
      cancel: () => { for (const j of jobs.splice(0)) j.cancel(); drop(); },
    };
  }

  /**
   * Builds a world from a scene description (validated here; throws SceneError or
   * MiniPBDError). On failure nothing is left behind. The world prepareScene(input) built when it is the same input.
   */
  createWorld(input) {
    const ready = this.prepared;
    this.prepared = null;
    if (ready?.input === input) {
      this.worlds.add(ready.world);
      return ready.world;
    }
    if (ready) this.exports.pbd_DestroyWorld(ready.world.id);
    const { world, pieces } = this.beginWorld(input);
    try {
      while (!pieces.next().done);
    } catch (err) {
      this.exports.pbd_DestroyWorld(world.id);
      throw err;
    }
    this.worlds.add(world);
    return world;
  }

  /**
   * What a world of `input` reserves, from the engine's own counts (each type's counts(): pbd_BodyCounts,
   * pbdjs_FluidBlockCount, pbdjs_ClothCounts...), checked against the scene's limits (objects/index.js
   * checkSceneCounts): { scene, total, objects }, total by the capacity table's names, objects each object's counts.
   * Throws a SceneError naming the object and the limit; nothing is made. The validator has no counts of its own.
   */
  countScene(input) {
    const scene = validateScene(input);
    // The scene's own: its objects, colliders and the pointer's attachments.
    const total = { attachments: MAX_POINTERS, objects: scene.objects.length, colliders: scene.colliders.length };
    const objects = scene.objects.map((o, index) => objectTypeOf(o).counts(this, o, index, scene));
    checkSceneCounts(scene, objects);
    for (const c of objects) for (const [k, n] of Object.entries(c)) total[k] = (total[k] ?? 0) + n;
    return { scene, total, objects };
  }

  /** A world of `input`'s counts, empty, and its build as pieces (World.building). Throws before making anything. */
  beginWorld(input) {
    const { scene, total } = this.countScene(input);
    const e = this.exports;
    // Every object's counts first (a body's come from pbd_BodyCounts, which may refuse it: nothing is made then), summed
    // by the capacity table's names. Each counted capacity is exact, and at least 1 where 0 would ask for the engine's
    // default (the contacts' working set is the engine's default).
    const caps = {};
    for (const c of this.capacities) {
      if (c.counted) caps[c.name] = Math.max(total[c.name] ?? 0, c.fixed === 0 && c.perParticle === 0 ? 0 : 1);
    }
    const id = this.createWorldWith(caps);
    if (this.team) this.check(e.pbd_World_SetThreads(id, this.team, this.threads), 'create', id);
    const world = new World(this, id, scene);
    return { world, pieces: world.building() };
  }
}

