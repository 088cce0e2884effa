// body-common.js — what soft and rigid bodies share (objects/soft.js, objects/rigid.js): their scene keys
// and how they are read, the engine's counts (their only particle counts) and building (pbdjs_BodyCounts and
// pbdjs_AddBody, src/wasm/api_bodies.c), pins, the mass rule, sizes and sprites, and the per-object material
// (plasticity, contact radius) the panel shows.
//
//   { "type": "soft", "shape": "box", "position": [0, 1, 0], "halfExtents": [0.3, 0.2, 0.2], "resolution": 6,
//     "mass": 2, "stiffness": { "edge": 1, "volume": 1 }, "plasticity": { "yield": 0.1, "creep": 0, "max": 0.5 } }
//   { "type": "rigid", "shape": "ball", "position": [0, 2, 0], "radius": 0.2, "resolution": 4, "stiffness": 1 }
//   { "type": "soft", "shape": "mesh", "mesh": { "vertices": [[x, y, z], ...], "triangles": [[a, b, c], ...] } }
//   { "type": "soft", "shape": "mesh", "obj": "v 0 0 0\n..." }            (read by format/obj.js into "mesh")
//   { "type": "soft", "shape": "mesh", "size": 0.4, "obj": "..." }     (scaled so its longest side is 0.4 m)
//   { "type": "soft", "shape": "tets", "mesh": { "vertices": [[x, y, z], ...], "tets": [[a, b, c, d], ...] } }
//
// A body is made of a lattice of cubic cells (box: all cells; ball: cells whose centre is inside; mesh: cells
// whose centre is inside the surface, by the engine's ray parity for a closed surface and its generalized winding
// number for an open or non-manifold one, src/builders/surface.h), `resolution` cells along its longest side, or of the given tets. Its `mass` is the whole body's, spread evenly over its particles. `pins` are local
// particle indices; `pinBoxes` pin every particle whose rest position lies in a box of the body's own frame
// (before `rotation` and `position`), so a scene can pin a face without knowing the lattice's numbering.

import { SCENE_LIMITS as L } from '../format/limits.js';
import { BodyFillJob, bodyCells } from './body-fill.js';
import { NAME_ROW, boxRecord, fieldReader, paramsRow, typeRow, variantRows } from '../format/fields.js';
import { FILTER_ROWS } from './filter.js';
import { SceneError, fail, join } from '../format/read.js';
import { BUFFER } from '../engine/memory.js';
import { MAX_RADIUS_SPACINGS, radiusSpacingProblem } from '../engine/params.js';
import { INDEX, OBJ_TEXT, SIZE_TEXT, SURFACE, VERTICES, fitMesh, surface, tuples } from './surface-mesh.js';

// The surface a "mesh" body is given (shared with inflatables: objects/surface-mesh.js), as this module's own exports.
export { MESH_FIT, meshFromArrays, meshSize } from './surface-mesh.js';

/** pbdBodyShape (src/minipbd.h) of each scene shape. */
const SHAPE_CODE = { box: 0, ball: 1, tets: 2, mesh: 3 };
export const SHAPES = ['box', 'ball', 'mesh', 'tets'];

// ---------------------------------------------------------------- its keys (format/fields.js)

const PLASTICITY = ['yield', 'creep', 'max'];
const plastic = (key, d, unit) => ({ key, kind: 'number', ...L.plasticity[key], default: d, unit });
const SIZE = { kind: 'number', min: 0, minExcl: true, max: L.maxSize, unit: 'm' };
const PIN_RANGE = { min: 0, max: L.maxParticles - 1 };
/** A "tets" body's tets [a, b, c, d] (a "mesh" body's surface: SURFACE, objects/surface-mesh.js). */
const TETS = { kind: 'record', def: 'tetMesh', fields: [VERTICES(L.maxTetVertices), tuples('tets', INDEX, 4, 1, L.maxTets, 'tets [a, b, c, d]')] };

/**
 * A body's keys, soft or rigid (`type`; their stiffness is their type's parameters). Defaults: plasticity off
 * (creep 0); yield and max are what a scene that only turns creep on gets: 10% strain before the rest state gives,
 * at most 50% of plastic strain (seed 001 5.3; the yield/creep/max set of FleX and Rapier).
 */
