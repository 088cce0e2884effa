#!/usr/bin/env node
/* slices.mjs -- how long one slice unit of a step takes, stage by stage, on the heavy scenes (bench/heavy-scenes.mjs),
   in the single-thread wasm build a page steps in slices (web/js/engine/stepper-slices.js): a page answers its input
   between units, so the longest unit is the longest a click can wait.

     node bench/slices.mjs [--dist DIR] [--steps N] [--repeat R] [--scale S] [--scene NAME ...] [--json FILE]

   --dist     the build to measure (default dist/; give another worktree's dist/ for a before/after)
   --steps    steps per scene, each taken in units of 1 (pbd_World_StepSlice(w, 1)), default 2
   --repeat   runs of each scene (fresh worlds): a unit's time is its least over the runs (default 3). The units are
              the same in every run (the same bits), so this drops a shared machine's pauses, not the unit's cost
   --scale    the fluids' particle count as a share of the format's cap (default 1)
   --scene    only these scenes (default all)

   Prints per scene and stage (pbd_World_StepStage before each unit: start, predict, contacts, solve, update,
   velocities, commit) the units run, the largest and the median unit (ms) and the stage's total, and the hash the
   steps end on (two builds that keep the bits end on the same one). Wall time on a shared machine: a unit's
   median is stable, its max carries the machine's noise. */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { heavyScenes } from './heavy-scenes.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dist = path.resolve(opt('--dist', path.join(root, 'dist')));
const steps = Number(opt('--steps', 2));
const repeat = Number(opt('--repeat', 3));
const scale = Number(opt('--scale', 1));
const only = args.flatMap((a, i) => (a === '--scene' ? [args[i + 1]] : []));
const jsonOut = opt('--json', null);

const median = (xs) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

const { loadMiniPBD } = await import(pathToFileURL(path.join(dist, 'js', 'minipbd.js')).href);
const engine = await loadMiniPBD(fs.readFileSync(path.join(dist, 'minipbd.wasm')));
const e = engine.exports;
const text = (ptr) => {
  const u8 = new Uint8Array(e.memory.buffer);
  let end = ptr;
  while (u8[end]) end++;
  return new TextDecoder().decode(u8.subarray(ptr, end));
};
const stageName = (s) => text(e.pbd_StageName(s));

const results = [];
for (const [name, scene] of Object.entries(heavyScenes({ scale }))) {
  if (only.length > 0 && !only.includes(name)) continue;
  let buildMs = Infinity, hash = 0, particles = 0;
  let times = null; // per unit: [stage, least ms over the runs]
  for (let run = 0; run < repeat; run++) {
    const t0 = performance.now();
    const world = engine.createWorld(scene);
    buildMs = Math.min(buildMs, performance.now() - t0);
    const id = world.id;
    const seen = [];
    for (let s = 0; s < steps; s++) {
      let left;
      do {
        const stage = stageName(e.pbd_World_StepStage(id));
        const a = performance.now();
        left = e.pbd_World_StepSlice(id, 1);
        const b = performance.now();
        if (left < 0) throw new Error(`${name}: StepSlice ${left}`);
        seen.push([stage, b - a]);
      } while (left > 0);
    }
    const h = e.pbd_World_Hash(id) >>> 0;
    if (run > 0 && (h !== hash || seen.length !== times.length)) throw new Error(`${name}: run ${run} differs (hash, units)`);
    hash = h;
    particles = e.pbd_World_GetParticleCount(id);
    world.destroy();
    times = times === null ? seen : times.map(([stage, t], k) => [stage, Math.min(t, seen[k][1])]);
  }
  const units = times.length;
  const stages = new Map();
  for (const [stage, t] of times) {
    if (!stages.has(stage)) stages.set(stage, []);
    stages.get(stage).push(t);
  }
  const rows = [...stages].map(([stage, t]) => ({ stage, units: t.length, maxMs: Math.max(...t), medianMs: median(t), totalMs: t.reduce((x, y) => x + y, 0) }));
  results.push({ scene: name, particles, steps, units, buildMs, hash, rows });
  console.log(`\n${name}: ${particles} particles, ${steps} steps in ${units} units (least of ${repeat} runs), built in ${ms(buildMs)} ms, hash 0x${hash.toString(16).padStart(8, '0')}`);
  console.log('  stage        units     max ms   median ms   total ms');
  for (const r of rows) {
    console.log(`  ${r.stage.padEnd(11)} ${String(r.units).padStart(6)} ${ms(r.maxMs).padStart(10)} ${ms(r.medianMs).padStart(11)} ${ms(r.totalMs).padStart(10)}`);
  }
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ dist, steps, repeat, scale, results }, null, 2));
