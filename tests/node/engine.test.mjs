// The JS API on the shipped wasm (dist/minipbd.wasm): views over the heap, attachments,
// parameters, refusals that leave the world as it was, links into worlds, the CLI.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, MiniPBDError } from '../../web/js/minipbd.js';
import { builtinScenes, defaultScene, SceneError, encodeLink, decodeLink, OBJECT_TYPES, validateScene } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmPath = path.join(root, 'dist', 'minipbd.wasm');
const pbd = await loadMiniPBD(fs.readFileSync(wasmPath));

function pairScene({ mass1 = 1, mass2 = 1, iterations = 1, gravity = [0, 0, 0] } = {}) {
	return {
		format: 'minipbd-scene', version: 2,
		solver: { substeps: 1, iterations, gravity },
		ground: { enabled: false },
		objects: [{ type: 'chain', start: [0, 0, 0], end: [1, 0, 0], segments: 1, mass: mass1, masses: [{ from: 1, to: 1, mass: mass2 }] }],
	};
}

test('loads from a file: URL as well as from bytes', async () => {
	const other = await loadMiniPBD(new URL(`file://${wasmPath}`));
	assert.ok(other.paramNames.includes('iterations'));
	assert.ok(other.paramNames.includes('stiffness.stretch'));
});

test('every built-in scene builds with the counts its description implies', () => {
	for (const [id, scene] of Object.entries(builtinScenes)) {
		const world = pbd.createWorld(scene);
		let particles = 0;
		// Chains and cloths in closed form; the others (a body's lattice, a fluid's block at the scene's spacing) the
		// engine's counts that sized the world (tests/node/counts.test.mjs holds them to closed forms).
		const counted = pbd.countScene(scene).objects;
		scene.objects.forEach((o, i) => {
			particles += o.type === 'chain' ? o.segments + 1 : o.type === 'cloth' ? o.resolution[0] * o.resolution[1] : counted[i].particles;
		});
		assert.equal(world.particleCount, particles, id);
		assert.equal(world.positions.length, 4 * particles);
		// The triangles each type says it reserves (its counts(), through the registry: a cloth's and an inflatable's
		// surface, none for the rest), the cloth's in closed form too: 2 (nx - 1)(ny - 1).
		const normalised = validateScene(scene);
		let tris = 0;
		normalised.objects.forEach((o, i) => {
			const t = OBJECT_TYPES.find((type) => type.type === o.type).counts(pbd, o, i, normalised).triangles ?? 0;
			if (o.type === 'cloth') assert.equal(t, 2 * (o.resolution[0] - 1) * (o.resolution[1] - 1), id);
			tris += t;
		});
		assert.equal(world.triangles.length, 3 * tris, id);
		for (const i of world.triangles) assert.ok(i < particles);
		for (const i of world.lines) assert.ok(i < particles);
		world.destroy();
	}
});

test('heap views stay valid across steps: no memory growth, same buffer, live values', () => {
	const world = pbd.createWorld(builtinScenes.chain); // released horizontal: the tip falls
	const pos = world.positions;
	const bytes = pbd.memory.buffer.byteLength;
	const tip = 25;
	const y0 = pos[4 * tip + 1];
	world.step(30);
	assert.equal(pbd.memory.buffer.byteLength, bytes, 'memory grew during steps');
	assert.equal(world.positions, pos, 'the view was rebuilt');
	assert.equal(pos.buffer, pbd.memory.buffer);
	assert.ok(pos[4 * tip + 1] < y0 - 0.5, 'the old view sees the new positions');
	world.destroy();
});

test('pinned particles never move; w = 0 is visible in positions[4i+3]', () => {
	const world = pbd.createWorld(builtinScenes.cloth);
	const nu = 40;
	const pins = [0, nu - 1].map((i) => Array.from(world.positions.slice(4 * i, 4 * i + 4)));
	assert.equal(pins[0][3], 0);
	world.step(200);
	assert.deepEqual(Array.from(world.positions.slice(0, 4)), pins[0]);
	assert.deepEqual(Array.from(world.positions.slice(4 * (nu - 1), 4 * nu)), pins[1]);
	world.destroy();
});

