// Fuzz of the link decoder: 10,000 random and hand-made hostile fragments. Every one must
// either be refused with a LinkError carrying a reason and a message, or decode to a scene
// that validateScene accepts and that stays within SCENE_LIMITS; none may throw anything
// else, and none may take more than a second.
import test from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { decodeLink, encodeLink, LinkError, base64urlEncode } from '../../web/js/link.js';
import { builtinScenes, validateScene, sceneParticleCount, SCENE_LIMITS } from '../../web/js/scene.js';

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
			refused += 1;
			reasons.set(err.reason, (reasons.get(err.reason) ?? 0) + 1);
		}
		const ms = performance.now() - t0;
		assert.ok(ms < 1000, `fragment ${count} took ${ms.toFixed(0)} ms`);
		if (scene) {
			loaded += 1;
			// what loads is a valid, bounded scene with no inherited surprises
			assert.deepEqual(validateScene(scene), scene);
			assert.ok(sceneParticleCount(scene) <= SCENE_LIMITS.maxParticles);
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
