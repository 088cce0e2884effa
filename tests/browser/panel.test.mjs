// panel.test.mjs — the lil-gui panel: every parameter control changes the engine parameter it names (and the
// loop, the renderer's view and the scene description follow), masses per object, each collider's friction and
// bounce, the speed limit, tether slack and self-friction, the velocity-arrows switch; the Cloth, Colliders and
// Wind sections are labelled, reachable with the keyboard and shown only for scenes they apply to; Reset and
// the copied link carry the changes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser, openPage, waitSteps, chooseScene, DIST, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

// The link codec the page is served, run here to read what a copied link carries.
const { decodeLink } = await import(pathToFileURL(path.join(DIST, 'js', 'format', 'link.js')).href);

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const getParams = (page, names) => page.evaluate((names) => Object.fromEntries(names.map((n) => [n, window.minipbd.world.getParam(n)])), names);

async function press(page, selector, ...keys) {
  await page.locator(selector).focus();
  for (const k of keys) await page.keyboard.press(k);
}

async function copyLink(page) {
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=1.'), null, { timeout: READY_TIMEOUT });
  return page.inputValue('#link-field');
}

const close = (a, b, eps = 1e-4) => Math.abs(a - b) < eps;

test('every solver, stiffness and contact control reaches the world, the loop, the view and the scene', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'cloth');
    // Passes with the keyboard (the field is a spinbutton): the world, its description and the field agree.
    await press(page, '#param-iterations', 'ArrowUp', 'ArrowUp', 'ArrowUp');
    let r = await page.evaluate(() => ({
      engine: window.minipbd.world.getParam('iterations'),
      described: window.minipbd.world.describe().solver.iterations,
      scene: window.minipbd.scene.solver.iterations,
      field: document.getElementById('param-iterations').value,
      now: document.getElementById('param-iterations').getAttribute('aria-valuenow'),
    }));
    assert.deepEqual(r, { engine: 4, described: 4, scene: 4, field: '4', now: '4' });

    // Each number field, from its Home end: [id, key presses, engine name, expected engine value].
    const cases = [
      ['#param-substeps', ['Home', 'ArrowUp'], 'substeps', 2],
      ['#param-damping', ['Home', 'ArrowUp', 'ArrowUp'], 'damping', 0.1],
      ['#param-gravityX', ['Home', 'PageUp'], 'gravityX', -19],
      ['#param-gravityZ', ['End', 'PageDown'], 'gravityZ', 19],
      ['#param-stiffness-shear', ['Home', 'ArrowUp'], 'stiffness.shear', 0.01],
      ['#param-groundHeight', ['Home', 'PageUp'], 'groundHeight', -0.5],
      ['#param-restitution', ['End'], 'restitution', 1],
      ['#param-staticFriction', ['Home', 'ArrowUp'], 'staticFriction', 0.05],
      ['#param-kineticFriction', ['End'], 'kineticFriction', 2],
      ['#param-thickness', ['Home'], 'thickness', 0.002],
    ];
    for (const [id, keys, name, want] of cases) {
      await press(page, id, ...keys);
      const got = (await getParams(page, [name]))[name];
      assert.ok(close(got, want), `${id} sets ${name} to ${want} (got ${got})`);
    }
    const scene = await page.evaluate(() => window.minipbd.scene);
    assert.deepEqual([scene.solver.substeps, scene.solver.gravity[0], scene.solver.gravity[2], scene.ground.height], [2, -19, 19, -0.5]);
    assert.ok(close(scene.ground.kineticFriction, 2) && close(scene.solver.thickness, 0.002), 'the scene description follows');

    // The time step: the engine's dt, and the loop's step length (so the page keeps real time).
    await press(page, '#param-dt', 'Home', 'PageUp'); // 1 ms + 10 x 0.5 ms
    r = await page.evaluate(() => ({ dt: window.minipbd.world.getParam('dt'), loop: window.minipbd.app.state.loop.dt, scene: window.minipbd.scene.solver.dt }));
    assert.ok(close(r.dt, 0.006, 1e-7) && close(r.loop, 0.006, 1e-7) && close(r.scene, 0.006, 1e-9), `dt 6 ms: ${JSON.stringify(r)}`);
    await waitSteps(page, 5);

    // Gravity y with the mouse on the slider: its left end is -20 m/s^2.
    const track = page.locator('[data-param="gravityY"] .lil-slider');
    const box = await track.boundingBox();
    await page.mouse.click(box.x + 1, box.y + box.height / 2);
    assert.ok((await getParams(page, ['gravityY'])).gravityY < -19, 'a click at the slider\'s left end sets about -20');
    assert.equal(await page.locator('#param-gravityY').inputValue(), (await page.evaluate(() => window.minipbd.scene.solver.gravity[1])).toFixed(2));

    // The ground: off in the engine and for the renderer, and its settings wait for it.
    await press(page, '#param-ground', 'Space');
    r = await page.evaluate(() => ({ engine: window.minipbd.world.getParam('groundEnabled'), view: window.minipbd.app.state.view.groundEnabled, scene: window.minipbd.scene.ground.enabled }));
    assert.deepEqual(r, { engine: 0, view: false, scene: false });
    assert.equal(await page.locator('#param-restitution').isDisabled(), true);
    assert.equal(await page.locator('#param-thickness').isDisabled(), false, 'thickness is for colliders and particles too');
    await press(page, '#param-ground', 'Space');
    assert.equal(await page.evaluate(() => window.minipbd.app.state.view.groundHeight), -0.5, 'the floor is drawn at the new height');

    // All of it survives Reset and travels with the link.
    await page.click('#reset');
    assert.equal((await getParams(page, ['iterations'])).iterations, 4);
    const url = await copyLink(page);
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await getParams(page2, ['iterations', 'substeps', 'damping', 'gravityX', 'gravityZ', 'groundHeight', 'restitution', 'kineticFriction', 'thickness', 'dt']);
    assert.deepEqual([got.iterations, got.substeps, got.gravityX, got.gravityZ, got.groundHeight, got.restitution, got.kineticFriction], [4, 2, -19, 19, -0.5, 1, 2]);
    assert.ok(close(got.damping, 0.1) && close(got.thickness, 0.002) && close(got.dt, 0.006, 1e-7), JSON.stringify(got));
    assert.equal(await page2.locator('#param-dt').inputValue(), '6.00', 'the fields show the linked settings');
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('masses per object: free particles take the new mass, pins and mass ranges keep theirs, links carry it', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'mass-split');
    const objects = await page.evaluate(() => window.minipbd.scene.objects.map((o) => ({ name: o.name, mass: o.mass })));
    const fields = await page.evaluate(() => [...document.querySelectorAll('input[id^="mass-"]')].map((el) => ({ id: el.id, value: el.value })));
    assert.equal(fields.length, objects.length, 'one mass field per object');
    assert.deepEqual(fields.map((f) => Number(f.value)), objects.map((o) => o.mass * 1000), 'grams per particle');

    // Object 0: a 24 x 24 cloth pinned at (0,0) and (23,0), left half (i <= 11) 0.5 kg, the rest 0.01 kg.
    await press(page, '#mass-0', 'End'); // the top of its range: 10x
    const w = await page.evaluate(() => {
      const { world } = window.minipbd;
      const first = world.objects[0].firstParticle;
      const W = (i, j) => world.positions[4 * (first + j * 24 + i) + 3];
      return { right: W(20, 10), left: W(5, 10), pin: W(0, 0), pin2: W(23, 0), scene: window.minipbd.scene.objects[0].mass, chain: world.positions[4 * world.objects[1].firstParticle + 7] };
    });
    assert.ok(close(w.right, 1 / 0.1, 1e-3), `a right-half particle weighs 100 g now (w = ${w.right})`);
    assert.ok(close(w.left, 1 / 0.5, 1e-4), `the heavy half keeps 0.5 kg (w = ${w.left})`);
    assert.deepEqual([w.pin, w.pin2], [0, 0], 'pins stay pinned');
    assert.ok(close(w.scene, 0.1, 1e-9), 'the scene description follows');
    assert.ok(close(w.chain, 1 / 0.02, 1e-2), 'the other objects are untouched');

    // Another parameter change keeps the mass in the description; the link carries it.
    await press(page, '#param-iterations', 'ArrowUp');
    assert.ok(close(await page.evaluate(() => window.minipbd.scene.objects[0].mass), 0.1, 1e-9));
    await waitSteps(page, 5);
    const url = await copyLink(page);
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const w2 = await page2.evaluate(() => {
      const { world } = window.minipbd;
      return world.positions[4 * (world.objects[0].firstParticle + 10 * 24 + 20) + 3];
    });
    assert.ok(close(w2, 10, 1e-3), `the linked scene has the 100 g particles (w = ${w2})`);
    assert.equal(await page2.locator('#mass-0').inputValue(), '100');
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('the Velocity arrows switch sets view.velocityArrows (off by default)', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const flag = () => page.evaluate(() => window.minipbd.app.state.view.velocityArrows);
    assert.equal(await flag(), false);
    assert.equal(await page.locator('#velocity-arrows').isChecked(), false);
    await page.check('#velocity-arrows');
    assert.equal(await flag(), true);
    await waitSteps(page, 5);
    await page.uncheck('#velocity-arrows');
    assert.equal(await flag(), false);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Cloth, Colliders and Wind controls are labelled, reachable with Tab, and only shown for scenes with cloth', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'flag');
    const ids = ['param-maxSpeed', 'param-tethers', 'param-tetherSlack', 'param-tearing', 'param-tearStretch', 'param-selfCollision',
      'param-thickness', 'collider-0-staticFriction', 'collider-0-kineticFriction', 'collider-0-restitution',
      'param-wind', 'param-windSpeed', 'param-windDirection', 'param-drag', 'param-lift'];
    const labels = await page.evaluate((ids) => ids.map((id) => {
      const el = document.getElementById(id);
      const by = el?.getAttribute('aria-labelledby');
      return by ? by.split(' ').map((x) => document.getElementById(x).textContent.trim()).join(' ') : null;
    }), ids);
    ids.forEach((id, k) => assert.ok(labels[k], `#${id} exists and has a label (${labels[k]})`));
    assert.equal(labels[ids.indexOf('param-windSpeed')], 'Speed (m/s)');
    assert.equal(labels[ids.indexOf('collider-0-kineticFriction')], 'pole Kinetic friction');

    // Tab from the scene picker through the whole panel reaches every one of them (all enabled in the flag scene).
    await page.locator('#scene-select').focus();
    const reached = new Set();
    for (let k = 0; k < 110; k++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => document.activeElement?.id));
    }
    for (const id of ids) assert.ok(reached.has(id), `Tab reaches #${id}`);

    // A chain has no cloth: the two sections are hidden, titles too.
    const shown = () => page.evaluate(() => ['folder-cloth', 'folder-wind', 'folder-contacts'].map((id) => document.getElementById(id).checkVisibility()));
    await chooseScene(page, 'chain');
    assert.deepEqual(await shown(), [false, false, true]);
    await chooseScene(page, 'cloth');
    assert.deepEqual(await shown(), [true, true, true]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('toggling the wind sets airDensity; speed and direction set the wind; the link carries them', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'flag');
    const flag = await page.evaluate(() => window.minipbd.scene.wind);
    assert.ok(flag.density > 0, 'the flag scene starts with wind');
    assert.equal(await page.locator('#param-wind').isChecked(), true, 'the Wind box reads the scene');
    const speed0 = Math.hypot(flag.velocity[0], flag.velocity[2]);
    assert.equal(await page.locator('#param-windSpeed').inputValue(), speed0.toFixed(1));

    await press(page, '#param-wind', 'Space');
    assert.equal((await getParams(page, ['airDensity'])).airDensity, 0, 'off: no air');
    assert.equal(await page.evaluate(() => window.minipbd.scene.wind.density), 0, 'the scene follows');
    assert.equal(await page.locator('#param-windSpeed').isDisabled(), true, 'speed does not apply without air');
    await press(page, '#param-wind', 'Space');
    assert.ok(close((await getParams(page, ['airDensity'])).airDensity, flag.density), 'on again: the scene\'s air density');

    // Full speed, same direction; then direction 0 deg = +x. The vertical component is left alone.
    await press(page, '#param-windSpeed', 'End');
    let w = await getParams(page, ['windX', 'windY', 'windZ']);
    const dir = Math.atan2(flag.velocity[2], flag.velocity[0]);
    assert.ok(close(w.windX, 20 * Math.cos(dir), 1e-3) && close(w.windZ, 20 * Math.sin(dir), 1e-3), `20 m/s along the scene's direction: ${JSON.stringify(w)}`);
    assert.equal(w.windY, flag.velocity[1]);
    await press(page, '#param-windDirection', 'Home');
    w = await getParams(page, ['windX', 'windZ']);
    assert.ok(close(w.windX, 20) && close(w.windZ, 0), `direction 0: ${JSON.stringify(w)}`);
    await press(page, '#param-windDirection', 'ArrowUp', 'ArrowUp', 'ArrowUp'); // 15 deg
    w = await getParams(page, ['windX', 'windZ']);
    assert.ok(close(w.windX, 20 * Math.cos(Math.PI / 12), 1e-3) && close(w.windZ, 20 * Math.sin(Math.PI / 12), 1e-3), `direction 15: ${JSON.stringify(w)}`);
    await press(page, '#param-drag', 'Home', 'ArrowUp', 'ArrowUp'); // 0.10
    assert.ok(close((await getParams(page, ['drag'])).drag, 0.1));
    await press(page, '#param-wind', 'Space'); // off for the link
    await waitSteps(page, 5);

    const url = await copyLink(page);
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await getParams(page2, ['airDensity', 'windX', 'windZ', 'drag']);
    assert.equal(got.airDensity, 0, 'the link carries the wind being off');
    assert.ok(close(got.windX, w.windX, 1e-3) && close(got.windZ, w.windZ, 1e-3), `and its velocity: ${JSON.stringify(got)}`);
    assert.ok(close(got.drag, 0.1));
    assert.equal(await page2.locator('#param-wind').isChecked(), false, 'the Wind box shows it');
    assert.equal(await page2.locator('#param-windSpeed').inputValue(), '20.0');
    assert.equal(await page2.locator('#param-windDirection').inputValue(), '15');
    await press(page2, '#param-wind', 'Space');
    assert.ok(close((await getParams(page2, ['airDensity'])).airDensity, 1.2), 'turned on, the air is back at 1.2 kg/m3');
    await waitSteps(page2, 5);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('tethers, tearing, self-collision and thickness set their parameters and travel with the link', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    // The built-in cloth collides with itself at 4.5 cm against knots (builtin-scenes.js); the switch turns it off.
    await chooseScene(page, 'cloth');
    const names = ['tethers', 'tearStretch', 'selfCollision', 'thickness'];
    const start = await getParams(page, names);
    assert.equal(start.tethers, 1);
    assert.equal(start.tearStretch, 0);
    assert.equal(start.selfCollision, 1);
    assert.ok(close(start.thickness, 0.045), `thickness ${start.thickness}`);
    assert.equal(await page.locator('#param-selfCollision').isChecked(), true);
    assert.equal(await page.locator('#param-tethers').isChecked(), true);
    assert.equal(await page.locator('#param-tearing').isChecked(), false);
    assert.equal(await page.locator('#param-tearStretch').isDisabled(), true, 'the threshold waits for tearing to be on');

    await press(page, '#param-tethers', 'Space');
    await press(page, '#param-tearing', 'Space');
    let p = await getParams(page, names);
    assert.equal(p.tethers, 0);
    assert.ok(close(p.tearStretch, 0.35), `tearing on at the threshold shown (${p.tearStretch})`);
    await press(page, '#param-tearStretch', 'ArrowUp'); // 40 %
    await press(page, '#param-selfCollision', 'Space');
    await press(page, '#param-thickness', 'End'); // 10 cm
    p = await getParams(page, names);
    assert.ok(close(p.tearStretch, 0.4), `threshold ${p.tearStretch}`);
    assert.equal(p.selfCollision, 0);
    assert.ok(close(p.thickness, 0.1), `thickness ${p.thickness}`);
    assert.equal(await page.locator('#param-thickness').inputValue(), '10');
    const solver = await page.evaluate(() => window.minipbd.scene.solver);
    assert.deepEqual([solver.tethers, solver.selfCollision], [0, false], 'the scene follows');
    await waitSteps(page, 10);

    const url = await copyLink(page);
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const got = await getParams(page2, names);
    assert.equal(got.tethers, 0);
    assert.ok(close(got.tearStretch, 0.4));
    assert.equal(got.selfCollision, 0);
    assert.ok(close(got.thickness, 0.1));
    const boxes = await page2.evaluate(() => ['param-tethers', 'param-tearing', 'param-selfCollision'].map((id) => document.getElementById(id).checked));
    assert.deepEqual(boxes, [false, true, false], 'the boxes show the linked settings');
    assert.equal(await page2.locator('#param-tearStretch').inputValue(), '40');
    assert.equal(await page2.locator('#param-thickness').inputValue(), '10.0');
    await press(page2, '#param-tethers', 'Space');
    assert.equal((await getParams(page2, ['tethers'])).tethers, 1, 'tethers back on at full strength');
    await press(page2, '#param-tearing', 'Space');
    assert.equal((await getParams(page2, ['tearStretch'])).tearStretch, 0, 'tearing off');
    await waitSteps(page2, 5);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

const material = (c) => ({ staticFriction: c.staticFriction, kineticFriction: c.kineticFriction, restitution: c.restitution });

test('collider friction and bounce: per collider, into the engine, the description, Reset and the link; hidden without colliders', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    // The cloth has no collider: no Colliders folder.
    await chooseScene(page, 'cloth');
    assert.equal(await page.evaluate(() => document.getElementById('folder-colliders').checkVisibility()), false);
    assert.equal(await page.locator('[id^="collider-0"]').count(), 0);

    // The table: one sub-folder per collider, named by the scene, fields showing the scene's values.
    await chooseScene(page, 'table');
    const table = await page.evaluate(() => ({
      shown: document.getElementById('folder-colliders').checkVisibility(),
      titles: [...document.querySelectorAll('#folder-colliders [id$="-title"][id^="collider-"]')].map((el) => el.textContent),
      names: window.minipbd.scene.colliders.map((c) => c.name),
      top: ['staticFriction', 'kineticFriction', 'restitution'].map((k) => document.getElementById(`collider-0-${k}`).value),
    }));
    assert.equal(table.shown, true);
    assert.deepEqual(table.titles, table.names);
    assert.deepEqual(table.top, ['0.10', '0.08', '0.00'], 'the table top\'s slippery cloth');

    // The ball: its bounce with the keyboard (End, then one step down), its static friction from its Home end.
    await chooseScene(page, 'cloth-sphere');
    const label = await page.locator('#collider-0-restitution').evaluate((el) => el.getAttribute('aria-labelledby').split(' ').map((id) => document.getElementById(id).textContent).join(' '));
    assert.equal(label, 'ball Bounce', 'named by the collider and the field');
    await press(page, '#collider-0-restitution', 'End', 'ArrowDown');
    await press(page, '#collider-0-staticFriction', 'Home', 'PageUp');
    const state = () => page.evaluate(() => ({
      described: window.minipbd.world.describe().colliders[0],
      engine: window.minipbd.world.colliders[0],
      scene: window.minipbd.scene.colliders[0],
      fields: ['staticFriction', 'kineticFriction', 'restitution'].map((k) => document.getElementById(`collider-0-${k}`).value),
    }));
    let r = await state();
    assert.ok(close(r.described.restitution, 0.95, 1e-9) && close(r.described.staticFriction, 0.5, 1e-9), JSON.stringify(material(r.described)));
    assert.deepEqual(material(r.scene), material(r.described), 'the app\'s description has it');
    assert.ok(close(r.engine.restitution, 0.95, 1e-6) && close(r.engine.staticFriction, 0.5, 1e-6) && close(r.engine.kineticFriction, 0.5, 1e-6), 'the engine has it');
    const set = material(r.scene);

    // Another setting changed afterwards keeps it (onParam keeps the description's colliders); so does Reset.
    await press(page, '#param-iterations', 'ArrowUp');
    assert.deepEqual(material(await page.evaluate(() => window.minipbd.scene.colliders[0])), set);
    await waitSteps(page, 5);
    // Reset builds a new world: wait for it by identity (a step count can pass 3 within one slow frame).
    await page.evaluate(() => { window.beforeReset = window.minipbd.world; });
    await page.click('#reset');
    await page.waitForFunction(() => window.minipbd.world !== window.beforeReset, null, { timeout: READY_TIMEOUT });
    r = await state();
    assert.deepEqual(material(r.described), set, 'Reset rebuilds with it');
    assert.ok(close(r.engine.restitution, 0.95, 1e-6), 'in the engine too');
    assert.deepEqual(r.fields, ['0.50', '0.50', '0.95'], 'and the fields show it');

    // The copied link carries it: decoded here, exactly; opened, the engine has it.
    const url = await copyLink(page);
    const linked = await decodeLink(new URL(url).hash);
    assert.deepEqual(material(linked.colliders[0]), set, 'the link\'s scene has the collider\'s material, bit for bit');
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    const r2 = await page2.evaluate(() => ({ engine: window.minipbd.world.colliders[0], field: document.getElementById('collider-0-restitution').value }));
    assert.ok(close(r2.engine.restitution, 0.95, 1e-6) && close(r2.engine.staticFriction, 0.5, 1e-6));
    assert.equal(r2.field, '0.95');

    // A chain has none: the folder goes.
    await chooseScene(page2, 'chain');
    assert.equal(await page2.evaluate(() => document.getElementById('folder-colliders').checkVisibility()), false);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});

test('speed limit, tether slack and self-friction: in the panel, the engine, the scene, Reset and the link', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    // The flag takes the engine's defaults; the hanging cloth its own speed limit against knots (builtin-scenes.js).
    await chooseScene(page, 'flag');
    const names = ['maxSpeed', 'tetherSlack', 'selfFriction'];
    assert.deepEqual(await getParams(page, names), { maxSpeed: 100, tetherSlack: 0, selfFriction: Math.fround(0.2) }, 'the engine\'s defaults');
    assert.deepEqual(await page.evaluate(() => ['param-maxSpeed', 'param-tetherSlack', 'param-selfFriction'].map((id) => document.getElementById(id).value)),
      ['100.0', '0', '0.20']);
    assert.equal(await page.locator('#param-selfFriction').isDisabled(), true, 'the flag does not collide with itself');
    await chooseScene(page, 'cloth');
    const start = await getParams(page, names);
    assert.deepEqual(start, { maxSpeed: 6, tetherSlack: 0, selfFriction: Math.fround(0.2) }, 'the cloth\'s own');
    assert.deepEqual(await page.evaluate(() => ['param-maxSpeed', 'param-tetherSlack', 'param-selfFriction'].map((id) => document.getElementById(id).value)),
      ['6.0', '0', '0.20']);
    // Slack waits for tethers, self-friction for self-collision (on in the built-in cloth).
    assert.equal(await page.locator('#param-tetherSlack').isDisabled(), false);
    assert.equal(await page.locator('#param-selfFriction').isDisabled(), false);
    await press(page, '#param-tethers', 'Space');
    assert.equal(await page.locator('#param-tetherSlack').isDisabled(), true);
    await press(page, '#param-tethers', 'Space');
    await press(page, '#param-selfCollision', 'Space');
    assert.equal(await page.locator('#param-selfFriction').isDisabled(), true);
    await press(page, '#param-selfCollision', 'Space');
    assert.equal(await page.locator('#param-selfFriction').isDisabled(), false);

    await press(page, '#param-maxSpeed', 'Home', 'PageUp'); // 0.5 + 10 x 0.5 m/s
    await press(page, '#param-tetherSlack', 'Home', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp'); // 5 %
    await press(page, '#param-selfFriction', 'End', 'ArrowDown', 'ArrowDown'); // 0.9
    const p = await getParams(page, names);
    assert.ok(close(p.maxSpeed, 5.5) && close(p.tetherSlack, 0.05) && close(p.selfFriction, 0.9), JSON.stringify(p));
    const solver = await page.evaluate(() => window.minipbd.scene.solver);
    assert.ok(close(solver.maxSpeed, 5.5, 1e-12) && close(solver.tetherSlack, 0.05, 1e-12) && close(solver.selfFriction, 0.9, 1e-12), 'the scene follows');
    // The limit holds: no particle of the falling cloth moves faster than 5.5 m/s.
    await waitSteps(page, 30);
    const fastest = await page.evaluate(() => {
      const v = window.minipbd.world.velocities;
      let m = 0;
      for (let i = 0; i < v.length; i += 4) m = Math.max(m, Math.hypot(v[i], v[i + 1], v[i + 2]));
      return m;
    });
    assert.ok(fastest <= 5.5 * (1 + 1e-5), `fastest particle ${fastest} m/s`);

    await page.click('#reset');
    assert.deepEqual(await getParams(page, names), p, 'Reset keeps them');
    const url = await copyLink(page);
    const linked = await decodeLink(new URL(url).hash);
    assert.deepEqual([linked.solver.maxSpeed, linked.solver.tetherSlack, linked.solver.selfFriction], [solver.maxSpeed, solver.tetherSlack, solver.selfFriction], 'the link carries them exactly');
    const { page: page2, problems: problems2 } = await openPage(env.browser, url, { context });
    assert.deepEqual(await getParams(page2, names), p);
    assert.deepEqual(await page2.evaluate(() => ['param-maxSpeed', 'param-tetherSlack', 'param-selfFriction'].map((id) => document.getElementById(id).value)),
      ['5.5', '5', '0.90'], 'the fields show the linked settings');
    // A chain has no cloth: slack and self-friction are hidden with the Cloth folder; the speed limit stays.
    await chooseScene(page2, 'chain');
    assert.deepEqual(await page2.evaluate(() => ['param-maxSpeed', 'param-tetherSlack', 'param-selfFriction'].map((id) => document.getElementById(id).checkVisibility())), [true, false, false]);
    assert.deepEqual([...problems, ...problems2], []);
  } finally {
    await context.close();
  }
});
