// Fuzz of the link decoder: 10,000 random and hand-made hostile fragments, then 4,000 more aimed at the
// replay section of version-2 links (recorded runs). Every one must either be refused with a LinkError
// carrying a reason and a message, or decode to a scene that validateScene accepts and that stays within
// SCENE_LIMITS (and a replay that validateReplay accepts against it, and that the engine replays without an
// error); none may throw anything else, none may take more than a second, and no message may carry markup.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { decodeLink, decodeRun, encodeLink, LinkError, base64urlEncode } from '../../web/js/format/link.js';
import { validateScene, SceneError, SCENE_LIMITS } from '../../web/js/format/scene.js';
import { readReplay, validateReplay, REPLAY_LIMITS, REPLAY_PARAMS } from '../../web/js/format/replay.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { Replayer } from '../../web/js/record/replayer.js';

// xorshift32: a reproducible stream (a failure names its seed and index)
function rng(seed) {
	let s = seed >>> 0 || 1;
	return () => {
		s ^= s << 13; s >>>= 0;
		s ^= s >>> 17;
		s ^= s << 5; s >>>= 0;
		return s / 4294967296;
	};
}

// Particle counts are the engine's (the link decoder bounds a replay's particle indices by the scene's limit only).
const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));
/** The engine's particle count of a scene, or the SceneError its world's creation would throw. */
function particlesOf(scene) {
	try { return pbd.countScene(scene).total.particles; } catch (err) {
		assert.ok(err instanceof SceneError, `${err?.name}: ${err?.message}`);
		return err;
	}
}

const enc = (text) => `s=1.${base64urlEncode(deflateRawSync(Buffer.from(text, 'utf8')))}`;
const encBytes = (bytes) => `s=1.${base64urlEncode(deflateRawSync(Buffer.from(bytes)))}`;

function mutateJson(value, r, depth = 0) {
	// replace, delete or corrupt one field somewhere in a scene
	if (Array.isArray(value) && value.length && r() < 0.7) {
		const i = Math.floor(r() * value.length);
		value[i] = mutateJson(value[i], r, depth + 1);
		return value;
	}
	if (value && typeof value === 'object' && r() < 0.8) {
		const keys = Object.keys(value);
		if (keys.length) {
			const k = keys[Math.floor(r() * keys.length)];
			if (r() < 0.15) delete value[k];
			else value[k] = mutateJson(value[k], r, depth + 1);
			return value;
		}
	}
	const hostile = [
		1e308, -1e308, 1e9, -1, 0, 2 ** 31, 0.5, '1', '', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
		null, true, [], {}, [[[[[]]]]], 'NaN', 'Infinity', -0, 1e-320, Array(50).fill(1), { __proto__: null },
	];
	return hostile[Math.floor(r() * hostile.length)];
}

function* fragments() {
	const r = rng(20261129);
	const base = Object.values(builtinScenes);
	// hand-made hostile ones
	yield '';
	yield '#';
	yield 's=';
	yield 's=1.';
	yield 's=999999999999999999999.abc';
	yield 's=-1.abc';
	yield 's=1e3.abc';
	yield 's=1.' + 'A'.repeat(20000);
	yield 's=1.' + '%'.repeat(100);
	yield enc('['.repeat(100000) + ']'.repeat(100000));
	yield enc('{"a":'.repeat(5000) + '1' + '}'.repeat(5000));
	yield enc('"' + '\\u0000'.repeat(1000) + '"');
	yield encBytes(new Uint8Array(300000)); // inflates past the cap
	yield encBytes([0xff, 0xfe, 0xfd]); // not UTF-8
	yield enc(JSON.stringify({ ...builtinScenes.cloth, objects: Array(100).fill(builtinScenes.cloth.objects[0]) }));
	yield enc(JSON.stringify({ ...builtinScenes.cloth, name: '<script>alert(1)</script>' }));
	yield enc('{"format":"minipbd-scene","version":1,"__proto__":{"polluted":1},"objects":[]}');
	yield enc('{"format":"minipbd-scene","version":1,"constructor":{"prototype":{"x":1}},"objects":[]}');
	// random bytes, random base64url, truncations and bit flips of real links, mutated scenes
	const real = base.map((s) => JSON.stringify(s));
	const realLinks = real.map((t) => enc(t));
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
	for (let i = 0; i < 9990; i++) {
		const kind = i % 6;
		if (kind === 0) {
			const n = Math.floor(r() * 400);
			let t = 's=1.';
			for (let k = 0; k < n; k++) t += alphabet[Math.floor(r() * 64)];
			yield t;
		} else if (kind === 1) {
			const link = realLinks[Math.floor(r() * realLinks.length)];
			yield link.slice(0, 4 + Math.floor(r() * (link.length - 4)));
		} else if (kind === 2) {
			const link = realLinks[Math.floor(r() * realLinks.length)].split('');
			const flips = 1 + Math.floor(r() * 4);
			for (let f = 0; f < flips; f++) {
				const at = 4 + Math.floor(r() * (link.length - 4));
				link[at] = alphabet[Math.floor(r() * 64)];
			}
			yield link.join('');
		} else if (kind === 3) {
			const scene = JSON.parse(real[Math.floor(r() * real.length)]);
			const times = 1 + Math.floor(r() * 3);
			let m = scene;
			for (let t = 0; t < times; t++) m = mutateJson(m, r);
			yield enc(JSON.stringify(m));
		} else if (kind === 4) {
			const bytes = new Uint8Array(Math.floor(r() * 300));
			for (let k = 0; k < bytes.length; k++) bytes[k] = Math.floor(r() * 256);
			yield encBytes(bytes);
		} else {
			let t = '';
			const n = Math.floor(r() * 60);
			for (let k = 0; k < n; k++) t += String.fromCharCode(Math.floor(r() * 0x3000));
			yield r() < 0.5 ? t : `s=${t}`;
		}
	}
}

