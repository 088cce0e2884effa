// responsive.test.mjs — the page never waits on the simulation: a link whose step is far beyond
// the machine (the 316 x 316 cloth at 64 substeps x 200 passes: over a minute per step, which froze the page
// before) opens, says as text that it is paused because a step takes that long, and the page answers a click
// within 100 ms the whole time, measured in the page (the click's handler time against the input event's own
// time stamp), on the single-thread build (slices) and on the threaded one (the runner worker). Frame rate is
// never judged here (software WebGL).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, openPage, DIST, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';
import { startServer } from '../../tools/serve.mjs';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { encodeLink } from '../../web/js/format/link.js';

const THREADED = fs.existsSync(path.join(DIST, 'minipbd_threads.wasm'));
const CLICK_MS = 100;
const CLICKS = 6;

let env;
let plain;
before(async () => {
  env = await openBrowser();
  plain = await startServer({ root: DIST, port: 0, isolation: false });
});
after(async () => {
  await env?.close();
  await plain?.close();
});

async function slowLink() {
  const scene = structuredClone(builtinScenes['cloth-100k']);
  scene.name = 'Slow cloth';
  scene.solver.substeps = 64;
  scene.solver.iterations = 200;
  return encodeLink(scene);
}

async function clicksAnswered(url, build) {
  const t0 = Date.now();
  const { page, problems, context } = await openPage(env.browser, url);
  const phase = (what) => console.log(`${build}: ${what} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  phase('ready');
  try {
    assert.equal(await page.evaluate(() => window.minipbd.build.build), build);
    // (nothing here may call the world: a call would wait for the step in flight, as the correctness net must)
    assert.deepEqual(await page.evaluate(() => window.minipbd.scene.objects[0].resolution), [316, 316]);
    // The message, as text, once the page knows how long a step takes.
    await page.waitForFunction(() => /per step/.test(document.getElementById('notice').textContent), null, { timeout: READY_TIMEOUT });
    phase('message');
    const notice = await page.locator('#notice').textContent();
    assert.match(notice, /needs about [\d.]+ s per step on this machine.*paused/);
    assert.equal(await page.evaluate(() => window.minipbd.app.state.paused), true, 'it opened paused');
    await page.evaluate(() => {
      window.__latency = [];
      document.getElementById('pause').addEventListener('click', (e) => {
        window.__latency.push({ ms: performance.now() - e.timeStamp, paused: window.minipbd.app.state.paused });
      });
    });
    for (let k = 0; k < CLICKS; k++) {
      await page.click('#pause');
      await page.waitForTimeout(150 + 37 * k); // land at different points of the slices
    }
    phase('clicks');
    const r = await page.evaluate(() => ({
      latency: window.__latency,
      busy: window.minipbd.app.state.world.busy, // read without touching the world: a step is still in flight
      stepsDone: window.minipbd.app.state.loop.stepMs,
    }));
    assert.equal(r.latency.length, CLICKS, 'every click reached its handler');
    for (const [k, l] of r.latency.entries()) {
      assert.ok(l.ms < CLICK_MS, `click ${k + 1}: its handler ran ${l.ms.toFixed(1)} ms after the input (${build})`);
      assert.equal(l.paused, k % 2 === 1, `click ${k + 1} toggled pause (${build}): the panel's handler ran first`);
    }
    assert.equal(r.busy, true, 'the slow step was still running in the background all along');
    assert.deepEqual(problems, []);
    return r.latency.map((l) => l.ms);
  } finally {
    await context.close();
  }
}

test('the slow link opens paused with a message, and clicks are answered within 100 ms (single-thread build)', { timeout: TEST_TIMEOUT }, async () => {
  const fragment = await slowLink();
  const ms = await clicksAnswered(`${plain.url}#${fragment}`, 'single');
  console.log(`single-thread build: click latencies ${ms.map((x) => x.toFixed(1)).join(', ')} ms`);
});

test('the same on the threaded build', { timeout: TEST_TIMEOUT, skip: THREADED ? false : 'dist/minipbd_threads.wasm is not built' }, async () => {
  const fragment = await slowLink();
  const ms = await clicksAnswered(`${env.url}?threads=2#${fragment}`, 'threads');
  console.log(`threaded build: click latencies ${ms.map((x) => x.toFixed(1)).join(', ')} ms`);
});
