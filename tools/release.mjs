#!/usr/bin/env node
// release.mjs — what someone who does not build downloads (`make release`, after `make dist`), in dist/release/:
//
//   minipbd-offline.html  the demo as ONE file that opens from disk (file://): the single-thread wasm (base64),
//                         every module (one esbuild bundle, tools/bundle.mjs), the shaders, the assets and the CSS
//                         inlined. A file: page can fetch nothing, is never cross-origin isolated and starts no
//                         module worker or service worker, so it runs the single-thread build and says so, as
//                         on any host without isolation. Its policy forbids every connection.
//   minipbd-VERSION.zip   minipbd-VERSION/site/ (the static site: dist/ as `make` writes it, for any static host),
//                         minipbd-VERSION/minipbd@VERSION/ (the npm package and CDN folder) and the offline page.
//
// Usage: node tools/release.mjs [dist]

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { bundleText, readShaders } from './bundle.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

// The offline page's policy: inline code and styles (there is nothing else), the engine compiled from its bytes,
// images from data: and blob: (the screenshot), and no connection, worker, frame or font from anywhere.
export const OFFLINE_CSP = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; "
  + "img-src data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** The offline page's HTML, made from dist/ (index.html, its stylesheets, minipbd.wasm, shaders/, assets/). */
export async function offlinePage(dist) {
  let html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const assets = Object.fromEntries(fs.readdirSync(path.join(dist, 'assets')).sort()
    .map((f) => [f, fs.readFileSync(path.join(dist, 'assets', f), 'utf8')]));
  const carry = {
    wasm: { 'minipbd.wasm': fs.readFileSync(path.join(dist, 'minipbd.wasm')).toString('base64') },
    shaders: readShaders(dist),
    assets,
  };
  const code = await bundleText(dist, 'app/main.js', carry);
  // Inside <script> the HTML parser ends the element at "</script" and changes state at "<!--": neither may occur.
  if (/<\/script|<!--/i.test(code)) throw new Error('the offline bundle holds "</script" or "<!--": it cannot be inlined');

  const swap = (re, to, what) => {
    if (!re.test(html)) throw new Error(`dist/index.html: no ${what} to inline`);
    html = html.replace(re, to);
  };
  swap(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, `<meta http-equiv="Content-Security-Policy" content="${OFFLINE_CSP}">`, 'policy');
  swap(/<!-- No inline scripts[^>]*-->\n?\s*/, '<!-- One file, opened from disk (tools/release.mjs): everything is inline, and nothing may connect anywhere. -->\n  ', 'policy comment');
  html = html.replace(/<link rel="stylesheet" href="\.\/(css\/[^"]+)">/g, (_, file) => {
    const css = fs.readFileSync(path.join(dist, file), 'utf8');
    if (/<\/style/i.test(css)) throw new Error(`${file} holds "</style"`);
    return `<style>/* ${file} */\n${css}\n</style>`;
  });
  if (/<link rel="stylesheet"/.test(html)) throw new Error('dist/index.html: a stylesheet was left out');
  // A function, not a string: "$&" and friends in the code are not replacement patterns.
  swap(/<script type="module" src="\.\/js\/bundle\/main\.js"><\/script>/, () => `<script type="module">\n${code}</script>`, 'bundle script');
  if (/\bsrc="\.\/|href="\.\//.test(html)) throw new Error('the offline page still names a file beside it');
  return html;
}

/** Writes dist/release/: the offline page and the zip. Returns their paths. */
export async function writeRelease(dist) {
  const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const pkgDir = `${meta.name}@${meta.version}`;
  if (!fs.existsSync(path.join(dist, pkgDir))) throw new Error(`${path.join(dist, pkgDir)} is missing: run make dist`);
  const out = path.join(dist, 'release');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out);
  const offline = path.join(out, 'minipbd-offline.html');
  fs.writeFileSync(offline, await offlinePage(dist));

  const name = `${meta.name}-${meta.version}`;
  const entries = [];
  const add = (from, to) => {
    if (fs.statSync(from).isDirectory()) {
      for (const e of fs.readdirSync(from).sort()) add(path.join(from, e), `${to}/${e}`);
    } else entries.push([to, fs.readFileSync(from)]);
  };
  for (const e of fs.readdirSync(dist).sort()) {
    if (e === 'release' || e.startsWith(`${meta.name}@`)) continue; // the package folder has its own place
    add(path.join(dist, e), `${name}/site/${e}`);
  }
  add(path.join(dist, pkgDir), `${name}/${pkgDir}`);
  add(offline, `${name}/minipbd-offline.html`);
  const zip = path.join(out, `${name}.zip`);
  fs.writeFileSync(zip, zipArchive(entries));
  return { offline, zip };
}

const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(bytes) {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/**
 * A zip archive (PKWARE APPNOTE: local headers, central directory, end record; deflate) of `entries`, [name, bytes]
 * with '/'-separated names. Written here rather than by the zip program, which a fresh machine may not have. Every
 * entry has the same date (1 January 2000), so the archive depends on the files alone.
 */
export function zipArchive(entries) {
  const DOS_TIME = 0, DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1;
  const locals = [], central = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = zlib.deflateRawSync(data, { level: 9 });
    const stored = packed.length >= data.length; // incompressible (the wasm, mostly): kept as it is
    const body = stored ? data : packed;
    const crc = crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4); // version needed: 2.0
    head.writeUInt16LE(0x0800, 6); // names are UTF-8
    head.writeUInt16LE(stored ? 0 : 8, 8);
    head.writeUInt16LE(DOS_TIME, 10);
    head.writeUInt16LE(DOS_DATE, 12);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(body.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    locals.push(head, nameBytes, body);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    head.copy(dir, 6, 4, 30); // version needed .. name length: as in the local header
    dir.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: a regular file, rw-r--r--
    dir.writeUInt32LE(offset, 42);
    central.push(dir, nameBytes);
    offset += head.length + nameBytes.length + body.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  if (offset + size > 0xffffffff || entries.length > 0xffff) throw new Error('too large for a zip without zip64');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...central, end]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist'));
  const { offline, zip } = await writeRelease(dist);
  for (const f of [offline, zip]) console.log(`${path.relative(process.cwd(), f)}  ${(fs.statSync(f).size / 1024).toFixed(0)} KB`);
}
