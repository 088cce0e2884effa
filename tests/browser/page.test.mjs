// page.test.mjs — the demo page loads cleanly, draws the cloth, keeps per-frame GPU uploads to the
// minimum, draws a paused world only when its picture changes, and survives a WebGL context loss.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, canvasPixels, drawRate, SMALL_VIEWPORT, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

test('page loads without errors and draws the default cloth scene', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 20);
    await waitFrames(page, 3);
    const info = await page.evaluate(() => ({
      particles: window.minipbd.world.particleCount,
      triangles: window.minipbd.world.triangles.length / 3,
      title: document.getElementById('scene-title').textContent,
      sceneName: window.minipbd.scene.name,
      readout: document.getElementById('readout-particles').textContent,
      messageHidden: document.getElementById('message').hidden,
      canvas: [document.getElementById('view').width, document.getElementById('view').height],
      css: [document.getElementById('view').clientWidth, document.getElementById('view').clientHeight],
      dpr: devicePixelRatio,
      scale: window.minipbd.app.renderer.pixelScale,
    }));
    assert.ok(info.particles > 100, `default scene has a cloth (${info.particles} particles)`);
    assert.ok(info.triangles > 0, 'cloth has triangles');
    assert.equal(info.title, info.sceneName, 'scene name shown as the subtitle');
    assert.equal(info.readout.replace(/,/g, ''), String(info.particles), 'readout shows the particle count');
    assert.equal(info.messageHidden, true, 'no error message');
    // SwiftShader here: a software renderer draws at half the resolution (render/renderer.js fit).
    assert.equal(info.scale, 0.5, 'the software renderer draws at half resolution');
    assert.deepEqual(info.canvas, info.css.map((v) => Math.round(Math.round(v * info.dpr) * 0.5)), 'canvas is CSS size x devicePixelRatio x 0.5');

    const px = await canvasPixels(page);
    assert.ok(px.lumaStdDev > 8, `canvas is not blank (luma std dev ${px.lumaStdDev.toFixed(1)})`);
    assert.ok(px.distinctColors > 200, `shaded image, not flat fills (${px.distinctColors} colours)`);
    assert.ok(px.clothFraction > 0.05, `cloth front colour covers part of the view (${(px.clothFraction * 100).toFixed(1)}%)`);
    assert.deepEqual(problems, [], 'no console errors, page errors or failed requests');
  } finally {
    await context.close();
  }
});

