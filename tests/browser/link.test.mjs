// link.test.mjs — sharing: the copied link reopens the same scene with the same settings; bad links
// are explained and never break the running page; text from links is never parsed as HTML.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

// Set a number field (the panel's spinbuttons) with real keyboard events (Home/End, then arrow steps), as a user would.
async function setSlider(page, selector, { from = 'Home', steps = 0 }) {
  const slider = page.locator(selector);
  await slider.focus();
  await page.keyboard.press(from);
  const key = from === 'Home' ? 'ArrowUp' : 'ArrowDown';
  for (let k = 0; k < steps; k++) await page.keyboard.press(key);
}

const params = (page) => page.evaluate(() => {
  const w = window.minipbd.world;
  return {
    iterations: w.getParam('iterations'),
    substeps: w.getParam('substeps'),
    stretch: w.getParam('stiffness.stretch'),
    bend: w.getParam('stiffness.bend'),
    particles: w.particleCount,
    name: window.minipbd.scene.name,
    picker: document.getElementById('scene-select').value,
    camera: window.minipbd.app.camera.toJSON(),
  };
});

test('the copied link opens the same scene with the same settings in a new page', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await page.selectOption('#scene-select', 'cloth');
    await setSlider(page, '#param-iterations', { from: 'End', steps: 3 }); // 50 - 3 = 47 passes
    await setSlider(page, '#param-substeps', { from: 'Home', steps: 2 }); // 3 substeps
    await setSlider(page, '#param-stiffness-stretch', { from: 'Home', steps: 35 }); // 0.35
    await setSlider(page, '#param-stiffness-bend', { from: 'Home', steps: 4 }); // 0.04
    const set = await params(page);
    assert.equal(set.iterations, 47, 'the passes slider sets world iterations');
    assert.equal(set.substeps, 3);
    assert.ok(Math.abs(set.stretch - 0.35) < 1e-6, `stretch stiffness ${set.stretch}`);
    assert.ok(Math.abs(set.bend - 0.04) < 1e-6, `bend stiffness ${set.bend}`);
    assert.equal(await page.locator('#param-iterations').inputValue(), '47');

    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=1.'), null, { timeout: READY_TIMEOUT });
    const url = await page.inputValue('#link-field');
    assert.ok(url.startsWith(env.url), `link points at this page: ${url}`);
    assert.equal(new URL(url).hash, await page.evaluate(() => location.hash), 'the page URL carries the link too');
    assert.ok(url.length < 2000, `link is short (${url.length} chars)`);
    const clip = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
    if (clip !== null) assert.equal(clip, url, 'the clipboard holds the link');
    await waitSteps(page, 5); // the page's own hash change did not restart or break anything

    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await params(page2);
    assert.equal(got.iterations, 47);
    assert.equal(got.substeps, 3);
    assert.ok(Math.abs(got.stretch - set.stretch) < 1e-6, `stretch ${got.stretch} vs ${set.stretch}`);
    assert.ok(Math.abs(got.bend - set.bend) < 1e-6, `bend ${got.bend} vs ${set.bend}`);
    assert.equal(got.name, set.name);
    assert.equal(got.particles, set.particles);
    assert.deepEqual(got.camera, set.camera, 'the view travels with the link');
    assert.equal(await page2.locator('#param-iterations').inputValue(), '47', 'sliders show the linked settings');
    assert.equal(await page2.locator('#param-stiffness-stretch').inputValue(), '0.35');
    assert.equal(await page2.locator('#message').isHidden(), true, 'no error for a good link');
    await waitSteps(page2, 10);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('bad links show a message naming the problem, and the default scene runs', { timeout: TEST_TIMEOUT }, async () => {
  const cases = [
    ['#s=1.%%%', /could not be opened.*base64url/i],
    ['#s=9.abc', /could not be opened.*version 9/i],
    ['#s=1.' + 'A'.repeat(40), /could not be opened/i], // decodes to garbage: not deflate data
  ];
  for (const [hash, expected] of cases) {
    const { page, problems, context } = await openPage(env.browser, env.url + hash);
    try {
      const message = page.locator('#message');
      await message.waitFor({ state: 'visible', timeout: READY_TIMEOUT });
      const text = await page.locator('#message-text').textContent();
      assert.match(text, expected, `message for ${hash}: ${text}`);
      const r = await page.evaluate(async () => {
        const { defaultScene } = await import('./js/format/builtin-scenes.js');
        return { name: window.minipbd.scene.name, defaultName: defaultScene().name, role: document.getElementById('message').getAttribute('role') };
      });
      assert.equal(r.name, r.defaultName, 'the default scene runs instead');
      assert.equal(r.role, 'alert');
      await waitSteps(page, 10);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a hash change to a bad link keeps the current scene running; a good one switches', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.scene.objects[0].type === 'chain');
    const before = await page.evaluate(() => {
      window.__world = window.minipbd.world;
      return { particles: window.minipbd.world.particleCount, name: window.minipbd.scene.name };
    });
    await page.evaluate(() => { location.hash = '#s=1.%%%'; });
    await page.locator('#message').waitFor({ state: 'visible', timeout: READY_TIMEOUT });
    assert.match(await page.locator('#message-text').textContent(), /could not be opened/);
    const after = await page.evaluate(() => ({
      same: window.__world === window.minipbd.world,
      particles: window.minipbd.world.particleCount,
      name: window.minipbd.scene.name,
    }));
    assert.ok(after.same, 'the same world keeps running');
    assert.equal(after.particles, before.particles);
    assert.equal(after.name, before.name);
    await waitSteps(page, 10);

    // Dismiss, then follow a good link to the cloth scene made by the page's own encoder.
    await page.click('#message-close');
    assert.equal(await page.locator('#message').isHidden(), true);
    const good = await page.evaluate(async () => {
      const { encodeLink } = await import('./js/format/link.js');
      const { builtinScenes } = await import('./js/format/builtin-scenes.js');
      return encodeLink(builtinScenes.cloth);
    });
    await page.evaluate((f) => { location.hash = f; }, good);
    await page.waitForFunction(() => window.minipbd.scene.objects[0].type === 'cloth', null, { timeout: READY_TIMEOUT });
    assert.equal(await page.locator('#scene-select').inputValue(), 'cloth', 'picker shows the linked built-in');
    await waitSteps(page, 10);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('scene names and messages from links are shown as text, never parsed as HTML', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const fragment = await page.evaluate(async (name) => {
      const { encodeLink } = await import('./js/format/link.js');
      const { builtinScenes } = await import('./js/format/builtin-scenes.js');
      return encodeLink({ ...structuredClone(builtinScenes.chain), name });
    }, evil);
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await page.waitForFunction((n) => window.minipbd.scene.name === n, evil, { timeout: READY_TIMEOUT });
    assert.equal(await page.locator('#scene-title').textContent(), evil);
    assert.match(await page.locator('#scene-select option:checked').textContent(), /From link/);
    const r = await page.evaluate(() => ({ imgs: document.querySelectorAll('img').length, pwned: window.__pwned }));
    assert.deepEqual(r, { imgs: 0, pwned: undefined });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
