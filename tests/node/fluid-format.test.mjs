// The fluid in the scene format and in links: exact parser results, the describe() round trip, and
// hostile fluid settings refused with a message naming what is wrong (docs/scene-format.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadMiniPBD, validateScene, SceneError, encodeLink, decodeLink, decodeRun, LinkError } from '../../web/js/minipbd.js';
import { SCENE_LIMITS } from '../../web/js/format/limits.js';
import { readReplay } from '../../web/js/format/replay.js';

const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));
const water = (extra = {}) => ({ type: 'fluid', name: 'water', block: { lower: [0, 0, 0], upper: [0.2, 0.1, 0.1] }, ...extra });
const scene = (objects = [water()], extra = {}) => ({ format: 'minipbd-scene', version: 2, ...extra, objects });
// Refused by createWorld (the validator, then the engine's counts: a block's count is the engine's), nothing made.
const refused = (input, path, text) => {
  const worlds = pbd.worlds.size;
  assert.throws(() => pbd.createWorld(input), (e) => e instanceof SceneError && e.path === path && e.message.includes(text), `${path}: ${text}`);
  assert.equal(pbd.worlds.size, worlds, `${path}: no world made`);
};

test('a fluid object is read exactly: block, defaults, emitters and drains', () => {
  const s = validateScene(scene([water({ capacity: 500,
    emitters: [{ position: [0, 1, 0], direction: [0, -2, 0] }, { position: [1, 1, 0], direction: [1, 0, 0], speed: 3, radius: 0.05, enabled: false }],
    drains: [{ lower: [-1, -1, -1], upper: [1, 0.01, 1] }] })]));
  assert.deepEqual(s.objects[0], {
    type: 'fluid', name: 'water', block: { lower: [0, 0, 0], upper: [0.2, 0.1, 0.1] }, velocity: [0, 0, 0], capacity: 500,
    emitters: [
      { position: [0, 1, 0], direction: [0, -2, 0], speed: 1, radius: 0.02, enabled: true },
      { position: [1, 1, 0], direction: [1, 0, 0], speed: 3, radius: 0.05, enabled: false },
    ],
    drains: [{ lower: [-1, -1, -1], upper: [1, 0.01, 1] }],
  });
  assert.deepEqual(s.fluid, { restDensity: 1000, spacing: 0.02, smoothingRadius: 0.04, relaxation: 0.01, scorr: { k: 0.1, n: 4, dq: 0.2 },
    vorticity: 0.005, viscosity: 0.01, sortInterval: 1, friction: 0 });
  assert.deepEqual(validateScene(s), s, 'a normalised scene reads back as itself');
  const bare = validateScene(scene([{ type: 'fluid', capacity: 10 }])).objects[0];
  assert.equal(bare.block, null);
  assert.equal(bare.name, 'fluid 1');
});

test('the block count is the engine\'s (pbdjs_FluidBlockCount) at the scene\'s spacing', () => {
  const cases = [[[0, 0, 0], [0.2, 0.1, 0.1], 0.02, 10 * 5 * 5], [[0, 0, 0], [0.3, 0.3, 0.3], 0.025, 12 ** 3],
    [[-0.6, 0, -0.3], [-0.28, 0.64, 0.02], 0.02, 16 * 32 * 16], [[0, 0, 0], [0.019, 1, 1], 0.02, 0], [[0.1, 0.1, 0.1], [0.7, 0.13, 0.3], 0.03, 20 * 1 * 6]];
  for (const [lower, upper, d, n] of cases) {
    assert.equal(pbd.exports.pbdjs_FluidBlockCount(...lower, ...upper, d), n, `${lower} ${upper} at ${d}`);
  }
  const w = pbd.createWorld(scene([water()], { fluid: { spacing: 0.025, smoothingRadius: 0.05 } }));
  assert.equal(w.particleCount, 8 * 4 * 4, 'the world holds the block at the scene\'s spacing');
  assert.equal(w.objects[0].activeParticles, 128);
  w.destroy();
});

test('describe() round-trips a fluid scene, also through a link', async () => {
  const input = scene([water({ capacity: 400, velocity: [0.5, 0, 0] })],
    { fluid: { viscosity: 0.1, scorr: { k: 0.05 } } });
  const world = pbd.createWorld(input);
  world.setParam('fluid.vorticity', 0.05);
  const d = world.describe();
  assert.equal(d.fluid.vorticity, 0.05, 'the description follows setParam');
  assert.equal(d.fluid.scorr.k, 0.05);
  assert.deepEqual(validateScene(d), d);
  const back = await decodeLink(await encodeLink(d));
  assert.deepEqual(back, d);
  const again = pbd.createWorld(back);
  world.step(5); again.step(5);
  assert.equal(again.hash(), world.hash(), 'the link builds the same world');
  world.destroy(); again.destroy();
});

