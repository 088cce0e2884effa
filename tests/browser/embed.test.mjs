// embed.test.mjs — the <minipbd-scene> element (js/embed.js) and the iframe embed page (embed.html):
// lazy loading on scroll, pausing off screen and in hidden pages, reduced motion, errors, postMessage to the
// parent, and many embeds on one page (WebGL context budget).
//
// Host pages are served at made-up paths on the test server's origin with page.route, so they are same-origin
// with dist/ (module scripts, wasm and iframes load exactly as on a real site).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, hostPage, watchProblems, elementPixels, drawRate, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { encodeLink } from '../../web/js/format/link.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Open `html` as page `name` on the server's origin. Returns { page, problems, context }. */
const host = (html, options) => hostPage(env, html, options);

// Records the element's events in window.__events before the module upgrades it.
const RECORD = `<script>
  window.__events = [];
  for (const el of document.querySelectorAll('minipbd-scene')) {
    el.addEventListener('load', (e) => window.__events.push({ id: el.id, type: 'load', hasWorld: !!e.detail.world }));
    el.addEventListener('error', (e) => window.__events.push({ id: el.id, type: 'error', code: e.detail.code, message: e.detail.message }));
  }
</script>`;

const steps = (page, id) => page.evaluate((id) => document.getElementById(id).world.stats().steps, id);

async function waitLoads(page, n) {
  await page.waitForFunction((n) => window.__events.filter((e) => e.type === 'load').length >= n, n, { timeout: READY_TIMEOUT });
}

async function waitStepping(page, id, n = 5) {
  const s0 = await steps(page, id);
  await page.waitForFunction(([id, t]) => document.getElementById(id).world.stats().steps >= t, [id, s0 + n], { timeout: READY_TIMEOUT });
}

/** Screenshot of `selector`, measured in the page: { lumaStdDev, distinctColors }. */
/** Steps do not increase over `ms` (after letting in-flight frames settle). */
async function assertStill(page, id, what) {
  await sleep(300);
  const a = await steps(page, id);
  await sleep(700);
  const b = await steps(page, id);
  assert.equal(b, a, `${what}: no steps (was ${a}, then ${b})`);
}