test('each frame uploads positions, where the last step began and normals once, index buffers only on topology change', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.evaluate(() => {
      const gl = window.minipbd.app.renderer.gl;
      const calls = (window.__glCalls = { bufferSubData: [], bufferData: 0, frames0: window.minipbd.app.renderer.framesDrawn, uploads0: window.minipbd.app.renderer.framesUploaded });
      const sub = gl.bufferSubData.bind(gl);
      const data = gl.bufferData.bind(gl);
      gl.bufferSubData = (...a) => {
        calls.bufferSubData.push({ target: a[0], offset: a[1], fromWasm: a[2] && a[2].buffer === window.minipbd.world.positions.buffer, bytes: a[2]?.byteLength });
        return sub(...a);
      };
      gl.bufferData = (...a) => { calls.bufferData++; return data(...a); };
    });
    await waitFrames(page, 10);
    const r = await page.evaluate(() => {
      const c = window.__glCalls;
      return { ...c, frames: window.minipbd.app.renderer.framesDrawn - c.frames0, uploads: window.minipbd.app.renderer.framesUploaded - c.uploads0, posBytes: window.minipbd.world.positions.byteLength, ARRAY_BUFFER: window.minipbd.app.renderer.gl.ARRAY_BUFFER };
    });
    // Frames counted between the two evaluates may be off by the one in flight. A frame drawn while the world is
    // busy stepping (the threaded runner) redraws the last buffers and uploads nothing: 3 per frame that uploads
    // (world.previous for the frames between steps: renderer.js).
    assert.ok(r.uploads <= r.frames + 1 && r.uploads >= 1, `${r.uploads} of ${r.frames} frames uploaded`);
    assert.ok(Math.abs(r.bufferSubData.length - 3 * r.uploads) <= 3, `${r.bufferSubData.length} uploads for ${r.uploads} uploading frames (want 3 each)`);
    for (const c of r.bufferSubData) {
      assert.equal(c.target, r.ARRAY_BUFFER);
      assert.equal(c.offset, 0);
      assert.equal(c.fromWasm, true, 'uploads come straight from wasm memory views');
      assert.equal(c.bytes, r.posBytes, 'whole positions/previous/normals array (16 bytes per particle)');
    }
    assert.equal(r.bufferData, 0, 'no buffer re-allocation or index upload while the topology is unchanged');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('paused, the page draws only when the picture changes: a key that orbits, a tool\'s request; the last frame stays on screen', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    await waitSteps(page, 5);
    await page.click('#pause');
    // Frames drawn are counted from before each action (a frame may come between two calls into the page), after
    // `n` animation frames the browser offered.
    const drawn = () => page.evaluate(() => window.minipbd.app.renderer.framesDrawn);
    const ticks = (n) => page.evaluate((n) => new Promise((resolve) => {
      let left = n;
      const tick = () => (--left > 0 ? requestAnimationFrame(tick) : resolve());
      requestAnimationFrame(tick);
    }), n);
    await ticks(10); // the frames owed to the click
    let d0 = await drawn();
    await ticks(30);
    assert.equal(await drawn() - d0, 0, 'a paused page with nothing changing draws none of 30 frames');
    const still = await page.locator('#view').screenshot();
    const px = await canvasPixels(page);
    assert.ok(px.clothFraction > 0.05, `the last frame stays on screen (${(px.clothFraction * 100).toFixed(1)}% cloth)`);

    await page.focus('#view');
    d0 = await drawn();
    await page.keyboard.press('ArrowLeft'); // orbits (panel/shortcuts.js)
    await ticks(10);
    assert.ok(await drawn() - d0 >= 1, 'an orbit while paused is drawn');
    assert.ok(!(await page.locator('#view').screenshot()).equals(still), 'the drawn frame shows the new camera');

    // A tool moving a particle from outside the page's controls asks for a frame (app.requestRedraw).
    await ticks(10);
    d0 = await drawn();
    const moved = await page.evaluate(() => {
      const w = window.minipbd.world;
      const p = w.positions;
      const i = (p.length / 4) >> 1;
      w.setPosition(i, [p[4 * i], p[4 * i + 1] + 0.3, p[4 * i + 2]]);
      return i;
    });
    assert.ok(moved > 0);
    await ticks(10);
    assert.equal(await drawn() - d0, 0, 'a change no event announced is not drawn by itself');
    d0 = await drawn();
    await page.evaluate(() => window.minipbd.app.requestRedraw(1));
    await ticks(10);
    assert.equal(await drawn() - d0, 1, 'requestRedraw(1) draws exactly one frame');

    d0 = await drawn();
    await page.click('#pause'); // running again: every step is shown
    await ticks(20);
    // Here WebGL is SwiftShader's: the renderer knows, and draws every other frame, at most 30 a second
    // (render/renderer.js).
    assert.equal(await page.evaluate(() => window.minipbd.app.renderer.minFrameMs > 0), true, 'SwiftShader is recognised as a software renderer');
    assert.ok(await drawn() - d0 >= 9, 'a running world is drawn every other frame');
    const rate = await drawRate(page);
    assert.ok(rate.fps <= 31, `${rate.drawn} frames drawn in ${rate.ms.toFixed(0)} ms (${rate.fps.toFixed(1)} a second) of ${rate.ticks} offered`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('WebGL context loss keeps simulating; restore rebuilds GL and draws again', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.evaluate(() => {
      window.__lose = window.minipbd.app.renderer.gl.getExtension('WEBGL_lose_context');
      window.__lose.loseContext();
    });
    await page.waitForFunction(() => window.minipbd.app.renderer.contextLost === true, null, { timeout: READY_TIMEOUT });
    const framesWhileLost = await page.evaluate(() => window.minipbd.app.renderer.framesDrawn);
    await waitSteps(page, 10); // simulation goes on without a context
    assert.equal(await page.evaluate(() => window.minipbd.app.renderer.framesDrawn), framesWhileLost, 'nothing drawn while lost');

    await page.evaluate(() => window.__lose.restoreContext());
    await page.waitForFunction(() => window.minipbd.app.renderer.contextLost === false, null, { timeout: READY_TIMEOUT });
    await waitFrames(page, 3);
    const px = await canvasPixels(page);
    assert.ok(px.lumaStdDev > 8 && px.clothFraction > 0.05, `draws the cloth again after restore (${JSON.stringify(px)})`);
    assert.deepEqual(problems.filter((p) => !/WebGL.*(lost|CONTEXT_LOST)/i.test(p)), []);
  } finally {
    await context.close();
  }
});

test('narrow (phone) layout with devicePixelRatio 2 puts the panel below the view', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await waitFrames(page, 2);
    const r = await page.evaluate(() => {
      const c = document.getElementById('view').getBoundingClientRect();
      const p = document.querySelector('.panel').getBoundingClientRect();
      return { canvasBottom: c.bottom, panelTop: p.top, canvasW: c.width, width: document.getElementById('view').width, touchAction: getComputedStyle(document.getElementById('view')).touchAction };
    });
    assert.ok(r.panelTop >= r.canvasBottom - 1, 'panel below the view');
    assert.equal(r.width, Math.round(Math.round(r.canvasW * 2) * 0.5), 'canvas backing store uses devicePixelRatio 2 (x 0.5: a software renderer)');
    assert.equal(r.touchAction, 'none', 'touch-action: none on the canvas');
    const px = await canvasPixels(page);
    assert.ok(px.clothFraction > 0.03, 'cloth visible on a phone-sized view');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
