// Tests for web/js/format/scene.js (and the built-ins, format/builtin-scenes.js): normalisation, built-ins, and a table of refused scenes (path + message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { validateScene, SceneError, SCENE_LIMITS } from '../../web/js/format/scene.js';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { builtinScenes, defaultScene } from '../../web/js/format/builtin-scenes.js';
import { PARAMS } from '../../web/js/engine/params.js';
import { OBJECT_TYPES } from '../../web/js/objects/index.js';

// Particle counts are the engine's (engine/loader.js countScene): the validator has none of its own.
const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));
const sceneParticles = (s) => pbd.countScene(s).total.particles;

function caught(fn) {
  try { fn(); } catch (e) { return e; }
  assert.fail('expected a throw');
}

const minimalChain = () => ({
  format: 'minipbd-scene', version: 3,
  objects: [{ type: 'chain', start: [0, 2, 0], end: [1.5, 2, 0], segments: 20 }],
});

// A valid scene with one of each object type, every field given; bad cases below each break one thing.
const full = () => ({
  format: 'minipbd-scene', version: 3, name: 'base',
  solver: { dt: 0.01, substeps: 2, iterations: 8, gravity: [0, -9.81, 0], damping: 0.1, maxSpeed: 40, thickness: 0.02,
    tethers: 0.5, tetherSlack: 0.05, selfCollision: true, collisions: true, selfFriction: 0.35, tearStretch: 0.8, volumeSweeps: 6 },
  ground: { enabled: true, height: 0, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3 },
  camera: { target: [0, 1, 0], yaw: 0.6, pitch: 0.25, distance: 4, fov: 45 },
  wind: { velocity: [3, 0, 1], density: 1.2, drag: 0.9, lift: 0.2 },
  fluid: { restDensity: 998, spacing: 0.025, smoothingRadius: 0.05, relaxation: 0.02, scorr: { k: 0.05, n: 3, dq: 0.25 },
    vorticity: 0.02, viscosity: 0.05, sortInterval: 4, friction: 0.5 },
  colliders: [
    { type: 'sphere', name: 'ball', position: [0, 1, 0], radius: 0.4, staticFriction: 0.6, kineticFriction: 0.5, restitution: 0.1,
      glass: false },
    { type: 'capsule', name: 'rod', position: [1, 1, 0], rotation: [0, 0, 0.7071, 0.7071], radius: 0.1, halfHeight: 0.6,
      staticFriction: 0.5, kineticFriction: 0.4, restitution: 0, glass: false },
    { type: 'box', name: 'table', position: [0, 0.5, 0], rotation: [0, 0, 0, 1], halfExtents: [1, 0.05, 0.6],
      staticFriction: 0.5, kineticFriction: 0.4, restitution: 0, glass: true },
  ],
  objects: [
    { type: 'chain', name: 'pendulum', start: [0, 2, 0], end: [1.5, 2, 0], segments: 25, mass: 0.05, stiffness: 1,
      pins: [0], masses: [{ from: 25, to: 25, mass: 1 }] },
    { type: 'cloth', name: 'cloth', origin: [-1, 2, 0], size: [2, 2], resolution: [40, 40], plane: 'xy', mass: 0.01,
      stiffness: { stretch: 1, shear: 1, bend: 0.1 }, pins: [[0, 0], [39, 0]],
      masses: [{ from: [0, 0], to: [19, 39], mass: 0.1 }] },
  ],
});

test('minimal chain scene: every default filled in exactly', () => {
  assert.deepEqual(validateScene(minimalChain()), {
    format: 'minipbd-scene', version: 3, name: 'Untitled scene',
    // dt: the engine's float32 1/60, written as the shortest decimal that is that float (engine/param-table.js)
    solver: { dt: 0.016666668, substeps: 10, iterations: 1, gravity: [0, -9.81, 0], damping: 0, maxSpeed: 100,
      thickness: 0.01, tethers: 1, tetherSlack: 0, selfCollision: false, collisions: true, selfFriction: 0.2, tearStretch: 0,
      volumeSweeps: 8 },
    ground: { enabled: true, height: 0, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3 },
    camera: { target: [0, 1, 0], yaw: 0.6, pitch: 0.25, distance: 4, fov: 45 },
    wind: { velocity: [0, 0, 0], density: 0, drag: 1, lift: 0.3 },
    fluid: { restDensity: 1000, spacing: 0.02, smoothingRadius: 0.04, relaxation: 0.01, scorr: { k: 0.1, n: 4, dq: 0.2 },
      vorticity: 0.005, viscosity: 0.01, sortInterval: 1, friction: 0 },
    colliders: [],
    objects: [{ type: 'chain', name: 'chain 1', start: [0, 2, 0], end: [1.5, 2, 0], segments: 20, mass: 0.05,
      stiffness: 1, pins: [], masses: [] }],
  });
});

