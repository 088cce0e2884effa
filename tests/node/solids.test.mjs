// Soft and rigid bodies in the JS engine and the scene format (the solids), on the shipped dist/minipbd.wasm: the new
// keys' exact normalisation and refusals, the built-in solid scenes built with the engine's own counts, masses,
// pins and material, a failed build that leaves the engine usable, links that replay a solid scene bit for bit
// and refuse one too large, and the CLI's --obj.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  loadMiniPBD, validateScene, SceneError, MiniPBDError, builtinScenes, BUILTIN_SCENE_IDS, loadBuiltinScene, encodeLink, decodeRun,
  LinkError, Recorder, Replayer, OBJECT_TYPES, SCENE_LIMITS,
} from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasm = fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm'));
const pbd = await loadMiniPBD(wasm);
const type = (name) => OBJECT_TYPES.find((t) => t.type === name);
const scene = (...objects) => ({ format: 'minipbd-scene', version: 2, objects });
const caught = (fn) => { try { fn(); } catch (e) { return e; } return assert.fail('expected a throw'); };
const SOLID_IDS = ['jelly', 'box-stack', 'bend-bar', 'trampoline', 'bunny'];
const OCTAHEDRON = fs.readFileSync(path.join(root, 'tests', 'node', 'fixtures', 'obj', 'octahedron.obj'), 'utf8');
const TORUS = fs.readFileSync(path.join(root, 'tests', 'node', 'fixtures', 'obj', 'torus.obj'), 'utf8');

// ---------------------------------------------------------------- the scene format

test('a minimal soft box and rigid ball get every default, in one key order', () => {
  const s = validateScene(scene(
    { type: 'soft', shape: 'box', position: [0, 1, 0] },
    { type: 'rigid', shape: 'ball', position: [1, 2, 3], radius: 0.4, resolution: 6, mass: 3, stiffness: 0.5 },
  ));
  const plasticity = { yield: 0.1, creep: 0, max: 0.5 };
  assert.deepEqual(s.objects, [
    { type: 'soft', name: 'soft 1', shape: 'box', position: [0, 1, 0], rotation: [0, 0, 0, 1], velocity: [0, 0, 0],
      halfExtents: [0.25, 0.25, 0.25], resolution: 4, mass: 1, particleRadius: 0, stiffness: { edge: 1, volume: 1 }, plasticity,
      pins: [], pinBoxes: [] },
    { type: 'rigid', name: 'rigid 2', shape: 'ball', position: [1, 2, 3], rotation: [0, 0, 0, 1], velocity: [0, 0, 0],
      radius: 0.4, resolution: 6, mass: 3, particleRadius: 0, stiffness: 0.5, plasticity, pins: [], pinBoxes: [] },
  ]);
  assert.deepEqual(validateScene(s), s, 'normalised once, the same again');
  // A box's particles are its lattice's nodes: resolution cells along the longest side, the others in proportion
  // (the engine's counts: the validator has none).
  assert.equal(type('soft').counts(pbd, s.objects[0], 0).particles, 5 ** 3);
  const bar = validateScene(scene({ type: 'soft', shape: 'box', position: [0, 1, 0], halfExtents: [0.5, 0.1, 0.05], resolution: 10 })).objects[0];
  assert.equal(type('soft').counts(pbd, bar, 0).particles, 11 * 3 * 2);
});

test('an OBJ text becomes the mesh it describes; tets keep their vertices as particles', () => {
  const fromObj = validateScene(scene({ type: 'soft', shape: 'mesh', obj: OCTAHEDRON })).objects[0];
  assert.deepEqual(Object.keys(fromObj), ['type', 'name', 'shape', 'position', 'rotation', 'velocity', 'resolution', 'mass',
    'particleRadius', 'stiffness', 'plasticity', 'pins', 'pinBoxes', 'mesh']);
  assert.deepEqual(fromObj.mesh.vertices, [[0.5, 0, 0], [-0.5, 0, 0], [0, 0.5, 0], [0, -0.5, 0], [0, 0, 0.5], [0, 0, -0.5]]);
  assert.deepEqual(fromObj.mesh.triangles[0], [0, 2, 4]);
  assert.equal(fromObj.mesh.triangles.length, 8);
  const given = validateScene(scene({ type: 'soft', shape: 'mesh', mesh: fromObj.mesh })).objects[0];
  assert.deepEqual(given, fromObj, 'the same body whether given as OBJ text or as a mesh');
  const tets = validateScene(scene({ type: 'rigid', shape: 'tets', position: [0, 1, 0],
    mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], tets: [[0, 1, 2, 3], [1, 2, 3, 4]] } })).objects[0];
  assert.equal(type('rigid').counts(pbd, tets, 0).particles, 5);
  assert.equal(Object.hasOwn(tets, 'resolution'), false, 'given tets have no lattice');
});

