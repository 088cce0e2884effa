// colliders.test.mjs — colliders on the page: a press picks the nearer of particle and collider along the
// ray; dragging the ball of the cloth-sphere scene moves it (kinematically, in the horizontal plane through the
// press; with Shift, up and down in the upright plane facing the camera) and the cloth on it goes along; a released collider stays put and Reset puts it back. Tearing: a hard drag
// on the flag rips it (fewer triangles, new topology version, same particles) and the page keeps drawing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, chooseScene, particleOnScreen, canvasPixels, colliderOnScreen, pointOnCollider, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

/** Press on a bare patch of collider i (retrying if the cloth moved over it meanwhile). */
async function pressCollider(page, i) {
  for (let attempt = 0; attempt < 4; attempt++) {
    const spot = await pointOnCollider(page, i);
    if (!spot) return null;
    await page.mouse.move(spot.x, spot.y);
    await page.mouse.down();
    const held = await page.evaluate(() => window.minipbd.app.input.heldColliders);
    if (held.length === 1 && held[0] === i) return spot;
    await page.mouse.up();
    await waitSteps(page, 2);
  }
  return null;
}

const clothMean = (page) => page.evaluate(() => {
  const { world } = window.minipbd;
  const P = world.positions;
  const n = world.particleCount;
  const m = [0, 0, 0];
  for (let k = 0; k < n; k++) for (let a = 0; a < 3; a++) m[a] += P[4 * k + a] / n;
  return m;
});

const sub = (a, b) => a.map((v, k) => v - b[k]);
const len = (v) => Math.hypot(...v);
const dot = (a, b) => a.reduce((s, v, k) => s + v * b[k], 0);