test('minimal cloth object and partial sections: defaults merged field by field', () => {
  const s = validateScene({
    format: 'minipbd-scene', version: 3,
    solver: { substeps: 4 }, ground: { enabled: false }, camera: { fov: 60 },
    objects: [
      { type: 'chain', start: [0, 0, 0], end: [0, 1, 0], segments: 1 },
      { type: 'cloth', origin: [0, 0, 0], size: [1, 1], resolution: [2, 3], stiffness: { bend: 0.5 } },
    ],
  });
  assert.equal(Math.fround(s.solver.dt), Math.fround(1 / 60), 'the float the engine has always used for 1/60');
  assert.deepEqual(s.solver, { dt: 0.016666668, substeps: 4, iterations: 1, gravity: [0, -9.81, 0], damping: 0, maxSpeed: 100,
    thickness: 0.01, tethers: 1, tetherSlack: 0, selfCollision: false, collisions: true, selfFriction: 0.2, tearStretch: 0,
    volumeSweeps: 8 });
  assert.deepEqual(s.ground, { enabled: false, height: 0, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3 });
  assert.deepEqual(s.camera, { target: [0, 1, 0], yaw: 0.6, pitch: 0.25, distance: 4, fov: 60 });
  assert.deepEqual(s.objects[1], {
    type: 'cloth', name: 'cloth 2', origin: [0, 0, 0], size: [1, 1], resolution: [2, 3], plane: 'xy', mass: 0.01,
    stiffness: { stretch: 1, shear: 1, bend: 0.5 }, pins: [], masses: [],
  });
  assert.equal(sceneParticles(s), 2 + 6);
});

test('maxSpeed, tetherSlack and selfFriction: kept when given, the engine\'s defaults when absent (older scenes)', () => {
  // A scene written before these were part of the format (every built-in's solver as it was then) gets the
  // engine's own defaults (src/minipbd.h PBD_PARAMS: maxSpeed 100, tetherSlack 0, selfFriction 0.2).
  const old = { format: 'minipbd-scene', version: 1,
    solver: { dt: 0.01, substeps: 2, iterations: 3, gravity: [0, -9.81, 0], damping: 0.1, thickness: 0.02, tethers: 0.5, selfCollision: true, tearStretch: 0 },
    objects: minimalChain().objects };
  const s = validateScene(old);
  assert.deepEqual([s.solver.maxSpeed, s.solver.tetherSlack, s.solver.selfFriction], [100, 0, 0.2]);
  assert.deepEqual(Object.keys(s.solver), ['dt', 'substeps', 'iterations', 'damping', 'gravity', 'maxSpeed', 'tethers', 'tetherSlack',
    'tearStretch', 'thickness', 'selfCollision', 'collisions', 'selfFriction', 'volumeSweeps'], 'in the engine table\'s order');
  const given = validateScene({ ...old, solver: { ...old.solver, maxSpeed: 12.5, tetherSlack: 0.25, selfFriction: 0.7 } });
  assert.deepEqual([given.solver.maxSpeed, given.solver.tetherSlack, given.solver.selfFriction], [12.5, 0.25, 0.7]);
  assert.deepEqual(validateScene(given), given, 'normalised once, the same again');
  // Every built-in takes the engine's defaults but the hanging cloth, which limits its speed to 6 m/s against knots
  // (builtin-scenes.js: 1 cm a substep, under the 2.7 cm to its plane over a grid square's centre).
  for (const [key, scene] of Object.entries(builtinScenes)) {
    assert.deepEqual([scene.solver.maxSpeed, scene.solver.tetherSlack, scene.solver.selfFriction], [key === 'cloth' ? 6 : 100, 0, 0.2], scene.name);
  }
  assert.deepEqual(['maxSpeed', 'tetherSlack', 'selfFriction'].map((n) => [PARAMS[n].min, PARAMS[n].max]),
    [[0.001, 1e4], [0, 1], [0, 1]], 'the engine\'s ranges');
});

test('versions: a version 1 scene without collisions collides objects exactly when it self-collides, as version 1 did', () => {
  const chain = minimalChain().objects[0];
  const v1 = (solver) => ({ format: 'minipbd-scene', version: 1, solver, objects: [chain, chain] });
  assert.equal(validateScene(v1({})).solver.collisions, false, 'no self-collision: objects passed through each other');
  assert.equal(validateScene(v1({ selfCollision: true })).solver.collisions, true, 'self-collision: every pair collided');
  assert.equal(validateScene(v1({ selfCollision: true, collisions: false })).solver.collisions, false, 'given: kept');
  assert.equal(validateScene(v1({ collisions: true })).solver.collisions, true, 'given: kept');
  // version 2 takes the engine's default, on
  const v2 = validateScene({ ...v1({}), version: 2 });
  assert.equal(v2.solver.collisions, PARAMS.collisions.default === 1);
  assert.equal(v2.solver.collisions, true);
  // normalised scenes are version 3, and normalising them again changes nothing
  const n = validateScene(v1({}));
  assert.equal(n.version, 3);
  assert.deepEqual(validateScene(n), n);
  assert.throws(() => validateScene({ ...v1({}), version: 4 }), (e) => e instanceof SceneError && e.path === 'version'
    && e.message === 'version must be 1, 2 or 3 (the scene versions this page reads), got 4');
});