test('the element loads when scrolled into view, steps only while visible and while the page is shown', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <div style="height:3000px">top</div>
    <minipbd-scene id="a" scene="chain" style="width:480px;height:300px"></minipbd-scene>
    <div style="height:3000px">bottom</div>
    ${RECORD}
    <script type="module" src="./js/embed.js"></script></body></html>`);
  try {
    await page.waitForFunction(() => customElements.get('minipbd-scene') !== undefined);
    await sleep(800);
    assert.equal(await page.evaluate(() => document.getElementById('a').world), null, 'no world before it is seen');
    assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('.wasm'))), false, 'wasm not even fetched');

    await page.evaluate(() => document.getElementById('a').scrollIntoView());
    await waitLoads(page, 1);
    const info = await page.evaluate(() => {
      const el = document.getElementById('a');
      const c = el.shadowRoot.querySelector('canvas');
      return { world: el.world !== null, particles: el.world.particleCount, gfx: el.graphicsActive, canvas: [c.width, c.height], dpr: devicePixelRatio };
    });
    assert.ok(info.world && info.particles > 10, 'world set after scrolling');
    assert.ok(info.gfx, 'holds a WebGL context while visible');
    // SwiftShader here: a software renderer draws at half the resolution (render/renderer.js fit).
    assert.deepEqual(info.canvas, [480, 300].map((v) => Math.round(Math.round(v * info.dpr) * 0.5)), 'canvas sized by devicePixelRatio x 0.5');
    await waitStepping(page, 'a');
    const px = await elementPixels(page, '#a');
    assert.ok(px.lumaStdDev > 5 && px.distinctColors > 50, `the element draws the scene (${JSON.stringify(px)})`);
    // SwiftShader here: an element draws at most 30 frames a second (render/renderer.js), even while a pointer held
    // on it asks for a frame at every animation frame.
    const box = await page.evaluate(() => { const r = document.getElementById('a').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; });
    await page.mouse.move(box[0], box[1]);
    await page.mouse.down();
    const rate = await drawRate(page, { elementId: 'a' });
    await page.mouse.up();
    assert.ok(rate.drawn >= 10 && rate.fps <= 31, `${rate.drawn} frames drawn in ${rate.ms.toFixed(0)} ms (${rate.fps.toFixed(1)} a second) of ${rate.ticks} offered`);

    // Scrolled away: stops stepping; scrolled far away: the context is released.
    await page.evaluate(() => window.scrollTo(0, 0));
    await assertStill(page, 'a', 'scrolled away');
    assert.equal(await page.evaluate(() => document.getElementById('a').graphicsActive), false, 'context released when far away');

    await page.evaluate(() => document.getElementById('a').scrollIntoView());
    await waitStepping(page, 'a');
    assert.equal(await page.evaluate(() => document.getElementById('a').graphicsActive), true, 'context back on return');

    // Hidden page (emulated: document.hidden + visibilitychange).
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await assertStill(page, 'a', 'page hidden');
    await page.evaluate(() => {
      delete document.hidden;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitStepping(page, 'a');

    // pause() / play() / reset()
    await page.evaluate(() => document.getElementById('a').pause());
    await assertStill(page, 'a', 'paused');
    await page.evaluate(() => { document.getElementById('a').reset(); document.getElementById('a').play(); });
    await waitStepping(page, 'a');

    const events = await page.evaluate(() => window.__events);
    assert.deepEqual(events, [{ id: 'a', type: 'load', hasWorld: true }], "'load' fired exactly once");
    assert.deepEqual(problems, [], 'no console errors');
  } finally {
    await context.close();
  }
});

test('with prefers-reduced-motion it waits for its play button', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <minipbd-scene id="a" scene="cloth" style="width:480px;height:300px"></minipbd-scene>
    ${RECORD}
    <script type="module" src="./js/embed.js"></script></body></html>`, { contextOptions: { reducedMotion: 'reduce' } });
  try {
    await waitLoads(page, 1);
    await assertStill(page, 'a', 'reduced motion: no auto-play');
    assert.equal(await steps(page, 'a'), 0, 'not a single step');
    const button = page.locator('#a button[aria-label="Play simulation"]');
    assert.equal(await button.isVisible(), true, 'a play button is shown');
    // Keyboard reachable: Tab reaches it (after the canvas).
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.getElementById('a').shadowRoot.activeElement?.tagName) === 'BUTTON') break;
    }
    assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.activeElement?.tagName), 'BUTTON');
    await page.keyboard.press('Enter');
    await waitStepping(page, 'a');
    assert.equal(await page.locator('#a button').getAttribute('aria-label'), 'Pause simulation');
    await page.locator('#a button').click();
    await assertStill(page, 'a', 'paused with the button');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a refused link fires error with a message and shows it as text', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <minipbd-scene id="bad" src="s=1.!!<b>x</b>" style="width:400px;height:250px"></minipbd-scene>
    <minipbd-scene id="unknown" scene="&lt;img src=x&gt;" style="width:400px;height:250px"></minipbd-scene>
    ${RECORD}
    <script type="module" src="./js/embed.js"></script></body></html>`);
  try {
    await page.waitForFunction(() => window.__events.length >= 2, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => ({
      events: window.__events,
      worlds: [...document.querySelectorAll('minipbd-scene')].map((el) => el.world),
      text: [...document.querySelectorAll('minipbd-scene')].map((el) => el.shadowRoot.querySelector('.status').textContent),
      markup: [...document.querySelectorAll('minipbd-scene')].map((el) => el.shadowRoot.querySelectorAll('b, img').length),
    }));
    assert.deepEqual(r.events.map((e) => [e.type, e.code]), [['error', 'scene'], ['error', 'scene']]);
    for (const e of r.events) assert.ok(typeof e.message === 'string' && e.message.length > 5, `message: ${e.message}`);
    assert.deepEqual(r.worlds, [null, null]);
    for (const t of r.text) assert.match(t, /could not be shown/);
    assert.deepEqual(r.markup, [0, 0], 'link text never becomes markup');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('embed.html posts minipbd:ready and minipbd:error to its parent', { timeout: TEST_TIMEOUT }, async () => {
  const link = await encodeLink(structuredClone(builtinScenes.chain));
  const { page, problems, context } = await host(`<!doctype html><html><body>
    <script>
      window.__msgs = [];
      addEventListener('message', (e) => {
        const from = [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source);
        window.__msgs.push({ from, data: e.data });
      });
    </script>
    <iframe src="./embed.html#${link}" width="400" height="250" title="good"></iframe>
    <iframe src="./embed.html#s=1.%%%bad" width="400" height="250" title="bad"></iframe>
    <iframe src="./embed.html#scene=flag" width="400" height="250" title="builtin"></iframe>
    </body></html>`);
  try {
    await page.waitForFunction(() => window.__msgs.length >= 3, null, { timeout: READY_TIMEOUT });
    const msgs = await page.evaluate(() => window.__msgs.sort((a, b) => a.from - b.from));
    assert.equal(msgs.length, 3);
    assert.deepEqual(msgs[0], { from: 0, data: { type: 'minipbd:ready', particles: 26 } });
    assert.equal(msgs[1].data.type, 'minipbd:error');
    assert.ok(typeof msgs[1].data.message === 'string' && msgs[1].data.message.length > 5);
    assert.equal(msgs[2].data.type, 'minipbd:ready');
    assert.ok(msgs[2].data.particles > 100);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('example.html loads its three iframe embeds and its element without errors', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.addInitScript(() => {
    window.__msgs = [];
    addEventListener('message', (e) => window.__msgs.push(e.data));
  });
  try {
    await page.goto(`${env.url}example.html`);
    assert.equal(await page.locator('iframe').count(), 3);
    // Scroll through the page so each embed is seen (they load only when visible).
    for (let i = 0; i < 3; i++) {
      await page.locator('iframe').nth(i).scrollIntoViewIfNeeded();
      await page.waitForFunction((n) => window.__msgs.filter((m) => m?.type === 'minipbd:ready').length >= n, i + 1, { timeout: READY_TIMEOUT });
    }
    const msgs = await page.evaluate(() => window.__msgs);
    assert.equal(msgs.filter((m) => m.type === 'minipbd:ready').length, 3);
    assert.equal(msgs.filter((m) => m.type === 'minipbd:error').length, 0);
    // And the custom element at the end: it runs once seen.
    await page.locator('minipbd-scene').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('minipbd-scene').world?.stats().steps > 2, null, { timeout: READY_TIMEOUT });
    assert.equal(await page.evaluate(() => document.querySelector('minipbd-scene').failure), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('eight elements on one page all run; a long page keeps the live WebGL contexts within budget', { timeout: TEST_TIMEOUT }, async () => {
  const scenes = ['cloth', 'chain', 'flag', 'cloth-sphere', 'table', 'fold', 'mass-split', 'chain'];
  const grid = scenes.map((s, i) => `<minipbd-scene id="e${i}" scene="${s}" style="width:240px;height:160px;display:inline-block"></minipbd-scene>`).join('');
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">${grid}${RECORD}
    <script type="module" src="./js/embed.js"></script></body></html>`, { contextOptions: { viewport: { width: 1000, height: 400 } } });
  try {
    await waitLoads(page, 8);
    for (let i = 0; i < 8; i++) await waitStepping(page, `e${i}`, 2);
    const r = await page.evaluate(async () => {
      const m = await import('./js/embed.js');
      const els = [...document.querySelectorAll('minipbd-scene')];
      return { live: m.liveContexts(), gfx: els.every((el) => el.graphicsActive), engines: new Set(els.map((el) => el.world.engine)).size };
    });
    assert.equal(r.live, 8);
    assert.ok(r.gfx, 'every visible element draws');
    assert.equal(r.engines, 1, 'one engine shared by all elements');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }

  // 16 elements down a long page: scrolling through them never holds more than the budget.
  const long = Array.from({ length: 16 }, (_, i) => `<minipbd-scene id="l${i}" scene="${i % 2 ? 'chain' : 'cloth'}" style="width:400px;height:250px;margin-bottom:500px"></minipbd-scene>`).join('');
  const h = await host(`<!doctype html><html><body style="margin:0">${long}${RECORD}
    <script type="module" src="./js/embed.js"></script></body></html>`);
  try {
    let maxLive = 0;
    for (let i = 0; i < 16; i++) {
      await h.page.evaluate((i) => document.getElementById(`l${i}`).scrollIntoView(), i);
      await waitLoads(h.page, i + 1);
      await waitStepping(h.page, `l${i}`, 2);
      const live = await h.page.evaluate(async () => (await import('./js/embed.js')).liveContexts());
      maxLive = Math.max(maxLive, live);
    }
    const { MAX_LIVE_CONTEXTS } = await h.page.evaluate(async () => ({ MAX_LIVE_CONTEXTS: (await import('./js/embed.js')).MAX_LIVE_CONTEXTS }));
    assert.ok(maxLive <= MAX_LIVE_CONTEXTS, `at most ${MAX_LIVE_CONTEXTS} live contexts (saw ${maxLive})`);
    assert.ok(maxLive <= 3, `only the elements on or near the screen hold one (saw ${maxLive})`);
    // Back to the first: it gets a context again and runs from where it was.
    await h.page.evaluate(() => document.getElementById('l0').scrollIntoView());
    await waitStepping(h.page, 'l0', 2);
    assert.equal(await h.page.evaluate(() => document.getElementById('l0').graphicsActive), true);
    assert.equal(await h.page.evaluate(() => window.__events.length), 16, 'each loaded once, no errors');
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }
});

