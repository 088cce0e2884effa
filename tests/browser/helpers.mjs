// helpers.mjs — what the browser tests share: serve dist/ on 127.0.0.1 (ephemeral port), launch the
// system Chromium (software WebGL via SwiftShader), open the demo and wait until it has drawn a frame.
// One browser per test file: call openBrowser() in before() and close() in after().
//
// MINIPBD_DIST=/path/to/dist overrides the folder served (default: the repo's dist/, built by `make dist`).

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../tools/serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.resolve(process.env.MINIPBD_DIST ?? path.join(here, '..', '..', 'dist'));

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

// Software WebGL is slow and CI machines are small: waits are generous, and nothing asserts a frame rate.
export const READY_TIMEOUT = 60_000;

// The viewport of the files that look at whole scenes, not at the layout: the desktop layout still (wider than the
// page's 760 px breakpoint, css/app.css), with a canvas of 500 x 560 CSS px, half the pixels of the default 1100 x 720
// (800 x 720). Their pixel checks are fractions of the canvas or counts far below its size. Tests that measure
// nothing on screen (hashes, steps, panel text) use it too: software WebGL's cost is per pixel, every frame.
export const SMALL_VIEWPORT = { width: 800, height: 560 };
export const TEST_TIMEOUT = 180_000;

/** `isolation: false` serves without the cross-origin isolation headers (tools/serve.mjs --no-isolation): the
 *  page then runs the single-thread build. */
export async function openBrowser({ isolation = true } = {}) {
  for (const f of ['index.html', 'minipbd.wasm', 'js/app/main.js']) {
    if (!fs.existsSync(path.join(DIST, f))) throw new Error(`${path.join(DIST, f)} is missing: run \`make dist\` first`);
  }
  const server = await startServer({ root: DIST, port: 0, isolation });
  let browser;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  } catch (err) {
    await server.close();
    throw err;
  }
  // Every context navigates with the same generous wait as the rest (Playwright's own default is 30 s: a page
  // with a fluid scene's link once took longer to reach its load event while two files shared a loaded machine).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultNavigationTimeout(READY_TIMEOUT);
    return context;
  };
  return {
    browser,
    server,
    url: server.url,
    async close() {
      await browser.close().catch(() => {});
      await server.close();
    },
  };
}

/**
 * Open `url` in a new page and wait for window.minipbd.ready. Returns { page, problems } where problems
 * collects console errors, page errors and failed requests (a healthy page has none).
 */
export async function openPage(browser, url, { viewport = { width: 1100, height: 720 }, context } = {}) {
  const ctx = context ?? (await browser.newContext({ viewport }));
  const page = await ctx.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  try {
    await waitReady(page);
  } catch (e) {
    // A page that never gets ready says what it saw: its errors, failed requests and how far it got (a clean clone's
    // run once timed out here with nothing else to go on).
    const state = await page.evaluate(() => ({ ready: window.minipbd?.ready ?? null, world: !!window.minipbd?.world,
      linkStatus: document.getElementById('link-status')?.textContent ?? null, title: document.title })).catch((err) => ({ unreadable: String(err) }));
    e.message += `\n  ${url}: ${JSON.stringify(state)}; problems: ${problems.length ? problems.join(' | ') : 'none'}`;
    throw e;
  }
  return { page, problems, context: ctx };
}

/**
 * Serve `html` at `${env.url}${name}` (a route of the page's own, so it is same-origin with dist/) and open it in a
 * new page of a new context (1000 x 700 unless `contextOptions` says otherwise), after `initScripts`
 * (page.addInitScript). Returns { page, problems, context }; close the context when done.
 */
