// controls.js — the panel's parameter controls: the core ones (solver, ground and contacts), then every object
// type's own (objects/, e.g. a cloth's stiffness, tethers and wind), each resolved against the engine's parameter
// table by control(). No DOM and no lil-gui here, so Node tests check every range against the table.

import { control } from './control.js';
import { OBJECT_CONTROLS, OBJECT_TYPES } from '../objects/index.js';

const gravity = (axis) => control({ name: `gravity${axis}`, param: `gravity${axis}`, group: 'solver', min: -20, max: 20, step: 0.1, decimals: 2 });

/** The controls of the Solver and Ground-and-contacts folders: parameters every scene has. */
export const CORE_CONTROLS = [
  // --- Solver ---
  control({ name: 'dt', param: 'dt', group: 'solver', scale: 1000, min: 1, max: 50, step: 0.5, decimals: 2 }),
  control({ name: 'substeps', param: 'substeps', group: 'solver', max: 16, step: 1 }),
  control({ name: 'iterations', param: 'iterations', group: 'solver', max: 50, step: 1 }),
  control({ name: 'damping', param: 'damping', group: 'solver', max: 5, step: 0.05 }),
  control({ name: 'maxSpeed', param: 'maxSpeed', group: 'solver', min: 0.5, max: 200, step: 0.5, decimals: 1 }),
  gravity('X'),
  gravity('Y'),
  gravity('Z'),

  // --- Ground and contacts ---
  control({ name: 'ground', kind: 'toggle', param: 'groundEnabled', group: 'contacts' }),
  control({ name: 'groundHeight', param: 'groundHeight', group: 'contacts', enabledBy: 'ground', min: -1, max: 2, step: 0.05 }),
  control({ name: 'restitution', param: 'restitution', group: 'contacts', enabledBy: 'ground', step: 0.05 }),
  control({ name: 'staticFriction', param: 'staticFriction', group: 'contacts', enabledBy: 'ground', max: 2, step: 0.05 }),
  control({ name: 'kineticFriction', param: 'kineticFriction', group: 'contacts', enabledBy: 'ground', max: 2, step: 0.05 }),
  control({ name: 'thickness', param: 'thickness', group: 'contacts', scale: 100, min: 0.2, max: 10, step: 0.1 }),
  control({ name: 'collisions', kind: 'toggle', param: 'collisions', group: 'contacts' }),
];

/** Every parameter control, in the panel's order (grouped by folder; a type's controls show with the type). */
export const PARAMS_CONTROLS = Object.freeze([...CORE_CONTROLS, ...OBJECT_CONTROLS]);

/**
 * Each collider's material, one sub-folder per collider (named by the scene) in the Colliders folder. Ranges
 * stay inside what scene.js accepts (SCENE_LIMITS.colliderFriction, colliderRestitution); labels and help are
 * i18n keys `collider.<key>` and `collider.<key>.help`.
 */
export const COLLIDER_FIELDS = [
  { key: 'staticFriction', min: 0, max: 2, step: 0.05 },
  { key: 'kineticFriction', min: 0, max: 2, step: 0.05 },
  { key: 'restitution', min: 0, max: 1, step: 0.05 },
];

/** The panel's folders, in order: each body's material after the masses, then an object type's own (a cloth's
 *  options). */
export const GROUPS = ['solver', 'stiffness', 'mass', 'bodies', ...OBJECT_TYPES.flatMap((t) => t.folders ?? []), 'contacts', 'colliders', 'wind'];
