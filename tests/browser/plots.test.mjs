// plots.test.mjs — the panel's convergence curve and energy plot: switching them on makes the solver record
// the mean error after every pass (world.convergence has substeps x iterations entries) and draws both; the
// readout beside each names the point under the pointer; the CSV buttons download the plotted points, to 6
// significant digits or, with full precision, exactly.

import fs from 'node:fs';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, TEST_TIMEOUT } from './helpers.mjs';
import { roundNumber } from '../../web/js/format/csv.js';

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

/** Strict CSV of numbers: a header, rows as wide as it, every field a number that reads back exactly. */
function parseCsv(text) {
  assert.ok(text.endsWith('\n'));
  const [header, ...rows] = text.slice(0, -1).split('\n').map((line) => line.split(','));
  for (const r of rows) {
    assert.equal(r.length, header.length);
    for (const f of r) assert.match(f, /^-?\d+(\.\d+)?(e[-+]\d+)?$/);
  }
  return { header, rows: rows.map((r) => r.map(Number)) };
}

test('plots: axes and a hover readout in text; CSV export downloads the plotted points, 6 significant digits or every digit', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.check('#plots');
    await waitSteps(page, 60);
    await page.waitForTimeout(1200); // a few energy readouts
    await page.evaluate(() => window.minipbd.app.setPaused(true));
    // Paused, the steps in flight land and a readout may still come: read the plots once they hold still.
    const read = () => page.evaluate(() => {
      const p = window.minipbd.app.state.plots;
      return { times: [...p.times], kinetic: [...p.kinetic], potential: [...p.potential], curve: [...p.curve], dt: window.minipbd.world.getParam('dt') };
    });
    let data = await read();
    for (let tries = 0; tries < 20; tries++) {
      await page.waitForTimeout(500);
      const again = await read();
      if (JSON.stringify(again) === JSON.stringify(data)) break;
      data = again;
    }
    assert.ok(data.times.length >= 3, `${data.times.length} energy points`);
    assert.ok(data.times.every((tm, i) => i === 0 || tm > data.times[i - 1]), 'time runs forward');
    assert.ok(data.times.every((tm) => Number.isInteger(Math.round(tm / data.dt)) && Math.abs(tm / data.dt - Math.round(tm / data.dt)) < 1e-6), 'time = steps x dt');
    // Hover: the readout (an <output>, text) names the point under the pointer; the last point when away.
    // The pointer reaches only what is on screen: the panel scrolls, and where it stands depends on what is above.
    await page.locator('#energy-plot').scrollIntoViewIfNeeded();
    const box = await page.locator('#energy-plot').boundingBox();
    await page.mouse.move(box.x + 45, box.y + box.height / 2); // the left edge of the plot box: the first point
    const first = await page.textContent('#energy-readout');
    const v = (x) => String(Number(x.toPrecision(4)));
    assert.equal(first, `t = ${v(data.times[0])} s: kinetic ${v(data.kinetic[0])} J, potential ${v(data.potential[0])} J`);
    await page.mouse.move(box.x + box.width - 9, box.y + box.height / 2);
    const n = data.times.length - 1;
    assert.match(await page.textContent('#energy-readout'), new RegExp(`^t = ${v(data.times[n]).replace('.', '\\.')} s`));
    await page.mouse.move(0, 0);
    await page.locator('#convergence-plot').scrollIntoViewIfNeeded();
    const cbox = await page.locator('#convergence-plot').boundingBox();
    await page.mouse.move(cbox.x + 45, cbox.y + cbox.height / 2);
    assert.equal(await page.textContent('#convergence-readout'),
      `Pass 1 of ${data.curve.length}: mean relative error ${v(data.curve[0])}`);
    // The keyboard reaches the same readout: the plot takes the focus, the arrows move along it.
    await page.mouse.move(0, 0);
    await page.focus('#convergence-plot');
    await page.keyboard.press('ArrowLeft');
    assert.match(await page.textContent('#convergence-readout'), new RegExp(`^Pass ${data.curve.length} of`));
    // CSV: the points plotted, by default with 6 significant digits as minipbd-run's --digits 6, under a short name.
    const sceneName = await page.evaluate(() => window.minipbd.world.scene.name);
    const slug = sceneName.split(':')[0].trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const saveCsv = async (kind) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#${kind}-csv`)]);
      assert.equal(file.suggestedFilename(), `minipbd-${slug}-${kind}.csv`);
      return fs.readFileSync(await file.path(), 'utf8');
    };
    const six = (x) => Number(x.toPrecision(6));
    const energyRows = data.times.map((tm, i) => [tm, data.kinetic[i], data.potential[i]]);
    const convRows = data.curve.map((x, i) => [i + 1, x]);
    const e = parseCsv(await saveCsv('energy'));
    assert.deepEqual(e.header, ['time', 'kineticEnergy', 'potentialEnergy']);
    assert.deepEqual(e.rows, energyRows.map((r) => r.map(six)));
    assert.ok(e.rows.flat().every((x) => x === roundNumber(x, 6)), 'no value has more than 6 significant digits');
    const c = parseCsv(await saveCsv('convergence'));
    assert.deepEqual(c.header, ['pass', 'meanError']);
    assert.deepEqual(c.rows, convRows.map(([p, x]) => [p, six(x)]));
    // Full precision (the checkbox, in the page's language): every digit, numbers that read back to the same doubles.
    assert.equal(await page.textContent('label.plot-full'), ' CSV at full precision (every digit of each value)');
    await page.check('#csv-full');
    const ef = parseCsv(await saveCsv('energy'));
    assert.deepEqual(ef.rows, energyRows);
    assert.ok(ef.rows.flat().some((x) => x !== six(x)), 'some value has more than 6 significant digits');
    assert.deepEqual(parseCsv(await saveCsv('convergence')).rows, convRows);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
