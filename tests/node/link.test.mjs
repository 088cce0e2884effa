// Tests for web/js/format/link.js: round trips, length budget, fragment grammar, and a table of hostile links.
// node:zlib and Buffer are used here only as an independent reference for deflate/base64url.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import fs from 'node:fs';
import './plain-env.mjs';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { readReplay } from '../../web/js/format/replay.js';
import { SceneError } from '../../web/js/format/read.js';
import {
  encodeLink, withoutDefaults, withoutDefaultsPerKey, decodeLink, decodeRun, parseFragment, LinkError, LINK_WARN_LENGTH, LINK_MAX_PAYLOAD, LINK_MAX_FRAGMENT,
  LINK_VERSION, LINK_MIN_VERSION, base64urlEncode, base64urlDecode,
} from '../../web/js/format/link.js';
import { validateScene } from '../../web/js/format/scene.js';
import { builtinScenes, loadBuiltinScene } from '../../web/js/format/builtin-scenes.js';

const unhandled = [];
process.on('unhandledRejection', (e) => unhandled.push(e));
after(async () => {
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(unhandled, [], 'no unhandled rejections from cancelled streams');
});

const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
const linkOfBytes = (bytes) => `s=1.${b64(deflateRawSync(Buffer.from(bytes)))}`;
const linkOfText = (text) => linkOfBytes(Buffer.from(text, 'utf8'));
const minimal = () => ({
  format: 'minipbd-scene', version: 3,
  objects: [{ type: 'chain', start: [0, 2, 0], end: [1, 2, 0], segments: 4 }],
});

async function reasonOf(fragment) {
  try { await decodeLink(fragment); } catch (e) {
    assert.ok(e instanceof LinkError, `not a LinkError: ${e?.stack ?? e}`);
    assert.equal(typeof e.message, 'string');
    assert.ok(e.message.length > 0 && e.message.length < 500);
    return e;
  }
  return null;
}

test('constants', () => {
  assert.equal(LINK_WARN_LENGTH, 2000);
  assert.equal(LINK_MAX_PAYLOAD, 16384);
  assert.equal(LINK_MAX_FRAGMENT, 17408);
  assert.equal(LINK_VERSION, 2);
  assert.equal(LINK_MIN_VERSION, 1);
});

test('every built-in round-trips exactly and encodes to fewer than 2000 characters', async (t) => {
  for (const [id, scene] of Object.entries(builtinScenes)) {
    const link = await encodeLink(scene);
    t.diagnostic(`${id}: ${link.length + 1} chars with '#'`);
    console.log(`link length ${id}: ${link.length + 1}`);
    assert.match(link, /^s=1\.[A-Za-z0-9_-]+$/);
    assert.ok(link.length + 1 < LINK_WARN_LENGTH, `${id} link is ${link.length + 1} chars`);
    assert.deepEqual(await decodeLink(link), scene, id);
    assert.deepEqual(await decodeLink('#' + link), scene, id);
    assert.deepEqual(await decodeLink(`lang=zh&${link}&view=1`), scene, id);
  }
});

test('encodeLink normalises first and leaves out what is at its default; the payload decodes to exactly the normalised scene', async () => {
  const { inflateRawSync } = await import('node:zlib');
  const payloadOf = (link) => JSON.parse(inflateRawSync(Buffer.from(link.slice(4), 'base64url')).toString('utf8'));
  const link = await encodeLink(minimal());
  const expected = validateScene(minimal());
  assert.deepEqual(await decodeLink(link), expected);
  const json = payloadOf(link);
  // the minimal scene is all defaults but its one object: nothing else is written
  assert.deepEqual(Object.keys(json).sort(), ['format', 'objects', 'version']);
  assert.ok(JSON.stringify(json).length < JSON.stringify(expected).length / 2);
  // a value that differs from its default is kept, a default one is not, at every depth
  const scene = validateScene(builtinScenes.flag);
  const written = payloadOf(await encodeLink(scene));
  assert.equal(written.solver.tearStretch, 0.35);
  assert.equal('maxSpeed' in written.solver, false);
  assert.equal(written.colliders[0].type, 'capsule');
  assert.equal('restitution' in written.colliders[0], false);
  assert.deepEqual(validateScene(written), scene);
  // glass (how a collider is drawn): left out at its default (false), kept when true (the tanks' walls)
  assert.equal('glass' in written.colliders[0], false);
  const tank = validateScene(builtinScenes['dam-break']);
  const tankWritten = payloadOf(await encodeLink(tank));
  assert.deepEqual(tankWritten.colliders.map((c) => c.glass), [true, true, true, true]);
  assert.deepEqual(await decodeLink(await encodeLink(tank)), tank);
  // every built-in scene: exact round trip, and shorter than the normalised JSON
  for (const [id, s0] of Object.entries(builtinScenes)) {
    const n = validateScene(s0);
    const l = await encodeLink(n);
    assert.deepEqual(await decodeLink(l), n, id);
    assert.deepEqual(validateScene(withoutDefaults(n)), n, id);
    assert.ok(JSON.stringify(payloadOf(l)).length < JSON.stringify(n).length, id);
  }
});

