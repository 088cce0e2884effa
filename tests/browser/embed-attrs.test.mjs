// embed-attrs.test.mjs — <minipbd-scene>'s model-viewer-like attributes (embed/element-attrs.js, embed/attrs.js):
// alt (the accessible name of the canvas and the poster, by default the scene's name in the page's language),
// poster (an image in place of the drawing, before start and when WebGL2 is missing; only http(s), relative and
// data:image URLs), loading (lazy: no WebGL context until scrolled into view; eager: the world is built at once),
// controls="none" (no play button, no grabbing or orbiting), camera-orbit / camera-target / field-of-view (set the
// camera, follow changes, bad values refused with a message while the element runs on); and the demo's
// "Copy embed code" (panel/share.js, panel/embed-code.js), whose element snippet, pasted into a fresh page, shows
// the same scene from the same camera, and whose iframe snippet shows the same scene.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, hostPage, recordSceneEvents, openPage, chooseScene, TEST_TIMEOUT, READY_TIMEOUT } from './helpers.mjs';
import { STRINGS } from '../../web/js/i18n/i18n.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { parseCameraOrbit, parseCameraTarget, parseFieldOfView, formatCameraOrbit } from '../../web/js/embed/attrs.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const DEG = Math.PI / 180;

const host = (html, { name = '__attrs.html', initScripts = [], contextOptions = {} } = {}) =>
  hostPage(env, html, { name, initScripts: [recordSceneEvents, ...initScripts], contextOptions });

const waitLoaded = (page, ids) => page.waitForFunction((ids) => ids.every((id) => window.__events.some((e) => e.id === id && e.type === 'load')),
  ids, { timeout: READY_TIMEOUT });

/** Numbers equal to within `eps`, field by field. */
function near(actual, expected, eps, what) {
  for (const k of Object.keys(expected)) {
    assert.ok(Math.abs(actual[k] - expected[k]) <= eps, `${what}.${k}: ${actual[k]} vs ${expected[k]}`);
  }
}

const orbitOf = (page, id) => page.evaluate((id) => document.getElementById(id).getCameraOrbit(), id);

