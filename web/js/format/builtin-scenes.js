// builtin-scenes.js — the built-in scenes (the page's picker, <minipbd-scene scene="…">, minipbd-run builtin:NAME),
// written compactly and stored normalised and deep-frozen: validateScene fills the defaults. defaultScene() returns
// a fresh mutable copy of the default one.
//
// Scenes made from a model file (the bunny: web/assets/bunny.obj, tools/make-bunny.mjs) are not in
// `builtinScenes`, which is ready at import: loadBuiltinScene(id) reads the file (the page from its own origin,
// Node from disk), parses it with format/obj.js and gives a plain validated scene with the mesh inlined, like
// any other. BUILTIN_SCENE_IDS lists every id in the picker's order; loadBuiltinScene takes any of them.

import { validateScene, SCENE_VERSION } from './scene.js';
import { deepFreeze } from './read.js';
import { parseObj } from './obj.js';
import { readAsset } from './assets.js';
import { meshFromArrays } from '../objects/body-common.js';
import { INFLATABLE_SCENES } from '../objects/inflatable-scenes.js';

const FORMAT = 'minipbd-scene';

/** A glass tank on the ground: 4 box colliders drawn as glass (walls `t` thick, `height` tall) around the inner box
 *  [-hx, hx] x [-hz, hz]. Walls a few particle spacings thick, so a particle never crosses one in a substep at the
 *  speeds a dam break reaches (the colliders also sweep; seed 000 "continuous contacts"). */
function tank(hx, hz, height, t = 0.05) {
  const wall = (name, position, halfExtents) => ({ type: 'box', name, position, halfExtents, staticFriction: 0.1, kineticFriction: 0.05, glass: true });
  const h = height / 2;
  return [
    wall('left wall', [-hx - t / 2, h, 0], [t / 2, h, hz + t]),
    wall('right wall', [hx + t / 2, h, 0], [t / 2, h, hz + t]),
    wall('back wall', [0, h, -hz - t / 2], [hx, h, t / 2]),
    wall('front wall', [0, h, hz + t / 2], [hx, h, t / 2]),
  ];
}
/** The swirl scene's ball: centre height and radius (m). */
const SWIRL_BALL = { y: 0.125, r: 0.1 }; // its bottom at 0.025 m, one spacing: the floor block under it
/**
 * Water filling a square tank of half width hx to `height`, except a cube of half width r from `bottom` up
 * around the vertical axis (where the ball sits): four blocks around it and a floor under it. All corners lie on
 * multiples of the spacing (0.025) from the tank's corner, so the five lattices are one lattice.
 */
function swirlWater(hx, height, bottom, r) {
  return [
    { lower: [-hx, 0, -hx], upper: [-r, height, hx] },
    { lower: [r, 0, -hx], upper: [hx, height, hx] },
    { lower: [-r, 0, -hx], upper: [r, height, -r] },
    { lower: [-r, 0, r], upper: [r, height, hx] },
    { lower: [-r, 0, -r], upper: [r, bottom, r] },
  ];
}
/** The tanks' solver (dam break, floating, swirl): 3 substeps of 4 passes, and the density constraint under-relaxed
 *  by ε = fluid.relaxation 0.1 (docs/fluids.md "Still water"). A tank left alone must go still: at 2 x 4 a 0.3 m
 *  tank kept a particle-scale jitter of 3.0 cm/s rms with its interior 2.0% over rho0 (11% at the floor). The
 *  compression a column keeps falls with substeps squared times passes (1.2% at 3 x 4 and at 2 x 8, 0.4% at 4 x 4);
 *  the jitter is Jacobi overshoot, which ε damps. At 3 x 4 and 0.1: 0.6 cm/s after 5 s, 1.009 rho0 (1.048 at the
 *  floor), and 0.2 m: 0.7 cm/s, 1.006 (tests/c/test_fluid.c FluidTankComesToRest). The price: 1.48 x the time of a
 *  step at 2 x 4 (wasm, each of the three scenes). */