test('encodeLink refuses scenes that could not be decoded again', async () => {
  await assert.rejects(encodeLink({ format: 'nope' }), (e) => e instanceof LinkError && e.reason === 'invalid-scene' && e.path === 'format');
  // 20 chains with 10000 pins each: valid, but far beyond the JSON size a link may carry.
  const big = { format: 'minipbd-scene', version: 3, objects: Array.from({ length: 20 }, () => ({
    type: 'chain', start: [0, 0, 0], end: [50, 0, 0], segments: 10000, pins: Array.from({ length: 10000 }, (_, i) => i) })) };
  await assert.rejects(encodeLink(big), (e) => e.reason === 'too-large');
});

test('base64url matches Buffer for every tail length, and rejects non-canonical text', () => {
  for (let n = 0; n < 70; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 73 + n * 31) & 255);
    const text = base64urlEncode(bytes);
    assert.equal(text, b64(bytes), `encode ${n}`);
    assert.deepEqual(base64urlDecode(text), bytes, `decode ${n}`);
  }
  for (const bad of ['A', 'AB', 'AAB', 'AA==', 'A+AA', 'A/AA', 'AA A', 'AAé']) assert.equal(base64urlDecode(bad), null, bad);
});

test('parseFragment: exact results', () => {
  assert.deepEqual(parseFragment('#s=1.abc_-&lang=zh'), { version: '1', payload: 'abc_-', params: new Map([['lang', 'zh']]) });
  assert.deepEqual(parseFragment('lang=zh&s=1.abc'), { version: '1', payload: 'abc', params: new Map([['lang', 'zh']]) });
  assert.deepEqual(parseFragment('s=12.a.b'), { version: '12', payload: 'a.b', params: new Map() });
  assert.deepEqual(parseFragment('s=1'), { version: '1', payload: null, params: new Map() });
  assert.deepEqual(parseFragment('s=1.'), { version: '1', payload: '', params: new Map() });
  assert.deepEqual(parseFragment(''), { version: null, payload: null, params: new Map() });
  assert.deepEqual(parseFragment('#'), { version: null, payload: null, params: new Map() });
  assert.deepEqual(parseFragment('a=1&&flag&a=2&name=x%20y&bad=%E0%A4%A'),
    { version: null, payload: null, params: new Map([['a', '1'], ['flag', ''], ['name', 'x y'], ['bad', '%E0%A4%A']]) });
  assert.deepEqual(parseFragment('s=1.first&s=2.second'), { version: '1', payload: 'first', params: new Map() });
  assert.deepEqual(parseFragment('s=.x'), { version: '', payload: 'x', params: new Map() });
});

test('a scene name with markup is valid text and comes back verbatim', async () => {
  const name = '<img src=x onerror=alert(1)>';
  const scene = { ...minimal(), name };
  const decoded = await decodeLink(linkOfText(JSON.stringify(scene)));
  assert.equal(decoded.name, name);
  assert.equal((await decodeLink(await encodeLink(scene))).name, name);
});

test('brackets and escaped quotes inside strings do not count as nesting', async () => {
  const name = '"\\[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{';
  const scene = { ...minimal(), name };
  assert.equal((await decodeLink(linkOfText(JSON.stringify(scene)))).name, name);
});

