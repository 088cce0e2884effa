// weight.test.mjs — what a visitor downloads: a host page with one <minipbd-scene> (the element bundle,
// js/bundle/embed.js) and the demo (index.html, js/bundle/main.js), both on a host without cross-origin isolation
// (the common case: the single-thread build). Every http request the page makes is counted and its body gzipped
// here (node:zlib, level 9, as a static host or CDN compresses), headers left out. Budgets: the element in at most
// 10 requests and 180 KB (KiB, 1024 bytes) gzipped, the wasm included; the demo in 250 KB.
//
// The same pages loading the unbundled modules (dist/js/) are measured too and reported (t.diagnostic), so the
// gain of the bundles is visible in every run; only the bundled pages are held to the budgets.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST, openBrowser, watchProblems, waitReady, waitSteps, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

const KB = 1024;
const ELEMENT_REQUESTS = 10;
// The wasm is compiled file by file for it (Makefile WASM_COLD: -O2 for the step, -Os for what runs rarely, emmalloc).
const ELEMENT_GZIP = 180 * KB;
const DEMO_GZIP = 250 * KB;

let env;
before(async () => { env = await openBrowser({ isolation: false }); });
after(async () => { await env?.close(); });

const elementPage = (src) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>One scene</title>
<link rel="icon" href="data:,"><script type="module" src="${src}"></script></head>
<body><minipbd-scene id="a" scene="flag" width="480" height="300">MiniPBD: a flag</minipbd-scene></body></html>`;

/**
 * Opens `name` (served from `html` when given, else dist/'s own file), runs `ready` in the page and waits until the
 * network is quiet; resolves to { requests, gzip, files } over every http(s) request the page made.
 */
async function weigh(name, ready, html) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const bodies = [];
  page.on('requestfinished', (req) => {
    if (!/^https?:/.test(req.url())) return;
    bodies.push((async () => {
      const res = await req.response();
      const body = res ? await res.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
      return { url: req.url().slice(env.url.length), bytes: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length };
    })());
  });
  const started = [];
  page.on('request', (req) => { if (/^https?:/.test(req.url())) started.push(req.url()); });
  try {
    if (html !== undefined) {
      await page.route(`${env.url}${name}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    }
    await page.goto(`${env.url}${name}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(bodies);
    assert.equal(files.length, started.length, `every request finished: ${started.join(' ')}`);
    assert.deepEqual(problems, []);
    return { requests: files.length, gzip: files.reduce((n, f) => n + f.gzip, 0), files };
  } finally {
    await context.close();
  }
}

const elementRuns = (page) => page.waitForFunction(() => document.getElementById('a').world?.stats().steps > 5
  && document.getElementById('a').graphicsActive, null, { timeout: READY_TIMEOUT });
const demoRuns = async (page) => {
  await waitReady(page);
  await waitSteps(page, 5);
  // A scene made from a model file is named in the picker before its model is read (when it is chosen).
  assert.equal(await page.$eval('#scene-select option[value="bunny"]', (o) => o.textContent), 'Bunny');
};
const kb = (n) => `${(n / KB).toFixed(1)} KB`;

test('one <minipbd-scene> with the element bundle: at most 10 requests and 180 KB gzipped, the wasm included', { timeout: TEST_TIMEOUT }, async (t) => {
  const before = await weigh('__weight-modules.html', elementRuns, elementPage('./js/embed.js'));
  const after = await weigh('__weight-bundle.html', elementRuns, elementPage('./js/bundle/embed.js'));
  t.diagnostic(`element, unbundled modules: ${before.requests} requests, ${kb(before.gzip)} gzip`);
  t.diagnostic(`element, bundle: ${after.requests} requests, ${kb(after.gzip)} gzip (${after.files.map((f) => `${f.url} ${kb(f.gzip)}`).join(', ')})`);
  const urls = after.files.map((f) => f.url);
  assert.ok(urls.includes('js/bundle/embed.js') && urls.includes('minipbd.wasm'), urls.join(' '));
  assert.ok(!urls.some((u) => u.startsWith('shaders/')), 'the shaders come inside the bundle');
  assert.ok(after.requests <= ELEMENT_REQUESTS, `${after.requests} requests: ${urls.join(' ')}`);
  assert.ok(after.gzip <= ELEMENT_GZIP, `${kb(after.gzip)} gzip`);
  assert.ok(after.requests < before.requests && after.gzip < before.gzip, 'lighter than the modules');
});

test('the demo (index.html, its bundle): at most 250 KB gzipped', { timeout: TEST_TIMEOUT }, async (t) => {
  const bundled = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  assert.match(bundled, /<script type="module" src="\.\/js\/bundle\/main\.js"><\/script>/, 'dist/index.html loads the bundle');
  const before = await weigh('__index-modules.html', demoRuns, bundled.replace('./js/bundle/main.js', './js/app/main.js'));
  const after = await weigh('index.html', demoRuns);
  t.diagnostic(`demo, unbundled modules: ${before.requests} requests, ${kb(before.gzip)} gzip`);
  t.diagnostic(`demo, bundle: ${after.requests} requests, ${kb(after.gzip)} gzip (${after.files.map((f) => `${f.url} ${kb(f.gzip)}`).join(', ')})`);
  assert.ok(!after.files.some((f) => f.url.startsWith('shaders/') || f.url.startsWith('js/app/')), 'no module or shader fetched one by one');
  assert.ok(!after.files.some((f) => f.url.startsWith('assets/')), 'the bunny\'s model is read when its scene is chosen, not at start');
  assert.ok(after.gzip <= DEMO_GZIP, `${kb(after.gzip)} gzip`);
  assert.ok(after.requests < before.requests && after.gzip < before.gzip, 'lighter than the modules');
});
