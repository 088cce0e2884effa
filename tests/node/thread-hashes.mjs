// thread-hashes.mjs — the scene check of threads.test.mjs (the scenes without fluid) and threads-fluids.test.mjs (the
// fluid scenes): a built-in scene gives the same state hash on 1, 2, 3, 4 and 8 threads of the threaded wasm
// (dist/minipbd_threads.wasm) as in the single-thread build (dist/minipbd.wasm). Two files, so that `node --test`
// runs the two halves side by side on the 2 cores; every built-in scene is in exactly one of them (a scene is
// either one with a fluid object or not).
//
// Steps: LONG steps of the single-thread build and of 2 threads (the count that shares the steps out on this 2-core
// machine), SHORT steps at 1, 3, 4 and 8 threads, compared with the same step of the single-thread run
// (tests/node/crossbuild.test.mjs replays every scene natively on 2, 3, 4 and 8 threads; the C tests run 14 scenes
// of every family on every count, in slices, and under ThreadSanitizer). The hash covers every position and
// velocity: a step that differs in one bit at some thread count differs in that step's hash, and a difference
// carries into the later states of these moving scenes, so it shows at the next mark. Most scenes run
// 1,000 and 100. Five scenes cost minutes at those counts (cloth-100k alone 191 s, the four fluids 40-60 s each,
// on this machine when quiet) and run shorter, each still past every stage and every split of its work it has:
//   - cloth-100k, 200 and 20: every stage it has (wind on every triangle, every colour of the distance family,
//     the tethers, the ground's test of all 99,856 particles) runs on all of it at every step, split into the
//     same blocks at every step (its particle and constraint counts never change); in 200 steps its hem swings
//     a metre out of its plane and back, its lowest point 0.20-0.25 m above the ground over 300 steps (it has no
//     tearing and no self-collision: nothing starts later).
//   - dam-break, floating and swirl, 300 and 100: their water is sorted, searched and solved at every step
//     (sortInterval 1) with a fixed particle count, against the same colliders; in 300 steps (5 s) the dam's column
//     has fallen, splashed up the far wall (highest at step 50) and is settling (kinetic energy 43 J at step 50,
//     1.4 J at 300), and the floating blocks are in the water (nothing above 0.40 m from step 100).
//   - balloons, 300 and 100, as the other fluid scenes: its water is searched and solved at every step beside five
//     balloons (their pressure constraints every pass), a cloth and the tank's walls, which all move from step 1.
//   - hammock, 400 and 100: its hose adds water until the pool on the cloth stops growing (3,414 live particles at
//     step 400, at most 3,509 later) and its drain takes what spills from step 100 on: the test checks both ran.
// MINIPBD_THREADS_FULL=1: 1,000 steps at every count for every scene.
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

const FULL = { long: 1000, short: 1000 };
const STEPS = { long: 1000, short: 100 };
const SHORTER = {
  'cloth-100k': { long: 200, short: 20 },
  'dam-break': { long: 300, short: 100 },
  floating: { long: 300, short: 100 },
  swirl: { long: 300, short: 100 },
  hammock: { long: 400, short: 100 },
  balloons: { long: 300, short: 100 },
};
/** The steps scene `id` runs: { long, short }. */
export const stepsOf = (id) => (process.env.MINIPBD_THREADS_FULL ? FULL : SHORTER[id] ?? STEPS);

/** The single-thread build and the threaded one with a team of TEAM. */
export async function loadBuilds() {
  const single = await loadMiniPBD(fs.readFileSync(SINGLE));
  const threaded = await loadMiniPBD(fs.readFileSync(THREADED), { threads: TEAM });
  return { single, threaded };
}

export const hasFluid = (scene) => scene.objects.some((o) => o.type === 'fluid');

/** Steps `world` to each of `marks` (ascending) and returns the hash at each. */
export function hashesAt(world, marks) {
  const out = [];
  let done = 0;
  for (const m of marks) {
    world.step(m - done);
    done = m;
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
    const { long, short } = stepsOf(id);
    test(`${id}: the same hash on 1, 2, 3, 4 and 8 threads and in the single-thread build (${long} and ${short} steps)`, () => {
      const a = single.createWorld(scene);
      const [atShort, atLong] = hashesAt(a, [short, long]);
      const fluid = hasFluid(scene) ? a.fluidStats() : null;
      a.destroy();
      // the scene moves: a hash that did not change would prove nothing
      const still = single.createWorld(scene);
      assert.notEqual(still.hash(), atLong, `${id} moved in ${long} steps`);
      still.destroy();
      // a hose and a drain both did their work within the steps compared
      if (scene.objects.some((o) => o.emitters?.length)) assert.ok(fluid.emitted > 0, `${id}: the hose emitted`);
      if (scene.objects.some((o) => o.drains?.length)) assert.ok(fluid.drained > 0, `${id}: the drain took water`);
      for (const n of [1, 2, 3, 4, 8]) {
        const w = threaded.createWorld(scene);
        w.setThreads(n);
        assert.equal(w.threads, n);
        const marks = n === 2 ? [short, long] : [short];
        const got = hashesAt(w, marks);
        assert.equal(got[0], atShort, `${id}, ${n} threads, step ${short}`);
        if (marks.length > 1) assert.equal(got[1], atLong, `${id}, ${n} threads, step ${long}`);
        w.destroy();
      }
    });
  }
  return ids;
}