const solid = (o) => () => scene({ type: 'soft', shape: 'box', position: [0, 1, 0], ...o });
const BAD = [
  ['no shape', () => scene({ type: 'soft', position: [0, 1, 0] }), 'objects[0].shape', /is required/],
  ['unknown shape', solid({ shape: 'cone' }), 'objects[0].shape', /must be "box", "ball", "mesh", "tets"/],
  ['box without position', () => scene({ type: 'rigid', shape: 'box' }), 'objects[0].position', /is required/],
  ['radius on a box', solid({ radius: 1 }), 'objects[0].radius', /is not a key of a box body/],
  ['halfExtents on a ball', solid({ shape: 'ball', halfExtents: [1, 1, 1] }), 'objects[0].halfExtents', /is not a key of a ball body/],
  ['resolution on tets', () => scene({ type: 'soft', shape: 'tets', resolution: 4, mesh: {} }), 'objects[0].resolution', /not a key of a tets body/],
  ['a cloth key', solid({ origin: [0, 0, 0] }), 'objects[0].origin', /unknown key/],
  ['resolution 0', solid({ resolution: 0 }), 'objects[0].resolution', /must be an integer in 1\.\.48/],
  ['resolution 49', solid({ resolution: 49 }), 'objects[0].resolution', /must be an integer in 1\.\.48/],
  ['half extent 0', solid({ halfExtents: [0.1, 0, 0.1] }), 'objects[0].halfExtents[1]', /must be a number in \(0, 10000\]/],
  ['zero quaternion', solid({ rotation: [0, 0, 0, 0] }), 'objects[0].rotation', /non-zero quaternion/],
  ['NaN velocity', solid({ velocity: [0, NaN, 0] }), 'objects[0].velocity[1]', /must be a number/],
  ['mass 0', solid({ mass: 0 }), 'objects[0].mass', /must be a number in \(0, 1000000\]/],
  ['particle radius 2', solid({ particleRadius: 2 }), 'objects[0].particleRadius', /must be a number in \[0, 1\]/],
  ['soft stiffness as a number', solid({ stiffness: 1 }), 'objects[0].stiffness', /must be an object/],
  ['soft stiffness key of a rigid', solid({ stiffness: { shape: 1 } }), 'objects[0].stiffness.shape', /unknown key/],
  ['rigid stiffness 1.5', () => scene({ type: 'rigid', shape: 'box', position: [0, 1, 0], stiffness: 1.5 }), 'objects[0].stiffness', /must be a number in \[0, 1\]/],
  ['creep above 1000', solid({ plasticity: { creep: 1001 } }), 'objects[0].plasticity.creep', /must be a number in \[0, 1000\]/],
  ['yield negative', solid({ plasticity: { yield: -0.1 } }), 'objects[0].plasticity.yield', /must be a number in \[0, 10\]/],
  ['plasticity key', solid({ plasticity: { rate: 1 } }), 'objects[0].plasticity.rate', /unknown key/],
  // the engine's count (pbd_BodyCounts): the validator bounds a pin by the scene's particle limit only
  ['pin past the lattice', solid({ pins: [125] }), 'objects[0].pins[0]', /must be an integer in 0\.\.124 \(the body has 125 particles\)/],
  ['pin box upside down', solid({ pinBoxes: [{ min: [0, 0, 0], max: [1, -1, 1] }] }), 'objects[0].pinBoxes[0].max[1]', /must not be below min\[1\]/],
  ['17 pin boxes', solid({ pinBoxes: Array(17).fill({ min: [0, 0, 0], max: [1, 1, 1] }) }), 'objects[0].pinBoxes', /at most 16 boxes/],
  ['mesh and obj both', () => scene({ type: 'soft', shape: 'mesh', obj: OCTAHEDRON, mesh: { vertices: [], triangles: [] } }), 'objects[0].mesh', /exactly one/],
  ['mesh body without a mesh', () => scene({ type: 'soft', shape: 'mesh' }), 'objects[0].mesh', /exactly one/],
  ['bad OBJ text', () => scene({ type: 'soft', shape: 'mesh', obj: 'v 0 0 NaN\n' }), 'objects[0].obj', /refused: OBJ line 1: vertex coordinate "NaN"/],
  ['obj not text', () => scene({ type: 'soft', shape: 'mesh', obj: 7 }), 'objects[0].obj', /must be the text of an OBJ file/],
  ['triangle index out of range', () => scene({ type: 'soft', shape: 'mesh',
    mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], triangles: [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 4]] } }),
  'objects[0].mesh.triangles[3][2]', /must be an integer in 0\.\.3/],
  ['vertex beyond 1e5', () => scene({ type: 'soft', shape: 'mesh', mesh: { vertices: [[0, 0, 2e5], [1, 0, 0], [0, 1, 0], [0, 0, 1]], triangles: [] } }),
    'objects[0].mesh.vertices[0][2]', /must be a number in \[-100000, 100000\]/],
  ['a vertex of 2', () => scene({ type: 'soft', shape: 'tets', mesh: { vertices: [[0, 0, 0], [1, 0], [0, 1, 0], [0, 0, 1]], tets: [[0, 1, 2, 3]] } }),
    'objects[0].mesh.vertices[1]', /must be an array of 3 numbers/],
  ['no tets', () => scene({ type: 'soft', shape: 'tets', mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], tets: [] } }),
    'objects[0].mesh.tets', /an array of 1\.\.200000 tets/],
  ['tets with triangles', () => scene({ type: 'soft', shape: 'tets', mesh: { vertices: [], triangles: [] } }), 'objects[0].mesh.triangles', /unknown key/],
];

