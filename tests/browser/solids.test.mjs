// solids.test.mjs — soft and rigid bodies on the page: each solid built-in scene opens from the picker and from a
// link and draws its bodies (their colours where they are) with finite positions; the heat map shows a dragged
// soft body's stretch in red; the Bodies folder shows and sets a soft body's stiffness (edges, volume) and
// plasticity and a rigid body's stiffness; Download scene gives JSON that validates and rebuilds the same world,
// Open scene loads it, and a scene too large for a link says so; a drag of a body recorded on the page replays
// to the same bits in Node and in a new page; the embed element shows a solid scene.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openBrowser, openPage, waitSteps, waitFrames, canvasPixels, chooseScene, watchProblems, SMALL_VIEWPORT, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { encodeLink, decodeRun } from '../../web/js/format/link.js';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { Replayer } from '../../web/js/record/replayer.js';
import { validateScene } from '../../web/js/format/scene.js';
import { loadBuiltinScene } from '../../web/js/format/builtin-scenes.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const SOLID_SCENES = ['jelly', 'box-stack', 'bend-bar', 'trampoline', 'bunny'];

/** What the page runs: its bodies (type, particle and skin counts), whether every position is finite, any message. */
const running = (page) => page.evaluate(() => {
  const { world, scene } = window.minipbd;
  return {
    name: scene.name,
    bodies: world.objects.map((o, k) => ({ k, type: scene.objects[k].type, particles: o.particleCount, skin: o.skinTriangleCount }))
      .filter((b) => b.type === 'soft' || b.type === 'rigid'),
    finite: world.positions.every(Number.isFinite),
    message: document.getElementById('message').hidden ? null : document.getElementById('message-text').textContent,
  };
});

function assertBodiesDrawn(key, info, px) {
  assert.equal(info.message, null, `${key}: no error message`);
  assert.ok(info.bodies.length > 0, `${key}: has bodies`);
  for (const b of info.bodies) assert.ok(b.skin > 0 && b.particles > 0, `${key}: body ${b.k} has particles and a skin`);
  assert.ok(info.finite, `${key}: positions are finite`);
  if (info.bodies.some((b) => b.type === 'soft')) assert.ok(px.softFraction > 0.003, `${key}: soft bodies drawn in their colour (${(px.softFraction * 100).toFixed(2)}%)`);
  if (info.bodies.some((b) => b.type === 'rigid')) assert.ok(px.rigidFraction > 0.003, `${key}: rigid bodies drawn in their colour (${(px.rigidFraction * 100).toFixed(2)}%)`);
}