test('alt names the canvas and the poster; the camera attributes set the camera; controls="none"; bad values are refused and the element runs', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`<!doctype html><html lang="en"><body style="margin:0">
    <minipbd-scene id="a" scene="chain" alt="A swinging chain" camera-orbit="30deg 60deg 5m" camera-target="0 150cm 0" field-of-view="50deg" width="300" height="190"></minipbd-scene>
    <div lang="zh"><minipbd-scene id="zh" scene="flag" width="300" height="190"></minipbd-scene></div>
    <minipbd-scene id="still" scene="chain" controls="none" width="300" height="190"></minipbd-scene>
    <minipbd-scene id="bad" scene="chain" camera-orbit="1 2" camera-target="a b c" field-of-view="500deg" poster="javascript:alert(1)" loading="soon" controls="maybe" width="300" height="190"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>`);
  try {
    await waitLoaded(page, ['a', 'zh', 'still', 'bad']);
    const ax = (id) => page.evaluate((id) => {
      const el = document.getElementById(id);
      const canvas = el.shadowRoot.querySelector('canvas');
      return { canvas: canvas.getAttribute('aria-label'), role: canvas.getAttribute('role'), poster: el.shadowRoot.querySelector('.poster').getAttribute('aria-label') };
    }, id);
    // alt: the canvas's and the poster's name; Playwright's role engine computes the same accessible name.
    assert.deepEqual(await ax('a'), { canvas: 'A swinging chain', role: 'img', poster: 'A swinging chain' });
    // How to use it is the canvas's description (the hint it points at, in the page's language).
    assert.equal(await page.evaluate(() => {
      const root = document.getElementById('zh').shadowRoot;
      return root.getElementById(root.querySelector('canvas').getAttribute('aria-describedby')).textContent;
    }), STRINGS.zh['embed.view']);
    assert.equal(await page.getByRole('img', { name: 'A swinging chain', exact: true, includeHidden: true }).count(), 2, 'the canvas and the poster (hidden now) are named by alt');
    assert.equal(await page.getByRole('img', { name: 'A swinging chain', exact: true }).evaluate((n) => n.localName), 'canvas', 'the one shown: the canvas');
    // Without alt: the scene's name in the page's language.
    const zhName = STRINGS.zh['embed.poster.label'].replace('{name}', STRINGS.zh['scene.flag']);
    assert.deepEqual(await ax('zh'), { canvas: zhName, role: 'img', poster: zhName });
    assert.equal((await ax('still')).canvas, STRINGS.en['embed.poster.label'].replace('{name}', 'Pendulum chain'));
    // alt changed later (a property reflecting it): both follow.
    await page.evaluate(() => { document.getElementById('a').alt = 'Chain, <b>bold</b>'; });
    assert.deepEqual(await ax('a'), { canvas: 'Chain, <b>bold</b>', role: 'img', poster: 'Chain, <b>bold</b>' });
    assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelectorAll('b').length), 0, 'alt is text only');

    // The camera attributes: θ φ r (φ from straight up), the target, the field of view.
    near(await orbitOf(page, 'a'), { theta: 30 * DEG, phi: 60 * DEG, radius: 5 }, 1e-9, 'orbit');
    assert.deepEqual(await page.evaluate(() => document.getElementById('a').getCameraTarget()), { x: 0, y: 1.5, z: 0 });
    const cam = await page.evaluate(() => ({ pitch: document.getElementById('a')._camera.pitch, fov: document.getElementById('a')._camera.fov }));
    assert.ok(Math.abs(cam.pitch - 30 * DEG) < 1e-9, 'φ 60deg is a pitch of 30deg');
    assert.equal(cam.fov, 50);
    // Changed at run time through the property: the camera jumps there; auto keeps the scene's value.
    await page.evaluate(() => { document.getElementById('a').cameraOrbit = 'auto 90deg 250cm'; });
    assert.equal(await page.evaluate(() => document.getElementById('a').getAttribute('camera-orbit')), 'auto 90deg 250cm', 'reflected');
    near(await orbitOf(page, 'a'), { theta: builtinScenes.chain.camera.yaw, phi: 90 * DEG, radius: 2.5 }, 1e-9, 'auto orbit');
    // Removed: the scene's own camera again; reset() keeps the attributes' camera.
    await page.evaluate(() => { document.getElementById('a').removeAttribute('camera-orbit'); });
    const sc = builtinScenes.chain.camera;
    near(await orbitOf(page, 'a'), { theta: sc.yaw, phi: Math.PI / 2 - sc.pitch, radius: sc.distance }, 1e-9, 'scene orbit');
    await page.evaluate(() => { const el = document.getElementById('a'); el.cameraOrbit = '-45deg 1.2rad 3m'; el.reset(); });
    near(await orbitOf(page, 'a'), { theta: -45 * DEG, phi: 1.2, radius: 3 }, 1e-9, 'after reset');

    // controls="none": no play button, the canvas is out of the tab order, a drag neither orbits nor grabs, and a
    // finger on it belongs to the page.
    const still = () => page.evaluate(() => {
      const el = document.getElementById('still');
      const button = el.shadowRoot.querySelector('button');
      const canvas = el.shadowRoot.querySelector('canvas');
      return { controls: el.controls, button: button.checkVisibility(), tab: canvas.tabIndex, touch: getComputedStyle(canvas).touchAction };
    });
    assert.deepEqual(await still(), { controls: 'none', button: false, tab: -1, touch: 'auto' });
    const before = await orbitOf(page, 'still');
    const box = await page.locator('#still').boundingBox();
    await page.mouse.move(box.x + 20, box.y + 20);
    await page.mouse.down();
    for (let s = 1; s <= 6; s++) await page.mouse.move(box.x + 20 + 25 * s, box.y + 20 + 10 * s);
    await page.mouse.up();
    await page.keyboard.press('ArrowLeft');
    assert.deepEqual(await orbitOf(page, 'still'), before, 'no orbit without controls');
    // The same drag on an element with controls orbits it (so the drag above did reach the element).
    const aBefore = await orbitOf(page, 'zh');
    const zb = await page.locator('#zh').boundingBox();
    await page.mouse.move(zb.x + 10, zb.y + 10);
    await page.mouse.down();
    for (let s = 1; s <= 6; s++) await page.mouse.move(zb.x + 10 + 25 * s, zb.y + 10 + 5 * s);
    await page.mouse.up();
    assert.notDeepEqual(await orbitOf(page, 'zh'), aBefore, 'a drag with controls orbits');
    // Back to controls: the button and the canvas's input return.
    await page.evaluate(() => { document.getElementById('still').controls = 'auto'; });
    assert.deepEqual(await still(), { controls: 'auto', button: true, tab: 0, touch: 'pan-y' });

    // Bad values: each refused with a message naming it, on the console and in attributeErrors; the element runs
    // with the defaults (the scene's camera, the drawn poster, controls on).
    const bad = await page.evaluate(() => {
      const el = document.getElementById('bad');
      return { errors: el.attributeErrors, world: el.world !== null, failure: el.failure, loading: el.loading, controls: el.controls,
        img: el.shadowRoot.querySelectorAll('img').length, button: el.shadowRoot.querySelector('button').checkVisibility(),
        orbit: el.getCameraOrbit(), fov: el._camera.fov };
    });
    assert.deepEqual(Object.keys(bad.errors).sort(), ['camera-orbit', 'camera-target', 'controls', 'field-of-view', 'loading', 'poster']);
    assert.equal(bad.errors['camera-orbit'], parseCameraOrbit('1 2').error);
    assert.match(bad.errors['camera-orbit'], /needs 3 values/);
    assert.match(bad.errors['camera-target'], /x "a" is not a distance/);
    assert.match(bad.errors['field-of-view'], /within 10deg\.\.120deg/);
    assert.match(bad.errors.poster, /scheme "javascript:" is not allowed/);
    assert.match(bad.errors.loading, /not one of auto, lazy, eager/);
    assert.match(bad.errors.controls, /not one of auto, none/);
    assert.deepEqual([bad.world, bad.failure, bad.loading, bad.controls, bad.img, bad.button], [true, null, 'auto', 'auto', 0, true]);
    near(bad.orbit, { theta: sc.yaw, phi: Math.PI / 2 - sc.pitch, radius: sc.distance }, 1e-9, 'the scene camera');
    assert.equal(bad.fov, sc.fov);
    // A bad value set later is refused the same way: as if the attribute were absent (the scene's target).
    await page.evaluate(() => { document.getElementById('a').cameraTarget = '0 1 NaN'; });
    assert.deepEqual(await page.evaluate(() => document.getElementById('a').getCameraTarget()), { x: 0, y: sc.target[1], z: 0 }, "the scene's target");
    assert.match(await page.evaluate(() => document.getElementById('a').attributeErrors['camera-target']), /z "nan" is not a distance/);
    // Said once each on the console, and nothing else went wrong.
    const warned = problems.filter((p) => p.startsWith('console.warning: <minipbd-scene#'));
    assert.equal(warned.length, 7, warned.join('\n'));
    for (const name of ['camera-orbit', 'camera-target', 'field-of-view', 'poster', 'loading', 'controls']) {
      assert.ok(warned.some((w) => w.includes('#bad>') && w.includes(name)), `${name} warned`);
    }
    assert.deepEqual(problems.filter((p) => !warned.includes(p)), []);
    assert.ok(!(await page.evaluate(() => window.__events.some((e) => e.type === 'error'))), 'no error event for a refused attribute');
  } finally {
    await context.close();
  }
});

