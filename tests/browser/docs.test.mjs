// docs.test.mjs — the browser blocks of the docs (marked ```html run=browser id=… or ```js run=browser id=…; the
// convention is in tests/node/doc-blocks.mjs and docs/tests.md): each is put, as it is written, in a page served on
// the test server's origin next to dist/, so `/minipbd@0.13.0/…` is the package folder the docs tell you to copy.
// An element must step (its stats().steps rises); an iframe must answer the frame client (stats, pause, step 5);
// the listener must hear minipbd:ready; the frame client example must run to its end and its subscription must
// deliver stats. tests/node/docs.test.mjs checks that every browser block has an id listed here.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, watchProblems, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { docBlocks } from '../node/doc-blocks.mjs';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { validateScene } from '../../web/js/format/scene.js';

const blocks = docBlocks().filter((b) => b.run === 'browser');
const byId = (id) => {
  const b = blocks.find((x) => x.id === id);
  assert.ok(b, `a doc block has id=${id}`);
  return b;
};

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const CLIENT = '/minipbd@0.13.0/js/embed/frame-client.js';

/**
 * Open `body` as a page on the server's origin. The engine's wasm is held back until the page's own scripts have
 * run (window.__docsScriptsRan), as it is on a real site where a page's scripts run long before an iframe's
 * engine is ready: so a listener or a client made by the page hears the frame's minipbd:ready.
 */
