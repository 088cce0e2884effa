// respond.test.mjs — the page tells the truth and answers whatever a step costs (sim/driver.js, World.peekStats):
// on heavy scenes the readout refreshes at least 4 times a second and its step count rises, a click is answered
// at once, picking another scene does not wait for the old one's steps, and the elements of one page (the
// gallery) take turns at their one engine. Both builds: without isolation the single-thread build (slices on the
// page's thread), with it the threaded one (a runner worker).
//
// This machine renders WebGL in software and may be shared: no frame rate is asserted, and the limits on what a
// step costs are generous; the limits on what the page answers (200 ms, 1 s) are the product's.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';
import { encodeLink } from '../../web/js/format/link.js';
import { heavyScenes, openModels } from '../../bench/heavy-scenes.mjs';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Heavy links measured here: the built-in scenes whose steps cost the most (dam-break ~80 ms, floating ~60 ms,
// cloth-100k ~130 ms a step on one quiet core). A heavier link (a fluid at its cap with the largest smoothing
// radius) goes in this list once a single unit of its step is short (the C side bounds that).
const HEAVY = ['dam-break', 'cloth-100k'];
// And links at the format's limits (bench/heavy-scenes.mjs): a fluid at the particle cap with the largest smoothing
// radius, a hose at full rate, the 316 x 316 cloth with self-collision at its largest thickness, two resolution-24
// boxes overlapping at the largest particle radius, a 512 x 512 cloth with 4,096 pins in eight rows (its tethers'
// build held the single build's page 4.7 s before each pin island got its own grid). Each is opened as a link
// (hashchange), once it steps Pause and Resume are clicked, and another link is opened from it.
const HEAVY_LINKS = heavyScenes();

const builds = [{ isolation: false, build: 'single' }, { isolation: true, build: 'threads' }];
const envs = new Map();
before(async () => {
  for (const b of builds) envs.set(b.build, await openBrowser({ isolation: b.isolation }));
});
after(async () => {
  for (const env of envs.values()) await env.close();
});

/** Watches the readout (#readout): every refresh (its fields are written again) and every change of its text. */
function watchReadout(page) {
  return page.evaluate(() => {
    const el = document.getElementById('readout');
    const w = (window.readoutWatch = { refreshes: 0, texts: [el.textContent], at: [] });
    new MutationObserver(() => {
      w.refreshes++;
      const text = el.textContent;
      if (text !== w.texts.at(-1)) {
        w.texts.push(text);
        w.at.push(performance.now());
      }
    }).observe(el, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * The time between a click's event and the Pause button saying so (the page's thread was free for it), for four
 * presses (Pause, Resume, Pause, Resume) or `presses`: ms each.
 */
async function pauseLatencies(page, presses = 4) {
  const latencies = [];
  for (let k = 0; k < presses; k++) {
    await page.evaluate(() => {
      const b = document.getElementById('pause');
      window.clickAt = undefined;
      window.pauseLatency = new Promise((resolve) => {
        // What the click asks is read when its event comes (this capture listener runs before the button's): the page
        // may have paused itself just before (a step far beyond the machine pauses it once, saying so).
        document.addEventListener('click', (e) => {
          window.clickAt = e.timeStamp;
          window.clickWants = String(b.getAttribute('aria-pressed') !== 'true');
        }, { capture: true, once: true });
        const obs = new MutationObserver(() => {
          if (window.clickAt !== undefined && b.getAttribute('aria-pressed') === window.clickWants) {
            obs.disconnect();
            resolve(performance.now() - window.clickAt);
          }
        });
        obs.observe(b, { attributes: true });
        setTimeout(() => { obs.disconnect(); resolve(Infinity); }, 5000); // unanswered
      });
    });
    await page.click('#pause');
    latencies.push(await page.evaluate(() => window.pauseLatency));
    await sleep(300);
  }
  return latencies;
}

/** Opens `hash` in the page (hashchange) and resolves to the ms until the page runs a new world. */
const openHash = (page, hash) => page.evaluate((hash) => new Promise((resolve) => {
  const old = window.minipbd.app.state.world;
  const t0 = performance.now();
  location.hash = hash;
  const check = () => {
    const w = window.minipbd.app.state.world;
    if (w !== old && w) resolve(performance.now() - t0);
    else setTimeout(check, 5);
  };
  check();
}), hash);

const readoutSteps = (page) => page.evaluate(() => Number(document.getElementById('readout-steps').textContent.replace(/[^\d]/g, '')) || 0);

for (const { build } of builds) {
  test(`${build}: on the dam break the readout refreshes 4 times a second and its step count rises`, { timeout: TEST_TIMEOUT }, async () => {
    const env = envs.get(build);
    const { page, problems, context } = await openPage(env.browser, `${env.url}index.html?scene=dam-break`);
    try {
      assert.equal(await page.evaluate(() => window.minipbd.build.build), build);
      await watchReadout(page);
      const t0 = Date.now();
      await sleep(2000);
      const w = await page.evaluate(() => window.readoutWatch);
      // Before: none in slices (the readout waited for a free world, never there on a heavy scene). A refresh
      // writes the 4 fields at once: one observer call.
      assert.ok(w.refreshes >= 8, `the readout was written ${w.refreshes} times in 2 s`);
      // The step count shown rises (within seconds; steps of this scene cost ~80 ms on a quiet core).
      await page.waitForFunction(() => Number(document.getElementById('readout-steps').textContent.replace(/[^\d]/g, '')) >= 2, null, { timeout: READY_TIMEOUT, polling: 50 });
      const firstMs = Date.now() - t0;
      const shown = await readoutSteps(page);
      const real = await page.evaluate(() => window.minipbd.app.state.world.peekStats().steps);
      assert.ok(real >= shown && real - shown <= 8, `the readout shows the world's count (${shown} vs ${real})`);
      console.log(`# ${build}: readout refreshes in 2 s: ${w.refreshes}, text changes: ${w.texts.length - 1}, step count >= 2 after ${firstMs} ms`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${build}: on heavy scenes a click on Pause is answered within 200 ms, and another scene runs within 1 s`, { timeout: TEST_TIMEOUT * 2 }, async () => {
    const env = envs.get(build);
    const { page, problems, context } = await openPage(env.browser, `${env.url}index.html?scene=${HEAVY[0]}`);
    try {
      for (const key of HEAVY) {
        if (key !== HEAVY[0]) {
          await page.selectOption('#scene-select', key);
          await page.waitForFunction((k) => window.minipbd.app.state.sceneKey === k, key, { timeout: READY_TIMEOUT });
        }
        await page.waitForFunction(() => window.minipbd.app.state.world.peekStats().steps >= 1, null, { timeout: READY_TIMEOUT, polling: 50 });
        // A step far beyond this machine (a busy one) pauses the page once, saying so: run it again.
        await page.evaluate(() => window.minipbd.app.setPaused(false));
        const latencies = await pauseLatencies(page);
        console.log(`# ${build} ${key}: Pause/Resume answered ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms after the click event`);
        assert.ok(Math.max(...latencies) < 200, `${key}: Pause/Resume answered in ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms`);
        await page.evaluate(() => window.minipbd.app.setPaused(false));
      }
      // Another scene from a heavy one with steps due: the new world is there within 1 s, and runs.
      await sleep(500);
      const t = await page.evaluate(() => new Promise((resolve) => {
        const old = window.minipbd.app.state.world;
        const t0 = performance.now();
        const select = document.getElementById('scene-select');
        select.value = 'chain';
        select.dispatchEvent(new Event('change', { bubbles: true }));
        const check = () => {
          const w = window.minipbd.app.state.world;
          if (w !== old && window.minipbd.app.state.sceneKey === 'chain') resolve(performance.now() - t0);
          else setTimeout(check, 5);
        };
        check();
      }));
      console.log(`# ${build}: another scene from ${HEAVY.at(-1)} loaded in ${t.toFixed(0)} ms`);
      assert.ok(t < 1000, `the new scene was there in ${t.toFixed(0)} ms`);
      await page.waitForFunction(() => window.minipbd.app.state.world.peekStats().steps >= 3, null, { timeout: READY_TIMEOUT, polling: 50 });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${build}: links at the format's limits: Pause and Resume answered within 200 ms, another link runs within 1 s`, { timeout: TEST_TIMEOUT * 4 }, async () => {
    const env = envs.get(build);
    const { page, problems, context } = await openPage(env.browser, `${env.url}index.html?scene=chain`);
    try {
      const keys = Object.keys(HEAVY_LINKS);
      for (const key of keys) {
        const opened = await openHash(page, await encodeLink(HEAVY_LINKS[key]));
        await page.waitForFunction(() => window.minipbd.app.state.world.peekStats().steps >= 1, null, { timeout: READY_TIMEOUT * 2, polling: 50 });
        await page.evaluate(() => window.minipbd.app.setPaused(false)); // a step far beyond this machine pauses once
        const latencies = await pauseLatencies(page);
        await page.evaluate(() => window.minipbd.app.setPaused(false));
        await sleep(300);
        // from this link to the next (the last: to a light one), with steps due
        const next = key === keys.at(-1) ? await encodeLink(builtinScenes.chain) : await encodeLink(HEAVY_LINKS[keys[keys.indexOf(key) + 1]]);
        const ms = await openHash(page, next);
        console.log(`# ${build} ${key}: opened in ${opened.toFixed(0)} ms; Pause/Resume answered ${latencies.map((x) => x.toFixed(0)).join(', ')} ms; the next link's world in ${ms.toFixed(0)} ms`);
        // Every press: the fluid's statistics come from the steps now (World.peekFluidStats), not a search of their own
        // between two steps (0.3 s at the fluid's cap, which one press in 32 met: the test asked for the median then).
        assert.ok(Math.max(...latencies) < 200, `${key}: Pause/Resume answered in ${latencies.map((x) => x.toFixed(0)).join(', ')} ms`);
        assert.ok(ms < 1000, `${key}: the next link's world was there in ${ms.toFixed(0)} ms`);
        await page.evaluate(() => history.replaceState(null, '', location.pathname + location.search)); // the next hash is new
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  if (build === 'single') {
    // A step far beyond the machine pauses the page, saying so (sim/driver.js SLOW_STEP_MS, 1.5 s): that pause and its
    // notice belong to that world. Before, the next scene opened paused under the old notice and took no step.
    test(`${build}: a page paused because a link's step is far beyond the machine runs the next scene; a pause the user asked for stays`, { timeout: TEST_TIMEOUT * 2 }, async () => {
      const env = envs.get(build);
      const { page, problems, context } = await openPage(env.browser, `${env.url}index.html?scene=chain`);
      const state = () => page.evaluate(() => ({
        paused: window.minipbd.app.state.paused,
        pressed: document.getElementById('pause').getAttribute('aria-pressed'),
        notice: document.getElementById('notice').textContent,
        steps: window.minipbd.app.state.world.peekStats().steps,
      }));
      try {
        const heavy = await encodeLink(HEAVY_LINKS['fluid-cap']);
        const light = await encodeLink(builtinScenes.chain);
        const reopen = () => page.evaluate(() => history.replaceState(null, '', location.pathname + location.search));
        await openHash(page, heavy);
        // 200,000 fluid particles of ~270 neighbours each: seconds a step on any machine this runs on. (The rigid-cap
        // link was used here: 2 s a step on the machine this was written on, 0.76 s for its first and 0.15 s for the
        // next on a faster one, which never paused.)
        await page.waitForFunction(() => window.minipbd.app.state.paused, null, { timeout: READY_TIMEOUT * 2, polling: 50 });
        const slow = await state();
        assert.match(slow.notice, /\d s per step/, `the page paused itself and says why: "${slow.notice}"`);
        await reopen();
        await openHash(page, light);
        await page.waitForFunction(() => window.minipbd.app.state.world.peekStats().steps >= 5, null, { timeout: READY_TIMEOUT, polling: 50 });
        const next = await state();
        assert.equal(next.paused, false, 'the next scene runs');
        assert.equal(next.pressed, 'false', 'the Pause button says it runs');
        assert.equal(next.notice, '', 'the old scene\'s notice is gone');
        // The user's pause: kept across a new scene, which takes no step.
        await page.click('#pause');
        await reopen();
        await openHash(page, await encodeLink(builtinScenes.cloth));
        await sleep(1000);
        const kept = await state();
        assert.equal(kept.paused, true, 'a pause the user asked for stays');
        assert.equal(kept.steps, 0, 'the new scene took no step while paused');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }

  test(`${build}: a link whose models take seconds to fill: clicks answered within 200 ms while they fill, then its world runs`, { timeout: TEST_TIMEOUT * 2 }, async () => {
    const env = envs.get(build);
    const { page, problems, context } = await openPage(env.browser, `${env.url}index.html?scene=chain`);
    try {
      // Two open spheres at resolution 48 (bench/heavy-scenes.mjs): the winding number at every cell, about 2 s of
      // wasm, which was one call of 6.9 s (the page frozen, the clicks unanswered); now pieces between tasks
      // (sim/prepare.js) while the chain runs on.
      const hash = await encodeLink(openModels());
      await page.evaluate((hash) => {
        window.filledFrom = window.minipbd.app.state.world;
        location.hash = hash;
      }, hash);
      const latencies = await pauseLatencies(page, 2);
      const during = await page.evaluate(() => window.minipbd.app.state.world === window.filledFrom);
      await page.waitForFunction(() => window.minipbd.app.state.world !== window.filledFrom, null, { timeout: READY_TIMEOUT * 4, polling: 50 });
      const objects = await page.evaluate(() => window.minipbd.app.state.world.objects.map((o) => o.particleCount));
      console.log(`# ${build} open models: Pause/Resume answered ${latencies.map((x) => x.toFixed(0)).join(', ')} ms while filling; then ${objects.join(' + ')} particles`);
      assert.ok(during, 'the presses came while the models were being filled');
      assert.ok(Math.max(...latencies) < 200, `answered in ${latencies.map((x) => x.toFixed(0)).join(', ')} ms`);
      assert.equal(objects.length, 2);
      await page.waitForFunction(() => window.minipbd.app.state.world.peekStats().steps >= 1, null, { timeout: READY_TIMEOUT * 2, polling: 50 });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${build}: in the gallery every visible card's steps advance (the elements take turns at the engine)`, { timeout: TEST_TIMEOUT * 2 }, async () => {
    const env = envs.get(build);
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 } });
    try {
      const page = await context.newPage();
      await page.goto(`${env.url}gallery.html`);
      await page.waitForFunction(() => window.minipbdGallery?.ready === true, null, { timeout: READY_TIMEOUT });
      // The last cards: water (the fluids, the balloons) and the bunny (it stayed black, then at step 0, behind the fluid cards).
      await page.evaluate(() => document.getElementById('card-bunny').scrollIntoView({ block: 'end' }));
      const visible = () => page.evaluate(() => [...document.querySelectorAll('.card')].filter((card) => {
        const r = card.querySelector('.stage').getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
      }).map((card) => card.dataset.scene));
      const ids = await visible();
      assert.ok(ids.includes('bunny') && ids.some((id) => ['dam-break', 'floating', 'swirl', 'balloons'].includes(id)), `in view: ${ids}`);
      await page.waitForFunction((ids) => ids.every((id) => document.querySelector(`#card-${id} minipbd-scene`)?._world), ids, { timeout: READY_TIMEOUT });
      const steps = () => page.evaluate((ids) => ids.map((id) => document.querySelector(`#card-${id} minipbd-scene`).stats().steps), ids);
      const s0 = await steps();
      const t0 = Date.now();
      let s = s0;
      while (Date.now() - t0 < 60_000) {
        // A step far beyond this machine (a busy one) pauses its element once, saying so: play it again.
        await page.evaluate((ids) => ids.forEach((id) => {
          const el = document.querySelector(`#card-${id} minipbd-scene`);
          if (el.paused) el.play();
        }), ids);
        s = await steps();
        if (s.every((v, i) => v >= s0[i] + 2)) break;
        await sleep(200);
      }
      const ms = Date.now() - t0;
      console.log(`# ${build}: cards ${ids.join(', ')} from ${JSON.stringify(s0)} to ${JSON.stringify(s)} steps in ${ms} ms`);
      assert.ok(s.every((v, i) => v >= s0[i] + 2), `every element advanced: ${JSON.stringify(s0)} -> ${JSON.stringify(s)}`);
    } finally {
      await context.close();
    }
  });
}
