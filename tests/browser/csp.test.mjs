// csp.test.mjs — <minipbd-scene> under a host page's strict Content Security Policy (docs/embedding.md "Hosting"): with
// script-src 'self' 'wasm-unsafe-eval' and style-src 'self' that section's strict snippet runs (its size from the
// width/height attributes, through the element's constructed sheets, which CSP does not govern), while an inline
// style="…" is dropped as docs/embedding.md says; without 'wasm-unsafe-eval' the element shows its poster with the wasm
// reason. The policy comes in a <meta http-equiv> of a host page on the test server's origin.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, watchProblems, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { STRINGS } from '../../web/js/i18n/i18n.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

// The strict snippet of docs/embedding.md "Hosting" (the element sized by its attributes, a fallback text until it upgrades).
const SNIPPET = `<script type="module" src="/js/embed.js"></script>
<minipbd-scene id="a" scene="chain" width="480" height="300">MiniPBD: a hanging chain</minipbd-scene>`;

// The page is cross-origin isolated as the server's own pages are, so that the threaded build (workers) is tried.
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

async function host(csp, body) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(`${env.url}__csp.html`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', headers: ISOLATION, body: `<!doctype html>
    <html><head><meta http-equiv="Content-Security-Policy" content="${csp}"><link rel="icon" href="data:,"></head>
    <body>${body}</body></html>` }));
  await page.goto(`${env.url}__csp.html`);
  return { page, problems, errors, context };
}

const STRICT = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; worker-src 'self'; img-src 'self' data:";

test("strict CSP with 'wasm-unsafe-eval': the strict snippet runs, sized by its attributes; an inline style is dropped", { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, errors, context } = await host(STRICT, `${SNIPPET}
    <minipbd-scene id="inline" scene="chain" style="width: 200px; height: 100px">MiniPBD</minipbd-scene>`);
  try {
    await page.waitForFunction(() => document.getElementById('a').world?.stats().steps > 5, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => {
      const box = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return [Math.round(b.width), Math.round(b.height)]; };
      const el = document.getElementById('a');
      return { a: box('a'), inline: box('inline'), body: Math.round(document.body.getBoundingClientRect().width),
        isolated: crossOriginIsolated, failure: el.failure, build: el.build.build, gfx: el.graphicsActive, poster: el.shadowRoot.querySelector('.poster').hidden };
    });
    assert.deepEqual(r.a, [480, 300], 'width/height attributes size it under style-src self');
    assert.equal(r.inline[0], r.body, 'the inline style="width: 200px" is dropped: the default full width');
    assert.equal(r.inline[1], Math.round(r.body * 10 / 16), 'and the default 16:10');
    assert.deepEqual([r.failure, r.gfx, r.poster], [null, true, true]);
    assert.equal(r.isolated, true);
    assert.equal(r.build, 'threads', "worker-src 'self' lets the threaded build start (the test server isolates the page)");
    assert.deepEqual(errors, []);
    // The only complaint is the browser's own, about the inline style attribute it refused.
    assert.ok(problems.every((p) => /inline style/i.test(p)), problems.join('\n'));
    assert.ok(problems.length >= 1, 'the inline style was refused');
  } finally {
    await context.close();
  }
});

test("CSP without 'wasm-unsafe-eval': the poster with the wasm reason, no page error", { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, errors, context } = await host(STRICT.replace(" 'wasm-unsafe-eval'", ''), SNIPPET);
  try {
    await page.waitForFunction(() => document.getElementById('a').failure != null, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => {
      const el = document.getElementById('a');
      const poster = el.shadowRoot.querySelector('.poster');
      return { failure: el.failure, world: el.world, shown: !poster.hidden && poster.getBoundingClientRect().height > 50,
        reason: el.shadowRoot.querySelector('.status').textContent };
    });
    assert.deepEqual(r.failure, { code: 'wasm', message: STRINGS.en['embed.fail.wasmCsp'] });
    assert.equal(r.reason, STRINGS.en['embed.failed'].replace('{reason}', STRINGS.en['embed.fail.wasmCsp']));
    assert.deepEqual([r.world, r.shown], [null, true]);
    assert.deepEqual(errors, []);
    for (const p of problems) assert.match(p, /WebAssembly|Content Security Policy|wasm/i);
  } finally {
    await context.close();
  }
});