const FLUID_SOLVER = { substeps: 3, iterations: 4 };
const STILL_WATER = { relaxation: 0.1 };
/** A rigid box of side 2h whose mass is `density` x its volume as the water sees it (floating: 0.5, 1 and 4 x the
 *  water's). The fluid counts each solid particle as rho0 (2r)^3 (Macklin et al. 2014 section 7.1), r = half the
 *  lattice spacing 2h / res, and the (res + 1)^3 lattice particles fill a cube of side 2h (res + 1) / res: that is
 *  the volume the block displaces (measured: with 2h cubed the "neutral" block floated half out of the water). */
const BLOCK_RES = 3;
const block = (name, x, y, h, density) => ({
  type: 'rigid', name, shape: 'box', position: [x, y, 0], halfExtents: [h, h, h], resolution: BLOCK_RES,
  mass: density * (2 * h * (BLOCK_RES + 1) / BLOCK_RES) ** 3,
});

/** The box stack's blocks' colours (sRGB), bottom to top. */
const STACK_COLOURS = ['#d9534f', '#ee8f3a', '#f2cf4a', '#9ccc55', '#3fae6a', '#3bb3b0', '#4a8fd9', '#6f6bd6', '#a463c9', '#d8609e'];

// Cameras use small yaw so the xy-plane scenes are seen nearly face-on, assuming the usual orbit convention
// eye = target + distance * (cos(pitch) sin(yaw), sin(pitch), cos(pitch) cos(yaw)).
const BUILTIN_SOURCES = {
  chain: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Pendulum chain: 25 segments, pinned at one end, released horizontal',
    solver: { substeps: 4, iterations: 10 },
    camera: { target: [0, 1.7, 0], yaw: 0.25, pitch: 0.12, distance: 7, fov: 45 },
    objects: [{
      type: 'chain', name: 'chain', start: [0, 3, 0], end: [2.5, 3, 0], segments: 25,
      mass: 0.05, stiffness: 1, pins: [0],
    }],
  },
  // Its top corners are held 1.6 m apart, 80% of its 2 m width: the top edge has slack and sags about 0.46 m
  // between them, and the cloth falls in vertical folds (held at its own width it was taut and hung flat like a
  // board). The grid starts flat and the corners are pinned inward (a pin's [i, j, x, y, z] form:
  // objects/cloth.js), 2 cm off its plane in opposite directions: in the plane the compression has nothing to
  // buckle it out of the plane and the sheet crumples flat (measured: the top edge then bows up, not down).
  // Measured (Node, 600 steps): settles to 4% stretch at most; the pull-in peaks at 63 J in the first second
  // (0.4 m of corner travel at 1.2 m apart peaked at 1,190 J and threw the top edge 0.7 m up).
  // It collides with itself (docs/physics.md "Letting go after a drag"): particles of thickness D = 4.5 cm, 0.88 of
  // its 5.1 cm grid step, so a particle meets the four of a grid square before it reaches the square's centre
  // (s / sqrt 2 = 3.6 cm < D) until the square is stretched 24%; and maxSpeed 6 m/s bounds every particle's move to
  // 1 cm a substep, so two particles close by at most 2 cm between two searches of the pairs, less than the 2.7 cm
  // a particle over a square's centre must cross to reach the cloth's plane (sqrt(D^2 - s^2 / 2)). Measured with
  // tools/knots.mjs (48 random fast drags): 28 knotted (16-39% a minute after release) without either; 7 with the
  // thickness alone, the corner's edges still stretched 50-80% by the drag; none with both (5.7% at most, 4.3%
  // undisturbed).
  cloth: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Hanging cloth: 2 m x 2 m, 40 x 40, its top corners held 1.6 m apart',
    solver: { damping: 0.05, thickness: 0.045, selfCollision: true, maxSpeed: 6 },
    camera: { target: [0, 1.5, 0], yaw: 0.45, pitch: 0.18, distance: 4.6, fov: 45 },
    objects: [{
      type: 'cloth', name: 'cloth', origin: [-1, 2.5, 0], size: [2, 2], resolution: [40, 40], plane: 'xy',
      mass: 0.01, stiffness: { stretch: 1, shear: 1, bend: 0.1 }, pins: [[0, 0, -0.8, 2.5, 0.02], [39, 0, 0.8, 2.5, -0.02]],
    }],
  },
  // The mass-weighted split of seed 000, three ways. Centre: a cloth whose left half is 50x heavier than its
  // right half, pinned at the top corners: corrections move the light particles w_light/(w_heavy+w_light) ~ 98%
  // of the way, so the heavy half falls and drags the light half into a lopsided drape. Sides: two chains
  // released horizontal. Left: light links with a 50x heavier bob (it swings almost like a point pendulum and
  // yanks the links taut). Right: heavy links with a 50x lighter bob (the links swing as a rope and the light
  // bob is flung around at the tip). The chains hang from their inner ends, 1.1 m long, so each swings between its
  // pivot and 1.1 m out (x within 3.4 m of the middle): the camera frames that (pinned at their outer ends, 1.5 m
  // long, the left one swung out of the picture), also in a square canvas. The cloth's heavy half is drawn darker
  // (render/cloth.js).
  'mass-split': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Mass split: half-heavy cloth, heavy bob on light chain, light bob on heavy chain',
    camera: { target: [0, 2.1, 0], yaw: 0, pitch: 0.12, distance: 9.5, fov: 45 },
    objects: [
      {
        type: 'cloth', name: 'half heavy cloth', origin: [-0.9, 3, 0], size: [1.8, 1.8], resolution: [24, 24],
        plane: 'xy', mass: 0.01, pins: [[0, 0], [23, 0]], masses: [{ from: [0, 0], to: [11, 23], mass: 0.5 }],
      },
      {
        type: 'chain', name: 'light chain, heavy bob', start: [-2.3, 3, 0], end: [-3.4, 3, 0], segments: 15,
        mass: 0.02, pins: [0], masses: [{ from: 15, to: 15, mass: 1 }],
      },
      {
        type: 'chain', name: 'heavy chain, light bob', start: [2.3, 3, 0], end: [3.4, 3, 0], segments: 15,
        mass: 1, pins: [0], masses: [{ from: 15, to: 15, mass: 0.02 }],
      },
    ],
  },
  // Issue 3 scenes: cloth against colliders, wind, tearing, self-collision, and scale.
  'cloth-sphere': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Cloth on a sphere: 64 x 64 dropped over a ball (drag the ball)',
    solver: { damping: 0.1, thickness: 0.02 },
    camera: { target: [0, 0.75, 0], yaw: 0.5, pitch: 0.3, distance: 3.6, fov: 45 },
    colliders: [{ type: 'sphere', name: 'ball', position: [0, 0.7, 0], radius: 0.5, staticFriction: 0.6, kineticFriction: 0.5 }],
    objects: [{ type: 'cloth', name: 'sheet', origin: [-0.65, 1.5, -0.65], size: [1.3, 1.3], resolution: [48, 48], plane: 'xz', mass: 0.005 }],
  },
  table: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Cloth sliding off a table: a slippery tablecloth hangs over one edge',
    solver: { damping: 0.3, thickness: 0.02 },
    camera: { target: [0.3, 0.8, 0], yaw: 0.9, pitch: 0.3, distance: 4.2, fov: 45 },
    colliders: [
      { type: 'box', name: 'table top', position: [0, 0.75, 0], halfExtents: [0.6, 0.03, 0.5], staticFriction: 0.1, kineticFriction: 0.08 },
      ...[[-0.54, -0.44], [0.54, -0.44], [-0.54, 0.44], [0.54, 0.44]].map(([x, z], i) => ({
        type: 'box', name: `leg ${i + 1}`, position: [x, 0.36, z], halfExtents: [0.03, 0.36, 0.03],
      })),
    ],
    objects: [{ type: 'cloth', name: 'tablecloth', origin: [-0.55, 0.8, -0.6], size: [1.6, 1.2], resolution: [64, 48], plane: 'xz', mass: 0.004 }],
  },
  flag: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Flag tearing in wind: pull it hard and it rips',
    solver: { damping: 0.02, thickness: 0.01, tearStretch: 0.35 },
    wind: { velocity: [6, 0, 2], density: 1.2, drag: 1, lift: 0.4 },
    camera: { target: [0.7, 1.8, 0], yaw: 0.35, pitch: 0.1, distance: 5, fov: 45 },
    colliders: [{ type: 'capsule', name: 'pole', position: [-0.05, 1.4, 0], radius: 0.04, halfHeight: 1.4 }],
    objects: [{
      type: 'cloth', name: 'flag', origin: [0, 2.8, 0], size: [1.8, 1.1], resolution: [48, 30], plane: 'xy', mass: 0.0008,
      stiffness: { stretch: 1, shear: 1, bend: 0.05 },
      pins: [[0, 0], [0, 7], [0, 14], [0, 22], [0, 29]],
    }],
  },
  fold: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Cloth folding onto itself: a long strip falls and piles up (self-collision)',
    solver: { damping: 0.1, thickness: 0.03, selfCollision: true },
    camera: { target: [0, 0.4, 0], yaw: 0.7, pitch: 0.45, distance: 3.4, fov: 45 },
    // a low bar under the strip's edge tips it over, so it folds instead of standing on its edge
    colliders: [{ type: 'capsule', name: 'bump', position: [0, 0.06, 0.07], rotation: [0, 0, 0.7071068, 0.7071068], radius: 0.06, halfHeight: 0.6 }],
    objects: [{ type: 'cloth', name: 'strip', origin: [-0.5, 2.4, 0], size: [1, 2.2], resolution: [30, 66], plane: 'xy', mass: 0.004,
      stiffness: { stretch: 1, shear: 1, bend: 0.2 } }],
  },
  'cloth-100k': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Large cloth: 316 x 316 (99,856 particles) hanging from its top edge in a breeze',
    solver: { damping: 0.05, thickness: 0.01 },
    // A breeze, so it moves by itself (hanging still it read as a picture); measured in Node: its hem swings
    // 1 m out of its plane in the first 2 s.
    wind: { velocity: [3, 0, 2], density: 1.2, drag: 1, lift: 0.4 },
    camera: { target: [0, 2.2, 0], yaw: 0.5, pitch: 0.1, distance: 7, fov: 45 },
    objects: [{ type: 'cloth', name: 'large cloth', origin: [-2, 4.2, 0], size: [4, 4], resolution: [316, 316], plane: 'xy', mass: 0.0005,
      pins: Array.from({ length: 316 }, (_, i) => [i, 0]) }],
  },
  // Issue 10: solids. Soft bodies are tet lattices (edges + signed volumes), rigid ones shape-matched particles.
  jelly: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Jelly: soft cubes and balls drop onto the ground and each other',
    // damping: the balls would roll out of view
    solver: { damping: 0.3 },
    camera: { target: [0, 0.45, 0], yaw: 0.6, pitch: 0.3, distance: 3.2, fov: 45 },
    objects: [
      { type: 'soft', name: 'red jelly', shape: 'box', position: [-0.3, 0.25, 0], halfExtents: [0.2, 0.2, 0.2], resolution: 5, mass: 2,
        stiffness: { edge: 0.5, volume: 1 } },
      { type: 'soft', name: 'green ball', shape: 'ball', position: [-0.22, 0.95, 0.05], radius: 0.2, resolution: 6, mass: 1,
        stiffness: { edge: 0.4, volume: 1 } },
      { type: 'soft', name: 'yellow jelly', shape: 'box', position: [0.35, 0.6, -0.1], rotation: [0.2, 0.3, 0.1, 0.93], halfExtents: [0.15, 0.15, 0.15],
        resolution: 4, mass: 1, stiffness: { edge: 0.3, volume: 1 } },
      { type: 'soft', name: 'blue ball', shape: 'ball', position: [0.3, 1.3, 0], radius: 0.17, resolution: 6, mass: 0.8,
        stiffness: { edge: 0.6, volume: 1 } },
    ],
  },
  // Ten flat blocks, 0.3 x 0.1 x 0.2 m and 0.15 m apart: their lattice (0.05 m) spans the half extents and the
  // particles' contact radius (half the spacing, 0.025 m) rounds each block out to its 0.15 m layer. Each block has
  // its own colour, around the colour wheel from the bottom up: in one colour the stack read as one tall box.
  'box-stack': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Box stack: ten rigid blocks; drag the ball to knock them over',
    ground: { staticFriction: 0.6, kineticFriction: 0.5 },
    camera: { target: [0.3, 0.75, 0], yaw: 0.5, pitch: 0.2, distance: 4, fov: 45 },
    objects: [
      ...Array.from({ length: 10 }, (_, i) => ({
        type: 'rigid', name: `block ${i + 1}`, shape: 'box', position: [0, 0.075 + 0.15 * i, 0], halfExtents: [0.15, 0.05, 0.1],
        resolution: 6, mass: 0.5, colour: STACK_COLOURS[i],
      })),
      { type: 'rigid', name: 'ball', shape: 'ball', position: [1, 0.2, 0], radius: 0.15, resolution: 4, mass: 3 },
    ],
  },
  // A metal bar, 0.8 m of 12 x 2 x 2 cells, pinned over its left end face (pin box: the particles of its first
  // lattice layer, x = -0.4 in its own frame): plastic past 3% strain, so its own weight (1.4 cm of sag at 20
  // substeps) leaves it straight while a drag bends it for good. Measured with minipbd's JS API: the tip dragged
  // 26 cm down and let go stays 25 cm down; without plasticity (creep 0) it springs back to 0.5 cm.
  'bend-bar': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Bend a bar: a plastic bar pinned at one end stays bent when you let go',
    solver: { substeps: 20, damping: 0.5 },
    camera: { target: [0, 1, 0], yaw: 0.3, pitch: 0.15, distance: 2.4, fov: 45 },
    objects: [{
      type: 'soft', name: 'bar', shape: 'box', position: [0, 1.2, 0], halfExtents: [0.4, 0.06, 0.06], resolution: 12, mass: 1,
      stiffness: { edge: 1, volume: 1 }, plasticity: { yield: 0.03, creep: 10, max: 1 },
      pinBoxes: [{ min: [-1, -1, -1], max: [-0.39, 1, 1] }],
    }],
  },
  // A light cloth (0.9 kg) pinned at its four corners with a 2 kg block, a soft ball and a soft cube on it.
  trampoline: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Trampoline: rigid and soft bodies on a cloth pinned at its corners',
    solver: { damping: 0.05, thickness: 0.02 },
    camera: { target: [0, 0.7, 0], yaw: 0.55, pitch: 0.35, distance: 3.6, fov: 45 },
    objects: [
      { type: 'cloth', name: 'trampoline', origin: [-1, 0.9, -1], size: [2, 2], resolution: [40, 40], plane: 'xz', mass: 0.0006,
        stiffness: { stretch: 1, shear: 1, bend: 0.02 }, pins: [[0, 0], [39, 0], [0, 39], [39, 39]] },
      { type: 'rigid', name: 'block', shape: 'box', position: [-0.4, 1.25, 0.1], halfExtents: [0.15, 0.1, 0.15], resolution: 4, mass: 2 },
      { type: 'soft', name: 'ball', shape: 'ball', position: [0.35, 1.6, -0.2], radius: 0.18, resolution: 6, mass: 0.5,
        stiffness: { edge: 0.5, volume: 1 } },
      { type: 'soft', name: 'cube', shape: 'box', position: [0.2, 2.1, 0.35], halfExtents: [0.12, 0.12, 0.12], resolution: 4, mass: 0.4,
        stiffness: { edge: 0.5, volume: 1 } },
    ],
  },

  // Fluids. A column of 16 x 32 x 16 = 8,192 particles in a corner of a glass tank: released, it
  // breaks along the floor, climbs the far wall, sloshes back and settles flat.
  'dam-break': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Dam break: a column of water falls in a glass tank and settles flat',
    solver: FLUID_SOLVER,
    fluid: STILL_WATER,
    // Through the front pane, low enough to see the wave climb the far wall (the water is behind glass: colliders.js).
    camera: { target: [0, 0.2, 0], yaw: 0.5, pitch: 0.42, distance: 2.2, fov: 45 },
    colliders: tank(0.6, 0.3, 0.7),
    objects: [{ type: 'fluid', name: 'water', block: { lower: [-0.6, 0, -0.3], upper: [-0.28, 0.64, 0.02] } }],
  },
  // A hose pours onto a cloth pinned at its corners. The cloth's particles are about a fluid spacing apart and
  // their contact radius (solver.thickness / 2) is d / 2, so water does not pass between them; what spills over the
  // edge falls into a drain on the ground, so the hose runs on without filling the capacity. The cloth is light
  // (1 g a particle, 2.5 kg) against the water it holds, so the water bends it: measured with the cloth-leak fix
  // over 10 s, 2,980 particles (24 kg) stay on it, it sags 10.5 cm, the rest spills over its edges, and none is
  // ever under it; at 4 g a particle (10 kg) it sagged 7 cm, mostly under its own weight, and held 900 in a film.
  hammock: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Hammock: a hose pours water onto a cloth pinned at its corners',
    solver: { ...FLUID_SOLVER, substeps: 4, iterations: 2, thickness: 0.02, damping: 0.05 },
    camera: { target: [0, 0.55, 0], yaw: 0.5, pitch: 0.5, distance: 2, fov: 45 }, // close: the pool on the cloth fills the view
    objects: [
      { type: 'cloth', name: 'hammock', origin: [-0.5, 0.8, -0.5], size: [1, 1], resolution: [50, 50], plane: 'xz', mass: 0.001,
        stiffness: { stretch: 1, shear: 1, bend: 0.02 }, pins: [[0, 0], [49, 0], [0, 49], [49, 49]],
        // Canvas-coloured: the water on it absorbs red first, so under a pool the default orange turned grey-brown.
        colour: '#e8e0cc' },
      { type: 'fluid', name: 'water', capacity: 12000,
        // Low and slow (1 m/s, 15 cm above the cloth) at 4 substeps: water reaching the cloth moves less than a
        // particle radius per substep, so it cannot step through it (measured: from 1.4 m at 2 m/s it leaked).
        emitters: [{ position: [0.1, 0.95, 0], direction: [0, -1, 0], speed: 1, radius: 0.05, enabled: true }],
        drains: [{ lower: [-4, -1, -4], upper: [4, 0.05, 4] }] },
    ],
  },
  // Three blocks of 0.5, 1 and 4 times the water's density dropped into a tank: the light one floats half out,
  // the neutral one hovers where it is put, the heavy one sinks (Macklin et al. 2014 section 7.1: solids count in
  // the fluid's density by their volume). The water: 24 x 12 x 24 = 6,912 particles of 2.5 cm.
  floating: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Floating: blocks of 0.5, 1 and 4 times water\'s density in a tank',
    solver: FLUID_SOLVER,
    camera: { target: [0, 0.2, 0], yaw: 0.4, pitch: 0.4, distance: 1.8, fov: 45 },
    fluid: { ...STILL_WATER, spacing: 0.025, smoothingRadius: 0.05 },
    colliders: tank(0.3, 0.3, 0.6),
    objects: [
      { type: 'fluid', name: 'water', block: { lower: [-0.3, 0, -0.3], upper: [0.3, 0.3, 0.3] } },
      block('wood (0.5)', -0.17, 0.45, 0.06, 500),
      block('neutral (1)', 0, 0.15, 0.06, 1000), // put in the water, where it hovers
      block('iron (4)', 0.17, 0.45, 0.06, 4000),
    ],
  },
  // A tank of water and a ball to drag through it. The ball is a sphere collider moved by the pointer: it goes
  // where the hand goes whatever the water pushes (a kinematic stirrer, as a spoon is), so the swirl behind it is
  // the water's; a rigid ball would float and lag behind its grab. Its moves are recorded and replayed exactly.
  // The page drags a collider in the horizontal plane through the press (input/pointer.js), so the ball stays at
  // its depth: centre 2.5 cm under the 15 cm surface, bottom 2.5 cm above the floor, 7.5 cm above the water to
  // press. The water is five blocks on one lattice around a cube hole where the ball sits: a block through the
  // ball would put ~300 particles inside it, which the collider throws out at 11 m/s (measured) on the first step.
  swirl: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Swirl: drag the ball through a tank of water',
    solver: FLUID_SOLVER,
    camera: { target: [0, 0.1, 0], yaw: 0.3, pitch: 0.75, distance: 1.7, fov: 45 },
    fluid: { ...STILL_WATER, spacing: 0.025, smoothingRadius: 0.05 },
    colliders: [...tank(0.4, 0.4, 0.4), { type: 'sphere', name: 'ball', position: [0, SWIRL_BALL.y, 0], radius: SWIRL_BALL.r, staticFriction: 0.2, kineticFriction: 0.1 }],
    objects: swirlWater(0.4, 0.15, 0.025, SWIRL_BALL.r).map((block, k) => ({ type: 'fluid', name: `water ${k + 1}`, block })),
  },
  ...INFLATABLE_SCENES,
};