test('hostile fluid settings are refused naming what is wrong', () => {
  const ratio = 'fluid.smoothingRadius must be 1 to 4 times fluid.spacing';
  refused(scene([water()], { fluid: { smoothingRadius: 0 } }), 'fluid.smoothingRadius', 'must be a number in [0.002, 4]');
  refused(scene([water()], { fluid: { smoothingRadius: 1e9 } }), 'fluid.smoothingRadius', 'must be a number in [0.002, 4]');
  refused(scene([water()], { fluid: { spacing: 0 } }), 'fluid.spacing', 'must be a number in [0.002, 1]');
  refused(scene([water()], { fluid: { smoothingRadius: 0.0199 } }), 'fluid.smoothingRadius', ratio);
  refused(scene([water()], { fluid: { smoothingRadius: 0.0801 } }), 'fluid.smoothingRadius', ratio);
  refused(scene([water()], { fluid: { spacing: 0.5 } }), 'fluid.smoothingRadius', ratio);
  refused(scene([water()], { fluid: { restDensity: NaN } }), 'fluid.restDensity', 'must be a number in [1, 100000]');
  refused(scene([water()], { fluid: { scorr: { n: 2.5 } } }), 'fluid.scorr.n', 'must be an integer in 1..8');
  refused(scene([water()], { fluid: { scorr: { q: 1 } } }), 'fluid.scorr.q', 'unknown key fluid.scorr.q');
  const L = SCENE_LIMITS;
  refused(scene([water({ capacity: L.maxFluidParticles + 1 })]), 'objects[0].capacity', `must be an integer in 0..${L.maxFluidParticles}`);
  refused(scene([water({ capacity: 120000 }), water({ capacity: 120000 })]), 'objects', `must have at most ${L.maxFluidParticles} fluid particles in all (exceeded at objects[1])`);
  refused(scene([water({ capacity: 49 })]), 'objects[0].capacity', 'objects[0].capacity must be at least the block\'s 250 particles (at fluid.spacing 0.02), or 0 for exactly those, got 49');
  refused(scene([water({ block: { lower: [0, 0, 0], upper: [100, 100, 100] } })]), 'objects[0].block',
    `must hold at most ${L.maxFluidParticles} particles at fluid.spacing 0.02 (it holds more than 4194304)`);
  refused(scene([water({ block: { lower: [0, 0, 0], upper: [2, 2, 2] } })]), 'objects[0].block',
    `must hold at most ${L.maxFluidParticles} particles at fluid.spacing 0.02 (it holds ${100 ** 3})`);
  refused(scene([water({ block: { lower: [0, 0, 0], upper: [0.01, 1, 1] } })]), 'objects[0].capacity', 'must be above 0 when the block holds no particle');
  refused(scene([water({ block: { lower: [0, 0, 0], upper: [0.2, -0.1, 0.1] } })]), 'objects[0].block.upper[1]', 'must not be below lower[1]');
  refused(scene([{ type: 'fluid' }]), 'objects[0].capacity', 'must be above 0 when the block holds no particle');
  refused(scene([water({ velocity: [NaN, 0, 0] })]), 'objects[0].velocity[0]', 'must be a number');
  const hose = (e) => scene([water({ capacity: 1000, emitters: [{ position: [0, 1, 0], direction: [0, -1, 0], ...e }] })]);
  refused(hose({ direction: [0, 0, 0] }), 'objects[0].emitters[0].direction', 'must be a non-zero vector');
  refused(hose({ speed: 0 }), 'objects[0].emitters[0].speed', 'must be a number in (0, 50]');
  refused(hose({ speed: Infinity }), 'objects[0].emitters[0].speed', 'must be a number in (0, 50]');
  refused(hose({ radius: 0.005 }), 'objects[0].emitters[0].radius', 'must be a number in [0.01, 1]');
  refused(hose({ enabled: 1 }), 'objects[0].emitters[0].enabled', 'must be true or false');
  refused(hose({ position: [NaN, 0, 0] }), 'objects[0].emitters[0].position[0]', 'must be a number');
  refused(scene([{ type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 2, emitters: [] }]), 'objects[0].emitters', 'unknown key objects[0].emitters');
  refused(scene([{ type: 'cloth', origin: [0, 1, 0], size: [1, 1], resolution: [2, 2], drains: [] }]), 'objects[0].drains', 'unknown key objects[0].drains');
  const nine = Array.from({ length: 9 }, () => ({ position: [0, 1, 0], direction: [0, -1, 0] }));
  refused(scene([water({ capacity: 1000, emitters: nine })]), 'objects[0].emitters', 'an array of at most 8 emitters');
});

