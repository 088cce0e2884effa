// view-tools.test.mjs — the view's Screenshot button downloads a PNG of the view (its full size, the scene in it), and
// Fullscreen (the button and the F key) puts the view's container fullscreen, the canvas following its size, and
// leaves again.

import fs from 'node:fs';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitFrames, TEST_TIMEOUT } from './helpers.mjs';
import { shortFileName } from '../../web/js/panel/files.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

test('shortFileName: minipbd-, the words before the colon (letters and digits of any script), the kind; a fallback', () => {
  assert.equal(shortFileName('Hanging cloth: 2 m x 2 m, 40 x 40', 'png'), 'minipbd-hanging-cloth.png');
  assert.equal(shortFileName('Hanging cloth: 2 m x 2 m, 40 x 40', 'csv', 'energy'), 'minipbd-hanging-cloth-energy.csv');
  assert.equal(shortFileName('../../etc/passwd', 'json'), 'minipbd-etc-passwd.json');
  assert.equal(shortFileName('布料 / 悬挂', 'png'), 'minipbd-布料-悬挂.png');
  assert.equal(shortFileName('<>:"/\\|?*', 'png'), 'minipbd.png');
  assert.equal(shortFileName(undefined, 'csv', 'convergence'), 'minipbd-convergence.csv');
  assert.equal(shortFileName('x'.repeat(200), 'json'), `minipbd-${'x'.repeat(32)}.json`);
});

test('screenshot: a PNG of the view at its full size (though SwiftShader draws the view at half), showing the scene; named after the scene', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitFrames(page, 5);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#screenshot')]);
    const name = await page.evaluate(() => window.minipbd.scene.name);
    assert.equal(download.suggestedFilename(), shortFileName(name, 'png'));
    assert.match(download.suggestedFilename(), /^minipbd-[\p{L}\p{N}-]+\.png$/u);
    const png = fs.readFileSync(await download.path());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
    assert.equal(png.toString('latin1', 12, 16), 'IHDR');
    const view = () => page.evaluate(() => {
      const c = document.getElementById('view');
      return { canvas: [c.width, c.height], device: [c.clientWidth, c.clientHeight].map((v) => Math.round(v * devicePixelRatio)) };
    });
    const { device } = await view();
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], device, 'the view\'s size in device pixels');
    // and the view goes back to its half size (render/renderer.js fit) for the frames after the shot
    await waitFrames(page, 2);
    assert.deepEqual((await view()).canvas, device.map((v) => Math.round(v * 0.5)), 'half size again after the shot');
    // Decoded by the browser: a drawn frame (many colours: sky, floor, cloth), not a cleared or empty buffer.
    const colours = await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = new OffscreenCanvas(img.width, img.height);
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, img.width, img.height).data;
      const seen = new Set();
      for (let i = 0; i < d.length; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      return seen.size;
    }, png.toString('base64'));
    assert.ok(colours > 50, `${colours} colours`);
    assert.match(await page.textContent('#notice'), /\.png/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('fullscreen: the button and F enter and leave; the canvas takes the screen\'s size', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const canvasSize = () => page.evaluate(() => [document.getElementById('view').width, document.getElementById('view').height]);
    const before = await canvasSize();
    assert.equal(await page.getAttribute('#fullscreen', 'aria-pressed'), 'false');
    await page.click('#fullscreen');
    await page.waitForFunction(() => document.fullscreenElement === document.querySelector('.stage'));
    // fullscreenchange comes at the next frame: the button's state follows it
    await page.waitForFunction(() => document.getElementById('fullscreen').getAttribute('aria-pressed') === 'true');
    assert.equal(await page.textContent('#fullscreen'), 'Exit fullscreen');
    await page.waitForFunction(() => {
      const c = document.getElementById('view');
      const scale = window.minipbd.app.renderer.pixelScale; // 0.5 here: SwiftShader (render/renderer.js fit)
      return c.width === Math.round(Math.round(window.innerWidth * devicePixelRatio) * scale)
        && c.height === Math.round(Math.round(window.innerHeight * devicePixelRatio) * scale);
    });
    const full = await canvasSize();
    assert.ok(full[0] > before[0], `the canvas grew: ${before} -> ${full}`);
    // F leaves (the focus is on the view); Esc is the browser's own way out.
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.fullscreenElement === null);
    await page.waitForFunction((w) => document.getElementById('view').width === w, before[0]);
    await page.waitForFunction(() => document.getElementById('fullscreen').textContent === 'Fullscreen');
    // F enters too, and the button leaves.
    await page.focus('#view');
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.fullscreenElement !== null);
    await page.click('#fullscreen');
    await page.waitForFunction(() => document.fullscreenElement === null);
    // F typed in a field is a letter, not the shortcut.
    const field = page.locator('#panel input[type="text"], #panel input[type="number"], #panel input:not([type])').first();
    if (await field.count()) {
      await field.focus();
      await page.keyboard.press('f');
      await page.waitForTimeout(200);
      assert.equal(await page.evaluate(() => document.fullscreenElement), null);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
