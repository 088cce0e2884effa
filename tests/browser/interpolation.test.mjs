// interpolation.test.mjs — frames between steps in the page (issue 23 item 5, seed 001 section 4.2). The page's
// animation frames are forced to a 144 Hz cadence (requestAnimationFrame replaced before the page loads, the frames
// then driven by the test with the times it chooses), the simulation stays at 60 Hz. After each frame the page's
// own renderer state is read: the blend it drew with advances the picture's time by exactly one frame's time, the
// two buffers it uploaded are the world's state and where the last step began (world.previous), and the page's own
// line.vert, run on those buffers with that blend through transform feedback, puts every particle where the blend
// says. Paused, the picture is the state to the bit. The single-thread page (no isolation): its steps end within
// the frame that asks for them, so every frame here is an upload.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, watchProblems, READY_TIMEOUT, TEST_TIMEOUT } from './helpers.mjs';

let env;
before(async () => { env = await openBrowser({ isolation: false }); });
after(async () => { await env?.close(); });

// requestAnimationFrame by hand: the callbacks wait in a queue until __tick(t) runs them with time t; until the
// test takes over (__manual), a timer ticks at about 144 Hz with the real clock, so the page loads as usual.
const MANUAL_FRAMES = () => {
  let queue = [];
  window.requestAnimationFrame = (cb) => { queue.push(cb); return queue.length; };
  window.cancelAnimationFrame = () => {};
  window.__tick = (t) => { const q = queue; queue = []; for (const cb of q) cb(t); };
  window.__manual = false;
  setInterval(() => { if (!window.__manual) window.__tick(performance.now()); }, 7);
};

/** One frame at time t (ms), then what it drew: the blend, the steps ended, the uploaded buffers against the
 *  world's, and line.vert's output for every particle (transform feedback of gl_Position with an identity matrix). */
function frameAt(page, t) {
  return page.evaluate((t) => {
    window.__tick(t);
    const { app, world } = window.minipbd;
    const r = app.renderer, gl = r.gl;
    const n = world.positions.length / 4;
    const read = (buffer) => {
      const out = new Float32Array(4 * n);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.getBufferSubData(gl.ARRAY_BUFFER, 0, out);
      return out;
    };
    const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
    const uploaded = same(read(r.posBuffer), world.positions) && same(read(r.prevBuffer), world.previous);
    // the page's own vertex shader, linked once more with gl_Position captured
    if (!window.__tf) {
      const sh = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
      const p = gl.createProgram();
      gl.attachShader(p, sh(gl.VERTEX_SHADER, r.sources['line.vert']));
      gl.attachShader(p, sh(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n'));
      gl.transformFeedbackVaryings(p, ['gl_Position'], gl.INTERLEAVED_ATTRIBS);
      gl.linkProgram(p);
      if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
      window.__tf = { p, out: gl.createBuffer(), tf: gl.createTransformFeedback() };
    }
    const { p, out, tf } = window.__tf;
    gl.useProgram(p);
    gl.uniformMatrix4fv(gl.getUniformLocation(p, 'u_viewProj'), false, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    gl.uniform1f(gl.getUniformLocation(p, 'u_blend'), r.blend);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, out);
    gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, 16 * n, gl.STREAM_READ);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    gl.bindVertexArray(r.vaoLines);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, out);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, n);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindVertexArray(null);
    const drawn = new Float32Array(4 * n);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, out);
    gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, drawn);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    // where the blend puts each particle, in float32 as the shader computes it
    const b = r.blend, x0 = world.previous, x1 = world.positions;
    let worst = 0, exact = true;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        const want = Math.fround(Math.fround(x0[4 * i + k] * Math.fround(1 - b)) + Math.fround(x1[4 * i + k] * b));
        worst = Math.max(worst, Math.abs(drawn[4 * i + k] - want));
        exact &&= drawn[4 * i + k] === x1[4 * i + k];
      }
    }
    return { blend: r.blend, steps: world.stepsEnded, uploaded, worst, exact, frames: r.framesDrawn, dt: world.getParam('dt') };
  }, t);
}

test('at a forced 144 Hz the page draws each frame its own time\'s blend of the last two states; paused, the state', { timeout: TEST_TIMEOUT }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 800, height: 560 } });
  await context.addInitScript(MANUAL_FRAMES);
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.url}/?scene=chain`);
  await page.waitForFunction(() => window.minipbd?.ready === true && window.minipbd.world?.stepsEnded > 3, null, { timeout: READY_TIMEOUT });
  // the test's clock from here; a software renderer would draw at most 30 frames a second (renderer.js): all of them
  let t = await page.evaluate(() => {
    window.__manual = true;
    window.minipbd.app.renderer.minFrameMs = 0;
    return performance.now();
  });
  const frames = [];
  for (let f = 0; f < 72; f++) frames.push(await frameAt(page, (t += 1000 / 144)));
  const run = frames.slice(4); // the first frames after the hand-over settle the loop's clock
  const times = run.map((o) => (o.steps - 1 + o.blend) * o.dt);
  const deltas = times.slice(1).map((x, i) => x - times[i]);
  const worstDelta = Math.max(...deltas.map((d) => Math.abs(d - 1 / 144)));
  const between = run.filter((o) => o.blend > 0 && o.blend < 1).length;
  const worstDrawn = Math.max(...run.map((o) => o.worst));
  console.log(`144 Hz: ${run.length} frames, ${run.at(-1).steps - run[0].steps} steps; the picture's time moved ${(1000 / 144).toFixed(3)} ms a frame within ${(worstDelta * 1000).toExponential(2)} ms; ${between} frames drawn between two states; line.vert within ${worstDrawn.toExponential(2)} m of the blend`);
  assert.ok(run.every((o) => o.uploaded), 'each frame uploaded the world\'s state and where its last step began');
  assert.equal(run.at(-1).frames - run[0].frames, run.length - 1, 'every frame was drawn');
  assert.ok(worstDelta < 1e-6, 'the picture moves by the frame\'s time, every frame');
  assert.ok(between > run.length / 3, 'frames between steps are drawn between the states');
  assert.ok(worstDrawn < 1e-6, 'the vertex shader draws the blend');
  // paused: the state itself, exactly
  await page.evaluate(() => window.minipbd.app.setPaused(true));
  let paused = null;
  for (let f = 0; f < 4; f++) paused = await frameAt(page, (t += 1000 / 144));
  assert.equal(paused.blend, 1);
  assert.ok(paused.exact, 'paused, every particle is drawn exactly where it is');
  assert.deepEqual(problems, []);
  await context.close();
});
