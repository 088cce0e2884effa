// drop.test.mjs — files dropped on the page (input/drop.js, app/files.js): a real drop event whose DataTransfer
// holds a File made in the page. An OBJ model becomes a soft body (a rigid one with the panel's switch) that the
// pointer can grab and drag; a bad OBJ shows its reason as text and leaves the running world exactly as it was;
// a dropped .json scene opens.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

// A closed cube of side `s`, every triangle counter-clockwise seen from outside (outward normals).
function cubeObj(s = 0.3, { drop = 0 } = {}) {
  const v = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
  const f = [[1, 3, 2], [1, 4, 3], [5, 6, 7], [5, 7, 8], [1, 2, 6], [1, 6, 5], [4, 8, 7], [4, 7, 3], [1, 5, 8], [1, 8, 4], [2, 3, 7], [2, 7, 6]];
  return ['o cube', ...v.map((p) => `v ${p.map((c) => c * s).join(' ')}`), ...f.slice(drop).map((t) => `f ${t.join(' ')}`)].join('\n') + '\n';
}

/** Drops a File (text `body`, or `bytes` zero bytes) named `name` on the canvas, at its centre unless `at`. */
async function dropFile(page, name, { body = '', bytes = 0, type = '', at = null } = {}) {
  await page.evaluate(({ name, body, bytes, type, at }) => {
    const canvas = document.getElementById('view');
    const r = canvas.getBoundingClientRect();
    const [x, y] = at ?? [r.left + r.width / 2, r.top + r.height * 0.55];
    const data = bytes > 0 ? new Uint8Array(bytes) : body;
    const dt = new DataTransfer();
    dt.items.add(new File([data], name, { type }));
    for (const kind of ['dragenter', 'dragover', 'drop']) {
      canvas.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt, clientX: x, clientY: y }));
    }
  }, { name, body, bytes, type, at });
}

const objectCount = (page) => page.evaluate(() => window.minipbd.scene.objects.length);

/** Screen position (page CSS px) of the centre of object k's particles, and that centre in the world. */
async function bodyCentre(page, k) {
  return page.evaluate((k) => {
    const { world, app } = window.minipbd;
    const o = world.objects[k];
    const P = world.positions;
    const c = [0, 0, 0];
    for (let i = o.firstParticle; i < o.firstParticle + o.particleCount; i++) for (let a = 0; a < 3; a++) c[a] += P[4 * i + a] / o.particleCount;
    const r = app.canvas.getBoundingClientRect();
    app.camera.update(r.width / r.height);
    const [x, y] = app.camera.project(c, r.width, r.height);
    return { x: r.left + x, y: r.top + y, world: c };
  }, k);
}