test(`a table of ${BAD.length} bad bodies: each refused by createWorld with its path and a message naming it`, () => {
  for (const [what, make, where, message] of BAD) {
    const e = caught(() => pbd.createWorld(make()));
    assert.ok(e instanceof SceneError, what);
    assert.equal(e.path, where, what);
    assert.match(e.message, message, what);
  }
});

test('the scene\'s mesh totals are bounded: many large meshes cannot pass as one scene', () => {
  const vertices = Array.from({ length: 60000 }, (_, i) => [i % 100, Math.floor(i / 100) % 100, Math.floor(i / 10000)]);
  const body = { type: 'soft', shape: 'mesh', mesh: { vertices, triangles: [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] } };
  assert.doesNotThrow(() => validateScene(scene(body, body, body)));
  const e = caught(() => validateScene(scene(body, body, body, body)));
  assert.equal(e.path, 'objects');
  assert.match(e.message, /at most 200000 mesh vertices and 400000 triangles and tets in total \(exceeded at objects\[3\]\)/);
  assert.equal(SCENE_LIMITS.maxMeshVertices, 200000);
});

// ---------------------------------------------------------------- in the engine

/** pbdjs_BodyCounts of a validated body, through the type (as createWorld reserves). */
const bodyCounts = (o, k = 0) => type(o.type).counts(pbd, o, k);
const finite = (a) => a.every(Number.isFinite);

test('the solid built-in scenes build with the engine\'s counts, reserve their tets and skins, and step finite', async () => {
  for (const id of SOLID_IDS) {
    assert.ok(BUILTIN_SCENE_IDS.includes(id), id);
    const s = await loadBuiltinScene(id);
    assert.equal(s, await loadBuiltinScene(id), `${id}: loaded once`);
    const world = pbd.createWorld(s);
    let particles = 0, tets = 0, skinVertices = 0, skinTriangles = 0;
    s.objects.forEach((o, k) => {
      const info = world.objects[k];
      assert.equal(info.firstParticle, particles, `${id}[${k}] follows the one before`);
      particles += info.particleCount;
      if (o.type !== 'soft' && o.type !== 'rigid') return;
      const c = bodyCounts(o, k);
      assert.deepEqual([info.particleCount, info.constraintCount, info.tetCount, info.skinVertexCount, info.skinTriangleCount],
        [c.particles, c.constraints, c.tets, c.skinVertices, c.skinTriangles], `${id}[${k}] counts`);
      assert.equal(info.tetCount > 0, o.type === 'soft', `${id}[${k}]: soft bodies have tets, rigid ones none`);
      assert.equal(info.firstTet, tets);
      assert.equal(info.firstSkinVertex, skinVertices);
      assert.equal(info.firstSkinTriangle, skinTriangles);
      tets += info.tetCount;
      skinVertices += info.skinVertexCount;
      skinTriangles += info.skinTriangleCount;
      assert.ok(info.skinTriangleCount > 0, `${id}[${k}] has a skin`);
    });
    assert.equal(world.particleCount, particles);
    world.updateSkin();
    assert.equal(world.skinPositions.length, 4 * skinVertices, id);
    assert.equal(world.skinNormals.length, 4 * skinVertices, id);
    assert.equal(world.skinTriangles.length, 3 * skinTriangles, id);
    for (const i of world.skinTriangles) assert.ok(i < skinVertices);
    world.step(120);
    world.updateSkin();
    assert.ok(finite(world.positions) && finite(world.velocities), `${id}: finite after 120 steps`);
    assert.ok(finite(world.skinPositions) && finite(world.skinNormals), `${id}: a finite skin`);
    world.destroy();
  }
});

