// scene-file.test.mjs — one reader for scene files (format/scene-file.js): the API's parseSceneFile, the page's
// drop (input/drop.js readSceneFile, over the same function) and the command line refuse a bad file with the same
// message, and accept a good one as the same scene.

import './plain-env.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseSceneFile, checkSceneFileSize, sceneFileText, validateScene, loadBuiltinScene, BUILTIN_SCENE_IDS, MAX_SCENE_FILE_BYTES } from '../../web/js/minipbd.js';
import { readSceneFile } from '../../web/js/input/drop.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-scene-file-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const enc = (text) => new TextEncoder().encode(text);
const nested = (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

test('a good file is the scene the validator gives, from bytes, text or a File', async () => {
  const scene = await loadBuiltinScene('cloth');
  const text = JSON.stringify(scene);
  const want = validateScene(scene);
  assert.deepEqual(parseSceneFile(enc(text), 'cloth.json'), want);
  assert.deepEqual(parseSceneFile(enc(text).buffer, 'cloth.json'), want);
  assert.deepEqual(parseSceneFile(text, 'cloth.json'), want);
  assert.deepEqual(await readSceneFile(new File([text], 'cloth.json')), want);
});

// name -> [contents, the exact message]
const hostile = {
  'not UTF-8': [new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'bad.json is not UTF-8 text'],
  'nested 17 deep': [enc(nested(17)), 'bad.json: its scene JSON is nested more than 16 levels deep'],
  'not JSON': [enc('{"format": '), /^bad\.json is not JSON \(/],
  'a number': [enc('42'), 'scene must be a JSON object, got 42'],
  'out of range': [null, /^objects\[0\]\.resolution\[0\] must be an integer in 2\.\.\d+, got 5000$/],
  '__proto__ key': [enc('{"__proto__": {"x": 1}, "format": "minipbd-scene", "version": 3, "objects": []}'), /__proto__/],
};

test('a hostile file is refused with its message, the same from the API, the page\'s reader and the CLI', async () => {
  const cloth = structuredClone(await loadBuiltinScene('cloth'));
  cloth.objects[0].resolution = [5000, 10];
  hostile['out of range'][0] = enc(JSON.stringify(cloth));
  for (const [what, [bytes, message]] of Object.entries(hostile)) {
    let api;
    assert.throws(() => parseSceneFile(bytes, 'bad.json'), (err) => { api = err.message; return true; }, what);
    if (typeof message === 'string') assert.equal(api, message, what);
    else assert.match(api, message, what);
    await assert.rejects(readSceneFile(new File([bytes], 'bad.json')), { message: api }, what);
    const file = path.join(tmp, 'bad.json');
    fs.writeFileSync(file, bytes);
    const cli = spawnSync(process.execPath, ['tools/minipbd-run.mjs', file, '--steps', '1'], { cwd: root, encoding: 'utf8' });
    assert.equal(cli.status, 2, `${what}: ${cli.stderr}`);
    assert.ok(cli.stderr.includes(api.replaceAll('bad.json', file)), `${what}: CLI said ${cli.stderr}`);
    assert.equal(cli.stdout, '', what);
  }
});

test('the size is refused before a byte is read, in the same words everywhere', async () => {
  assert.throws(() => checkSceneFileSize(MAX_SCENE_FILE_BYTES + 1, 'big.json'), { name: 'SceneFileError', message: 'big.json is 32.0 MB; a scene file may be at most 32.0 MB' });
  assert.doesNotThrow(() => checkSceneFileSize(MAX_SCENE_FILE_BYTES, 'big.json'));
  // Refused from File.size: the page never reads its bytes.
  const big = new File([new Uint8Array(MAX_SCENE_FILE_BYTES + 1024)], 'big.json');
  await assert.rejects(readSceneFile(big), { name: 'SceneFileError', message: 'big.json is 32.0 MB; a scene file may be at most 32.0 MB' });
});

test('a file with "$schema" (as docs/scene-format.md advises, for editors) opens in the API, the page\'s reader and the CLI as the same scene', async () => {
  const scene = await loadBuiltinScene('chain');
  const plain = JSON.stringify(scene, null, 2);
  const withSchema = JSON.stringify({ $schema: 'https://example.org/minipbd/scene.schema.json', ...scene }, null, 2);
  const want = validateScene(scene);
  assert.deepEqual(parseSceneFile(enc(withSchema), 'chain.json'), want);
  assert.deepEqual(await readSceneFile(new File([withSchema], 'chain.json')), want);
  const run = (text) => {
    const file = path.join(tmp, 'chain.json');
    fs.writeFileSync(file, text);
    const cli = spawnSync(process.execPath, ['tools/minipbd-run.mjs', file, '--steps', '3'], { cwd: root, encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    const out = JSON.parse(cli.stdout);
    delete out.stepMs;
    return out;
  };
  const a = run(withSchema), b = run(plain);
  assert.equal(a.hash, b.hash);
  assert.equal(a.steps, 3);
  // A bad "$schema" is refused in the same words everywhere.
  const bad = JSON.stringify({ $schema: 42, ...scene });
  const message = '$schema must be a string of at most 2048 characters (the address of a JSON Schema), got 42';
  assert.throws(() => parseSceneFile(bad, 'chain.json'), { name: 'SceneError', message });
  await assert.rejects(readSceneFile(new File([bad], 'chain.json')), { message });
  const file = path.join(tmp, 'bad-schema.json');
  fs.writeFileSync(file, bad);
  const cli = spawnSync(process.execPath, ['tools/minipbd-run.mjs', file, '--steps', '1'], { cwd: root, encoding: 'utf8' });
  assert.equal(cli.status, 2);
  assert.ok(cli.stderr.includes(message), cli.stderr);
});

test('sceneFileText (Download scene): 2-space JSON, arrays of numbers on one line, defaults left out, and it opens back to the same scene', async () => {
  const chain = { format: 'minipbd-scene', version: 3, name: 'Two links', solver: { iterations: 1, substeps: 3 }, camera: { fov: 45, yaw: 1 },
    objects: [{ type: 'chain', start: [0, 1, 0], end: [1, 1, 0], segments: 2, pins: [0] }] };
  // Only what differs from the defaults: iterations 1 and fov 45 are the defaults, so they go; ground, wind, fluid
  // and colliders are all defaults and left out whole.
  const defaults = validateScene({ ...chain, solver: {}, camera: {} });
  assert.deepEqual([defaults.solver.iterations, defaults.camera.fov], [1, 45]);
  assert.equal(sceneFileText(chain), [
    '{',
    '  "format": "minipbd-scene",',
    '  "version": 3,',
    '  "name": "Two links",',
    '  "solver": {',
    '    "substeps": 3',
    '  },',
    '  "camera": {',
    '    "yaw": 1',
    '  },',
    '  "objects": [',
    '    {',
    '      "type": "chain",',
    '      "start": [0, 1, 0],',
    '      "end": [1, 1, 0],',
    '      "segments": 2,',
    '      "pins": [0]',
    '    }',
    '  ]',
    '}',
    '',
  ].join('\n'));
  for (const id of BUILTIN_SCENE_IDS) {
    const scene = await loadBuiltinScene(id);
    const text = sceneFileText(scene);
    assert.deepEqual(parseSceneFile(text, `${id}.json`), validateScene(scene), `${id}: opens back to the same scene`);
    assert.match(text, /^\{\n {2}"format": "minipbd-scene",\n {2}"version": 3,\n/, id);
    assert.ok(!/\n {2}"(ground|wind|fluid)": \{\}/.test(text), `${id}: no empty sections`);
  }
  assert.throws(() => sceneFileText({ format: 'minipbd-scene', version: 3, objects: [] }), { name: 'SceneError', path: 'objects' });
});