test('a dense page never holds more than MAX_LIVE_CONTEXTS contexts; eight iframes all report ready', { timeout: TEST_TIMEOUT }, async () => {
  // 24 small elements, two per row, rows 50 px high in a 110 px high window: six are on screen at a time and the
  // rows seen within one window height above still count as near, so only the budget limits the contexts.
  const N = 24;
  const dense = Array.from({ length: N }, (_, i) => `<minipbd-scene id="d${i}" scene="chain" style="width:400px;height:50px;min-height:0;aspect-ratio:auto"></minipbd-scene>`).join('');
  const h = await host(`<!doctype html><html><body style="margin:0"><div style="display:flex;flex-wrap:wrap;width:800px">${dense}</div>
    <div style="height:600px"></div>${RECORD}
    <script type="module" src="./js/embed.js"></script></body></html>`, { contextOptions: { viewport: { width: 800, height: 110 } } });
  try {
    const { max } = await h.page.evaluate(async () => ({ max: (await import('./js/embed.js')).MAX_LIVE_CONTEXTS }));
    let maxLive = 0;
    for (let i = 0; i < N; i += 2) {
      await h.page.evaluate((i) => document.getElementById(`d${i}`).scrollIntoView({ block: 'start' }), i);
      await waitLoads(h.page, Math.min(N, i + 2));
      await waitStepping(h.page, `d${i}`, 2);
      maxLive = Math.max(maxLive, await h.page.evaluate(async () => (await import('./js/embed.js')).liveContexts()));
    }
    assert.equal(maxLive, max, `the budget (${max}) is reached and never exceeded`);
    assert.equal(await h.page.evaluate((id) => document.getElementById(id).graphicsActive, `d${N - 1}`), true, 'the visible ones have a context');
    // The least recently seen gave theirs up; scrolling back gives the first one a context again.
    assert.equal(await h.page.evaluate(() => document.getElementById('d0').graphicsActive), false);
    await h.page.evaluate(() => document.getElementById('d0').scrollIntoView());
    await waitStepping(h.page, 'd0', 2);
    assert.equal(await h.page.evaluate(() => document.getElementById('d0').graphicsActive), true);
    assert.ok(await h.page.evaluate(async () => (await import('./js/embed.js')).liveContexts()) <= max);
    assert.deepEqual(h.problems, []);
  } finally {
    await h.context.close();
  }

  const scenes = ['cloth', 'chain', 'flag', 'cloth-sphere', 'table', 'fold', 'mass-split', 'chain'];
  const frames = scenes.map((s) => `<iframe src="./embed.html#scene=${s}" width="240" height="150" title="${s}"></iframe>`).join('');
  const f = await host(`<!doctype html><html><body style="margin:0">
    <script>window.__msgs = []; addEventListener('message', (e) => window.__msgs.push(e.data));</script>${frames}</body></html>`);
  try {
    await f.page.waitForFunction(() => window.__msgs.length >= 8, null, { timeout: READY_TIMEOUT });
    const msgs = await f.page.evaluate(() => window.__msgs);
    assert.equal(msgs.filter((m) => m.type === 'minipbd:ready').length, 8, JSON.stringify(msgs));
    assert.deepEqual(f.problems, []);
  } finally {
    await f.context.close();
  }
});