test('10,000 random and hostile links: refused with a reason or loaded within the limits, never a stray throw or a hang', async () => {
	let count = 0, refused = 0, loaded = 0;
	const reasons = new Map();
	for (const fragment of fragments()) {
		count += 1;
		const t0 = performance.now();
		let scene = null;
		try {
			scene = await decodeLink(fragment);
		} catch (err) {
			assert.ok(err instanceof LinkError, `fragment ${count} threw ${err?.name}: ${err?.message}`);
			assert.equal(typeof err.reason, 'string');
			assert.ok(err.message.length > 10, `fragment ${count}: message "${err.message}"`);
			assert.doesNotMatch(err.message, /[<>]/, `fragment ${count}: markup in the message`);
			refused += 1;
			reasons.set(err.reason, (reasons.get(err.reason) ?? 0) + 1);
		}
		const ms = performance.now() - t0;
		assert.ok(ms < 1000, `fragment ${count} took ${ms.toFixed(0)} ms`);
		if (scene) {
			loaded += 1;
			// what loads is a valid, bounded scene with no inherited surprises
			assert.deepEqual(validateScene(scene), scene);
			// within the limits, or its world refused by name (a count past a limit is the engine's to find)
			const particles = particlesOf(scene);
			assert.ok(particles instanceof SceneError || particles <= SCENE_LIMITS.maxParticles);
			assert.equal(Object.getPrototypeOf(scene), Object.prototype);
			assert.equal({}.polluted, undefined);
			assert.equal(typeof scene.name, 'string');
			// round trip: what loaded re-encodes to a link that decodes to the same scene
			assert.deepEqual(await decodeLink(await encodeLink(scene)), scene);
		}
	}
	console.log(`fuzzed ${count} links: ${refused} refused (${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ')}), ${loaded} loaded`);
	assert.ok(count >= 10000);
	assert.ok(refused > 5000 && loaded > 50, 'the fuzz reaches both outcomes');
});

// ---------------------------------------------------------------- the replay section (link version 2)

const enc2 = (value) => `s=2.${base64urlEncode(deflateRawSync(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8')))}`;

// Small scenes, so that loaded replays can be run on the engine quickly.
const REPLAY_SCENES = [
	builtinScenes.chain,
	validateScene({
		format: 'minipbd-scene', version: 2, name: 'fuzz colliders',
		colliders: [{ type: 'sphere', position: [0, 0.5, 0], radius: 0.3 }, { type: 'box', position: [0.6, 0.3, 0], halfExtents: [0.2, 0.1, 0.2] }],
		objects: [{ type: 'cloth', origin: [-0.5, 1, -0.5], size: [1, 1], resolution: [8, 8], plane: 'xz' }],
	}),
];

