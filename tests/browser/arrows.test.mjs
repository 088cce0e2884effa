// arrows.test.mjs — velocity arrows (seed 001's debug views): with view.velocityArrows on, one
// arrow per particle from its position along its velocity, coloured by speed, drawn by one instanced draw from
// the position and velocity buffers (world.velocities uploaded only while the arrows are on).
//
// The frames compared here are drawn on demand and read back with gl.readPixels in the same task, with the
// world paused, so two frames of the same state are identical and any changed pixel is the arrows' doing.
// The flag is set on the app's view object directly (window.minipbd.app.state.view), not through the panel. The
// page draws at full resolution here (helpers.mjs fullResolution), as on a GPU: the widths are in its pixels.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { arrowStride, ARROWS } from '../../web/js/render/renderer.js';
import { openBrowser, openPage, waitSteps, waitFrames, fullResolution, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

test('arrowStride draws every particle up to 20k, then every k-th (k <= 15, the WebGL stride limit)', () => {
  assert.equal(arrowStride(0), 1);
  assert.equal(arrowStride(1600), 1);
  assert.equal(arrowStride(ARROWS.max), 1);
  assert.equal(arrowStride(ARROWS.max + 1), 2);
  for (const n of [40_000, 99_856, 150_000, 262_144]) {
    const k = arrowStride(n);
    assert.ok(16 * k <= 255, `stride ${16 * k} bytes fits WebGL's 255`);
    assert.ok(Math.ceil(n / k) <= ARROWS.max, `${n} particles -> ${Math.ceil(n / k)} arrows`);
  }
});

// --- in-page helpers -------------------------------------------------------------------------------------

/** Draw one frame now with the app's camera and view, and keep its pixels under `name`. */
function shot(page, name) {
  return page.evaluate((name) => {
    const { app } = window.minipbd;
    const r = app.renderer;
    const gl = r.gl;
    app.camera.update(app.canvas.width / app.canvas.height);
    if (!r.draw(app.camera, app.state.view)) throw new Error('nothing drawn');
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    (window.__shots ??= {})[name] = { w, h, px };
  }, name);
}

/** Pixels that differ between two shots: [x, y (from the top), r, g, b of `b`] each. */
function changed(page, a, b) {
  return page.evaluate(([a, b]) => {
    const A = window.__shots[a], B = window.__shots[b];
    if (A.w !== B.w || A.h !== B.h) throw new Error('the canvas changed size between shots');
    const out = [];
    for (let i = 0; i < A.px.length; i += 4) {
      const d = Math.abs(A.px[i] - B.px[i]) + Math.abs(A.px[i + 1] - B.px[i + 1]) + Math.abs(A.px[i + 2] - B.px[i + 2]);
      if (d > 24) {
        const p = i / 4;
        out.push([p % A.w, A.h - 1 - Math.floor(p / A.w), B.px[i], B.px[i + 1], B.px[i + 2]]);
      }
    }
    return out;
  }, [a, b]);
}

/** Sets particle i's velocity and returns the screen positions (drawing-buffer pixels) of the arrow's ends. */
function setVelocity(page, i, v) {
  return page.evaluate(([i, v, seconds, maxLength]) => {
    const { world, app } = window.minipbd;
    world.setVelocity(i, v);
    const P = world.positions;
    const p = [P[4 * i], P[4 * i + 1], P[4 * i + 2]];
    const speed = Math.hypot(...v);
    const len = Math.min(speed * seconds, maxLength);
    const tip = p.map((x, k) => x + (v[k] / speed) * len);
    app.camera.update(app.canvas.width / app.canvas.height);
    return { base: app.camera.project(p, app.canvas.width, app.canvas.height), tip: app.camera.project(tip, app.canvas.width, app.canvas.height) };
  }, [i, v, ARROWS.seconds, ARROWS.maxLength]);
}

/** Where changed pixels lie relative to the expected arrow base -> tip on screen. */
function along(pixels, { base, tip }) {
  const dx = tip[0] - base[0], dy = tip[1] - base[1];
  const len = Math.hypot(dx, dy);
  const ux = dx / len, uy = dy / len;
  let near = 0, sumT = 0, wideTail = 0, wideBody = 0;
  for (const [x, y] of pixels) {
    const rx = x + 0.5 - base[0], ry = y + 0.5 - base[1];
    const t = rx * ux + ry * uy; // along the arrow, px
    const s = Math.abs(-rx * uy + ry * ux); // across, px
    if (t > -6 && t < len + 6 && s < 12) near++;
    // wider than the shaft and its outline (2.25 px either side, 3.5 with antialiasing): only the head is
    if (s > 3.5 && s < 12) {
      if (t > 0.6 * len && t < len + 6) wideTail++;
      else if (t > -6 && t < 0.5 * len) wideBody++;
    }
    sumT += t;
  }
  return { len, nearFraction: near / pixels.length, meanT: sumT / pixels.length, wideTail, wideBody };
}

const colourShare = (pixels, test) => pixels.filter(([, , r, g, b]) => test(r, g, b)).length / Math.max(1, pixels.length);

test('velocity arrows: none at rest, drawn along +x and -x from the particle, coloured by speed, one upload', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url); // the default scene: the hanging cloth
  try {
    await fullResolution(page); // the widths below are in full-resolution pixels
    // Its top corners held where the grid puts them, so it hangs flat, facing the camera: the draped default folds,
    // and a fold in front of the measured particle would hide part of its arrow.
    await page.evaluate(async () => {
      const { app, scene } = window.minipbd;
      const flat = structuredClone(scene);
      flat.objects[0].pins = [[0, 0], [flat.objects[0].resolution[0] - 1, 0]];
      await app.run(() => app.loadScene(flat, null));
    });
    await waitSteps(page, 30);
    const info = await page.evaluate(() => {
      const { world, app, scene } = window.minipbd;
      app.state.paused = true;
      app.state.loop.accumulator = 0;
      const n = world.positions.length / 4;
      for (let i = 0; i < n; i++) world.setVelocity(i, [0, 0, 0]);
      const [cols, rows] = scene.objects[0].resolution;
      return { n, cols, rows, first: world.objects[0].firstParticle, view: 'velocityArrows' in app.state.view ? app.state.view.velocityArrows : undefined };
    });
    assert.ok(!info.view, 'arrows are off by default');
    const steps = await page.evaluate(() => window.minipbd.world.stats().steps);

    // At rest: turning the arrows on changes no pixel.
    await shot(page, 'off');
    await page.evaluate(() => { window.minipbd.app.state.view.velocityArrows = true; });
    await shot(page, 'rest');
    assert.deepEqual(await changed(page, 'off', 'rest'), [], 'a world at rest draws no arrows');

    // One more upload per frame (the velocities, straight from the wasm view) and one instanced draw.
    const calls = await page.evaluate(() => {
      const { world, app } = window.minipbd;
      const gl = app.renderer.gl;
      const rec = { subData: [], instanced: [] };
      const sub = gl.bufferSubData, inst = gl.drawArraysInstanced;
      gl.bufferSubData = function (target, offset, data, ...rest) {
        rec.subData.push({ velocities: data === world.velocities || (data?.buffer === world.velocities.buffer && data.byteOffset === world.velocities.byteOffset && data.length === world.velocities.length) });
        return sub.call(this, target, offset, data, ...rest);
      };
      gl.drawArraysInstanced = function (mode, first, count, instances) {
        rec.instanced.push({ mode, first, count, instances, TRIANGLES: gl.TRIANGLES });
        return inst.call(this, mode, first, count, instances);
      };
      try {
        const counts = {};
        for (const on of [false, true]) {
          rec.subData.length = 0;
          rec.instanced.length = 0;
          app.state.view.velocityArrows = on;
          app.renderer.draw(app.camera, app.state.view);
          counts[on] = { uploads: rec.subData.length, velocityUploads: rec.subData.filter((c) => c.velocities).length, instanced: [...rec.instanced] };
        }
        return counts;
      } finally {
        delete gl.bufferSubData;
        delete gl.drawArraysInstanced;
        app.state.view.velocityArrows = true;
      }
    });
    assert.equal(calls.false.velocityUploads, 0, 'velocities are not uploaded while the arrows are off');
    assert.equal(calls.false.instanced.length, 0);
    assert.equal(calls.true.velocityUploads, 1, 'one velocity upload per frame with the arrows on');
    assert.equal(calls.true.uploads, calls.false.uploads + 1);
    assert.equal(calls.true.instanced.length, 1, 'one instanced draw for all arrows');
    const draw = calls.true.instanced[0];
    assert.equal(draw.mode, draw.TRIANGLES);
    assert.equal(draw.instances, info.n, `one arrow per particle (${info.n})`);

    // A particle in the middle of the cloth moving +x at 6 m/s: a 0.3 m arrow toward +x.
    const i = info.first + (info.rows >> 1) * info.cols + (info.cols >> 1);
    const plus = await setVelocity(page, i, [6, 0, 0]);
    await shot(page, 'plus');
    const plusPx = await changed(page, 'rest', 'plus');
    const a = along(plusPx, plus);
    assert.ok(a.len > 30, `the expected arrow is long enough on screen to measure (${a.len.toFixed(1)} px)`);
    assert.ok(plusPx.length > 150, `an arrow is drawn (${plusPx.length} pixels changed)`);
    assert.ok(a.nearFraction > 0.9, `the changed pixels lie along base -> base + 0.05 s v (${(a.nearFraction * 100).toFixed(1)}%)`);
    assert.ok(a.meanT > 0.3 * a.len && a.meanT < 0.75 * a.len, `they run from the particle toward +x (mean ${a.meanT.toFixed(1)} of ${a.len.toFixed(1)} px)`);
    assert.ok(a.wideTail >= 12 && a.wideBody <= 2, `the head (the wide part) is at the tip (${a.wideTail} wide pixels near the tip, ${a.wideBody} near the base)`);

    // The same particle moving -x: the arrow is on the other side of it.
    const minus = await setVelocity(page, i, [-6, 0, 0]);
    await shot(page, 'minus');
    const minusPx = await changed(page, 'rest', 'minus');
    const b = along(minusPx, minus);
    assert.ok(minusPx.length > 150, `an arrow is drawn (${minusPx.length} pixels changed)`);
    assert.ok(b.nearFraction > 0.9, `the changed pixels lie along base -> base - 0.3 m x (${(b.nearFraction * 100).toFixed(1)}%)`);
    assert.ok(b.meanT > 0.3 * b.len && b.wideTail >= 12 && b.wideBody <= 2, `pointing -x (mean ${b.meanT.toFixed(1)} px, wide pixels ${b.wideTail} near the tip, ${b.wideBody} near the base)`);
    assert.ok(along(minusPx, plus).meanT < 0, 'and not along +x');
    const sx = Math.sign(plus.tip[0] - plus.base[0]);
    const meanX = (px) => px.reduce((s, [x]) => s + x, 0) / px.length;
    assert.equal(Math.sign(meanX(plusPx) - plus.base[0]), sx, '+x arrow on the +x side of the particle on screen');
    assert.equal(Math.sign(meanX(minusPx) - minus.base[0]), -sx, '-x arrow on the other side');

    // Arrows off: the moving particle draws exactly as at rest with the arrows off.
    await page.evaluate(() => { window.minipbd.app.state.view.velocityArrows = false; });
    await shot(page, 'minus-off');
    assert.deepEqual(await changed(page, 'off', 'minus-off'), [], 'no arrow pixels with the arrows off');

    // Colour follows speed: 2 m/s is green-cyan, 8 m/s red.
    await page.evaluate(() => { window.minipbd.app.state.view.velocityArrows = true; });
    await setVelocity(page, i, [0, -2, 0]);
    await shot(page, 'slow');
    const slow = await changed(page, 'rest', 'slow');
    await setVelocity(page, i, [0, -8, 0]);
    await shot(page, 'fast');
    const fast = await changed(page, 'rest', 'fast');
    const greenish = (r, g, b) => g > r + 60;
    const reddish = (r, g, b) => r > g + 60 && r > b + 60;
    assert.ok(colourShare(slow, greenish) > 0.2, `a slow arrow is green-blue (${colourShare(slow, greenish).toFixed(2)} of ${slow.length})`);
    assert.ok(colourShare(fast, greenish) < 0.02 && colourShare(fast, reddish) > 0.2, `a fast one red (${colourShare(fast, reddish).toFixed(2)} of ${fast.length})`);

    assert.equal(await page.evaluate(() => window.minipbd.world.stats().steps), steps, 'the world stayed paused throughout');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('velocity arrows are drawn again after a WebGL context loss and restore', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await fullResolution(page);
    await waitSteps(page, 10);
    const i = await page.evaluate(() => {
      const { world, app, scene } = window.minipbd;
      app.state.paused = true;
      app.state.view.velocityArrows = true;
      const n = world.positions.length / 4;
      for (let k = 0; k < n; k++) world.setVelocity(k, [0, 0, 0]);
      const [cols, rows] = scene.objects[0].resolution;
      window.__lose = app.renderer.gl.getExtension('WEBGL_lose_context');
      window.__lose.loseContext();
      return world.objects[0].firstParticle + (rows >> 1) * cols + (cols >> 1);
    });
    await page.waitForFunction(() => window.minipbd.app.renderer.contextLost === true, null, { timeout: READY_TIMEOUT });
    await page.evaluate(() => window.__lose.restoreContext());
    await page.waitForFunction(() => window.minipbd.app.renderer.contextLost === false, null, { timeout: READY_TIMEOUT });
    await waitFrames(page, 2);
    await shot(page, 'rest');
    const plus = await setVelocity(page, i, [6, 0, 0]);
    await shot(page, 'plus');
    const px = await changed(page, 'rest', 'plus');
    assert.ok(px.length > 150 && along(px, plus).nearFraction > 0.9, `the arrow is drawn along +x after the restore (${px.length} pixels)`);
    assert.deepEqual(problems.filter((p) => !/WebGL.*(lost|CONTEXT_LOST)/i.test(p)), []);
  } finally {
    await context.close();
  }
});
