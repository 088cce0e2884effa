// fluid-render.test.mjs — water drawn as water (render/fluid.js): in the real page, a block of
// fluid draws as a blue water surface where the fluid is, which differs from the same fluid drawn as particles;
// the View folder's Water switch goes to particles and back, also after a forced WebGL context loss and restore;
// under the heat map the fluid is drawn as particles; and with float render targets hidden
// (EXT_color_buffer_float stubbed out before the page loads) the page draws particles and says so. With water on
// the opaque scene is multisampled and resolved faithfully (outside the water it matches the particles frame), and
// without multisampling the water still draws. A glass pane in front of the water lets it show through (an opaque
// one hides it), as water and as particles. A hose's new particles are drawn the frame they exist (live counts read
// every frame, not at topology changes). The embed element's `water` attribute switches the same way.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, decodePng, waitFrames, fullResolution, watchProblems, SMALL_VIEWPORT, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';

const LOWER = [-0.2, 0.0, -0.2];
const UPPER = [0.2, 0.3, 0.2];
const CAMERA = { target: [0, 0.15, 0], yaw: 0.5, pitch: 0.45, distance: 1.3, fov: 45 };

const CRATE = { type: 'box', name: 'crate', position: [0.55, 0.12, 0.05], halfExtents: [0.1, 0.12, 0.1], rotation: [0, 0.38, 0, 0.925] };
/** A pane between the camera and the block: 0.45 m from the target toward the eye, turned to face it (yaw). */
const pane = (glass) => {
  const [c, s] = [Math.cos(CAMERA.pitch), Math.sin(CAMERA.pitch)];
  const toEye = [c * Math.sin(CAMERA.yaw), s, c * Math.cos(CAMERA.yaw)];
  return { type: 'box', name: 'pane', position: CAMERA.target.map((t, k) => t + 0.45 * toEye[k]),
    rotation: [0, Math.sin(CAMERA.yaw / 2), 0, Math.cos(CAMERA.yaw / 2)], halfExtents: [0.6, 0.6, 0.01], glass };
};

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

/**
 * Pauses the page and puts a world with one block of fluid in front of the camera. Through the scene format when
 * it knows fluids ({type: "fluid", block}); before that, through the world API (pbdjs_AddFluid) wrapped in a World.
 * Returns the particle count.
 */
async function showFluid(page, colliders = [CRATE]) {
  return page.evaluate(async ({ lower, upper, camera, colliders }) => {
    const { app } = window.minipbd;
    app.setPaused(true);
    const pbd = app.state.pbd;
    let world;
    let scene;
    try {
      world = pbd.createWorld({ format: 'minipbd-scene', version: 2, objects: [{ type: 'fluid', name: 'water', block: { lower, upper } }], colliders });
      scene = world.describe();
    } catch {
      const { World } = await import(new URL('js/engine/world.js', document.baseURI).href);
      const e = pbd.exports;
      const n = e.pbdjs_FluidBlockCount(...lower, ...upper, 0.02);
      const id = pbd.createWorldWith({ particles: n, constraints: 1, triangles: 1, lines: 1, attachments: 16, objects: 1, colliders: 1, tets: 1, skinVertices: 1, skinTriangles: 1, fluidParticles: n });
      pbd.check(e.pbdjs_AddFluid(id, ...lower, ...upper, 0, 0, 0, n), 'engine', id);
      scene = { objects: [{ type: 'fluid', name: 'water' }], colliders: [] };
      world = new World(pbd, id, scene);
    }
    app.state.world = world;
    window.minipbd.world = world;
    app.renderer.setWorld(world, scene);
    app.camera.set(camera);
    return world.objects[0].activeParticles;
  }, { lower: LOWER, upper: UPPER, camera: CAMERA, colliders });
}

