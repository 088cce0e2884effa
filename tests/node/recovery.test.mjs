// Issue 9, item 10: the speed bound bounds displacement too, and the built-in cloth let go after
// a drag comes back to the stretch of an undisturbed one (on the shipped wasm, through the JS API,
// grabbing the way the page does: a stiffness-1 attachment on one particle, moved every step).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, builtinScenes } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

const NU = 40; // the built-in cloth: 40 x 40, 2 m x 2 m, pinned at its top corners (0, 0) and (39, 0)
const CORNER = 39 * NU; // its bottom-left corner, (0, 39)

// The built-in cloth as it was when the tether fix was measured: pinned where its grid puts its top corners, at
// its own width. Now the built-in holds them 1.6 m apart so that it drapes (tests/node/drape.test.mjs);
// that cloth still sways after the 7 s `undisturbed` waits (damping 0.05/s) and its folds and pulled-in corners hold
// ~4% of stretch at rest, a different question from this one: whether a drag leaves the seam between two pin
// islands stretched for good.
function clothScene(edit) {
  const scene = structuredClone(builtinScenes.cloth);
  scene.objects[0].pins = [[0, 0], [NU - 1, 0]];
  edit?.(scene);
  return scene;
}

const at = (world, i) => Array.from(world.positions.subarray(4 * i, 4 * i + 3));

// ---------------------------------------------------------------- displacement bound

// Tethers off: with them the target is first moved into the corner's reach from the pins (knots.test.mjs), and the
// displacement bound is not what stops it.
test('a target teleported 99 m away moves its particle maxSpeed dt in one step, along the line to it', () => {
  // (and at the engine's default maxSpeed, not the built-in cloth's 6 m/s)
  const world = pbd.createWorld(clothScene((s) => { s.solver.tethers = 0; s.solver.maxSpeed = 100; }));
  world.step(60);
  const maxSpeed = world.getParam('maxSpeed'), dt = world.getParam('dt');
  assert.equal(maxSpeed, 100);
  const x0 = at(world, CORNER);
  const u = [0, 0.6, 0.8];
  const before = Float32Array.from(world.positions);
  const id = world.addAttachment(CORNER, x0.map((c, k) => c + 99 * u[k]), 1);
  world.step(1);
  const d = at(world, CORNER).map((c, k) => c - x0[k]);
  const along = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
  const off = Math.hypot(d[0] - along * u[0], d[1] - along * u[1], d[2] - along * u[2]);
  assert.ok(Math.abs(along - maxSpeed * dt) < 1e-3, `moved ${along} m along the line, expected ${maxSpeed * dt}`);
  // the attachment is solved first in each pass, so the cloth's constraints after it pull the corner off the line a little
  assert.ok(off < 0.02 * along, `${off} m off the line`);
  // and no particle of the cloth moved farther than that (10 substeps of at most maxSpeed h)
  const x = world.positions;
  for (let i = 0; i < world.particleCount; i++) {
    const m = Math.hypot(x[4 * i] - before[4 * i], x[4 * i + 1] - before[4 * i + 1], x[4 * i + 2] - before[4 * i + 2]);
    assert.ok(m <= maxSpeed * dt * (1 + 1e-5), `particle ${i} moved ${m} m`);
  }
  world.removeAttachment(id);
  world.destroy();
});

// ---------------------------------------------------------------- recovery after a drag

// The page's grab: a stiffness-1 attachment on the corner, moved every step (input.js) along a circle
// of radius r from where it was grabbed, one turn per `period` seconds, for `seconds`, then let go.
// plane 'out': in the y-z plane, across the cloth; 'in': in the cloth's x-y plane, turned 0.01 rad
// about y (see the note below); 'ground': in the x-z plane, along the floor.
function dragAndRelease(scene, { plane, r, period, seconds }) {
  const world = pbd.createWorld(scene);
  const dt = scene.solver.dt;
  world.step(120);
  const c = at(world, CORNER);
  const id = world.addAttachment(CORNER, c, 1);
  const tilt = 0.01;
  for (let s = 1; s <= Math.round(seconds / dt); s++) {
    const a = (2 * Math.PI * s * dt) / period, u = r * Math.sin(a), v = r * (1 - Math.cos(a));
    const target = plane === 'out' ? [c[0], c[1] + v, c[2] + u]
      : plane === 'in' ? [c[0] + u * Math.cos(tilt), c[1] + v, c[2] + u * Math.sin(tilt)]
        : [c[0] + u, c[1], c[2] + v];
    world.moveAttachment(id, target);
    world.step(1);
  }
  world.removeAttachment(id);
  return world;
}

