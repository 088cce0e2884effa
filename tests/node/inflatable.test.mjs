// An inflatable of any closed mesh (objects/inflatable.js: `mesh` or `obj`, `size`, moved by `center`): read into the
// exact normalised mesh, counted by the engine (pbdjs_InflatableMeshCounts: V particles, 3 T constraints, T
// triangles), built by pbdjs_AddInflatable and holding its volume; an open mesh refused by the engine with its
// reason, nothing made; the sphere's keys refused beside a mesh.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadMiniPBD, validateScene, SceneError } from '../../web/js/minipbd.js';

const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));

// A cube of side 2 about the origin, its six faces as quads, counter-clockwise seen from outside (format/obj.js
// cuts each into two triangles, fanned from its first corner).
const CUBE_V = [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]];
const CUBE_F = [[1, 4, 3, 2], [5, 6, 7, 8], [1, 2, 6, 5], [4, 8, 7, 3], [1, 5, 8, 4], [2, 3, 7, 6]];
const objText = (faces) => [...CUBE_V.map((v) => `v ${v.join(' ')}`), ...faces.map((f) => `f ${f.join(' ')}`)].join('\n') + '\n';
const CUBE = objText(CUBE_F);
const SIDE = 0.4; // the scene's size: every vertex scaled by 0.4 / 2, exactly 0.2 in doubles

const scene = (o) => ({ format: 'minipbd-scene', version: 2, objects: [{ type: 'inflatable', center: [0, 0.5, 0], size: SIDE, ...o }] });

test('an inflatable with the OBJ of a closed cube reads into its 8 vertices scaled to size and 12 triangles, each quad fanned', () => {
  const s = validateScene(scene({ obj: CUBE }));
  const h = SIDE / 2;
  assert.deepEqual(s.objects[0], {
    type: 'inflatable', name: 'inflatable 1', center: [0, 0.5, 0], pressure: 1, mass: 0.0005, stiffness: { stretch: 0.3, bend: 0.02 },
    size: SIDE,
    mesh: {
      vertices: CUBE_V.map((v) => v.map((x) => x * h)),
      triangles: CUBE_F.flatMap(([a, b, c, d]) => [[a - 1, b - 1, c - 1], [a - 1, c - 1, d - 1]]),
    },
  });
  // the normalised scene reads as itself (the mesh already of its size), and the same mesh given as `mesh` reads the same
  assert.deepEqual(validateScene(s), s);
  assert.deepEqual(validateScene(scene({ mesh: s.objects[0].mesh })), s);
});

test('the cube builds with the engine\'s counts (8 particles, 36 constraints, 12 triangles) and holds its volume, side³, landing on the ground', () => {
  const sc = scene({ obj: CUBE });
  const counted = pbd.countScene(sc).objects[0];
  assert.deepEqual([counted.particles, counted.constraints, counted.triangles], [8, 36, 12]);
  const world = pbd.createWorld(sc);
  try {
    const o = world.objects[0];
    assert.deepEqual([world.particleCount, o.particleCount, o.constraintCount, o.triangleCount, world.triangles.length], [8, 8, 36, 12, 36]);
    const volume = () => { pbd.heap.out('pbdjs_GetInflatableVolume', [world.id, 0]); return pbd.heap.float64s(3); };
    const [v0, built, k] = volume();
    assert.ok(Math.abs(built - SIDE ** 3) < 1e-6 * SIDE ** 3 && Math.abs(v0 - built) < 1e-6 * built, `V0 ${built}, ${SIDE ** 3} wanted`);
    assert.equal(k, 1);
    world.step(200);
    const [v] = volume();
    assert.ok(Math.abs(v - SIDE ** 3) < 0.02 * SIDE ** 3, `volume ${v} after 200 steps, ${SIDE ** 3} built`);
    // It fell 0.1 m onto the ground (its bottom face at 0.3 m, its particles' contact radius half its shortest edge) and
    // rests there: the volume held through a landing, not in free fall alone.
    const radius = pbd.exports.pbd_World_GetObjectRadius(world.id, 0);
    const lowest = Math.min(...Array.from({ length: 8 }, (_, j) => world.positions[4 * j + 1]));
    assert.ok(Math.abs(radius - SIDE / 2) < 1e-6, `contact radius ${radius}`);
    assert.ok(Math.abs(lowest - radius) < 1e-3, `lowest particle at ${lowest} m, resting on the ground at ${radius} m`);
  } finally {
    world.destroy();
  }
});

test('a cube missing a face is refused with the engine\'s reason (the surface is open) and no world is made', () => {
  const before = pbd.worlds.size;
  assert.throws(() => pbd.createWorld(scene({ obj: objText(CUBE_F.slice(1)) })), (e) => e instanceof SceneError && e.path === 'objects[0].mesh'
    && e.message === 'objects[0].mesh is refused by the engine: invalid argument: inflatable: the surface is open: edge 0-1 of triangle 2 has no triangle across it');
  assert.equal(pbd.worlds.size, before);
});

test('the sphere\'s keys beside a mesh, size without one, and mesh with obj are refused with exact messages', () => {
  const refused = (o, path, message) => assert.throws(() => validateScene(scene(o)), (e) => e instanceof SceneError && e.path === path && e.message === message);
  refused({ obj: CUBE, radius: 0.2 }, 'objects[0].radius', 'objects[0].radius is not a key of an inflatable with "obj"');
  refused({ obj: CUBE, resolution: 3 }, 'objects[0].resolution', 'objects[0].resolution is not a key of an inflatable with "obj"');
  refused({}, 'objects[0].size', 'objects[0].size is not a key of an inflatable without a mesh');
  // both: the mesh bodies' message (surface-mesh.js), naming the inflatable
  const { mesh } = validateScene(scene({ obj: CUBE })).objects[0];
  refused({ obj: CUBE, mesh }, 'objects[0].mesh',
    'objects[0].mesh is required: an inflatable takes "mesh" {vertices, triangles} or "obj" (OBJ text), exactly one');
});
