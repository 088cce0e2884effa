// v8-inline-crash.mjs -- a Node 20 (V8 11.3) crash the JS-surface fuzz (tests/node/api-fuzz.test.mjs)
// ran into: `node tests/fuzz/v8-inline-crash.mjs` dies of SIGSEGV within a second, in code TurboFan
// compiled, where it should print "ok". It runs clean with `node --no-turbo-inline-js-wasm-calls`
// (TurboFan's inlining of JS-to-wasm calls) or `node --no-opt`, so the bug is V8's, not the engine's:
// World.setMass is optimised (hot through setObjectMass) with its wasm calls inlined, and then meets
// arguments of many types that its checks refuse. Kept as a reproducer; not a test.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
const world = pbd.createWorld({
  format: 'minipbd-scene', version: 1,
  objects: [
    { type: 'cloth', origin: [-0.5, 1.5, 0], size: [1, 1], resolution: [8, 8], pins: [[0, 0], [7, 0]] },
    { type: 'chain', start: [1, 2, 0], end: [2, 2, 0], segments: 6, pins: [0] },
  ],
});
const odd = [Symbol('s'), 10n, '45', NaN, 45.9, {}, -1, undefined, null, true, [1], () => 1, { valueOf: () => 3 }, new Date(0)];
for (let round = 0; round < 3000; round++) {
  world.setObjectMass(round % 2, 0.01 + (round % 5) * 0.01);
  for (const a of odd) {
    try { world.setMass(a, 0.5); } catch { /* refused, as it should be */ }
  }
}
console.log('ok');
