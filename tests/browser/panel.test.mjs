// panel.test.mjs — the Cloth and Wind sections of the panel: every control is labelled and reachable with
// the keyboard, changes the engine parameter it names, and the copied link carries the change.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, chooseScene, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const getParams = (page, names) => page.evaluate((names) => Object.fromEntries(names.map((n) => [n, window.minipbd.world.getParam(n)])), names);

async function press(page, selector, ...keys) {
  await page.locator(selector).focus();
  for (const k of keys) await page.keyboard.press(k);
}

async function copyLink(page) {
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=1.'), null, { timeout: READY_TIMEOUT });
  return page.inputValue('#link-field');
}

const close = (a, b, eps = 1e-4) => Math.abs(a - b) < eps;

test('Cloth and Wind controls are labelled, reachable with Tab, and only shown for scenes with cloth', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'flag');
    const ids = ['param-tethers', 'param-tearing', 'param-tearStretch', 'param-selfCollision', 'param-thickness',
      'param-wind', 'param-windSpeed', 'param-windDirection', 'param-drag', 'param-lift'];
    const labels = await page.evaluate((ids) => ids.map((id) => {
      const el = document.getElementById(id);
      return el ? [...el.labels].map((l) => l.textContent.trim()).join(' ') : null;
    }), ids);
    ids.forEach((id, k) => assert.ok(labels[k], `#${id} exists and has a label (${labels[k]})`));

    // Tab from the scene picker through the whole panel reaches every one of them (all enabled in the flag scene).
    await page.locator('#scene-select').focus();
    const reached = new Set();
    for (let k = 0; k < 40; k++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => document.activeElement?.id));
    }
    for (const id of ids) assert.ok(reached.has(id), `Tab reaches #${id}`);

    // A chain has no cloth: the two sections are hidden, headings too.
    await chooseScene(page, 'chain');
    const hidden = await page.evaluate(() => ['cloth-controls', 'wind-controls'].map((id) => document.getElementById(id).closest('section').hidden));
    assert.deepEqual(hidden, [true, true]);
    await chooseScene(page, 'cloth');
    const shown = await page.evaluate(() => ['cloth-controls', 'wind-controls'].map((id) => document.getElementById(id).closest('section').hidden));
    assert.deepEqual(shown, [false, false]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('toggling the wind sets airDensity; speed and direction set the wind; the link carries them', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'flag');
    const flag = await page.evaluate(() => window.minipbd.scene.wind);
    assert.ok(flag.density > 0, 'the flag scene starts with wind');
    assert.equal(await page.locator('#param-wind').isChecked(), true, 'the Wind box reads the scene');
    const speed0 = Math.hypot(flag.velocity[0], flag.velocity[2]);
    assert.equal(await page.locator('#param-windSpeed-out').textContent(), `${speed0.toFixed(1)} m/s`);

    await press(page, '#param-wind', 'Space');
    assert.equal((await getParams(page, ['airDensity'])).airDensity, 0, 'off: no air');
    assert.equal(await page.evaluate(() => window.minipbd.scene.wind.density), 0, 'the scene follows');
    assert.equal(await page.locator('#param-windSpeed').isDisabled(), true, 'speed does not apply without air');
    await press(page, '#param-wind', 'Space');
    assert.ok(close((await getParams(page, ['airDensity'])).airDensity, flag.density), 'on again: the scene\'s air density');

    // Full speed, same direction; then direction 0 deg = +x. The vertical component is left alone.
    await press(page, '#param-windSpeed', 'End');
    let w = await getParams(page, ['windX', 'windY', 'windZ']);
    const dir = Math.atan2(flag.velocity[2], flag.velocity[0]);
    assert.ok(close(w.windX, 20 * Math.cos(dir), 1e-3) && close(w.windZ, 20 * Math.sin(dir), 1e-3), `20 m/s along the scene's direction: ${JSON.stringify(w)}`);
    assert.equal(w.windY, flag.velocity[1]);
    await press(page, '#param-windDirection', 'Home');
    w = await getParams(page, ['windX', 'windZ']);
    assert.ok(close(w.windX, 20) && close(w.windZ, 0), `direction 0: ${JSON.stringify(w)}`);
    await press(page, '#param-windDirection', 'ArrowRight', 'ArrowRight', 'ArrowRight'); // 15 deg
    w = await getParams(page, ['windX', 'windZ']);
    assert.ok(close(w.windX, 20 * Math.cos(Math.PI / 12), 1e-3) && close(w.windZ, 20 * Math.sin(Math.PI / 12), 1e-3), `direction 15: ${JSON.stringify(w)}`);
    await press(page, '#param-drag', 'Home', 'ArrowRight', 'ArrowRight'); // 0.10
    assert.ok(close((await getParams(page, ['drag'])).drag, 0.1));
    await press(page, '#param-wind', 'Space'); // off for the link
    await waitSteps(page, 5);

    const url = await copyLink(page);
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await getParams(page2, ['airDensity', 'windX', 'windZ', 'drag']);
    assert.equal(got.airDensity, 0, 'the link carries the wind being off');
    assert.ok(close(got.windX, w.windX, 1e-3) && close(got.windZ, w.windZ, 1e-3), `and its velocity: ${JSON.stringify(got)}`);
    assert.ok(close(got.drag, 0.1));
    assert.equal(await page2.locator('#param-wind').isChecked(), false, 'the Wind box shows it');
    assert.equal(await page2.locator('#param-windSpeed').inputValue(), '20');
    assert.equal(await page2.locator('#param-windDirection').inputValue(), '15');
    await press(page2, '#param-wind', 'Space');
    assert.ok(close((await getParams(page2, ['airDensity'])).airDensity, 1.2), 'turned on, the air is back at 1.2 kg/m3');
    await waitSteps(page2, 5);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('tethers, tearing, self-collision and thickness set their parameters and travel with the link', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'cloth');
    const names = ['tethers', 'tearStretch', 'selfCollision', 'thickness'];
    const start = await getParams(page, names);
    assert.equal(start.tethers, 1);
    assert.equal(start.tearStretch, 0);
    assert.equal(await page.locator('#param-tethers').isChecked(), true);
    assert.equal(await page.locator('#param-tearing').isChecked(), false);
    assert.equal(await page.locator('#param-tearStretch').isDisabled(), true, 'the threshold waits for tearing to be on');

    await press(page, '#param-tethers', 'Space');
    await press(page, '#param-tearing', 'Space');
    let p = await getParams(page, names);
    assert.equal(p.tethers, 0);
    assert.ok(close(p.tearStretch, 0.35), `tearing on at the threshold shown (${p.tearStretch})`);
    await press(page, '#param-tearStretch', 'ArrowRight'); // 40 %
    await press(page, '#param-selfCollision', 'Space');
    await press(page, '#param-thickness', 'End'); // 10 cm
    p = await getParams(page, names);
    assert.ok(close(p.tearStretch, 0.4), `threshold ${p.tearStretch}`);
    assert.equal(p.selfCollision, 1);
    assert.ok(close(p.thickness, 0.1), `thickness ${p.thickness}`);
    assert.equal(await page.locator('#param-thickness-out').textContent(), '10.0 cm');
    const solver = await page.evaluate(() => window.minipbd.scene.solver);
    assert.deepEqual([solver.tethers, solver.selfCollision], [0, true], 'the scene follows');
    await waitSteps(page, 10);

    const url = await copyLink(page);
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await getParams(page2, names);
    assert.equal(got.tethers, 0);
    assert.ok(close(got.tearStretch, 0.4));
    assert.equal(got.selfCollision, 1);
    assert.ok(close(got.thickness, 0.1));
    const boxes = await page2.evaluate(() => ['param-tethers', 'param-tearing', 'param-selfCollision'].map((id) => document.getElementById(id).checked));
    assert.deepEqual(boxes, [false, true, true], 'the boxes show the linked settings');
    assert.equal(await page2.locator('#param-tearStretch').inputValue(), '40');
    await press(page2, '#param-tethers', 'Space');
    assert.equal((await getParams(page2, ['tethers'])).tethers, 1, 'tethers back on at full strength');
    await press(page2, '#param-tearing', 'Space');
    assert.equal((await getParams(page2, ['tearStretch'])).tearStretch, 0, 'tearing off');
    await waitSteps(page2, 5);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});