// A 16 x 10 image, solid red, as an SVG data URL (an image is an image: its scripts never run in <img>).
const RED = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="10"><rect width="16" height="10" fill="#e00000"/></svg>')}`;

/** Share of red pixels in a screenshot of `selector`. */
async function redShare(page, selector) {
  const png = await page.locator(selector).screenshot();
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const ctx = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let red = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 40 && d[i + 2] < 40) red++;
    return red / (d.length / 4);
  }, png.toString('base64'));
}

test('poster: the image replaces the drawing before start and when WebGL2 is missing; one that fails to load gives the drawing back', { timeout: TEST_TIMEOUT }, async () => {
  const noWebGL2 = () => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) { return type === 'webgl2' ? null : getContext.call(this, type, ...rest); };
  };
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <minipbd-scene id="a" scene="flag" poster="${RED}" width="400" height="250"></minipbd-scene>
    <minipbd-scene id="missing" scene="flag" poster="no-such-poster.png" width="400" height="250"></minipbd-scene>
    <div style="height:3000px"></div>
    <minipbd-scene id="later" scene="cloth" poster="${RED}" width="400" height="250"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>`, { initScripts: [noWebGL2] });
  try {
    await page.waitForFunction(() => window.__events.filter((e) => e.type === 'error').length >= 2, null, { timeout: READY_TIMEOUT });
    const posterOf = (id) => page.evaluate((id) => {
      const el = document.getElementById(id);
      const img = el.shadowRoot.querySelector('.poster img');
      return { shown: !el.shadowRoot.querySelector('.poster').hidden, img: img ? { alt: img.alt, loaded: img.complete && img.naturalWidth > 0 } : null,
        art: el.shadowRoot.querySelector('.poster-art').checkVisibility(), failure: el.failure?.code ?? null, world: el.world !== null };
    }, id);
    // Not started yet (far below): the image is already the poster, nothing else loaded.
    await page.waitForFunction(() => document.getElementById('later').shadowRoot.querySelector('.poster img')?.complete);
    assert.deepEqual(await posterOf('later'), { shown: true, img: { alt: '', loaded: true }, art: false, failure: null, world: false });
    // WebGL2 missing: the image stays, with the reason as text.
    assert.deepEqual(await posterOf('a'), { shown: true, img: { alt: '', loaded: true }, art: false, failure: 'webgl', world: false });
    assert.ok(await redShare(page, '#a') > 0.5, 'the image is what is seen');
    // An image that cannot be loaded: the drawing again, and a warning.
    await page.waitForFunction(() => document.getElementById('missing').shadowRoot.querySelector('.poster img') === null);
    assert.deepEqual(await posterOf('missing'), { shown: true, img: null, art: true, failure: 'webgl', world: false });
    assert.ok(await redShare(page, '#missing') < 0.01);
    assert.ok(problems.some((p) => p.includes('#missing>: the poster image could not be loaded')), problems.join('\n'));
    assert.deepEqual(problems.filter((p) => !p.includes('no-such-poster.png') && !p.includes('#missing>') && !/404/.test(p)), []);
    // Removing the attribute gives the drawing back.
    await page.evaluate(() => { document.getElementById('a').poster = null; });
    assert.equal((await posterOf('a')).art, true);
  } finally {
    await context.close();
  }
});

test('loading: lazy (the default) makes no WebGL context until scrolled into view; eager builds the world at once', { timeout: TEST_TIMEOUT }, async () => {
  const countContexts = () => {
    window.__gl = 0;
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
      const c = getContext.call(this, type, ...rest);
      if (type === 'webgl2' && c) window.__gl++;
      return c;
    };
  };
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <div style="height:2500px">top</div>
    <minipbd-scene id="lazy" scene="chain" loading="lazy" width="400" height="250"></minipbd-scene>
    <div style="height:2500px"></div>
    <minipbd-scene id="auto" scene="chain" width="400" height="250"></minipbd-scene>
    <div style="height:2500px"></div>
    <minipbd-scene id="eager" scene="chain" loading="eager" width="400" height="250"></minipbd-scene>
    <script type="module" src="./js/embed.js"></script></body></html>`, { initScripts: [countContexts] });
  try {
    await waitLoaded(page, ['eager']);
    await sleep(500);
    const read = () => page.evaluate(() => ({ gl: window.__gl, ...Object.fromEntries(['lazy', 'auto', 'eager'].map((id) => {
      const el = document.getElementById(id);
      return [id, { world: el.world !== null, gfx: el.graphicsActive, loading: el.loading }];
    })) }));
    assert.deepEqual(await read(), {
      gl: 0,
      lazy: { world: false, gfx: false, loading: 'lazy' },
      auto: { world: false, gfx: false, loading: 'auto' },
      eager: { world: true, gfx: false, loading: 'eager' }, // built off screen; the context waits for the view
    });
    await page.evaluate(() => document.getElementById('lazy').scrollIntoView());
    await waitLoaded(page, ['lazy']);
    await page.waitForFunction(() => document.getElementById('lazy').graphicsActive);
    const after = await read();
    assert.equal(after.gl, 1, 'one context: the element in view');
    assert.deepEqual([after.auto.world, after.eager.gfx], [false, false]);
    // The eager element draws as soon as it is seen (its world was ready).
    await page.evaluate(() => document.getElementById('eager').scrollIntoView());
    await page.waitForFunction(() => document.getElementById('eager').graphicsActive, null, { timeout: READY_TIMEOUT });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Copy embed code: the element snippet in a fresh page shows the same scene from the same camera; the iframe snippet the same scene; both languages', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 720 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  const { page, problems } = await openPage(env.browser, env.url, { context });
  try {
    await chooseScene(page, 'flag');
    // A camera of the user's own: orbited and zoomed away from the scene's.
    await page.evaluate(() => { const c = window.minipbd.app.camera; c.orbit(0.7, 0.2); c.zoom(1.3); c.target = [0.2, 1.4, -0.1]; });
    assert.equal(await page.locator('#copy-embed').textContent(), 'Copy embed code');
    await page.click('#copy-embed');
    await page.waitForFunction(() => document.getElementById('embed-field').value.includes('<minipbd-scene'), null, { timeout: READY_TIMEOUT });
    const made = await page.evaluate(async () => ({
      field: document.getElementById('embed-field').value,
      clip: await navigator.clipboard.readText().catch(() => null),
      status: document.getElementById('embed-status').textContent,
      camera: window.minipbd.app.camera.toJSON(),
      name: window.minipbd.world.scene.name,
    }));
    if (made.clip !== null) assert.equal(made.clip, made.field, 'the clipboard holds what the box shows');
    assert.equal(made.status, STRINGS.en['share.embedCopied']);
    const [elementSnippet, iframeSnippet] = made.field.trim().split('\n\n');
    assert.match(elementSnippet, /^<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/js\/embed\.js"><\/script>\n<minipbd-scene src="http:\/\/127\.0\.0\.1:\d+\/(index\.html)?#s=1\.[^"]+" camera-orbit="[^"]+" camera-target="[^"]+" field-of-view="[^"]+" width="640" height="400"><\/minipbd-scene>$/);
    assert.match(iframeSnippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html#s=1\.[^"]+" width="640" height="400" title="MiniPBD scene: Flag tearing in wind" loading="lazy" style="border: 0"><\/iframe>$/);
    const attr = (name) => new RegExp(`${name}="([^"]+)"`).exec(elementSnippet)[1];
    assert.equal(attr('camera-orbit'), formatCameraOrbit(made.camera));
    const orbit = parseCameraOrbit(attr('camera-orbit')).value;
    const target = parseCameraTarget(attr('camera-target')).value;
    assert.equal(parseFieldOfView(attr('field-of-view')).value, made.camera.fov);
    near(orbit, { theta: made.camera.yaw, phi: Math.PI / 2 - made.camera.pitch, radius: made.camera.distance }, 1e-3, 'copied orbit');

    // The element snippet, pasted as it is into a fresh page on the same site.
    const fresh = await host(`<!doctype html><html><body style="margin:0">\n${elementSnippet}\n</body></html>`, { name: '__pasted.html' });
    try {
      await fresh.page.waitForFunction(() => document.querySelector('minipbd-scene')?.world, null, { timeout: READY_TIMEOUT });
      const got = await fresh.page.evaluate(() => {
        const el = document.querySelector('minipbd-scene');
        return { name: el.world.scene.name, orbit: el.getCameraOrbit(), target: el.getCameraTarget(), fov: el._camera.fov, errors: el.attributeErrors };
      });
      assert.equal(got.name, made.name, 'the same scene');
      near(got.orbit, orbit, 1e-9, 'the element camera is the copied one');
      near(got.target, target, 1e-9, 'target');
      near(got.orbit, { theta: made.camera.yaw, phi: Math.PI / 2 - made.camera.pitch, radius: made.camera.distance }, 1e-3, 'and the demo\'s');
      assert.deepEqual(got.errors, {});
      assert.deepEqual(fresh.problems, []);
    } finally {
      await fresh.context.close();
    }
    // The iframe snippet in a fresh page: embed.html shows the same scene.
    const framed = await host(`<!doctype html><html><body style="margin:0">\n${iframeSnippet}\n</body></html>`, { name: '__framed.html' });
    try {
      const frame = await framed.page.waitForSelector('iframe').then((h) => h.contentFrame());
      await frame.waitForFunction(() => document.querySelector('minipbd-scene')?.world, null, { timeout: READY_TIMEOUT });
      assert.equal(await frame.evaluate(() => document.querySelector('minipbd-scene').world.scene.name), made.name);
      assert.deepEqual(framed.problems, []);
    } finally {
      await framed.context.close();
    }

    // In Chinese: the button, the box's name and the note.
    await page.selectOption('#language-select', 'zh');
    assert.equal(await page.locator('#copy-embed').textContent(), STRINGS.zh['share.copyEmbed']);
    assert.equal(await page.getAttribute('#embed-field', 'aria-label'), STRINGS.zh['share.embedField']);
    await page.click('#copy-embed');
    await page.waitForFunction((s) => document.getElementById('embed-status').textContent === s, STRINGS.zh['share.embedCopied']);
    assert.match(await page.inputValue('#embed-field'), /title="MiniPBD 场景：/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('embed.html takes the camera, controls and alt from its query', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await host(`<!doctype html><html><body style="margin:0">
    <iframe src="embed.html?camera-orbit=-20deg%2080deg%206m&amp;camera-target=0%202m%200&amp;controls=none&amp;alt=My%20chain#scene=chain"
      width="400" height="250" title="chain"></iframe>
    <iframe src="embed.html?camera-orbit=nonsense#scene=chain" width="400" height="250" title="chain 2"></iframe></body></html>`);
  try {
    const frames = await Promise.all([0, 1].map((k) => page.locator('iframe').nth(k).elementHandle().then((h) => h.contentFrame())));
    for (const f of frames) await f.waitForFunction(() => document.querySelector('minipbd-scene')?.world, null, { timeout: READY_TIMEOUT });
    const read = (f) => f.evaluate(() => {
      const el = document.querySelector('minipbd-scene');
      return { orbit: el.getCameraOrbit(), target: el.getCameraTarget(), controls: el.controls, label: el.shadowRoot.querySelector('canvas').getAttribute('aria-label'),
        errors: el.attributeErrors };
    });
    const a = await read(frames[0]);
    near(a.orbit, { theta: -20 * DEG, phi: 80 * DEG, radius: 6 }, 1e-9, 'orbit');
    assert.deepEqual([a.target, a.controls, a.label, a.errors], [{ x: 0, y: 2, z: 0 }, 'none', 'My chain', {}]);
    const b = await read(frames[1]);
    const sc = builtinScenes.chain.camera;
    near(b.orbit, { theta: sc.yaw, phi: Math.PI / 2 - sc.pitch, radius: sc.distance }, 1e-9, 'refused: the scene camera');
    assert.match(b.errors['camera-orbit'], /needs 3 values/);
    assert.deepEqual(problems.filter((p) => !p.includes('camera-orbit')), []);
  } finally {
    await context.close();
  }
});