test('nesting limit: 16 levels pass the depth check, 17 do not', async () => {
  const nest = (n) => '['.repeat(n) + ']'.repeat(n);
  assert.equal((await reasonOf(linkOfText(nest(16)))).reason, 'invalid-scene');
  assert.equal((await reasonOf(linkOfText(nest(17)))).reason, 'too-deep');
});

// A valid link to cut up.
const good = linkOfText(JSON.stringify(minimal()));
const goodBytes = Buffer.from(good.slice(4), 'base64url');

const BAD = [
  ['empty', '', 'no-scene'],
  ['just #', '#', 'no-scene'],
  ['only other params', '#lang=zh', 'no-scene'],
  ['empty s', 's=', 'no-scene'],
  ['not a string', null, 'no-scene'],
  ['newer version', 's=3.xxx', 'too-new'],
  ['version 7 with a good payload', `s=7.${good.slice(4)}`, 'too-new'],
  ['version 0 with a good payload', `s=0.${good.slice(4)}`, 'too-old'],
  ['a 30-digit version', `s=${'9'.repeat(30)}.${good.slice(4)}`, 'too-new'],
  ['non-numeric version', 's=abc.xxx', 'bad-version'],
  ['negative version', 's=-1.xxx', 'bad-version'],
  ['version 01', `s=01.${good.slice(4)}`, 'bad-version'],
  ['version checked before base64', 's=3.<script>', 'too-new'],
  ['missing payload, no dot', 's=1', 'no-payload'],
  ['missing payload after dot', '#s=1.&lang=zh', 'no-payload'],
  ['script in payload', 's=1.<script>alert(1)</script>', 'bad-base64'],
  ['base64 padding', 's=1.AA==', 'bad-base64'],
  ['standard base64 alphabet', 's=1.ab+/', 'bad-base64'],
  ['impossible length', 's=1.AAAAA', 'bad-base64'],
  ['non-zero tail bits', 's=1.AB', 'bad-base64'],
  ['valid base64 of garbage', `s=1.${b64([0xff, 0xff, 0xff, 0xff, 0x12, 0x34])}`, 'bad-deflate'],
  ['truncated deflate', `s=1.${b64(goodBytes.subarray(0, goodBytes.length >> 1))}`, 'bad-deflate'],
  ['deflate missing its last byte', `s=1.${b64(goodBytes.subarray(0, goodBytes.length - 1))}`, 'bad-deflate'],
  ['empty deflate stream', `s=1.${b64(deflateRawSync(Buffer.alloc(0)))}`, 'bad-json'],
  ['deflate bomb: 10 MB of zeros', linkOfBytes(Buffer.alloc(10 * 1024 * 1024)), 'too-large'],
  ['just over the JSON cap', linkOfText(' '.repeat(262145)), 'too-large'],
  ['non-UTF-8 bytes', linkOfBytes([0x7b, 0xff, 0xfe, 0x80, 0x7d]), 'bad-utf8'],
  ['UTF-8 but not JSON', linkOfText('hello, world'), 'bad-json'],
  ['JSON with a trailing comma', linkOfText('{"format":"minipbd-scene",}'), 'bad-json'],
  ['arrays nested 10000 deep', linkOfText('['.repeat(10000) + ']'.repeat(10000)), 'too-deep'],
  ['objects nested 10000 deep', linkOfText('{"a":'.repeat(10000) + '1' + '}'.repeat(10000)), 'too-deep'],
  ['scene with 1e9 particles', linkOfText(JSON.stringify({ ...minimal(), objects: [{ type: 'chain', start: [0, 0, 0], end: [1, 0, 0], segments: 1e9 }] })), 'invalid-scene'],
  ['__proto__ key', linkOfText('{"__proto__":{"polluted":1},"format":"minipbd-scene","version":1,"objects":[]}'), 'invalid-scene'],
  ['JSON but not a scene', linkOfText('[1,2,3]'), 'invalid-scene'],
  ['payload over 16384 chars', `s=1.${'A'.repeat(LINK_MAX_PAYLOAD + 1)}`, 'too-long'],
  ['long payload of bad chars is refused by length first', `s=1.${'<'.repeat(LINK_MAX_PAYLOAD + 1)}`, 'too-long'],
  ['huge fragment of other params', `s=1.AAAA&junk=${'x'.repeat(LINK_MAX_FRAGMENT)}`, 'too-long'],
  ['10 MB fragment', '#s=1.' + 'A'.repeat(10 * 1024 * 1024), 'too-long'],
];

