// plots.test.mjs — the panel's convergence curve and energy plot: switching them on makes the solver record
// the mean error after every pass (world.convergence has substeps x iterations entries) and draws both.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

async function inkedPixels(page, id) {
  return page.evaluate((id) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  }, id);
}

test('plots: off by default; on, the solver records every pass and both plots draw', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 10);
    assert.equal(await page.evaluate(() => window.minipbd.world.convergence.length), 0, 'nothing recorded while the plots are off');
    assert.equal(await page.isVisible('#convergence-plot'), false);
    await page.check('#plots');
    await waitSteps(page, 30);
    await page.waitForTimeout(600); // a readout or two
    const { passes, curve } = await page.evaluate(() => {
      const w = window.minipbd.world;
      return { passes: w.getParam('substeps') * w.getParam('iterations'), curve: Array.from(w.convergence) };
    });
    assert.equal(curve.length, passes, 'one entry per solver pass of the last step');
    assert.ok(curve.every((v) => Number.isFinite(v) && v >= 0));
    assert.ok(await page.isVisible('#convergence-plot'));
    assert.ok((await inkedPixels(page, 'convergence-plot')) > 50, 'the convergence curve is drawn');
    assert.ok((await inkedPixels(page, 'energy-plot')) > 50, 'the energy plot is drawn');
    await page.uncheck('#plots');
    await waitSteps(page, 3);
    assert.equal(await page.evaluate(() => window.minipbd.world.convergence.length), 0, 'recording stops with the plots');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
