// theme.test.mjs — the dark theme: the demo, its view and the gallery follow prefers-color-scheme (here
// emulated: playwright's colorScheme, then emulateMedia to switch a running page). Backgrounds differ between the
// themes, and text keeps WCAG AA contrast (>= 4.5:1, the ratio computed from the rendered colours) in both.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitFrames, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

/** For each [text selector, background selector]: both computed colours, in the page. */
function colours(page, pairs) {
  return page.evaluate((pairs) => pairs.map(([fg, bg]) => {
    const solid = (el) => { // the first ancestor with an opaque background
      for (let e = el; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (!/rgba\(.*, 0\)$|transparent/.test(c)) return c;
      }
      return 'rgb(255, 255, 255)';
    };
    return { fg: getComputedStyle(document.querySelector(fg)).color, bg: solid(document.querySelector(bg)), pair: `${fg} on ${bg}` };
  }), pairs);
}

const rgb = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
/** WCAG 2 relative luminance and contrast ratio. */
function luminance(css) {
  const [r, g, b] = rgb(css).map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Mean luma (0..255) of the view's top strip (the sky) as drawn. */
async function skyLuma(page) {
  const png = await page.locator('#view').screenshot({ clip: undefined });
  return page.evaluate(async (b64) => {
    const bmp = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext('2d');
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, Math.max(1, Math.floor(bmp.height / 12))).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
    return sum / (d.length / 4);
  }, png.toString('base64'));
}

const DEMO_TEXT = [
  ['.lil-gui .lil-name', '.panel'], // the panel's labels
  ['.panel-note', '.panel'], // its muted notes
  ['.readout dd', '.readout'],
  ['.brand h1', 'body'], // the title over the view (the page's background behind the canvas)
];

test('the demo: panel and view follow the colour scheme, text contrast is at least 4.5:1 in both', { timeout: TEST_TIMEOUT }, async () => {
  const seen = {};
  for (const scheme of ['light', 'dark']) {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 640 }, colorScheme: scheme });
    const { page, problems } = await openPage(env.browser, env.url, { context });
    try {
      await waitFrames(page, 3);
      const pairs = await colours(page, DEMO_TEXT);
      for (const { fg, bg, pair } of pairs) assert.ok(contrast(fg, bg) >= 4.5, `${scheme}: ${pair} ${fg} / ${bg}: ${contrast(fg, bg).toFixed(2)}:1`);
      seen[scheme] = {
        panel: pairs[0].bg,
        text: pairs[0].fg,
        scheme: await page.evaluate(() => window.minipbd.app.renderer.scheme),
        sky: await skyLuma(page),
      };
      assert.equal(seen[scheme].scheme, scheme, 'the renderer draws the theme\'s palette');
      assert.deepEqual(problems, []);
      if (scheme === 'light') {
        // A running page follows a change of scheme: the panel and the view both.
        await page.emulateMedia({ colorScheme: 'dark' });
        await waitFrames(page, 3);
        assert.equal(await page.evaluate(() => window.minipbd.app.renderer.scheme), 'dark');
        assert.ok(await skyLuma(page) < seen.light.sky - 60, 'the sky turns dark at once');
        assert.notEqual((await colours(page, DEMO_TEXT.slice(0, 1)))[0].bg, seen.light.panel);
      }
    } finally {
      await context.close();
    }
  }
  assert.notEqual(seen.light.panel, seen.dark.panel, 'the panel background differs');
  assert.notEqual(seen.light.text, seen.dark.text, 'so does its text');
  assert.ok(seen.light.sky > 180 && seen.dark.sky < 90, `a light sky (${seen.light.sky.toFixed(0)}) and a dark one (${seen.dark.sky.toFixed(0)})`);
});

test('the gallery follows the colour scheme with readable text, its embeds\' boxes too', { timeout: TEST_TIMEOUT }, async () => {
  const seen = {};
  for (const scheme of ['light', 'dark']) {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 }, colorScheme: scheme });
    const page = await context.newPage();
    try {
      await page.goto(`${env.url}gallery.html`);
      await page.waitForFunction(() => document.querySelector('minipbd-scene'), null, { timeout: READY_TIMEOUT });
      const pairs = await colours(page, [
        ['.card-name', '.card'], ['.card-description', '.card'], ['.card-open', '.card'], ['#gallery-intro', 'body'], ['h1', 'body'], ['#demo-link', 'body'],
      ]);
      for (const { fg, bg, pair } of pairs) assert.ok(contrast(fg, bg) >= 4.5, `${scheme}: ${pair} ${fg} / ${bg}: ${contrast(fg, bg).toFixed(2)}:1`);
      seen[scheme] = {
        body: await page.evaluate(() => getComputedStyle(document.body).backgroundColor === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : getComputedStyle(document.body).backgroundColor),
        card: pairs[0].bg,
        embed: await page.evaluate(() => getComputedStyle(document.querySelector('minipbd-scene')).backgroundColor),
      };
    } finally {
      await context.close();
    }
  }
  for (const k of ['body', 'card', 'embed']) assert.notEqual(seen.light[k], seen.dark[k], `the ${k} background differs`);
  assert.ok(luminance(seen.dark.embed) < 0.1 && luminance(seen.light.embed) > 0.5, 'the embed box is dark in the dark theme, light in the light one');
});