test(`a table of ${BAD.length} bad links, each refused with the expected reason`, async () => {
  assert.ok(BAD.length >= 20);
  for (const [what, fragment, reason] of BAD) {
    const t0 = performance.now();
    const e = await reasonOf(fragment);
    const ms = performance.now() - t0;
    assert.ok(e, `${what}: was accepted`);
    assert.equal(e.reason, reason, `${what}: ${e.message}`);
    assert.ok(ms < 2000, `${what}: took ${ms} ms`);
  }
});

test('message details', async () => {
  assert.equal((await reasonOf('s=abc.xxx')).message, 'link version "abc" is not a number (this page reads versions 1 to 2)');
  const v7 = await reasonOf(`s=7.${good.slice(4)}`);
  assert.equal(v7.message, 'link version 7 is newer than this page, which reads versions 1 to 2; reload the page to get the newest one');
  const v0 = await reasonOf(`s=0.${good.slice(4)}`);
  assert.equal(v0.message, 'link version 0 is too old: this page reads versions 1 to 2');
  // No message carries markup, even when it quotes the link.
  const tag = await reasonOf('s=<b>x</b>.abc');
  assert.equal(tag.reason, 'bad-version');
  assert.doesNotMatch(tag.message, /[<>]/);
  assert.match(tag.message, /\\u003cb\\u003ex/);
  const huge = await reasonOf(linkOfText(JSON.stringify({ ...minimal(), objects: [{ type: 'chain', start: [0, 0, 0], end: [1, 0, 0], segments: 1e9 }] })));
  assert.equal(huge.path, 'objects[0].segments');
  assert.match(huge.message, /^objects\[0\]\.segments must be an integer in 1\.\.10000, got 1000000000$/);
  const proto = await reasonOf(linkOfText('{"__proto__":{"polluted":1},"format":"minipbd-scene","version":1,"objects":[]}'));
  assert.equal(proto.path, '__proto__');
  assert.equal(({}).polluted, undefined);
});

test('length caps are checked before any decoding (fast even for 10 MB)', async () => {
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) assert.equal((await reasonOf(`s=1.${'A'.repeat(LINK_MAX_PAYLOAD + 1)}`)).reason, 'too-long');
  assert.ok(performance.now() - t0 < 500);
});

test('truncated deflate data rejects instead of hanging, at every cut point', async () => {
  const bytes = Buffer.from((await encodeLink(builtinScenes.cloth)).slice(4), 'base64url');
  const t0 = performance.now();
  for (let cut = 1; cut < bytes.length; cut += 7) {
    const e = await reasonOf(`s=1.${b64(bytes.subarray(0, cut))}`);
    assert.ok(e, `cut at ${cut} accepted`);
    assert.equal(e.reason, 'bad-deflate', `cut at ${cut}: ${e.message}`);
  }
  assert.ok(performance.now() - t0 < 3000);
});

test('exactly 262144 bytes of JSON inflate (the cap is inclusive), one more do not', async () => {
  // 262144 bytes of spaces around valid JSON: passes inflate, so it reaches validation.
  const text = '[1]' + ' '.repeat(262144 - 3);
  assert.equal((await reasonOf(linkOfText(text))).reason, 'invalid-scene');
  assert.equal((await reasonOf(linkOfText(text + ' '))).reason, 'too-large');
});

// ---------------------------------------------------------------- versions: 1 (a bare scene) and 2 ({scene, replay})

