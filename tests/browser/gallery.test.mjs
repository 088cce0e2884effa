// gallery.test.mjs — the gallery page (gallery.html, js/gallery/): a card for every built-in scene with its name, its
// one-line description in the page's language and a link that opens the demo on that scene; embeds that start only
// in view, are removed far away, and never hold more WebGL contexts than the budget; the demo's ?scene=ID and its
// particle dots (off on cloth, on for a chain's beads, the View switch showing and toggling it).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, watchProblems, waitReady, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';
import { BUILTIN_SCENE_IDS, builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { STRINGS } from '../../web/js/i18n/i18n.js';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

async function openGallery(query = '', viewport = { width: 1000, height: 700 }) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.url}gallery.html${query}`);
  await page.waitForFunction(() => window.minipbdGallery?.ready === true, null, { timeout: READY_TIMEOUT });
  return { context, page, problems };
}

/** Per card: its scene, whether it is on screen now, whether it holds an element, and whether that element runs. */
const cards = (page) => page.evaluate(() => [...document.querySelectorAll('.card')].map((card) => {
  const r = card.querySelector('.stage').getBoundingClientRect();
  const el = card.querySelector('minipbd-scene');
  return { id: card.dataset.scene, inView: r.bottom > 0 && r.top < innerHeight, mounted: el !== null, started: el?.world != null, graphics: el?.graphicsActive ?? false };
}));

test('every built-in scene has a card: name, description in both languages, a link to the demo with it', { timeout: TEST_TIMEOUT }, async () => {
  for (const lang of ['en', 'zh']) {
    const { context, page, problems } = await openGallery(`?lang=${lang}`);
    try {
      const shown = await page.evaluate(() => [...document.querySelectorAll('.card')].map((c) => ({
        id: c.dataset.scene, name: c.querySelector('.card-name').textContent, description: c.querySelector('.card-description').textContent,
        href: c.querySelector('.card-open').getAttribute('href'), label: c.querySelector('.card-open').getAttribute('aria-label'),
      })));
      assert.deepEqual(shown.map((c) => c.id), [...BUILTIN_SCENE_IDS], `${lang}: one card per built-in scene, in the demo's order`);
      for (const c of shown) {
        const description = STRINGS[lang][`gallery.scene.${c.id}`];
        assert.ok(description && description !== STRINGS.en[`gallery.scene.${c.id}`] === (lang === 'zh'), `${lang}: ${c.id} has its own description`);
        assert.equal(c.description, description, `${lang}: ${c.id}'s description`);
        if (builtinScenes[c.id]) assert.ok(builtinScenes[c.id].name.startsWith(c.name) && c.name.length > 3, `${c.id}: named ${c.name}`);
        assert.equal(c.href, `/index.html?scene=${c.id}&lang=${lang}`, `${c.id}: links to the demo with it, in the page's language`);
        assert.ok(c.label.includes(c.name), `${c.id}: the link says which scene`);
      }
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-CN' : 'en');
      assert.equal(await page.title(), STRINGS[lang]['gallery.title']);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('embeds start only in view, far cards hold none, and the page stays within the WebGL context budget', { timeout: TEST_TIMEOUT }, async () => {
  const { context, page, problems } = await openGallery();
  try {
    const max = await page.evaluate(() => window.minipbdGallery.max);
    assert.equal(max, 8);
    // The cards on screen start; none off screen does (a mounted card below the fold waits for its element's view).
    await page.waitForFunction(() => [...document.querySelectorAll('.card')].filter((c) => {
      const r = c.querySelector('.stage').getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    }).every((c) => c.querySelector('minipbd-scene')?.world), null, { timeout: READY_TIMEOUT });
    let all = await cards(page);
    assert.ok(all.filter((c) => c.inView).length >= 2, 'some cards are on screen');
    for (const c of all) {
      if (!c.inView) assert.equal(c.started, false, `${c.id} is off screen and has not started`);
      if (c.inView) assert.ok(c.graphics, `${c.id} is on screen and draws`);
    }
    assert.equal(all.at(-1).mounted, false, 'the last card, far below, holds no element');
    assert.ok(all.filter((c) => c.mounted).length < all.length, 'far cards hold no element');

    // Scroll down in steps to the bottom: never more than the budget, and the first cards let go of theirs.
    let maxLive = 0;
    const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    for (let y = 0; y <= height + 350; y += 350) {
      await page.evaluate((y) => scrollTo(0, y), y);
      await page.waitForTimeout(150);
      const r = await page.evaluate(async () => ({ live: (await import('./js/embed.js')).liveContexts(), mounted: window.minipbdGallery.mounted().length }));
      maxLive = Math.max(maxLive, r.live);
      assert.ok(r.mounted <= 8, `at most 8 cards hold an element (${r.mounted} at ${y} px)`);
    }
    assert.ok(maxLive <= max, `at most ${max} live contexts (saw ${maxLive})`);
    const last = BUILTIN_SCENE_IDS.at(-1);
    await page.waitForFunction((id) => document.querySelector(`#card-${id} minipbd-scene`)?.world, last, { timeout: READY_TIMEOUT });
    all = await cards(page);
    assert.equal(all[0].mounted, false, 'the first card, far above now, holds no element (its world and context freed)');
    assert.ok(all.filter((c) => c.graphics).every((c) => c.inView || c.mounted), 'only mounted cards draw');
    // The bunny's card is named from its model once read.
    assert.equal(await page.locator('#card-bunny .card-name').textContent(), 'Bunny');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a card\'s link opens the demo on its scene; dots are off on cloth and on for a chain, and the switch toggles them', { timeout: TEST_TIMEOUT }, async () => {
  const { context, page, problems } = await openGallery();
  try {
    await page.click('#card-cloth .card-open');
    await waitReady(page);
    // Leaving the gallery aborts its embeds' requests in flight (shaders, workers): that is the navigation.
    problems.splice(0, problems.length, ...problems.filter((p) => !/^requestfailed: .* net::ERR_ABORTED$/.test(p)));
    const cloth = await page.evaluate(() => ({ key: window.minipbd.app.state.sceneKey, dots: window.minipbd.app.state.view.showParticles, box: document.getElementById('show-particles').checked, search: location.search }));
    assert.deepEqual(cloth, { key: 'cloth', dots: false, box: false, search: '?scene=cloth' });
    await page.check('#show-particles');
    assert.equal(await page.evaluate(() => window.minipbd.app.state.view.showParticles), true, 'the switch turns them on');
    const id = await page.evaluate(() => window.minipbd.world.id);
    await page.click('#reset');
    await page.waitForFunction((id) => window.minipbd.world.id !== id, id, { timeout: READY_TIMEOUT });
    assert.equal(await page.evaluate(() => window.minipbd.app.state.view.showParticles), true, 'Reset keeps the switch');
    // Another scene from the picker: the demo leaves ?scene= behind, and a chain shows its beads.
    await page.selectOption('#scene-select', 'chain');
    await page.waitForFunction(() => window.minipbd.app.state.sceneKey === 'chain', null, { timeout: READY_TIMEOUT });
    assert.deepEqual(await page.evaluate(() => [window.minipbd.app.state.view.showParticles, document.getElementById('show-particles').checked, location.search]), [true, true, '']);
    await page.selectOption('#scene-select', 'flag');
    await page.waitForFunction(() => window.minipbd.app.state.sceneKey === 'flag', null, { timeout: READY_TIMEOUT });
    assert.equal(await page.evaluate(() => document.getElementById('show-particles').checked), false, 'a cloth scene: off');
    // An unknown ?scene= says so and opens the default scene.
    await page.goto(`${env.url}index.html?scene=nope`);
    await waitReady(page);
    assert.match(await page.locator('#message-text').textContent(), /no built-in scene "nope"/);
    assert.equal(await page.evaluate(() => window.minipbd.app.state.sceneKey), 'cloth');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