/** The mean of object k's particle positions. */
function centre(world, k) {
  const { firstParticle, particleCount } = world.objects[k];
  const c = [0, 0, 0];
  for (let j = 0; j < particleCount; j++) for (let a = 0; a < 3; a++) c[a] += world.positions[4 * (firstParticle + j) + a] / particleCount;
  return c;
}
const lowest = (world, k) => {
  const { firstParticle, particleCount } = world.objects[k];
  let y = Infinity;
  for (let j = 0; j < particleCount; j++) y = Math.min(y, world.positions[4 * (firstParticle + j) + 1]);
  return y;
};

test('the scenes do what they say: the stack stands 60 s, the bar keeps its bend, bodies rest on the trampoline', async () => {
  const stack = pbd.createWorld(await loadBuiltinScene('box-stack'));
  const start = stack.scene.objects.map((_, k) => centre(stack, k));
  stack.step(3600);
  for (let k = 0; k < 10; k++) {
    const d = Math.hypot(...centre(stack, k).map((v, a) => v - start[k][a]));
    assert.ok(d < 0.01, `block ${k + 1} moved ${d} m in 60 s`);
  }
  stack.destroy();

  // The bar's free end dragged 25 cm down over 1 s, held 0.5 s, let go: it keeps most of the bend, and springs
  // back without plasticity (to within 1% of its length of where the same bar left alone rests, sagging under its
  // weight: 1.2 cm since its volume is held cell by cell, scene version 3, which no longer stiffens it).
  const bar = await loadBuiltinScene('bend-bar');
  const bend = (plastic, drag = true) => {
    const s = structuredClone(bar);
    if (!plastic) s.objects[0].plasticity.creep = 0;
    const w = pbd.createWorld(s);
    const { firstParticle, particleCount } = w.objects[0];
    const tip = []; // the free end face's particles, as built
    for (let j = 0; j < particleCount; j++) if (w.positions[4 * (firstParticle + j)] > s.objects[0].halfExtents[0] - 1e-3) tip.push(firstParticle + j);
    assert.equal(tip.length, 9);
    const tipY = () => lowest(w, 0);
    const y0 = tipY(); // straight, as built
    w.step(60);
    const at = tip.map((i) => [0, 1, 2].map((a) => w.positions[4 * i + a]));
    const ids = tip.map((i, t) => w.addAttachment(i, at[t], 1));
    for (let i = 1; i <= 90; i++) {
      const down = 0.25 * Math.min(i, 60) / 60;
      if (drag) ids.forEach((id, t) => w.moveAttachment(id, [at[t][0], at[t][1] - down, at[t][2]]));
      w.step(1);
    }
    const held = y0 - tipY();
    ids.forEach((id) => w.removeAttachment(id));
    w.step(240);
    const kept = y0 - tipY();
    w.destroy();
    return { held, kept };
  };
  const plastic = bend(true), elastic = bend(false), alone = bend(false, false);
  assert.ok(plastic.held > 0.2 && plastic.kept > 0.5 * plastic.held, `plastic: ${JSON.stringify(plastic)}`);
  assert.ok(Math.abs(alone.kept) < 0.02, `left alone the bar sags ${alone.kept} m`);
  assert.ok(elastic.held > 0.2 && Math.abs(elastic.kept - alone.kept) < 0.01 * 0.8, `elastic: ${JSON.stringify(elastic)}, alone ${alone.kept}`);

  // A 2 kg block, a soft ball and a soft cube on a 0.96 kg cloth: after 10 s they lie on it, above its lowest point.
  const tramp = pbd.createWorld(await loadBuiltinScene('trampoline'));
  tramp.step(600);
  const cloth = lowest(tramp, 0);
  assert.ok(cloth > 0.5, `the cloth holds (its lowest particle at ${cloth} m)`);
  for (let k = 1; k < 4; k++) {
    assert.ok(lowest(tramp, k) > cloth - 0.1 && centre(tramp, k)[1] > cloth, `${tramp.scene.objects[k].name} is on the cloth`);
  }
  assert.ok(tramp.stats().kineticEnergy < 0.01, 'and at rest');
  tramp.destroy();
});