/** A random replay that is valid for `scene` (it keeps track of what is held, and stays within the bounds). */
function randomReplay(r, scene) {
	const particles = particlesOf(scene);
	const colliders = scene.colliders.length;
	const q = REPLAY_LIMITS.quanta[Math.floor(r() * 4)];
	const steps = 1 + Math.floor(r() * 120);
	const events = [];
	const held = [];
	const params = Object.keys(REPLAY_PARAMS);
	let grabs = 0, at = 0;
	const small = () => Math.round((r() - 0.5) * 0.2 * q);
	const n = Math.floor(r() * 30);
	for (let i = 0; i < n; i++) {
		const d = r() < 0.5 ? 0 : Math.floor(r() * 6);
		if (at + d >= steps) break;
		at += d;
		const x = r();
		if (held.length && x < 0.45) events.push([d, 'm', held[Math.floor(r() * held.length)], small(), small(), small()]);
		else if (held.length && x < 0.55) events.push([d, 'r', held.splice(Math.floor(r() * held.length), 1)[0]]);
		else if (colliders && x < 0.7) {
			const e = [d, 'c', Math.floor(r() * colliders), small(), small(), small()];
			if (r() < 0.3) e.push(r() - 0.5, r() - 0.5, r() - 0.5, 0.5 + r());
			events.push(e);
		} else if (colliders && x < 0.74) {
			// a collider's material: friction 0..10, restitution 0..1 (the scene's collider ranges)
			events.push([d, 'f', Math.floor(r() * colliders), r() * 10, r() * 10, r()]);
		} else if (x < 0.78) {
			const name = params[Math.floor(r() * params.length)];
			const range = REPLAY_PARAMS[name];
			const v = range.min + r() * (range.max - range.min);
			events.push([d, 'p', name, range.integer ? Math.round(v) : v]);
		} else if (held.length < REPLAY_LIMITS.maxHeld) {
			const e = [d, 'g', Math.floor(r() * particles), small(), small() + q, small()];
			if (r() < 0.2) e.push(r());
			events.push(e);
			held.push(grabs++);
		}
	}
	return { v: 1, steps, q, hash: Math.floor(r() * 2 ** 32), events };
}

// Numbers in JSON text to swap in: overflow to Infinity, underflow, -0, beyond 2^53, not JSON at all.
const NUMBER_SWAPS = ['1e999', '-1e999', '1e-999', '-0', '9007199254740993', 'NaN', 'Infinity', '1e308', '-1', '0.5', '65536', '4294967296'];

function* replayFragments() {
	const r = rng(424242);
	// hand-made hostile ones
	const scene = REPLAY_SCENES[0];
	const run = (replay) => enc2({ scene, replay });
	yield run({ v: 1, steps: 1e308, q: 1000, events: [] });
	yield run({ v: 1, steps: 36001, q: 1000, events: [] });
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":{"v":1,"steps":1e999,"q":1000,"events":[]}}`);
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":{"v":1,"steps":10,"q":1000,"events":[[0,"g",1,NaN,0,0]]}}`);
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":{"v":1,"steps":10,"q":1000,"events":[[0,"g",1,1e999,0,0]]}}`);
	yield run({ v: 1, steps: 10, q: 1000, events: Array(10001).fill([0, 'p', 'iterations', 3]) });
	yield run({ v: 1, steps: 100, q: 1000, events: Array(100000).fill(0) }); // inflates past the cap or is refused
	yield run({ v: 1, steps: 10, q: 1000, events: Array(40).fill([0, 'g', 0, 0, 0, 0]) });
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, 'g', 2 ** 31, 0, 0, 0]] });
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, 'g', -1, 0, 0, 0]] });
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, 'm', 0, 0, 0, 0]] });
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, 'c', 0, 0, 0, 0]] });
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, 'f', 0, 0.5, 0.4, 0]] }); // the chain has no colliders
	yield enc2({ scene: REPLAY_SCENES[1], replay: { v: 1, steps: 10, q: 1000, events: [[0, 'f', 1, 1e308, 0.4, 0]] } });
	yield enc2({ scene: REPLAY_SCENES[1], replay: { v: 1, steps: 10, q: 1000, events: [[0, 'f', 1, 0.5, 0.4, '<b>']] } });
	yield enc2(`{"scene":${JSON.stringify(REPLAY_SCENES[1])},"replay":{"v":1,"steps":10,"q":1000,"events":[[0,"f",0,NaN,0,0]]}}`);
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, 'p', '<img src=x onerror=alert(1)>', 1]] });
	yield run({ v: 1, steps: 10, q: 1000, events: [[0, '<script>alert(1)</script>', 1, 0, 0, 0]] });
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":${'['.repeat(20)}${']'.repeat(20)}}`);
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":{"v":1,"steps":10,"q":1000,"events":[${'['.repeat(12)}0${']'.repeat(12)}]}}`);
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":{"__proto__":{"polluted":1},"v":1,"steps":1,"q":1000,"events":[]}}`);
	yield enc2(`{"__proto__":{"polluted":1},"scene":${JSON.stringify(scene)}}`);
	yield enc2(`{"scene":${JSON.stringify(scene)},"replay":{"v":1,"v":2,"steps":1,"q":1000,"events":[]}}`);
	// random valid replays, then the same mutated in their JSON, their text, and their link
	for (let i = 0; i < 3981; i++) {
		const base = REPLAY_SCENES[i % REPLAY_SCENES.length];
		const replay = randomReplay(r, base);
		const kind = i % 5;
		if (kind === 0) {
			yield enc2({ scene: base, replay });
		} else if (kind === 1) {
			let m = structuredClone(replay);
			const times = 1 + Math.floor(r() * 3);
			for (let t = 0; t < times; t++) m = mutateJson(m, r);
			yield enc2({ scene: base, replay: m });
		} else if (kind === 2) {
			const text = JSON.stringify({ scene: base, replay });
			const at = text.indexOf('"replay"');
			const numbers = [...text.slice(at).matchAll(/-?\d+(\.\d+)?(e[+-]?\d+)?/g)];
			if (numbers.length === 0) { yield enc2(text); continue; }
			const m = numbers[Math.floor(r() * numbers.length)];
			const swap = NUMBER_SWAPS[Math.floor(r() * NUMBER_SWAPS.length)];
			yield enc2(text.slice(0, at + m.index) + swap + text.slice(at + m.index + m[0].length));
		} else if (kind === 3) {
			const link = enc2({ scene: base, replay });
			yield link.slice(0, 4 + Math.floor(r() * (link.length - 4)));
		} else {
			const link = enc2({ scene: base, replay }).split('');
			const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
			for (let f = 1 + Math.floor(r() * 3); f > 0; f--) link[4 + Math.floor(r() * (link.length - 4))] = alphabet[Math.floor(r() * 64)];
			yield link.join('');
		}
	}
}

