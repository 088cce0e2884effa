// frame.test.mjs — the iframe's two-way API across origins (docs/embedding.md, embed/frame-api.js and the client
// embed/frame-client.js): a parent page on origin A commands an embed.html iframe served from origin B (another
// port); every command round-trips; the listener example of docs/embedding.md hears minipbd:ready; a page on origin C that
// frames the embed without being allowed gets no answer and changes nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser, watchProblems, DIST, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { docBlocks } from '../node/doc-blocks.mjs';
import { encodeLink } from '../../web/js/format/link.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { validateScene } from '../../web/js/format/scene.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The listener example of docs/embedding.md, as printed there (its block id=listener, which listens for minipbd:ready).
const LISTENER = docBlocks().find((b) => b.id === 'listener')?.code;

/**
 * A real server for the host pages (origins A and C): `pages` maps a path to its HTML, and /js/embed/frame-client.js
 * is the built client. (Pages fulfilled by page.route have no address, and Chromium's local network access checks
 * then refuse their iframes from 127.0.0.1.)
 */
async function pageServer() {
  const pages = new Map();
  const server = http.createServer((req, res) => {
    const url = req.url.split('?')[0];
    if (url === '/js/embed/frame-client.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      return res.end(fs.readFileSync(path.join(DIST, 'js', 'embed', 'frame-client.js')));
    }
    if (url === '/favicon.ico') { res.writeHead(204); return res.end(); }
    if (!pages.has(url)) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(pages.get(url));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { pages, origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

let env, serverA, serverB, serverC;
before(async () => {
  env = await openBrowser({ isolation: false }); // origin B: dist/ with the embed
  serverB = env.server;
  serverA = await pageServer(); // origin A: the parent page and its copy of the client
  serverC = await pageServer(); // origin C: a page not allowed
});
after(async () => {
  await env?.close();
  await serverA?.close();
  await serverC?.close();
});

/** Open `html` as `server`'s page `name`. */
async function host(server, name, html, context) {
  server.pages.set(name, html);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(server.origin + name);
  return { page, problems };
}

/** The <minipbd-scene> inside the embed served from `origin`, read through Playwright (not the page's own JS). */
function embedFrame(page, origin) {
  const f = page.frames().find((fr) => fr.url().startsWith(origin));
  assert.ok(f, `a frame from ${origin}`);
  return (fn, arg) => f.evaluate(fn, arg);
}

test('a parent on another origin drives the embed: every command round-trips', { timeout: TEST_TIMEOUT }, async () => {
  assert.ok(LISTENER, 'docs/embedding.md has the listener example');
  const A = serverA.origin, B = new URL(serverB.url).origin;
  assert.notEqual(A, B);
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  try {
    // The client is created before the iframe gets its src (docs/embedding.md: before it has loaded), so ready is heard.
    const { page, problems } = await host(serverA, '/parent.html', `<!doctype html><html><body>
      <iframe id="f" width="480" height="300" title="MiniPBD" style="border: 0"></iframe>
      <script type="module">
        import { MiniPBDFrame } from '/js/embed/frame-client.js';
        const iframe = document.getElementById('f');
        iframe.src = '${B}/embed.html#scene=chain&autoplay=false';
        window.frame = new MiniPBDFrame(iframe);
        window.statsEvents = [];
        window.readyInfo = null;
        frame.ready.then((r) => { window.readyInfo = r; });
        // The docs' example, verbatim (in its own block), once the iframe has its src.
        {
        ${LISTENER}
        }
      </script></body></html>`, context);
    const logs = [];
    page.on('console', (m) => logs.push(m.text()));
    await page.waitForFunction(() => window.readyInfo !== null, null, { timeout: READY_TIMEOUT });
    const chainParticles = validateScene(builtinScenes.chain).objects[0].segments + 1;
    assert.deepEqual(await page.evaluate(() => window.readyInfo), { particles: chainParticles });
    await sleep(100); // the listener's console.log lands after the client's ready
    assert.ok(logs.includes(`particles ${chainParticles}`), `the docs' listener heard minipbd:ready across origins: ${JSON.stringify(logs)}`);
    const inFrame = embedFrame(page, B);
    const call = (name, ...args) => page.evaluate(async ([name, args]) => {
      try { return { ok: true, result: await window.frame[name](...args) }; } catch (err) { return { ok: false, code: err.code, message: err.message }; }
    }, [name, args]);
    const steps = async () => (await call('stats')).result.steps;

    // Paused (autoplay=false): no steps; step 5 takes exactly 5.
    const s0 = await steps();
    await sleep(500);
    assert.equal(await steps(), s0, 'paused: no steps');
    assert.deepEqual(await call('step', 5), { ok: true, result: { steps: s0 + 5, ran: 5, cancelled: false } });
    assert.equal(await steps(), s0 + 5);
    assert.equal(await inFrame(() => document.querySelector('minipbd-scene').world.stats().steps), s0 + 5);

    // play: steps advance; pause: they stop.
    assert.deepEqual(await call('play'), { ok: true, result: { paused: false } });
    await page.waitForFunction(async (t) => (await window.frame.stats()).steps >= t, s0 + 15, { timeout: READY_TIMEOUT, polling: 100 });
    assert.deepEqual(await call('pause'), { ok: true, result: { paused: true } });
    const s1 = await steps();
    await sleep(600);
    assert.equal(await steps(), s1, 'paused again');

    // set: the value, the world's description, and the world's refusal.
    assert.deepEqual(await call('set', 'iterations', 23), { ok: true, result: { name: 'iterations', value: 23 } });
    assert.equal(await inFrame(() => document.querySelector('minipbd-scene').world.describe().solver.iterations), 23);
    const bad = await call('set', 'iterations', -1);
    assert.equal(bad.ok, false);
    assert.equal(bad.code, 'refused');
    assert.match(bad.message, /^set: parameter iterations must be /);
    const stats = (await call('stats')).result;
    assert.equal(stats.time, stats.steps * await inFrame(() => document.querySelector('minipbd-scene').world.getParam('dt')), 'time = steps × dt');

    // load: a built-in, a link; a refused link keeps the running world.
    const flag = await call('load', 'flag');
    assert.deepEqual(flag, { ok: true, result: { particles: await inFrame(() => document.querySelector('minipbd-scene').world.particleCount) } });
    assert.equal(await inFrame(() => document.querySelector('minipbd-scene').world.describe().objects[0].type), 'cloth');
    const link = await encodeLink(builtinScenes['cloth-sphere']);
    // The command table's forms too: { scene } and { link }, as the client sends them.
    const byScene = await call('load', { scene: builtinScenes.chain });
    assert.equal(byScene.ok, true, JSON.stringify(byScene));
    assert.equal(await inFrame(() => document.querySelector('minipbd-scene').world.describe().objects[0].type), 'chain');
    const byLink = await call('load', { link: `${B}/embed.html#${link}` });
    assert.equal(byLink.ok, true, JSON.stringify(byLink));
    assert.equal(await inFrame(() => document.querySelector('minipbd-scene').world.describe().colliders.length), 1);
    const loaded = await call('load', `${B}/embed.html#${link}`);
    assert.equal(loaded.ok, true, JSON.stringify(loaded));
    await call('step', 3);
    const before = await inFrame(() => { const w = document.querySelector('minipbd-scene').world; return { hash: w.hash(), steps: w.stats().steps }; });
    const refused = await call('load', 's=1.%%%bad');
    assert.equal(refused.ok, false);
    assert.equal(refused.code, 'refused');
    assert.match(refused.message, /^load: /);
    const tooBig = await page.evaluate(() => window.frame.load({ objects: new Array(3e6).fill(0) }).then(() => 'loaded', (e) => e.code));
    assert.equal(tooBig, 'too-large');
    const after = await inFrame(() => { const w = document.querySelector('minipbd-scene').world; return { hash: w.hash(), steps: w.stats().steps }; });
    assert.deepEqual(after, before, 'refused loads left the world as it was');
    const raw = await page.evaluate(() => new Promise((resolve) => {
      const iframe = document.getElementById('f');
      addEventListener('message', function on(e) {
        if (e.source === iframe.contentWindow && e.data?.id === 'raw') { removeEventListener('message', on); resolve(e.data); }
      });
      iframe.contentWindow.postMessage({ type: 'minipbd:command', id: 'raw', command: 'step', args: { n: -1 } }, new URL(iframe.src).origin);
    }));
    assert.deepEqual(raw, { type: 'minipbd:reply', id: 'raw', ok: false, error: { code: 'bad-args', message: 'step: n must be an integer in 1..10000, got -1' } });

    // reset: the loaded scene from its start.
    assert.deepEqual((await call('reset')).result.steps, 0);

    // subscribe by rate while running, then unsubscribe; then by steps while paused.
    await call('play');
    await page.evaluate(() => window.frame.subscribe({ hz: 10 }, (s) => window.statsEvents.push(s)));
    await sleep(2000);
    const n = await page.evaluate(() => window.statsEvents.length);
    assert.ok(n >= 12 && n <= 24, `about 10 events a second: ${n} in 2 s`);
    const es = await page.evaluate(() => window.statsEvents.map((s) => s.steps));
    assert.ok(es.at(-1) > es[0], 'the stats follow the running world');
    assert.deepEqual((await call('unsubscribe')).result, { subscribed: true });
    const m = await page.evaluate(() => window.statsEvents.length);
    await sleep(600);
    assert.equal(await page.evaluate(() => window.statsEvents.length), m, 'no events after unsubscribe');
    await call('pause');
    await page.evaluate(() => { window.statsEvents = []; return window.frame.subscribe({ every: 5 }, (s) => window.statsEvents.push(s)); });
    await sleep(100);
    const base = await steps();
    await call('step', 5);
    await page.waitForFunction(() => window.statsEvents.length >= 1, null, { timeout: 5000 });
    await call('step', 4);
    await sleep(300);
    assert.deepEqual(await page.evaluate(() => window.statsEvents.map((s) => s.steps)), [base + 5], 'one event per 5 steps');
    await call('step', 1);
    await page.waitForFunction(() => window.statsEvents.length >= 2, null, { timeout: 5000 });
    assert.deepEqual(await page.evaluate(() => window.statsEvents.map((s) => s.steps)), [base + 5, base + 10]);
    await call('unsubscribe');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a long step on a heavy scene: progress events, stats and pause answered within 200 ms, pause stops it', { timeout: TEST_TIMEOUT }, async () => {
  const B = new URL(serverB.url).origin;
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  try {
    // The dam break (8,192 fluid particles, ~80 ms a step on a quiet machine) on the single-thread build: its
    // steps run in slices on the frame's own thread.
    const { page, problems } = await host(serverA, '/long.html', `<!doctype html><html><body>
      <iframe id="f" width="480" height="300" title="MiniPBD" style="border: 0"></iframe>
      <script type="module">
        import { MiniPBDFrame } from '/js/embed/frame-client.js';
        const iframe = document.getElementById('f');
        iframe.src = '${B}/embed.html#scene=dam-break&autoplay=false';
        window.frame = new MiniPBDFrame(iframe, { timeout: 60000 });
        window.progress = [];
        window.readyInfo = null;
        frame.ready.then((r) => { window.readyInfo = r; });
      </script></body></html>`, context);
    await page.waitForFunction(() => window.readyInfo !== null, null, { timeout: READY_TIMEOUT });
    const timed = (name, ...args) => page.evaluate(async ([name, args]) => {
      const t0 = performance.now();
      const result = await window.frame[name](...args);
      return { ms: performance.now() - t0, result };
    }, [name, args]);
    const s0 = (await timed('stats')).result.steps;
    await page.evaluate(() => {
      window.longStep = null;
      window.frame.step(10000, { onProgress: (p) => window.progress.push(p) }).then((r) => { window.longStep = r; });
    });
    await page.waitForFunction((s0) => window.progress.length >= 1 && window.progress.at(-1).steps >= s0 + 2, s0, { timeout: READY_TIMEOUT, polling: 100 });
    const p = await page.evaluate(() => window.progress.at(-1));
    assert.equal(p.n, 10000);
    assert.ok(p.done >= 2 && p.done < 10000);
    const stats = await timed('stats');
    assert.ok(stats.ms < 200, `stats answered in ${stats.ms.toFixed(0)} ms during the long step`);
    assert.ok(stats.result.steps >= s0 + 2 && stats.result.steps < s0 + 10000);
    assert.equal(await page.evaluate(() => window.longStep), null, 'still running');
    const pause = await timed('pause');
    assert.ok(pause.ms < 200, `pause answered in ${pause.ms.toFixed(0)} ms during the long step`);
    assert.deepEqual(pause.result, { paused: true });
    await page.waitForFunction(() => window.longStep !== null, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => window.longStep);
    assert.equal(r.cancelled, true);
    assert.ok(r.ran >= 2 && r.ran < 10000, `ran ${r.ran}`);
    assert.equal(r.steps, s0 + r.ran);
    await sleep(500);
    assert.equal((await timed('stats')).result.steps, s0 + r.ran, 'no step after the pause');
    // A load while a long step runs: answered within a second, the step's reply says it was stopped.
    await page.evaluate(() => {
      window.longStep = null;
      window.frame.step(10000).then((r) => { window.longStep = r; });
    });
    await page.waitForFunction(async (s) => (await window.frame.stats()).steps >= s + 1, s0 + r.ran, { timeout: READY_TIMEOUT, polling: 100 });
    const load = await timed('load', 'chain');
    assert.ok(load.ms < 1000, `load answered in ${load.ms.toFixed(0)} ms during the long step`);
    await page.waitForFunction(() => window.longStep !== null, null, { timeout: READY_TIMEOUT });
    assert.equal(await page.evaluate(() => window.longStep.cancelled), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a page on an origin not in parent= gets no answer and changes nothing', { timeout: TEST_TIMEOUT }, async () => {
  const A = serverA.origin, B = new URL(serverB.url).origin, C = serverC.origin;
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  try {
    // C frames the embed, but the embed's address allows only A.
    const { page, problems } = await host(serverC, '/other.html', `<!doctype html><html><body>
      <iframe id="f" src="${B}/embed.html#scene=chain&autoplay=false&parent=${encodeURIComponent(A)}" width="480" height="300" title="x"></iframe>
      <script>
        window.heard = [];
        addEventListener('message', (e) => window.heard.push({ origin: e.origin, data: e.data }));
      </script></body></html>`, context);
    const t0 = Date.now();
    while (!page.frames().some((fr) => fr.url().startsWith(B)) && Date.now() - t0 < READY_TIMEOUT) await sleep(50);
    const inFrame = embedFrame(page, B);
    await page.frames().find((fr) => fr.url().startsWith(B)).waitForFunction(() => document.querySelector('minipbd-scene')?.world, null, { timeout: READY_TIMEOUT });
    await page.evaluate((B) => {
      const w = document.getElementById('f').contentWindow;
      for (const [id, command, args] of [[1, 'play'], [2, 'step', { n: 50 }], [3, 'load', { builtin: 'flag' }], [4, 'bogus'], [5, 'stats']]) {
        w.postMessage({ type: 'minipbd:command', id, command, args }, B);
        w.postMessage({ type: 'minipbd:command', id, command, args }, '*');
      }
    }, B);
    await sleep(1500);
    assert.deepEqual(await page.evaluate(() => window.heard), [], 'no reply, no ready: nothing at all');
    const state = await inFrame(() => {
      const el = document.querySelector('minipbd-scene');
      return { steps: el.world.stats().steps, paused: el.paused, type: el.world.describe().objects[0].type };
    });
    assert.deepEqual(state, { steps: 0, paused: true, type: 'chain' });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
