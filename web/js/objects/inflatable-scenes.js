// inflatable-scenes.js — the built-in scenes of the inflatable type (objects/inflatable.js), spread into
// format/builtin-scenes.js's list: `balloons` and `beach-ball`.

import { SCENE_VERSION } from '../format/scene.js';

const FORMAT = 'minipbd-scene';
const glass = (name, position, halfExtents) => ({ type: 'box', name, position, halfExtents, staticFriction: 0.1, kineticFriction: 0.05, glass: true });

/** A balloon of radius 0.1 m at resolution 5 (252 particles, edges of about 2.3 cm: the water's spacing, so its
 *  particles keep the water out) weighing `grams` in all. */
const balloon = (name, center, grams, colour, pressure = 1.1) => ({
  type: 'inflatable', name, center, radius: 0.1, resolution: 5, pressure, mass: grams / 1000 / 252,
  stiffness: { stretch: 0.3, bend: 0.02 }, colour,
});

export const INFLATABLE_SCENES = {
  // Light balloons dropped together: they bump each other, two land on a cloth pinned at its corners and bounce on
  // it, two fall into a tank of water and float on it (mostly out of it: 20 g in 4.2 litres).
  balloons: {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Balloons: light balloons bump, land on a cloth and float on water',
    solver: { substeps: 2, iterations: 4, thickness: 0.025, damping: 0.05 },
    camera: { target: [0, 0.35, 0], yaw: 0.35, pitch: 0.45, distance: 2.4, fov: 45 },
    fluid: { spacing: 0.025, smoothingRadius: 0.05 },
    colliders: [
      glass('left wall', [0.075, 0.1, 0], [0.025, 0.1, 0.3]), glass('right wall', [0.725, 0.1, 0], [0.025, 0.1, 0.3]),
      glass('back wall', [0.4, 0.1, -0.325], [0.35, 0.1, 0.025]), glass('front wall', [0.4, 0.1, 0.325], [0.35, 0.1, 0.025]),
    ],
    objects: [
      { type: 'cloth', name: 'trampoline', origin: [-0.8, 0.45, -0.3], size: [0.6, 0.6], resolution: [25, 25], plane: 'xz', mass: 0.001,
        stiffness: { stretch: 1, shear: 1, bend: 0.02 }, pins: [[0, 0], [24, 0], [0, 24], [24, 24]], colour: '#e8e0cc' },
      { type: 'fluid', name: 'water', block: { lower: [0.1, 0, -0.3], upper: [0.7, 0.125, 0.3] } },
      balloon('red', [-0.55, 0.9, -0.05], 20, '#d83a3a'),
      balloon('yellow', [-0.4, 1.15, 0.08], 20, '#f2cf4a'),
      balloon('blue', [0.3, 0.7, 0.0], 20, '#3a7bd8'),
      balloon('green', [0.45, 0.95, 0.05], 20, '#3fae6a'),
      balloon('pink', [0.0, 1.3, 0.0], 20, '#e070b0', 1.3),
    ],
  },
  // A beach ball of 60 cm bouncing across the ground: a firm ball (k_pressure 1.2, stiff edges) of 300 g.
  'beach-ball': {
    format: FORMAT, version: SCENE_VERSION,
    name: 'Beach ball: a light inflated ball bouncing on the ground',
    solver: { substeps: 4, iterations: 4, damping: 0.02 },
    camera: { target: [0, 0.5, 0], yaw: 0.4, pitch: 0.25, distance: 3.5, fov: 45 },
    objects: [
      { type: 'inflatable', name: 'beach ball', center: [-0.8, 1.5, 0], radius: 0.3, resolution: 10, pressure: 1.2, mass: 0.3 / 1002,
        stiffness: { stretch: 0.9, bend: 0.1 }, colour: '#f5a623' },
    ],
  },
};
