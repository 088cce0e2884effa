// cloth.js — the cloth object type: a grid of resolution[0] x resolution[1] particles with stretch, shear and bend
// constraints and a triangle mesh (pbdjs_AddCloth, src/builders). Everything the page knows about cloth is here,
// registered in objects/index.js: its scene keys and validation, its counts, how it is built in the engine, its
// mass rule, its stiffnesses, its panel controls (stiffness, and the options that act on cloth: tethers, tearing,
// self-collision, wind), their strings, how it is drawn and how big it is for a recording.
//
//   { "type": "cloth", "name": "cloth", "origin": [-1, 2.5, 0], "size": [2, 2], "resolution": [40, 40],
//     "plane": "xy", "mass": 0.01, "stiffness": { "stretch": 1, "shear": 1, "bend": 0.1 },
//     "pins": [[0, 0], [39, 0]], "masses": [{ "from": [0, 0], "to": [19, 39], "mass": 0.1 }], "colour": "#e8e0d0" }
// `colour` (optional, sRGB "#rrggbb") is its front face's colour, how it is drawn only: left out, the palette's
// (render/palette.js clothFront). A normalised scene carries it only when the scene gave it, so every other scene's
// normalised form and link stay as they were.
// Particle (i, j) is at origin + i/(nu-1) size[0] along +x and j/(nv-1) size[1] along -y ("xy": it hangs) or
// +z ("xz": it lies flat); its index is first + j nu + i.
// A pin is [i, j] (held where the grid puts it) or [i, j, x, y, z] (held at (x, y, z)): the rest pose stays the
// flat grid, so two pins placed closer together than their rest distance leave the cloth between them slack and
// it drapes (the built-in `cloth`); the tethers measure in the rest pose (families/tethers.c), so they allow it.

import { PARAMS, sceneParamShown } from '../engine/params.js';
import { SCENE_LIMITS as L } from '../format/limits.js';
import { NAME_ROW, fieldKeys, massRangesRow, paramsRow, readField, readObject, typeRow } from '../format/fields.js';
import { FILTER_ROWS } from './filter.js';
import { array, fail, join } from '../format/read.js';
import { control } from '../panel/control.js';

const TYPE = 'cloth';
const KINDS = ['stretch', 'shear', 'bend'];
const DEFAULT_MASS = 0.01; // kg per particle
const AIR_DENSITY = 1.2; // kg/m^3, air at sea level: what the wind switch turns on in a scene that had no air
const f = Math.fround;

/** The spacing of its particles as the engine computes it (src/builders/cloth.c, float32, from the axes build()
 *  passes): the finer grid step (the engine's sheared-axes term never applies to the square axes of a scene's
 *  cloth, but is computed as the engine does). What bounds its contact radius, solver.thickness / 2. */
export function clothSpacing(o) {
  const [w, h] = o.size.map(f);
  const [nu, nv] = o.resolution;
  const su = f(f(Math.sqrt(f(w * w))) / (nu - 1));
  const sv = f(f(Math.sqrt(f(h * h))) / (nv - 1));
  const area = f(f(Math.sqrt(f(f(w * h) * f(w * h)))) / ((nu - 1) * (nv - 1)));
  return Math.min(su, sv, f(2 * f(Math.sqrt(area))));
}

// A grid cell [i, j]: inside the cloth's own grid (the schema knows only the largest grid).
const CELL_INDEX = [0, 1].map((k) => ({
  kind: 'integer', min: 0, max: L.resolution.max - 1, range: (ctx) => ({ min: 0, max: ctx.value('resolution')[k] - 1 }),
}));
const CELL = { kind: 'tuple', items: CELL_INDEX, what: 'an [i, j] pair' };
const AT = { kind: 'number', min: -L.maxCoord, max: L.maxCoord, unit: 'm' };
const PIN_RULE = 'an [i, j] pair or an [i, j, x, y, z] pin placed at (x, y, z)';
const PIN = {
  kind: 'anyOf', of: [CELL, { kind: 'tuple', items: [...CELL_INDEX, AT, AT, AT] }],
  read(v, p, ctx) {
    const items = array(v, p, 2, 5, PIN_RULE);
    const ij = CELL_INDEX.map((f, k) => readField(f, items[k], join(p, k), ctx));
    if (items.length === 2) return ij;
    if (items.length !== 5) fail(p, `must be ${PIN_RULE}`, v);
    return [...ij, ...[2, 3, 4].map((k) => readField(AT, items[k], join(p, k), ctx))];
  },
};
const RESOLUTION = { kind: 'integer', min: L.resolution.min, max: L.resolution.max };

