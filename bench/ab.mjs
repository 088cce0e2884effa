#!/usr/bin/env node
/* ab.mjs -- A/B of two builds of the engine on the benchmark cloth, in one process and
   alternated run by run, so that the ratio is not a difference between two moments of a
   shared machine. For "is the change within 3% of before": build the old commit in a
   worktree and give both its files and ours.

     node bench/ab.mjs --wasm-a OLD.wasm --wasm-b dist/minipbd.wasm \
                       [--native-a OLD/build/bench_native --native-b build/bench_native] \
                       [--res 316] [--runs 9] [--steps 20] [--case NAME:k=v,k=v ...] [--cpu]

   Each case builds the bench cloth (bench_native.c's scene: res x res, 2 m, pinned at the two
   top corners) through the flat exports both builds have (pbdjs_CreateWorld, pbdjs_AddCloth,
   pbd_World_SetParam by name), warms up 30 steps, then times `runs` batches of `steps` steps,
   A and B alternating. Prints medians, B/A and whether the two builds end on the same hash
   (they must, when the change keeps the bits). Native builds run as subprocesses, alternated
   too. Not part of `make bench` (it needs an old build); `make bench` prints the absolute
   figures.

     node bench/ab.mjs --dist-a OLD/dist --dist-b dist --scene dam-break [--scene hammock ...] [--build]

   A built-in scene instead, each build's own (its dist/js/minipbd.js and minipbd.wasm: the
   engine's createWorld), the same warm-up, alternation and medians. A scene of bench/heavy-scenes.mjs by its name
   too. --build times the scenes' builds (createWorld) instead of their steps: ms per build, and per build with its
   first step (where a build may leave work to the step's start), with the hash after it.

     node bench/ab.mjs --dist-a OLD/dist --dist-b dist --fluid 8k [--fluid 25k@2x4 ...]

   The bench's dam breaks (bench/fluid-cases.mjs: a block of 2k, 8k, 25k, 50k or 100k particles in a tank three
   times its width, `make bench`'s worlds), at the bench's split (2 substeps x 2 passes) or the one after @ (SxP),
   in each build's engine: the same warm-up, alternation and medians, and beside the times the fluid's density error
   and densest particle (pbd_World_GetFluidStats) at the end in each build, so speed is never read without them. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { heavyScenes } from './heavy-scenes.mjs';
import { BLOCKS, damPlan, fluidPlanOps, buildFluidWorld, fluidStats } from './fluid-cases.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const res = Number(opt('--res', 316));
/* --cpu: the process's CPU time (user + system) instead of wall time: on a machine shared with other work, the
   wall clock counts the time the process waited for a core (measured A/A with wall time on a loaded 2-core machine:
   up to 10% apart; a step is one thread's work either way) */
const cpu = args.includes('--cpu');
const clock = cpu ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; } : () => performance.now();
const runs = Number(opt('--runs', 9));
const steps = Number(opt('--steps', 20));
const cases = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] !== '--case') continue;
  const [name, kv = ''] = args[i + 1].split(':');
  cases.push({ name, params: Object.fromEntries(kv.split(',').filter(Boolean).map((p) => p.split('=')).map(([k, v]) => [k, Number(v)])) });
}
if (cases.length === 0) {
  cases.push({ name: `cloth-${res}x${res} 1x10`, params: { substeps: 1, iterations: 10 } });
  cases.push({ name: `cloth-${res}x${res} 10x1`, params: { substeps: 10, iterations: 1 } });
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

async function load(file) {
  const module = await WebAssembly.compile(fs.readFileSync(file));
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    imports[imp.module] ??= {};
    imports[imp.module][imp.name] = () => 0;
  }
  const e = (await WebAssembly.instantiate(module, imports)).exports;
  if (e._initialize) e._initialize();
  const text = (ptr) => { const u8 = new Uint8Array(e.memory.buffer); let end = ptr; while (u8[end]) end++; return new TextDecoder().decode(u8.subarray(ptr, end)); };
  const ids = new Map();
  for (let i = 0; ; i++) { const p = e.pbd_ParamName(i); if (!p) break; ids.set(text(p), i); }
  return { file, e, ids };
}

/* pbdjs_CreateWorld of the capacities `caps` (particles, constraints, triangles, lines, attachments, objects,
   colliders: the first rows of minipbd.h PBD_CAPACITIES), as the build takes them: an array in the table's order
   (builds with pbdjs_CapacityInfo), or positional ints (builds before the table). */
function createWorld(e, caps) {
  if (!e.pbdjs_CapacityInfo) return e.pbdjs_CreateWorld(...caps);
  const ptr = e.malloc(4 * caps.length);
  new Int32Array(e.memory.buffer, ptr, caps.length).set(caps);
  const w = e.pbdjs_CreateWorld(ptr, caps.length);
  e.free(ptr);
  return w;
}