test('mass-weighted split through the JS API: 1 kg and 4 kg ends take 4/5 and 1/5 of C', () => {
	const world = pbd.createWorld(pairScene({ mass1: 1, mass2: 4 }));
	world.setPosition(1, [3, 0, 0]); // C = |p1 - p2| - d = 3 - 1 = 2
	world.step(1);
	assert.ok(Math.abs(world.positions[0] - 1.6) < 1e-6, `light end at ${world.positions[0]}`);
	assert.ok(Math.abs(world.positions[4] - 2.6) < 1e-6, `heavy end at ${world.positions[4]}`);
	assert.equal(world.positions[3], 1);
	assert.equal(world.positions[7], 0.25);
	// seed 001's snippet (extra 0.5) would leave C = 1 here instead of 0
	assert.ok(Math.abs(world.positions[4] - world.positions[0] - 1) < 1e-6);
	world.destroy();
});

test('setPosition, setVelocity and setMass validate and keep pins pinned', () => {
	const world = pbd.createWorld(builtinScenes.chain);
	assert.throws(() => world.setPosition(0, [NaN, 0, 0]), /finite/);
	assert.throws(() => world.setMass(1, 0), /mass/);
	assert.throws(() => world.setPosition(999, [0, 0, 0]), /particle/);
	world.setVelocity(0, [5, 5, 5]); // particle 0 is the pin: ignored
	world.setMass(1, 2);
	assert.equal(world.positions[7], 0.5);
	world.step(10);
	assert.deepEqual(Array.from(world.positions.slice(0, 3)), [0, 3, 0]);
	world.destroy();
});

test('attachments: drag pulls toward the target within reach, holds at the reach past it; release leaves the mass exactly as before, pinned neighbour stays', () => {
	const world = pbd.createWorld(builtinScenes.cloth);
	world.step(60);
	const at = (i) => Array.from(world.positions.slice(4 * i, 4 * i + 3));
	const pin = Array.from(world.positions.slice(0, 4));
	// The bottom middle particle, 2.22 m from either pin (2.24 at rest), circled 0.3 m round a point 0.6 m above it and
	// 0.4 m in front: every target within its reach, at 3 m/s (under the scene's maxSpeed of 6), then held 10 steps.
	const b = 39 * 40 + 20;
	const w0 = world.positions[4 * b + 3];
	const start = at(b);
	const centre = [start[0], start[1] + 0.6, start[2] + 0.4];
	const circle = (i) => [centre[0] + 0.3 * Math.cos(i / 6), centre[1] + 0.3 * Math.sin(i / 6), centre[2]];
	const id = world.addAttachment(b, start, 1);
	assert.equal(world.attachmentCount, 1);
	for (let i = 0; i < 30; i++) {
		world.moveAttachment(id, circle(i));
		world.step(1);
		assert.deepEqual(Array.from(world.positions.slice(0, 4)), pin);
	}
	world.step(10);
	const d = Math.hypot(...at(b).map((v, k) => v - circle(29)[k]));
	assert.ok(d < 0.02, `particle is ${d} m from the pointer target`);
	world.removeAttachment(id);
	assert.equal(world.attachmentCount, 0);
	assert.equal(world.positions[4 * b + 3], w0);
	assert.throws(() => world.removeAttachment(id), (e) => e instanceof MiniPBDError && /attachment/.test(e.message));
	assert.throws(() => world.moveAttachment(id, [0, 0, 0]), /attachment/);
	// The pin's neighbour pulled toward a point 1.8 m away: the target is moved into its reach (its tether to the pin,
	// one grid step, services/reach.c pbd_Reach_Clamp), so it stays within a grid step of the pin, on the
	// target's side (solved last, the pointer took it to within 5 cm of the target and stretched its edges 30-fold).
	const far = [0, 4, 1];
	const id1 = world.addAttachment(1, far, 1);
	world.step(30);
	const step = 2 / 39, u = far.map((v, k) => v - pin[k]), n = Math.hypot(...u);
	const r = at(1).map((v, k) => v - pin[k]);
	assert.ok(Math.hypot(...r) <= step * (1 + 1e-5), `the neighbour is ${Math.hypot(...r)} m from its pin, its reach ${step}`);
	assert.ok(r.reduce((s, v, k) => s + v * u[k] / n, 0) > 0.7 * step, 'and pulled toward the target');
	assert.deepEqual(Array.from(world.positions.slice(0, 4)), pin);
	world.removeAttachment(id1);
	world.destroy();
});

