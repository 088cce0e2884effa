// inline.test.mjs — the files a bundle carries (web/js/inline/files.js) and the loaders that ask it first: the
// engine from carried bytes for a URL that cannot be read (as the offline page's file: URL cannot be fetched), the
// model from carried text, and nothing carried for names the bundle did not give.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { carryFiles, carriedWasm, carriedShader, carriedAsset } from '../../web/js/inline/files.js';
import { loadMiniPBD } from '../../web/js/engine/loader.js';
import { readAsset } from '../../web/js/format/assets.js';
import { loadBuiltinScene } from '../../web/js/format/builtin-scenes.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasm = fs.readFileSync(path.join(root, 'build', 'minipbd.wasm'));
const NOWHERE = 'file:///no/such/folder/minipbd.wasm';

test('nothing carried: the loaders read their files as before', async () => {
  assert.equal(carriedWasm(new URL(NOWHERE)), undefined);
  await assert.rejects(loadMiniPBD(NOWHERE), /ENOENT|no such file/i, 'the missing file is read, and fails');
  assert.equal(await readAsset('bunny.obj'), fs.readFileSync(path.join(root, 'web', 'assets', 'bunny.obj'), 'utf8'));
});

test('carried files: the wasm (base64) by its file name, a shader, a model; the rest is not carried', async () => {
  const tiny = 'o tiny\nv 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n';
  carryFiles({ wasm: { 'minipbd.wasm': wasm.toString('base64') }, shaders: { 'a.vert': 'void main() {}' }, assets: { 'bunny.obj': tiny } });
  assert.deepEqual(Buffer.from(carriedWasm(new URL(NOWHERE))), wasm, 'decoded from base64, byte for byte');
  assert.equal(carriedWasm(new URL('file:///x/minipbd_threads.wasm')), undefined, 'only the name given');
  assert.equal(carriedShader('a.vert'), 'void main() {}');
  assert.equal(carriedShader('b.frag'), undefined);
  assert.equal(carriedAsset('other.obj'), undefined);

  const pbd = await loadMiniPBD(NOWHERE); // a file that does not exist: the carried bytes answer
  assert.ok(pbd.paramNames.length > 10);
  assert.equal(await readAsset('bunny.obj'), tiny);
  const bunny = await loadBuiltinScene('bunny');
  assert.equal(bunny.objects[0].mesh.vertices.length, 4, 'the scene is made from the carried model');
});