/** The block's screen rectangle on a w x h shot, projected with the app's camera, and whether the frame drew water. */
async function blockOnShot(page, w, h) {
  return page.evaluate(({ w, h, lower, upper }) => {
    const { app } = window.minipbd;
    app.camera.update(w / h);
    const xs = [], ys = [];
    for (const x of [lower[0], upper[0]]) for (const y of [lower[1], upper[1]]) for (const z of [lower[2], upper[2]]) {
      const [px, py] = app.camera.project([x, y, z], w, h);
      xs.push(px); ys.push(py);
    }
    return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), water: app.renderer.lastFrameWater };
  }, { w, h, lower: LOWER, upper: UPPER });
}

/**
 * Screenshot the canvas and measure it inside the block's screen rectangle (shrunk to its middle half, where
 * there is fluid whatever the view) and in the top corners (sky, no fluid): blue fraction, mean colour, luma
 * spread, and the raw pixels of the middle for comparing two images. Decoded and measured in Node (decodePng):
 * the middle's pixels sent back from the page cost seconds of CPU a shot.
 */
async function measure(page) {
  const { width: w, height: h, data: d } = decodePng(await page.locator('#view').screenshot());
  const { x0, x1, y0, y1, water } = await blockOnShot(page, w, h);
  const box = (x0, x1, y0, y1) => {
    let blue = 0, n = 0, sum = 0, sum2 = 0, edges = 0;
    const luma = (i) => 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
    const mean = [0, 0, 0];
    const pixels = [];
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(h, Math.round(y1)); y++) {
      for (let x = Math.max(0, Math.round(x0)); x < Math.min(w, Math.round(x1)); x++) {
        const i = 4 * (y * w + x);
        const r = d[i], g = d[i + 1], b = d[i + 2];
        if (b > r + 40 && b > g + 10) blue++;
        const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        sum += l; sum2 += l * l; n++;
        if (x + 1 < w && Math.abs(luma(i + 4) - l) > 24) edges++; // a sharp step to the next pixel
        mean[0] += r; mean[1] += g; mean[2] += b;
        pixels.push(r, g, b);
      }
    }
    const m = sum / Math.max(n, 1);
    return { n, blue: blue / Math.max(n, 1), mean: mean.map((v) => v / Math.max(n, 1)),
      lumaStdDev: Math.sqrt(Math.max(0, sum2 / Math.max(n, 1) - m * m)), edges: edges / Math.max(n, 1), pixels };
  };
  const qx = (x1 - x0) / 4, qy = (y1 - y0) / 4;
  const inside = box(x0 + qx, x1 - qx, y0 + qy, y1 - qy);
  const corner = box(0, w * 0.1, 0, h * 0.1);
  return { inside, corner: { blue: corner.blue, mean: corner.mean }, water };
}

/** Mean absolute difference per channel between two measurements of the same rectangle. */
function difference(a, b) {
  assert.equal(a.pixels.length, b.pixels.length);
  let s = 0;
  for (let i = 0; i < a.pixels.length; i++) s += Math.abs(a.pixels[i] - b.pixels[i]);
  return s / Math.max(a.pixels.length, 1);
}

/**
 * Pixels of two screenshots of the canvas that differ by more than 24 in some channel, outside the block's screen
 * rectangle grown by an eighth of its size (where the water and its particles are drawn differently by design).
 */
async function outsideDifferences(page, pngA, pngB) {
  const A = decodePng(pngA), B = decodePng(pngB);
  const { x0, x1, y0, y1 } = await blockOnShot(page, A.width, A.height);
  const gx = (x1 - x0) / 8, gy = (y1 - y0) / 8;
  let n = 0;
  for (let y = 0; y < A.height; y++) {
    for (let x = 0; x < A.width; x++) {
      if (x > x0 - gx && x < x1 + gx && y > y0 - gy && y < y1 + gy) continue;
      const i = 4 * (y * A.width + x);
      if (Math.abs(A.data[i] - B.data[i]) > 24 || Math.abs(A.data[i + 1] - B.data[i + 1]) > 24 || Math.abs(A.data[i + 2] - B.data[i + 2]) > 24) n++;
    }
  }
  return n;
}