export function bodyFields(type) {
  return [
    typeRow(type),
    NAME_ROW,
    { key: 'shape', kind: 'enum', values: SHAPES, required: true, first: true, tag: true },
    // box, ball: the centre; mesh, tets: added to the given vertices.
    { key: 'position', kind: 'coord3', required: ['box', 'ball'], default: [0, 0, 0], unit: 'm' },
    { key: 'rotation', kind: 'quaternion', default: [0, 0, 0, 1] },
    { key: 'velocity', kind: 'coord3', default: [0, 0, 0], unit: 'm/s' },
    { key: 'halfExtents', kind: 'tuple', items: [SIZE, SIZE, SIZE], what: 'an array of 3 numbers', default: [0.25, 0.25, 0.25], shapes: ['box'], unit: 'm' },
    { key: 'radius', ...SIZE, default: 0.25, shapes: ['ball'] },
    { key: 'resolution', kind: 'integer', min: L.bodyResolution.min, max: L.bodyResolution.max, default: 4, shapes: ['box', 'ball', 'mesh'] },
    { key: 'mass', kind: 'mass', default: 1, unit: 'kg' },
    {
      key: 'particleRadius', kind: 'number', min: 0, max: L.maxBodyRadius, default: 0, unit: 'm',
      // What its range does not say (readBody checks it: src/minipbd.h PBD_MAX_RADIUS_SPACINGS).
      description: `contact radius (m), 0: half the lattice spacing (tets: half the shortest edge); at most ${MAX_RADIUS_SPACINGS} lattice `
        + 'spacings (tets: shortest edges): a contact radius reaches at most that many particle spacings',
    },
    paramsRow(type, 'stiffness'),
    { key: 'plasticity', kind: 'record', fields: [plastic('yield', 0.1), plastic('creep', 0, '1/s'), plastic('max', 0.5)] },
    // Local particle indices, below the body's count: the engine's (pbd_BodyCounts), so bodyCounts checks them; here
    // below the scene's particle limit.
    { key: 'pins', kind: 'list', item: { kind: 'integer', min: 0, range: () => PIN_RANGE }, max: L.maxPins, noun: 'particle indices', default: [] },
    { key: 'pinBoxes', kind: 'list', item: boxRecord('min', 'max'), max: L.maxPinBoxes, noun: 'boxes {min, max}', default: [] },
    // Its surface's colour (sRGB "#rrggbb", how it is drawn only); left out, its type's (render/palette.js).
    { key: 'colour', kind: 'colour' },
    {
      ...SIZE, key: 'size', shapes: ['mesh'],
      description: SIZE_TEXT,
    },
    { key: 'mesh', perShape: { mesh: SURFACE, tets: TETS }, required: ['tets'], shapes: ['mesh', 'tets'] },
    // The text of an OBJ file instead of `mesh` (exactly one of them), read into `mesh` (format/obj.js).
    { key: 'obj', kind: 'text', maxLength: L.maxObjBytes, shapes: ['mesh'], or: 'mesh', description: OBJ_TEXT },
    ...FILTER_ROWS,
  ];
}

/** The keys only some shapes have, by shape (in name order, as the messages list them). */
export const SHAPE_KEYS = Object.fromEntries(SHAPES.map((shape) => [shape,
  bodyFields('soft').filter((f) => f.shapes?.includes(shape)).map((f) => f.key).sort()]));
const ONLY_SOME = [...new Set(Object.values(SHAPE_KEYS).flat())];
/** Read by readBody after the others: the mesh and its size, then what is checked against the body's particle count. */
const LATE = ['size', 'mesh', 'obj', 'pins', 'pinBoxes', 'colour'];

// ---------------------------------------------------------------- reading

/**
 * Reads a soft or rigid body (`get` reads its own keys, already checked against the keys of `fields`, its type's
 * bodyFields). Returns the body normalised, keys in one order: its shape's own, the mesh last (it is the long one).
 */