export async function hostPage(env, html, { name = '__host.html', initScripts = [], contextOptions = {} } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 }, ...contextOptions });
  const page = await context.newPage();
  const problems = watchProblems(page);
  for (const s of initScripts) await page.addInitScript(s);
  await page.route(`${env.url}${name}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(`${env.url}${name}`);
  return { page, problems, context };
}

/** An init script for hostPage: every <minipbd-scene>'s load and error events into window.__events, as
 *  { id, type, code, message }, from before the element's module upgrades it. */
export function recordSceneEvents() {
  window.__events = [];
  for (const type of ['load', 'error']) {
    document.addEventListener(type, (e) => {
      if (e.target?.localName === 'minipbd-scene') window.__events.push({ id: e.target.id, type, code: e.detail?.code, message: e.detail?.message });
    }, true);
  }
}

export function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return problems;
}

export async function waitReady(page) {
  await page.waitForFunction(() => window.minipbd?.ready === true && window.minipbd.world, null, { timeout: READY_TIMEOUT });
}

/** Wait until the world has advanced `n` more steps (proves the loop is running). */
export async function waitSteps(page, n = 10) {
  const start = await page.evaluate(() => window.minipbd.world.stats().steps);
  await page.waitForFunction((target) => window.minipbd.world.stats().steps >= target, start + n, { timeout: READY_TIMEOUT });
  return start;
}

/** Pick `key` in the scene picker (as a user would) and wait until its world runs and is drawn. */
export async function chooseScene(page, key) {
  await page.selectOption('#scene-select', key);
  await page.waitForFunction((k) => window.minipbd.app.state.sceneKey === k, key, { timeout: READY_TIMEOUT });
  await waitSteps(page, 3);
  await waitFrames(page, 2);
}

/** Wait until at least `n` more frames were drawn. */
export async function waitFrames(page, n = 5) {
  // The page draws only when the picture would change (app/redraw.js): a paused page draws nothing by itself, so the
  // wait asks for its n frames (as a tool that changed the world from outside the page's controls would).
  const start = await page.evaluate((n) => {
    const { app } = window.minipbd;
    app.requestRedraw(n);
    return app.renderer.framesDrawn;
  }, n);
  await page.waitForFunction((target) => window.minipbd.app.renderer.framesDrawn >= target, start + n, { timeout: READY_TIMEOUT });
}

/** Makes the page's renderer draw at full resolution, as on a GPU (a software renderer draws at half:
 *  render/renderer.js fit), for a test that measures shapes in drawing-buffer pixels; returns once it has. */
export async function fullResolution(page) {
  await page.evaluate(() => { window.minipbd.app.renderer.pixelScale = 1; });
  await waitFrames(page, 2);
}

/** Frames drawn over `ticks` animation frames by the page's renderer, or by element `elementId`'s:
 *  { drawn, ticks, ms, fps }. A software renderer (render/renderer.js) draws at most 30 a second. */
export function drawRate(page, { elementId = null, ticks = 90 } = {}) {
  return page.evaluate(([id, n]) => new Promise((resolve) => {
    const r = id === null ? window.minipbd.app.renderer : document.getElementById(id)._renderer;
    const d0 = r.framesDrawn;
    let seen = 0, t0 = null;
    const tick = (t) => {
      t0 ??= t;
      if (++seen <= n) return requestAnimationFrame(tick);
      const drawn = r.framesDrawn - d0;
      resolve({ drawn, ticks: n, ms: t - t0, fps: (drawn * 1000) / (t - t0) });
    };
    requestAnimationFrame(tick);
  }), [elementId, ticks]);
}

/**
 * Decode a PNG as Playwright's screenshots write it (8-bit RGB or RGBA, not interlaced) into { width, height, data },
 * data RGBA bytes row by row. In Node: a canvas's pixels sent back from the page as a JS array cost seconds of CPU per
 * screenshot (CDP serialises every number); zlib and the five scanline filters cost milliseconds.
 */
export function decodePng(png) {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let width = 0, height = 0, type = 0;
  const idat = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at), kind = png.toString('latin1', at + 4, at + 8), body = png.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4); type = body[9];
      if (body[8] !== 8 || (type !== 2 && type !== 6) || body[12] !== 0) throw new Error(`PNG: depth ${body[8]}, colour type ${type}, interlace ${body[12]} not decoded`);
    } else if (kind === 'IDAT') idat.push(body);
    else if (kind === 'IEND') break;
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat)), bpp = type === 6 ? 4 : 3, stride = width * bpp;
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, row = y * stride, up = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[row + x - bpp] : 0, b = y > 0 ? px[up + x] : 0, c = x >= bpp && y > 0 ? px[up + x - bpp] : 0;
      let v = raw[src + x];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      px[row + x] = v;
    }
  }
  if (bpp === 4) return { width, height, data: px };
  const data = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < px.length; i += 3, j += 4) { data[j] = px[i]; data[j + 1] = px[i + 1]; data[j + 2] = px[i + 2]; data[j + 3] = 255; }
  return { width, height, data };
}

/**
 * Screenshot the canvas and measure it (decoded in Node, decodePng):
 * { width, height, lumaStdDev, clothFraction (warm cloth-front pixels), backFraction (blue cloth-back pixels),
 *   softFraction (green soft-body pixels), rigidFraction (pale wood rigid-body pixels), distinctColors }.
 */
export async function canvasPixels(page, clip) {
  // clip ({ x, y, width, height }, page CSS px): that part of the page only
  const png = clip ? await page.screenshot({ clip }) : await page.locator('#view').screenshot();
  const { width, height, data: d } = decodePng(png);
  let sum = 0, sum2 = 0, cloth = 0, back = 0, soft = 0, rigid = 0;
  const colors = new Set();
  const n = d.length / 4;
  for (let i = 0; i < d.length; i += 4) {
    const r = d[i], g = d[i + 1], b = d[i + 2];
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += y;
    sum2 += y * y;
    if (r > g + 50 && r > b + 50) cloth++;
    if (b > r + 50 && b > g + 20) back++;
    if (g > r + 30 && g > b + 12) soft++; // render/palette.js softBody, lit
    if (r > b + 50 && g > b + 30 && r >= g && r - g < 60) rigid++; // rigidBody
    if (colors.size < 5000) colors.add((r << 16) | (g << 8) | b);
  }
  const mean = sum / n;
  return { width, height, lumaStdDev: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), clothFraction: cloth / n, backFraction: back / n,
    softFraction: soft / n, rigidFraction: rigid / n, distinctColors: colors.size };
}

/** Page-space CSS pixel position of particle i, projected with the app's own camera. */
export async function particleOnScreen(page, i) {
  return page.evaluate((i) => {
    const { world, app } = window.minipbd;
    const P = world.positions;
    const r = app.canvas.getBoundingClientRect();
    app.camera.update(r.width / r.height);
    const [x, y] = app.camera.project([P[4 * i], P[4 * i + 1], P[4 * i + 2]], r.width, r.height);
    return { x: r.left + x, y: r.top + y, world: [P[4 * i], P[4 * i + 1], P[4 * i + 2]] };
  }, i);
}

/** Screen position of collider i's centre and its projected radius, with the app's own camera. */
export async function colliderOnScreen(page, i) {
  return page.evaluate((i) => {
    const { world, app } = window.minipbd;
    const c = world.colliders[i];
    const r = app.canvas.getBoundingClientRect();
    app.camera.update(r.width / r.height);
    const [x, y] = app.camera.project(c.position, r.width, r.height);
    const [, yTop] = app.camera.project([c.position[0], c.position[1] + (c.radius || 0.1), c.position[2]], r.width, r.height);
    return { x: r.left + x, y: r.top + y, radius: Math.abs(y - yTop), position: c.position };
  }, i);
}

/**
 * A page point over collider i where a press takes the collider, not the cloth lying on it: of all such
 * points in its projected disc, the one deepest inside a bare patch (most neighbours also bare).
 */
export async function pointOnCollider(page, i) {
  const c = await colliderOnScreen(page, i);
  return page.evaluate(({ c, i }) => {
    const { app } = window.minipbd;
    const bare = (x, y) => {
      const hit = app.input.hitTest(x, y);
      return hit?.kind === 'collider' && hit.index === i;
    };
    const step = Math.max(2, c.radius / 30);
    let best = null;
    for (let y = c.y - c.radius; y <= c.y + c.radius; y += step) {
      for (let x = c.x - c.radius; x <= c.x + c.radius; x += step) {
        if (Math.hypot(x - c.x, y - c.y) > c.radius * 0.95 || !bare(x, y)) continue;
        let score = 0;
        for (let a = 0; a < 8; a++) score += bare(x + 6 * Math.cos(a * Math.PI / 4), y + 6 * Math.sin(a * Math.PI / 4)) ? 1 : 0;
        if (!best || score > best.score) best = { x, y, score };
      }
    }
    return best;
  }, { c, i });
}

/** A page element's screenshot measured (decoded in Node, decodePng): { lumaStdDev, distinctColors (up to 5000) }. */
export async function elementPixels(page, selector) {
  const { data: d } = decodePng(await page.locator(selector).screenshot());
  let sum = 0, sum2 = 0;
  const colors = new Set();
  for (let i = 0; i < d.length; i += 4) {
    const y = 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
    sum += y;
    sum2 += y * y;
    if (colors.size < 5000) colors.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
  }
  const n = d.length / 4, mean = sum / n;
  return { lumaStdDev: Math.sqrt(Math.max(0, sum2 / n - mean * mean)), distinctColors: colors.size };
}
