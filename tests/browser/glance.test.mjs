// glance.test.mjs — the built-in scenes read at a glance, measured on the page's own canvas and DOM: the box
// stack's ten blocks are ten colours; the mass-split cloth's heavy half is drawn apart from its light half;
// the hammock's hose is drawn where its water comes from; the panel: every scene name fits the picker in both
// languages, scrolling never leaves a row half under the panel's title bar; the plots' captions fit, the
// convergence curve keeps off its axes and says why it is flat at one pass per substep.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, chooseScene, decodePng, waitFrames, waitSteps, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser(); });
after(async () => { await env?.close(); });

const SHOTS = process.env.MINIPBD_SHOTS; // a folder: the tests also save their screenshots there, to look at

/** The canvas's pixels (decoded in Node) and a sampler: rgb(x, y) at canvas CSS pixel (x, y), averaged over 3 x 3. */
async function canvasSampler(page, name) {
  const png = await page.locator('#view').screenshot(SHOTS ? { path: `${SHOTS}/${name}.png` } : {});
  const { width, height, data } = decodePng(png);
  const css = await page.evaluate(() => { const r = document.getElementById('view').getBoundingClientRect(); return [r.width, r.height]; });
  const sx = width / css[0], sy = height / css[1];
  return {
    width: css[0], height: css[1],
    rgb(x, y) {
      const px = Math.round(x * sx), py = Math.round(y * sy), out = [0, 0, 0];
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const i = 4 * ((py + dy) * width + px + dx);
        if (px + dx < 0 || py + dy < 0 || px + dx >= width || py + dy >= height) continue;
        for (let k = 0; k < 3; k++) out[k] += data[i + k];
        n++;
      }
      return out.map((v) => v / n);
    },
  };
}

/** Object k's particles' mean position projected with the app's camera: canvas CSS pixels. */
async function objectOnCanvas(page, k) {
  return page.evaluate((k) => {
    const { world, app } = window.minipbd;
    const o = world.objects[k], P = world.positions, c = [0, 0, 0];
    for (let i = o.firstParticle; i < o.firstParticle + o.particleCount; i++) for (let a = 0; a < 3; a++) c[a] += P[4 * i + a] / o.particleCount;
    const r = app.canvas.getBoundingClientRect();
    app.camera.update(r.width / r.height);
    const [x, y] = app.camera.project(c, r.width, r.height);
    return { x, y };
  }, k);
}

async function pause(page) {
  await page.evaluate(() => { if (!window.minipbd.app.state.paused) document.getElementById('pause').click(); });
  await page.waitForFunction(() => window.minipbd.app.state.paused);
  await waitFrames(page, 2);
}