// The trampoline's cloth and its soft cube at lattice resolution 5 (particle radius 2.4 cm, its lattice nearly the
// cloth's 5.1 cm step): set down 5 cm over the cloth it fell through it between the cloth's particles until the
// contacts kept solid particles on their side of a cloth's triangles (families/contacts_sheets.c; the C test
// BodiesStayOnClothAnyResolution runs the same natively).
test('a soft and a rigid cube of resolution 5 set down on the trampoline\'s cloth stay on it, at rest', async () => {
  const base = await loadBuiltinScene('trampoline');
  for (const kind of ['soft', 'rigid']) {
    const cube = { ...base.objects[3], type: kind, resolution: 5, position: [0, 1.07, -0.16] };
    if (kind === 'rigid') delete cube.stiffness;
    const world = pbd.createWorld({ ...base, objects: [base.objects[0], cube] });
    world.step(300);
    const cloth = world.objects[0], body = world.objects[1];
    let cy = 0;
    for (let j = 0; j < body.particleCount; j++) cy += world.positions[4 * (body.firstParticle + j) + 1];
    cy /= body.particleCount;
    let clothLowest = Infinity;
    for (let i = 0; i < cloth.particleCount; i++) clothLowest = Math.min(clothLowest, world.positions[4 * i + 1]);
    assert.ok(cy > clothLowest + 0.05, `${kind}: the cube's centre at ${cy} m, the cloth's lowest particle at ${clothLowest}`);
    assert.ok(world.stats().kineticEnergy < 0.01, `${kind}: at rest (${world.stats().kineticEnergy} J)`);
    world.destroy();
  }
});

test('a body\'s mass is the whole body\'s, spread evenly; setObjectMass sets the whole body\'s and leaves pins pinned', () => {
  const world = pbd.createWorld(scene(
    { type: 'soft', shape: 'box', position: [0, 1, 0], halfExtents: [0.2, 0.1, 0.1], resolution: 4, mass: 3, pins: [0, 7] },
    { type: 'rigid', shape: 'ball', position: [1, 1, 0], radius: 0.2, resolution: 4, mass: 0.7 },
  ));
  const [box, ball] = world.objects;
  const w = (i) => world.positions[4 * i + 3];
  assert.equal(box.particleCount, 5 * 3 * 3);
  for (let j = 0; j < box.particleCount; j++) {
    assert.equal(w(box.firstParticle + j), j === 0 || j === 7 ? 0 : Math.fround(1 / Math.fround(Math.fround(3) / 45)), `box ${j}`);
  }
  for (let j = 0; j < ball.particleCount; j++) assert.equal(w(ball.firstParticle + j), Math.fround(1 / Math.fround(Math.fround(0.7) / ball.particleCount)));
  world.setObjectMass(0, 9);
  for (let j = 0; j < box.particleCount; j++) assert.equal(w(box.firstParticle + j), j === 0 || j === 7 ? 0 : Math.fround(1 / Math.fround(9 / 45)));
  assert.equal(world.describe().objects[0].mass, 9);
  const before = world.hash();
  assert.throws(() => world.setObjectMass(0, 1e-5), (e) => e instanceof MiniPBDError && /1e-5 kg over 45 particles|below 0.000001/.test(e.message));
  assert.equal(world.hash(), before);
  world.destroy();
});