/* bench_native.c's scene, through the flat exports. */
function build({ e, ids }, params) {
  const set = (w, name, v) => { if (e.pbd_World_SetParam(w, ids.get(name), v) < 0) throw new Error(`SetParam ${name}`); };
  const particles = res * res;
  const constraints = 2 * (res - 1) * res + 2 * (res - 1) * (res - 1) + 2 * (res - 2) * res;
  const w = createWorld(e, [particles, constraints, 2 * (res - 1) * (res - 1), 1, 16, 1, 1]);
  if (w <= 0) throw new Error('CreateWorld');
  const base = { dt: 1 / 60, damping: 0, gravityX: 0, gravityY: -9.81, gravityZ: 0, groundEnabled: 1, groundHeight: 0,
    restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3, thickness: 0.01, tethers: 1, selfCollision: 0, tearStretch: 0,
    windX: 0, windY: 0, windZ: 0, airDensity: 0, drag: 1, lift: 0.3 };
  for (const [k, v] of Object.entries(base)) set(w, k, v);
  const first = e.pbdjs_AddCloth(w, -1, 2.5, 0, 2, 0, 0, 0, -2, 0, res, res, 0.0005);
  if (first < 0) throw new Error('AddCloth');
  e.pbd_World_SetInvMass(w, first, 0);
  e.pbd_World_SetInvMass(w, first + res - 1, 0);
  for (const [k, v] of Object.entries(params)) set(w, k, v);
  return w;
}

/* The two worlds (step(i) steps world i once) warmed up 30 steps each, then `runs` runs of `steps` steps, A and B
   alternating: the median ms per step of each. */
function warmAndAlternate(step) {
  for (const i of [0, 1]) for (let s = 0; s < 30; s++) step(i);
  const times = [[], []];
  for (let r = 0; r < runs; r++) {
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const t0 = clock();
      for (let s = 0; s < steps; s++) step(i);
      times[i].push((clock() - t0) / steps);
    }
  }
  return times.map(median);
}

/* A build's own engine and built-in scenes, from its dist/. */
async function loadDist(dist) {
  const m = await import(pathToFileURL(path.join(path.resolve(dist), 'js', 'minipbd.js')).href);
  return { engine: await m.loadMiniPBD(fs.readFileSync(path.join(dist, 'minipbd.wasm'))), scenes: m.builtinScenes };
}

async function wasmAB(fileA, fileB) {
  const builds = [await load(fileA), await load(fileB)];
  for (const c of cases) {
    const worlds = builds.map((b) => build(b, c.params));
    const [a, b] = warmAndAlternate((i) => builds[i].e.pbd_World_Step(worlds[i]));
    const hashes = builds.map((bd, i) => (bd.e.pbd_World_Hash(worlds[i]) >>> 0).toString(16));
    console.log(`| wasm | ${c.name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(3)} | ${hashes[0] === hashes[1] ? 'same' : `${hashes[0]} vs ${hashes[1]}`} |`);
    builds.forEach((bd, i) => bd.e.pbd_DestroyWorld(worlds[i]));
  }
}

function nativeAB(binA, binB) {
  for (const c of cases) {
    const spec = [`name=ab`, `res=${res}`, 'warmup=30', 'runs=1', `steps=${steps}`, ...Object.entries(c.params).map(([k, v]) => `${k}=${v}`)].join(',');
    const times = [[], []];
    const hashes = [null, null];
    for (let r = 0; r < runs; r++) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) {
        const out = spawnSync([binA, binB][i], [spec], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`${[binA, binB][i]}: ${out.stderr}`);
        const rec = JSON.parse(out.stdout.trim().split('\n').pop());
        times[i].push(rec.ms_median);
        hashes[i] = rec.hash_final;
      }
    }
    const [a, b] = times.map(median);
    console.log(`| native | ${c.name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(3)} | ${hashes[0] === hashes[1] ? 'same' : `${hashes[0]} vs ${hashes[1]}`} |`);
  }
}

const fail = (message) => { throw new Error(message); };
/* --build: time the scenes' builds (ms per createWorld) instead of their steps */
const buildTimes = args.includes('--build');
/* the heavy scenes (bench/heavy-scenes.mjs) by name, beside the built-in ones */
const heavy = heavyScenes();

