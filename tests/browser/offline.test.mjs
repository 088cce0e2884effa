// offline.test.mjs — the offline page (minipbd-offline.html, `make release`: tools/release.mjs), opened from disk
// with the network shut: every request that is not file:, data: or blob: is aborted, and none may even be attempted.
// The page must start on the single-thread build (a file: page is never cross-origin isolated), say so, start no
// worker, step its scene, and open other built-in scenes: the bunny (its model carried inside the file) and a fluid.
// The page is made here from dist/ by the function `make release` uses (offlinePage), so it is never stale.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, DIST, TEST_TIMEOUT, watchProblems, waitReady, waitSteps, chooseScene } from './helpers.mjs';
import { BUILTIN_SCENE_IDS } from '../../web/js/format/builtin-scenes.js';
import { STRINGS } from '../../web/js/i18n/i18n.js';
import { offlinePage } from '../../tools/release.mjs';

let browser, dir, OFFLINE;
before(async () => {
  if (!fs.existsSync(path.join(DIST, 'js', 'bundle'))) throw new Error(`${DIST}/js/bundle is missing: run \`make dist\` first`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minipbd-offline-'));
  OFFLINE = path.join(dir, 'minipbd-offline.html');
  fs.writeFileSync(OFFLINE, await offlinePage(DIST));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const local = (url) => /^(file|data|blob):/.test(url);

test('the offline page opens from file:// with the network shut, steps, and opens the bunny and a fluid scene', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 720 } });
  const attempted = [];
  await context.route('**', (route) => {
    const url = route.request().url();
    if (local(url)) return route.continue();
    attempted.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  page.on('request', (r) => { if (!local(r.url())) attempted.push(r.url()); });
  const problems = watchProblems(page);
  try {
    await page.goto(pathToFileURL(OFFLINE).href);
    await waitReady(page);
    const start = await waitSteps(page, 10);
    const now = await page.evaluate(() => window.minipbd.world.stats().steps);
    assert.ok(now >= start + 10, `the default scene steps (${start} -> ${now})`);

    const build = await page.evaluate(() => ({ ...window.minipbd.build, isolated: crossOriginIsolated }));
    assert.equal(build.build, 'single');
    assert.equal(build.reason, 'notIsolated');
    assert.equal(build.isolated, false);
    // The panel says single-thread and why, as on any host without isolation (panel/threads.js).
    const status = await page.$eval('#build-status', (el) => ({ build: el.dataset.build, text: el.textContent }));
    assert.equal(status.build, 'single');
    assert.ok(status.text.startsWith(STRINGS.en['build.single'].split(':')[0]), status.text);
    assert.ok(status.text.includes(STRINGS.en['build.reason.notIsolated']), status.text);

    // Every built-in scene is offered.
    const offered = await page.$$eval('#scene-select option', (os) => os.map((o) => o.value));
    for (const id of BUILTIN_SCENE_IDS) assert.ok(offered.includes(id), `the picker offers ${id}`);

    // The bunny: its OBJ model comes from the file itself.
    await chooseScene(page, 'bunny');
    const bunny = await page.evaluate(() => ({ n: window.minipbd.world.stats().particles, objects: window.minipbd.scene.objects.map((o) => o.type) }));
    assert.deepEqual(bunny.objects, ['soft']);
    assert.ok(bunny.n > 100, `the bunny has its particles (${bunny.n})`);
    // A fluid scene: its shaders (the water's passes) come from the file too.
    await chooseScene(page, 'dam-break');
    const types = await page.evaluate(() => window.minipbd.scene.objects.map((o) => o.type));
    assert.ok(types.includes('fluid'), types.join());
    await waitSteps(page, 3);

    assert.deepEqual(attempted, [], 'no request left the disk');
    assert.deepEqual(workers, [], 'no worker started');
    assert.equal(await page.evaluate(() => navigator.serviceWorker?.controller ?? null), null, 'no service worker');
    assert.deepEqual(context.serviceWorkers(), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