test('a dropped OBJ becomes a soft body the pointer can grab and drag; with the panel\'s choice, a rigid one', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.app.state.sceneKey === 'chain');
    const before = await objectCount(page);
    await dropFile(page, 'my cube.obj', { body: cubeObj(0.3) });
    await page.waitForFunction((n) => window.minipbd.scene.objects.length === n + 1, before, { timeout: READY_TIMEOUT });
    const added = await page.evaluate(() => {
      const { scene, world } = window.minipbd;
      const k = scene.objects.length - 1;
      return { k, type: scene.objects[k].type, name: scene.objects[k].name, shape: scene.objects[k].shape, info: world.objects[k],
        message: document.getElementById('message').hidden ? null : document.getElementById('message-text').textContent };
    });
    assert.equal(added.message, null, 'no error');
    assert.equal(added.type, 'soft', 'a soft body by default');
    assert.equal(added.shape, 'mesh');
    assert.equal(added.name, 'my cube');
    assert.ok(added.info.particleCount > 8 && added.info.tetCount > 0, `it has a lattice (${added.info.particleCount} particles, ${added.info.tetCount} tets)`);
    assert.ok(added.info.skinTriangleCount === 12, 'its skin is the dropped surface');

    // Let it land, then grab it at its centre and drag it to the right.
    await waitSteps(page, 90);
    await waitFrames(page, 3);
    const start = await bodyCentre(page, added.k);
    await page.evaluate(() => {
      const w = window.minipbd.world;
      const add = w.addAttachment.bind(w);
      window.__grab = [];
      w.addAttachment = (p, t, k) => { window.__grab.push(p); return add(p, t, k); };
    });
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    const grabbed = await page.evaluate(() => window.__grab[0]);
    assert.ok(grabbed >= added.info.firstParticle && grabbed < added.info.firstParticle + added.info.particleCount, `the press took one of the body's particles (${grabbed})`);
    await page.mouse.move(start.x + 120, start.y - 60, { steps: 8 });
    await waitSteps(page, 60);
    const held = await bodyCentre(page, added.k);
    await page.mouse.up();
    assert.ok(held.x - start.x > 50, `the body followed the pointer to the right (${(held.x - start.x).toFixed(0)} px of 120)`);
    assert.ok(start.y - held.y > 20, `and up (${(start.y - held.y).toFixed(0)} px of 60)`);
    assert.equal(await page.evaluate(() => window.minipbd.world.attachmentCount), 0, 'released');

    // The panel's choice makes the next model a rigid body.
    await page.selectOption('#model-type', 'rigid');
    await dropFile(page, 'block.obj', { body: cubeObj(0.25) });
    await page.waitForFunction((n) => window.minipbd.scene.objects.length === n + 2, before, { timeout: READY_TIMEOUT });
    const rigid = await page.evaluate(() => {
      const { scene, world } = window.minipbd;
      const k = scene.objects.length - 1;
      return { type: scene.objects[k].type, info: world.objects[k] };
    });
    assert.equal(rigid.type, 'rigid');
    assert.ok(rigid.info.particleCount > 8);
    await waitSteps(page, 10);
    const finite = await page.evaluate(() => window.minipbd.world.positions.every(Number.isFinite));
    assert.ok(finite, 'positions stay finite');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a bad OBJ is refused with its reason as text, and the running world is untouched', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await waitSteps(page, 5);
    await page.evaluate(() => window.minipbd.app.setPaused(true));
    await waitFrames(page, 2);
    const state = () => page.evaluate(() => ({ hash: window.minipbd.world.hash(), steps: window.minipbd.world.stats().steps, objects: window.minipbd.scene.objects.length }));
    const s0 = await state();
    const cases = [
      ['nan.obj', { body: 'v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' }, /line 1/],
      ['huge.obj', { body: 'v 1e300 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' }, /line 1/],
      ['range.obj', { body: 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' }, /line 4/],
      ['open.obj', { body: cubeObj(0.3, { drop: 1 }) }, /closed|open|edge/i],
      ['garbage.obj', { body: '\u0000\u0001\u0002binary' }, /binary|text/i],
      ['big.obj', { bytes: 100 * 1024 * 1024 }, /bytes/],
      ['<b>bold</b>.obj', { body: 'v 0 0 0\n' }, /face|triangle|surface/i],
      ['notes.txt', { body: 'hello' }, /neither/],
    ];
    for (const [name, file, reason] of cases) {
      await page.evaluate(() => document.getElementById('message-close').click());
      await dropFile(page, name, file);
      await page.waitForFunction(() => !document.getElementById('message').hidden, null, { timeout: READY_TIMEOUT });
      const shown = await page.evaluate(() => ({
        text: document.getElementById('message-text').textContent,
        elements: document.getElementById('message-text').children.length,
      }));
      assert.ok(shown.text.includes(name), `${name}: the message names the file (${shown.text})`);
      assert.match(shown.text, reason, `${name}: the message says why (${shown.text})`);
      assert.equal(shown.elements, 0, `${name}: the message is text, no markup`);
      assert.deepEqual(await state(), s0, `${name}: the world is untouched`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a dropped .json scene opens; a broken one is refused and the scene keeps running', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const text = await page.evaluate(async () => JSON.stringify((await import('./js/format/builtin-scenes.js')).builtinScenes.chain));
    await dropFile(page, 'chain.json', { body: text, type: 'application/json' });
    await page.waitForFunction(() => window.minipbd.scene.objects[0]?.type === 'chain', null, { timeout: READY_TIMEOUT });
    await waitSteps(page, 5);
    const id = await page.evaluate(() => window.minipbd.world.id);
    await dropFile(page, 'broken.json', { body: '{"format": "minipbd-scene", "version": 2, "objects": []}' });
    await page.waitForFunction(() => !document.getElementById('message').hidden, null, { timeout: READY_TIMEOUT });
    const msg = await page.locator('#message-text').textContent();
    assert.match(msg, /broken\.json/);
    assert.match(msg, /objects/, `the reason names what is wrong (${msg})`);
    assert.equal(await page.evaluate(() => window.minipbd.world.id), id, 'the running world stays');
    await waitSteps(page, 5);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
