// chain.js — the chain object type (ropes, pendulums): segments + 1 particles from `start` to `end`, joined by
// distance constraints of kind chain (pbdjs_AddChain, src/builders). Everything the page knows about chains is
// here, registered in objects/index.js: its scene keys and validation, its counts, how it is built in the engine,
// its mass rule, its stiffness and panel control, its strings, how it is drawn and how big it is for a recording.
//
//   { "type": "chain", "name": "rope", "start": [0, 3, 0], "end": [2.5, 3, 0], "segments": 25, "mass": 0.05,
//     "stiffness": 1, "pins": [0], "masses": [{ "from": 25, "to": 25, "mass": 1 }] }

import { PARAMS, radiusSpacingProblem } from '../engine/params.js';
import { SCENE_LIMITS as L } from '../format/limits.js';
import { array, coord3, fail, integer, join, mass, massRange, name, optional, paramValue, required } from '../format/read.js';
import { control } from '../panel/control.js';

const TYPE = 'chain';
const STIFFNESS = PARAMS['stiffness.chain'];
const DEFAULT_MASS = 0.05; // kg per particle
const f = Math.fround;

/** The distance between its particles, as the engine computes it (src/builders/chain.c, float32): what bounds its
 *  contact radius, solver.thickness / 2. */
export function chainSpacing(o) {
  const d = [0, 1, 2].map((k) => f(f(o.end[k]) - f(o.start[k])));
  return f(f(Math.sqrt(f(f(f(d[0] * d[0]) + f(d[1] * d[1])) + f(d[2] * d[2])))) / o.segments);
}

/** @type {import('./index.js').ObjectType} */
export const chain = {
  type: TYPE,
  keys: ['type', 'name', 'start', 'end', 'segments', 'mass', 'stiffness', 'pins', 'masses'],

  /** Reads an untrusted chain (`get` reads its own keys, already checked against `keys`); returns it normalised. */
  read(get, path, index) {
    const start = coord3(required(get, 'start', path), join(path, 'start'));
    const end = coord3(required(get, 'end', path), join(path, 'end'));
    if (start.every((v, i) => v === end[i])) fail(join(path, 'end'), 'must differ from start', end);
    const segments = integer(required(get, 'segments', path), join(path, 'segments'), L.segments.min, L.segments.max);
    const idx = (v, p) => integer(v, p, 0, segments);
    const pinsPath = join(path, 'pins');
    const massesPath = join(path, 'masses');
    return {
      type: TYPE,
      name: optional(get('name'), `chain ${index + 1}`, (v) => name(v, join(path, 'name'))),
      start, end, segments,
      mass: optional(get('mass'), DEFAULT_MASS, (v) => mass(v, join(path, 'mass'))),
      stiffness: optional(get('stiffness'), STIFFNESS.default, (v) => paramValue(STIFFNESS, v, join(path, 'stiffness'))),
      pins: optional(get('pins'), [], (v) => array(v, pinsPath, 0, L.maxPins, `an array of at most ${L.maxPins} particle indices`)
        .map((p, i) => idx(p, join(pinsPath, i)))),
      masses: optional(get('masses'), [], (v) => array(v, massesPath, 0, L.maxMassRanges, `an array of at most ${L.maxMassRanges} mass ranges`)
        .map((r, i) => massRange(r, join(massesPath, i), idx, (a, b) => a <= b))),
    };
  },

  particleCount: (o) => o.segments + 1,

  /** Its particles are spheres of solver.thickness / 2: at most MAX_RADIUS_SPACINGS segments (the engine refuses more). */
  checkScene(scene) {
    scene.objects.forEach((o, i) => {
      if (o.type !== TYPE) return;
      const problem = radiusSpacingProblem(scene.solver.thickness, chainSpacing(o), true);
      if (problem) {
        fail(`objects[${i}].segments`, `put the chain's particles ${problem.spacing} m apart, and solver.thickness ${scene.solver.thickness} `
          + `may be at most ${problem.spacings} times that (${problem.limit} m: ${problem.why})`, o.segments);
      }
    });
  },

  /** The spacing that bounds its contact radius (solver.thickness / 2): World.setParam checks a new thickness. */
  thicknessSpacing: chainSpacing,

  /** What the engine reserves for it (pbd_ChainCounts). */
  counts(engine, o) {
    const [particles, constraints, lines] = engine.counts('pbdjs_ChainCounts', o.segments);
    return { particles, constraints, triangles: 0, lines };
  },

  /** Adds it to world `id` (its stiffness, masses and pins too); returns its first particle. */
  build(engine, id, o, index) {
    const e = engine.exports;
    const first = engine.check(e.pbdjs_AddChain(id, ...o.start, ...o.end, o.segments, o.mass), 'engine', id);
    engine.check(e.pbd_World_SetObjectStiffness(id, index, chain.stiffness.chain.kind, o.stiffness), 'engine', id);
    for (const m of o.masses) for (let i = m.from; i <= m.to; i++) engine.check(e.pbd_World_SetMass(id, first + i, m.mass), 'engine', id);
    for (const i of o.pins) engine.check(e.pbd_World_SetInvMass(id, first + i, 0), 'engine', id);
    return first;
  },

  /** Local indices of its particles whose mass its `mass` does not set: pins and `masses` ranges. */
  particlesWithOwnMass(o) {
    const keep = new Set(o.pins);
    for (const m of o.masses) for (let i = m.from; i <= m.to; i++) keep.add(i);
    return keep;
  },

  /** Its constraint kinds: the engine's pbdConstraintKind, the parameter, where one object keeps its own. */
  stiffness: {
    chain: { kind: 3, param: STIFFNESS.name, get: (o) => o.stiffness, set: (o, v) => { o.stiffness = v; } },
  },

  /** Its largest size in metres (a recording's position quantum follows it). */
  extent: (o) => Math.hypot(...o.end.map((v, k) => v - o.start[k])),

  /** Drawn as lines (world.lines), with beads sized by the segment length. */
  render: {
    primitive: 'lines',
    pointColor: 'particle',
    sprite(o) {
      const seg = chain.extent(o) / Math.max(1, o.segments);
      const radius = Math.min(0.05, Math.max(0.006, seg * 0.28));
      return { radius, pinnedRadius: radius * 1.6, columns: 0, rows: 0 };
    },
  },

  controls: [control({ name: STIFFNESS.name, param: STIFFNESS.name, group: 'stiffness', step: 0.01 })],

  strings: {
    en: {
      'param.stiffness.chain': 'Chain',
      'param.stiffness.chain.help': 'Chain link stiffness',
    },
    zh: {
      'param.stiffness.chain': '链条',
      'param.stiffness.chain.help': '链条连接的刚度',
    },
  },
};
