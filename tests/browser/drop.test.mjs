// drop.test.mjs — files dropped on the page (input/drop.js, app/files.js): a real drop event whose DataTransfer
// holds a File made in the page. An OBJ model becomes a soft body (a rigid one with the panel's switch) that the
// pointer can grab and drag; a bad OBJ shows its reason as text and leaves the running world exactly as it was;
// a dropped .json scene opens.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, waitSteps, waitFrames, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { validateScene } from '../../web/js/format/scene.js';
import { sceneFileText } from '../../web/js/format/scene-file.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

// A closed cube of side `s`, every triangle counter-clockwise seen from outside (outward normals).
function cubeObj(s = 0.3, { drop = 0, flip = false } = {}) {
  const v = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]];
  const f = [[1, 3, 2], [1, 4, 3], [5, 6, 7], [5, 7, 8], [1, 2, 6], [1, 6, 5], [4, 8, 7], [4, 7, 3], [1, 5, 8], [1, 8, 4], [2, 3, 7], [2, 7, 6]];
  return ['o cube', ...v.map((p) => `v ${p.map((c) => c * s).join(' ')}`), ...f.slice(drop).map((t) => `f ${(flip ? [t[0], t[2], t[1]] : t).join(' ')}`)].join('\n') + '\n';
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
    // A press while a step is in flight waits for it (sim/driver.js), so the grab may come a frame later.
    await page.waitForFunction(() => window.__grab.length > 0, null, { timeout: 5000 }).catch(() => {});
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
      // (an open surface is a body since the generalized winding number; an inside-out one is refused)
      ['inside-out.obj', { body: cubeObj(0.3, { flip: true }) }, /inside out/i],
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

/** The message a link whose JSON is `text` gets from the link decoder (format/link.js), or null if it opens. */
function linkMessage(page, text) {
  return page.evaluate(async (text) => {
    const { decodeLink, base64urlEncode } = await import('./js/format/link.js');
    const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const fragment = `s=1.${base64urlEncode(new Uint8Array(await new Response(stream).arrayBuffer()))}`;
    try { await decodeLink(fragment); return null; } catch (e) { return e.message; }
  }, text);
}

