// ui.test.mjs — the control panel drives the simulation: pause/step/reset (buttons and keyboard shortcuts),
// a single step is exactly one world step, the scene picker, controls that only apply to the scene's
// object types, and the readout.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const steps = (page) => page.evaluate(() => window.minipbd.world.stats().steps);
const paused = (page) => page.evaluate(() => window.minipbd.app.state.paused);

/**
 * The world's state hash, and the hash a fresh world built from the page's current scene reaches after
 * `n` steps (built beside the page's own world in the same engine, then destroyed).
 */
const hashes = (page, n) => page.evaluate((n) => {
  const { app, world } = window.minipbd;
  const ref = app.state.pbd.createWorld(app.state.scene);
  try {
    ref.step(n);
    return { page: world.hash(), reference: ref.hash(), steps: world.stats().steps };
  } finally {
    ref.destroy();
  }
}, n);

test('pause stops stepping, Step advances one step, Resume continues, Reset rebuilds the scene', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 10);
    assert.equal(await page.locator('#step').isDisabled(), true, 'Step only while paused');
    await page.click('#pause');
    assert.equal(await page.locator('#pause').textContent(), 'Resume');
    assert.equal(await page.locator('#pause').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('#step').isDisabled(), false);
    const p = await steps(page);
    await waitFrames(page, 10);
    assert.equal(await steps(page), p, 'no steps while paused (frames still drawn)');
    await page.click('#step');
    assert.equal(await steps(page), p + 1, 'Step = exactly one step');
    await page.click('#pause');
    await waitSteps(page, 5);

    // Reset: a new world from the same scene, back at its start, with the settings kept.
    await page.evaluate(() => { window.__old = window.minipbd.world; });
    await page.locator('#param-iterations').focus();
    await page.keyboard.press('End');
    const stepsBefore = await steps(page);
    await page.click('#reset');
    const r = await page.evaluate(() => ({
      replaced: window.__old !== window.minipbd.world,
      iterations: window.minipbd.world.getParam('iterations'),
      field: document.getElementById('param-iterations').value,
    }));
    assert.ok(r.replaced, 'Reset makes a new world');
    assert.equal(r.iterations, 50, 'settings survive Reset');
    assert.equal(r.field, '50');
    assert.ok((await steps(page)) < stepsBefore, 'the new world starts from step 0');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('keyboard: Space pauses and resumes, period steps exactly one step, R resets to the initial state', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 10);
    const shortcuts = await page.locator('#shortcuts').innerText();
    for (const k of ['Space', '.', 'R']) assert.ok(shortcuts.includes(k), `the page lists the ${k} shortcut: ${shortcuts}`);
    assert.match(await page.locator('.hint').textContent(), /Space pause · \. step · R reset/);

    await page.locator('#view').focus();
    await page.keyboard.press('Space');
    assert.equal(await paused(page), true, 'Space pauses');
    assert.equal(await page.locator('#pause').textContent(), 'Resume', 'the button follows');
    const p = await steps(page);
    await waitFrames(page, 5);
    assert.equal(await steps(page), p, 'paused');

    // R: a new world at step 0 whose state is exactly a freshly built one's (still paused).
    await page.evaluate(() => { window.__old = window.minipbd.world; });
    await page.keyboard.press('r');
    let h = await hashes(page, 0);
    assert.ok(await page.evaluate(() => window.__old !== window.minipbd.world), 'R makes a new world');
    assert.equal(h.steps, 0);
    assert.equal(h.page, h.reference, 'R puts every particle back where the scene starts');
    assert.equal(await paused(page), true, 'R keeps the pause');

    // Period: exactly one step, the same state a fresh world reaches with world.step(1).
    await page.keyboard.press('.');
    h = await hashes(page, 1);
    assert.equal(h.steps, 1, 'one step');
    assert.equal(h.page, h.reference, 'the state after exactly one world.step');
    await waitFrames(page, 5);
    assert.equal(await steps(page), 1, 'and no more');
    await page.keyboard.press('.');
    await page.keyboard.press('.');
    // The second press may find the first's step still in flight (a loaded machine): its step is then asked for and
    // starts when the world is free, so wait for it rather than read the count at once (a clean clone read 2).
    await page.waitForFunction(() => window.minipbd.world.stats().steps >= 3, null, { timeout: 10_000, polling: 20 });
    h = await hashes(page, 3);
    assert.equal(h.steps, 3);
    assert.equal(h.page, h.reference, 'three presses, three steps');
    // The Step button is the same single step.
    await page.click('#step');
    h = await hashes(page, 4);
    assert.deepEqual([h.steps, h.page], [4, h.reference], 'Step button: one more step');

    // Shortcuts stay out of the way while typing in a field or using a control's own keys.
    await page.evaluate(() => { window.__cur = window.minipbd.world; });
    for (const selector of ['#param-iterations', '#link-field', '#scene-select']) {
      await page.locator(selector).focus();
      for (const key of ['Space', '.', 'r']) await page.keyboard.press(key);
      await page.keyboard.press('Escape');
      const s = await page.evaluate(() => ({ paused: window.minipbd.app.state.paused, steps: window.minipbd.world.stats().steps, same: window.__cur === window.minipbd.world }));
      assert.deepEqual(s, { paused: true, steps: 4, same: true }, `no shortcut fired in ${selector}`);
    }
    assert.equal(await page.evaluate(() => window.minipbd.world.getParam('iterations')), 1, 'the field was not changed by the keys');
    // Space on a folder title opens or closes the folder, and only that.
    await page.locator('#folder-solver-title').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#folder-solver-title').getAttribute('aria-expanded'), 'false', 'the folder closed');
    await page.keyboard.press('r');
    assert.deepEqual(await page.evaluate(() => [window.minipbd.app.state.paused, window.__cur === window.minipbd.world]), [true, true], 'no shortcut on a folder title');
    await page.keyboard.press('Space');
    // Space on the focused Pause button presses it once (not also the shortcut: that would be twice).
    await page.locator('#pause').focus();
    await page.keyboard.press('Space');
    assert.equal(await paused(page), false, 'Space on the button resumes, once');
    await waitSteps(page, 5);

    // Running: period does not step but says how; Space pauses again from anywhere outside fields.
    await page.locator('#view').focus();
    await page.keyboard.press('.');
    assert.match(await page.locator('#notice').textContent(), /Pause first/);
    await page.keyboard.press('Space');
    assert.equal(await paused(page), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('scene picker switches scenes; stiffness controls follow the object types', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const options = await page.locator('#scene-select option').evaluateAll((os) => os.map((o) => o.value));
    for (const key of ['chain', 'cloth', 'mass-split']) assert.ok(options.includes(key), `picker offers ${key}`);

    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.scene.objects.every((o) => o.type === 'chain'));
    const chain = await page.evaluate(() => ({
      lines: window.minipbd.world.lines.length,
      stretchShown: document.getElementById('param-stiffness-stretch').checkVisibility(),
      chainShown: document.getElementById('param-stiffness-chain').checkVisibility(),
      readout: document.getElementById('readout-particles').textContent,
      particles: window.minipbd.world.particleCount,
    }));
    assert.ok(chain.lines > 0, 'chain has line segments');
    assert.equal(chain.stretchShown, false, 'cloth controls hidden for a chain');
    assert.equal(chain.chainShown, true, 'chain control shown');
    assert.equal(chain.readout.replace(/,/g, ''), String(chain.particles));

    await page.locator('#param-stiffness-chain').focus();
    await page.keyboard.press('Home');
    for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowUp');
    const v = await page.evaluate(() => ({ engine: window.minipbd.world.getParam('stiffness.chain'), scene: window.minipbd.scene.objects[0].stiffness }));
    assert.ok(Math.abs(v.engine - 0.05) < 1e-6, `engine got ${v.engine}`);
    assert.ok(Math.abs(v.scene - 0.05) < 1e-9, 'the scene description follows the control');
    await waitSteps(page, 10);

    await page.selectOption('#scene-select', 'mass-split');
    await page.waitForFunction(async () => {
      const { builtinScenes } = await import('./js/format/builtin-scenes.js');
      return window.minipbd.scene.name === builtinScenes['mass-split'].name;
    });
    await waitSteps(page, 10);
    assert.equal(await page.locator('#scene-title').textContent(), await page.evaluate(() => window.minipbd.scene.name));
    assert.equal(await page.locator('#scene-select').inputValue(), 'mass-split', 'the picker shows it');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
