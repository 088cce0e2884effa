// fluids.test.mjs — the fluid scenes in the page: every fluid built-in opens from the picker and runs
// (steps advance, the live water stays finite); a fluid scene's link reopens in a new page to the bits Node
// computes for it, and a recording with a hose switched replays bit for bit; a hose filling a small capacity
// makes the Fluid folder say so, as text; hostile fluid links are refused with their message while the running
// world stays exactly as it was; the Fluid folder's hose switch stops and restarts the emission.
// The page is stepped with app.setPaused / app.stepN / app.openLink (window.minipbd.app), not frame timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser, openPage, waitSteps, waitFrames, chooseScene, DIST, SMALL_VIEWPORT, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

// Node runs the very files the page is served.
const js = (f) => import(pathToFileURL(path.join(DIST, 'js', f)).href);
const { loadMiniPBD } = await js('minipbd.js');
const { builtinScenes } = await js('format/builtin-scenes.js');
const { encodeLink, decodeRun, base64urlEncode } = await js('format/link.js');
const { SCENE_LIMITS } = await js('format/limits.js');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(DIST, 'minipbd.wasm')));

const FLUID_IDS = ['dam-break', 'hammock', 'floating', 'swirl'];
const N = 15; // the dam is still falling: every step changes the bits
// The tests that read no pixel and drag nothing run at the half-size canvas: software WebGL's cost, the water's above
// all, is per pixel. The swirl test drags by pixels and keeps the default size.
const VIEW = { viewport: SMALL_VIEWPORT };

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

/** A link fragment made by hand (no validation on the way in: that is what a hostile link is). */
async function rawFragment(scene) {
  const bytes = new TextEncoder().encode(JSON.stringify(scene));
  const cs = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return `s=1.${base64urlEncode(new Uint8Array(await new Response(cs).arrayBuffer()))}`;
}

/** In the page: the world's hash, its step count, whether the live fluid ranges are finite, and the message. */
const look = (page) => page.evaluate(() => {
  const { world } = window.minipbd;
  const x = world.positions;
  const v = world.velocities;
  let finite = true, live = 0;
  for (const o of world.objects) {
    if (o.type !== 'fluid') continue;
    live += o.activeParticles;
    for (let i = 4 * o.firstParticle; i < 4 * (o.firstParticle + o.activeParticles); i++) finite &&= Number.isFinite(x[i]) && Number.isFinite(v[i]);
  }
  const box = document.getElementById('message');
  return { hash: world.hash(), steps: world.stats().steps, finite, live, name: window.minipbd.scene.name,
    message: box.hidden ? null : document.getElementById('message-text').textContent };
});

/** Node on the same wasm: the hash of `scene` after `steps` steps. */
function nodeHash(scene, steps) {
  const world = pbd.createWorld(scene);
  world.step(steps);
  const h = world.hash();
  world.destroy();
  return h;
}