test('pick finds the particle under a ray and nothing off the cloth', () => {
	const world = pbd.createWorld(builtinScenes.cloth);
	const i = 40 * 20 + 13;
	const x = world.positions.slice(4 * i, 4 * i + 3);
	assert.equal(world.pick([x[0], x[1], 10], [0, 0, -1], 0.02), i);
	assert.equal(world.pick([50, 50, 10], [0, 0, -1], 0.02), -1);
	world.destroy();
});

test('setParam changes the world and the scene description; bad values are refused and change nothing', async () => {
	const world = pbd.createWorld(builtinScenes.cloth);
	world.step(10);
	world.setParam('iterations', 7);
	world.setParam('stiffness.bend', 0.4);
	assert.equal(world.getParam('iterations'), 7);
	assert.equal(world.describe().solver.iterations, 7);
	assert.equal(world.describe().objects[0].stiffness.bend, 0.4);
	const hash = world.hash();
	const bad = [['iterations', 0], ['iterations', 2.5], ['dt', NaN], ['dt', Infinity], ['dt', -1], ['damping', '3'], ['nope', 1], ['__proto__', 1]];
	for (const [name, value] of bad) {
		assert.throws(() => world.setParam(name, value), (e) => e instanceof MiniPBDError && e.message.length > 10, `${name}=${value}`);
	}
	assert.equal(world.getParam('iterations'), 7);
	assert.equal(world.hash(), hash);
	assert.equal(world.describe().solver.iterations, 7);
	// the described scene round-trips through a link into an equal world
	const link = await encodeLink(world.describe());
	const again = pbd.createWorld(await decodeLink(link));
	assert.equal(again.getParam('iterations'), 7);
	assert.equal(again.getParam('stiffness.bend'), world.getParam('stiffness.bend'));
	world.destroy();
	again.destroy();
});

test('maxSpeed, tetherSlack and selfFriction: the scene defaults are the engine\'s, a scene sets them, setParam is described, links carry them', async () => {
	// A bare engine world (no scene applied) has the C defaults; an older scene without the fields builds the same.
	const e = pbd.exports;
	const raw = pbd.createWorldWith({ particles: 1, constraints: 1, triangles: 1, lines: 1, attachments: 1, objects: 1, colliders: 1 });
	assert.ok(raw > 0);
	const names = ['maxSpeed', 'tetherSlack', 'selfFriction'];
	const engineDefaults = names.map((n) => e.pbd_World_GetParam(raw, pbd.paramIds.get(n)));
	e.pbd_DestroyWorld(raw);
	const old = pbd.createWorld(pairScene());
	assert.deepEqual(names.map((n) => old.getParam(n)), engineDefaults);
	assert.deepEqual(names.map((n) => Math.fround(old.describe().solver[n])), engineDefaults, 'the described defaults are the engine\'s');
	old.destroy();

	const scene = { ...pairScene({ gravity: [0, -9.81, 0] }), solver: { substeps: 1, iterations: 1, maxSpeed: 2, tetherSlack: 0.5, selfFriction: 0.6 } };
	const world = pbd.createWorld(scene);
	assert.deepEqual(names.map((n) => world.getParam(n)), [2, 0.5, 0.6].map(Math.fround), 'built from the scene');
	// the speed limit holds for a free fall
	let fastest = 0;
	for (let s = 0; s < 60; s++) {
		world.step(1);
		for (let i = 0; i < world.particleCount; i++) fastest = Math.max(fastest, Math.hypot(...world.velocities.subarray(4 * i, 4 * i + 3)));
	}
	assert.ok(fastest <= 2 * (1 + 1e-5) && fastest > 1.9, `falls at most 2 m/s (${fastest})`);
	world.setParam('maxSpeed', 7.5);
	world.setParam('tetherSlack', 0.05);
	world.setParam('selfFriction', 0);
	const d = world.describe().solver;
	assert.deepEqual([d.maxSpeed, d.tetherSlack, d.selfFriction], [7.5, 0.05, 0]);
	for (const [n, v] of [['maxSpeed', 0], ['maxSpeed', 2e4], ['tetherSlack', 1.5], ['selfFriction', -0.1]]) {
		assert.throws(() => world.setParam(n, v), MiniPBDError, `${n} = ${v}`);
	}
	assert.deepEqual([world.describe().solver.maxSpeed, world.getParam('maxSpeed')], [7.5, 7.5], 'a refusal changes nothing');
	const again = pbd.createWorld(await decodeLink(await encodeLink(world.describe())));
	assert.deepEqual(names.map((n) => again.getParam(n)), names.map((n) => world.getParam(n)));
	world.destroy();
	again.destroy();
});

