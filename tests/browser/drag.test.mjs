// drag.test.mjs — pointer input: dragging the cloth pulls the grabbed particle toward the pointer and
// lets go on release; dragging empty space orbits; the wheel zooms; two touches hold two particles.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, particleOnScreen, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

// Record attachment calls on the live world so the test sees exactly what input.js asked for.
async function instrumentAttachments(page) {
  await page.evaluate(() => {
    const w = window.minipbd.world;
    const log = (window.__att = { added: [], moved: 0, removed: [] });
    const add = w.addAttachment.bind(w), move = w.moveAttachment.bind(w), remove = w.removeAttachment.bind(w);
    w.addAttachment = (p, t, k) => { const id = add(p, t, k); log.added.push({ particle: p, target: [...t], stiffness: k, id }); return id; };
    w.moveAttachment = (id, t) => { log.moved++; log.last = [...t]; return move(id, t); };
    w.removeAttachment = (id) => { log.removed.push(id); return remove(id); };
  });
}

// A free cloth particle in the lower middle of the first cloth (away from the pins).
async function lowerMiddleParticle(page) {
  return page.evaluate(() => {
    const { world, scene } = window.minipbd;
    const k = scene.objects.findIndex((o) => o.type === 'cloth');
    const o = world.objects[k];
    const [cols, rows] = scene.objects[k].resolution;
    return o.firstParticle + Math.floor(rows * 0.7) * cols + Math.floor(cols / 2);
  });
}

test('dragging the cloth pulls the grabbed particle toward the pointer, release lets go', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 60); // let the cloth settle from its initial drop
    await instrumentAttachments(page);
    const i = await lowerMiddleParticle(page);
    const start = await particleOnScreen(page, i);

    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    // A press while a step is in flight waits for it (sim/driver.js), so the grab may come a frame later.
    await page.waitForFunction(() => window.__att.added.length > 0, null, { timeout: 5000 }).catch(() => {});
    const grabbed = await page.evaluate(() => window.__att.added[0]);
    assert.ok(grabbed, 'pointer down on the cloth adds an attachment');
    assert.equal(grabbed.stiffness, 1);
    const grabbedStart = await particleOnScreen(page, grabbed.particle);
    assert.ok(Math.hypot(grabbedStart.x - start.x, grabbedStart.y - start.y) < 25, 'the particle under the pointer was picked');
    assert.equal(await page.evaluate(() => window.minipbd.app.input.attachmentCount), 1);

    // To the right and up, within the particle's reach: the pointer pulls no particle farther from a pin than it is
    // at rest (services/reach.c pbd_Reach_Clamp). Straight right by 100 px (about 0.7 m) the target was past the
    // reach from the left pin, and the particle stopped 40 px short of it, above it.
    const to = { x: start.x + 70, y: start.y - 60 };
    await page.mouse.move(to.x, to.y, { steps: 10 });
    await waitSteps(page, 40);
    const held = await particleOnScreen(page, grabbed.particle);
    const moved = await page.evaluate(() => window.__att.moved);
    assert.ok(moved >= 1, 'pointer moves move the attachment');
    assert.ok(held.x - grabbedStart.x > 42, `particle followed the drag to the right (${(held.x - grabbedStart.x).toFixed(1)} px of 70)`);
    assert.ok(Math.hypot(held.x - to.x, held.y - to.y) < 25, `particle is near the pointer (${held.x.toFixed(0)},${held.y.toFixed(0)} vs ${to.x},${to.y})`);
    // It moved in world space as well, roughly within the plane facing the camera.
    const worldMove = Math.hypot(...held.world.map((v, k) => v - grabbedStart.world[k]));
    assert.ok(worldMove > 0.15, `particle moved ${worldMove.toFixed(3)} m`);

    await page.mouse.up();
    // A release while a step is in flight waits for it too (sim/driver.js), as the press above does.
    await page.waitForFunction(() => window.__att.removed.length > 0, null, { timeout: 5000 }).catch(() => {});
    const after = await page.evaluate(() => ({ removed: window.__att.removed, count: window.minipbd.app.input.attachmentCount, engineCount: window.minipbd.world.attachmentCount }));
    assert.deepEqual(after.removed, [grabbed.id], 'pointer up removes exactly that attachment');
    assert.equal(after.count, 0);
    if (after.engineCount !== undefined) assert.equal(after.engineCount, 0, 'engine holds no attachment');

    // Released, the cloth swings back toward where it hung.
    await waitSteps(page, 90);
    const released = await particleOnScreen(page, grabbed.particle);
    assert.ok(released.x < held.x - 30, `released particle swings back (${held.x.toFixed(0)} -> ${released.x.toFixed(0)})`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('dragging empty space orbits the camera and the wheel zooms, without grabbing anything', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await instrumentAttachments(page);
    const box = await page.locator('#view').boundingBox();
    const before = await page.evaluate(() => ({ ...window.minipbd.app.camera.toJSON() }));
    // Top-left corner of the view: sky, nothing to pick there.
    await page.mouse.move(box.x + 40, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + 160, box.y + box.height * 0.3 + 30, { steps: 6 });
    await page.mouse.up();
    const orbited = await page.evaluate(() => ({ ...window.minipbd.app.camera.toJSON() }));
    assert.ok(Math.abs(orbited.yaw - before.yaw) > 0.3, `yaw changed ${before.yaw} -> ${orbited.yaw}`);
    assert.ok(Math.abs(orbited.pitch - before.pitch) > 0.05, `pitch changed ${before.pitch} -> ${orbited.pitch}`);
    assert.equal(await page.evaluate(() => window.__att.added.length), 0, 'no attachment for a drag on empty space');

    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction((d) => window.minipbd.app.camera.distance > d * 1.2, orbited.distance);
    const zoomedOut = await page.evaluate(() => window.minipbd.app.camera.distance);
    await page.mouse.wheel(0, -800);
    await page.waitForFunction((d) => window.minipbd.app.camera.distance < d * 0.8, zoomedOut);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('two touches each hold their own particle (multi-touch by pointerId)', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 }, hasTouch: true });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await waitSteps(page, 60);
    await instrumentAttachments(page);
    const i = await lowerMiddleParticle(page);
    const cols = await page.evaluate(() => window.minipbd.scene.objects.find((o) => o.type === 'cloth').resolution[0]);
    const a = await particleOnScreen(page, i - Math.floor(cols / 4));
    const b = await particleOnScreen(page, i + Math.floor(cols / 4));
    const cdp = await context.newCDPSession(page);
    const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id })) });
    await touch('touchStart', [[a.x, a.y], [b.x, b.y]]);
    for (let s = 1; s <= 5; s++) await touch('touchMove', [[a.x - 12 * s, a.y + 8 * s], [b.x + 12 * s, b.y + 8 * s]]);
    const during = await page.evaluate(() => ({ added: window.__att.added, count: window.minipbd.app.input.attachmentCount, engine: window.minipbd.world.attachmentCount }));
    assert.equal(during.added.length, 2, 'one attachment per finger');
    assert.notEqual(during.added[0].particle, during.added[1].particle, 'different particles');
    assert.equal(during.count, 2);
    if (during.engine !== undefined) assert.equal(during.engine, 2);
    await touch('touchEnd', []);
    await page.waitForFunction(() => window.minipbd.app.input.attachmentCount === 0);
    const removed = await page.evaluate(() => window.__att.removed.sort());
    assert.deepEqual(removed, during.added.map((x) => x.id).sort(), 'both attachments removed on touch end');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