// The least max stretch over the fifth second after release. The cloth still swings then (damping
// 0.05/s), and a swinging cloth's largest stretch rises and falls with the swing; what must not happen
// is that something holds stretch: before tethers reached every pin island, the seam between the
// two pins' halves held 3-5 points more for good, through every swing.
function leastStretchInFifthSecond(world) {
  let least = Infinity;
  for (let s = 1; s <= 300; s++) {
    world.step(1);
    if (s > 240) least = Math.min(least, world.stats().maxStretch);
  }
  return least;
}

function undisturbed(scene) {
  const world = pbd.createWorld(scene);
  world.step(420);
  const s = world.stats();
  world.destroy();
  assert.ok(s.kineticEnergy < 1e-4, 'the undisturbed cloth is at rest');
  return s.maxStretch;
}

// 1 m circles (r = 0.5 m: the corner moves at 3 m/s for period 1 s). One second of them is enough to
// leave the seam stretched before the fix (3.0 points over the undisturbed cloth's, hanging; 2.1-3.6
// points with the hem on the floor), so that is the shortest drag here.
const DRAGS = [
  { r: 0.5, period: 1, seconds: 1 },
  { r: 0.5, period: 1, seconds: 3 },
  { r: 0.4, period: 1, seconds: 2 },
  { r: 0.5, period: 1.5, seconds: 2 },
];

// Note on 'in'. A drag exactly in the cloth's plane keeps the cloth exactly planar (every correction
// then lies in the plane: z stays 0 to the bit), and a fold made in the plane can only open by
// leaving it: an unstable equilibrium that exact arithmetic never leaves, as a balanced pencil
// stands forever. The page never drags exactly in the cloth's plane (its pointer moves in the plane
// facing the camera), so the test turns the circle 0.01 rad out of it.

for (const [name, edit, planes] of [
  ['hanging in the air', null, ['out', 'in']],
  // the same cloth hung 0.5 m lower: its hem, the bottom row, lies on the floor
  ['with its hem lying on the ground', (s) => { s.objects[0].origin = [-1, 2, 0]; }, ['out', 'in', 'ground']],
]) {
  test(`the built-in cloth ${name}, let go after 1 m circles, comes back within 5 s to within 1 point of an undisturbed one`, () => {
    const scene = clothScene(edit);
    const rest = undisturbed(scene);
    // 1.9% with the hem on the floor: the built-in cloth's thickness (4.5 cm, against knots) holds its folds apart
    assert.ok(rest < 0.03, `undisturbed max stretch ${rest}`);
    for (const plane of planes) {
      for (const drag of DRAGS) {
        const world = dragAndRelease(scene, { plane, ...drag });
        const back = leastStretchInFifthSecond(world);
        world.destroy();
        assert.ok(back <= rest + 0.01,
          `${plane}, r ${drag.r} m, ${drag.period} s a turn, ${drag.seconds} s: ${(100 * back).toFixed(2)}% at best in the fifth second, undisturbed ${(100 * rest).toFixed(2)}%`);
      }
    }
  });
}

// A cloth lying flat on the ground and pulled out by a corner, 80-90% stretched and let go: the
// ground's friction does not hold the stretch (it comes back as on a frictionless floor). This one
// passed before the tether fix as well: it rules the ground out as what held the stretch.
test('a cloth lying on the ground, stretched by a pull on its corner and let go, comes back within 5 s', () => {
  const scene = clothScene((s) => {
    const o = s.objects[0];
    o.plane = 'xz';
    o.origin = [-1, 0.5 * s.solver.thickness, -1];
    o.pins = [];
  });
  const rest = undisturbed(scene);
  for (const [dx, dy, seconds] of [[0.5, 0, 1], [0.5, 0.5, 1], [1, 0, 2]]) {
    const world = pbd.createWorld(scene);
    const dt = scene.solver.dt;
    world.step(30);
    const corner = NU * NU - 1, c = at(world, corner);
    const id = world.addAttachment(corner, c, 1);
    const n = Math.round(seconds / dt);
    let peak = 0;
    for (let s = 1; s <= n; s++) {
      world.moveAttachment(id, [c[0] + (dx * s) / n, c[1] + (dy * s) / n, c[2] + (dx * s) / n]);
      world.step(1);
      peak = Math.max(peak, world.stats().maxStretch);
    }
    world.removeAttachment(id);
    const back = leastStretchInFifthSecond(world);
    world.destroy();
    // The pointer, solved first in each pass, shares its pull with the cloth's constraints (families/family.h): it
    // drags the cloth rather than stretching it 80-90% as it did when solved last.
    assert.ok(peak < 0.5, `the pull stretched it ${peak}`);
    assert.ok(back <= rest + 0.01, `pull ${dx}, ${dy} over ${seconds} s: ${back} after 5 s, undisturbed ${rest}`);
  }
});