test('box stack: the ten blocks are drawn in ten colours', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'box-stack');
    await pause(page);
    const shot = await canvasSampler(page, 'box-stack');
    const colours = [];
    for (let k = 0; k < 10; k++) {
      const p = await objectOnCanvas(page, k);
      colours.push(shot.rgb(p.x, p.y));
    }
    const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    for (let a = 0; a < 10; a++) {
      for (let b = a + 1; b < 10; b++) {
        assert.ok(dist(colours[a], colours[b]) > 25,
          `blocks ${a + 1} and ${b + 1} differ: ${colours[a].map(Math.round)} vs ${colours[b].map(Math.round)}`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/** Canvas CSS pixel of the centre of cell (i, j) of cloth object k (the mean of its four corner particles). */
async function clothCellOnCanvas(page, k, i, j) {
  return page.evaluate(([k, i, j]) => {
    const { world, app } = window.minipbd;
    const o = world.objects[k], P = world.positions, c = [0, 0, 0];
    for (const [di, dj] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const q = o.firstParticle + (j + dj) * o.resolutionU + i + di;
      for (let a = 0; a < 3; a++) c[a] += P[4 * q + a] / 4;
    }
    const r = app.canvas.getBoundingClientRect();
    app.camera.update(r.width / r.height);
    const [x, y] = app.camera.project(c, r.width, r.height);
    return { x, y };
  }, [k, i, j]);
}

test('mass split: the cloth\'s heavy half is drawn darker than its light half', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'mass-split');
    await pause(page);
    const shot = await canvasSampler(page, 'mass-split');
    const luma = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const half = async (cells) => {
      let sum = 0;
      for (const [i, j] of cells) { const p = await clothCellOnCanvas(page, 0, i, j); sum += luma(shot.rgb(p.x, p.y)); }
      return sum / cells.length;
    };
    // the scene's 24 x 24 cloth: columns 0 to 11 are 50 times heavier than 12 to 23
    const heavy = await half([[3, 6], [6, 10], [8, 14], [4, 18]]);
    const light = await half([[15, 6], [17, 10], [19, 14], [16, 18]]);
    assert.ok(heavy < 0.75 * light, `heavy half luma ${heavy.toFixed(0)}, light half ${light.toFixed(0)}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('hammock: the hose is drawn at the emitter, along its direction', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await chooseScene(page, 'hammock');
    await pause(page);
    const shot = await canvasSampler(page, 'hammock');
    const info = await page.evaluate(() => {
      const { world, app } = window.minipbd;
      const r = app.canvas.getBoundingClientRect();
      app.camera.update(r.width / r.height);
      const hoses = app.renderer.lastHoses;
      const emitter = world.scene.objects.flatMap((o) => o.emitters ?? [])[0];
      // points along the pipe: 10%, 30% and 60% of the way from the nozzle to its far end
      const along = (h, f) => h.nozzle.map((v, k) => v + f * (h.end[k] - v));
      return {
        count: hoses.length,
        nozzle: hoses[0].nozzle, end: hoses[0].end, emitter,
        samples: [0.1, 0.3, 0.6].map((f) => app.camera.project(along(hoses[0], f), r.width, r.height)).map(([x, y]) => ({ x, y })),
        beside: (([x, y]) => ({ x, y }))(app.camera.project(hoses[0].nozzle.map((v, k) => v + (k === 0 ? 0.25 : 0)), r.width, r.height)),
      };
    });
    assert.equal(info.count, 1, 'one hose for the one emitter');
    const gap = Math.hypot(...info.nozzle.map((v, k) => v - info.emitter.position[k]));
    assert.ok(gap < 0.02, `its nozzle is at the emitter (${(100 * gap).toFixed(1)} cm away)`);
    const dir = info.end.map((v, k) => v - info.nozzle[k]);
    const cos = -dir.reduce((a, v, k) => a + v * info.emitter.direction[k], 0) / Math.hypot(...dir) / Math.hypot(...info.emitter.direction);
    assert.ok(cos > 0.999, 'it runs back along the emitter\'s direction');
    const green = ([r, g, b]) => g > r + 15 && g > b + 5;
    for (const p of info.samples) {
      const c = shot.rgb(p.x, p.y);
      assert.ok(p.x > 0 && p.x < shot.width && p.y > 0 && p.y < shot.height, 'in view');
      assert.ok(green(c), `hose-green at (${p.x.toFixed(0)}, ${p.y.toFixed(0)}): ${c.map(Math.round)}`);
    }
    const c = shot.rgb(info.beside.x, info.beside.y);
    assert.ok(!green(c), `not green 25 cm beside it: ${c.map(Math.round)}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('panel: every scene name fits the picker in English and Chinese', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    for (const lang of ['en', 'zh']) {
      await page.selectOption('#language-select', lang);
      const fits = await page.evaluate(() => {
        const select = document.getElementById('scene-select');
        const display = select.parentElement.querySelector('.lil-display');
        const shown = display.textContent;
        const out = [...select.options].map((o) => {
          display.textContent = o.textContent; // what lil-gui shows once it is picked
          return { name: o.textContent, scroll: display.scrollWidth, client: display.clientWidth, height: display.scrollHeight, box: display.clientHeight };
        });
        display.textContent = shown;
        return out;
      });
      assert.ok(fits.length >= 17, `${lang}: every built-in scene is offered`);
      for (const f of fits) {
        assert.ok(f.scroll <= f.client && f.height <= f.box + 1, `${lang}: "${f.name}" fits (${f.scroll} of ${f.client} px wide, ${f.height} of ${f.box} tall)`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('panel: scrolling stops with a row\'s top at the title bar\'s bottom, none half under it', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    for (const top of [50, 230, 417]) {
      const info = await page.evaluate(async (top) => {
        const kids = document.querySelector('.panel .lil-root > .lil-children');
        kids.scrollTop = top;
        await new Promise((r) => setTimeout(r, 400)); // the snap settles
        const header = document.querySelector('.panel .lil-root > .lil-title').getBoundingClientRect();
        const rows = [...kids.querySelectorAll('.lil-controller, .lil-gui > .lil-title, :scope > :not(.lil-gui)')]
          .map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0 && r.bottom > header.bottom + 1).sort((a, b) => a.top - b.top);
        return { scrolled: kids.scrollTop, headerBottom: header.bottom, firstTop: rows[0].top };
      }, top);
      assert.ok(info.scrolled > 0, `scrolled (${info.scrolled} px)`);
      assert.ok(info.firstTop >= info.headerBottom - 1, `scrolled to ${top}: the first row's top (${info.firstTop.toFixed(1)}) is not above the title bar's bottom (${info.headerBottom.toFixed(1)})`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('plots: captions fit, the curve keeps off the axes, and a note says why it is flat at one pass per substep', { timeout: TEST_TIMEOUT }, async () => {
  const { page, problems, context } = await openPage(env.browser, env.url);
  try {
    await page.check('#plots');
    await waitSteps(page, 20);
    await page.waitForTimeout(600); // a readout or two
    const measure = () => page.evaluate(() => {
      const p = window.minipbd.app.state.plots;
      const note = document.getElementById('convergence-note');
      const caps = ['convergence', 'energy'].map((k) => {
        const el = document.getElementById(`${k}-caption`);
        return { text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth, visible: el.offsetHeight > 0 };
      });
      const box = p.box.convergence, dpr = window.devicePixelRatio || 1;
      const canvas = document.getElementById('convergence-plot');
      const ctx = canvas.getContext('2d');
      ctx.font = `${10 * dpr}px system-ui, sans-serif`;
      return {
        caps, passes: window.minipbd.world.getParam('iterations'),
        note: { hidden: note.hidden, visible: note.offsetHeight > 0, text: note.textContent, scroll: note.scrollWidth, client: note.clientWidth },
        // the first point's x and the y axis, the last point and the right end, in CSS px
        firstGap: (box.px(1) - box.left) / dpr, lastGap: (box.right - box.px(p.curve.length)) / dpr,
        leftMargin: box.left / dpr, labelWidth: Math.max(...['1e-1', '1e-2', '1e-3', '1e-4', '1e-5', '1e-6'].map((s) => ctx.measureText(s).width)) / dpr,
      };
    });
    for (const lang of ['en', 'zh']) {
      await page.selectOption('#language-select', lang);
      // the plots' texts follow the language at the next readout
      await page.waitForFunction((zh) => /[\u4e00-\u9fff]/.test(document.getElementById('energy-caption').textContent) === zh, lang === 'zh', { timeout: 20_000 });
      const m = await measure();
      for (const c of m.caps) assert.ok(c.visible && c.text.length > 0 && c.scroll <= c.client, `${lang}: caption "${c.text}" fits (${c.scroll} of ${c.client} px)`);
      assert.equal(m.passes, 1, 'the default: 10 substeps x 1 pass');
      assert.ok(m.note.visible && !m.note.hidden && m.note.scroll <= m.note.client, `${lang}: the note shows and fits: "${m.note.text}"`);
      assert.match(m.note.text, lang === 'en' ? /one pass per substep/i : /一次迭代/);
      assert.ok(m.firstGap >= 4 && m.lastGap >= 4, `the curve keeps off the axes (${m.firstGap.toFixed(1)} px, ${m.lastGap.toFixed(1)} px)`);
      assert.ok(m.leftMargin >= m.labelWidth + 6, `the left margin (${m.leftMargin.toFixed(0)} px) holds the tick labels (${m.labelWidth.toFixed(0)} px)`);
    }
    await page.selectOption('#language-select', 'en');
    await page.fill('#param-iterations', '4');
    await page.press('#param-iterations', 'Enter');
    await page.waitForFunction(() => window.minipbd.world.getParam('iterations') === 4);
    await page.waitForFunction(() => document.getElementById('convergence-note').hidden, null, { timeout: 20_000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
