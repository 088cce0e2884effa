// ui.test.mjs — the control panel drives the simulation: pause/step/reset, scene picker, sliders
// that only apply to the scene's object types, and the readout.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const steps = (page) => page.evaluate(() => window.minipbd.world.stats().steps);

test('pause stops stepping, Step advances one step, Resume continues, Reset rebuilds the scene', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 10);
    assert.equal(await page.locator('#step').isDisabled(), true, 'Step only while paused');
    await page.click('#pause');
    assert.equal(await page.locator('#pause').textContent(), 'Resume');
    assert.equal(await page.locator('#pause').getAttribute('aria-pressed'), 'true');
    const paused = await steps(page);
    await waitFrames(page, 10);
    assert.equal(await steps(page), paused, 'no steps while paused (frames still drawn)');
    await page.click('#step');
    assert.equal(await steps(page), paused + 1, 'Step = exactly one step');
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
      slider: document.getElementById('param-iterations').value,
    }));
    assert.ok(r.replaced, 'Reset makes a new world');
    assert.equal(r.iterations, 50, 'settings survive Reset');
    assert.equal(r.slider, '50');
    assert.ok((await steps(page)) < stepsBefore, 'the new world starts from step 0');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('scene picker switches scenes; stiffness sliders follow the object types', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const options = await page.locator('#scene-select option').evaluateAll((os) => os.map((o) => o.value));
    for (const key of ['chain', 'cloth', 'mass-split']) assert.ok(options.includes(key), `picker offers ${key}`);

    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.scene.objects.every((o) => o.type === 'chain'));
    const chain = await page.evaluate(() => ({
      lines: window.minipbd.world.lines.length,
      stretchHidden: document.getElementById('param-stiffness-stretch').closest('.control').hidden,
      chainHidden: document.getElementById('param-stiffness-chain').closest('.control').hidden,
      readout: document.getElementById('readout-particles').textContent,
      particles: window.minipbd.world.particleCount,
    }));
    assert.ok(chain.lines > 0, 'chain has line segments');
    assert.equal(chain.stretchHidden, true, 'cloth sliders hidden for a chain');
    assert.equal(chain.chainHidden, false, 'chain slider shown');
    assert.equal(chain.readout.replace(/,/g, ''), String(chain.particles));

    await page.locator('#param-stiffness-chain').focus();
    await page.keyboard.press('Home');
    for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
    const v = await page.evaluate(() => ({ engine: window.minipbd.world.getParam('stiffness.chain'), scene: window.minipbd.scene.objects[0].stiffness }));
    assert.ok(Math.abs(v.engine - 0.05) < 1e-6, `engine got ${v.engine}`);
    assert.ok(Math.abs(v.scene - 0.05) < 1e-9, 'the scene description follows the slider');
    await waitSteps(page, 10);

    await page.selectOption('#scene-select', 'mass-split');
    await page.waitForFunction(async () => {
      const { builtinScenes } = await import('./js/scene.js');
      return window.minipbd.scene.name === builtinScenes['mass-split'].name;
    });
    await waitSteps(page, 10);
    assert.equal(await page.locator('#scene-title').textContent(), await page.evaluate(() => window.minipbd.scene.name));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