async function host(body, { csp = null, holdWasm = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 1000 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const logs = [];
  page.on('console', (m) => logs.push(m.text()));
  const name = `__docs-${Math.random().toString(36).slice(2)}.html`;
  const headers = csp ? { 'Content-Security-Policy': csp } : {};
  await page.route(`${env.url}${name}`, (route) => route.fulfill({
    contentType: 'text/html; charset=utf-8', headers,
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title></head><body>\n${body}\n</body></html>`,
  }));
  if (holdWasm) {
    await page.route('**/*.wasm', async (route) => {
      await page.waitForFunction(() => window.__docsScriptsRan === true, null, { timeout: READY_TIMEOUT }).catch(() => {});
      await route.continue();
    });
  }
  await page.goto(`${env.url}${name}`);
  return { page, problems, logs, context };
}

/** Every <minipbd-scene> of the page gets a world and steps at least 3 times. */
async function elementsStep(page) {
  const count = await page.evaluate(() => document.querySelectorAll('minipbd-scene').length);
  assert.ok(count > 0, 'the block has an element');
  for (let i = 0; i < count; i++) {
    await page.waitForFunction((i) => document.querySelectorAll('minipbd-scene')[i].world, i, { timeout: READY_TIMEOUT });
    const s0 = await page.evaluate((i) => document.querySelectorAll('minipbd-scene')[i].stats().steps, i);
    try {
      await page.waitForFunction(([i, t]) => document.querySelectorAll('minipbd-scene')[i].stats().steps >= t, [i, s0 + 3],
        { timeout: READY_TIMEOUT });
    } catch (err) {
      // Once seen under the full suite and not reproduced: say what every element's stepping was doing.
      throw new Error(`element ${i} took fewer than 3 steps: ${JSON.stringify(await elementStates(page))}`, { cause: err });
    }
  }
  return count;
}

/** Each element's stepping state (the driver's and the engine's), for a wait that failed. */
function elementStates(page) {
  return page.evaluate(() => [...document.querySelectorAll('minipbd-scene')].map((el) => {
    const d = el._driver, w = el._world;
    return {
      active: el._active(), visible: el._visible, playing: el._playing, failed: el._failed ?? null,
      status: el.shadowRoot?.textContent?.slice(0, 120) ?? null,
      steps: w?.stepsEnded, busy: w?.busy, pending: d?.pending, inFlight: d?.inFlight, waiting: d?.waiting,
      turn: d?.turn, queue: d?.queue.length, job: Boolean(d?.job), engineStepping: w ? w.engine.stepping === w : null,
    };
  }));
}

const pageErrors = (problems) => problems.filter((p) => p.startsWith('pageerror') || p.startsWith('HTTP '));

for (const id of ['element', 'embed-elements', 'pkg-element']) {
  test(`${id}: the element snippet steps, loaded from the package folder`, { timeout: TEST_TIMEOUT }, async () => {
    const block = byId(id);
    assert.match(block.code, /\/minipbd@0\.13\.0\/js\/embed\.js/, 'it loads the element from the package layout');
    const { page, problems, context } = await host(block.code);
    try {
      assert.ok(await elementsStep(page) >= 1);
      assert.deepEqual(pageErrors(problems), []);
    } finally { await context.close(); }
  });
}

test('csp: the strict snippet steps under the policy its first line names', { timeout: TEST_TIMEOUT }, async () => {
  const block = byId('csp');
  const csp = block.code.match(/<!-- Content-Security-Policy: ([^>]*?) -->/)?.[1];
  assert.ok(csp, 'the snippet names its policy');
  const { page, problems, context } = await host(block.code, { csp });
  try {
    assert.equal(await elementsStep(page), 2);
    assert.deepEqual(pageErrors(problems), []);
  } finally { await context.close(); }
});

/** The page's MiniPBDFrame hears minipbd:ready and answers: stats (the frame steps), pause (no step in flight after
 *  its answer), then exactly 5 steps. */
async function frameAnswers(page) {
  await page.waitForFunction(() => window.__frame.readyInfo !== null, null, { timeout: READY_TIMEOUT });
  await page.waitForFunction(async () => (await window.__frame.stats()).steps >= 3, null, { timeout: READY_TIMEOUT, polling: 250 });
  return page.evaluate(async () => {
    await window.__frame.pause();
    const st = await window.__frame.stats();
    if (st.busy) throw new Error('pause answered while a step was still in flight');
    const s0 = st.steps;
    const { steps } = await window.__frame.step(5);
    return steps - s0;
  });
}

for (const id of ['iframe', 'embed-iframe']) {
  test(`${id}: the iframe snippet answers the frame client`, { timeout: TEST_TIMEOUT }, async () => {
    const block = byId(id);
    assert.match(block.code, /<iframe src="\/minipbd@0\.13\.0\/embed\.html#/, 'it frames the package folder\'s page');
    const { page, problems, context } = await host(`${block.code}
<script type="module">
  import { MiniPBDFrame } from '${CLIENT}';
  window.__frame = new MiniPBDFrame(document.querySelector('iframe'));
  window.__docsScriptsRan = true;
</script>`, { holdWasm: true });
    try {
      assert.equal(await frameAnswers(page), 5);
      assert.deepEqual(pageErrors(problems), []);
    } finally { await context.close(); }
  });
}

test('listener: the listener example hears the iframe\'s minipbd:ready with its particle count', { timeout: TEST_TIMEOUT }, async () => {
  const frameBlock = byId('embed-iframe');
  const scene = frameBlock.code.match(/#scene=([\w-]+)/)[1];
  const scene0 = validateScene(builtinScenes[scene]);
  const { page, problems, logs, context } = await host(`${frameBlock.code}
<script type="module">
${byId('listener').code}
window.__docsScriptsRan = true;
</script>`, { holdWasm: true });
  try {
    const deadline = Date.now() + READY_TIMEOUT;
    while (!logs.some((l) => /^particles \d+$/.test(l)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const line = logs.find((l) => /^particles \d+$/.test(l));
    assert.ok(line, `the listener logged the particles: ${JSON.stringify(logs)}`);
    // cloth-sphere is one cloth: its particle count is its resolution's product.
    const cloth = scene0.objects.find((o) => o.type === 'cloth');
    if (scene0.objects.length === 1 && cloth) assert.equal(line, `particles ${cloth.resolution[0] * cloth.resolution[1]}`);
    assert.deepEqual(pageErrors(problems), []);
  } finally { await context.close(); }
});

test('frame-client: the frame client example runs to its end and its subscription delivers stats', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`${byId('embed-iframe').code}
<script>window.__plots = []; window.plot = (t, e) => window.__plots.push([t, e]);</script>
<script type="module">
window.__docsScriptsRan = true;
${byId('frame-client').code}
window.__done = { time, kineticEnergy };
</script>`, { holdWasm: true });
  try {
    await page.waitForFunction(() => window.__done && window.__plots.length >= 2, null, { timeout: READY_TIMEOUT });
    const done = await page.evaluate(() => window.__done);
    assert.equal(typeof done.time, 'number');
    assert.ok(Number.isFinite(done.kineticEnergy));
    assert.deepEqual(pageErrors(problems), []);
  } finally { await context.close(); }
});