test('every fluid built-in opens from the picker and runs: steps advance, the water stays finite', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, VIEW);
  try {
    for (const id of FLUID_IDS) {
      await chooseScene(page, id);
      const a = await look(page);
      await waitSteps(page, 5);
      const b = await look(page);
      assert.equal(a.message, null, `${id}: no error message`);
      assert.equal(a.name, builtinScenes[id].name, `${id}: the picked scene runs`);
      assert.ok(b.steps >= a.steps + 5, `${id}: steps advance (${a.steps} -> ${b.steps})`);
      assert.ok(a.live > 0 || id === 'hammock', `${id}: ${a.live} live fluid particles`);
      assert.ok(b.finite, `${id}: every live fluid position and velocity is finite`);
      assert.notEqual(b.hash, a.hash, `${id}: the world moved`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a fluid scene\'s link reopens to the bits Node computes; a recorded hose switch replays bit for bit', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const context = await env.browser.newContext(VIEW);
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'dam-break');
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=1.'), null, { timeout: READY_TIMEOUT });
    const url = await page.inputValue('#link-field');
    const fragment = new URL(url).hash.slice(1);
    const { scene } = await decodeRun(fragment);
    const { camera: _c, ...linked } = scene;
    const { camera: _b, ...builtin } = builtinScenes['dam-break'];
    assert.deepEqual(linked, builtin, 'the link carries the dam-break scene exactly');
    const expected = nodeHash(scene, N);
    assert.notEqual(expected, nodeHash(scene, N + 1), 'one more step gives other bits');

    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await page2.evaluate(async (n) => {
      const { app } = window.minipbd;
      app.setPaused(true);
      await app.openLink(location.hash, { fallback: false });
      app.stepN(n);
      const { world } = window.minipbd;
      return { hash: world.hash(), steps: world.stats().steps, name: window.minipbd.scene.name };
    }, N);
    assert.equal(got.name, scene.name);
    assert.equal(got.steps, N);
    assert.equal(got.hash, expected, `the reopened link after ${N} steps: page vs Node`);

    // Record on the hammock: the hose switched off and on from the panel (an "e" event), then replayed.
    await chooseScene(page, 'hammock');
    await page.click('#record');
    await waitSteps(page, 5);
    await page.locator('#fluid-hose-0').setChecked(false);
    await waitSteps(page, 5);
    await page.locator('#fluid-hose-0').setChecked(true);
    await waitSteps(page, 5);
    await page.click('#record');
    await page.waitForFunction(() => window.minipbd.app.recorder.last?.fragment, null, { timeout: READY_TIMEOUT });
    const last = await page.evaluate(() => ({ ...window.minipbd.app.recorder.last }));
    assert.ok(last.replay.events.some((e) => e[1] === 'e'), `the hose switch is recorded: ${JSON.stringify(last.replay.events)}`);
    const replayed = await page2.evaluate(async ({ fragment, n }) => {
      const { app } = window.minipbd;
      app.setPaused(true);
      await app.openLink(`#${fragment}`, { fallback: false });
      app.stepN(n);
      return app.recorder.lastReplay;
    }, { fragment: last.fragment, n: last.replay.steps });
    assert.equal(replayed.steps, last.replay.steps);
    assert.equal(replayed.exact, true, 'the replay ends on the recorded bits');
    assert.equal(replayed.hash, last.replay.hash);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('a hose that fills a small capacity: the Fluid folder says so, as text', { timeout: TEST_TIMEOUT }, async () => {
  const scene = {
    format: 'minipbd-scene', version: 2, name: 'A hose into a small capacity',
    objects: [{ type: 'fluid', name: 'water', block: { lower: [0, 0.5, 0], upper: [0.1, 0.6, 0.1] }, capacity: 200,
      emitters: [{ position: [0, 1, 0], direction: [0, -1, 0], speed: 2, radius: 0.05 }] }],
  };
  const { page, problems, context } = await openPage(env.browser, `${env.url}#${await encodeLink(scene)}`, VIEW);
  try {
    await page.waitForFunction((name) => window.minipbd.scene.name === name, scene.name, { timeout: READY_TIMEOUT });
    const measurable = await page.evaluate(() => { try { window.minipbd.world.fluidStats(); return null; } catch (e) { return e.message; } });
    assert.equal(measurable, null, 'the engine measures the fluid');
    await page.waitForFunction(() => !document.getElementById('fluid-full').hidden, null, { timeout: READY_TIMEOUT });
    const r = await page.evaluate(() => {
      const { world } = window.minipbd;
      const full = document.getElementById('fluid-full');
      return { text: full.textContent, html: full.innerHTML, stats: world.fluidStats(), live: world.objects[0].activeParticles,
        stats2: document.getElementById('fluid-stats').textContent };
    });
    assert.equal(r.live, 200, 'the capacity is full');
    assert.equal(r.stats.full, true);
    assert.match(r.text, /200/, `the message names the capacity: ${r.text}`);
    assert.equal(r.html, r.text, 'plain text, no markup');
    assert.match(r.stats2, /200/);
    // Full is not an error: nothing is lost, the world runs on and stays finite.
    const a = await look(page);
    await waitSteps(page, 5);
    const b = await look(page);
    assert.equal(b.message, null);
    assert.equal(b.live, 200);
    assert.ok(b.finite && b.steps > a.steps);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('hostile fluid links are refused with their message; the running world stays exactly as it was', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, VIEW);
  try {
    await chooseScene(page, 'swirl');
    await page.evaluate(() => window.minipbd.app.setPaused(true));
    const before = await look(page);
    const base = builtinScenes.swirl;
    const cases = [
      [(s) => { s.fluid.smoothingRadius = 0; }, 'fluid.smoothingRadius must be a number'],
      [(s) => { s.fluid.smoothingRadius = 1e9; }, 'fluid.smoothingRadius must be a number'],
      [(s) => { s.fluid.spacing = 0; }, 'fluid.spacing must be a number'],
      [(s) => { s.fluid.smoothingRadius = 0.02; }, 'fluid.smoothingRadius must be 1 to 4 times fluid.spacing'],
      [(s) => { s.fluid.smoothingRadius = 0.11; }, 'fluid.smoothingRadius must be 1 to 4 times fluid.spacing'],
      [(s) => { s.objects[0].capacity = SCENE_LIMITS.maxFluidParticles + 1; }, `objects[0].capacity must be an integer in 0..${SCENE_LIMITS.maxFluidParticles}`],
      [(s) => { s.objects.push({ ...s.objects[0], name: 'more', capacity: SCENE_LIMITS.maxFluidParticles }); }, `must have at most ${SCENE_LIMITS.maxFluidParticles} fluid particles in all`],
    ];
    for (const [edit, text] of cases) {
      const s = structuredClone(base);
      s.fluid = { ...s.fluid };
      edit(s);
      const fragment = await rawFragment(s);
      const after = await page.evaluate(async (f) => {
        await window.minipbd.app.openLink(`#${f}`, { fallback: false });
        return null;
      }, fragment).then(() => look(page));
      assert.ok(after.message?.includes(text), `${text}: shown (${after.message})`);
      assert.equal(after.name, before.name, `${text}: the scene keeps running`);
      assert.equal(after.steps, before.steps);
      assert.equal(after.hash, before.hash, `${text}: the world is as it was`);
    }
    // And the world still runs from there.
    await page.evaluate(() => window.minipbd.app.setPaused(false));
    await waitSteps(page, 3);
    assert.ok((await look(page)).finite);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the Fluid folder\'s hose switch stops and restarts the emission', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url, VIEW);
  try {
    await chooseScene(page, 'hammock');
    // From step 0, paused: the first water is still in the air above the cloth when the counts are taken.
    const fragment = await encodeLink(builtinScenes.hammock);
    await page.evaluate(async (f) => {
      window.minipbd.app.setPaused(true);
      await window.minipbd.app.openLink(`#${f}`, { fallback: false });
    }, fragment);
    assert.equal((await look(page)).steps, 0);
    const live = () => page.evaluate(() => window.minipbd.world.objects.find((o) => o.type === 'fluid').activeParticles);
    const stepN = (n) => page.evaluate((n) => window.minipbd.app.stepN(n), n);
    const hose = page.locator('#fluid-hose-0');
    assert.equal(await hose.isChecked(), true, 'the hose runs as the scene says');
    await stepN(5);
    const running = await live();
    assert.ok(running > 0, `the hose has poured ${running} particles`);
    await hose.setChecked(false);
    assert.equal(await page.evaluate(() => window.minipbd.scene.objects.find((o) => o.type === 'fluid').emitters[0].enabled), false,
      'the description follows the switch');
    await stepN(12);
    assert.equal(await live(), running, 'off: no particle added (none has reached the drain on the ground yet)');
    await hose.setChecked(true);
    await stepN(5);
    const again = await live();
    assert.ok(again > running, `on again: ${running} -> ${again}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('swirl: a press-and-drag on the glass leaves every wall where it was; the ball seen through the front glass is taken and moves', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'swirl');
    // Paused (a held collider then moves at once) and seen low from the front, so the ray to the ball crosses the
    // front wall (at the scene's camera it passes above the wall's top).
    await page.evaluate(() => {
      const { app } = window.minipbd;
      app.setPaused(true);
      app.camera.set({ target: [0, 0.1, 0], yaw: 0, pitch: 0.15, distance: 1.7, fov: 45 });
    });
    await waitFrames(page, 2);
    /** Page position of world point p, and what the first collider along the ray through it is, glass or not. */
    const probe = (p) => page.evaluate((p) => {
      const { world, app } = window.minipbd;
      const r = app.canvas.getBoundingClientRect();
      app.camera.update(r.width / r.height);
      const [x, y] = app.camera.project(p, r.width, r.height);
      const { origin, dir } = app.camera.rayFromPixel(x, y, r.width, r.height);
      const first = world.pickCollider(origin, dir);
      return { x: r.left + x, y: r.top + y, first: first ? first.index : -1, glass: first ? world.colliders[first.index].glass : false,
        hit: app.input.hitTest(r.left + x, r.top + y) };
    }, p);
    const colliders = () => page.evaluate(() => window.minipbd.world.colliders.map((c) => ({ name: c.name, glass: c.glass, position: c.position, rotation: c.rotation })));
    const drag = async (from, dx, dy) => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      const held = await page.evaluate(() => window.minipbd.app.input.heldColliders);
      for (let s = 1; s <= 8; s++) await page.mouse.move(from.x + (dx * s) / 8, from.y + (dy * s) / 8);
      await page.mouse.up();
      return held;
    };
    const start = await colliders();
    const ball = start.findIndex((c) => !c.glass);
    assert.equal(start.filter((c) => c.glass).length, 4, 'four glass walls');

    // The front wall's glass, to the right of the ball and above the water: the ray meets the glass first.
    const wall = await probe([0.3, 0.3, 0.42]);
    assert.ok(wall.first >= 0 && wall.glass, `the press is on glass (collider ${wall.first})`);
    assert.ok(wall.hit === null || wall.hit.kind !== 'collider' || !start[wall.hit.index].glass, `glass takes no press (${JSON.stringify(wall.hit)})`);
    const camera0 = await page.evaluate(() => window.minipbd.app.camera.toJSON());
    assert.deepEqual(await drag(wall, 120, 40), [], 'no collider held while dragging on the glass');
    const afterWall = await colliders();
    assert.deepEqual(afterWall, start, 'every wall (and the ball) is where it was');
    assert.notDeepEqual(await page.evaluate(() => window.minipbd.app.camera.toJSON()), camera0, 'the drag orbited the camera instead');

    // The ball behind the front glass: the ray meets the glass first, the press takes the ball, and it moves.
    await page.evaluate(() => window.minipbd.app.camera.set({ target: [0, 0.1, 0], yaw: 0, pitch: 0.15, distance: 1.7, fov: 45 }));
    const b = await probe(start[ball].position);
    assert.ok(b.glass, `the ray to the ball meets the glass first (collider ${b.first}: ${start[b.first]?.name})`);
    assert.deepEqual(b.hit && { kind: b.hit.kind, index: b.hit.index }, { kind: 'collider', index: ball }, 'the press takes the ball');
    assert.deepEqual(await drag(b, 100, 0), [ball], 'the ball is held');
    const end = await colliders();
    const moved = Math.hypot(...end[ball].position.map((v, k) => v - start[ball].position[k]));
    assert.ok(moved > 0.05, `the ball moved ${moved.toFixed(3)} m`);
    assert.equal(end[ball].position[1], start[ball].position[1], 'at its depth (the horizontal plane through the press)');
    assert.deepEqual(end.filter((c) => c.glass), start.filter((c) => c.glass), 'the walls stayed where they were');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
