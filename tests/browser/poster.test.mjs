// poster.test.mjs — <minipbd-scene> never shows a blank box (embed/poster.js, embed/failure.js): before it loads it
// shows a drawn placeholder with the scene's name (a built-in's words, or the name inside a link, as text); with
// WebGL2 unavailable or WebAssembly missing it keeps that poster and says why as text, element.failure and the
// 'error' event carrying { code, message }; with every context of the page's budget held on screen, one more element
// waits with the 'context-budget' reason and starts when one is released.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, hostPage, recordSceneEvents, elementPixels, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { STRINGS } from '../../web/js/i18n/i18n.js';
import { encodeLink } from '../../web/js/format/link.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

// The element's events, recorded from the start (capture on document: 'load' never reaches window).
const host = (html, initScripts = []) => hostPage(env, html, { name: '__poster.html', initScripts: [recordSceneEvents, ...initScripts] });

/** The element's poster, reason and state, read in the page. */
const posterOf = (page, id) => page.evaluate((id) => {
  const el = document.getElementById(id);
  const poster = el.shadowRoot.querySelector('.poster');
  const status = el.shadowRoot.querySelector('.status');
  const box = poster.getBoundingClientRect();
  return {
    shown: !poster.hidden && box.width > 50 && box.height > 50,
    name: el.shadowRoot.querySelector('.poster-name').textContent,
    reason: status.hidden ? null : status.textContent,
    failure: el.failure,
    world: el.world !== null,
    canvases: el.shadowRoot.querySelectorAll('.stage canvas').length,
    markup: el.shadowRoot.querySelectorAll('b, img, script').length,
  };
}, id);

/** Screenshot of `selector`, measured in the page: { lumaStdDev, distinctColors }. */
const waitEvents = (page, n) => page.waitForFunction((n) => window.__events.length >= n, n, { timeout: READY_TIMEOUT });

test('WebGL2 unavailable: the poster stays, drawn and named, with the reason as text; before load it is named too', { timeout: TEST_TIMEOUT }, async () => {
  const link = await encodeLink({ ...structuredClone(builtinScenes.chain), name: '<b>My</b> chain' });
  const noWebGL2 = () => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) { return type === 'webgl2' ? null : getContext.call(this, type, ...rest); };
  };
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <minipbd-scene id="a" scene="flag" width="400" height="250"></minipbd-scene>
    <div lang="zh"><minipbd-scene id="zh" scene="chain" width="400" height="250"></minipbd-scene></div>
    <div style="height:3000px"></div>
    <minipbd-scene id="later" src="${link}" width="400" height="250"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>`, [noWebGL2]);
  try {
    await waitEvents(page, 2);
    const events = await page.evaluate(() => window.__events);
    assert.deepEqual(events.map((e) => [e.id, e.type, e.code]).sort(), [['a', 'error', 'webgl'], ['zh', 'error', 'webgl']]);
    const a = await posterOf(page, 'a');
    assert.ok(a.shown, 'the poster is shown');
    assert.equal(a.name, 'Flag tearing in wind', "the built-in's name");
    assert.deepEqual(a.failure, { code: 'webgl', message: STRINGS.en['embed.fail.webgl'] });
    assert.equal(events.find((e) => e.id === 'a').message, a.failure.message, 'the event carries the same message');
    assert.equal(a.reason, STRINGS.en['embed.failed'].replace('{reason}', STRINGS.en['embed.fail.webgl']));
    assert.equal(a.world, false, 'no world kept');
    assert.equal(a.canvases, 0, 'no WebGL canvas left behind');
    const px = await elementPixels(page, '#a');
    assert.ok(px.lumaStdDev > 5 && px.distinctColors > 30, `the poster is drawn, not blank (${JSON.stringify(px)})`);
    // In the language of the host page around it.
    const zh = await posterOf(page, 'zh');
    assert.equal(zh.name, STRINGS.zh['scene.chain']);
    assert.equal(zh.failure.message, STRINGS.zh['embed.fail.webgl']);
    // Not seen yet: nothing loaded, the poster named from the link, its markup only ever text.
    const later = await posterOf(page, 'later');
    assert.deepEqual([later.name, later.markup, later.world, later.failure, later.reason], ['<b>My</b> chain', 0, false, null, null]);
    assert.ok(!later.shown || later.name, 'named before load');
    assert.equal(await page.evaluate(() => document.getElementById('later').shadowRoot.querySelector('.poster').hidden), false);
    assert.deepEqual(problems, [], 'no page errors, no console errors');
  } finally {
    await context.close();
  }
});

test('WebAssembly missing: the poster with its reason, and nothing fetched', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <minipbd-scene id="a" scene="cloth" width="400" height="250"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>`, [() => { delete globalThis.WebAssembly; }]);
  try {
    await waitEvents(page, 1);
    const a = await posterOf(page, 'a');
    assert.deepEqual(a.failure, { code: 'wasm', message: STRINGS.en['embed.fail.noWasm'] });
    assert.deepEqual(await page.evaluate(() => window.__events), [{ id: 'a', type: 'error', code: 'wasm', message: STRINGS.en['embed.fail.noWasm'] }]);
    assert.ok(a.shown && a.reason.includes(STRINGS.en['embed.fail.noWasm']));
    assert.equal(a.name, 'Hanging cloth');
    assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('.wasm'))), false);
    const px = await elementPixels(page, '#a');
    assert.ok(px.lumaStdDev > 5 && px.distinctColors > 30, `not blank (${JSON.stringify(px)})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the context budget spent on screen: one more element waits with its reason, and starts when one is released', { timeout: TEST_TIMEOUT }, async () => {
  const grid = Array.from({ length: 9 }, (_, i) => `<minipbd-scene id="e${i}" scene="chain" width="200" height="120" style="display:inline-block"></minipbd-scene>`).join('');
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">${grid}
    <script type="module" src="./js/embed.js"></script></body></html>`);
  try {
    await page.waitForFunction(() => window.__events.filter((e) => e.type === 'load').length === 9, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(async () => {
      const { MAX_LIVE_CONTEXTS, liveContexts } = await import('./js/embed.js');
      const els = [...document.querySelectorAll('minipbd-scene')];
      return { max: MAX_LIVE_CONTEXTS, live: liveContexts(), waiting: els.filter((el) => !el.graphicsActive).map((el) => [el.id, el.failure?.code]) };
    });
    assert.equal(r.live, r.max, 'the budget is held');
    assert.equal(r.waiting.length, 9 - r.max);
    const [id] = r.waiting[0];
    assert.deepEqual(r.waiting[0], [id, 'context-budget']);
    const w = await posterOf(page, id);
    assert.ok(w.shown && w.reason === STRINGS.en['embed.fail.contextBudget'].replace('{n}', r.max), w.reason);
    assert.ok((await page.evaluate(() => window.__events)).some((e) => e.id === id && e.type === 'error' && e.code === 'context-budget'));
    // One element removed: its context goes, and the waiting one takes it.
    await page.evaluate((id) => document.querySelector(`minipbd-scene:not(#${id})`).remove(), id);
    await page.waitForFunction((id) => document.getElementById(id).graphicsActive, id, { timeout: READY_TIMEOUT });
    const after = await posterOf(page, id);
    assert.deepEqual([after.shown, after.failure, after.reason, after.canvases], [false, null, null, 1]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