export function readBody(fields, get, path, index, type) {
  const shape = fieldReader(fields, get, path, { type, index }).value('shape');
  for (const key of ONLY_SOME) {
    if (get(key) !== undefined && !SHAPE_KEYS[shape].includes(key)) {
      throw new SceneError(join(path, key), `${join(path, key)} is not a key of a ${shape} body (its own: ${SHAPE_KEYS[shape].join(', ')})`);
    }
  }
  const rows = variantRows(fields, shape);
  const body = fieldReader(rows, get, path, { type, index });
  const o = body.all(rows.filter((f) => !LATE.includes(f.key)));
  if (shape === 'mesh') {
    o.mesh = surface(get('mesh'), get('obj'), path, body);
    const size = fitMesh(o.mesh, body.value('size'));
    if (size !== undefined) o.size = size;
  }
  if (shape === 'tets') o.mesh = body.value('mesh');
  // A given radius reaches at most MAX_RADIUS_SPACINGS lattice spacings (tets: shortest edges); the engine refuses more.
  if (o.particleRadius > 0) {
    const problem = radiusSpacingProblem(o.particleRadius, Math.fround(2 * bodyDefaultRadius(o)), false);
    if (problem) {
      fail(join(path, 'particleRadius'), `must be at most ${MAX_RADIUS_SPACINGS} times the body's ${o.shape === 'tets' ? 'shortest edge' : 'lattice spacing'}, `
        + `${problem.spacing} m (${problem.limit} m: ${problem.why})`, o.particleRadius);
    }
  }
  o.pins = body.value('pins');
  o.pinBoxes = body.value('pinBoxes');
  if (get('colour') !== undefined) o.colour = body.value('colour');
  if (o.mesh) { const m = o.mesh; delete o.mesh; o.mesh = m; }
  return o;
}

// ---------------------------------------------------------------- the engine's counts, building

/** Sides of the body's box (the mesh's bounding box), before rotation. */
function sides(o) {
  if (o.shape === 'box') return o.halfExtents.map((h) => 2 * h);
  if (o.shape === 'ball') return [2 * o.radius, 2 * o.radius, 2 * o.radius];
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const v of o.mesh.vertices) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], v[k]); hi[k] = Math.max(hi[k], v[k]); }
  return hi.map((h, k) => h - lo[k]);
}

// The lattice's spacing as the engine plans it (src/builders/body.c), in its float32 arithmetic (Math.fround after
// every operation, as C rounds each one): the default contact radius is half of it (bodyDefaultRadius). Its particle
// counts are the engine's alone (bodyCounts: pbd_BodyCounts).
const f = Math.fround;

/** The lattice's spacing along each axis: box: `resolution` cells along the longest side, the others in proportion
 *  (each side cut evenly); ball: resolution cubes across; mesh: cubic cells, resolution along its bounds' longest side. */
function latticeSpacing(o) {
  const res = o.resolution;
  if (o.shape === 'box') {
    const h = o.halfExtents.map(f);
    const hmax = Math.max(...h);
    return h.map((x) => f(f(2 * x) / Math.max(1, Math.trunc(f(f(res * f(x / hmax)) + 0.5)))));
  }
  if (o.shape === 'ball') return [f(f(2 * f(o.radius)) / res)];
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const v of o.mesh.vertices) for (let k = 0; k < 3; k++) { const c = f(v[k]); lo[k] = Math.min(lo[k], c); hi[k] = Math.max(hi[k], c); }
  return [f(Math.max(...hi.map((x, k) => f(x - lo[k]))) / res)];
}

/** The flat arguments of pbdjs_AddBody / pbdjs_BodyCounts after the world id, with the mesh's arrays. */
function bodyArgs(o, typeCode) {
  const q = o.rotation;
  const h = o.halfExtents ?? [0, 0, 0];
  let vertices = new Float32Array(0), indices = new Uint32Array(0);
  if (o.mesh) {
    vertices = Float32Array.from(o.mesh.vertices.flat());
    indices = Uint32Array.from((o.mesh.triangles ?? o.mesh.tets).flat());
  }
  const scalars = [typeCode, SHAPE_CODE[o.shape], ...o.position, ...q, ...o.velocity, ...h, o.radius ?? 0, o.resolution ?? 0,
    o.mass, o.particleRadius];
  return { scalars, vertices, indices, resolution: o.resolution ?? 0 };
}

