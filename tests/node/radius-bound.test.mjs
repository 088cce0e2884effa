// The contact radius's bound (src/minipbd.h PBD_MAX_RADIUS_SPACINGS: a particle's contact radius at most 2 spacings
// of its object's particles, so a chain's or cloth's thickness at most 4) is one rule in the scene validator and the
// engine, to the float: for random cloths, chains and boxes, the limit the validator computes (in float32, as the
// engine does) is taken by both, and the next float32 above it is refused by both (the validator naming the path;
// the engine's own check through its exports, as a caller that skips the validator meets it).
import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD, validateScene, SceneError, SCENE_LIMITS } from '../../web/js/minipbd.js';
import { MAX_RADIUS_SPACINGS } from '../../web/js/engine/params.js';
import { clothSpacing } from '../../web/js/objects/cloth.js';
import { chainSpacing } from '../../web/js/objects/chain.js';
import { bodyDefaultRadius } from '../../web/js/objects/body-common.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));
const e = pbd.exports;
const THICKNESS = pbd.paramNames.indexOf('thickness');

/** The float32 after x (x > 0). */
function nextUp(x) {
  const f = new Float32Array([x]);
  new Uint32Array(f.buffer)[0] += 1;
  return f[0];
}

let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const between = (lo, hi) => lo + (hi - lo) * rand();
const scene = (solver, objects) => ({ format: 'minipbd-scene', version: 2, solver, objects });

test('the generated table and the scene limits quote the engine\'s bound', () => {
  assert.equal(MAX_RADIUS_SPACINGS, 2);
  assert.equal(SCENE_LIMITS.maxRadiusSpacings, MAX_RADIUS_SPACINGS);
  const limit = Array.from({ length: e.pbd_LimitCount() }, (_, i) => i).find((i) => pbd.readString(e.pbd_LimitName(i)) === 'maxRadiusSpacings');
  assert.equal(e.pbd_GetLimit(limit), MAX_RADIUS_SPACINGS);
});

test('chains and cloths: solver.thickness at 4 spacings is taken, one float above is refused, by both', () => {
  let checked = 0;
  for (let k = 0; k < 60; k++) {
    const cloth = k % 2 === 0;
    const o = cloth
      ? { type: 'cloth', origin: [0, 1, 0], size: [between(0.05, 3), between(0.05, 3)], resolution: [2 + Math.floor(rand() * 60), 2 + Math.floor(rand() * 60)] }
      : { type: 'chain', start: [between(-2, 2), between(0, 2), between(-2, 2)], end: [between(-2, 2), between(0, 2), between(-2, 2)], segments: 1 + Math.floor(rand() * 400) };
    const spacing = cloth ? clothSpacing(o) : chainSpacing(o);
    const limit = Math.fround(2 * MAX_RADIUS_SPACINGS * spacing);
    if (!(limit >= 0.0001 && nextUp(limit) <= 1)) continue; // within the parameter's own range
    checked++;
    const world = pbd.createWorld(scene({ thickness: limit }, [o])); // the validator and the engine take it
    assert.equal(e.pbd_World_SetParam(world.id, THICKNESS, nextUp(limit)), -2, `${o.type} ${k}: the engine took ${nextUp(limit)}`);
    assert.equal(e.pbd_World_SetParam(world.id, THICKNESS, limit), 0);
    world.destroy();
    assert.throws(() => validateScene(scene({ thickness: nextUp(limit) }, [o])), (err) => err instanceof SceneError
      && err.path === `objects[0].${cloth ? 'resolution' : 'segments'}` && /may be at most 4 times that/.test(err.message));
    // the engine refuses the object itself at that thickness (a caller that skips the validator)
    const raw = pbd.createWorldWith({ particles: 8192, constraints: 65536, triangles: 16384, lines: 1024, attachments: 4, objects: 1, colliders: 1 });
    assert.ok(raw > 0);
    assert.equal(e.pbd_World_SetParam(raw, THICKNESS, nextUp(limit)), 0);
    const added = cloth
      ? e.pbdjs_AddCloth(raw, 0, 1, 0, o.size[0], 0, 0, 0, -o.size[1], 0, o.resolution[0], o.resolution[1], 0.01)
      : e.pbdjs_AddChain(raw, ...o.start, ...o.end, o.segments, 0.05);
    assert.equal(added, -2, `${o.type} ${k}: the engine added it at ${nextUp(limit)}`);
    e.pbd_DestroyWorld(raw);
  }
  assert.ok(checked >= 30, `${checked} cases`);
});

test('bodies: particleRadius at 2 lattice spacings is taken, one float above is refused, by both', () => {
  let checked = 0;
  for (let k = 0; k < 30; k++) {
    const o = { type: k % 2 ? 'rigid' : 'soft', shape: 'box', position: [0, 1, 0], halfExtents: [between(0.05, 1), between(0.05, 1), between(0.05, 1)],
      resolution: 1 + Math.floor(rand() * 12) };
    const limit = Math.fround(MAX_RADIUS_SPACINGS * Math.fround(2 * bodyDefaultRadius(o)));
    if (!(nextUp(limit) <= SCENE_LIMITS.maxBodyRadius)) continue;
    checked++;
    const world = pbd.createWorld(scene({}, [{ ...o, particleRadius: limit }]));
    assert.equal(e.pbd_World_SetObjectRadius(world.id, 0, nextUp(limit)), -2, `body ${k}: the engine took ${nextUp(limit)}`);
    assert.equal(e.pbd_World_SetObjectRadius(world.id, 0, limit), 0);
    world.destroy();
    assert.throws(() => validateScene(scene({}, [{ ...o, particleRadius: nextUp(limit) }])), (err) => err instanceof SceneError
      && err.path === 'objects[0].particleRadius' && /at most 2 times the body's lattice spacing/.test(err.message));
  }
  assert.ok(checked >= 20, `${checked} cases`);
});

test('every built-in scene keeps within the bound, and a world\'s setParam says so before the engine', async () => {
  const { builtinScenes } = await import('../../web/js/minipbd.js');
  for (const [id, s] of Object.entries(builtinScenes)) assert.doesNotThrow(() => validateScene(s), id);
  const world = pbd.createWorld(builtinScenes['large-cloth'] ?? builtinScenes.cloth);
  const o = world.describe().objects[0];
  const limit = Math.fround(2 * MAX_RADIUS_SPACINGS * clothSpacing(o));
  assert.throws(() => world.setParam('thickness', nextUp(limit)), /parameter thickness must be at most 4 times the .* between objects\[0\]'s particles/);
  assert.equal(world.getParam('thickness'), Math.fround(world.describe().solver.thickness));
  world.setParam('thickness', limit);
  world.destroy();
});