test('versions: a version 1 or 2 scene without volumeSweeps keeps its soft bodies\' volume tet by tet, as it was made', () => {
  const chain = minimalChain().objects[0];
  const at = (version, solver) => validateScene({ format: 'minipbd-scene', version, solver, objects: [chain] }).solver.volumeSweeps;
  assert.equal(at(1, {}), 0);
  assert.equal(at(2, {}), 0);
  assert.equal(at(2, { volumeSweeps: 4 }), 4, 'given: kept');
  assert.equal(at(3, {}), PARAMS.volumeSweeps.default);
  assert.equal(PARAMS.volumeSweeps.default, 8);
  // normalised (version 3) the old scene says 0, so it stays 0 through a link or a file
  const n = validateScene({ format: 'minipbd-scene', version: 2, objects: [chain] });
  assert.equal(n.version, 3);
  assert.deepEqual(validateScene(n), n);
  assert.equal(validateScene(n).solver.volumeSweeps, 0);
});

test('ground: null means the default ground', () => {
  const s = validateScene({ ...minimalChain(), ground: null });
  assert.deepEqual(s.ground, { enabled: true, height: 0, restitution: 0.2, staticFriction: 0.4, kineticFriction: 0.3 });
});

test('full scene survives unchanged; output is a new object, input untouched', () => {
  const input = full();
  const before = JSON.stringify(input);
  const out = validateScene(input);
  assert.deepEqual(out, input);
  assert.equal(JSON.stringify(input), before);
  assert.notEqual(out, input);
  assert.notEqual(out.objects, input.objects);
  assert.notEqual(out.objects[1].pins[0], input.objects[1].pins[0]);
  assert.notEqual(out.solver.gravity, input.solver.gravity);
  assert.equal(sceneParticles(out), 26 + 1600);
});

test('-0 is normalised to 0 (JSON cannot carry -0, so link round trips stay exact)', () => {
  const s = validateScene({ ...minimalChain(), camera: { yaw: -0 } });
  assert.ok(Object.is(s.camera.yaw, 0));
});

test('boundaries that are allowed', () => {
  const s = full();
  Object.assign(s.solver, { dt: 0.1, substeps: 64, iterations: 200, gravity: [1000, -1000, 0], damping: 100, maxSpeed: 0.001,
    tetherSlack: 1, selfFriction: 0 });
  Object.assign(s.camera, { pitch: 1.549, distance: 0.05, fov: 120 });
  s.name = 'x'.repeat(80);
  s.objects[0].pins = [0, 25];
  s.objects[1].pins = [[39, 39]];
  s.objects[1].resolution = [2, 1024];
  s.objects[1].size = [2, 8]; // rows 8 / 1023 m apart: solver.thickness 0.02 is within 4 of them (MAX_RADIUS_SPACINGS)
  s.objects[1].pins = [[1, 1023]];
  s.objects[1].masses = [{ from: [0, 0], to: [1, 1023], mass: 1e6 }];
  s.objects[1].plane = 'xz';
  assert.doesNotThrow(() => validateScene(s));
  Object.assign(s.solver, { maxSpeed: 1e4, tetherSlack: 0, selfFriction: 1 });
  assert.doesNotThrow(() => validateScene(s));
  // Exactly the particle cap: 512*512 = 262144 (4 m wide, so the default thickness is within 4 grid steps).
  assert.doesNotThrow(() => validateScene({ format: 'minipbd-scene', version: 3,
    objects: [{ type: 'cloth', origin: [0, 0, 0], size: [4, 4], resolution: [512, 512] }] }));
  assert.doesNotThrow(() => validateScene({ ...minimalChain(), objects: Array.from({ length: 64 }, () => minimalChain().objects[0]) }));
});

test('every built-in scene is valid, normalised, frozen, and < 80-char named', () => {
  for (const id of ['chain', 'cloth', 'mass-split']) assert.ok(builtinScenes[id], id);
  for (const [id, scene] of Object.entries(builtinScenes)) {
    assert.deepEqual(validateScene(scene), scene, id);
    assert.ok(Object.isFrozen(scene) && Object.isFrozen(scene.objects[0]), id);
    assert.ok(scene.name.length > 0 && scene.name.length <= 80, id);
  }
  const chain = builtinScenes.chain.objects[0];
  assert.equal(chain.type, 'chain');
  assert.ok(chain.segments >= 20 && chain.segments <= 30);
  assert.deepEqual(chain.pins, [0]);
  assert.equal(chain.start[1], chain.end[1], 'chain starts horizontal');
  const cloth = builtinScenes.cloth.objects[0];
  assert.deepEqual([cloth.type, cloth.plane, cloth.size, cloth.resolution], ['cloth', 'xy', [2, 2], [40, 40]]);
  // its top corners, held inward (1.6 m apart: the drape, tests/node/drape.test.mjs) and 2 cm off the plane
  assert.deepEqual(cloth.pins, [[0, 0, -0.8, 2.5, 0.02], [39, 0, 0.8, 2.5, -0.02]]);
  // mass-split: within the scene some particles weigh 10..100x others.
  const ms = builtinScenes['mass-split'];
  const masses = ms.objects.flatMap((o) => [o.mass, ...o.masses.map((r) => r.mass)]);
  const ratio = Math.max(...masses) / Math.min(...masses);
  assert.ok(ratio >= 10 && ratio <= 100, `mass ratio ${ratio}`);
});

test('defaultScene returns a fresh mutable copy of the cloth scene', () => {
  const a = defaultScene();
  const b = defaultScene();
  assert.deepEqual(a, builtinScenes.cloth);
  assert.notEqual(a, b);
  a.objects[0].pins.push([1, 1]);
  assert.equal(builtinScenes.cloth.objects[0].pins.length, 2);
  assert.equal(b.objects[0].pins.length, 2);
});