test('pin boxes: the bar is pinned over its end face exactly, and those particles stay where they were', async () => {
  const s = await loadBuiltinScene('bend-bar');
  const world = pbd.createWorld(s);
  const { firstParticle, particleCount } = world.objects[0];
  const x0 = Array.from(world.positions.subarray(4 * firstParticle, 4 * (firstParticle + particleCount)));
  const pinned = [];
  for (let j = 0; j < particleCount; j++) if (x0[4 * j + 3] === 0) pinned.push(j);
  // The bar's end face at x = -halfExtents[0]: its 3 x 3 lattice nodes, and nothing else.
  const end = -s.objects[0].halfExtents[0];
  assert.equal(pinned.length, 9);
  for (let j = 0; j < particleCount; j++) assert.equal(pinned.includes(j), Math.abs(x0[4 * j] - end) < 1e-6, `particle ${j}`);
  world.step(60);
  for (const j of pinned) for (let k = 0; k < 3; k++) assert.equal(world.positions[4 * (firstParticle + j) + k], x0[4 * j + k]);
  const tip = world.positions[4 * (firstParticle + particleCount - 1) + 1];
  assert.ok(tip < x0[4 * (particleCount - 1) + 1], 'the free end sags');
  world.destroy();
});

test('plasticity and the contact radius: the engine and the description follow, refusals change nothing', () => {
  const world = pbd.createWorld(scene(
    { type: 'soft', shape: 'box', position: [0, 1, 0], halfExtents: [0.2, 0.2, 0.2], resolution: 4 },
    { type: 'rigid', shape: 'box', position: [1, 1, 0], halfExtents: [0.1, 0.1, 0.1], resolution: 2, particleRadius: 0.03 },
    { type: 'chain', start: [0, 3, 0], end: [1, 3, 0], segments: 4 },
  ));
  const e = pbd.exports;
  const plasticityOf = (k) => { pbd.heap.out('pbd_World_GetObjectPlasticity', [world.id, k]); return pbd.heap.float32s(3); };
  world.setObjectPlasticity(0, { creep: 4 });
  assert.deepEqual(plasticityOf(0), [Math.fround(0.1), 4, 0.5]);
  assert.deepEqual(world.describe().objects[0].plasticity, { yield: 0.1, creep: 4, max: 0.5 });
  world.setObjectPlasticity(1, { yield: 0.02, max: 1 });
  assert.deepEqual(world.describe().objects[1].plasticity, { yield: 0.02, creep: 0, max: 1 });
  // Radius: the default is half the lattice spacing (0.4 / 4 / 2); 0 goes back to it.
  assert.equal(world.getObjectRadius(0), Math.fround(0.05));
  assert.equal(world.getObjectRadius(1), Math.fround(0.03));
  world.setObjectRadius(0, 0.02);
  assert.equal(e.pbd_World_GetObjectRadius(world.id, 0), Math.fround(0.02));
  assert.equal(world.describe().objects[0].particleRadius, 0.02);
  world.setObjectRadius(1, 0);
  assert.equal(world.getObjectRadius(1), Math.fround(0.05), 'a rigid box of 0.2 m at resolution 2: half its 0.1 m spacing');
  assert.equal(world.describe().objects[1].particleRadius, 0);
  const hash = world.hash();
  const described = JSON.stringify(world.describe());
  const refusals = [
    () => world.setObjectPlasticity(0, { creep: -1 }), () => world.setObjectPlasticity(0, { yield: NaN }),
    () => world.setObjectPlasticity(0, { speed: 1 }), () => world.setObjectPlasticity(2, { creep: 1 }),
    () => world.setObjectPlasticity(3, { creep: 1 }), () => world.setObjectRadius(0, 1.5), () => world.setObjectRadius(0, '0.1'),
    () => world.setObjectRadius(2, 0.1),
  ];
  for (const r of refusals) assert.throws(r, (x) => x instanceof MiniPBDError && x.code === 'argument');
  assert.throws(() => world.setObjectRadius(2, 0.1), /object 2 \(a chain\) is not a body/);
  assert.equal(world.hash(), hash);
  assert.equal(JSON.stringify(world.describe()), described);
  assert.deepEqual(plasticityOf(0), [Math.fround(0.1), 4, 0.5]);
  assert.doesNotThrow(() => validateScene(world.describe()));
  world.destroy();
});

