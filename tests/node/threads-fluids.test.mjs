// threads-fluids.test.mjs — every built-in fluid scene (dam-break, hammock, floating, swirl) gives the same state hash
// on 1, 2, 3, 4 and 8 threads of the threaded wasm as in the single-thread build: the other half of threads.test.mjs's
// scene check (the scenes without fluid are there), in a file of its own so that the two halves run side by side.
// The steps each scene runs, and why they are enough: thread-hashes.mjs.
import assert from 'node:assert/strict';
import { loadBuilds, hasFluid, testSceneHashes } from './thread-hashes.mjs';

const ids = await testSceneHashes(await loadBuilds(), hasFluid);
assert.deepEqual([...ids].sort(), ['balloons', 'dam-break', 'floating', 'hammock', 'swirl'], 'the fluid scenes, each checked here');