test('SCENE_LIMITS quotes the numbers the validator enforces', () => {
  assert.equal(SCENE_LIMITS.maxObjects, 64);
  assert.equal(SCENE_LIMITS.maxParticles, 262144);
  assert.equal(SCENE_LIMITS.maxNameLength, 80);
  assert.deepEqual(SCENE_LIMITS.resolution, { min: 2, max: 1024 });
  assert.deepEqual(SCENE_LIMITS.segments, { min: 1, max: 10000 });
  assert.ok(Object.isFrozen(SCENE_LIMITS) && Object.isFrozen(SCENE_LIMITS.resolution));
  // No engine parameter's range is stated here: the table (engine/param-table.js) is the only one.
  for (const key of Object.keys(SCENE_LIMITS)) assert.equal(Object.hasOwn(PARAMS, key), false, key);
});

// [description, mutate(scene) or a whole input, expected path]
const withScene = (f) => () => { const s = full(); f(s); return s; };
const chain0 = (f) => withScene((s) => f(s.objects[0]));
const cloth1 = (f) => withScene((s) => f(s.objects[1]));
const jsonScene = (text) => () => JSON.parse(text);

const BAD = [
  ['input null', () => null, ''],
  ['input array', () => [], ''],
  ['input string', () => 'minipbd-scene', ''],
  ['format missing', withScene((s) => { delete s.format; }), 'format'],
  ['format wrong', withScene((s) => { s.format = 'other'; }), 'format'],
  ['version 4', withScene((s) => { s.version = 4; }), 'version'],
  ['version "1"', withScene((s) => { s.version = '1'; }), 'version'],
  ['unknown top-level key', withScene((s) => { s.foo = 1; }), 'foo'],
  ['odd unknown key is quoted in the path', withScene((s) => { s['a b'] = 1; }), '["a b"]'],
  ['__proto__ own key from JSON.parse', jsonScene('{"format":"minipbd-scene","version":1,"__proto__":{"x":1},"objects":[]}'), '__proto__'],
  ['__proto__ inside an object', () => { const s = full(); s.objects[0] = JSON.parse('{"__proto__":null,"type":"chain"}'); return s; }, 'objects[0].__proto__'],
  ['constructor key', withScene((s) => { s.solver.constructor = {}; }), 'solver.constructor'],
  ['prototype key', withScene((s) => { s.camera.prototype = 1; }), 'camera.prototype'],
  ['symbol key', withScene((s) => { s.ground[Symbol('x')] = 1; }), 'ground'],
  ['getter instead of value', withScene((s) => { Object.defineProperty(s.solver, 'dt', { get() { throw new Error('getter ran'); }, enumerable: true }); }), 'solver.dt'],
  ['inherited fields are not read', () => Object.create(full()), 'format'],
  ['name too long', withScene((s) => { s.name = 'n'.repeat(81); }), 'name'],
  ['name not a string', withScene((s) => { s.name = 42; }), 'name'],
  ['name with newline', withScene((s) => { s.name = 'a\nb'; }), 'name'],
  ['name with lone surrogate', withScene((s) => { s.name = 'a\ud800b'; }), 'name'],
  ['solver not an object', withScene((s) => { s.solver = [1]; }), 'solver'],
  ['solver.dt string', withScene((s) => { s.solver.dt = 'abc'; }), 'solver.dt'],
  ['solver.dt below its minimum', withScene((s) => { s.solver.dt = 0.0000999; }), 'solver.dt'],
  ['solver.dt above 0.1', withScene((s) => { s.solver.dt = 0.11; }), 'solver.dt'],
  ['solver.dt Infinity', withScene((s) => { s.solver.dt = Infinity; }), 'solver.dt'],
  ['solver.dt NaN', withScene((s) => { s.solver.dt = NaN; }), 'solver.dt'],
  ['solver.dt Number object', withScene((s) => { s.solver.dt = new Number(0.01); }), 'solver.dt'],
  ['solver.substeps non-integer', withScene((s) => { s.solver.substeps = 1.5; }), 'solver.substeps'],
  ['solver.substeps 65', withScene((s) => { s.solver.substeps = 65; }), 'solver.substeps'],
  ['solver.iterations 0', withScene((s) => { s.solver.iterations = 0; }), 'solver.iterations'],
  ['solver.iterations bigint', withScene((s) => { s.solver.iterations = 10n; }), 'solver.iterations'],
  ['solver.gravity too short', withScene((s) => { s.solver.gravity = [0, -9.81]; }), 'solver.gravity'],
  ['solver.gravity component too big', withScene((s) => { s.solver.gravity = [0, -1000.5, 0]; }), 'solver.gravity[1]'],
  ['solver.gravity -Infinity', withScene((s) => { s.solver.gravity = [0, 0, -Infinity]; }), 'solver.gravity[2]'],
  ['solver.damping negative', withScene((s) => { s.solver.damping = -1; }), 'solver.damping'],
  ['solver unknown key', withScene((s) => { s.solver.gravityY = 1; }), 'solver.gravityY'],
  ['solver.thickness 0', withScene((s) => { s.solver.thickness = 0; }), 'solver.thickness'],
  ['solver.tethers 2', withScene((s) => { s.solver.tethers = 2; }), 'solver.tethers'],
  ['solver.selfCollision 1', withScene((s) => { s.solver.selfCollision = 1; }), 'solver.selfCollision'],
  ['solver.tearStretch negative', withScene((s) => { s.solver.tearStretch = -0.1; }), 'solver.tearStretch'],
  ['solver.maxSpeed 0', withScene((s) => { s.solver.maxSpeed = 0; }), 'solver.maxSpeed'],
  ['solver.maxSpeed above 1e4', withScene((s) => { s.solver.maxSpeed = 10001; }), 'solver.maxSpeed'],
  ['solver.maxSpeed string', withScene((s) => { s.solver.maxSpeed = '100'; }), 'solver.maxSpeed'],
  ['solver.tetherSlack 1.5', withScene((s) => { s.solver.tetherSlack = 1.5; }), 'solver.tetherSlack'],
  ['solver.tetherSlack negative', withScene((s) => { s.solver.tetherSlack = -0.01; }), 'solver.tetherSlack'],
  ['solver.selfFriction 2', withScene((s) => { s.solver.selfFriction = 2; }), 'solver.selfFriction'],
  ['solver.selfFriction NaN', withScene((s) => { s.solver.selfFriction = NaN; }), 'solver.selfFriction'],
  ['wind not an object', withScene((s) => { s.wind = 3; }), 'wind'],
  ['wind.velocity NaN', withScene((s) => { s.wind.velocity = [NaN, 0, 0]; }), 'wind.velocity[0]'],
  ['wind.velocity too fast', withScene((s) => { s.wind.velocity = [0, 0, 2000]; }), 'wind.velocity[2]'],
  ['wind.density negative', withScene((s) => { s.wind.density = -1; }), 'wind.density'],
  ['wind unknown key', withScene((s) => { s.wind.gust = 1; }), 'wind.gust'],
  ['colliders not an array', withScene((s) => { s.colliders = {}; }), 'colliders'],
  ['17 colliders', withScene((s) => { s.colliders = Array.from({ length: 17 }, () => ({ type: 'sphere', position: [0, 0, 0] })); }), 'colliders'],
  ['collider type unknown', withScene((s) => { s.colliders[0].type = 'cone'; }), 'colliders[0].type'],
  ['collider without position', withScene((s) => { delete s.colliders[0].position; }), 'colliders[0].position'],
  ['sphere radius 0', withScene((s) => { s.colliders[0].radius = 0; }), 'colliders[0].radius'],
  ['sphere with halfExtents', withScene((s) => { s.colliders[0].halfExtents = [1, 1, 1]; }), 'colliders[0].halfExtents'],
  ['capsule zero quaternion', withScene((s) => { s.colliders[1].rotation = [0, 0, 0, 0]; }), 'colliders[1].rotation'],
  ['capsule halfHeight Infinity', withScene((s) => { s.colliders[1].halfHeight = Infinity; }), 'colliders[1].halfHeight'],
  ['box halfExtents short', withScene((s) => { s.colliders[2].halfExtents = [1, 1]; }), 'colliders[2].halfExtents'],
  ['box negative extent', withScene((s) => { s.colliders[2].halfExtents = [1, -1, 1]; }), 'colliders[2].halfExtents[1]'],
  ['box restitution 2', withScene((s) => { s.colliders[2].restitution = 2; }), 'colliders[2].restitution'],
  ['collider glass "yes"', withScene((s) => { s.colliders[0].glass = 'yes'; }), 'colliders[0].glass'],
  ['collider glass 1', withScene((s) => { s.colliders[2].glass = 1; }), 'colliders[2].glass'],
  ['collider __proto__', () => { const s = full(); s.colliders[0] = JSON.parse('{"__proto__":1,"type":"sphere","position":[0,0,0]}'); return s; }, 'colliders[0].__proto__'],
  ['ground array', withScene((s) => { s.ground = []; }), 'ground'],
  ['ground.enabled string', withScene((s) => { s.ground.enabled = 'yes'; }), 'ground.enabled'],
  ['ground.height too far', withScene((s) => { s.ground.height = 1e5; }), 'ground.height'],
  ['ground.restitution 1.5', withScene((s) => { s.ground.restitution = 1.5; }), 'ground.restitution'],
  ['ground.kineticFriction 11', withScene((s) => { s.ground.kineticFriction = 11; }), 'ground.kineticFriction'],
  ['camera.pitch at exclusive limit', withScene((s) => { s.camera.pitch = -1.55; }), 'camera.pitch'],
  ['camera.distance too small', withScene((s) => { s.camera.distance = 0.01; }), 'camera.distance'],
  ['camera.fov 121', withScene((s) => { s.camera.fov = 121; }), 'camera.fov'],
  ['camera.yaw Infinity', withScene((s) => { s.camera.yaw = Infinity; }), 'camera.yaw'],
  ['camera.target NaN', withScene((s) => { s.camera.target = [0, NaN, 0]; }), 'camera.target[1]'],
  ['objects missing', withScene((s) => { delete s.objects; }), 'objects'],
  ['objects empty', withScene((s) => { s.objects = []; }), 'objects'],
  ['65 objects', withScene((s) => { s.objects = Array.from({ length: 65 }, () => minimalChain().objects[0]); }), 'objects'],
  ['object is null', withScene((s) => { s.objects[1] = null; }), 'objects[1]'],
  ['object type unknown', cloth1((o) => { o.type = 'rope'; }), 'objects[1].type'],
  ['chain with a cloth key', chain0((o) => { o.origin = [0, 0, 0]; }), 'objects[0].origin'],
  ['cloth with a chain key', cloth1((o) => { o.segments = 3; }), 'objects[1].segments'],
  ['chain start missing', chain0((o) => { delete o.start; }), 'objects[0].start'],
  ['chain start beyond 1e4', chain0((o) => { o.start = [10001, 0, 0]; }), 'objects[0].start[0]'],
  ['chain start == end', chain0((o) => { o.end = [...o.start]; }), 'objects[0].end'],
  ['chain segments 0', chain0((o) => { o.segments = 0; }), 'objects[0].segments'],
  ['chain segments non-integer', chain0((o) => { o.segments = 2.5; }), 'objects[0].segments'],
  ['chain segments 10001', chain0((o) => { o.segments = 10001; }), 'objects[0].segments'],
  ['chain mass 0', chain0((o) => { o.mass = 0; }), 'objects[0].mass'],
  ['chain mass 1e7', chain0((o) => { o.mass = 1e7; }), 'objects[0].mass'],
  ['chain stiffness 1.1', chain0((o) => { o.stiffness = 1.1; }), 'objects[0].stiffness'],
  ['chain stiffness as cloth object', chain0((o) => { o.stiffness = { stretch: 1 }; }), 'objects[0].stiffness'],
  ['chain pin past the end', chain0((o) => { o.pins = [0, 26]; }), 'objects[0].pins[1]'],
  ['chain pin negative', chain0((o) => { o.pins = [-1]; }), 'objects[0].pins[0]'],
  ['chain pins not an array', chain0((o) => { o.pins = 0; }), 'objects[0].pins'],
  ['chain 10001 pins', chain0((o) => { o.pins = new Array(10001).fill(0); }), 'objects[0].pins'],
  ['chain pins sparse 1e9 (refused before looping)', chain0((o) => { o.pins = new Array(1e9); }), 'objects[0].pins'],
  ['chain pins with a hole', chain0((o) => { o.pins = [0, , 1]; }), 'objects[0].pins[1]'], // eslint-disable-line no-sparse-arrays
  ['chain mass range reversed', chain0((o) => { o.masses = [{ from: 5, to: 4, mass: 1 }]; }), 'objects[0].masses[0].to'],
  ['chain mass range past the end', chain0((o) => { o.masses = [{ from: 0, to: 26, mass: 1 }]; }), 'objects[0].masses[0].to'],
  ['chain mass range mass missing', chain0((o) => { o.masses = [{ from: 0, to: 1 }]; }), 'objects[0].masses[0].mass'],
  ['chain mass range unknown key', chain0((o) => { o.masses = [{ from: 0, to: 1, mass: 1, kg: 1 }]; }), 'objects[0].masses[0].kg'],
  ['chain 1001 mass ranges', chain0((o) => { o.masses = new Array(1001).fill({ from: 0, to: 0, mass: 1 }); }), 'objects[0].masses'],
  ['chain name too long', chain0((o) => { o.name = 'x'.repeat(81); }), 'objects[0].name'],
  ['cloth origin missing', cloth1((o) => { delete o.origin; }), 'objects[1].origin'],
  ['cloth origin string component', cloth1((o) => { o.origin = [0, 0, '1']; }), 'objects[1].origin[2]'],
  ['cloth size zero', cloth1((o) => { o.size = [0, 2]; }), 'objects[1].size[0]'],
  ['cloth resolution non-integer', cloth1((o) => { o.resolution = [2.5, 4]; }), 'objects[1].resolution[0]'],
  ['cloth resolution 1', cloth1((o) => { o.resolution = [4, 1]; }), 'objects[1].resolution[1]'],
  ['cloth resolution 1025', cloth1((o) => { o.resolution = [1025, 2]; }), 'objects[1].resolution[0]'],
  ['cloth resolution 3 entries', cloth1((o) => { o.resolution = [4, 4, 4]; }), 'objects[1].resolution'],
  ['cloth resolution product too big', cloth1((o) => { o.resolution = [1024, 1024]; o.pins = []; o.masses = []; }), 'objects[1].resolution'],
  ['cloth plane yz', cloth1((o) => { o.plane = 'yz'; }), 'objects[1].plane'],
  ['cloth stiffness.bend 2', cloth1((o) => { o.stiffness.bend = 2; }), 'objects[1].stiffness.bend'],
  ['cloth stiffness unknown key', cloth1((o) => { o.stiffness.twist = 0.5; }), 'objects[1].stiffness.twist'],
  ['cloth stiffness as a number', cloth1((o) => { o.stiffness = 1; }), 'objects[1].stiffness'],
  ['cloth pin i outside grid', cloth1((o) => { o.pins = [[40, 0]]; }), 'objects[1].pins[0][0]'],
  ['cloth pin j outside grid', cloth1((o) => { o.pins = [[0, 0], [0, 40]]; }), 'objects[1].pins[1][1]'],
  ['cloth pin as a flat index', cloth1((o) => { o.pins = [5]; }), 'objects[1].pins[0]'],
  ['cloth mass rectangle outside grid', cloth1((o) => { o.masses = [{ from: [0, 0], to: [39, 40], mass: 1 }]; }), 'objects[1].masses[0].to[1]'],
  ['cloth mass rectangle reversed', cloth1((o) => { o.masses = [{ from: [5, 5], to: [6, 4], mass: 1 }]; }), 'objects[1].masses[0].to'],
  ['chain of 1e9 particles', chain0((o) => { o.segments = 1e9; }), 'objects[0].segments'],
  ['deeply nested junk as a value is not walked', chain0((o) => {
    let deep = [];
    for (let i = 0; i < 100000; i++) deep = [deep];
    o.pins = [deep];
  }), 'objects[0].pins[0]'],
];