test('a soft body\'s volume and a rigid body\'s transform through the API', () => {
  const world = pbd.createWorld({ ...scene(
    { type: 'soft', shape: 'box', position: [0, 1, 0], halfExtents: [0.2, 0.1, 0.1], resolution: 4 },
    { type: 'rigid', shape: 'box', position: [1, 1, 0], halfExtents: [0.1, 0.1, 0.1], resolution: 2 },
  ), solver: { gravity: [0, 0, 0] }, ground: { enabled: false } });
  const v = world.getObjectVolume(0);
  assert.ok(Math.abs(v.rest - 0.4 * 0.2 * 0.2) < 1e-6, `rest volume ${v.rest}`);
  assert.ok(Math.abs(v.volume - v.rest) < 1e-6 && v.inverted === 0);
  world.step(2);
  const t = world.getBodyTransform(1);
  assert.ok(t, 'a rigid body has a transform');
  t.position.forEach((c, k) => assert.ok(Math.abs(c - [1, 1, 0][k]) < 1e-5, `centre ${k}`));
  assert.ok(Math.abs(Math.abs(t.rotation[3]) - 1) < 1e-5, 'no rotation');
  assert.equal(world.getBodyTransform(0), null, 'a soft body has none');
  world.destroy();
});

/** A unit square drawn on both of its sides (every edge shared by two triangles: closed), and a one-sided fan. */
const FLAT_CLOSED = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\nf 3 2 1\nf 4 3 1\n';
const FLAT_OPEN = 'v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 0.5 0\nv 0 1 0\nf 1 2 4\nf 2 3 4\nf 4 3 5\nf 1 4 5\n';

test('a refused body leaves no world behind and the engine as it was', async () => {
  const worlds = pbd.worlds.size;
  // (an open surface is a body since the generalized winding number: the inside-out one stays refused)
  const insideOut = fs.readFileSync(path.join(root, 'tests', 'node', 'fixtures', 'obj', 'bad', 'inside-out.obj'), 'utf8');
  const bunny = await loadBuiltinScene('bunny');
  const bad = [
    // the engine's checks: an inside-out surface; a pin at the exact count of a mesh body (past its last particle)
    [scene({ type: 'soft', shape: 'box', position: [0, 1, 0] }, { type: 'soft', shape: 'mesh', obj: insideOut }), 'objects[1].mesh', /the surface is inside out/],
    [{ ...bunny, objects: [{ ...bunny.objects[0], pins: [type('soft').counts(pbd, bunny.objects[0], 0).particles] }] }, 'objects[0].pins[0]',
      /must be an integer in 0\.\.\d+ \(the body has \d+ particles\)/],
    // a tet of zero volume
    [scene({ type: 'soft', shape: 'tets', mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], tets: [[0, 1, 2, 3]] } }), 'objects[0].mesh',
      /refused by the engine: invalid argument: tet 0 has zero volume/],
    // a lattice too coarse for any cell of a torus: its one cell's centre is in the hole
    [scene({ type: 'rigid', shape: 'mesh', resolution: 1, obj: TORUS }), 'objects[0].mesh',
      /no lattice cell has its centre inside the surface at resolution 1: raise the resolution/],
    // flat drawings (two of the common test models, the alligator and Woody, are planar triangulations): a square
    // drawn on both sides (closed) and a fan of one side (open) enclose no volume at any resolution: said so
    [scene({ type: 'soft', shape: 'mesh', resolution: 48, obj: FLAT_CLOSED }), 'objects[0].mesh',
      /the surface encloses no volume \(its box is 1 x 1 x 0\): a flat drawing, not a solid/],
    [scene({ type: 'rigid', shape: 'mesh', resolution: 48, obj: FLAT_OPEN }), 'objects[0].mesh',
      /the surface encloses no volume \(its box is 2 x 1 x 0\): a flat drawing, not a solid/],
  ];
  for (const [s, where, message] of bad) {
    const e = caught(() => pbd.createWorld(s));
    assert.ok(e instanceof SceneError, where);
    assert.equal(e.path, where);
    assert.match(e.message, message);
    assert.equal(pbd.worlds.size, worlds, 'no world left behind');
  }
  // The engine builds and runs exactly as a fresh one does.
  const fresh = await loadMiniPBD(wasm);
  const a = pbd.createWorld(builtinScenes.jelly);
  const b = fresh.createWorld(builtinScenes.jelly);
  a.step(30);
  b.step(30);
  assert.equal(a.hash(), b.hash());
  a.destroy();
  b.destroy();
});

// ---------------------------------------------------------------- links and recordings