/** Scenes made from a model file: the file (format/assets.js) and the scene around its parsed mesh. */
const ASSET_SCENES = {
  // The bunny of tools/make-bunny.mjs (0.48 m long, feet at y = 0), a soft body filled with a 12-cell lattice.
  // Its lattice has a rounded bottom (the feet are thinner than a cell), so it lands upright only when the landing
  // does not rock it far: dropped 8 cm at 20 substeps with damping 0.2 it tilts and wobbles back (measured in Node:
  // upright again within 1 s, and so from 5 to 10 cm). Since its volume is held cell by cell (scene version 3) it
  // keeps its volume through the landing and rocks further: from 12 cm it tilts 49 degrees, and from 15 cm (where
  // it was dropped when the landing squashed it instead) it topples onto its haunches.
  bunny: {
    asset: 'bunny.obj',
    scene: (mesh) => ({
      format: FORMAT, version: SCENE_VERSION,
      name: 'Bunny: a soft body made from an OBJ model (drag it)',
      solver: { substeps: 20, damping: 0.2 },
      camera: { target: [0, 0.3, 0], yaw: 0.9, pitch: 0.25, distance: 2, fov: 45 },
      objects: [{ type: 'soft', name: 'bunny', shape: 'mesh', position: [0, 0.08, 0], resolution: 12, mass: 1.5,
        stiffness: { edge: 0.6, volume: 1 }, mesh }],
    }),
  },
};