test('hostile fluid links are refused with the message naming what; the World refuses a broken ratio and stays as it was', async () => {
  const base = validateScene(scene());
  for (const [edit, text, by = 'link'] of [
    [(s) => { s.fluid.smoothingRadius = 0; }, 'fluid.smoothingRadius must be a number'],
    [(s) => { s.fluid.smoothingRadius = 1e9; }, 'fluid.smoothingRadius must be a number'],
    [(s) => { s.fluid.spacing = 0; }, 'fluid.spacing must be a number'],
    [(s) => { s.fluid.smoothingRadius = 0.1; }, 'must be 1 to 4 times fluid.spacing'],
    // a count is the engine's: such a link is read, and the world it asks for is refused (by createWorld, below)
    [(s) => { s.objects[0].capacity = 10; }, 'objects[0].capacity must be at least the block\'s 250 particles', 'world'],
  ]) {
    const s = structuredClone(base);
    edit(s);
    // A link carries what a page wrote; a hostile one is made by hand, so the scene goes in unchecked.
    const bytes = new TextEncoder().encode(JSON.stringify(s));
    const cs = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const packed = new Uint8Array(await new Response(cs).arrayBuffer());
    const { base64urlEncode } = await import('../../web/js/format/link.js');
    const run = decodeRun(`#s=1.${base64urlEncode(packed)}`);
    if (by === 'link') {
      await assert.rejects(run, (e) => e instanceof LinkError && e.reason === 'invalid-scene' && e.message.includes(text), text);
    } else {
      const { scene: read } = await run;
      const worlds = pbd.worlds.size;
      assert.throws(() => pbd.createWorld(read), (e) => e instanceof SceneError && e.message.includes(text), text);
      assert.equal(pbd.worlds.size, worlds);
    }
  }
  const world = pbd.createWorld(base);
  const hash = world.hash();
  const before = JSON.stringify(world.describe());
  assert.throws(() => world.setParam('fluid.smoothingRadius', 0.1), /fluid.smoothingRadius must be 1 to 4 times fluid.spacing/);
  assert.throws(() => world.setParam('fluid.spacing', 0.005), /1 to 4 times/);
  assert.equal(world.getParam('fluid.smoothingRadius'), Math.fround(0.04));
  assert.equal(world.hash(), hash);
  assert.equal(JSON.stringify(world.describe()), before);
  // A replay that would break the ratio half-way is refused before it runs.
  const bad = { v: 1, steps: 10, q: 1000, events: [[2, 'p', 'fluid.spacing', 0.005]] };
  assert.throws(() => readReplay(bad, base), (e) => e instanceof SceneError && e.path === 'replay.events[0][3]' && e.message.includes('1 to 4 times'));
  const ok = { v: 1, steps: 10, q: 1000, events: [[2, 'p', 'fluid.smoothingRadius', 0.06], [0, 'p', 'fluid.spacing', 0.03]] };
  assert.equal(readReplay(ok, base).events.length, 2, 'a ratio kept at every event passes');
  world.destroy();
});

test('setEmitter is refused on bad input, naming the field, and nothing changes', () => {
  const world = pbd.createWorld(scene());
  const hash = world.hash();
  const before = JSON.stringify(world.describe());
  assert.throws(() => world.setEmitter(0, { enabled: false }), (e) => e.code === 'argument' && /setEmitter: emitter/.test(e.message), 'no emitter 0');
  assert.throws(() => world.setEmitter('0', { enabled: false }), /setEmitter: emitter/);
  assert.equal(world.hash(), hash);
  assert.equal(JSON.stringify(world.describe()), before);
  world.destroy();
});

test('a cloth\'s colour (how the hammock shows water on it) is read exactly, refused when malformed, kept by links', async () => {
  const cloth = (extra = {}) => ({ type: 'cloth', origin: [0, 1, 0], size: [0.2, 0.2], resolution: [4, 4], plane: 'xz', ...extra });
  assert.equal(validateScene(scene([cloth({ colour: '#E8E0CC' })])).objects[0].colour, '#e8e0cc', 'lower case, as given');
  assert.equal('colour' in validateScene(scene([cloth()])).objects[0], false, 'left out: not in the normalised scene');
  for (const bad of ['e8e0cc', '#e8e0c', '#e8e0ccff', '#g8e0cc', 0xe8e0cc, null, ['#e8e0cc']]) {
    refused(scene([cloth({ colour: bad })]), 'objects[0].colour', 'must be a colour "#rrggbb"');
  }
  const input = scene([cloth({ colour: '#e8e0cc' })]);
  const world = pbd.createWorld(input);
  const d = world.describe();
  assert.equal(d.objects[0].colour, '#e8e0cc', 'the description carries it');
  assert.deepEqual(await decodeLink(await encodeLink(d)), d, 'and so does its link');
  world.destroy();
});