test('a refused scene throws with its path and leaves the running world untouched', () => {
	const world = pbd.createWorld(builtinScenes.chain);
	const control = pbd.createWorld(builtinScenes.chain);
	world.step(5);
	control.step(5);
	const bytes = pbd.memory.buffer.byteLength;
	const bad = structuredClone(defaultScene());
	bad.objects[0].resolution = [2000, 2000];
	assert.throws(() => pbd.createWorld(bad), (e) => e instanceof SceneError && /resolution/.test(e.message));
	assert.throws(() => pbd.createWorld({ format: 'minipbd-scene', version: 2, objects: [] }), SceneError);
	assert.throws(() => pbd.createWorld(null), SceneError);
	world.step(5);
	control.step(5);
	assert.equal(world.hash(), control.hash());
	assert.equal(pbd.memory.buffer.byteLength, bytes);
	world.destroy();
	control.destroy();
});

test('API arguments are checked: bad particle, non-finite target, destroyed world', () => {
	const world = pbd.createWorld(builtinScenes.chain);
	assert.throws(() => world.addAttachment(9999, [0, 0, 0]), /particle/);
	assert.throws(() => world.addAttachment(1, [NaN, 0, 0]), /finite/);
	assert.throws(() => world.addAttachment(1, [0, 0]), /three numbers/);
	assert.throws(() => world.addAttachment(1, [0, 0, 0], 2), /stiffness/);
	assert.throws(() => world.step(-1), /step count/);
	assert.equal(world.attachmentCount, 0);
	world.destroy();
	assert.throws(() => world.step(1), /destroyed/);
	assert.throws(() => world.positions, /destroyed/);
});

test('free fall through the API matches the integrator closed form; energies are reported', () => {
	const scene = pairScene({ gravity: [0, -9.81, 0] });
	scene.objects[0].stiffness = 0;
	const world = pbd.createWorld(scene);
	const n = 30;
	world.step(n);
	const dt = world.getParam('dt');
	const g = world.getParam('gravityY');
	const expectV = n * dt * g;
	assert.ok(Math.abs(world.velocities[1] - expectV) < 1e-3);
	assert.ok(Math.abs(world.positions[1] - (dt * dt * g * n * (n + 1)) / 2) < 1e-3);
	const s = world.stats();
	// two 1 kg particles with speed |expectV|: KE = 2 * 1/2 * v^2; PE = -m g y summed
	assert.ok(Math.abs(s.kineticEnergy - expectV * expectV) < 1e-2);
	assert.ok(Math.abs(s.potentialEnergy - -g * (world.positions[1] + world.positions[5])) < 1e-3);
	assert.equal(s.steps, n);
	world.destroy();
});