test('hostile scene files are refused as links are, with the message as text, and the running world goes on untouched', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    const good = JSON.parse(await page.evaluate(async () => JSON.stringify((await import('./js/format/builtin-scenes.js')).builtinScenes.chain)));
    const withObject = (o) => JSON.stringify({ ...good, objects: [{ ...good.objects[0], ...o }] });
    await waitSteps(page, 5);
    await page.evaluate(() => window.minipbd.app.setPaused(true));
    await waitFrames(page, 2);
    const state = () => page.evaluate(() => ({ id: window.minipbd.world.id, hash: window.minipbd.world.hash(), steps: window.minipbd.world.stats().steps, name: window.minipbd.scene.name }));
    const s0 = await state();
    // [file name, its text, what the message must say]; `link: true` cases must show the link decoder's message.
    const cases = [
      ['bad.json', '{"format": "minipbd-scene", "version": 2, "objects": [', /not JSON/, false],
      ['proto.json', `{"format": "minipbd-scene", "version": 2, "__proto__": {"polluted": 1}, "objects": ${JSON.stringify(good.objects)}}`, /forbidden key __proto__/, true],
      ['proto-deep.json', withObject({ mass: 0.05 }).replace('"mass":0.05', '"mass":0.05,"__proto__":{"x":1}'), /forbidden key objects\[0\]\.__proto__/, true],
      ['huge-pins.json', withObject({ pins: Array.from({ length: 20000 }, () => 0) }), /objects\[0\]\.pins must be an array of at most 10000/, true],
      ['too-many.json', JSON.stringify({ ...good, objects: Array.from({ length: 65 }, () => good.objects[0]) }), /objects must be an array of 1\.\.64 objects/, true],
      ['range.json', withObject({ segments: 1e9 }), /objects\[0\]\.segments must be an integer in 1\.\.10000, got 1000000000/, true],
      ['infinite.json', withObject({ start: [0, 3, 0] }).replace('[0,3,0]', '[0,3,1e400]'), /objects\[0\]\.start\[2\] must be a number in \[-10000, 10000\], got Infinity/, true],
      ['dt.json', JSON.stringify({ ...good, solver: { ...good.solver, dt: 0.5 } }), /solver\.dt must be a number in \[0\.0001, 0\.1\], got 0\.5/, true],
      ['version.json', JSON.stringify({ ...good, version: 9 }), /version must be 1, 2 or 3/, true],
      ['deep.json', `${'['.repeat(100000)}${']'.repeat(100000)}`, /nested more than 16 levels/, false],
      ['latin1.json', null, /not UTF-8/, false],
      ['big.json', { bytes: 33 * 1024 * 1024 }, /33\.0 MB; a scene file may be at most 32\.0 MB/, false],
    ];
    for (const [name, body, reason, sameAsLink] of cases) {
      await page.evaluate(() => document.getElementById('message-close').click());
      if (body === null) {
        // bytes that are not UTF-8 (a Latin-1 é) in an otherwise fine scene
        await page.evaluate(({ name, text }) => {
          const bytes = new TextEncoder().encode(text.replace('chain', 'ch\u0001ain'));
          bytes[bytes.indexOf(1)] = 0xe9;
          window.minipbd.app.files.open([new File([bytes], name)]);
        }, { name, text: JSON.stringify(good) });
      } else {
        await dropFile(page, name, typeof body === 'string' ? { body } : body);
      }
      await page.waitForFunction(() => !document.getElementById('message').hidden, null, { timeout: READY_TIMEOUT });
      const shown = await page.evaluate(() => ({ text: document.getElementById('message-text').textContent, elements: document.getElementById('message-text').children.length }));
      assert.ok(shown.text.includes(name), `${name}: the message names the file (${shown.text})`);
      assert.match(shown.text, reason, `${name}: the message says why (${shown.text})`);
      assert.equal(shown.elements, 0, `${name}: the message is text, no markup`);
      if (sameAsLink) {
        const fromLink = await linkMessage(page, body);
        assert.ok(fromLink && shown.text.includes(fromLink), `${name}: the link decoder's own message (${fromLink})`);
      }
      assert.deepEqual(await state(), s0, `${name}: the world is untouched`);
      assert.equal(await page.evaluate(() => ({}).polluted), undefined, 'no prototype was polluted');
    }
    // And it goes on: the same world steps on from where it was.
    await page.evaluate(() => window.minipbd.app.stepN(7));
    const s1 = await state();
    assert.equal(s1.id, s0.id);
    assert.equal(s1.steps, s0.steps + 7);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Download scene saves a file that opens back, dropped or picked, to the same scene', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.selectOption('#scene-select', 'cloth-sphere');
    await page.waitForFunction(() => window.minipbd.app.state.sceneKey === 'cloth-sphere', null, { timeout: READY_TIMEOUT });
    const saving = page.waitForEvent('download');
    await page.evaluate(() => document.getElementById('download-scene').click());
    const download = await saving;
    assert.equal(download.suggestedFilename(), 'minipbd-cloth-on-a-sphere.json');
    const text = await new Promise((resolve, reject) => {
      download.createReadStream().then((s) => { let d = ''; s.on('data', (c) => { d += c; }); s.on('end', () => resolve(d)); s.on('error', reject); }, reject);
    });
    // Written for a person: 2-space indented, only what differs from the defaults (no ground, wind or fluid section
    // in this scene), the scene the page runs.
    const saved = validateScene(JSON.parse(text));
    assert.equal(text, sceneFileText(saved));
    assert.match(text, /^\{\n {2}"format": "minipbd-scene",\n {2}"version": 3,\n/);
    assert.deepEqual(Object.keys(JSON.parse(text)), ['format', 'version', 'name', 'solver', 'camera', 'colliders', 'objects']);
    assert.equal(JSON.parse(text).objects[0].stiffness, undefined, 'the cloth\'s default stiffness is left out');
    // Another scene first, then the saved file back, dropped: the same description (camera included).
    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.app.state.sceneKey === 'chain', null, { timeout: READY_TIMEOUT });
    await dropFile(page, 'cloth-on-a-sphere.json', { body: text });
    await page.waitForFunction(() => window.minipbd.scene.objects[0]?.name === 'sheet', null, { timeout: READY_TIMEOUT });
    assert.deepEqual(await page.evaluate(() => window.minipbd.world.describe()), saved, 'dropped: describe() is the saved scene');
    // Picked with the file picker: the same.
    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.app.state.sceneKey === 'chain', null, { timeout: READY_TIMEOUT });
    await page.setInputFiles('#open-file', { name: 'saved.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction(() => window.minipbd.scene.objects[0]?.name === 'sheet', null, { timeout: READY_TIMEOUT });
    assert.deepEqual(await page.evaluate(() => window.minipbd.world.describe()), saved, 'picked: describe() is the saved scene');
    await waitSteps(page, 3);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