test('dragging the ball moves the collider toward the pointer and the cloth goes along; release leaves it there', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'cloth-sphere');
    await waitSteps(page, 120); // the sheet falls onto the ball and settles
    const start = await colliderOnScreen(page, 0);
    // A press on the cloth lying on top of the ball takes the cloth (the nearer hit).
    const top = await page.evaluate(({ x, y }) => window.minipbd.app.input.hitTest(x, y), { x: start.x, y: start.y - start.radius * 0.8 });
    assert.equal(top?.kind, 'particle', 'the cloth over the ball is nearer than the ball');

    const cloth0 = await clothMean(page);
    const spot = await pressCollider(page, 0);
    assert.ok(spot, 'a press on the bare part of the ball takes the ball');
    assert.equal(await page.evaluate(() => window.minipbd.world.attachmentCount), 0, 'no particle attachment for a collider');
    // Drag right, in small moves with simulation steps in between (as a hand would).
    const dragPx = 160;
    for (let s = 1; s <= 16; s++) {
      await page.mouse.move(spot.x + (dragPx * s) / 16, spot.y);
      await waitSteps(page, 2);
    }
    await waitSteps(page, 60);
    const held = await colliderOnScreen(page, 0);
    assert.ok(held.x - start.x > dragPx * 0.8, `the ball followed the pointer (${(held.x - start.x).toFixed(0)} of ${dragPx} px)`);
    assert.ok(Math.abs(held.y - start.y) < 15, `and stayed at its height on screen (${(held.y - start.y).toFixed(1)} px)`);
    const moved = sub(held.position, start.position);
    // In the horizontal plane through the hit point: the ball keeps its height exactly (a drag through water
    // keeps its depth; until the fluids' swirl scene a collider moved in the plane facing the camera).
    assert.ok(len(moved) > 0.3, `the ball moved ${len(moved).toFixed(2)} m`);
    assert.equal(held.position[1], start.position[1], 'the ball kept its height');
    const cloth1 = await clothMean(page);
    const along = dot(sub(cloth1, cloth0), moved) / len(moved);
    assert.ok(along > 0.15, `the cloth went along with the ball (${along.toFixed(2)} m of ${len(moved).toFixed(2)} m)`);
    assert.ok(cloth1[1] > 0.3, `the cloth is still on the ball (mean height ${cloth1[1].toFixed(2)} m)`);

    // Shift held: up and down, in the upright plane through the held point facing the camera.
    await page.keyboard.down('Shift');
    for (let s = 1; s <= 8; s++) {
      await page.mouse.move(spot.x + dragPx, spot.y - 5 * s);
      await waitSteps(page, 2);
    }
    await waitSteps(page, 30);
    await page.keyboard.up('Shift');
    const lifted = await colliderOnScreen(page, 0);
    const rise = lifted.position[1] - held.position[1];
    const forward = await page.evaluate(() => window.minipbd.app.camera.forward);
    const flat = Math.hypot(forward[0], forward[2]);
    const across = (lifted.position[0] - held.position[0]) * forward[0] / flat + (lifted.position[2] - held.position[2]) * forward[2] / flat;
    assert.ok(rise > 0.1, `with Shift the ball rose ${rise.toFixed(3)} m`);
    assert.ok(Math.abs(across) < 1e-3, `in the upright plane facing the camera (${across.toFixed(4)} m toward the view)`);

    await page.mouse.up();
    assert.deepEqual(await page.evaluate(() => window.minipbd.app.input.heldColliders), []);
    const released = (await colliderOnScreen(page, 0)).position;
    await waitSteps(page, 30);
    assert.deepEqual((await colliderOnScreen(page, 0)).position, released, 'a released collider stays where it was left');

    // The scene (links, Reset) keeps the ball where the scene puts it; Reset brings it back.
    await page.click('#reset');
    await waitSteps(page, 2);
    const reset = (await colliderOnScreen(page, 0)).position;
    assert.ok(len(sub(reset, start.position)) < 1e-6, `Reset puts the ball back (${reset})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('two touches: one finger moves the ball while another pulls the cloth; paused, the ball moves at once', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 }, hasTouch: true });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'cloth-sphere');
    // Paused at the start the sheet still floats above the ball, so both are in plain view.
    await page.click('#reset');
    await page.click('#pause');
    const ball = await pointOnCollider(page, 0);
    assert.ok(ball?.score === 8, 'the ball is in plain view');
    const sheet = await page.evaluate(() => window.minipbd.world.objects[0]);
    const n = sheet.resolutionU;
    const corner = await particleOnScreen(page, sheet.firstParticle + n * (n - 8) + (n - 8)); // near a corner of the sheet
    const before = await colliderOnScreen(page, 0);
    const ball0 = before.position;
    const cdp = await context.newCDPSession(page);
    const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id })) });
    await touch('touchStart', [[ball.x, ball.y], [corner.x, corner.y]]);
    for (let s = 1; s <= 5; s++) await touch('touchMove', [[ball.x - 12 * s, ball.y], [corner.x + 6 * s, corner.y - 10 * s]]);
    const during = await page.evaluate(() => ({
      colliders: window.minipbd.app.input.heldColliders,
      particles: window.minipbd.app.input.heldParticles.length,
      engine: window.minipbd.world.attachmentCount,
    }));
    assert.deepEqual(during.colliders, [0], 'the first finger holds the ball');
    assert.equal(during.particles, 1, 'the second finger holds a cloth particle');
    assert.equal(during.engine, 1);
    await touch('touchEnd', []);
    await page.waitForFunction(() => window.minipbd.app.input.heldColliders.length === 0 && window.minipbd.world.attachmentCount === 0);
    const held = await colliderOnScreen(page, 0);
    assert.ok(before.x - held.x > 40, `while paused the ball followed the finger at once (${(before.x - held.x).toFixed(0)} of 60 px)`);
    assert.ok(len(sub(held.position, ball0)) > 0.1, 'the ball was moved');
    await page.click('#pause');
    await waitSteps(page, 10);
    assert.deepEqual((await colliderOnScreen(page, 0)).position, held.position, 'a released ball stays where it was left');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a hard drag tears the flag: fewer triangles, new topology, same particles, still drawn', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'flag');
    await waitSteps(page, 30);
    const before = await page.evaluate(() => {
      const w = window.minipbd.world;
      return { triangles: w.triangles.length / 3, topology: w.topologyVersion, particles: w.particleCount };
    });
    // Grab a free particle in the middle of the flag (the flag moves in the wind: check what was taken).
    const { firstParticle } = await page.evaluate(() => window.minipbd.world.objects[0]);
    let grabbed = false;
    for (let attempt = 0; attempt < 5 && !grabbed; attempt++) {
      const p = await particleOnScreen(page, firstParticle + 15 * 48 + 30);
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      grabbed = (await page.evaluate(() => window.minipbd.app.input.heldParticles.length)) === 1;
      if (!grabbed) await page.mouse.up();
    }
    assert.ok(grabbed, 'a flag particle was grabbed');
    const from = await page.evaluate(() => window.minipbd.app.input.pointers.values().next().value.point);
    const p = await particleOnScreen(page, await page.evaluate(() => window.minipbd.app.input.heldParticles[0]));
    // Yank it far down and to the right at once: the links around it stretch far past the tear threshold.
    await page.mouse.move(p.x + 350, p.y + 250, { steps: 3 });
    await page.waitForFunction((t) => window.minipbd.world.topologyVersion !== t, before.topology, { timeout: 60_000 });
    await waitSteps(page, 20);
    await page.mouse.up();
    await waitFrames(page, 3);
    const after = await page.evaluate(() => {
      const w = window.minipbd.world;
      return { triangles: w.triangles.length / 3, topology: w.topologyVersion, particles: w.particleCount, drawn: window.minipbd.app.renderer.triIndexCount / 3 };
    });
    assert.ok(from, 'drag started from a hit point');
    assert.ok(after.triangles < before.triangles, `the flag tore: ${before.triangles} -> ${after.triangles} triangles`);
    assert.notEqual(after.topology, before.topology, 'the topology version moved');
    assert.equal(after.particles, before.particles, 'tearing keeps every particle');
    assert.equal(after.drawn, after.triangles, 'the renderer re-uploaded the smaller triangle list');
    const px = await canvasPixels(page);
    assert.ok(px.clothFraction > 0.01, `the torn flag is still drawn (${(px.clothFraction * 100).toFixed(1)}%)`);
    assert.deepEqual(problems, [], 'no GL errors or console warnings after tearing');
  } finally {
    await context.close();
  }
});