const summary = (m) => JSON.stringify({ water: m.water, blue: +m.inside.blue.toFixed(3), mean: m.inside.mean.map(Math.round),
  lumaStdDev: +m.inside.lumaStdDev.toFixed(1), edges: +m.inside.edges.toFixed(3), cornerBlue: m.corner.blue });

/** Asserts the frame drew water (the composite ran) and it is blue where the fluid is, not in the sky. */
function assertWater(m, what) {
  assert.equal(m.water, true, `${what}: the water pass ran (${summary(m)})`);
  assert.ok(m.inside.n > 400, `${what}: the block covers part of the view`);
  assert.ok(m.inside.blue > 0.6, `${what}: blue-ish water where the fluid is (${summary(m)})`);
  assert.ok(m.corner.blue < 0.05, `${what}: and not in the sky (${summary(m)})`);
}

function assertParticles(m, what) {
  assert.equal(m.water, false, `${what}: no water pass (${summary(m)})`);
  assert.ok(m.inside.blue > 0.3, `${what}: the fluid's particles are drawn, blue (${summary(m)})`);
}

test('a fluid draws as water, unlike its particles; the switch works both ways, also after a context loss', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    // At full resolution, as on a GPU: a software renderer's half-size picture, scaled up by the browser, has no
    // sharp pixel steps left to count (helpers.mjs fullResolution).
    await fullResolution(page);
    assert.equal(await page.evaluate(() => window.minipbd.app.renderer.waterUnavailable), null, 'float targets work in this browser');
    const n = await showFluid(page);
    assert.equal(n, 20 * 15 * 20, 'the block holds its lattice');
    await waitFrames(page, 3);
    const water = await measure(page);
    assertWater(water, 'water on');
    assert.equal(await page.evaluate(() => window.minipbd.app.renderer.fluidTargets.samples), 4, 'the scene is drawn multisampled');
    const waterShot = await page.locator('#view').screenshot();

    await page.uncheck('#water');
    await waitFrames(page, 3);
    const dots = await measure(page);
    assertParticles(dots, 'water off');
    // Outside the fluid the two frames are the same scene (the crate, the floor): the multisampled scene resolved
    // into the composite's texture (colour and depth) is what the canvas shows without the water pass. (SwiftShader
    // draws the same pixels single- and multisampled, so this checks the resolve is faithful, not the smoothing.)
    const changed = await outsideDifferences(page, waterShot, await page.locator('#view').screenshot());
    assert.ok(changed < 40, `outside the water, the water frame matches the particles frame (${changed} pixels differ)`);
    // The same fluid, drawn otherwise: the surface is smooth where the dots have dark rims.
    const diff = difference(water.inside, dots.inside);
    assert.ok(diff > 12, `water and particles differ where the fluid is (mean |difference| ${diff.toFixed(1)})`);
    assert.ok(water.inside.edges < 0.5 * dots.inside.edges,
      `the water has fewer sharp steps than its particles (${summary(water)} vs ${summary(dots)})`);

    await page.check('#water');
    await waitFrames(page, 3);
    const again = await measure(page);
    assertWater(again, 'water back on');
    assert.ok(difference(water.inside, again.inside) < 1, 'the same view draws the same water again');

    // Under the heat map the fluid is its particles, coloured by their density error (blue at 0).
    await page.check('#heat-map');
    await waitFrames(page, 3);
    assertParticles(await measure(page), 'heat map on');
    await page.uncheck('#heat-map');

    // Forced context loss and restore: both modes still draw.
    await page.evaluate(() => {
      window.__lose = window.minipbd.app.renderer.gl.getExtension('WEBGL_lose_context');
      window.__lose.loseContext();
    });
    await page.waitForFunction(() => window.minipbd.app.renderer.contextLost === true, null, { timeout: READY_TIMEOUT });
    await page.evaluate(() => window.__lose.restoreContext());
    await page.waitForFunction(() => window.minipbd.app.renderer.contextLost === false, null, { timeout: READY_TIMEOUT });
    await waitFrames(page, 3);
    const restored = await measure(page);
    assertWater(restored, 'after restore');
    assert.ok(difference(water.inside, restored.inside) < 1, 'the restored context draws the same water');
    await page.uncheck('#water');
    await waitFrames(page, 3);
    assertParticles(await measure(page), 'after restore, water off');
    await page.check('#water');
    await waitFrames(page, 3);
    assertWater(await measure(page), 'after restore, water on again');
    assert.deepEqual(problems.filter((p) => !/WebGL.*(lost|CONTEXT_LOST)/i.test(p)), []);
  } finally {
    await context.close();
  }
});