// The DeterminismHash scene of tests/c/test_scenes.c through the shipped -O3 wasm:
// it must land on the same bits as the native, scalar and sanitizer builds.
test('the shipped wasm reproduces the native determinism hash', () => {
	const e = pbd.exports;
	const src = fs.readFileSync(path.join(root, 'tests', 'c', 'test_scenes.h'), 'utf8');
	const expected = Number(/#define PBD_DETERMINISM_HASH (0x[0-9a-f]+)u/.exec(src)[1]);
	const P = (name) => pbd.paramIds.get(name);
	const w = pbd.createWorldWith({ particles: 1200, constraints: 12000 });
	assert.ok(w > 0);
	// tests/c's TestCreateWorld: the textbook 1 substep x 10 passes the hash was recorded with (the engine's
	// default is now the scene format's 10 x 1).
	e.pbd_World_SetParam(w, P('substeps'), 1);
	e.pbd_World_SetParam(w, P('iterations'), 10);
	e.pbd_World_SetParam(w, P('gravityY'), 0);
	e.pbd_World_SetParam(w, P('groundEnabled'), 0);
	e.pbd_World_SetParam(w, P('thickness'), 0.0001);
	e.pbd_World_SetParam(w, P('gravityY'), -9.81);
	e.pbd_World_SetParam(w, P('groundEnabled'), 1);
	e.pbd_World_SetParam(w, P('damping'), 0.3);
	const first = e.pbdjs_AddCloth(w, -1, 1.5, 0, 2, 0, 0, 0, -2, 0, 24, 24, 0.01);
	e.pbd_World_SetInvMass(w, first, 0);
	e.pbd_World_SetMass(w, first + 100, 0.5);
	e.pbdjs_AddChain(w, 0, 2, 0, 1, 2.5, 0, 25, 0.1);
	const a = e.pbd_World_AddAttachment(w, first + 23, 1, 2, 0.5, 0.7);
	for (let s = 0; s < 200; s++) {
		if (s < 100) {
			const f = Math.fround; // the C test computes these in float
			e.pbd_World_MoveAttachment(w, a, f(1 + f(f(0.01) * s)), 2, f(0.5 - f(f(0.02) * s)));
		}
		if (s === 100) e.pbd_World_RemoveAttachment(w, a);
		e.pbd_World_Step(w);
	}
	assert.equal((e.pbd_World_Hash(w) >>> 0).toString(16), expected.toString(16));
	e.pbd_DestroyWorld(w);
});

test('minipbd-run prints JSON statistics for a built-in, a file and a link, and refuses bad input', async () => {
	const cli = path.join(root, 'tools', 'minipbd-run.mjs');
	const run = (...args) => JSON.parse(execFileSync('node', [cli, ...args], { encoding: 'utf8' }));
	const a = run('builtin:cloth', '--steps', '40');
	const world = pbd.createWorld(builtinScenes.cloth);
	world.step(40);
	assert.equal(a.hash, world.hash(), 'CLI and API give the same bits');
	assert.equal(a.particles, 1600);
	assert.equal(a.steps, 40);
	assert.ok(a.stats.maxStretch >= 0 && Number.isFinite(a.stats.kineticEnergy));
	const tmp = path.join(fs.mkdtempSync('/tmp/minipbd-'), 'scene.json');
	fs.writeFileSync(tmp, JSON.stringify(builtinScenes.cloth));
	assert.equal(run(tmp, '--steps', '40').hash, a.hash);
	const link = await encodeLink(builtinScenes.cloth);
	assert.equal(run(`http://example.test/#${link}`, '--steps', '40').hash, a.hash);
	const withPos = run('builtin:chain', '--steps', '3', '--positions', '--every', '1', '--set', 'iterations=3');
	assert.equal(withPos.positions.length, 26);
	assert.equal(withPos.series.length, 4);
	assert.equal(withPos.params.iterations, 3);
	assert.deepEqual(withPos.positions[0], [0, 3, 0]); // the pin
	for (const [args, pattern] of [
		[['builtin:nope'], /no built-in scene "nope"/],
		[['s=1.%%%'], /base64/],
		[['s=9.abc'], /version 9/],
		[['/nonexistent/scene.json'], /no such scene file/],
		[['builtin:cloth', '--steps', 'x'], /--steps/],
		[['builtin:cloth', '--set', 'iterations=0'], /parameter iterations must be an integer in 1..200, got 0/],
	]) {
		const r = spawnSync('node', [cli, ...args], { encoding: 'utf8' });
		assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
		assert.match(r.stderr, pattern);
		assert.equal(r.stdout, '');
	}
	world.destroy();
});

test('instruments: the error buffer and the convergence curve through the JS API', () => {
	const world = pbd.createWorld(pairScene({ iterations: 4 }));
	world.setPosition(1, [1.5, 0, 0]); // C0 / rest = 0.5
	world.updateErrors();
	assert.equal(world.errors.length, 2);
	assert.ok(Math.abs(world.errors[0] - 0.5) < 1e-6 && Math.abs(world.errors[1] - 0.5) < 1e-6);
	world.setParam('stiffness.chain', 0.5);
	world.setParam('recordConvergence', 1);
	world.step(1);
	const curve = Array.from(world.convergence);
	assert.equal(curve.length, 4); // 1 substep x 4 passes
	for (let i = 1; i < 4; i++) assert.ok(curve[i] < curve[i - 1], 'each pass lowers the error of a lone constraint');
	assert.ok(Math.abs(curve[3] - 0.25) < 1e-5, `ends at (1 - k) C0 / rest, got ${curve[3]}`);
	world.destroy();
});

test('setColliderMaterial: a live restitution change sets the bounce; refused values change nothing', () => {
	const scene = {
		format: 'minipbd-scene', version: 2, solver: { substeps: 1, iterations: 4 }, ground: { enabled: false },
		objects: [{ type: 'chain', start: [0, 0.2, 0], end: [0, 0.21, 0], segments: 1, mass: 1 }],
		colliders: [{ type: 'sphere', name: 'ball', position: [0, -0.5, 0], radius: 0.5 }],
	};
	const world = pbd.createWorld(scene);
	const hash = world.hash();
	for (const bad of [{ restitution: 1.5 }, { staticFriction: NaN }, { kineticFriction: -1 }, { restitution: '0.5' }]) {
		assert.throws(() => world.setColliderMaterial(0, bad), (e) => e instanceof MiniPBDError && /restitution|Friction/.test(e.message));
	}
	assert.throws(() => world.setColliderMaterial(3, { restitution: 0.5 }), /setColliderMaterial: collider must be an integer in 0..0, got 3/);
	assert.equal(world.hash(), hash);
	assert.equal(world.describe().colliders[0].restitution, 0);
	world.setColliderMaterial(0, { restitution: 0.8 });
	assert.deepEqual(
		(({ staticFriction, kineticFriction, restitution }) => ({ staticFriction, kineticFriction, restitution }))(world.describe().colliders[0]),
		{ staticFriction: 0.5, kineticFriction: 0.4, restitution: 0.8 },
	);
	// both particles fall onto the sphere's top (y = 0 plus the particle radius); the upward speed after the
	// impact is e times the impact speed (the chain's one link keeps them together)
	let vyAfter = -Infinity;
	for (let s = 0; s < 30 && !(vyAfter > 0); s++) {
		world.step(1);
		vyAfter = world.velocities[1];
	}
	assert.ok(vyAfter > 0, 'it bounced');
	const fallen = 0.2 - world.getParam('thickness') / 2;
	const impact = Math.sqrt(2 * 9.81 * fallen);
	assert.ok(Math.abs(vyAfter - 0.8 * impact) < 0.15 * impact, `bounce ${vyAfter} vs 0.8 x ${impact}`);
});

test('setObjectMass: free particles get w = 1/m, pins and mass ranges keep theirs, the description follows; a refused mass changes nothing', () => {
	const scene = {
		format: 'minipbd-scene', version: 2, solver: { substeps: 1, iterations: 2 }, ground: { enabled: false },
		objects: [
			{ type: 'cloth', origin: [0, 1, 0], size: [1, 1], resolution: [4, 3], plane: 'xy', mass: 0.01, pins: [[0, 0]],
				masses: [{ from: [3, 2], to: [3, 2], mass: 0.5 }] },
			{ type: 'chain', start: [2, 1, 0], end: [3, 1, 0], segments: 2, mass: 0.05, pins: [0] },
		],
	};
	const world = pbd.createWorld(scene);
	const w = (i) => world.positions[4 * i + 3];
	const hash = world.hash();
	for (const bad of [0, -1, NaN, Infinity, '1']) assert.throws(() => world.setObjectMass(0, bad), MiniPBDError);
	assert.throws(() => world.setObjectMass(2, 1), /setObjectMass: object must be an integer in 0..1, got 2/);
	assert.equal(world.hash(), hash);
	assert.equal(world.describe().objects[0].mass, 0.01);
	world.setObjectMass(0, 0.25);
	assert.equal(w(0), 0, 'the pin stays a pin');
	assert.equal(w(11), Math.fround(1 / 0.5), 'the mass range keeps its mass');
	for (const i of [1, 2, 3, 4, 10]) assert.equal(w(i), Math.fround(1 / 0.25), `particle ${i}`);
	for (const i of [12, 13, 14]) assert.equal(w(i), i === 12 ? 0 : Math.fround(1 / 0.05), `the chain is untouched (${i})`);
	const d = world.describe();
	assert.equal(d.objects[0].mass, 0.25);
	assert.equal(d.objects[1].mass, 0.05);
	// the description builds the same masses again
	const again = pbd.createWorld(d);
	for (let i = 0; i < 15; i++) assert.equal(again.positions[4 * i + 3], w(i), `rebuilt particle ${i}`);
});

// Error messages live in each world (no mutable statics in the core): a refusal in one world is
// reported with that world's message, and another world's refusal afterwards does not overwrite it.
test('each world keeps its own last error message; calls without a world have theirs', () => {
	const a = pbd.createWorld(builtinScenes.cloth);
	const b = pbd.createWorld(builtinScenes.chain);
	try {
		const e = pbd.exports;
		// Refused by C itself (the JS checks pass: a valid particle, a finite target): capacity.
		let caught = null;
		const ids = [];
		try { for (let i = 0; i < 1000; i++) ids.push(a.addAttachment(5, [0, 1, 0], 1)); } catch (err) { caught = err; }
		assert.ok(caught instanceof MiniPBDError, 'the 17th attachment is refused');
		assert.match(caught.message, /attachment capacity exceeded: all \d+ attachments are in use/);
		const readA = () => pbd.lastError(a.id);
		assert.equal(readA(), caught.message);
		// b's refusal (an inverse mass out of range, through the raw export) is b's message, not a's
		assert.ok(e.pbd_World_SetInvMass(b.id, 0, -1) < 0);
		assert.match(pbd.lastError(b.id), /inverse mass must be in \[0, 1e\+?0?6\], got -1/);
		assert.equal(readA(), caught.message, "b's error left a's message as it was");
		// a call with no world (a stale id) has the no-world message and touches neither
		assert.ok(e.pbd_World_Step(0x7fff0001) < 0);
		assert.match(pbd.lastError(), /invalid or destroyed world handle/);
		assert.equal(readA(), caught.message);
		for (const id of ids) a.removeAttachment(id);
	} finally {
		a.destroy();
		b.destroy();
	}
});

test('collision filters from the scene: a rope whose mask leaves out the cloth\'s category falls through it; out of range is refused', () => {
	// a cloth pinned at its corners 0.5 m up, a rope dropped across it (the C test CollisionFilterLetsObjectsPass)
	const scene = (filter) => ({
		format: 'minipbd-scene', version: 2,
		solver: { substeps: 5, iterations: 4, thickness: 0.04, collisions: true },
		objects: [
			{ type: 'cloth', origin: [-0.3, 0.5, -0.3], size: [0.6, 0.6], resolution: [16, 16], plane: 'xz', pins: [[0, 0], [15, 0], [0, 15], [15, 15]], ...(filter ? { collisionCategory: 2 } : {}) },
			{ type: 'chain', start: [-0.2, 0.56, -0.1], end: [0.2, 0.56, 0.1], segments: 20, ...(filter ? { collisionMask: 0xffffffff - 2 } : {}) },
		],
	});
	const ropeHeight = (s) => {
		const world = pbd.createWorld(s);
		for (let i = 0; i < 300; i++) world.step();
		const x = world.positions;
		let y = 0;
		for (let i = 256; i < 277; i++) y += x[4 * i + 1] / 21;
		world.destroy();
		return y;
	};
	const held = ropeHeight(scene(false)), dropped = ropeHeight(scene(true));
	assert.ok(held > 0.3, `the rope rests in the cloth at ${held.toFixed(3)} m`);
	assert.ok(dropped < 0.05, `filtered out, it lies on the ground at ${dropped.toFixed(3)} m`);
	const s = validateScene(scene(true));
	assert.equal(s.objects[0].collisionCategory, 2);
	assert.equal(s.objects[1].collisionMask, 4294967293);
	assert.equal(validateScene(scene(false)).objects[0].collisionCategory, undefined, 'left out: not written');
	const bad = scene(true);
	bad.objects[1].collisionMask = 2 ** 32;
	assert.throws(() => validateScene(bad), (e) => e instanceof SceneError && e.message === 'objects[1].collisionMask must be an integer in 0..4294967295, got 4294967296');
});