/** A mesh body's fill (body-fill.js) as a job for engine.prepareScene; null for the other shapes. */
export function bodyFillJob(engine, o, typeCode) {
  return o.shape === 'mesh' ? new BodyFillJob(engine, bodyArgs(o, typeCode)) : null;
}

/**
 * Runs pbdjs_<name> with the body's arguments (`world` first when given) and its arrays copied into wasm memory; a
 * mesh body's cells are found first, once (body-fill.js), and given to both the counts and the build.
 */
function callWithBody(engine, name, world, o, typeCode, out) {
  const args = bodyArgs(o, typeCode);
  const { scalars, vertices, indices } = args;
  const cells = (o.shape === 'mesh' && bodyCells(engine, args)) || new Uint8Array(0);
  return engine.heap.withArrays([vertices, indices, cells], (vp, ip, cp) => {
    const flat = [...(world === null ? [] : [world]), ...scalars, vp, vertices.length / 3, ip, indices.length, cp];
    return out ? engine.heap.out(name, flat, false) : engine.exports[name](...flat);
  });
}

const refused = (o, index, message) => {
  const path = join(join('objects', index), o.mesh ? 'mesh' : 'shape');
  return new SceneError(path, `${path} is refused by the engine: ${message}`);
};

/**
 * What the engine reserves for the body (pbd_BodyCounts: it validates the body, and its message becomes a
 * SceneError's); the pins are checked against the exact particle count here.
 */
export function bodyCounts(engine, o, index, typeCode) {
  const r = callWithBody(engine, 'pbdjs_BodyCounts', null, o, typeCode, true);
  if (r < 0) throw refused(o, index, engine.lastError(0));
  const [particles, edges, tets, skinVertices, skinTriangles] = engine.heap.int32s(5);
  o.pins.forEach((p, i) => {
    if (p >= particles) fail(join(join(join('objects', index), 'pins'), i), `must be an integer in 0..${particles - 1} (the body has ${particles} particles)`, p);
  });
  return { particles, constraints: edges, triangles: 0, lines: 0, tets, skinVertices, skinTriangles };
}

/** Adds the body to world `id`: pbdjs_AddBody, then its plasticity and pins; returns its first particle. */
export function buildBody(engine, id, o, index, typeCode) {
  const e = engine.exports;
  const r = callWithBody(engine, 'pbdjs_AddBody', id, o, typeCode, false);
  if (r < 0) throw refused(o, index, engine.lastError(id));
  const first = r;
  const { yield: y, creep, max } = o.plasticity;
  engine.check(e.pbd_World_SetObjectPlasticity(id, index, y, creep, max), 'engine', id);
  for (const p of pinnedBy(engine, id, o, first)) engine.check(e.pbd_World_SetInvMass(id, first + p, 0), 'engine', id);
  return first;
}

/** Local particles pinned by `pins` and `pinBoxes` (rest positions read from the world just built). */
function pinnedBy(engine, id, o, first) {
  const pins = new Set(o.pins);
  if (o.pinBoxes.length === 0) return pins;
  const count = engine.exports.pbd_World_GetParticleCount(id) - first;
  const x = engine.heap.bufferView(id, BUFFER.positions, Float32Array, 4);
  // The body's frame: r = R(q)^T (x - position), q normalised (as the engine does).
  const [qx, qy, qz, qw] = o.rotation.map((c, _, q) => c / Math.hypot(...q));
  for (let j = 0; j < count; j++) {
    const d = [0, 1, 2].map((k) => x[4 * (first + j) + k] - o.position[k]);
    const r = rotate([-qx, -qy, -qz, qw], d);
    if (o.pinBoxes.some((b) => r.every((v, k) => v >= b.min[k] && v <= b.max[k]))) pins.add(j);
  }
  return pins;
}

