// a11y.test.mjs — accessibility, touch and the page's policy: every control in the panel has an accessible
// name (as Chromium's accessibility tree computes it) and is reachable with Tab; the canvas has a text
// alternative that follows the scene, pause and what is held, written as text and not too often; touch
// screens get finger-sized controls that work by tap and swipe; no Content-Security-Policy violation.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, chooseScene, particleOnScreen, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

/** A context that records every securitypolicyviolation event in window.__csp, from the first byte on. */
async function cspContext(options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 }, ...options });
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective}: ${e.blockedURI || e.sourceFile || ''}`);
    });
  });
  return context;
}

/** Visible panel controls, marked data-k=0..n-1 in document order (disabled ones too unless `enabledOnly`). */
async function markControls(page, { enabledOnly = false } = {}) {
  return page.evaluate((enabledOnly) => {
    const all = [...document.querySelectorAll('#panel input, #panel select, #panel button')]
      .filter((el) => el.checkVisibility() && !(enabledOnly && el.disabled) && el.tabIndex >= 0);
    for (const el of document.querySelectorAll('[data-k]')) delete el.dataset.k;
    all.forEach((el, k) => { el.dataset.k = String(k); });
    return all.map((el) => el.id || `${el.tagName.toLowerCase()}:${el.textContent.trim().slice(0, 20)}`);
  }, enabledOnly);
}

/** Chromium's computed accessible role, name and description of the element matching `selector`. */
async function axOf(cdp, selector) {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  assert.ok(nodeId, `${selector} exists`);
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  const n = nodes[0];
  return { role: n.role?.value, name: n.name?.value ?? '', description: n.description?.value ?? '', ignored: n.ignored };
}

test('every control in the panel has an accessible name and is reachable with Tab', { timeout: TEST_TIMEOUT }, async () => {
  const context = await cspContext();
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Accessibility.enable');
    for (const key of ['flag', 'mass-split']) {
      await chooseScene(page, key);
      const controls = await markControls(page);
      assert.ok(controls.length >= 35, `${key}: the panel has its controls (${controls.length})`);
      const unnamed = [];
      for (let k = 0; k < controls.length; k++) {
        const ax = await axOf(cdp, `[data-k="${k}"]`);
        if (ax.ignored || !ax.name.trim()) unnamed.push(`${controls[k]} (${ax.role})`);
      }
      assert.deepEqual(unnamed, [], `${key}: every visible control has an accessible name`);
    }
    // Names say what the control is; fields are spinbuttons with their help as description.
    let ax = await axOf(cdp, '#param-iterations');
    assert.deepEqual([ax.role, ax.name], ['spinbutton', 'Passes']);
    assert.match(ax.description, /solver passes per substep/);
    ax = await axOf(cdp, '#mass-0');
    assert.equal(ax.name, 'Mass per particle (g) half heavy cloth', 'a mass field is named by the folder and the object');
    assert.deepEqual(Object.values(await axOf(cdp, '#pause')).slice(0, 2), ['button', 'Pause']);
    assert.equal((await axOf(cdp, '#scene-select')).name, 'Scene');
    assert.equal((await axOf(cdp, '#link-field')).name, 'Link');
    assert.equal((await axOf(cdp, '#velocity-arrows')).name, 'Velocity arrows');

    // Tab from the top of the panel reaches every enabled control, in order, and leaves none out.
    const focusable = await markControls(page, { enabledOnly: true });
    await page.locator('#gui > .lil-title').focus();
    const reached = new Set([0]);
    for (let k = 0; k < focusable.length + 2; k++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => document.activeElement?.dataset.k);
      if (at !== undefined) reached.add(Number(at));
    }
    const missed = focusable.filter((_, k) => !reached.has(k));
    assert.deepEqual(missed, [], 'Tab reaches every enabled control');
    // A folder opens and closes from the keyboard; its title says which it is.
    assert.deepEqual(Object.values(await axOf(cdp, '#folder-wind-title')).slice(0, 2), ['button', 'Wind'], 'the folder arrow is not read');
    await page.locator('#folder-wind-title').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.getElementById('param-drag').checkVisibility(), null, { timeout: READY_TIMEOUT });
    assert.equal(await page.locator('#folder-wind-title').getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('param-drag').checkVisibility(), null, { timeout: READY_TIMEOUT });
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the canvas has a text alternative: scene, counts, running or paused, what is held; text only, not too often', { timeout: TEST_TIMEOUT }, async () => {
  const context = await cspContext();
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Accessibility.enable');
    await chooseScene(page, 'cloth');
    const text = () => page.locator('#view-description').textContent();
    const particles = await page.evaluate(() => window.minipbd.world.particleCount);
    const ax = await axOf(cdp, '#view');
    assert.match(ax.name, /Simulation view/, 'the canvas is named');
    assert.match(ax.description, /^Hanging cloth\. 1,600 particles, [\d,]+ constraints\. Running\. Nothing is held\.$/, `described: ${ax.description}`);
    assert.equal(particles, 1600);
    assert.equal(await page.locator('#view-description').getAttribute('aria-live'), 'polite');

    // Updated a few times a second at most: count the changes over two seconds of running.
    await page.evaluate(() => {
      window.__changes = 0;
      new MutationObserver(() => { window.__changes++; }).observe(document.getElementById('view-description'), { childList: true, characterData: true, subtree: true });
    });
    await page.waitForTimeout(2000);
    assert.ok((await page.evaluate(() => window.__changes)) <= 8, 'no more than 4 updates a second');

    await page.locator('#view').focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => /Paused\./.test(document.getElementById('view-description').textContent), null, { timeout: READY_TIMEOUT });

    // Hold a particle with the mouse: the description says so, then lets go.
    await page.keyboard.press('Space');
    const corner = await particleOnScreen(page, 40 * 30 + 20);
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    await page.mouse.move(corner.x + 20, corner.y + 10, { steps: 3 });
    await page.waitForFunction(() => /Running\. Held: 1 particle\./.test(document.getElementById('view-description').textContent), null, { timeout: READY_TIMEOUT });
    await page.mouse.up();
    await page.waitForFunction(() => /Nothing is held\./.test(document.getElementById('view-description').textContent), null, { timeout: READY_TIMEOUT });

    // Names from a link are text: markup in a scene name shows as characters, never as elements.
    const evil = '<img src=x onerror="__xss=1">Cloth';
    const fragment = await page.evaluate(async (name) => {
      const { encodeLink } = await import('./js/format/link.js');
      const { builtinScenes } = await import('./js/format/builtin-scenes.js');
      return encodeLink({ ...structuredClone(builtinScenes.chain), name });
    }, evil);
    await page.evaluate((f) => { location.hash = f; }, fragment);
    await page.waitForFunction((name) => window.minipbd.scene.name === name, evil, { timeout: READY_TIMEOUT });
    await page.waitForFunction(() => document.getElementById('view-description').textContent.includes('<img'), null, { timeout: READY_TIMEOUT });
    assert.ok((await text()).startsWith(`${evil}. 26 particles`), await text());
    const r = await page.evaluate(() => ({
      imgs: document.querySelectorAll('#view-description *, #scene-title *, #scene-select option *, #panel .lil-name *').length,
      option: document.querySelector('#scene-select option:checked').textContent,
      xss: window.__xss ?? null,
    }));
    assert.deepEqual(r, { imgs: 0, option: 'From link: <img src=x onerror="__xss=1">Cloth', xss: null });
    await waitSteps(page, 5);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('no Content-Security-Policy violation: lil-gui injects no <style>, every panel feature works under the policy', { timeout: TEST_TIMEOUT }, async () => {
  const context = await cspContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    const policy = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
    assert.match(policy, /style-src 'self'(;|$)/, 'the strict policy is in force');
    assert.doesNotMatch(policy, /unsafe-inline|font-src|data:.*font/);
    // Use everything: folders, every view switch, plots, language, copy link, a scene with colliders.
    for (const id of ['heat-map', 'plots', 'velocity-arrows']) await page.check(`#${id}`);
    await page.uncheck('#show-particles');
    await page.locator('#folder-solver-title').click();
    await page.locator('#folder-solver-title').click();
    await page.selectOption('#language-select', 'zh');
    await page.selectOption('#language-select', 'en');
    await chooseScene(page, 'cloth-sphere');
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=1.'), null, { timeout: READY_TIMEOUT });
    await waitSteps(page, 10);
    const r = await page.evaluate(() => ({
      csp: window.__csp,
      styles: document.querySelectorAll('style').length,
      sheets: [...document.styleSheets].map((s) => new URL(s.href).pathname),
      guiStyled: getComputedStyle(document.querySelector('#gui .lil-controller')).display,
    }));
    assert.deepEqual(r.csp, [], 'no violations');
    assert.equal(r.styles, 0, 'no <style> element (lil-gui made with injectStyles: false)');
    assert.deepEqual(r.sheets, ['/css/vendor/lil-gui.min.css', '/css/app.css', '/css/data.css'], 'lil-gui\'s stylesheet is linked');
    assert.equal(r.guiStyled, 'flex', 'and applies');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('touch: finger-sized controls, tap and swipe work, a vertical swipe over a slider does not change it', { timeout: TEST_TIMEOUT }, async () => {
  const context = await cspContext({ viewport: { width: 390, height: 780 }, hasTouch: true, isMobile: true });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    assert.equal(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), true, 'a touch screen');
    await chooseScene(page, 'flag');
    const small = await page.evaluate(() => [...document.querySelectorAll('#panel button, #panel input:not([type=checkbox]), #panel select, #panel .lil-slider, #panel label.lil-controller')]
      .filter((el) => el.checkVisibility())
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.height < 44 || r.width < 44)
      .map(({ el, r }) => `${el.id || el.className || el.tagName} ${Math.round(r.width)}x${Math.round(r.height)}`));
    assert.deepEqual(small, [], 'every target is at least 44 x 44 CSS px');

    // Tap the Pause button and a checkbox row.
    await page.tap('#pause');
    assert.equal(await page.evaluate(() => window.minipbd.app.state.paused), true, 'tap pauses');
    await page.tap('#step');
    assert.equal(await page.evaluate(() => window.minipbd.world.stats().steps) > 0, true);
    await page.tap('#pause');
    await page.locator('#heat-map').scrollIntoViewIfNeeded();
    await page.tap('label:has(#heat-map)');
    assert.equal(await page.evaluate(() => window.minipbd.app.state.view.heatMap), true, 'tap on a switch row');

    // Swipes on the Passes slider: horizontal sets the value, vertical (scrolling the panel) leaves it.
    const slider = page.locator('[data-param="iterations"] .lil-slider');
    await slider.scrollIntoViewIfNeeded();
    const cdp = await context.newCDPSession(page);
    const swipe = async (from, to) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from[0], y: from[1] }] });
      for (let s = 1; s <= 6; s++) {
        const x = from[0] + ((to[0] - from[0]) * s) / 6, y = from[1] + ((to[1] - from[1]) * s) / 6;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    let box = await slider.boundingBox();
    const before = await page.evaluate(() => window.minipbd.world.getParam('iterations'));
    await swipe([box.x + box.width / 2, box.y + box.height / 2], [box.x + box.width / 2 + 4, box.y + box.height / 2 - 60]);
    assert.equal(await page.evaluate(() => window.minipbd.world.getParam('iterations')), before, 'a vertical swipe scrolls, it does not set');
    await slider.scrollIntoViewIfNeeded();
    box = await slider.boundingBox();
    await swipe([box.x + box.width * 0.3, box.y + box.height / 2], [box.x + box.width - 1, box.y + box.height / 2]);
    assert.equal(await page.evaluate(() => window.minipbd.world.getParam('iterations')), 50, 'a horizontal swipe to the end sets the maximum');
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
