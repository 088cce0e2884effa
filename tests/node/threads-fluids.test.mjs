// threads-fluids.test.mjs — every built-in scene with water and no hose gives the same state hash on 1, 2, 3, 4 and 8
// threads of the threaded wasm as in the single-thread build: the other half of threads.test.mjs's scene check (the
// scenes without fluid, and those with a hose, are there), in a file of its own so that the two halves run side by
// side.
// The steps each scene runs, and why they are enough: thread-hashes.mjs.
import assert from 'node:assert/strict';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { hasWater } from '../../web/js/objects/index.js';
import { loadBuilds, hasHose, inFluidHalf, testSceneHashes } from './thread-hashes.mjs';

const ids = await testSceneHashes(await loadBuilds(), inFluidHalf);
// The scenes checked here are the built-in scenes with an object of a water type (the registry's `water` flag) and no
// hose, not a list kept by hand: a new scene with water is checked here (or, with a hose, in threads.test.mjs) without
// naming it, and one the picker missed fails.
const withWater = Object.keys(builtinScenes).filter((id) => hasWater(builtinScenes[id]) && !hasHose(builtinScenes[id])).sort();
assert.ok(withWater.length > 0, 'some built-in scene has water and no hose');
assert.deepEqual([...ids].sort(), withWater, 'the scenes with water and no hose, each checked here');