/** v rotated by the unit quaternion q = [x, y, z, w]: v + 2w (u x v) + 2 u x (u x v). */
export function rotate([x, y, z, w], [vx, vy, vz]) {
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

// ---------------------------------------------------------------- mass, size, drawing

/** The mass of each particle, as the engine spreads the body's: float32 mass / count, rounded to float32. */
export function bodyParticleMass(o, count) { return Math.fround(Math.fround(o.mass) / count); }

/** Local particles whose mass setObjectMass leaves alone: the pinned ones (w = 0 in `world`, else `pins`). */
export function bodyOwnMass(o, world, index) {
  if (!world) return new Set(o.pins);
  const { firstParticle, particleCount } = world.objects[index];
  const x = world.positions;
  const keep = new Set();
  for (let j = 0; j < particleCount; j++) if (x[4 * (firstParticle + j) + 3] === 0) keep.add(j);
  return keep;
}

/** The body's largest size in metres. */
export function bodyExtent(o) { return Math.max(...sides(o)); }

/** The contact radius a body gets when its scene says 0: half its lattice spacing (a box's shortest), tets: half
 *  their shortest edge; as the engine computes it. */
export function bodyDefaultRadius(o) {
  if (o.shape !== 'tets') return f(Math.min(...latticeSpacing(o)) * 0.5);
  const v = o.mesh.vertices.map((p) => p.map(f));
  let shortest2 = Infinity;
  for (const t of o.mesh.tets) {
    for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) {
      const d = [0, 1, 2].map((k) => f(v[t[a]][k] - v[t[b]][k]));
      shortest2 = Math.min(shortest2, f(f(f(d[0] * d[0]) + f(d[1] * d[1])) + f(d[2] * d[2])));
    }
  }
  return f(0.5 * f(Math.sqrt(shortest2)));
}

/** Particles drawn at their contact radius (default: half the lattice spacing). */
export function bodySprite(o) {
  const radius = o.particleRadius > 0 ? o.particleRadius : bodyDefaultRadius(o);
  return { radius, pinnedRadius: radius * 1.3, columns: 0, rows: 0, colour: o.colour ?? null };
}

/**
 * The per-object material the panel shows beside the stiffness: plasticity (World.setObjectPlasticity) and the
 * contact radius (World.setObjectRadius). `get(o)` reads a scene object, `write(world, index, v)` sets one.
 */
export const BODY_MATERIAL = Object.freeze([
  ...PLASTICITY.map((k) => Object.freeze({
    name: `plasticity.${k}`, min: L.plasticity[k].min, max: k === 'creep' ? 10 : 1, step: k === 'creep' ? 0.1 : 0.01,
    get: (o) => o.plasticity[k],
    write: (world, index, v) => world.setObjectPlasticity(index, { [k]: v }),
  })),
  Object.freeze({
    name: 'particleRadius', min: 0, max: 0.1, step: 0.001, get: (o) => o.particleRadius,
    write: (world, index, v) => world.setObjectRadius(index, v),
  }),
]);

export const BODY_MATERIAL_STRINGS = {
  en: {
    'material.plasticity.yield': 'Yield strain',
    'material.plasticity.yield.help': 'Strain past which the rest shape gives way (plasticity)',
    'material.plasticity.creep': 'Creep (1/s)',
    'material.plasticity.creep.help': 'How fast the rest shape follows the deformation past the yield; 0 = elastic',
    'material.plasticity.max': 'Max plastic strain',
    'material.plasticity.max.help': 'The most the rest shape may change in all',
    'material.particleRadius': 'Particle radius (m)',
    'material.particleRadius.help': 'Contact radius of the body\'s particles; 0 = half the lattice spacing',
  },
  zh: {
    'material.plasticity.yield': '屈服应变',
    'material.plasticity.yield.help': '超过此应变后静止形状开始让步（塑性）',
    'material.plasticity.creep': '蠕变（1/秒）',
    'material.plasticity.creep.help': '超过屈服后静止形状跟随变形的速度；0 = 纯弹性',
    'material.plasticity.max': '最大塑性应变',
    'material.plasticity.max.help': '静止形状总共最多可改变的量',
    'material.particleRadius': '粒子半径（米）',
    'material.particleRadius.help': '物体粒子的接触半径；0 = 晶格间距的一半',
  },
};
