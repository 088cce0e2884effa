// thread-hashes.mjs — the scene check of threads.test.mjs (the scenes without fluid, and those with a hose) and
// threads-fluids.test.mjs (the scenes with a block of water and no hose): a built-in scene gives the same state hash
// on 1, 2, 3, 4 and 8 threads of the threaded wasm (dist/minipbd_threads.wasm) as in the single-thread build
// (dist/minipbd.wasm). Two files, so that `node --test` runs the two halves side by side on the 2 cores; every
// built-in scene is in exactly one of them (inFluidHalf picks one half, the other file takes the rest).
//
// One world of the threaded build steps the scene with every step on the next count of COUNTS in turn, and its hash
// after every step is compared with the single-thread build's after the same step: a step that differs in one bit
// fails at that step, naming the count it ran on. In turn, every count steps every phase of the scene (the fall, the
// impacts, the splash, the settling), a fifth of its steps each, where a world per count ran 2 threads the whole
// run but 1, 3, 4 and 8 only its first 100 steps. The result cannot depend on the order of counts: the block size of every loop never depends
// on the thread count, and blocks write disjoint data (base/tasks.h); counts changed between steps are how the C
// tests' two worlds sharing a team run too (test_threads.c), and the C tests run 13 scenes of every family on
// every count, in slices, and under ThreadSanitizer; tests/node/crossbuild.test.mjs replays every scene natively
// with its steps on 2, 3, 4 and 8 threads in turn. 8 threads on this 2-core machine is the oversubscribed count
// (the whole team, helpers preempted inside a block), 3 and 4 run with helpers sitting out, 1 never wakes the team.
//
// Steps (each count a fifth of them; every scene's impacts come within its first 150 steps, measured by its kinetic
// energy every 50 steps: it peaks at step 50-100, and by 400 every scene without a hose or wind is settling, its
// contacts still found and solved at every step, or swinging freely, as mass-split's pendulums):
//   - most scenes 400 (they ran 1,000 on 2 threads: the 600 after are more of the settling, or, for the flag, more
//     of the same flapping in the wind, every stage running from step 1; it tears from step ~150, the only
//     built-in scene with tearing: 8 of the 12 topology changes of its first 1,000 steps come by step 400).
//   - cloth-100k, 100: every stage it has (wind on every triangle, every colour of the distance family, the tethers,
//     the ground's test of all 99,856 particles) runs on all of it at every step, split into the same blocks at
//     every step (its particle and constraint counts never change): 20 steps on each count, as the counts other
//     than 2 ran before; its hem swings out of its plane from the first steps (it has no tearing and no
//     self-collision: nothing starts later).
//   - dam-break, floating and swirl, 300: their water is sorted, searched and solved at every step
//     (sortInterval 1) with a fixed particle count, against the same colliders; in 300 steps (5 s) the dam's column
//     has fallen, splashed up the far wall (highest at step 50) and is settling (kinetic energy 43 J at step 50,
//     1.4 J at 300), and the floating blocks are in the water (nothing above 0.40 m from step 100).
//   - balloons, 300, as the other fluid scenes: its water is searched and solved at every step beside five
//     balloons (their pressure constraints every pass), a cloth and the tank's walls, which all move from step 1.
//   - hammock, 400: its hose adds water until the pool on the cloth stops growing (3,414 live particles at step
//     400, at most 3,509 later) and its drain takes what spills from step 100 on: the test checks both ran.
// MINIPBD_THREADS_FULL=1: 1,000 steps on each count, each on a world of its own.
import './plain-env.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, BUILTIN_SCENE_IDS, loadBuiltinScene } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SINGLE = path.join(root, 'dist', 'minipbd.wasm');
export const THREADED = path.join(root, 'dist', 'minipbd_threads.wasm');
export const TEAM = 8;

export const COUNTS = [1, 2, 3, 4, 8];
const FULL = 1000;
const STEPS = 400;
const SHORTER = { 'cloth-100k': 100, 'dam-break': 300, floating: 300, swirl: 300, balloons: 300 };
/** The steps scene `id` runs. */
export const stepsOf = (id) => (process.env.MINIPBD_THREADS_FULL ? FULL : SHORTER[id] ?? STEPS);
/** The threaded runs: each a list of counts its steps take in turn. */
const runsOf = () => (process.env.MINIPBD_THREADS_FULL ? COUNTS.map((n) => [n]) : [COUNTS]);

/** The single-thread build and the threaded one with a team of TEAM. */
export async function loadBuilds() {
  const single = await loadMiniPBD(fs.readFileSync(SINGLE));
  const threaded = await loadMiniPBD(fs.readFileSync(THREADED), { threads: TEAM });
  return { single, threaded };
}

export const hasFluid = (scene) => scene.objects.some((o) => o.type === 'fluid');
export const hasHose = (scene) => scene.objects.some((o) => o.emitters?.length);
/** The half threads-fluids.test.mjs checks: the scenes whose water is all there from the start. threads.test.mjs
 *  checks the rest: the scenes without fluid, and those with a hose (hammock), which go there so that the halves,
 *  run side by side, take about as long (measured on this machine, loaded: the four fluid blocks 324 s, the
 *  scenes without fluid 230 s, hammock 98 s). */
export const inFluidHalf = (scene) => hasFluid(scene) && !hasHose(scene);

/** Steps `world` `steps` times, one at a time, and returns the hash after each. */
export function hashesEveryStep(world, steps) {
  const out = [];
  for (let k = 0; k < steps; k++) {
    world.step(1);
    out.push(world.hash());
  }
  return out;
}

/** Registers the thread-count test of every built-in scene that `pick(scene)` accepts; returns their ids. */
export async function testSceneHashes({ single, threaded }, pick) {
  const ids = [];
  for (const id of BUILTIN_SCENE_IDS) {
    const scene = await loadBuiltinScene(id);
    if (!pick(scene)) continue;
    ids.push(id);
    const steps = stepsOf(id);
    test(`${id}: the same hash on 1, 2, 3, 4 and 8 threads, in turn, as in the single-thread build after every one of ${steps} steps`, () => {
      const a = single.createWorld(scene);
      const start = a.hash();
      const expected = hashesEveryStep(a, steps);
      const fluid = hasFluid(scene) ? a.fluidStats() : null;
      a.destroy();
      // the scene moves: a hash that did not change would prove nothing
      assert.notEqual(expected[steps - 1], start, `${id} moved in ${steps} steps`);
      // a hose and a drain both did their work within the steps compared
      if (hasHose(scene)) assert.ok(fluid.emitted > 0, `${id}: the hose emitted`);
      if (scene.objects.some((o) => o.drains?.length)) assert.ok(fluid.drained > 0, `${id}: the drain took water`);
      for (const counts of runsOf()) {
        const w = threaded.createWorld(scene);
        for (let k = 0; k < steps; k++) {
          const n = counts[k % counts.length];
          w.setThreads(n);
          assert.equal(w.threads, n);
          w.step(1);
          // the first differing step fails, naming its count (a difference would carry into every later state)
          if (w.hash() !== expected[k]) assert.fail(`${id}, step ${k + 1} on ${n} threads: hash ${w.hash()}, the single-thread build's ${expected[k]}`);
        }
        w.destroy();
      }
    });
  }
  return ids;
}
