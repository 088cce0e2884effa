// replay.test.mjs — links that replay a run, in the page, checked against Node on the same wasm:
//   - a plain link, N steps: the page's own run and an exact N-step run give the Node hashes;
//   - a real mouse drag recorded on the page (Record, drag, Stop) opens in a new page and replays to the same
//     bits as the first page had when the recording stopped, and so does Node; a collider drag too, and a
//     collider's bounce and the speed limit changed from the panel (a mass change ends the recording, saying so);
//   - links above 2,000 characters warn; above the cap they are refused naming the length and the cap, when
//     making one and when opening one, and the running world goes on;
//   - hostile replays and links of unknown versions are refused by name while the scene keeps running;
//   - <minipbd-scene> replays a recording its link carries.
// The page is stepped with app.setPaused / app.stepN / app.openLink (window.minipbd.app), not frame timing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBrowser, openPage, watchProblems, waitSteps, chooseScene, particleOnScreen, DIST, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

// Node runs the very files the page is served.
const js = (f) => import(pathToFileURL(path.join(DIST, 'js', f)).href);
const { loadMiniPBD } = await js('minipbd.js');
const { builtinScenes } = await js('format/builtin-scenes.js');
const { encodeLink, decodeRun, LINK_MAX_FRAGMENT, LINK_MAX_PAYLOAD } = await js('format/link.js');
const { Replayer } = await js('record/replayer.js');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(DIST, 'minipbd.wasm')));

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const N = 300;
const fmt = (n) => n.toLocaleString('en-US');

/** In the page or in Node: world.hash() and an FNV-1a of the positions' Float32 bits. */
function hashes(world) {
  const p = world.positions;
  const bytes = new Uint8Array(p.buffer, p.byteOffset, p.byteLength);
  let h = 2166136261;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  return { hash: world.hash(), positions: h, steps: world.stats().steps };
}
const HASHES = `(${hashes.toString()})`; // the same function, evaluated in the page

/** Node: the hashes of a world built from `scene` after `steps` steps (with `replay` replayed on it). */
function nodeRun(scene, steps, replay = null) {
  const world = pbd.createWorld(scene);
  let ended = null;
  if (replay) new Replayer(world, replay, { onEnd: (r) => { ended = r; } });
  world.step(steps);
  const out = { ...hashes(world), ended };
  world.destroy();
  return out;
}

function tunedCloth() {
  const s = structuredClone(builtinScenes.cloth);
  s.name = 'Tuned cloth for a replay test';
  s.solver.substeps = 5;
  s.solver.iterations = 2;
  s.solver.damping = 0.15;
  s.objects[0].stiffness.bend = 0.4;
  return s;
}