test('each solid scene opens from the picker and from a link, draws its bodies and runs finite', { timeout: TEST_TIMEOUT * 4 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    for (const key of SOLID_SCENES) {
      await chooseScene(page, key);
      await waitSteps(page, 30);
      await waitFrames(page, 2);
      assertBodiesDrawn(key, await running(page), await canvasPixels(page));
      assert.deepEqual(problems, [], `${key}: no console errors`);
    }
    // From a link (a scene whose mesh is too large for one is the share test's).
    for (const key of SOLID_SCENES) {
      const builtin = await loadBuiltinScene(key);
      let fragment;
      try {
        fragment = await encodeLink(builtin);
      } catch (err) {
        assert.match(err.message, /too large for a link/, `${key}: only a mesh too large for a link is refused`);
        continue;
      }
      await page.goto(`${env.url}#${fragment}`);
      await page.waitForFunction((name) => window.minipbd?.ready && window.minipbd.scene?.name === name, builtin.name, { timeout: READY_TIMEOUT });
      await waitSteps(page, 20);
      await waitFrames(page, 2);
      const info = await running(page);
      assert.equal(await page.locator('#scene-select').inputValue(), key, `${key}: the link's scene is the built-in`);
      assertBodiesDrawn(`${key} (link)`, info, await canvasPixels(page));
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the heat map shows solid bodies: blue at rest, red where a dragged soft body is stretched', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    // One soft cube standing on the ground, its bottom face pinned, seen from the front. Tethers off: with them the
    // pointer pulls no particle farther from the pinned face than at rest (services/reach.c pbd_Reach_Clamp), and
    // the pull below would stretch the cube's edges 9% at most.
    await page.evaluate(() => window.minipbd.app.loadScene({
      format: 'minipbd-scene', version: 2, name: 'cube', solver: { tethers: 0 },
      camera: { target: [0, 0.3, 0], yaw: 0, pitch: 0.15, distance: 2.2, fov: 45 },
      objects: [{ type: 'soft', shape: 'box', position: [0, 0.21, 0], halfExtents: [0.2, 0.2, 0.2], resolution: 5, mass: 1, stiffness: { edge: 0.5, volume: 1 },
        pinBoxes: [{ min: [-1, -1, -1], max: [1, -0.19, 1] }] }],
    }));
    await waitSteps(page, 60);
    await page.check('#heat-map');
    await waitFrames(page, 4);
    const rest = await canvasPixels(page);
    const restError = await page.evaluate(() => { window.minipbd.world.updateErrors(); return Math.max(...window.minipbd.world.errors); });
    assert.ok(restError < 0.1, `errors at rest are small (${restError.toFixed(3)})`);
    assert.ok(rest.softFraction < 0.002, `the cube's skin gives way to its particles (${rest.softFraction})`);
    assert.ok(rest.backFraction > 0.01, `blue at rest (${rest.backFraction})`);
    // Pull its top centre far up: the edges near the pull stretch past 10%.
    const top = await page.evaluate(() => {
      const { world, app } = window.minipbd;
      const o = world.objects[0];
      const P = world.positions;
      let best = -1, bestD = Infinity;
      for (let i = o.firstParticle; i < o.firstParticle + o.particleCount; i++) {
        const d = P[4 * i] ** 2 + P[4 * i + 2] ** 2 - 10 * P[4 * i + 1]; // high and central
        if (d < bestD) { bestD = d; best = i; }
      }
      const r = app.canvas.getBoundingClientRect();
      app.camera.update(r.width / r.height);
      const [x, y] = app.camera.project([P[4 * best], P[4 * best + 1], P[4 * best + 2]], r.width, r.height);
      return { x: r.left + x, y: r.top + y };
    });
    await page.mouse.move(top.x, top.y);
    await page.mouse.down();
    await page.mouse.move(top.x + 30, top.y - 230, { steps: 8 });
    await waitSteps(page, 30);
    await waitFrames(page, 2);
    const pulled = await canvasPixels(page);
    const maxError = await page.evaluate(() => { window.minipbd.world.updateErrors(); return Math.max(...window.minipbd.world.errors); });
    await page.mouse.up();
    assert.ok(maxError >= 0.1, `the pull stretches some constraints past 10% (${maxError.toFixed(3)})`);
    assert.ok(pulled.clothFraction > 3 * rest.clothFraction + 0.001, `red where it is stretched (${rest.clothFraction.toFixed(4)} -> ${pulled.clothFraction.toFixed(4)})`);
    await page.uncheck('#heat-map');
    await waitFrames(page, 3);
    assert.ok((await canvasPixels(page)).softFraction > 0.01, 'off again, the skin is back');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// Set a number field with real keys: Home or End, then arrow steps.
async function setField(page, selector, { from = 'Home', steps = 0 }) {
  await page.locator(selector).focus();
  await page.keyboard.press(from);
  for (let k = 0; k < steps; k++) await page.keyboard.press(from === 'Home' ? 'ArrowUp' : 'ArrowDown');
}

test('the Bodies folder shows and sets a soft body\'s stiffness and plasticity and a rigid body\'s stiffness', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    await chooseScene(page, 'jelly');
    const k = await page.evaluate(() => window.minipbd.scene.objects.findIndex((o) => o.type === 'soft'));
    const fields = await page.evaluate((k) => [...document.querySelectorAll(`#body-${k} [data-body-field]`)].map((el) => el.dataset.bodyField), k);
    assert.deepEqual(fields, ['mass', 'stiffness.edge', 'stiffness.volume', 'plasticity.yield', 'plasticity.creep', 'plasticity.max', 'particleRadius']);
    assert.equal(await page.locator(`#body-${k}-title`).textContent(), await page.evaluate((k) => window.minipbd.scene.objects[k].name, k));
    assert.ok(await page.locator('#folder-bodies').isVisible());

    await setField(page, `#body-${k}-stiffness-volume`, { from: 'Home', steps: 30 }); // 0.30
    await setField(page, `#body-${k}-stiffness-edge`, { from: 'End', steps: 50 }); // 0.50
    await setField(page, `#body-${k}-plasticity-creep`, { from: 'Home', steps: 20 }); // 2 per second
    await setField(page, `#body-${k}-plasticity-yield`, { from: 'Home', steps: 1 }); // 0.01
    const read = await page.evaluate((k) => {
      const { world, scene } = window.minipbd;
      const e = world.engine.exports;
      const heap = world.engine.heap;
      e.pbd_World_GetObjectPlasticity(world.id, k, heap.scratch);
      const f32 = new Float32Array(heap.memory.buffer, heap.scratch, 3);
      return { stiffness: scene.objects[k].stiffness, plasticity: scene.objects[k].plasticity, engine: [...f32] };
    }, k);
    assert.ok(Math.abs(read.stiffness.volume - 0.3) < 1e-9 && Math.abs(read.stiffness.edge - 0.5) < 1e-9, JSON.stringify(read.stiffness));
    assert.ok(Math.abs(read.plasticity.creep - 2) < 1e-9 && Math.abs(read.plasticity.yield - 0.01) < 1e-9, JSON.stringify(read.plasticity));
    assert.ok(Math.abs(read.engine[1] - 2) < 1e-6 && Math.abs(read.engine[0] - 0.01) < 1e-6, `the engine has the plasticity (${read.engine})`);
    // Reset keeps them (they are in the description).
    await page.click('#reset');
    await waitSteps(page, 2);
    assert.equal(await page.evaluate((k) => window.minipbd.scene.objects[k].plasticity.creep, k), 2);

    await chooseScene(page, 'box-stack');
    const r = await page.evaluate(() => window.minipbd.scene.objects.findIndex((o) => o.type === 'rigid'));
    const rigidFields = await page.evaluate((r) => [...document.querySelectorAll(`#body-${r} [data-body-field]`)].map((el) => el.dataset.bodyField), r);
    const stiffnessField = rigidFields.find((f) => f.startsWith('stiffness.'));
    assert.ok(stiffnessField, `a rigid body has its stiffness (${rigidFields})`);
    const kind = stiffnessField.slice('stiffness.'.length);
    await setField(page, `#body-${r}-stiffness-${kind}`, { from: 'End', steps: 20 }); // 0.80
    const rigidStiffness = await page.evaluate((r) => window.minipbd.scene.objects[r].stiffness, r);
    assert.ok(Math.abs((typeof rigidStiffness === 'number' ? rigidStiffness : rigidStiffness[kind]) - 0.8) < 1e-9, `set: ${JSON.stringify(rigidStiffness)}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('with ?lang=zh the Bodies and Files folders speak Chinese', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, `${env.url}?lang=zh`, { viewport: SMALL_VIEWPORT });
  try {
    await chooseScene(page, 'jelly');
    const k = await page.evaluate(() => window.minipbd.scene.objects.findIndex((o) => o.type === 'soft'));
    const label = (sel) => page.locator(sel).evaluate((el) => el.getAttribute('aria-labelledby').split(' ').map((id) => document.getElementById(id).textContent).join(' '));
    assert.equal(await page.locator('#folder-bodies-title').textContent(), '软体与刚体');
    assert.equal(await page.locator('#folder-files-title').textContent(), '场景文件与模型');
    assert.equal(await page.locator('#scene-title').textContent(), '果冻：软体方块和球落到地面上，彼此相撞');
    const name = await page.evaluate((k) => window.minipbd.scene.objects[k].name, k);
    assert.equal(await label(`#body-${k}-mass`), `${name} 质量（千克）`);
    assert.equal(await label(`#body-${k}-stiffness-volume`), `${name} 软体体积`);
    assert.equal(await label(`#body-${k}-plasticity-yield`), `${name} 屈服应变`);
    assert.equal((await page.locator('#download-scene').textContent()).trim(), '下载场景');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Download scene gives JSON that validates and rebuilds the same world; Open scene loads it; a mesh too large for a link says so', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, { viewport: SMALL_VIEWPORT });
  try {
    await chooseScene(page, 'jelly');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-scene')]);
    assert.match(download.suggestedFilename(), /\.json$/);
    const text = fs.readFileSync(await download.path(), 'utf8');
    const saved = JSON.parse(text);
    const valid = validateScene(saved);
    const jelly = await loadBuiltinScene('jelly');
    assert.equal(valid.name, jelly.name);
    const same = await page.evaluate((saved) => {
      const { world, scene, app } = window.minipbd;
      const pbd = app.state.pbd;
      const a = pbd.createWorld(saved), b = pbd.createWorld(scene);
      const first = [a.hash(), b.hash(), a.particleCount === world.particleCount];
      a.step(30); b.step(30);
      const out = [...first, a.hash() === b.hash()];
      a.destroy(); b.destroy();
      return out;
    }, saved);
    assert.equal(same[0], same[1], 'the saved scene builds the same world');
    assert.ok(same[2] && same[3], 'with the same particles, and it runs the same');

    // Open scene: the file picker gets it back (after another scene).
    await chooseScene(page, 'chain');
    await page.setInputFiles('#open-file', { name: 'jelly.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction((name) => window.minipbd.scene.name === name, jelly.name, { timeout: READY_TIMEOUT });
    assert.equal(await page.evaluate(() => document.getElementById('message').hidden), true);

    // The bunny's mesh does not fit a link: the share button says so.
    await chooseScene(page, 'bunny');
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('link-status').textContent !== '', null, { timeout: READY_TIMEOUT });
    assert.match(await page.locator('#link-status').textContent(), /too large for a link.*Download scene/);
    assert.equal(await page.inputValue('#link-field'), '');
    assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
  } finally {
    await context.close();
  }
});

test('a drag of a rigid body recorded on the page replays to the same bits, in Node and in a new page', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'box-stack');
    await page.click('#record');
    await page.waitForFunction(() => window.minipbd.app.recorder.recording);
    await waitSteps(page, 10);
    // Grab the ball (the last object) at its centre and push it into the stack.
    const at = await page.evaluate(() => {
      const { world, app } = window.minipbd;
      const o = world.objects[world.objects.length - 1];
      const P = world.positions;
      const c = [0, 0, 0];
      for (let i = o.firstParticle; i < o.firstParticle + o.particleCount; i++) for (let a = 0; a < 3; a++) c[a] += P[4 * i + a] / o.particleCount;
      const r = app.canvas.getBoundingClientRect();
      app.camera.update(r.width / r.height);
      const [x, y] = app.camera.project(c, r.width, r.height);
      return { x: r.left + x, y: r.top + y, first: o.firstParticle, count: o.particleCount };
    });
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    const held = await page.evaluate(() => window.minipbd.app.input.heldParticles[0]);
    assert.ok(held >= at.first && held < at.first + at.count, `the press took the ball (${held})`);
    for (let k = 1; k <= 6; k++) {
      await page.mouse.move(at.x - 25 * k, at.y - 10 * k, { steps: 2 });
      await waitSteps(page, 2);
    }
    await page.mouse.up();
    await waitSteps(page, 15);
    await page.click('#record');
    await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=2.'), null, { timeout: READY_TIMEOUT });
    const rec = await page.evaluate(() => window.minipbd.app.recorder.last);
    assert.equal(rec.reason, 'stopped');
    assert.ok(rec.replay.events.some((e) => e[1] === 'g'), 'the grab was recorded');
    // Node replays the link to the bits the page had when the recording stopped.
    const { scene, replay } = await decodeRun(rec.fragment);
    const pbd = await loadMiniPBD(fs.readFileSync(new URL('../../dist/minipbd.wasm', import.meta.url)));
    const world = pbd.createWorld(scene);
    let ended = null;
    new Replayer(world, replay, { onEnd: (r) => { ended = r; } });
    world.step(replay.steps);
    assert.equal(world.hash(), replay.hash, 'Node replays the page\'s recording of a body to the same bits');
    assert.equal(ended.exact, true);
    world.destroy();
    // And so does a new page opening the link.
    const second = await openPage(env.browser, `${env.url}#${rec.fragment}`, { context });
    await second.page.waitForFunction(() => window.minipbd.app.recorder.lastReplay !== null, null, { timeout: READY_TIMEOUT * 2 });
    const result = await second.page.evaluate(() => window.minipbd.app.recorder.lastReplay);
    assert.equal(result.hash, replay.hash);
    assert.equal(result.exact, true);
    assert.deepEqual([...problems, ...second.problems], []);
  } finally {
    await context.close();
  }
});

test('the embed element shows a solid scene', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 600 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  try {
    const html = `<!doctype html><html><body style="margin:0">
      <minipbd-scene id="a" scene="box-stack" style="display:block;width:640px;height:420px"></minipbd-scene>
      <script>window.__loaded = false; document.getElementById('a').addEventListener('load', () => { window.__loaded = true; });</script>
      <script type="module" src="./js/embed.js"></script></body></html>`;
    await page.route(`${env.url}__solids.html`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}__solids.html`);
    await page.waitForFunction(() => window.__loaded === true, null, { timeout: READY_TIMEOUT });
    await page.waitForFunction(() => document.getElementById('a').world.stats().steps > 20, null, { timeout: READY_TIMEOUT });
    const bodies = await page.evaluate(() => document.getElementById('a').world.objects.filter((o) => o.skinTriangleCount > 0).length);
    assert.ok(bodies >= 10, `the boxes and the ball (${bodies})`);
    const png = await page.locator('#a').screenshot();
    const rigid = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const ctx = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
      ctx.drawImage(bmp, 0, 0);
      const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] > d[i + 2] + 50 && d[i + 1] > d[i + 2] + 30 && d[i] >= d[i + 1] && d[i] - d[i + 1] < 60) n++;
      return n / (d.length / 4);
    }, png.toString('base64'));
    assert.ok(rigid > 0.005, `the boxes are drawn (${(rigid * 100).toFixed(2)}% of the element)`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