/** Built-in scenes keyed by id, normalised and deep-frozen (use defaultScene() or validateScene() for a copy). */
export const builtinScenes = deepFreeze(Object.fromEntries(
  Object.entries(BUILTIN_SOURCES).map(([id, src]) => [id, validateScene(src)]),
));

/** The built-in scene a page shows when it is given none. */
export const DEFAULT_SCENE_KEY = 'cloth';

/** A fresh, mutable copy of the default built-in scene. */
export function defaultScene() {
  return validateScene(builtinScenes[DEFAULT_SCENE_KEY]);
}

/** Every built-in scene's id, in the picker's order: those of builtinScenes, then those made from a model file. */
export const BUILTIN_SCENE_IDS = Object.freeze([...Object.keys(BUILTIN_SOURCES), ...Object.keys(ASSET_SCENES)]);

/** The name of built-in scene `id` without reading its model file (a picker names every scene before it is
 *  loaded), or undefined for an unknown id. */
export function builtinSceneName(id) {
  if (Object.hasOwn(builtinScenes, id)) return builtinScenes[id].name;
  return Object.hasOwn(ASSET_SCENES, id) ? ASSET_SCENES[id].scene(null).name : undefined;
}

const loaded = new Map();

/**
 * The built-in scene `id`, normalised and deep-frozen: at once for those of builtinScenes, after reading its model
 * (once; later calls share the result) for the others. `readText(name)` reads an asset (default: format/assets.js).
 * Rejects naming the id or the file.
 */
export function loadBuiltinScene(id, { readText = readAsset } = {}) {
  if (Object.hasOwn(builtinScenes, id)) return Promise.resolve(builtinScenes[id]);
  if (!Object.hasOwn(ASSET_SCENES, id)) {
    return Promise.reject(new Error(`no built-in scene "${String(id).slice(0, 40)}"; there are: ${BUILTIN_SCENE_IDS.join(', ')}`));
  }
  if (!loaded.has(id)) {
    const { asset, scene } = ASSET_SCENES[id];
    const promise = readText(asset).then((text) => {
      const { vertices, triangles } = parseObj(text);
      return deepFreeze(validateScene(scene(meshFromArrays(vertices, triangles))));
    });
    promise.catch(() => loaded.delete(id)); // a failed read may be tried again
    loaded.set(id, promise);
  }
  return loaded.get(id);
}