test('a small solid scene round-trips a link with its recording and replays bit for bit; a too-large one is refused', async () => {
  const s = validateScene({ ...scene(
    { type: 'soft', name: 'cube', shape: 'box', position: [0, 0.4, 0], halfExtents: [0.15, 0.15, 0.15], resolution: 3,
      stiffness: { edge: 0.5, volume: 1 }, plasticity: { yield: 0.05, creep: 1, max: 0.3 } },
    { type: 'rigid', name: 'block', shape: 'box', position: [0.6, 0.2, 0], rotation: [0, 0.3826834, 0, 0.9238795], halfExtents: [0.1, 0.1, 0.2], resolution: 2 },
    { type: 'soft', name: 'gem', shape: 'mesh', position: [-0.6, 0.6, 0], resolution: 3, obj: OCTAHEDRON },
  ), name: 'solids' });
  const world = pbd.createWorld(s);
  const recorder = new Recorder(world);
  const grab = world.objects[0].firstParticle + 5;
  let id = 0;
  for (let step = 0; step < 150; step++) {
    if (step === 10) id = world.addAttachment(grab, [0.1, 0.9, 0.1], 1);
    if (step > 10 && step < 80) world.moveAttachment(id, [0.1 + step * 0.004, 0.9, 0.1 - step * 0.003]);
    if (step === 80) world.removeAttachment(id);
    if (step === 90) world.setParam('stiffness.volume', 0.8);
    world.step(1);
  }
  const replay = recorder.stop();
  const link = await encodeLink(s, { replay });
  const run = await decodeRun(link);
  assert.deepEqual(run.scene, s, 'the scene comes back exactly');
  const again = pbd.createWorld(run.scene);
  let ended = null;
  new Replayer(again, run.replay, { onEnd: (r) => { ended = r; } });
  again.step(150);
  assert.equal(ended?.exact, true, 'the replay ends in the recorded state');
  assert.equal(again.hash(), world.hash());
  world.destroy();
  again.destroy();

  const bunny = await loadBuiltinScene('bunny');
  await assert.rejects(encodeLink(bunny), (e) => e instanceof LinkError && e.reason === 'mesh-too-large'
    && e.message.startsWith('this scene\'s mesh is too large for a link: save it as a file'));
  // As a file it round-trips exactly.
  const file = JSON.stringify(bunny);
  assert.deepEqual(validateScene(JSON.parse(file)), bunny);
});

test('setting a body\'s plasticity or radius ends a recording before it, like a stiffness change', () => {
  const world = pbd.createWorld(builtinScenes.jelly);
  const recorder = new Recorder(world);
  world.step(5);
  world.setObjectPlasticity(0, { creep: 2 });
  assert.equal(recorder.active, false);
  assert.equal(recorder.stop().steps, 5);
  world.destroy();
});

// ---------------------------------------------------------------- the CLI

test('minipbd-run --obj drops a model into a scene; a bad one exits 2 with its reason', () => {
  const run = (...args) => spawnSync(process.execPath, [path.join(root, 'tools', 'minipbd-run.mjs'), ...args], { encoding: 'utf8' });
  const fixtures = path.join(root, 'tests', 'node', 'fixtures', 'obj');
  const soft = run('--obj', path.join(fixtures, 'torus.obj'), '--resolution', '6', '--steps', '30');
  assert.equal(soft.status, 0, soft.stderr);
  const out = JSON.parse(soft.stdout);
  assert.equal(out.scene, 'OBJ model: torus');
  assert.ok(out.particles > 0 && Number.isFinite(out.stats.kineticEnergy));
  const rigid = run('builtin:trampoline', '--obj', path.join(fixtures, 'cube.obj'), '--rigid', '--steps', '1');
  assert.equal(rigid.status, 0, rigid.stderr);
  assert.ok(JSON.parse(rigid.stdout).particles > 2076);
  for (const [file, reason] of [['bad/nan.obj', /OBJ line 3: vertex coordinate "NaN"/], ['bad/inside-out.obj', /inside out/],
    ['bad/garbage.bin', /not UTF-8 text/], ['missing.obj', /no such OBJ file/]]) {
    const r = run('--obj', path.join(fixtures, file));
    assert.equal(r.status, 2, file);
    assert.match(r.stderr, reason, file);
  }
  assert.equal(run('--obj', path.join(fixtures, 'cube.obj'), '--resolution', '49').status, 2);
  assert.equal(run('builtin:cloth', '--rigid').status, 2, '--rigid needs --obj');
});