/** Its scene keys (format/fields.js): the grid first, the pins and mass rectangles are checked against it. */
const FIELDS = [
  typeRow(TYPE),
  NAME_ROW,
  { key: 'origin', kind: 'coord3', required: true, first: true, unit: 'm' },
  { key: 'size', kind: 'vec', n: 2, min: 0, minExcl: true, max: L.maxSize, required: true, first: true, unit: 'm' },
  {
    key: 'resolution', kind: 'tuple', items: [RESOLUTION, RESOLUTION], what: 'an array of 2 integers', required: true, first: true,
    check: (r, p) => { if (r[0] * r[1] > L.maxParticles) fail(p, `must have a product of at most ${L.maxParticles}`, r); },
  },
  { key: 'plane', kind: 'enum', values: ['xy', 'xz'], default: 'xy', first: true },
  { key: 'mass', kind: 'mass', default: DEFAULT_MASS, unit: 'kg' },
  paramsRow(TYPE, 'stiffness'),
  { key: 'pins', kind: 'list', item: PIN, max: L.maxPins, noun: 'pins', default: [] },
  massRangesRow(CELL, 'mass rectangles', (a, b) => a[0] <= b[0] && a[1] <= b[1]),
  { key: 'colour', kind: 'colour' },
  ...FILTER_ROWS,
];

function windVelocity(speed, degrees) {
  const a = (degrees * Math.PI) / 180;
  const r = (v) => Math.round(v * 1e6) / 1e6; // keeps links short and exact 0s exact
  return [['windX', r(speed * Math.cos(a))], ['windZ', r(speed * Math.sin(a))]];
}

