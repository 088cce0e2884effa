// serve.test.mjs — tools/serve.mjs: correct MIME types (wasm must be application/wasm for streaming
// compilation), loopback only, no path traversal (plain, %-encoded, via symlink), CLI prints the URL; the
// cross-origin isolation headers on every answer by default, none with --no-isolation; --cors adds what a CDN sends
// (Access-Control-Allow-Origin *, CORP cross-origin) and answers preflights.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../tools/serve.mjs';

const SERVE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tools', 'serve.mjs');
let tmp, root, srv;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-serve-'));
  root = path.join(tmp, 'site');
  fs.mkdirSync(path.join(root, 'js'), { recursive: true });
  fs.mkdirSync(path.join(root, 'shaders'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
  fs.writeFileSync(path.join(root, 'js', 'app.js'), 'export {};');
  fs.writeFileSync(path.join(root, 'js', 'app.mjs'), 'export {};');
  fs.writeFileSync(path.join(root, 'js', 'app.d.ts'), 'export {};');
  fs.writeFileSync(path.join(root, 'minipbd.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  fs.writeFileSync(path.join(root, 'shaders', 'a.vert'), '#version 300 es\n');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'SECRET');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(root, 'link.txt'));
  srv = await startServer({ root, port: 0 });
});
after(async () => {
  await srv?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Raw request: the path is sent exactly as given (fetch() would normalise the dots away).
function get(rawPath, method = 'GET', { port = srv.port, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method, headers }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('binds 127.0.0.1 on an ephemeral port', () => {
  assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  assert.ok(srv.port > 0);
  assert.equal(srv.server.address().address, '127.0.0.1');
});

test('serves files with the right MIME types', async () => {
  const cases = {
    '/': 'text/html; charset=utf-8',
    '/index.html': 'text/html; charset=utf-8',
    '/js/app.js': 'text/javascript; charset=utf-8',
    '/minipbd.wasm': 'application/wasm',
    '/shaders/a.vert': 'text/plain; charset=utf-8',
    '/js/app.mjs': 'text/javascript; charset=utf-8',
    '/js/app.d.ts': 'text/plain; charset=utf-8',
  };
  for (const [p, type] of Object.entries(cases)) {
    const r = await get(p);
    assert.equal(r.status, 200, p);
    assert.equal(r.type, type, p);
  }
  assert.equal((await get('/js/app.js?v=2')).status, 200, 'query string ignored');
  assert.equal((await get('/nope.js')).status, 404);
  assert.equal((await get('/index.html', 'HEAD')).status, 200);
  assert.equal((await get('/index.html', 'POST')).status, 405);
});

test('refuses path traversal', async () => {
  for (const p of ['/../secret.txt', '/js/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt',
    '/js/..%5c..%5csecret.txt', '/%00/../secret.txt', '/%', '/link.txt', '//../secret.txt']) {
    const r = await get(p);
    assert.notEqual(r.status, 200, `${p} -> ${r.status}`);
    assert.ok(!r.body.includes('SECRET'), `${p} leaked the file`);
  }
});

test('CLI prints the demo URL and serves the folder', async () => {
  const child = spawn(process.execPath, [SERVE, root, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    });
    const m = /^MiniPBD demo: (http:\/\/127\.0\.0\.1:(\d+)\/) \(cross-origin isolated/.exec(line);
    assert.ok(m, `printed: ${line}`);
    const res = await fetch(m[1] + 'minipbd.wasm');
    assert.equal(res.headers.get('content-type'), 'application/wasm');
    assert.equal(res.headers.get('cross-origin-embedder-policy'), 'require-corp');
    await res.arrayBuffer();
  } finally {
    child.kill();
  }
});

test('COOP, COEP and CORP on every answer (files, errors, redirects); none with --no-isolation', async () => {
  const isolation = {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
    'cross-origin-resource-policy': 'same-origin',
  };
  const pick = (res) => Object.fromEntries(Object.keys(isolation).map((k) => [k, res.headers.get(k)]));
  for (const p of ['index.html', 'minipbd.wasm', 'js/app.js', 'missing.js', 'js']) {
    const res = await fetch(srv.url + p, { redirect: 'manual' });
    await res.arrayBuffer();
    assert.deepEqual(pick(res), isolation, `${p} (HTTP ${res.status})`);
  }
  const off = await startServer({ root, port: 0, isolation: false });
  try {
    const res = await fetch(off.url + 'index.html');
    await res.arrayBuffer();
    assert.equal(res.status, 200);
    assert.deepEqual(pick(res), { 'cross-origin-opener-policy': null, 'cross-origin-embedder-policy': null, 'cross-origin-resource-policy': null });
  } finally {
    await off.close();
  }
  const child = spawn(process.execPath, [SERVE, root, '--port', '0', '--no-isolation'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    });
    assert.match(line, /no isolation headers: single-thread build/);
  } finally {
    child.kill();
  }
});

test('--cors: Access-Control-Allow-Origin * and CORP cross-origin on every answer, preflights answered; none by default', async () => {
  const on = await startServer({ root, port: 0, cors: true });
  try {
    for (const p of ['/index.html', '/minipbd.wasm', '/js/app.js', '/shaders/a.vert', '/missing.js']) {
      const r = await get(p, 'GET', { port: on.port, headers: { Origin: 'http://example.org' } });
      assert.equal(r.headers['access-control-allow-origin'], '*', p);
      assert.equal(r.headers['cross-origin-resource-policy'], 'cross-origin', `${p}: CORP cross-origin replaces same-origin`);
      assert.equal(r.headers['cross-origin-embedder-policy'], 'require-corp', `${p}: isolation headers kept`);
    }
    assert.equal((await get('/minipbd.wasm', 'GET', { port: on.port })).type, 'application/wasm');
    const pre = await get('/minipbd.wasm', 'OPTIONS', { port: on.port, headers: {
      Origin: 'http://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'range, x-custom' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.body, '');
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.match(pre.headers['access-control-allow-methods'], /\bGET\b/);
    assert.equal(pre.headers['access-control-allow-headers'], 'range, x-custom');
    // Without --cors: no CORS headers, CORP same-origin, and OPTIONS is not a method we serve.
    const r = await get('/minipbd.wasm', 'GET', { headers: { Origin: 'http://example.org' } });
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    assert.equal(r.headers['cross-origin-resource-policy'], 'same-origin');
    assert.equal((await get('/minipbd.wasm', 'OPTIONS')).status, 405);
    // With isolation off, --cors still sends what a CDN sends.
    const cdn = await startServer({ root, port: 0, cors: true, isolation: false });
    try {
      const c = await get('/js/app.js', 'GET', { port: cdn.port });
      assert.equal(c.headers['access-control-allow-origin'], '*');
      assert.equal(c.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.equal(c.headers['cross-origin-embedder-policy'], undefined);
    } finally {
      await cdn.close();
    }
  } finally {
    await on.close();
  }
  const child = spawn(process.execPath, [SERVE, root, '--port', '0', '--cors'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    });
    const m = /^MiniPBD demo: (http:\/\/127\.0\.0\.1:\d+\/) .*\(CORS: any origin/.exec(line);
    assert.ok(m, `printed: ${line}`);
    const res = await fetch(m[1] + 'js/app.js');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    await res.arrayBuffer();
  } finally {
    child.kill();
  }
});