test(`a table of ${BAD.length} bad scenes: each refused with the right path and a message naming it`, () => {
  assert.ok(BAD.length >= 30);
  for (const [what, make, path] of BAD) {
    const input = make();
    assert.throws(() => validateScene(input), (e) => {
      assert.ok(e instanceof SceneError, `${what}: not a SceneError: ${e}`);
      assert.equal(e.path, path, `${what}: path (message: ${e.message})`);
      assert.ok(e.message.includes(path === '' ? 'scene' : path), `${what}: message lacks path: ${e.message}`);
      assert.ok(e.message.length < 400, `${what}: message too long`);
      return true;
    }, what);
  }
});

test('over maxParticles in total: the validator passes it, a world\'s creation refuses it by the engine\'s counts, naming where; the world before is untouched', () => {
  const world = pbd.createWorld(full());
  const control = pbd.createWorld(full());
  world.step(3);
  control.step(3);
  const worlds = pbd.worlds.size;
  const bytes = pbd.memory.buffer.byteLength;
  const big = full();
  big.objects[1] = { type: 'cloth', origin: [0, 0, 0], size: [20, 20], resolution: [512, 512] };
  assert.doesNotThrow(() => validateScene(big), 'a particle count is not the validator\'s');
  // objects[0] is a chain of 25 segments: 26 + 512 x 512 particles, past the limit at objects[1].
  const refused = (scene, total) => {
    const message = `objects must have at most ${SCENE_LIMITS.maxParticles} particles in total (exceeded at objects[1]), got ${total}`;
    for (const make of [() => pbd.countScene(scene), () => pbd.createWorld(scene)]) {
      assert.throws(make, (e) => e instanceof SceneError && e.path === 'objects' && e.message === message, message);
    }
  };
  refused(big, 26 + 512 * 512); // objects[0], a chain of 25 segments, has 26
  // At the limit exactly it is taken, one particle more is not: a chain of 511 segments and a 512 x 511 cloth.
  Object.assign(big.objects[0], { end: [3, 2, 0], segments: 511, masses: [] });
  big.objects[1].resolution = [512, 511];
  assert.equal(512 + 512 * 511, SCENE_LIMITS.maxParticles);
  assert.equal(pbd.countScene(big).total.particles, SCENE_LIMITS.maxParticles);
  big.objects[0].segments = 512;
  refused(big, SCENE_LIMITS.maxParticles + 1);
  assert.equal(pbd.worlds.size, worlds, 'no world was made');
  world.step(3);
  control.step(3);
  assert.equal(world.hash(), control.hash());
  assert.equal(pbd.memory.buffer.byteLength, bytes);
  world.destroy();
  control.destroy();
});