/** @type {import('./index.js').ObjectType} */
export const cloth = {
  type: TYPE,
  fields: FIELDS,
  keys: fieldKeys(FIELDS),
  read: readObject(FIELDS, TYPE),

  /** Its particles are spheres of solver.thickness / 2, so the thickness is bounded by its finer grid step (index.js
   *  thicknessProblem); a refusal names its resolution. */
  thicknessSpacing: clothSpacing,
  thicknessField: 'resolution',

  /** What the engine reserves for it (pbd_ClothCounts). */
  counts(engine, o) {
    const [particles, constraints, triangles] = engine.counts('pbdjs_ClothCounts', o.resolution[0], o.resolution[1]);
    return { particles, constraints, triangles, lines: 0 };
  },

  /** Adds it to world `id` (its stiffnesses, masses and pins too); returns its first particle. */
  build(engine, id, o, index) {
    const e = engine.exports;
    const [w, h] = o.size;
    const [nu, nv] = o.resolution;
    const v = o.plane === 'xz' ? [0, 0, h] : [0, -h, 0];
    const first = engine.check(e.pbdjs_AddCloth(id, ...o.origin, w, 0, 0, ...v, nu, nv, o.mass), 'engine', id);
    for (const k of KINDS) engine.check(e.pbd_World_SetObjectStiffness(id, index, cloth.stiffness[k].kind, o.stiffness[k]), 'engine', id);
    for (const m of o.masses) {
      for (let j = m.from[1]; j <= m.to[1]; j++) {
        for (let i = m.from[0]; i <= m.to[0]; i++) engine.check(e.pbd_World_SetMass(id, first + j * nu + i, m.mass), 'engine', id);
      }
    }
    for (const [i, j, ...at] of o.pins) {
      engine.check(e.pbd_World_SetInvMass(id, first + j * nu + i, 0), 'engine', id);
      if (at.length === 3) engine.check(e.pbd_World_SetPosition(id, first + j * nu + i, ...at), 'engine', id);
    }
    // Placed pins carry the cloth: every other particle moves by the pins' moves blended with weights 1/d^2 over the
    // flat grid (Shepard; a pin [i, j] moves 0). Placed alone, the built-in cloth's corners, 0.2 m in, jumped four
    // columns past their neighbours: it started folded, and at 2 passes a step hung so (21% stretch; 44% with its
    // self-collision; docs/physics.md "Placed pins"). Past 2^26 pin-particle terms every k-th pin is blended.
    if (o.pins.some((p) => p.length === 5)) {
      const grid = (i, j) => o.origin.map((c, k) => c + (i / (nu - 1)) * w * (k === 0) + (j / (nv - 1)) * v[k]);
      const every = Math.ceil((o.pins.length * nu * nv) / 2 ** 26), held = new Set(o.pins.map(([i, j]) => j * nu + i));
      const pins = o.pins.filter((_, k) => k % every === 0).map(([i, j, ...at]) => {
        const g = grid(i, j);
        return [g, g.map((c, k) => (at[k] ?? c) - c)];
      });
      for (let j = 0; j < nv; j++) {
        for (let i = 0; i < nu; i++) {
          if (held.has(j * nu + i)) continue;
          const g = grid(i, j), m = [0, 0, 0];
          let sum = 0;
          for (const [p, move] of pins) {
            const d2 = (g[0] - p[0]) ** 2 + (g[1] - p[1]) ** 2 + (g[2] - p[2]) ** 2;
            sum += 1 / d2;
            for (let k = 0; k < 3; k++) m[k] += move[k] / d2;
          }
          engine.check(e.pbd_World_SetPosition(id, first + j * nu + i, ...g.map((c, k) => c + m[k] / sum)), 'engine', id);
        }
      }
    }
    return first;
  },

  /** Local indices of its particles whose mass its `mass` does not set: pins and `masses` rectangles. */
  particlesWithOwnMass(o) {
    const nu = o.resolution[0];
    const keep = new Set();
    for (const [i, j] of o.pins) keep.add(j * nu + i);
    for (const m of o.masses) {
      for (let j = m.from[1]; j <= m.to[1]; j++) for (let i = m.from[0]; i <= m.to[0]; i++) keep.add(j * nu + i);
    }
    return keep;
  },

  /** Its constraint kinds: the engine's pbdConstraintKind, the parameter, where one object keeps its own. */
  stiffness: Object.fromEntries(KINDS.map((k, kind) => [k, {
    kind, param: `stiffness.${k}`, get: (o) => o.stiffness[k], set: (o, v) => { o.stiffness[k] = v; },
  }])),

  /** Its largest size in metres (a recording's position quantum follows it). */
  extent: (o) => Math.max(...o.size),

  /** Drawn as lit triangles (world.triangles) with a fabric pattern over its grid; small dots, larger pins. */
  render: {
    primitive: 'triangles',
    pointColor: 'clothParticle',
    sprite(o) {
      const [cols, rows] = o.resolution;
      const spacing = Math.min(o.size[0] / Math.max(1, cols - 1), o.size[1] / Math.max(1, rows - 1));
      return { radius: spacing * 0.1, pinnedRadius: Math.max(spacing * 0.55, 0.018), columns: cols, rows, colour: o.colour ?? null };
    },
  },

  /** Its own panel folder (its options: tethers, tearing, self-collision), after the masses. */
  folders: [TYPE],
  controls: [
    ...KINDS.map((k) => control({ name: `stiffness.${k}`, param: `stiffness.${k}`, group: 'stiffness', step: 0.01 })),
    // --- Cloth: tethers to its pins, tearing its links, its layers colliding ---
    control({
      name: 'tethers', kind: 'toggle', param: 'tethers', group: TYPE,
      read: (s) => sceneParamShown(s, PARAMS.tethers) > 0,
      // On restores the scene's tether stiffness (or full strength).
      write: (on, ctx) => [['tethers', on ? ctx.remembered('tethers', 1) : 0]],
    }),
    control({ name: 'tetherSlack', param: 'tetherSlack', group: TYPE, enabledBy: 'tethers', scale: 100, step: 1 }),
    control({
      name: 'tearing', kind: 'toggle', param: 'tearStretch', group: TYPE,
      read: (s) => sceneParamShown(s, PARAMS.tearStretch) > 0,
      write: (on, ctx) => [['tearStretch', on ? ctx.value('tearStretch') / 100 : 0]],
    }),
    control({
      name: 'tearStretch', param: 'tearStretch', group: TYPE, enabledBy: 'tearing', scale: 100, min: 5, max: 200, step: 5, fallback: 35,
      read: (s) => {
        const v = sceneParamShown(s, PARAMS.tearStretch);
        return v > 0 ? v * 100 : undefined; // off: keep the threshold the slider shows
      },
    }),
    control({ name: 'selfCollision', kind: 'toggle', param: 'selfCollision', group: TYPE }),
    control({ name: 'selfFriction', param: 'selfFriction', group: TYPE, enabledBy: 'selfCollision', step: 0.05 }),
    // --- Wind: drag and lift act on its faces ---
    control({
      name: 'wind', kind: 'toggle', param: 'airDensity', group: 'wind',
      read: (s) => sceneParamShown(s, PARAMS.airDensity) > 0,
      write: (on, ctx) => [['airDensity', on ? ctx.remembered('airDensity', AIR_DENSITY) : 0]],
    }),
    control({
      name: 'windSpeed', group: 'wind', enabledBy: 'wind', min: 0, max: 20, step: 0.5, decimals: 1,
      read: (s) => Math.hypot(s.wind.velocity[0], s.wind.velocity[2]),
      write: (v, ctx) => windVelocity(v, ctx.value('windDirection')),
    }),
    control({
      name: 'windDirection', group: 'wind', enabledBy: 'wind', min: 0, max: 355, step: 5, fallback: 0,
      read: (s) => {
        const [x, , z] = s.wind.velocity;
        if (Math.hypot(x, z) === 0) return undefined; // no direction: keep what the slider shows
        return ((Math.atan2(z, x) * 180) / Math.PI + 360) % 360;
      },
      write: (v, ctx) => windVelocity(ctx.value('windSpeed'), v),
    }),
    control({ name: 'drag', param: 'drag', group: 'wind', enabledBy: 'wind', max: 3, step: 0.05 }),
    control({ name: 'lift', param: 'lift', group: 'wind', enabledBy: 'wind', max: 2, step: 0.05 }),
  ],

};
