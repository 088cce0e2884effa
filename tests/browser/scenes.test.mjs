// scenes.test.mjs — every built-in scene (the solids' too; solids.test.mjs looks at their bodies) opens from the
// picker, runs, and draws a shaded picture without a console error; scenes with colliders draw them. The 100k-particle cloth is included (software WebGL makes
// it slow here: waits are generous and nothing asserts a frame rate).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, canvasPixels, chooseScene, SMALL_VIEWPORT, TEST_TIMEOUT } from './helpers.mjs';
import { MAX_STEPS_PER_FRAME } from '../../web/js/sim/loop.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

test('every built-in scene loads from the picker and draws without errors', { timeout: TEST_TIMEOUT * 3 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    const keys = await page.evaluate(async () => (await import('./js/format/builtin-scenes.js')).BUILTIN_SCENE_IDS);
    const options = await page.locator('#scene-select option').evaluateAll((os) => os.map((o) => o.value));
    for (const key of ['chain', 'cloth', 'mass-split', 'cloth-sphere', 'table', 'flag', 'fold', 'cloth-100k', 'jelly', 'box-stack', 'bend-bar', 'trampoline', 'bunny']) {
      assert.ok(keys.includes(key), `built-in ${key} exists`);
    }
    assert.deepEqual(options, keys, 'the picker offers every built-in scene, in order');

    for (const key of keys) {
      await chooseScene(page, key);
      const info = await page.evaluate(async (key) => {
        const { loadBuiltinScene } = await import('./js/format/builtin-scenes.js');
        const builtin = await loadBuiltinScene(key);
        const { world, scene } = window.minipbd;
        return {
          name: scene.name,
          expectedName: builtin.name,
          title: document.getElementById('scene-title').textContent,
          particles: world.particleCount,
          // the pixel count looks for the palette's cloth colours: a cloth with its own colour (the hammock's canvas) is not counted
          hasCloth: scene.objects.some((o) => o.type === 'cloth' && !o.colour),
          expectedColliders: builtin.colliders.length,
          colliders: world.colliders.length,
          drawnColliders: window.minipbd.app.renderer.lastColliderCount,
          message: document.getElementById('message').hidden ? null : document.getElementById('message-text').textContent,
        };
      }, key);
      assert.equal(info.message, null, `${key}: no error message`);
      assert.equal(info.name, info.expectedName, `${key}: the picked scene runs`);
      assert.equal(info.title, info.name);
      assert.equal(info.colliders, info.expectedColliders, `${key}: the world has the scene's colliders`);
      assert.equal(info.drawnColliders, info.expectedColliders, `${key}: every collider is drawn`);
      const px = await canvasPixels(page);
      assert.ok(px.lumaStdDev > 6, `${key}: canvas is not blank (luma std dev ${px.lumaStdDev.toFixed(1)})`);
      assert.ok(px.distinctColors > 150, `${key}: shaded image (${px.distinctColors} colours)`);
      if (info.hasCloth) {
        const cloth = px.clothFraction + px.backFraction;
        assert.ok(cloth > 0.02, `${key}: the cloth is in view (${(cloth * 100).toFixed(1)}% of the pixels)`);
      }
      assert.deepEqual(problems, [], `${key}: no console errors, page errors or failed requests`);
    }
  } finally {
    await context.close();
  }
});

test('the 100k cloth keeps the page responsive: one upload per buffer per frame, few steps per frame', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    await chooseScene(page, 'cloth-100k');
    assert.equal(await page.evaluate(() => window.minipbd.world.particleCount), 316 * 316);
    await waitSteps(page, 10);
    // Count per-frame GL uploads and steps per frame over a few frames.
    await page.evaluate(() => {
      const { app } = window.minipbd;
      const gl = app.renderer.gl;
      const log = (window.__perf = { subData: 0, frames0: app.renderer.framesDrawn, steps0: window.minipbd.world.stats().steps, ticks: 0 });
      const sub = gl.bufferSubData.bind(gl);
      gl.bufferSubData = (...a) => { log.subData++; return sub(...a); };
      const tick = () => { log.ticks++; requestAnimationFrame(tick); }; // the animation frames offered, drawn or not
      requestAnimationFrame(tick);
    });
    await waitFrames(page, 6);
    const r = await page.evaluate(() => {
      const { app, world } = window.minipbd;
      const log = window.__perf;
      return { frames: app.renderer.framesDrawn - log.frames0, ticks: log.ticks, subData: log.subData, steps: world.stats().steps - log.steps0 };
    });
    // Exactly positions, where the last step began (frames between steps: render/renderer.js) and normals per frame
    // (allow the frame in flight when counting started/stopped).
    assert.ok(r.subData <= 3 * (r.frames + 1), `${r.subData} bufferSubData calls in ${r.frames} frames`);
    // The step cap is per animation frame (sim/loop.js), drawn or not: a software renderer draws at most 30 a second.
    assert.ok(r.steps <= MAX_STEPS_PER_FRAME * (r.ticks + 1), `${r.steps} steps in ${r.ticks} animation frames: the per-frame step cap holds`);
    const px = await canvasPixels(page);
    assert.ok(px.clothFraction > 0.05, `the large cloth fills part of the view (${(px.clothFraction * 100).toFixed(1)}%)`);
    // The page still answers input promptly: a click on the pause button takes effect.
    await page.click('#pause');
    assert.equal(await page.locator('#pause').textContent(), 'Resume');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
