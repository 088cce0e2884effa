// The scene validator's counts against the engine's. The validator stays synchronous and runs without an engine
// (a file or link is checked before any wasm is loaded), so it keeps two re-implementations of the engine's float32
// arithmetic: a lattice body's particles (objects/body-common.js bodyParticleCount, src/builders/body.c's plan) and a
// fluid block's (objects/fluid.js blockCount, src/builders/fluid.c AxisCount). Worlds are sized from the engine's
// own counts (pbd_BodyCounts, pbd_FluidBlockCount: loader.js), so a mirror that drifts would only let the validator
// pass or refuse a scene by the wrong count; this test fails when it does, over many random inputs, including
// sizes placed on the roundings' edges. A mesh body's count needs the inside test: there the mirror is a bound.
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, validateScene } from '../../web/js/minipbd.js';
import { objectTypeOf } from '../../web/js/objects/index.js';
import { bodyParticleCount } from '../../web/js/objects/body-common.js';
import { blockCount } from '../../web/js/objects/fluid.js';
import { ENGINE_LIMITS } from '../../web/js/engine/param-table.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

let seed = 20261203;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const between = (lo, hi) => lo + (hi - lo) * rand();
const whole = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const scene = (objects, fluid) => validateScene({ format: 'minipbd-scene', version: 2, objects, ...(fluid ? { fluid } : {}) });
const engineParticles = (s) => objectTypeOf(s.objects[0]).counts(pbd, s.objects[0], 0, s).particles;

test('a box body\'s particles: the validator\'s float32 plan is the engine\'s, 400 random boxes', () => {
  for (let k = 0; k < 400; k++) {
    const resolution = whole(1, ENGINE_LIMITS.bodyMaxResolution);
    const hmax = between(0.05, 2);
    // half the sides drawn anywhere, half where resolution * h / hmax + 0.5 sits within a float of a whole number
    const side = () => (rand() < 0.5 ? between(0.02, hmax)
      : Math.min(hmax, Math.max(0.01, (hmax * (whole(1, resolution) - 0.5)) / resolution * (1 + (rand() - 0.5) * 1e-7))));
    const halfExtents = [hmax, side(), side()].sort(() => rand() - 0.5);
    const type = rand() < 0.5 ? 'soft' : 'rigid';
    let s;
    try {
      s = scene([{ type, shape: 'box', position: [0, 1, 0], halfExtents, resolution }]);
    } catch { continue; } // past the scene's particle limit
    assert.equal(bodyParticleCount(s.objects[0]), engineParticles(s), `box ${halfExtents} at ${resolution}`);
  }
});

test('a ball body\'s particles: the validator\'s float32 plan is the engine\'s, 150 random balls', () => {
  for (let k = 0; k < 150; k++) {
    const resolution = whole(1, ENGINE_LIMITS.bodyMaxResolution);
    const radius = rand() < 0.5 ? between(0.03, 2) : Math.fround(between(0.03, 2));
    const s = scene([{ type: 'soft', shape: 'ball', position: [0, 1, 0], radius, resolution }]);
    assert.equal(bodyParticleCount(s.objects[0]), engineParticles(s), `ball ${radius} at ${resolution}`);
  }
});

test('a mesh body\'s particles: the validator\'s count bounds the engine\'s', () => {
  for (let k = 0; k < 12; k++) {
    const [a, b, c] = [between(0.1, 1), between(0.1, 1), between(0.1, 1)];
    const v = [[-a, -b, -c], [a, -b, -c], [a, b, -c], [-a, b, -c], [-a, -b, c], [a, -b, c], [a, b, c], [-a, b, c]];
    const faces = [[1, 4, 3, 2], [5, 6, 7, 8], [1, 2, 6, 5], [2, 3, 7, 6], [3, 4, 8, 7], [4, 1, 5, 8]];
    const obj = [...v.map((p) => `v ${p.join(' ')}`), ...faces.map((f) => `f ${f.join(' ')}`)].join('\n');
    const s = scene([{ type: 'soft', shape: 'mesh', obj, resolution: whole(2, 12) }]);
    const bound = bodyParticleCount(s.objects[0]);
    const exact = engineParticles(s);
    assert.ok(exact > 0 && exact <= bound, `mesh ${a} ${b} ${c}: engine ${exact}, bound ${bound}`);
  }
});

test('a fluid block\'s particles: the validator\'s count is pbd_FluidBlockCount\'s, 1000 random blocks', () => {
  let edges = 0;
  for (let k = 0; k < 1000; k++) {
    const spacing = Math.fround(between(0.01, 0.2));
    const lower = [between(-2, 2), between(0, 2), between(-2, 2)];
    // a side of n spacings give or take a float (AxisCount's 1e-6 and the float32 corners decide), or anything
    const upper = lower.map((x) => (rand() < 0.5 ? x + between(0, 1) : x + whole(0, 12) * spacing * (1 + (rand() - 0.5) * 4e-6)));
    const block = { lower, upper };
    const expected = blockCount(block, spacing);
    const e = pbd.exports;
    const got = e.pbdjs_FluidBlockCount(...lower, ...upper, spacing);
    assert.equal(expected, got, `block ${lower} - ${upper} at ${spacing}`);
    if (upper.some((x, i) => Math.abs((x - lower[i]) / spacing - Math.round((x - lower[i]) / spacing)) < 1e-5)) edges++;
  }
  assert.ok(edges > 100, `${edges} blocks on the edges`);
});
