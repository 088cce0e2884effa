// threads.test.mjs — the page on the threaded build: served cross-origin isolated (tools/serve.mjs'
// default headers) it loads dist/minipbd_threads.wasm and runs `?threads=N` threads, says so in the panel, and a
// scene stepped 200 steps through the page's own stepping (app.stepN: World.stepAsync on the runner worker) ends
// on the same hash at 1, 2 and 3 threads and on the single-thread build of a page served without isolation.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, openPage, DIST, SMALL_VIEWPORT, TEST_TIMEOUT } from './helpers.mjs';
import { startServer } from '../../tools/serve.mjs';

const THREADED = fs.existsSync(path.join(DIST, 'minipbd_threads.wasm'));
const skip = THREADED ? false : `${path.join(DIST, 'minipbd_threads.wasm')} is not built (make dist)`;
const STEPS = 200;

let env;
let plain; // the same dist/ without the isolation headers
before(async () => {
  env = await openBrowser();
  plain = await startServer({ root: DIST, port: 0, isolation: false });
});
after(async () => {
  await env?.close();
  await plain?.close();
});

/** Opens `url`, rebuilds the scene `key` fresh and paused, steps it STEPS steps through app.stepN; its state. (At the
 *  half-size canvas: nothing here is measured on screen, and software WebGL's cost is per pixel.) */
async function stepped(url, key) {
  const { page, problems, context } = await openPage(env.browser, url, { viewport: SMALL_VIEWPORT });
  try {
    const run = await page.evaluate(async ({ key, steps }) => {
      const { app } = window.minipbd;
      const { loadBuiltinScene } = await import('./js/format/builtin-scenes.js');
      app.setPaused(true);
      app.loadScene(await loadBuiltinScene(key), key);
      await app.stepN(steps);
      const { world, build } = window.minipbd;
      const status = document.getElementById('build-status');
      return {
        isolated: crossOriginIsolated, build, busy: world.busy, steps: world.stats().steps, hash: world.hash(),
        threads: 'threads' in world ? world.threads : 1, status: status.textContent, statusThreads: status.dataset.threads,
        control: document.getElementById('threads-input').disabled,
      };
    }, { key, steps: STEPS });
    assert.deepEqual(problems, []);
    return run;
  } finally {
    await context.close();
  }
}

test(`the threaded build runs ?threads=2 and ?threads=3, and ${STEPS} steps give the single-thread page's hash`, { timeout: TEST_TIMEOUT * 2, skip }, async () => {
  for (const key of ['cloth', 'jelly']) {
    const single = await stepped(plain.url, key);
    assert.equal(single.isolated, false);
    assert.equal(single.build.build, 'single');
    assert.equal(single.steps, STEPS);
    const hashes = { single: single.hash };
    for (const n of [1, 2, 3]) {
      const r = await stepped(`${env.url}?threads=${n}`, key);
      assert.equal(r.isolated, true, 'served with COOP/COEP: cross-origin isolated');
      assert.equal(r.build.build, 'threads', `?threads=${n}: the threaded build (${r.build.reason ?? ''} ${r.build.error ?? ''})`);
      assert.equal(r.threads, n, `the world steps on ${n} threads`);
      assert.equal(r.statusThreads, String(n));
      assert.match(r.status, new RegExp(`^Threaded build: ${n} of \\d+ threads`));
      assert.equal(r.control, false, 'the thread-count control is enabled');
      assert.equal(r.busy, false);
      assert.equal(r.steps, STEPS);
      hashes[n] = r.hash;
    }
    assert.deepEqual(new Set(Object.values(hashes)).size, 1, `${key}: one hash for every build and thread count: ${JSON.stringify(hashes)}`);
  }
});

test('the thread-count control changes the world\'s threads; the default is a share of the machine', { timeout: TEST_TIMEOUT, skip }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const r = await page.evaluate(async () => {
      const { defaultThreads } = await import('./js/app/build.js');
      const before = window.minipbd.world.threads;
      const input = document.getElementById('threads-input');
      input.value = '1';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
      input.blur();
      await window.minipbd.app.whenIdle();
      return { before, expected: defaultThreads(navigator.hardwareConcurrency), after: window.minipbd.world.threads,
        status: document.getElementById('build-status').dataset.threads };
    });
    assert.equal(r.before, r.expected, 'min(hardwareConcurrency - 1, 4), at least 1');
    assert.equal(r.after, 1);
    assert.equal(r.status, '1');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
