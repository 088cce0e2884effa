// controls.js — the panel's parameter controls, built from the engine's parameter table (engine/params.js).
// No DOM and no lil-gui here (Node tests import it): panel.js makes a row of the panel from each.
//
// A control is a slider (kind 'range', the default) or a checkbox (kind 'toggle'). `name` is its id: the DOM id
// `param-<name>`, the i18n keys `param.<name>` and `param.<name>.help`. A control of one engine parameter says
// which (`param`) and, when it shows it in other units, `scale` (dt in ms: 1000); its range, its reading from a
// scene and what it writes then come from the table. A slider may show less than the parameter's range (`min`,
// `max`, in shown units: 1..16 substeps of the engine's 1..64 are what a person tries by hand); it may never
// show more, so a link always carries what the panel set (checked below, and by tests/node/params.test.mjs).
// A control that sets several parameters, or maps its value first, has `write(value, ctx) -> [[param, value],
// ...]`; ctx.value(name) reads another control's exact value and ctx.remembered(param, fallback) the last
// non-zero value a parameter had (what a toggle turns back on). `enabledBy` names a toggle that must be on for
// the control to apply (it is disabled otherwise); `objectType` hides it when the scene has no object of that
// type. `decimals` is how many the number field shows (default: as many as `step` has).

import { PARAMS, sceneParamShown } from '../engine/params.js';

const AIR_DENSITY = 1.2; // kg/m^3, air at sea level: what the wind switch turns on in a scene that had no air

/** Resolves a control: range and step in shown units, read(scene) and write(value, ctx) from its parameter. */
export function control(spec) {
  const c = { kind: 'range', ...spec };
  const p = spec.param === undefined ? null : PARAMS[spec.param];
  if (spec.param !== undefined && !p) throw new Error(`panel control ${spec.name}: no engine parameter ${spec.param}`);
  if (p) {
    const scale = spec.scale ?? 1;
    c.scale = scale;
    if (c.kind === 'toggle') {
      c.read ??= (s) => Boolean(sceneParamShown(s, p));
      c.write ??= (on) => [[p.name, on ? 1 : 0]];
    } else {
      c.min ??= p.min * scale;
      c.max ??= p.max * scale;
      if (c.min < p.min * scale || c.max > p.max * scale) {
        throw new Error(`panel control ${spec.name} shows [${c.min}, ${c.max}], beyond ${p.name}'s [${p.min}, ${p.max}] x ${scale}`);
      }
      c.read ??= (s) => {
        const v = sceneParamShown(s, p);
        return v === undefined ? undefined : v * scale;
      };
      c.write ??= scale === 1 ? (v) => [[p.name, v]] : (v) => [[p.name, v / scale]];
    }
  }
  return c;
}

function windVelocity(speed, degrees) {
  const a = (degrees * Math.PI) / 180;
  const r = (v) => Math.round(v * 1e6) / 1e6; // keeps links short and exact 0s exact
  return [['windX', r(speed * Math.cos(a))], ['windZ', r(speed * Math.sin(a))]];
}

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
];

/** Cloth options and wind: they act on cloth (tethers to its pins, tearing its links, wind on its faces). */
export const CLOTH_CONTROLS = [
  control({
    name: 'tethers', kind: 'toggle', param: 'tethers', group: 'cloth', objectType: 'cloth',
    read: (s) => sceneParamShown(s, PARAMS.tethers) > 0,
    // On restores the scene's tether stiffness (or full strength).
    write: (on, ctx) => [['tethers', on ? ctx.remembered('tethers', 1) : 0]],
  }),
  control({ name: 'tetherSlack', param: 'tetherSlack', group: 'cloth', objectType: 'cloth', enabledBy: 'tethers', scale: 100, step: 1 }),
  control({
    name: 'tearing', kind: 'toggle', param: 'tearStretch', group: 'cloth', objectType: 'cloth',
    read: (s) => sceneParamShown(s, PARAMS.tearStretch) > 0,
    write: (on, ctx) => [['tearStretch', on ? ctx.value('tearStretch') / 100 : 0]],
  }),
  control({
    name: 'tearStretch', param: 'tearStretch', group: 'cloth', objectType: 'cloth', enabledBy: 'tearing', scale: 100,
    min: 5, max: 200, step: 5, fallback: 35,
    read: (s) => {
      const v = sceneParamShown(s, PARAMS.tearStretch);
      return v > 0 ? v * 100 : undefined; // off: keep the threshold the slider shows
    },
  }),
  control({ name: 'selfCollision', kind: 'toggle', param: 'selfCollision', group: 'cloth', objectType: 'cloth' }),
  control({ name: 'selfFriction', param: 'selfFriction', group: 'cloth', objectType: 'cloth', enabledBy: 'selfCollision', step: 0.05 }),

  // --- Wind ---
  control({
    name: 'wind', kind: 'toggle', param: 'airDensity', group: 'wind', objectType: 'cloth',
    read: (s) => sceneParamShown(s, PARAMS.airDensity) > 0,
    write: (on, ctx) => [['airDensity', on ? ctx.remembered('airDensity', AIR_DENSITY) : 0]],
  }),
  control({
    name: 'windSpeed', group: 'wind', objectType: 'cloth', enabledBy: 'wind', min: 0, max: 20, step: 0.5, decimals: 1,
    read: (s) => Math.hypot(s.wind.velocity[0], s.wind.velocity[2]),
    write: (v, ctx) => windVelocity(v, ctx.value('windDirection')),
  }),
  control({
    name: 'windDirection', group: 'wind', objectType: 'cloth', enabledBy: 'wind', min: 0, max: 355, step: 5, fallback: 0,
    read: (s) => {
      const [x, , z] = s.wind.velocity;
      if (Math.hypot(x, z) === 0) return undefined; // no direction: keep what the slider shows
      return ((Math.atan2(z, x) * 180) / Math.PI + 360) % 360;
    },
    write: (v, ctx) => windVelocity(ctx.value('windSpeed'), v),
  }),
  control({ name: 'drag', param: 'drag', group: 'wind', objectType: 'cloth', enabledBy: 'wind', max: 3, step: 0.05 }),
  control({ name: 'lift', param: 'lift', group: 'wind', objectType: 'cloth', enabledBy: 'wind', max: 2, step: 0.05 }),
];

/** Each object type's stiffness sliders. */
export const STIFFNESS_CONTROLS = [
  ...['stretch', 'shear', 'bend'].map((k) => control({ name: `stiffness.${k}`, param: `stiffness.${k}`, group: 'stiffness', objectType: 'cloth', step: 0.01 })),
  control({ name: 'stiffness.chain', param: 'stiffness.chain', group: 'stiffness', objectType: 'chain', step: 0.01 }),
];

/** Every parameter control, in the panel's order. */
export const PARAMS_CONTROLS = [
  ...CORE_CONTROLS.filter((c) => c.group === 'solver'),
  ...STIFFNESS_CONTROLS,
  ...CLOTH_CONTROLS.filter((c) => c.group === 'cloth'),
  ...CORE_CONTROLS.filter((c) => c.group === 'contacts'),
  ...CLOTH_CONTROLS.filter((c) => c.group === 'wind'),
];

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

/** The panel's folders, in order. */
export const GROUPS = ['solver', 'stiffness', 'mass', 'cloth', 'contacts', 'colliders', 'wind'];