test('4,000 random and hostile replays in links: refused by name or loaded valid and replayable, never a stray throw, a hang or markup', async () => {
	let count = 0, refused = 0, loaded = 0, withReplay = 0, replayed = 0, withMaterial = 0, pastCount = 0;
	const reasons = new Map();
	for (const fragment of replayFragments()) {
		count += 1;
		const t0 = performance.now();
		let run = null;
		try {
			run = await decodeRun(fragment);
		} catch (err) {
			assert.ok(err instanceof LinkError, `replay fragment ${count} threw ${err?.name}: ${err?.message}`);
			assert.equal(typeof err.reason, 'string');
			assert.ok(err.message.length > 10 && err.message.length < 600, `replay fragment ${count}: message "${err.message}"`);
			assert.doesNotMatch(err.message, /[<>]/, `replay fragment ${count}: markup in the message`);
			refused += 1;
			reasons.set(err.reason, (reasons.get(err.reason) ?? 0) + 1);
		}
		const ms = performance.now() - t0;
		assert.ok(ms < 1000, `replay fragment ${count} took ${ms.toFixed(0)} ms`);
		assert.equal({}.polluted, undefined);
		if (!run) continue;
		loaded += 1;
		assert.deepEqual(validateScene(run.scene), run.scene);
		if (!run.replay) continue;
		withReplay += 1;
		const replay = run.replay;
		if (replay.events.some((e) => e[1] === 'f')) withMaterial += 1;
		assert.deepEqual(validateReplay(replay, run.scene), replay);
		assert.ok(replay.steps <= REPLAY_LIMITS.maxSteps && replay.events.length <= REPLAY_LIMITS.maxEvents);
		assert.deepEqual(await decodeRun(await encodeLink(run.scene, { replay })), run);
		// A grab past the world's particles (the link knows only the scene's limit) is refused against the engine's
		// count, by name, as the page and the replayer refuse it.
		const particles = particlesOf(run.scene);
		try { readReplay(replay, run.scene, 'replay', particles); } catch (err) {
			assert.ok(err instanceof SceneError && /^replay\.events\[\d+\]\[\d+\]$/.test(err.path), `${err.path}: ${err.message}`);
			assert.match(err.message, new RegExp(`must be an integer in 0\\.\\.${particles - 1}, got \\d+`));
			pastCount += 1;
			continue;
		}
		// a replay that loads runs on the engine to its end without an error, every value finite
		if (withReplay % 4 === 0) {
			const world = pbd.createWorld(run.scene);
			let result = null;
			new Replayer(world, replay, { onEnd: (x) => { result = x; } });
			world.step(replay.steps);
			assert.ok(result && result.error === null, `replay fragment ${count}: ${result?.error}`);
			assert.equal(result.steps, replay.steps);
			assert.ok(world.positions.every(Number.isFinite), `replay fragment ${count}: non-finite positions`);
			world.destroy();
			replayed += 1;
		}
	}
	console.log(`fuzzed ${count} replay links: ${refused} refused (${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ')}), ${loaded} loaded, ${withReplay} with a replay, ${pastCount} past the world's particles, ${replayed} replayed on the engine`);
	assert.ok(count >= 4000);
	assert.ok(reasons.get('invalid-replay') > 300, 'the fuzz reaches the replay validator');
	assert.ok(withReplay > 700 && replayed > 150, 'and valid replays');
	assert.ok(withMaterial > 50, `and valid collider materials (${withMaterial})`);
});