test('messages quote the rule and a bounded preview of the value', () => {
  const cases = [
    [(s) => { s.solver.dt = 'abc'; }, 'solver.dt must be a number in [0.0001, 0.1], got "abc"'],
    [(s) => { s.solver.dt = NaN; }, 'solver.dt must be a number in [0.0001, 0.1], got NaN'],
    [(s) => { s.solver.maxSpeed = 0; }, 'solver.maxSpeed must be a number in [0.001, 10000], got 0'],
    [(s) => { s.solver.tetherSlack = 2; }, 'solver.tetherSlack must be a number in [0, 1], got 2'],
    [(s) => { s.solver.selfFriction = -1; }, 'solver.selfFriction must be a number in [0, 1], got -1'],
    [(s) => { s.objects[1].resolution = [2, Infinity]; }, 'objects[1].resolution[1] must be an integer in 2..1024, got Infinity'],
    [(s) => { s.foo = 1; }, 'unknown key foo'],
    [(s) => { s.objects[1].foo = 1; }, 'unknown key objects[1].foo'],
  ];
  for (const [mutate, text] of cases) {
    const s = full();
    mutate(s);
    assert.throws(() => validateScene(s), (e) => e.message.includes(text) || assert.fail(`${e.message} lacks ${text}`));
  }
  const s = full();
  s.name = 'q'.repeat(10000);
  const e = caught(() => validateScene(s));
  const got = e.message.slice(e.message.indexOf(', got ') + 6);
  assert.ok(got.length <= 40, `preview ${got.length} chars`);
  // Huge arrays and deep nesting are previewed without walking them.
  const t = full();
  t.camera.target = new Array(1e6).fill([[[[[[1]]]]]]);
  const err = caught(() => validateScene(t));
  assert.equal(err.path, 'camera.target');
  assert.ok(err.message.slice(err.message.indexOf(', got ') + 6).length <= 40);
});