test(`a plain link: the page reaches the bits Node computes, for its own run and after exactly ${N} steps`, { timeout: TEST_TIMEOUT }, async () => {
  const scene = tunedCloth();
  const fragment = await encodeLink(scene);
  assert.match(fragment, /^s=1\./, 'a link without a recording is still version 1');
  const expected = nodeRun(scene, N);
  const { page, problems, context } = await openPage(env.browser, `${env.url}#${fragment}`);
  try {
    // The run the page started by itself, however many frames it has had: Node gives the same bits for as many steps.
    const live = await page.evaluate((h) => {
      window.minipbd.app.setPaused(true);
      return eval(h)(window.minipbd.world);
    }, HASHES);
    assert.ok(live.steps >= 0);
    const node = nodeRun(scene, live.steps);
    assert.equal(live.hash, node.hash, `hash after the page's own ${live.steps} steps`);
    assert.equal(live.positions, node.positions);

    // Opened again through the app, paused: a fresh world, then exactly N steps.
    const r = await page.evaluate(async ({ h, n }) => {
      const hashes = eval(h); // before any await: after one, the page's CSP applies to eval (replayInNewPage)
      const { app } = window.minipbd;
      await app.openLink(location.hash, { fallback: false });
      const start = window.minipbd.world.stats().steps;
      app.stepN(n);
      const at = hashes(window.minipbd.world);
      app.stepN(1);
      return { start, at, after: hashes(window.minipbd.world), name: window.minipbd.scene.name };
    }, { h: HASHES, n: N });
    assert.equal(r.name, scene.name);
    assert.equal(r.start, 0);
    assert.equal(r.at.steps, N);
    assert.equal(r.at.hash, expected.hash, `world.hash() after ${N} steps, page vs Node`);
    assert.equal(r.at.positions, expected.positions, `positions after ${N} steps, page vs Node`);
    // The comparison can fail: one more step, or another scene, give other bits.
    assert.notEqual(r.after.hash, expected.hash);
    assert.notEqual(r.after.positions, expected.positions);
    assert.notEqual(nodeRun(builtinScenes.cloth, N).hash, expected.hash);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// A free cloth particle in the lower middle of the cloth (away from the pins).
const lowerMiddleParticle = (page) => page.evaluate(() => {
  const { world, scene } = window.minipbd;
  const k = scene.objects.findIndex((o) => o.type === 'cloth');
  const [cols, rows] = scene.objects[k].resolution;
  return world.objects[k].firstParticle + Math.floor(rows * 0.7) * cols + Math.floor(cols / 2);
});

const lastRecording = (page) => page.evaluate(() => {
  const last = window.minipbd.app.recorder.last;
  return last && { replay: last.replay, fragment: last.fragment, reason: last.reason, status: document.getElementById('record-status').textContent };
});

/** Opens `url` in a new page of `context`, waits for its replay to end, then replays it again stepped exactly. */
async function replayInNewPage(context, url, recorded) {
  const { page, problems } = await openPage(env.browser, url, { context });
  // As opened: the replay plays in real time and ends after its last step.
  await page.waitForFunction(() => window.minipbd.app.recorder.lastReplay !== null, null, { timeout: READY_TIMEOUT });
  const played = await page.evaluate(() => ({
    result: window.minipbd.app.recorder.lastReplay,
    status: document.getElementById('record-status').textContent,
    attachments: window.minipbd.world.attachmentCount,
  }));
  assert.equal(played.result.steps, recorded.steps);
  assert.equal(played.result.hash, recorded.hash, 'the second page ends the replay on the bits of the first');
  assert.equal(played.result.exact, true);
  assert.match(played.status, /exactly the state that was recorded/);
  // Again, paused and stepped exactly: the same bits at the same step count.
  const stepped = await page.evaluate(async ({ h, n }) => {
    // eval before any await: once the page has waited for a frame (openLink waits for the steps in flight), the
    // page's CSP applies to eval again.
    const hashes = eval(h);
    const { app } = window.minipbd;
    app.setPaused(true);
    await app.openLink(location.hash, { fallback: false });
    const replaying = app.recorder.replaying;
    const label = document.getElementById('record').textContent;
    app.stepN(n);
    return { replaying, label, ...hashes(window.minipbd.world), result: app.recorder.lastReplay };
  }, { h: HASHES, n: recorded.steps });
  assert.equal(stepped.replaying, true);
  assert.equal(stepped.label, 'End replay');
  assert.equal(stepped.steps, recorded.steps);
  assert.equal(stepped.hash, recorded.hash);
  assert.equal(stepped.result.exact, true);
  return { page, problems, stepped };
}

test('a mouse drag recorded on the page replays in a new page, and in Node, to the same bits', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await waitSteps(page, 20);
    const button = page.locator('#record');
    assert.equal(await button.textContent(), 'Record');
    await button.focus();
    await page.keyboard.press('Enter'); // keyboard-reachable: Enter on the focused button starts it
    await page.waitForFunction(() => window.minipbd.app.recorder.recording);
    assert.equal(await button.textContent(), 'Stop and make link');
    assert.match(await page.locator('#record-status').textContent(), /Recording from the start of the scene/);
    await waitSteps(page, 15);

    const i = await lowerMiddleParticle(page);
    const start = await particleOnScreen(page, i);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    assert.equal(await page.evaluate(() => window.minipbd.app.input.attachmentCount), 1, 'the press took hold of the cloth');
    for (let k = 1; k <= 8; k++) {
      await page.mouse.move(start.x + 14 * k, start.y - 6 * k, { steps: 3 });
      await waitSteps(page, 2);
    }
    await page.mouse.up();
    await waitSteps(page, 20);
    await button.click();
    await page.waitForFunction(() => document.getElementById('link-field').value.includes('#s=2.'), null, { timeout: READY_TIMEOUT });
    const rec = await lastRecording(page);
    const url = await page.inputValue('#link-field');
    assert.equal(rec.reason, 'stopped');
    assert.equal(url, `${env.url}#${rec.fragment}`);
    assert.equal(await page.evaluate(() => location.hash), `#${rec.fragment}`, 'the page URL carries the link');
    assert.equal(await button.textContent(), 'Record');
    assert.match(rec.status, /^Recorded \d+ steps \([\d.]+ s, 1 grab\): the link replays them\.$/);
    const kinds = rec.replay.events.map((e) => e[1]);
    assert.equal(kinds.filter((k) => k === 'g').length, 1);
    assert.ok(kinds.filter((k) => k === 'm').length >= 5, `${kinds.filter((k) => k === 'm').length} moves`);
    assert.equal(kinds.filter((k) => k === 'r').length, 1);
    assert.ok(rec.replay.steps >= 50, `${rec.replay.steps} steps`);
    // The hash the first page had when the recording stopped is in the link; Node replays the link to it.
    const { scene, replay } = await decodeRun(rec.fragment);
    assert.deepEqual(replay, rec.replay);
    const node = nodeRun(scene, replay.steps, replay);
    assert.equal(node.hash, rec.replay.hash, 'Node replays the page\'s recording to the same bits');
    assert.equal(node.ended.exact, true);

    const second = await replayInNewPage(context, url, rec.replay);
    assert.equal(second.stepped.positions, node.positions, 'positions: page 2 vs Node');
    // While a replay plays, a press on the cloth orbits instead of pulling it.
    const p2 = second.page;
    await p2.evaluate(async () => { await window.minipbd.app.openLink(location.hash, { fallback: false }); });
    const j = await lowerMiddleParticle(p2);
    const at = await particleOnScreen(p2, j);
    const yaw = await p2.evaluate(() => window.minipbd.app.camera.yaw);
    await p2.mouse.move(at.x, at.y);
    await p2.mouse.down();
    await p2.mouse.move(at.x + 60, at.y, { steps: 4 });
    const during = await p2.evaluate(() => ({ held: window.minipbd.app.input.attachmentCount, yaw: window.minipbd.app.camera.yaw }));
    await p2.mouse.up();
    assert.equal(during.held, 0, 'no grab during a replay');
    assert.notEqual(during.yaw, yaw, 'the drag orbits');
    assert.deepEqual([...problems, ...second.problems], []);
  } finally {
    await context.close();
  }
});

/** A page point over collider i where a press takes the collider (input.hitTest), deepest inside a bare patch (its own
 *  grid, not helpers.mjs's pointOnCollider: that one picks another point, so another drag is recorded). */
async function pointOnCollider(page, i) {
  return page.evaluate((i) => {
    const { world, app } = window.minipbd;
    const c = world.colliders[i];
    const r = app.canvas.getBoundingClientRect();
    app.camera.update(r.width / r.height);
    const [cx, cy] = app.camera.project(c.position, r.width, r.height);
    const [, top] = app.camera.project([c.position[0], c.position[1] + c.radius, c.position[2]], r.width, r.height);
    const R = Math.abs(cy - top);
    const bare = (x, y) => {
      const hit = app.input.hitTest(x, y);
      return hit?.kind === 'collider' && hit.index === i;
    };
    let best = null;
    for (let y = cy - R; y <= cy + R; y += Math.max(2, R / 25)) {
      for (let x = cx - R; x <= cx + R; x += Math.max(2, R / 25)) {
        const px = r.left + x, py = r.top + y;
        if (Math.hypot(x - cx, y - cy) > R * 0.95 || !bare(px, py)) continue;
        let score = 0;
        for (let a = 0; a < 8; a++) score += bare(px + 6 * Math.cos(a * Math.PI / 4), py + 6 * Math.sin(a * Math.PI / 4)) ? 1 : 0;
        if (!best || score > best.score) best = { x: px, y: py, score };
      }
    }
    return best;
  }, i);
}

test('a recorded drag of the ball (a collider) replays in a new page to the same bits', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'cloth-sphere');
    assert.equal(await page.evaluate(() => window.minipbd.app.startRecording()), true);
    let spot = null;
    for (let attempt = 0; attempt < 4 && !spot; attempt++) {
      const p = await pointOnCollider(page, 0);
      if (!p) break;
      await page.mouse.move(p.x, p.y);
      await page.mouse.down();
      if ((await page.evaluate(() => window.minipbd.app.input.heldColliders)).length === 1) spot = p;
      else await page.mouse.up();
    }
    assert.ok(spot, 'a press on the ball took it');
    for (let k = 1; k <= 6; k++) {
      await page.mouse.move(spot.x + 15 * k, spot.y, { steps: 2 });
      await waitSteps(page, 3);
    }
    await page.mouse.up();
    await waitSteps(page, 10);
    const fragment = await page.evaluate(() => window.minipbd.app.stopRecording());
    assert.match(fragment, /^s=2\./);
    const rec = await lastRecording(page);
    const moves = rec.replay.events.filter((e) => e[1] === 'c');
    assert.ok(moves.length >= 5, `${moves.length} collider events`);
    const { scene, replay } = await decodeRun(fragment);
    assert.equal(nodeRun(scene, replay.steps, replay).hash, rec.replay.hash, 'Node replays the collider drag to the same bits');
    const second = await replayInNewPage(context, `${env.url}#${fragment}`, rec.replay);
    assert.deepEqual([...problems, ...second.problems], []);
  } finally {
    await context.close();
  }
});