test('water behind a glass pane shows through it, as water and as particles; behind an opaque one it does not', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    const shot = async (colliders) => {
      await showFluid(page, colliders);
      await waitFrames(page, 3);
      return measure(page);
    };
    const bare = await shot([]);
    assertWater(bare, 'no pane');
    const glass = await shot([pane(true)]);
    assert.equal(await page.evaluate(() => window.minipbd.world.colliders[0].glass), true, 'the world reports the pane as glass');
    assertWater(glass, 'behind glass');
    const tinted = difference(bare.inside, glass.inside);
    assert.ok(tinted > 1 && tinted < 25, `the glass is there, faint: it changes the water's pixels a little (mean |difference| ${tinted.toFixed(1)})`);
    assert.ok(glass.inside.mean[2] > glass.inside.mean[0] + 60, `behind glass the pixels are water's blue (${summary(glass)})`);
    const opaque = await shot([pane(false)]);
    assert.ok(opaque.inside.blue < 0.05, `an opaque pane hides the water: the wall's grey where it is (${summary(opaque)})`);
    const covered = difference(bare.inside, opaque.inside);
    // Glass reflects some sky (Fresnel, ~4% a surface face-on) and tints a little; a wall replaces the water.
    assert.ok(covered > 2 * tinted, `the opaque pane changes far more than the glass one (${covered.toFixed(1)} vs ${tinted.toFixed(1)}; ${summary(bare)} ${summary(glass)} ${summary(opaque)})`);
    await page.uncheck('#water');
    await waitFrames(page, 3);
    const hidden = await measure(page);
    assert.ok(hidden.water === false && hidden.inside.blue < 0.05, `an opaque pane hides the particles too (${summary(hidden)})`);
    await page.check('#water');
    await showFluid(page, [pane(true)]);
    await page.uncheck('#water');
    await waitFrames(page, 3);
    assertParticles(await measure(page), 'particles behind glass');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('without float render targets the page draws the fluid as particles and says so', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: SMALL_VIEWPORT });
  await context.addInitScript(() => {
    const original = WebGL2RenderingContext.prototype.getExtension;
    WebGL2RenderingContext.prototype.getExtension = function getExtension(name) {
      return name === 'EXT_color_buffer_float' ? null : original.call(this, name);
    };
  });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    const reason = await page.evaluate(() => window.minipbd.app.renderer.waterUnavailable);
    assert.match(String(reason), /EXT_color_buffer_float/, 'the renderer knows why');
    const row = await page.evaluate(() => {
      const input = document.getElementById('water');
      return { disabled: input.disabled || input.closest('.lil-controller')?.classList.contains('disabled'),
        label: input.closest('.lil-controller')?.textContent ?? '' };
    });
    assert.ok(row.disabled, 'the Water switch is disabled');
    assert.match(row.label, /unavailable.*EXT_color_buffer_float.*particles/i, `and says why (${row.label})`);
    await showFluid(page);
    await waitFrames(page, 3);
    assertParticles(await measure(page), 'fallback');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('without multisampled renderbuffers the water still draws, single-sampled', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: SMALL_VIEWPORT });
  await context.addInitScript(() => {
    const original = WebGL2RenderingContext.prototype.getParameter;
    WebGL2RenderingContext.prototype.getParameter = function getParameter(name) {
      return name === this.MAX_SAMPLES ? 0 : original.call(this, name);
    };
  });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await showFluid(page);
    await waitFrames(page, 3);
    assertWater(await measure(page), 'single-sample scene');
    assert.deepEqual(await page.evaluate(() => {
      const t = window.minipbd.app.renderer.fluidTargets;
      return { samples: t.samples, msaa: t.sceneMsaa };
    }), { samples: 1, msaa: null }, 'the scene went straight to its texture');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a hose\'s new particles are drawn the frame they exist: live counts are read every frame', { timeout: TEST_TIMEOUT }, async (t) => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    const made = await page.evaluate(({ camera }) => {
      const { app } = window.minipbd;
      app.setPaused(true);
      try {
        app.loadScene({ format: 'minipbd-scene', version: 2, objects: [{ type: 'fluid', name: 'water', block: { lower: [-0.1, 0, -0.1], upper: [0.1, 0.1, 0.1] }, capacity: 3000,
          emitters: [{ position: [0, 0.6, 0], direction: [0, -1, 0], speed: 2, radius: 0.04, enabled: true }] }] });
      } catch (err) {
        return String(err?.message ?? err);
      }
      app.camera.set(camera);
      return null;
    }, { camera: CAMERA });
    if (made !== null && /not built yet/.test(made)) {
      t.skip(`the engine's emitters are not built yet (${made})`);
      return;
    }
    assert.equal(made, null, 'the hose scene builds');
    await waitFrames(page, 3);
    const before = await page.evaluate(() => ({ live: window.minipbd.app.renderer.fluids[0].live, topology: window.minipbd.world.topologyVersion }));
    assert.equal(before.live, 10 * 5 * 10, 'the block alone to begin with');
    for (const steps of [5, 20]) {
      const now = await page.evaluate(async (n) => {
        const { app, world } = window.minipbd;
        world.step(n);
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return { live: app.renderer.fluids[0].live, engine: world.liveParticles(0), stats: world.fluidStats().particles,
          cached: world.objects[0].activeParticles, topology: world.topologyVersion };
      }, steps);
      assert.ok(now.engine > before.live, `the hose added particles (${JSON.stringify(now)})`);
      assert.equal(now.live, now.engine, `the renderer draws the live count of this frame (${JSON.stringify(now)})`);
      assert.equal(now.stats, now.engine, 'the one the fluid statistics give');
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the embed element\'s water attribute: off draws particles, on (the default) water; switching keeps the world', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const name = '__water_embed.html';
  await page.route(`${env.url}${name}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html>
    <html><body style="margin:0"><minipbd-scene id="off" scene="dam-break" water="off" autoplay="off" style="width:400px;height:260px"></minipbd-scene>
    <minipbd-scene id="on" scene="dam-break" autoplay="off" style="width:400px;height:260px"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>` }));
  try {
    await page.goto(`${env.url}${name}`);
    const drawn = () => page.evaluate(() => ['off', 'on'].map((id) => {
      const r = document.getElementById(id)._renderer;
      return r && r.framesDrawn > 0 ? r.lastFrameWater : null;
    }));
    await page.waitForFunction(() => ['off', 'on'].every((id) => document.getElementById(id)._renderer?.framesDrawn > 0), null, { timeout: READY_TIMEOUT });
    assert.deepEqual(await drawn(), [false, true], 'water="off" draws particles, no attribute draws water');
    const world = await page.evaluate(() => {
      const off = document.getElementById('off');
      window.__world = off.world;
      off.setAttribute('water', 'on');
      document.getElementById('on').setAttribute('water', 'off');
      return off.world !== null;
    });
    assert.ok(world);
    await page.waitForFunction(() => document.getElementById('off')._renderer.lastFrameWater === true, null, { timeout: READY_TIMEOUT });
    await page.waitForFunction(() => document.getElementById('on')._renderer.lastFrameWater === false, null, { timeout: READY_TIMEOUT });
    assert.ok(await page.evaluate(() => document.getElementById('off').world === window.__world), 'the same world');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