test('__proto__, constructor and prototype are refused as forbidden, not merely unknown', () => {
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    const e = caught(() => validateScene(JSON.parse(`{"format":"minipbd-scene","version":1,"solver":{"${key}":{}}}`)));
    assert.equal(e.path, `solver.${key}`);
    assert.match(e.message, /^forbidden key /);
  }
  assert.equal(({}).x, undefined);
});

test('a getter in the input is never invoked', () => {
  let ran = false;
  const s = full();
  Object.defineProperty(s.objects[0], 'segments', { get() { ran = true; return 3; }, enumerable: true });
  assert.throws(() => validateScene(s), SceneError);
  assert.equal(ran, false);
});

test('an unknown key names the closest key when one is close, and lists only that object type\'s keys', () => {
  const cloth = { type: 'cloth', origin: [0, 1, 0], size: [1, 1], resolution: [4, 4] };
  const chain = { type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 2 };
  const scene = (edit) => { const s = { format: 'minipbd-scene', version: 3, objects: [structuredClone(cloth)] }; edit(s); return s; };
  const CLOTH_KEYS = 'type, name, origin, size, resolution, plane, mass, stiffness, pins, masses, colour, collisionCategory, collisionMask';
  const cases = [
    [(s) => { s.objects[0].resolutoin = [4, 4]; }, 'objects[0].resolutoin',
      `unknown key objects[0].resolutoin (did you mean "resolution"? allowed here: ${CLOTH_KEYS})`],
    [(s) => { s.objects[0].Origin = [0, 0, 0]; }, 'objects[0].Origin', `unknown key objects[0].Origin (did you mean "origin"? allowed here: ${CLOTH_KEYS})`],
    [(s) => { s.objects[0].foo = 1; }, 'objects[0].foo', `unknown key objects[0].foo (allowed here: ${CLOTH_KEYS})`],
    // A chain's key on a cloth: unknown here, and the list is the cloth's, not every type's.
    [(s) => { s.objects[0].segments = 3; }, 'objects[0].segments', `unknown key objects[0].segments (allowed here: ${CLOTH_KEYS})`],
    [(s) => { s.objects = [{ ...chain, segment: 3 }]; }, 'objects[0].segment',
      'unknown key objects[0].segment (did you mean "segments"? allowed here: type, name, start, end, segments, mass, stiffness, pins, masses, collisionCategory, collisionMask)'],
    [(s) => { s.colliders = [{ type: 'box', position: [0, 0, 0], radius: 1 }]; }, 'colliders[0].radius',
      'unknown key colliders[0].radius (allowed here: type, name, position, rotation, halfExtents, staticFriction, kineticFriction, restitution, glass)'],
    [(s) => { s.colliders = [{ type: 'sphere', position: [0, 0, 0], radious: 1 }]; }, 'colliders[0].radious',
      'unknown key colliders[0].radious (did you mean "radius"? allowed here: type, name, position, radius, staticFriction, kineticFriction, restitution, glass)'],
    [(s) => { s.nmae = 'x'; }, 'nmae',
      'unknown key nmae (did you mean "name"? allowed here: $schema, format, version, name, solver, ground, camera, wind, fluid, colliders, objects)'],
    [(s) => { s.solver = { substep: 3 }; }, 'solver.substep', /^unknown key solver\.substep \(did you mean "substeps"\? allowed here: dt, substeps, /],
    // The type is read first: a wrong type is named before the keys it would have had.
    [(s) => { s.objects = [{ type: 'smoke', foo: 1 }]; }, 'objects[0].type',
      // every registered type, in the registry's order (a new type joins the message without an edit here)
      `objects[0].type must be ${OBJECT_TYPES.map((t) => `"${t.type}"`).join(' or ')}, got "smoke"`],
    [(s) => { s.objects = [7]; }, 'objects[0]', 'objects[0] must be an object, got 7'],
  ];
  for (const [edit, path, message] of cases) {
    assert.throws(() => validateScene(scene(edit)), (e) => {
      assert.ok(e instanceof SceneError);
      assert.equal(e.path, path);
      if (typeof message === 'string') assert.equal(e.message, message);
      else assert.match(e.message, message);
      return true;
    }, path);
  }
});

test('"$schema" (for editors) is read, bounded and left out of the normalised scene', () => {
  const s = { $schema: './scene.schema.json', format: 'minipbd-scene', version: 3, objects: [{ type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 2 }] };
  const { $schema, ...without } = s;
  assert.deepEqual(validateScene(s), validateScene(without));
  assert.equal(Object.hasOwn(validateScene(s), '$schema'), false);
  assert.doesNotThrow(() => validateScene({ ...s, $schema: 'x'.repeat(2048) }));
  for (const [bad, shown] of [[3, '3'], [null, 'null'], ['x'.repeat(2049), `"${'x'.repeat(38)}…`], [{}, '{}']]) {
    assert.throws(() => validateScene({ ...s, $schema: bad }), {
      name: 'SceneError', path: '$schema',
      message: `$schema must be a string of at most 2048 characters (the address of a JSON Schema), got ${shown}`,
    });
  }
});