test('a collider\'s bounce and the speed limit changed in the panel while recording replay to the same bits; a mass change ends the recording', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  const press = async (selector, ...keys) => {
    await page.locator(selector).focus();
    for (const k of keys) await page.keyboard.press(k);
  };
  try {
    await chooseScene(page, 'cloth-sphere');
    await page.evaluate(() => {
      window.minipbd.app.setPaused(true);
      window.minipbd.app.startRecording();
      window.minipbd.app.stepN(20);
    });
    // A slider moved between two steps: three changes, one event with the last.
    await press('#collider-0-restitution', 'End', 'ArrowDown', 'ArrowDown');
    await page.evaluate(() => window.minipbd.app.stepN(30));
    await press('#param-maxSpeed', 'Home', 'PageUp');
    await page.evaluate(() => window.minipbd.app.stepN(40));
    const set = await page.evaluate(() => ({ scene: window.minipbd.scene.colliders[0], recording: window.minipbd.app.recorder.recording }));
    assert.equal(set.recording, true, 'a material change does not end the recording');
    const fragment = await page.evaluate(() => window.minipbd.app.stopRecording());
    assert.match(fragment, /^s=2\./);
    const rec = await lastRecording(page);
    assert.equal(rec.reason, 'stopped');
    assert.deepEqual(rec.replay.events, [
      [20, 'f', 0, set.scene.staticFriction, set.scene.kineticFriction, set.scene.restitution],
      [30, 'p', 'maxSpeed', 0.5], // Home, then PageUp: parameters are recorded call by call
      [0, 'p', 'maxSpeed', 5.5],
    ]);
    assert.ok(Math.abs(set.scene.restitution - 0.9) < 1e-9, `bounce ${set.scene.restitution}`);
    const { scene, replay } = await decodeRun(fragment);
    assert.equal(scene.colliders[0].restitution, 0, 'the link\'s scene is the one the recording started from');
    const node = nodeRun(scene, replay.steps, replay);
    assert.equal(node.hash, rec.replay.hash, 'Node replays the panel\'s changes to the same bits');
    assert.equal(node.ended.exact, true);
    const second = await replayInNewPage(context, `${env.url}#${fragment}`, rec.replay);
    assert.equal(second.stepped.positions, node.positions);

    // Masses cannot be recorded: changing one ends the recording at the step before, and the status says so.
    await page.evaluate(() => window.minipbd.app.setPaused(false));
    await chooseScene(page, 'cloth-sphere');
    await page.evaluate(() => {
      window.minipbd.app.setPaused(true);
      window.minipbd.app.startRecording();
      window.minipbd.app.stepN(12);
    });
    await press('#mass-0', 'ArrowUp');
    await page.waitForFunction(() => window.minipbd.app.recorder.last?.fragment, null, { timeout: READY_TIMEOUT });
    const ended = await lastRecording(page);
    assert.equal(ended.replay.steps, 12);
    assert.match(ended.status, /^Recorded 12 steps \([\d.]+ s, 0 grabs\): the link replays them\. It stopped because changing masses cannot be recorded\.$/);
    assert.deepEqual([...problems, ...second.problems], []);
  } finally {
    await context.close();
  }
});

