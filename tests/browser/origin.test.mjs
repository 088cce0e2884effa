// origin.test.mjs — the embed served from a second origin (docs/embedding.md "Hosting"): a host page on origin A (a server of
// its own, cross-origin isolated) loads js/embed.js, the wasm and the shaders from origin B (dist/ on another port).
// With B sending CORS (tools/serve.mjs --cors) the element loads and steps, on the single-thread build (no worker
// starts from another origin's script: build.reason 'crossOrigin'). With B sending no CORS: the wasm from B is
// refused and the element shows its poster with the 'fetch' reason naming the URL; a module script from B is refused
// outright, nothing of ours runs, and the element's own fallback text stays (no page error in any case).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, DIST, READY_TIMEOUT, TEST_TIMEOUT, watchProblems } from './helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { STRINGS } from '../../web/js/i18n/i18n.js';

let tmp, a, b, bNoCors, browser;
before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-origin-'));
  // A: the host site, with a copy of dist/ under /minipbd/ (for the case where only the wasm comes from B).
  fs.cpSync(DIST, path.join(tmp, 'minipbd'), { recursive: true });
  a = await startServer({ root: tmp, port: 0 });
  b = await startServer({ root: DIST, port: 0, cors: true });
  bNoCors = await startServer({ root: DIST, port: 0 });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close().catch(() => {});
  for (const s of [a, b, bNoCors]) await s?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Writes `html` as A's page `name` and opens it. */
async function open(name, html) {
  fs.writeFileSync(path.join(tmp, name), html);
  const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(a.url + name);
  return { page, problems, errors, context };
}

// The browser's own console lines for a refused cross-origin request (they name no URL: "Failed to load resource:
// net::ERR_FAILED").
const BROWSER_REFUSAL = /CORS|Cross-Origin|net::ERR_FAILED|net::ERR_BLOCKED/i;

const scene = (attrs) => `<minipbd-scene id="s" scene="chain" width="480" height="300" ${attrs}>MiniPBD: a hanging chain (it needs JavaScript and WebGL2)</minipbd-scene>`;

test('the element from another origin with CORS: it loads and steps on the single-thread build', { timeout: TEST_TIMEOUT }, async () => {
  assert.notEqual(new URL(a.url).origin, new URL(b.url).origin);
  const { page, problems, errors, context } = await open('cors.html', `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
    ${scene('')}<script type="module" src="${b.url}js/embed.js"></script></body></html>`);
  try {
    assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the host page is isolated (so only the origin stops threads)');
    await page.waitForFunction(() => document.getElementById('s').world?.stats().steps > 5, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(async () => {
      const el = document.getElementById('s');
      const p0 = Array.from(el.world.positions.slice(0, 4 * el.world.particleCount));
      const s0 = el.world.stats().steps;
      await new Promise((res) => setTimeout(res, 500));
      const p1 = Array.from(el.world.positions.slice(0, 4 * el.world.particleCount));
      let moved = 0;
      for (let i = 0; i < p0.length; i++) moved = Math.max(moved, Math.abs(p1[i] - p0[i]));
      return { steps: el.world.stats().steps - s0, moved, build: el.build, failure: el.failure, gfx: el.graphicsActive,
        resources: performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\.(wasm|vert|frag)$/.test(n)) };
    });
    assert.ok(r.steps > 0 && r.moved > 1e-3, `particles move (${r.steps} steps, max |dx| ${r.moved})`);
    assert.deepEqual([r.build.build, r.build.reason], ['single', 'crossOrigin']);
    assert.deepEqual([r.failure, r.gfx], [null, true]);
    assert.ok(r.resources.length > 2 && r.resources.every((u) => u.startsWith(b.url)), `wasm and shaders from B: ${r.resources}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the wasm from an origin without CORS: the poster and the 'fetch' reason naming it; no page error", { timeout: TEST_TIMEOUT }, async () => {
  const wasm = `${bNoCors.url}minipbd.wasm`;
  const { page, problems, errors, context } = await open('nocors-wasm.html', `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
    ${scene(`wasm="${wasm}"`)}<script type="module" src="/minipbd/js/embed.js"></script></body></html>`);
  try {
    await page.waitForFunction(() => document.getElementById('s').failure != null, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => {
      const el = document.getElementById('s');
      const poster = el.shadowRoot.querySelector('.poster');
      return { failure: el.failure, world: el.world, posterShown: !poster.hidden && poster.getBoundingClientRect().height > 50,
        reason: el.shadowRoot.querySelector('.status').textContent, name: el.shadowRoot.querySelector('.poster-name').textContent };
    });
    assert.equal(r.failure.code, 'fetch');
    assert.equal(r.failure.message, STRINGS.en['embed.fail.fetch'].replace('{url}', wasm));
    assert.match(r.reason, /CORS/);
    assert.ok(r.posterShown);
    assert.deepEqual([r.world, r.name], [null, 'Pendulum chain']);
    assert.deepEqual(errors, [], 'no uncaught exception');
    // What the browser itself reports: the refused requests (CORS, and COEP's CORP check), nothing else.
    for (const p of problems) assert.ok(p.includes(bNoCors.url) || BROWSER_REFUSAL.test(p), p);
  } finally {
    await context.close();
  }
});

test('the module from an origin without CORS: nothing of ours runs, the fallback text stays; no page error', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, errors, context } = await open('nocors-module.html', `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0">
    ${scene('')}<script type="module" src="${bNoCors.url}js/embed.js"></script></body></html>`);
  try {
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/js/embed.js')) || document.readyState === 'complete');
    await page.waitForTimeout(1000);
    const r = await page.evaluate(() => {
      const el = document.getElementById('s');
      return { defined: customElements.get('minipbd-scene') !== undefined, shadow: el.shadowRoot !== null, text: el.innerText.trim(), height: el.getBoundingClientRect().height };
    });
    assert.deepEqual([r.defined, r.shadow], [false, false], 'never upgraded');
    assert.equal(r.text, 'MiniPBD: a hanging chain (it needs JavaScript and WebGL2)', 'its own text shows');
    assert.ok(r.height > 0);
    assert.deepEqual(errors, []);
    assert.ok(problems.length > 0 && problems.every((p) => p.includes(bNoCors.url) || BROWSER_REFUSAL.test(p)), problems.join('\n'));
  } finally {
    await context.close();
  }
});