/* A built-in (or heavy) scene in each build's own engine (--dist-a, --dist-b). */
async function sceneAB(distA, distB, names) {
  const builds = [await loadDist(distA), await loadDist(distB)];
  for (const name of names) {
    const scene = (b) => b.scenes[name] ?? heavy[name] ?? fail(`no built-in or heavy scene '${name}'`);
    if (buildTimes) {
      // --build: the world's build (createWorld), and with its first step (work a build may leave to the step's
      // start: a rigid body's rest normals), then destroyed; the hash after that step
      const times = [[], []], withStep = [[], []], hashes = [];
      for (let r = 0; r < runs; r++) {
        for (const i of r % 2 ? [1, 0] : [0, 1]) {
          const t0 = clock();
          const w = builds[i].engine.createWorld(scene(builds[i]));
          times[i].push(clock() - t0);
          builds[i].engine.exports.pbd_World_Step(w.id);
          withStep[i].push(clock() - t0);
          hashes[i] = (builds[i].engine.exports.pbd_World_Hash(w.id) >>> 0).toString(16);
          w.destroy();
        }
      }
      const [a, b] = times.map(median);
      const [sa, sb] = withStep.map(median);
      const same = hashes[0] === hashes[1] ? 'same' : `${hashes[0]} vs ${hashes[1]}`;
      console.log(`| wasm | build ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(3)} | |`);
      console.log(`| wasm | build ${name} + first step | ${sa.toFixed(1)} | ${sb.toFixed(1)} | ${(sb / sa).toFixed(3)} | ${same} |`);
      continue;
    }
    const worlds = builds.map((b) => b.engine.createWorld(scene(b)));
    const [a, b] = warmAndAlternate((i) => builds[i].engine.exports.pbd_World_Step(worlds[i].id));
    const hashes = builds.map((bd, i) => (bd.engine.exports.pbd_World_Hash(worlds[i].id) >>> 0).toString(16));
    console.log(`| wasm | ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(3)} | ${hashes[0] === hashes[1] ? 'same' : `${hashes[0]} vs ${hashes[1]}`} |`);
    worlds.forEach((w) => w.destroy());
  }
}

/* The bench's dam breaks (--fluid SIZE[@SxP]) in each build's engine, with the fluid's density figures at the end. */
async function fluidAB(distA, distB, specs) {
  const builds = [(await loadDist(distA)).engine, (await loadDist(distB)).engine];
  for (const spec of specs) {
    const [size, split] = spec.split('@');
    if (!BLOCKS[size]) fail(`--fluid ${spec}: no dam break of size '${size}' (${Object.keys(BLOCKS).join(', ')})`);
    const [sub, it] = (split ?? '2x2').split('x').map(Number);
    if (!(sub >= 1 && it >= 1)) fail(`--fluid ${spec}: the split is SUBSTEPSxPASSES, e.g. 2x4`);
    const plan = damPlan(BLOCKS[size], 0.02);
    plan.params = plan.params.map(([k, v]) => [k, k === 'substeps' ? sub : k === 'iterations' ? it : v]);
    const ops = fluidPlanOps(plan);
    const worlds = builds.map((engine) => buildFluidWorld(engine, ops));
    const [a, b] = warmAndAlternate((i) => builds[i].exports.pbd_World_Step(worlds[i].id));
    const hashes = builds.map((engine, i) => (engine.exports.pbd_World_Hash(worlds[i].id) >>> 0).toString(16));
    const stats = builds.map((engine, i) => fluidStats(engine, worlds[i]));
    const figure = (k, digits) => stats.map((st) => (st[k] === undefined ? st.error : st[k].toFixed(digits))).join(' / ');
    const state = hashes[0] === hashes[1] ? 'same' : `${hashes[0]} vs ${hashes[1]}`;
    console.log(`| wasm | fluid-dam-${size} ${sub}x${it} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(3)} | ${state}; ` +
      `density error ${figure('densityError', 4)}, densest ${figure('maxDensity', 3)} ρ₀ (A / B) |`);
    worlds.forEach((w) => w.destroy());
  }
}

console.log(buildTimes ? `A/B, medians of ${runs} alternated builds, ms per build (${cpu ? 'CPU time' : 'wall time'})`
  : `A/B, medians of ${runs} alternated runs of ${steps} steps, ms per step (${cpu ? 'CPU time' : 'wall time'})`);
console.log('| build | case | A | B | B/A | final state |');
console.log('|---|---|---:|---:|---:|---|');
if (opt('--wasm-a') && opt('--wasm-b')) await wasmAB(opt('--wasm-a'), opt('--wasm-b'));
if (opt('--native-a') && opt('--native-b')) nativeAB(opt('--native-a'), opt('--native-b'));
const sceneNames = args.flatMap((a, i) => (a === '--scene' ? [args[i + 1]] : []));
if (opt('--dist-a') && opt('--dist-b') && sceneNames.length > 0) await sceneAB(opt('--dist-a'), opt('--dist-b'), sceneNames);
const fluidSpecs = args.flatMap((a, i) => (a === '--fluid' ? [args[i + 1]] : []));
if (opt('--dist-a') && opt('--dist-b') && fluidSpecs.length > 0) await fluidAB(opt('--dist-a'), opt('--dist-b'), fluidSpecs);