/** In the page: a scripted recording on the chain: a grab moved to pseudo-random targets for `steps` steps. */
const scriptedRecording = (page, steps, spread) => page.evaluate(async ({ steps, spread }) => {
  const { app } = window.minipbd;
  app.setPaused(true);
  app.startRecording();
  const w = window.minipbd.world;
  let seed = 12345;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 - 0.5; };
  const id = w.addAttachment(20, [1.5, 2.5, 0], 1);
  for (let s = 0; s < steps; s++) {
    w.moveAttachment(id, [1.5 + rand() * spread, 2.5 + rand() * spread, rand() * spread]);
    app.stepN(1);
  }
  w.removeAttachment(id);
  app.stepN(1);
  return app.stopRecording();
}, { steps, spread });

test('link lengths: over 2,000 characters the page warns; past the cap it refuses, naming length and cap, and the world runs on', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'chain');
    // A long recording: its link passes 2,000 characters, so the page warns, and still makes it.
    const long = await scriptedRecording(page, 500, 0.6);
    assert.match(long, /^s=2\./);
    const url = await page.inputValue('#link-field');
    assert.ok(url.length > 2000 && url.length < LINK_MAX_FRAGMENT, `link of ${url.length} characters`);
    assert.match(await page.locator('#link-status').textContent(), new RegExp(`It is ${url.length} characters long; some sites may cut it`));
    assert.equal(await page.locator('#message').isHidden(), true, 'a long link is not an error');
    const replayed = nodeRun(...await decodeRun(long).then((r) => [r.scene, r.replay.steps, r.replay]));
    assert.equal(replayed.ended.exact, true, 'the long link replays exactly');

    // Far longer: more data than a link holds. Refused with the length and the cap; the world goes on.
    const tooLong = await scriptedRecording(page, 6000, 2);
    assert.equal(tooLong, null);
    const message = await page.locator('#message-text').textContent();
    assert.match(message, /could not be made.*the link would be [\d,]+ characters long \([\d,]+ of data\); links hold at most 16,384 characters of data/);
    const shown = Number(/would be ([\d,]+) characters/.exec(message)[1].replaceAll(',', ''));
    assert.ok(shown > LINK_MAX_PAYLOAD);
    const after = await page.evaluate(() => ({
      hash: location.hash, status: document.getElementById('record-status').textContent, recording: window.minipbd.app.recorder.recording,
    }));
    assert.equal(after.hash, `#${long}`, 'the page URL keeps the last link that could be made');
    assert.equal(after.recording, false);
    assert.match(after.status, /no link could be made/);
    await page.evaluate(() => { window.__world = window.minipbd.world; window.minipbd.app.setPaused(false); });
    await waitSteps(page, 10);
    assert.equal(await page.evaluate(() => window.__world === window.minipbd.world), true, 'the same world runs on');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('opening an over-long link is refused naming its length and the cap, at load and while a scene runs', { timeout: TEST_TIMEOUT }, async () => {
  const huge = `#s=2.${'A'.repeat(LINK_MAX_FRAGMENT + 100)}`;
  const cap = new RegExp(`could not be opened: link is ${fmt(huge.length - 1)} characters long; at most ${fmt(LINK_MAX_FRAGMENT)} are read`);
  const { page, problems, context } = await openPage(env.browser, env.url + huge);
  try {
    await page.locator('#message').waitFor({ state: 'visible', timeout: READY_TIMEOUT });
    assert.match(await page.locator('#message-text').textContent(), cap);
    const names = await page.evaluate(async () => {
      const { defaultScene } = await import('./js/format/builtin-scenes.js');
      return [window.minipbd.scene.name, defaultScene().name];
    });
    assert.equal(names[0], names[1], 'the default scene runs instead');
    await chooseScene(page, 'chain');
    await page.click('#message-close');
    const before = await page.evaluate(() => {
      window.__world = window.minipbd.world;
      return window.minipbd.world.stats().steps;
    });
    await page.evaluate((h) => { location.hash = h; }, huge.replace('#s=2.', '#s=2.B'));
    await page.locator('#message').waitFor({ state: 'visible', timeout: READY_TIMEOUT });
    assert.match(await page.locator('#message-text').textContent(), new RegExp(`link is ${fmt(huge.length)} characters long; at most ${fmt(LINK_MAX_FRAGMENT)} are read`));
    await waitSteps(page, 10);
    const after = await page.evaluate(() => ({ same: window.__world === window.minipbd.world, steps: window.minipbd.world.stats().steps, type: window.minipbd.scene.objects[0].type }));
    assert.ok(after.same && after.type === 'chain', 'the chain keeps running');
    assert.ok(after.steps > before);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('hostile replays and unknown link versions are refused by name; the running scene stays; a version 1 link loads', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'chain');
    await page.evaluate(() => { window.__world = window.minipbd.world; });
    const { deflateRawSync } = await import('node:zlib');
    const v2 = (value) => `#s=2.${deflateRawSync(Buffer.from(JSON.stringify(value))).toString('base64url')}`;
    const cloth = builtinScenes.cloth;
    const cases = [
      [v2({ scene: cloth, replay: { v: 1, steps: 50, q: 1000, events: [[3, 'g', 1600, 0, 0, 0]] } }), /replay\.events\[0\]\[2\] must be an integer in 0\.\.1599, got 1600/],
      [v2({ scene: cloth, replay: { v: 1, steps: 1e9, q: 1000, events: [] } }), /replay\.steps must be an integer in 0\.\.36000, got 1000000000/],
      [v2({ scene: cloth, replay: { v: 1, steps: 50, q: 1000, events: [[3, 'm', 0, 1, 1, 1]] } }), /replay\.events\[0\]\[2\] must be a grab that is held at this step \(none is held\)/],
      [v2({ scene: cloth, replay: { v: 1, steps: 50, q: 1000, events: [[3, '<img src=x onerror="window.__pwned=1">', 0]] } }), /replay\.events\[0\]\[1\] must be "g", "m", "r", "c", "f", "p" or "e", got "\\u003cimg/],
      [v2({ scene: cloth, replay: { v: 2, steps: 50, q: 1000, events: [] } }), /replay\.v must be 1 \(the only replay version this page reads\), got 2/],
      ['#s=3.AAAA', /link version 3 is newer than this page, which reads versions 1 to 2/],
      ['#s=0.AAAA', /link version 0 is too old: this page reads versions 1 to 2/],
    ];
    for (const [hash, expected] of cases) {
      await page.evaluate((h) => { location.hash = h; }, hash);
      await page.locator('#message').waitFor({ state: 'visible', timeout: READY_TIMEOUT });
      const text = await page.locator('#message-text').textContent();
      assert.match(text, expected, text);
      const r = await page.evaluate(() => ({ same: window.__world === window.minipbd.world, replaying: window.minipbd.app.recorder.replaying, pwned: window.__pwned, imgs: document.querySelectorAll('img').length }));
      assert.deepEqual(r, { same: true, replaying: false, pwned: undefined, imgs: 0 }, hash.slice(0, 40));
      await page.click('#message-close');
    }
    await waitSteps(page, 5);
    // A version 1 link, as pages made them before replays: it loads.
    const v1 = `#s=1.${deflateRawSync(Buffer.from(JSON.stringify(cloth))).toString('base64url')}`;
    await page.evaluate((h) => { location.hash = h; }, v1);
    await page.waitForFunction(() => window.minipbd.scene.objects[0].type === 'cloth', null, { timeout: READY_TIMEOUT });
    assert.equal(await page.locator('#message').isHidden(), true);
    assert.equal(await page.evaluate(() => window.minipbd.app.recorder.replaying), false);
    await waitSteps(page, 5);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('<minipbd-scene> with a link carrying a recording replays it to the recorded bits, and again after reset()', { timeout: TEST_TIMEOUT }, async () => {
  // Recorded in Node on the chain: a grab swung about, released.
  const { Recorder } = await js('record/recorder.js');
  const world = pbd.createWorld(builtinScenes.chain);
  const rec = new Recorder(world);
  const id = world.addAttachment(25, [2.5, 3, 0], 1);
  for (let s = 0; s < 60; s++) {
    world.moveAttachment(id, [2.5 - s * 0.02, 3 + Math.sin(s / 6) * 0.5, s * 0.01]);
    world.step(1);
  }
  world.removeAttachment(id);
  world.step(30);
  const replay = rec.stop();
  const fragment = await encodeLink(rec.scene, { replay });
  world.destroy();

  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const html = `<!doctype html><html><body style="margin:0">
    <minipbd-scene id="r" src="#${fragment}" style="width:480px;height:300px"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>`;
  await page.route(`${env.url}__replay.html`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  try {
    await page.goto(`${env.url}__replay.html`);
    // != null: before the element's module has defined it, replayResult is undefined, which is not null either (a
    // clean clone's run once read that undefined as the result)
    const ended = () => page.waitForFunction(() => document.getElementById('r').replayResult != null, null, { timeout: READY_TIMEOUT })
      .then(() => page.evaluate(() => document.getElementById('r').replayResult));
    const first = await ended();
    assert.equal(first.steps, replay.steps);
    assert.equal(first.hash, replay.hash, 'the element replays to the bits Node recorded');
    assert.equal(first.exact, true);
    await page.evaluate(() => document.getElementById('r').reset());
    assert.equal(await page.evaluate(() => document.getElementById('r').replayResult), null, 'reset replays again');
    const second = await ended();
    assert.equal(second.hash, replay.hash);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
