// release.test.mjs — `make release` (tools/release.mjs): the zip is read back here by a reader of its own (every
// entry inflated and its CRC checked), and holds the static site, the package folder and the offline page; the
// offline page names no file beside it and carries the wasm, the shaders, the model and the CSS. The bundles of
// dist/ (tools/bundle.mjs) are what the pages load, and carry the shaders.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { zipArchive, writeRelease, OFFLINE_CSP } from '../../tools/release.mjs';
import { compactShader, BUNDLES } from '../../tools/bundle.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = path.join(root, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** True when the minified `code` holds the text `s` as a string: esbuild writes it in a '…' or "…" literal with
 *  \n escapes, or in a `…` template with the newlines as they are. */
const carries = (code, s) => code.includes(s) || code.includes(JSON.stringify(s).slice(1, -1));

/** The entries of a zip, {name: bytes}, read from its central directory; throws on a bad CRC or size. */
function readZip(buf) {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'an end record');
  const count = buf.readUInt16LE(end + 10);
  let p = buf.readUInt32LE(end + 16);
  const out = {};
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'a central directory entry');
    const method = buf.readUInt16LE(p + 10), crc = buf.readUInt32LE(p + 16), csize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24), nlen = buf.readUInt16LE(p + 28), xlen = buf.readUInt16LE(p + 30);
    const clen = buf.readUInt16LE(p + 32), local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nlen).toString('utf8');
    assert.equal(buf.readUInt32LE(local), 0x04034b50, `${name}: a local header`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const body = buf.subarray(start, start + csize);
    const data = method === 8 ? zlib.inflateRawSync(body) : Buffer.from(body);
    assert.equal(data.length, size, `${name}: its size`);
    assert.equal(zlib.crc32 ? zlib.crc32(data) : crc, crc, `${name}: its CRC`);
    out[name] = data;
    p += 46 + nlen + xlen + clen;
  }
  return out;
}

test('zipArchive: what goes in comes out, stored or deflated, with names in UTF-8 and the right CRC-32', () => {
  const random = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919 + (i >> 3) * 104729) & 0xff));
  const entries = [['a/text.txt', Buffer.from('hello hello hello hello\n'.repeat(50))], ['a/空.bin', random], ['empty', Buffer.alloc(0)]];
  const zip = zipArchive(entries);
  const back = readZip(zip);
  assert.deepEqual(Object.keys(back), entries.map(([n]) => n));
  for (const [n, d] of entries) assert.ok(back[n].equals(d), n);
  // The CRC-32 of "123456789" is the standard check value 0xCBF43926 (the stored entry's header holds it).
  const one = zipArchive([['c', Buffer.from('123456789')]]);
  assert.equal(one.readUInt32LE(14), 0xcbf43926);
});

test('compactShader drops comments and indentation and keeps #version first and every directive on its line', () => {
  const src = '#version 300 es\n// a comment\nprecision highp float; /* block\ncomment */ uniform float u; // tail\n#define X 1\n\n  void main() {  }\n';
  assert.equal(compactShader(src), '#version 300 es\nprecision highp float; uniform float u;\n#define X 1\nvoid main() { }\n');
});

test('make release: the zip holds the site, the package folder and the offline page; the offline page is self-contained', async () => {
  assert.ok(fs.existsSync(path.join(DIST, `${pkg.name}@${pkg.version}`)), 'run make dist first');
  // A copy of dist/, so that the test neither needs nor changes dist/release.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-release-'));
  try {
    const dist = path.join(tmp, 'dist');
    fs.cpSync(DIST, dist, { recursive: true, filter: (f) => !f.startsWith(path.join(DIST, 'release')) });
    const { offline, zip } = await writeRelease(dist);
    assert.equal(path.basename(zip), `${pkg.name}-${pkg.version}.zip`);
    const files = readZip(fs.readFileSync(zip));
    const top = `${pkg.name}-${pkg.version}`;
    for (const f of ['site/index.html', 'site/embed.html', 'site/minipbd.wasm', 'site/minipbd_threads.wasm', 'site/coi-sw.js',
      'site/js/bundle/main.js', 'site/js/bundle/embed.js', 'site/js/bundle/thread-worker.js', 'site/js/minipbd.js',
      'site/shaders/cloth.vert', 'site/assets/bunny.obj', `${pkg.name}@${pkg.version}/package.json`,
      `${pkg.name}@${pkg.version}/js/embed.js`, 'minipbd-offline.html']) {
      assert.ok(files[`${top}/${f}`], `the zip holds ${f}`);
    }
    assert.ok(files[`${top}/site/minipbd.wasm`].equals(fs.readFileSync(path.join(DIST, 'minipbd.wasm'))), 'the wasm, byte for byte');
    assert.ok(!Object.keys(files).some((f) => f.includes('/site/release/') || f.includes(`/site/${pkg.name}@`)), 'no release in the site, no second package');
    assert.equal(JSON.parse(files[`${top}/${pkg.name}@${pkg.version}/package.json`]).version, pkg.version);

    const html = fs.readFileSync(offline, 'utf8');
    assert.ok(files[`${top}/minipbd-offline.html`].equals(fs.readFileSync(offline)));
    assert.ok(html.includes(`content="${OFFLINE_CSP}"`), 'the offline policy');
    assert.match(OFFLINE_CSP, /connect-src 'none'/);
    // The page's own markup names no file (the script's text may write src="…" into snippets it makes: Copy embed code).
    const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '<script></script>');
    assert.doesNotMatch(markup, /\b(src|href)="(?!data:)/, 'no file named beside it');
    assert.doesNotMatch(html, /<link rel="stylesheet"/);
    assert.equal((markup.match(/<script\b/g) ?? []).length, 1, 'one script, inline');
    assert.ok(html.includes(fs.readFileSync(path.join(DIST, 'minipbd.wasm')).toString('base64')), 'the wasm, in base64');
    assert.ok(html.includes('.lil-gui{'), 'lil-gui\'s stylesheet inline');
    const obj = fs.readFileSync(path.join(DIST, 'assets', 'bunny.obj'), 'utf8');
    assert.ok(carries(html, obj.split('\n').slice(2, 60).join('\n')), 'the bunny model inline');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('dist/: each page loads its bundle, and each bundle carries every shader', () => {
  for (const [name, { pages }] of Object.entries(BUNDLES)) {
    const text = fs.readFileSync(path.join(DIST, 'js', 'bundle', name), 'utf8');
    for (const page of pages) {
      const html = fs.readFileSync(path.join(DIST, page), 'utf8');
      assert.match(html, new RegExp(`<script type="module" src="\\./js/bundle/${name.replace('.', '\\.')}">`), page);
      // The hosted pages keep their strict policy: every script is a file (script-src 'self'), none inline.
      assert.deepEqual(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g), null, `${page}: no inline script`);
      const policy = (text) => text.match(/<meta http-equiv="Content-Security-Policy"[^>]*>/)?.[0] ?? null;
      assert.equal(policy(html), policy(fs.readFileSync(path.join(root, 'web', page), 'utf8')), `${page}: its policy as written`);
    }
    for (const f of fs.readdirSync(path.join(DIST, 'shaders'))) {
      const body = compactShader(fs.readFileSync(path.join(DIST, 'shaders', f), 'utf8'));
      assert.ok(carries(text, body.split('\n').slice(0, 8).join('\n')), `${name} carries ${f}`);
    }
  }
  assert.ok(fs.existsSync(path.join(DIST, 'js', 'bundle', 'thread-worker.js')), 'the worker beside the bundles (threads.js starts it from ./thread-worker.js)');
});
