// fallback.test.mjs — a host without the isolation headers (tools/serve.mjs --no-isolation): the page runs the
// single-thread build, says so and why in the panel (English and Chinese), never asks for the threaded build, and
// steps (in slices: engine/stepper-slices.js); with ?coi=1 it registers coi-sw.js, reloads once and comes back
// cross-origin isolated (the service-worker route for static hosts, docs/embedding.md "Hosting").

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser({ isolation: false }); });
after(async () => { await env?.close(); });

test('without isolation headers the single-thread build runs, says why, and steps', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  const asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  try {
    await waitSteps(page, 20);
    const r = await page.evaluate(() => ({
      isolated: crossOriginIsolated,
      sab: typeof SharedArrayBuffer,
      build: window.minipbd.build,
      sliced: window.minipbd.world.stepper.sliced === true,
      status: document.getElementById('build-status').textContent,
      disabled: document.getElementById('threads-input').disabled,
      title: document.getElementById('threads-control').title,
    }));
    assert.equal(r.isolated, false);
    assert.equal(r.sab, 'undefined', 'no SharedArrayBuffer without isolation');
    assert.deepEqual(r.build, { build: 'single', threads: 1, maxThreads: 1, reason: 'notIsolated', error: undefined });
    assert.equal(r.sliced, true, 'the world steps in slices');
    assert.match(r.status, /^Single-thread build: this page is not cross-origin isolated/);
    assert.equal(r.disabled, true, 'one thread only: the control is disabled');
    assert.match(r.title, /not cross-origin isolated/);
    assert.ok(!asked.some((p) => p.endsWith('minipbd_threads.wasm')), 'the threaded build is not even fetched');
    await page.selectOption('#language-select', 'zh');
    assert.match(await page.locator('#build-status').textContent(), /^单线程版本/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('?coi=1 registers coi-sw.js, reloads once, and the page comes back isolated', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  try {
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto(`${env.url}?coi=1`);
    await page.waitForFunction(() => crossOriginIsolated === true && window.minipbd?.ready === true, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => ({
      controlled: navigator.serviceWorker.controller !== null,
      flag: sessionStorage.getItem('minipbd.coi-reload'),
      sab: typeof SharedArrayBuffer,
    }));
    assert.equal(r.controlled, true, 'the page came through the service worker');
    assert.equal(r.sab, 'function');
    assert.equal(r.flag, null, 'isolated: the reload guard is cleared');
    assert.equal(loads, 2, 'exactly one reload');
  } finally {
    await context.close();
  }
});
