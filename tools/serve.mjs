#!/usr/bin/env node
// serve.mjs — a tiny static file server for the MiniPBD demo (no dependencies).
//
// Usage:  node tools/serve.mjs [folder] [--port N] [--no-isolation] [--cors]   (folder defaults to dist/, port to $PORT or 0)
//         import { startServer } from './tools/serve.mjs'; const { url, close } = await startServer({ root, port, isolation, cors });
//
// Why it exists: browsers refuse to compile wasm fetched from file:// and need the application/wasm MIME
// type for streaming compilation, so the demo and the browser tests need a real HTTP server.
// It binds 127.0.0.1 only (a demo server has no business listening on other interfaces), serves GET/HEAD,
// and never answers with a file outside the root folder (path traversal, encoded or via symlinks).
//
// Cross-origin isolation (docs/embedding.md "Hosting"): by default every answer carries COOP same-origin and COEP
// require-corp, so the page is crossOriginIsolated and gets SharedArrayBuffer, which the threaded build needs
// (minipbd_threads.wasm: one shared memory for the page and its workers); and CORP same-origin, so the page's own
// files may be loaded under COEP (same-origin loads do not need it, workers and wasm fetched by an embed do).
// --no-isolation (isolation: false) leaves all three out: the page then runs the single-thread build, as on a host
// that sends no such headers (the fallback's browser test).
//
// --cors (cors: true) answers as a CDN does for files other sites load (docs/embedding.md "Hosting"): every answer carries
// Access-Control-Allow-Origin: * (module scripts, fetch() of the wasm and the shaders are CORS requests when they
// cross origins) and Cross-Origin-Resource-Policy: cross-origin (what an isolated host page's COEP require-corp
// asks of every file it loads from elsewhere), and a preflight (OPTIONS with Access-Control-Request-Method)
// gets 204 with the methods and headers allowed. Our own loads never need a preflight (plain GETs), but a host
// adding a header to its fetch (Range, a custom one) does.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm', // WebAssembly.compileStreaming refuses any other type
  '.vert': 'text/plain; charset=utf-8',
  '.frag': 'text/plain; charset=utf-8',
  '.glsl': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.obj': 'text/plain; charset=utf-8', // assets/bunny.obj, read by the bunny scene
  '.d.ts': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

export function mimeType(file) {
  const lower = file.toLowerCase();
  if (lower.endsWith('.d.ts')) return MIME['.d.ts']; // extname() would say '.ts'
  return MIME[path.extname(lower)] ?? 'application/octet-stream';
}

/** The cross-origin isolation headers (docs/embedding.md "Hosting"). */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** What --cors adds to every answer (a CDN's headers). CORP cross-origin replaces the isolation set's same-origin. */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

function send(res, status, text, extra = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...extra });
  res.end(text + '\n');
}

// Maps a request URL path to a file inside root, or returns null when it would leave root.
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null; // malformed %-escape
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  return full;
}

export async function startServer({ root = 'dist', port = 0, host = '127.0.0.1', log = false, isolation = true, cors = false } = {}) {
  const extra = { ...(isolation ? ISOLATION_HEADERS : {}), ...(cors ? CORS_HEADERS : {}) };
  // realpath so that symlinked roots work and symlinks inside cannot point outside.
  const realRoot = await fs.promises.realpath(path.resolve(root));

  const server = http.createServer(async (req, res) => {
    if (cors && req.method === 'OPTIONS') {
      // A CORS preflight: allow the methods we serve and whatever request headers the browser asks about
      // (only names, echoed back; nothing here is credentialed, so '*' origins are safe).
      const asked = String(req.headers['access-control-request-headers'] ?? '').replace(/[^\w\-, ]/g, '');
      res.writeHead(204, { ...extra, ...PREFLIGHT_HEADERS, ...(asked ? { 'Access-Control-Allow-Headers': asked } : {}), 'Content-Length': 0 });
      return res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', cors ? 'GET, HEAD, OPTIONS' : 'GET, HEAD');
      return send(res, 405, 'method not allowed', extra);
    }
    const urlPath = (req.url ?? '/').split(/[?#]/, 1)[0];
    let file = resolveInside(realRoot, urlPath);
    if (!file) return send(res, 400, 'bad path', extra);
    try {
      let stat = await fs.promises.stat(file);
      if (stat.isDirectory()) {
        if (!urlPath.endsWith('/')) {
          res.writeHead(301, { Location: urlPath + '/', ...extra });
          return res.end();
        }
        file = path.join(file, 'index.html');
        stat = await fs.promises.stat(file);
      }
      const real = await fs.promises.realpath(file);
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return send(res, 403, 'forbidden', extra);
      if (!stat.isFile()) return send(res, 404, 'not found', extra);
      res.writeHead(200, {
        'Content-Type': mimeType(real),
        'Content-Length': stat.size,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        ...extra,
      });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(real)
        .on('error', () => res.destroy())
        .pipe(res);
      if (log) console.log(`${req.method} ${urlPath} 200`);
    } catch (err) {
      if (log) console.log(`${req.method} ${urlPath} 404`);
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return send(res, 404, 'not found', extra);
      return send(res, 500, 'server error', extra);
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  const url = `http://${host}:${actual}/`;
  return {
    url,
    port: actual,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function parseArgs(argv) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  let root = path.join(here, '..', 'dist');
  let port = process.env.PORT !== undefined ? Number(process.env.PORT) : 0;
  let log = false;
  let isolation = true;
  let cors = false;
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port' || a === '-p') port = Number(argv[++i]);
    else if (a.startsWith('--port=')) port = Number(a.slice(7));
    else if (a === '--log') log = true;
    else if (a === '--no-isolation') isolation = false;
    else if (a === '--cors') cors = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node tools/serve.mjs [folder=dist] [--port N | PORT=N] [--log] [--no-isolation] [--cors]');
      process.exit(0);
    } else rest.push(a);
  }
  for (const a of rest) {
    if (/^\d+$/.test(a)) port = Number(a);
    else root = path.resolve(a);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve.mjs: bad port ${port}`);
    process.exit(2);
  }
  return { root, port, log, isolation, cors };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { root, port, log, isolation, cors } = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(root)) {
    console.error(`serve.mjs: folder ${root} does not exist (run make first?)`);
    process.exit(1);
  }
  const { url } = await startServer({ root, port, log, isolation, cors });
  console.log(`MiniPBD demo: ${url}${isolation ? ' (cross-origin isolated: the threaded build runs)' : ' (no isolation headers: single-thread build)'}`
    + (cors ? ' (CORS: any origin may load these files)' : ''));
}