test('version 1 links (a bare scene) still load, and links without a replay are still written as version 1', async () => {
  // Made the way version-1 pages made them: deflate-raw of the scene JSON, no container.
  const v1 = linkOfText(JSON.stringify(builtinScenes.flag));
  assert.deepEqual(await decodeLink(v1), builtinScenes.flag);
  assert.deepEqual(await decodeRun(v1), { version: 1, scene: builtinScenes.flag, replay: null });
  const written = await encodeLink(builtinScenes.flag);
  assert.match(written, /^s=1\./);
  // the same container as version-1 pages wrote (a bare scene), now without its default-valued fields
  const { inflateRawSync } = await import('node:zlib');
  const bare = JSON.parse(inflateRawSync(Buffer.from(written.slice(4), 'base64url')).toString('utf8'));
  assert.equal(bare.format, 'minipbd-scene');
  assert.deepEqual(validateScene(bare), builtinScenes.flag);
});

test('version 2 carries {scene, replay}; decodeLink gives its scene, decodeRun both', async () => {
  const replay = { v: 1, steps: 30, q: 1000, hash: 12345, events: [[2, 'g', 3, 500, 2000, 0], [1, 'm', 0, 10, -5, 0], [5, 'r', 0]] };
  const link = await encodeLink(minimal(), { replay });
  assert.match(link, /^s=2\.[A-Za-z0-9_-]+$/);
  const run = await decodeRun(link);
  assert.equal(run.version, 2);
  assert.deepEqual(run.scene, validateScene(minimal()));
  assert.deepEqual(run.replay, replay);
  assert.deepEqual(await decodeLink(`#${link}&lang=zh`), validateScene(minimal()));
  // The payload is the container, as documented.
  const { inflateRawSync } = await import('node:zlib');
  const json = JSON.parse(inflateRawSync(Buffer.from(link.slice(4), 'base64url')).toString('utf8'));
  assert.deepEqual(Object.keys(json), ['scene', 'replay']);
  // A version-2 container without a replay is read too (the writer never makes one, but it is well formed).
  assert.deepEqual(await decodeRun(`s=2.${b64(deflateRawSync(Buffer.from(JSON.stringify({ scene: minimal() }))))}`),
    { version: 2, scene: validateScene(minimal()), replay: null });
});

test('version 2 containers that are not {scene, replay} are refused by name', async () => {
  const v2 = (value) => `s=2.${b64(deflateRawSync(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))))}`;
  const cases = [
    [minimal(), 'invalid-scene', /unknown key "format"/], // a version-1 payload under version 2
    [{ replay: { v: 1, steps: 0, q: 1000, events: [] } }, 'invalid-scene', /no "scene"/],
    [[minimal()], 'invalid-scene', /must be an object/],
    [{ scene: minimal(), extra: 1 }, 'invalid-scene', /unknown key "extra"/],
    ['{"__proto__":{"polluted":1},"scene":{}}', 'invalid-scene', /unknown key "__proto__"/],
    [{ scene: minimal(), replay: null }, 'invalid-replay', /^replay must be an object/],
  ];
  for (const [value, reason, message] of cases) {
    const e = await reasonOf(v2(value));
    assert.ok(e, `accepted: ${JSON.stringify(value).slice(0, 80)}`);
    assert.equal(e.reason, reason, e.message);
    assert.match(e.message, message);
  }
  assert.equal(({}).polluted, undefined);
  // A grab past the world's particles: the link decodes (the validator counts no particles: the engine does), and
  // the engine's count of its scene refuses the replay by name before any world is touched (app/links.js, the
  // element's load).
  const run = await decodeRun(v2({ scene: minimal(), replay: { v: 1, steps: 10, q: 1000, events: [[0, 'g', 99, 0, 0, 0]] } }));
  const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));
  const { total } = pbd.countScene(run.scene);
  assert.equal(total.particles, 5);
  assert.throws(() => readReplay(run.replay, run.scene, 'replay', total.particles),
    (e) => e instanceof SceneError && /^replay\.events\[0\]\[2\] must be an integer in 0\.\.4, got 99$/.test(e.message));
});

test('making a link: a replay is validated against the scene, and an over-long link is refused naming its length and the cap', async () => {
  await assert.rejects(encodeLink(minimal(), { replay: { v: 1, steps: 5, q: 1000, events: [[9, 'r', 0]] } }),
    (e) => e instanceof LinkError && e.reason === 'invalid-replay' && /replay\.events\[0\]\[0\] puts the event at step 9/.test(e.message));
  // Incompressible moves: far more data than a link holds.
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const events = [[0, 'g', 2, 0, 2000, 0]];
  for (let i = 0; i < 6000; i++) events.push([1, 'm', 0, Math.round((rand() - 0.5) * 2000), Math.round((rand() - 0.5) * 2000), Math.round((rand() - 0.5) * 2000)]);
  const e = await encodeLink(minimal(), { replay: { v: 1, steps: 6001, q: 1000, events } }).catch((err) => err);
  assert.ok(e instanceof LinkError, `not refused: ${e}`);
  assert.equal(e.reason, 'too-long');
  assert.match(e.message, /^the link would be [\d,]+ characters long \([\d,]+ of data\); links hold at most 16,384 characters of data$/);
});

test('solver.maxSpeed, tetherSlack and selfFriction: exact round trip in both versions; out of range refused naming the field; older links get the defaults', async () => {
  // Values a slider or a hand makes, including ones with float noise: they come back bit for bit.
  const values = [
    { maxSpeed: 12.5, tetherSlack: 0.07, selfFriction: 0.35000000000000003 },
    { maxSpeed: 0.001, tetherSlack: 1, selfFriction: 0 },
    { maxSpeed: 1e4, tetherSlack: 0.1 + 0.2, selfFriction: 1 },
  ];
  for (const v of values) {
    const scene = validateScene({ ...minimal(), solver: v });
    for (const replay of [null, { v: 1, steps: 3, q: 1000, events: [[1, 'p', 'maxSpeed', v.maxSpeed], [0, 'p', 'tetherSlack', v.tetherSlack], [1, 'p', 'selfFriction', v.selfFriction]] }]) {
      const link = await encodeLink(scene, { replay });
      const run = await decodeRun(link);
      assert.deepEqual(run.scene, scene);
      for (const key of Object.keys(v)) assert.ok(Object.is(run.scene.solver[key], v[key]), `${key} ${v[key]} exact`);
      assert.deepEqual(run.replay, replay);
    }
  }
  // Out of range in a link: refused as an invalid scene whose message names the field.
  const cases = [
    [{ maxSpeed: 0 }, 'solver.maxSpeed', /^solver\.maxSpeed must be a number in \[0\.001, 10000\], got 0$/],
    [{ maxSpeed: 2e4 }, 'solver.maxSpeed', /^solver\.maxSpeed must be a number in \[0\.001, 10000\], got 20000$/],
    [{ tetherSlack: 1.01 }, 'solver.tetherSlack', /^solver\.tetherSlack must be a number in \[0, 1\], got 1\.01$/],
    [{ tetherSlack: -0.5 }, 'solver.tetherSlack', /^solver\.tetherSlack must be a number in \[0, 1\], got -0\.5$/],
    [{ selfFriction: 3 }, 'solver.selfFriction', /^solver\.selfFriction must be a number in \[0, 1\], got 3$/],
    [{ selfFriction: '0.2' }, 'solver.selfFriction', /^solver\.selfFriction must be a number in \[0, 1\], got "0\.2"$/],
  ];
  for (const [solver, path, message] of cases) {
    const e = await reasonOf(linkOfText(JSON.stringify({ ...minimal(), solver })));
    assert.ok(e, `accepted ${JSON.stringify(solver)}`);
    assert.equal(e.reason, 'invalid-scene');
    assert.equal(e.path, path);
    assert.match(e.message, message);
    await assert.rejects(encodeLink({ ...minimal(), solver }), (err) => err.reason === 'invalid-scene' && err.path === path);
  }
  // In a replay: the same ranges, by name.
  const bad = { v: 1, steps: 3, q: 1000, events: [[0, 'p', 'maxSpeed', 0]] };
  await assert.rejects(encodeLink(minimal(), { replay: bad }),
    (e) => e.reason === 'invalid-replay' && /^replay\.events\[0\]\[3\] must be a number in \[0\.001, 10000\], got 0$/.test(e.message));
  // A link made before these existed (its solver has none of them) opens with the engine's defaults.
  const before = { ...minimal(), version: 1, solver: { dt: 0.01, substeps: 4, iterations: 2, gravity: [0, -9.81, 0], damping: 0.1, thickness: 0.02, tethers: 1, selfCollision: true, tearStretch: 0 } };
  const opened = await decodeLink(linkOfText(JSON.stringify(before)));
  assert.deepEqual([opened.solver.maxSpeed, opened.solver.tetherSlack, opened.solver.selfFriction], [100, 0, 0.2]);
  assert.equal(opened.solver.collisions, true, 'a version 1 link that self-collides: its objects collided then too');
  assert.equal(opened.solver.volumeSweeps, 0, 'a version 1 link: its soft bodies keep their volume tet by tet, as then');
  const skip = { maxSpeed: undefined, tetherSlack: undefined, selfFriction: undefined, collisions: undefined, volumeSweeps: undefined };
  assert.deepEqual({ ...opened.solver, ...skip }, { ...before.solver, ...skip }, 'the rest as it was');
});

// withoutDefaults reads the defaults from a few probe validations (bounded work on the page's thread); its output
// must be exactly that of the reference per-key method, which validates the scene once per key it tries.
function xorshift(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}

/** Random valid scenes: built-in scenes with leaves deleted, set to another scene's value at the same path (often a
 *  default), or to an odd value (the link-fuzz mutator's idea); only those validateScene accepts are kept. */
function randomScenes(count, seed) {
  const r = xorshift(seed);
  const base = Object.values(builtinScenes);
  const odd = [0, 1, 0.5, 2, -1, true, false, [], [0, 0, 0], 'x', null, 10, 0.01];
  const out = [];
  for (let tries = 0; out.length < count && tries < count * 40; tries++) {
    const scene = structuredClone(base[Math.floor(r() * base.length)]);
    const other = base[Math.floor(r() * base.length)];
    for (let m = 1 + Math.floor(r() * 4); m > 0; m--) {
      let node = scene, twin = other;
      for (let depth = 0; depth < 4; depth++) {
        const keys = Array.isArray(node) ? [...node.keys()] : Object.keys(node).filter((k) => k !== 'format' && k !== 'version');
        if (!keys.length) break;
        const k = keys[Math.floor(r() * keys.length)];
        const child = node[k];
        if (child && typeof child === 'object' && r() < 0.6) { node = child; twin = twin?.[k]; continue; }
        const p = r();
        if (p < 0.3 && !Array.isArray(node)) delete node[k];
        else if (p < 0.7 && twin && twin[k] !== undefined) node[k] = structuredClone(twin[k]);
        else node[k] = structuredClone(odd[Math.floor(r() * odd.length)]);
        break;
      }
    }
    try { out.push(validateScene(scene)); } catch { /* not a scene: skip */ }
  }
  return out;
}

test('withoutDefaults gives exactly the per-key output for every built-in scene and random scenes', async () => {
  const scenes = [...Object.entries(builtinScenes), ['bunny', await loadBuiltinScene('bunny')],
    ...randomScenes(300, 20261202).map((s, i) => [`random ${i}`, s])];
  assert.ok(scenes.length > 250, `${scenes.length} scenes`);
  for (const [id, n] of scenes) {
    let calls = 0;
    const fast = withoutDefaults(n, (s) => { calls++; return validateScene(s); });
    assert.equal(JSON.stringify(fast), JSON.stringify(withoutDefaultsPerKey(n)), id);
    assert.ok(calls <= 24, `${id}: ${calls} validations (the fast path, not the per-key fallback)`);
  }
});

test('encoding a link validates the scene a bounded number of times, not once per key', async () => {
  for (const [id, n] of Object.entries(builtinScenes)) {
    await encodeLink(n); // the kinds of holder are learned once per page; the next encode is the steady state
    let calls = 0;
    const validate = (s) => { calls++; return validateScene(s); };
    const link = await encodeLink(n, { validate });
    assert.equal(link, await encodeLink(n), id);
    assert.ok(calls <= 12, `${id}: ${calls} validations`);
    let reference = 0;
    withoutDefaultsPerKey(n, (s) => { reference++; return validateScene(s); });
    assert.ok(reference > calls, `${id}: per key ${reference}, now ${calls}`);
  }
});
