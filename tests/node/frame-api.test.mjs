// frame-api.test.mjs — the iframe API's frame side (web/js/embed/frame-api.js) without a browser: the origin
// policy, every command's good and bad forms, and a hostile corpus, dispatched to a stand-in element that carries
// the real control methods (embed/element-control.js) over a real World (dist/minipbd.wasm).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMiniPBD } from '../../web/js/minipbd.js';
import { builtinScenes } from '../../web/js/format/builtin-scenes.js';
import { encodeLink } from '../../web/js/format/link.js';
import { validateScene } from '../../web/js/format/scene.js';
import { withControl, MAX_CONTROL_STEPS, MAX_LOAD_LINK_LENGTH } from '../../web/js/embed/element-control.js';
import { StepDriver } from '../../web/js/sim/driver.js';
import { FixedStepLoop } from '../../web/js/sim/loop.js';
import {
  FrameApi, accepts, allowedOrigins, checkCommand, installFrameApi, parseParentOrigins,
  FRAME_COMMANDS, MAX_ARG_DEPTH, MAX_ARG_VALUES, MAX_PARENT_ORIGINS, MAX_SUBSCRIBE_HZ,
} from '../../web/js/embed/frame-api.js';
import { MiniPBDFrame, loadArgs } from '../../web/js/embed/frame-client.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pbd = await loadMiniPBD(fs.readFileSync(path.join(root, 'dist', 'minipbd.wasm')));

// The element's internals the control methods use, as the element has them (embed/element.js), minus drawing.
class StandIn extends withControl(class {}) {
  constructor(scene) {
    super();
    this._engine = pbd;
    this._playing = false;
    // The element's own loop and driver (sim/): a step(n) job runs in chunks from the driver's pump (timers).
    this._loop = new FixedStepLoop((n) => this._driver.request(n), { timed: false });
    this._view = {};
    this._driver = new StepDriver({ world: () => this._world, loop: this._loop });
    this._adopt(pbd.createWorld(scene));
  }
  get world() { if (this._driver.queue.length > 0) this._driver.flush(); return this._world; }
  play() { this._playing = true; }
  pause() { this._playing = false; this._driver.cancel(); }
  reset() { this._driver.drop(); this._driver.flush(); const old = this._world; this._adopt(pbd.createWorld(this._scene)); old.destroy(); }
  _adopt(w) { this._world = w; this._scene = w.describe(); this._loop.reset(w.getParam('dt')); }
  _active() { return true; }
  _kick() {}
  _dropPointers() {}
  _startReplay() {}
}

/** Timers the test runs by hand. */
function fakeTimers() {
  const t = { intervals: new Map(), next: 1 };
  t.setInterval = (fn, ms) => { const id = t.next++; t.intervals.set(id, { fn, ms }); return id; };
  t.clearInterval = (id) => t.intervals.delete(id);
  t.tick = async () => { for (const { fn } of [...t.intervals.values()]) await fn(); };
  return t;
}

const A = 'https://teacher.example';
function setup(scene = builtinScenes.chain) {
  const el = new StandIn(scene);
  const events = [];
  const progress = []; // a step job's minipbd:progress events
  const timers = fakeTimers();
  const post = (msg, origin) => (msg.type === 'minipbd:progress' ? progress : events).push({ msg, origin });
  const api = new FrameApi({ element: () => el, post, timers });
  const send = (command, args, id = 7) => api.handle({ type: 'minipbd:command', id, command, args }, A);
  return { el, api, events, progress, timers, send };
}

test('origins: parent= (fragment, then query), else the ancestor, else the referrer; bad lists allow nobody', () => {
  assert.deepEqual(allowedOrigins({ hash: '#scene=flag&parent=https://a.org,http://127.0.0.1:8080' }),
    { origins: ['https://a.org', 'http://127.0.0.1:8080'], from: 'parent=', error: null });
  assert.deepEqual(allowedOrigins({ hash: '#scene=flag', search: '?parent=https://q.org' }).origins, ['https://q.org']);
  assert.deepEqual(allowedOrigins({ hash: '#parent=https://f.org', search: '?parent=https://q.org' }).origins, ['https://f.org']);
  assert.deepEqual(allowedOrigins({ hash: '#parent=https://f.org', ancestorOrigins: ['https://evil.org'] }).origins, ['https://f.org']);
  assert.deepEqual(allowedOrigins({ ancestorOrigins: ['https://p.org'], referrer: 'https://r.org/x' }), { origins: ['https://p.org'], from: 'ancestor', error: null });
  assert.deepEqual(allowedOrigins({ ancestorOrigins: [], referrer: 'https://r.org/page?q#h' }), { origins: ['https://r.org'], from: 'referrer', error: null });
  const none = allowedOrigins({ referrer: '' });
  assert.deepEqual(none.origins, []);
  assert.match(none.error, /no referrer.*parent=ORIGIN/);
  assert.deepEqual(allowedOrigins({ ancestorOrigins: ['null'], referrer: 'about:blank' }).origins, []);
  for (const [list, bad] of [
    ['https://a.org/', 'https://a.org/'], ['https://a.org/path', 'https://a.org/path'], ['*', '*'], ['null', 'null'],
    ['javascript:alert(1)', 'javascript:alert(1)'], ['https://a.org,ftp://b.org', 'ftp://b.org'], ['a.org', 'a.org'],
    ['HTTPS://A.ORG', 'HTTPS://A.ORG'],
  ]) {
    const r = allowedOrigins({ hash: `#parent=${encodeURIComponent(list)}`, ancestorOrigins: ['https://a.org'] });
    assert.deepEqual(r.origins, [], list);
    assert.equal(r.error, `parent= entry ${JSON.stringify(bad)} is not an origin (scheme://host[:port], no path, e.g. https://example.org)`);
  }
  assert.throws(() => parseParentOrigins(''), /names no origin/);
  const many = Array.from({ length: MAX_PARENT_ORIGINS + 1 }, (_, i) => `https://o${i}.org`).join(',');
  assert.throws(() => parseParentOrigins(many), new RegExp(`names ${MAX_PARENT_ORIGINS + 1} origins; at most ${MAX_PARENT_ORIGINS}`));
});

test('only the parent window from an allowed origin is heard; nobody else gets any answer', async () => {
  const parent = { posted: [], postMessage(msg, origin) { this.posted.push({ msg, origin }); } };
  const other = { postMessage() { throw new Error('never'); } };
  const listeners = [];
  const win = { parent, addEventListener: (type, fn) => listeners.push(fn), setInterval, clearInterval };
  const el = new StandIn(builtinScenes.chain);
  installFrameApi(win, { element: () => el, origins: () => [A] });
  const cmd = { type: 'minipbd:command', id: 1, command: 'pause' };
  const steps0 = el.stats().steps;
  for (const ev of [
    { source: other, origin: A, data: cmd },                       // another window of the allowed origin
    { source: parent, origin: 'https://evil.example', data: cmd }, // the parent, navigated elsewhere
    { source: parent, origin: 'null', data: cmd },
    { source: null, origin: A, data: cmd },
    { source: parent, origin: 'https://evil.example', data: { type: 'minipbd:command', id: 2, command: 'step', args: { n: 5 } } },
  ]) listeners[0](ev);
  el.play();
  listeners[0]({ source: parent, origin: A, data: { type: 'minipbd:command', id: 3, command: 'pause' } });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(parent.posted, [{ msg: { type: 'minipbd:reply', id: 3, ok: true, result: { paused: true } }, origin: A }]);
  assert.equal(el.stats().steps, steps0);
  assert.equal(accepts({ source: parent, origin: A }, parent, [A]), true);
  assert.equal(accepts({ source: parent, origin: A }, null, [A]), false);
  assert.equal(accepts(null, parent, [A]), false);
});

test('play, pause, step, set, stats, reset: replies and the world', async () => {
  const { el, send } = setup();
  assert.deepEqual(await send('play'), { type: 'minipbd:reply', id: 7, ok: true, result: { paused: false } });
  assert.equal(el.paused, false);
  assert.deepEqual((await send('pause', {})).result, { paused: true });
  assert.equal(el.paused, true);
  const before = el.stats().steps;
  assert.deepEqual((await send('step', { n: 5 })).result, { steps: before + 5, ran: 5, cancelled: false });
  assert.equal(el.world.stats().steps, before + 5);
  assert.deepEqual((await send('step', { n: 1 }, 'abc')).id, 'abc');
  assert.equal(el.world.stats().steps, before + 6);

  assert.deepEqual((await send('set', { name: 'iterations', value: 17 })).result, { name: 'iterations', value: 17 });
  assert.equal(el.world.describe().solver.iterations, 17);
  // The world's own checks and messages.
  let expected;
  try { el.world.setParam('iterations', 0.5); } catch (err) { expected = err.message; }
  assert.ok(expected);
  assert.deepEqual(await send('set', { name: 'iterations', value: 0.5 }), { type: 'minipbd:reply', id: 7, ok: false, error: { code: 'refused', message: `set: ${expected}` } });
  const unknown = await send('set', { name: 'warp', value: 1 });
  assert.equal(unknown.error.code, 'refused');
  assert.match(unknown.error.message, /^set: unknown parameter "warp"; known: dt, /);
  assert.equal(el.world.getParam('iterations'), 17);

  const stats = (await send('stats')).result;
  assert.equal(stats.steps, before + 6);
  assert.equal(stats.time, stats.steps * el.world.getParam('dt'));
  assert.equal(stats.particles, el.world.particleCount);
  assert.equal(typeof stats.kineticEnergy, 'number');
  assert.equal(stats.fluid, undefined);

  const world = el.world, particles = world.particleCount;
  assert.deepEqual((await send('reset')).result, { particles, steps: 0 });
  assert.notEqual(el.world, world);
  assert.equal(el.world.getParam('iterations'), validateScene(builtinScenes.chain).solver.iterations, 'reset rebuilds the scene as loaded');

  const fluid = setup(builtinScenes['dam-break']);
  const fs1 = (await fluid.send('stats')).result;
  assert.equal(fs1.fluid.particles, fluid.el.world.fluidStats().particles);
  assert.ok(fs1.fluid.particles > 0 && fs1.fluid.capacity >= fs1.fluid.particles);
});

test('load: a built-in, a link, a scene object; refused ones keep the running world', async () => {
  const { el, send } = setup();
  assert.deepEqual((await send('load', { builtin: 'flag' })).result, { particles: el.world.particleCount });
  assert.equal(el.world.describe().objects[0].type, 'cloth');
  const link = await encodeLink(builtinScenes.chain);
  const r = await send('load', { link: `https://host.example/embed.html#${link}` });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(el.world.particleCount, validateScene(builtinScenes.chain).objects[0].segments + 1);
  assert.equal((await send('load', { link })).ok, true);
  const scene = structuredClone(builtinScenes.cloth);
  assert.equal((await send('load', { scene })).ok, true);

  await send('step', { n: 3 });
  const world = el.world, hash = world.hash(), steps = world.stats().steps;
  const refusals = [
    [{ builtin: 'nope' }, 'bad-args', /^load: builtin must be one of chain, cloth, /],
    [{ builtin: 'constructor' }, 'bad-args', /^load: builtin must be one of/],
    [{ link: 's=1.%%%bad' }, 'refused', /^load: /],
    [{ link: 'cloth' }, 'bad-args', /^load: link "cloth" carries no scene/],
    [{ link: 's=1.' + 'A'.repeat(MAX_LOAD_LINK_LENGTH) }, 'too-large', new RegExp(`the link is ${MAX_LOAD_LINK_LENGTH + 4} characters long; links hold at most ${MAX_LOAD_LINK_LENGTH}`)],
    [{ link: 's=1.' + 'A'.repeat(17000) }, 'refused', /^load: link data is 17,000 characters long; at most 16,384 are read$/],
    [{ scene: { version: 2, objects: 'many' } }, 'refused', /^load: /],
    [{ scene: [1, 2] }, 'bad-args', /^load: scene must be a scene object, got an array of 2/],
    [{ scene: null }, 'bad-args', /scene must be a scene object, got null/],
    [{ scene: {}, link: 's=1.x' }, 'bad-args', /^load: args must be \{ scene \} or \{ link \} or \{ builtin \}/],
    [{}, 'bad-args', /^load: args must be/],
  ];
  for (const [args, code, message] of refusals) {
    const reply = await send('load', args);
    assert.equal(reply.ok, false, JSON.stringify(args).slice(0, 80));
    assert.equal(reply.error.code, code, reply.error.message);
    assert.match(reply.error.message, message);
    assert.equal(el.world, world);
    assert.equal(world.destroyed, false);
  }
  assert.equal(world.hash(), hash);
  assert.equal(world.stats().steps, steps);
  // The scene validator's own message, word for word.
  const bad = { ...structuredClone(builtinScenes.chain), objects: [{ type: 'chain', segments: 0 }] };
  let expected;
  try { validateScene(bad); } catch (err) { expected = err.message; }
  assert.equal((await send('load', { scene: bad })).error.message, `load: ${expected}`);
});

test('subscribe: every k steps or hz (at most 60 a second); unsubscribe stops; one at a time; lasts across reset', async () => {
  const { el, send, events, timers } = setup();
  assert.deepEqual((await send('subscribe', { every: 4 })).result, { every: 4 });
  const [id] = timers.intervals.keys();
  assert.equal(timers.intervals.get(id).ms, 1000 / MAX_SUBSCRIBE_HZ);
  await timers.tick(); // baseline
  await send('step', { n: 3 });
  await timers.tick();
  assert.equal(events.length, 0);
  await send('step', { n: 1 });
  await timers.tick();
  await timers.tick();
  assert.equal(events.length, 1);
  assert.equal(events[0].origin, A);
  assert.equal(events[0].msg.type, 'minipbd:stats');
  assert.equal(events[0].msg.every, 4);
  assert.equal(events[0].msg.stats.steps, 4);
  await send('reset');
  await timers.tick();
  await send('step', { n: 4 });
  await timers.tick();
  assert.equal(events.length, 2);
  assert.equal(events[1].msg.stats.steps, 4, 'after reset the count starts from the new world');

  assert.deepEqual((await send('subscribe', { hz: 10 })).result, { hz: 10 });
  assert.equal(timers.intervals.size, 1, 'a new subscription replaces the old one');
  assert.equal([...timers.intervals.values()][0].ms, 100);
  await timers.tick();
  await timers.tick();
  assert.equal(events.length, 4);
  assert.equal(events[3].msg.hz, 10);
  assert.deepEqual((await send('unsubscribe')).result, { subscribed: true });
  assert.equal(timers.intervals.size, 0);
  await timers.tick();
  assert.equal(events.length, 4);
  assert.deepEqual((await send('unsubscribe')).result, { subscribed: false });
  for (const [args, message] of [
    [{ hz: 61 }, /^subscribe: hz must be in \(0, 60\], got 61$/],
    [{ hz: 0 }, /hz must be in \(0, 60\], got 0/],
    [{ hz: NaN }, /hz must be a finite number, got NaN/],
    [{ every: 0 }, /every must be an integer number of steps in 1\.\.10000, got 0/],
    [{ every: 2.5 }, /got 2\.5/],
    [{ every: 1, hz: 1 }, /args must be \{ every \} or \{ hz \}/],
  ]) {
    const r = await send('subscribe', args);
    assert.equal(r.error.code, 'bad-args');
    assert.match(r.error.message, message);
  }
  assert.equal(timers.intervals.size, 0);
  assert.equal(el.paused, true);
});

test('a hostile corpus: exact codes and messages, never a throw, the world untouched', async () => {
  const { el, api } = setup();
  await api.handle({ type: 'minipbd:command', command: 'step', args: { n: 2 } }, A);
  const hash = el.world.hash(), steps = el.world.stats().steps;
  let deep = {};
  for (let i = 0; i < 1000; i++) deep = { a: deep };
  const cyclic = {};
  cyclic.self = cyclic;
  const cmd = (command, args, extra = {}) => ({ type: 'minipbd:command', id: 1, command, args, ...extra });
  const corpus = [
    [null, 'bad-message', /^a command must be an object .*got null$/],
    ['step', 'bad-message', /got "step"$/],
    [42, 'bad-message', /got 42$/],
    [[cmd('play')], 'bad-message', /got an array of 1$/],
    [{ id: 1, command: 'play' }, 'bad-message', /^type must be 'minipbd:command', got undefined$/],
    [{ type: 'minipbd:reply', id: 1, command: 'play' }, 'bad-message', /got "minipbd:reply"/],
    [cmd('play', undefined, { id: { x: 1 } }), 'bad-id', /^id must be a finite number or a string of at most 200 characters, got an object$/],
    [cmd('play', undefined, { id: NaN }), 'bad-id', /got NaN$/],
    [cmd('play', undefined, { id: 'x'.repeat(201) }), 'bad-id', /\(201 characters\)$/],
    [cmd('explode'), 'unknown-command', new RegExp(`^unknown command "explode"; known: ${FRAME_COMMANDS.join(', ')}$`)],
    [cmd('__proto__'), 'unknown-command', /^unknown command "__proto__"/],
    [cmd('constructor'), 'unknown-command', /^unknown command "constructor"/],
    [cmd('toString'), 'unknown-command', /"toString"/],
    [cmd('hasOwnProperty'), 'unknown-command', /"hasOwnProperty"/],
    [cmd('x'.repeat(1e6)), 'unknown-command', /^unknown command "x{40}…" \(1000000 characters\)/],
    [cmd(['step']), 'unknown-command', /got|unknown command an array of 1/],
    [cmd(undefined), 'unknown-command', /unknown command undefined/],
    [cmd('play', 'now'), 'bad-args', /^play: args must be an object, got "now"$/],
    [cmd('play', { now: true }), 'bad-args', /^play: args must be \{\}, got \{ "now" \}$/],
    [cmd('step', null), 'bad-args', /^step: args must be an object, got null$/],
    [cmd('step', { n: '5' }), 'bad-args', /^step: n must be an integer in 1\.\.10000, got "5"$/],
    [cmd('step', { n: 0 }), 'bad-args', /got 0$/],
    [cmd('step', { n: -3 }), 'bad-args', /got -3$/],
    [cmd('step', { n: MAX_CONTROL_STEPS + 1 }), 'bad-args', /got 10001$/],
    [cmd('step', { n: 1e300 }), 'bad-args', /got 1e\+300$/],
    [cmd('step', { n: Infinity }), 'bad-args', /got Infinity$/],
    [cmd('step', { n: NaN }), 'bad-args', /got NaN$/],
    [cmd('step', { n: 1.5 }), 'bad-args', /got 1\.5$/],
    [cmd('step', { n: 5, m: 1 }), 'bad-args', /^step: args must be \{ n \}, got \{ "n", "m" \}$/],
    [cmd('step', { __proto__: null, n: 5, constructor: 1 }), 'bad-args', /got \{ "n", "constructor" \}/],
    [cmd('step', JSON.parse('{"__proto__": {"n": 5}}')), 'bad-args', /got \{ "__proto__" \}/],
    [cmd('set', { name: 'dt', value: NaN }), 'bad-args', /^set: value must be a finite number, got NaN$/],
    [cmd('set', { name: 'dt', value: -Infinity }), 'bad-args', /got -Infinity$/],
    [cmd('set', { name: 'dt', value: '0.01' }), 'bad-args', /got "0.01"$/],
    [cmd('set', { name: 42, value: 1 }), 'bad-args', /^set: name must be a parameter's name .*got 42$/],
    [cmd('set', { name: 'n'.repeat(65), value: 1 }), 'bad-args', /\(65 characters\)$/],
    [cmd('set', { name: '__proto__', value: 1 }), 'refused', /^set: unknown parameter "__proto__"/],
    [cmd('load', { scene: deep }), 'too-deep', new RegExp(`^the arguments nest deeper than ${MAX_ARG_DEPTH} levels$`)],
    [cmd('load', { scene: cyclic }), 'too-deep', /nest deeper/],
    [cmd('load', { scene: { objects: new Array(MAX_ARG_VALUES + 1).fill(0) } }), 'too-large', new RegExp(`more than ${MAX_ARG_VALUES} values`)],
    [cmd('load', { link: 's'.repeat(2e6) }), 'too-large', /strings hold more than 1048576 characters/],
    [cmd('stats', { huge: 'x'.repeat(5e5) }), 'bad-args', /^stats: args must be \{\}/],
    [cmd('subscribe', { hz: 1e9 }), 'bad-args', /got 1000000000$/],
    [cmd('subscribe', {}), 'bad-args', /^subscribe: args must be \{ every \} or \{ hz \}, got \{  \}$/],
  ];
  for (const [data, code, message] of corpus) {
    const reply = await api.handle(data, A);
    let shown;
    try { shown = String(JSON.stringify(data)).slice(0, 60); } catch { shown = 'a cyclic object'; }
    const what = `${shown}: ${JSON.stringify(reply).slice(0, 200)}`;
    assert.equal(reply.type, 'minipbd:reply', what);
    assert.equal(reply.ok, false, what);
    assert.equal(reply.error.code, code, what);
    assert.match(reply.error.message, message, what);
    assert.ok(reply.error.message.length < 2000, `message bounded: ${what}`);
    if (code !== 'bad-id' && code !== 'bad-message') assert.equal(reply.id, 1, what);
  }
  assert.equal(el.world.hash(), hash);
  assert.equal(el.world.stats().steps, steps);
  assert.equal(api.subscription, null);
  // checkCommand on its own: a good command comes back checked.
  assert.deepEqual(checkCommand({ type: 'minipbd:command', id: 'a', command: 'step', args: { n: 2 } }), { id: 'a', command: 'step', args: { n: 2 } });
});

test('before the scene has loaded: not-ready, and an element that throws is a failed reply, not an exception', async () => {
  let el = null;
  const api = new FrameApi({ element: () => el, post() {}, timers: fakeTimers() });
  const r = await api.handle({ type: 'minipbd:command', id: 1, command: 'stats' }, A);
  assert.deepEqual(r, { type: 'minipbd:reply', id: 1, ok: false, error: { code: 'not-ready', message: 'stats: the scene has not loaded yet (wait for minipbd:ready)' } });
  assert.equal((await api.handle({ type: 'minipbd:command', id: 2, command: 'subscribe', args: { hz: 5 } }, A)).ok, true);
  el = { world: {}, play() { throw new Error('boom'); }, stats() { throw new Error('no stats'); } };
  assert.deepEqual(await api.handle({ type: 'minipbd:command', id: 3, command: 'play' }, A),
    { type: 'minipbd:reply', id: 3, ok: false, error: { code: 'failed', message: 'boom' } });
  await api.tick(api.subscription); // a throwing stats() is skipped
  assert.equal(api.unsubscribe(), true);
  // A read waiting for a long step: the ticks meanwhile do not pile up more reads; its event comes when it ends.
  const posted = [];
  const api2 = new FrameApi({ element: () => el, post: (msg) => posted.push(msg), timers: fakeTimers() });
  let reads = 0, finish = null;
  el = { nextStats: () => { reads++; return new Promise((r) => { finish = r; }); } };
  api2.subscribe({ hz: 30 }, A);
  const first = api2.tick(api2.subscription);
  await api2.tick(api2.subscription);
  await api2.tick(api2.subscription);
  assert.equal(reads, 1);
  finish({ steps: 9 });
  await first;
  assert.deepEqual(posted, [{ type: 'minipbd:stats', hz: 30, stats: { steps: 9 } }]);
  api2.unsubscribe();
});

test('the client\'s load(x): { builtin }, { link } and { scene } as the command table lists them, and the shorthands', async () => {
  const scene = structuredClone(builtinScenes.cloth);
  const link = await encodeLink(builtinScenes.chain);
  assert.deepEqual(loadArgs({ builtin: 'flag' }), { builtin: 'flag' });
  assert.deepEqual(loadArgs({ link }), { link });
  assert.deepEqual(loadArgs({ scene }), { scene });
  assert.deepEqual(loadArgs('flag'), { builtin: 'flag' });
  assert.deepEqual(loadArgs(`https://host.example/embed.html#${link}`), { link: `https://host.example/embed.html#${link}` });
  assert.deepEqual(loadArgs(scene), { scene });
  // A bad value goes to the frame under its key, so the frame's message names it.
  assert.deepEqual(loadArgs({ link: 5 }), { link: 5 });
  assert.deepEqual(loadArgs([1]), { scene: [1] });

  // The client over the frame API in one process: its window and the iframe's are stand-ins that pass messages on.
  const { el, api } = setup();
  const hadWindow = Object.hasOwn(globalThis, 'window');
  const saved = globalThis.window;
  globalThis.window = new EventTarget();
  const frameWindow = {
    postMessage(data, origin) {
      assert.equal(origin, A);
      api.handle(data, A).then((reply) => {
        globalThis.window.dispatchEvent(Object.assign(new Event('message'), { data: reply, origin: A, source: frameWindow }));
      });
    },
  };
  const frame = new MiniPBDFrame({ src: `${A}/embed.html`, contentWindow: frameWindow }, { origin: A, timeout: 5000 });
  try {
    assert.deepEqual(await frame.load({ link }), { particles: validateScene(builtinScenes.chain).objects[0].segments + 1 });
    assert.equal(el.world.describe().objects[0].type, 'chain');
    assert.deepEqual(await frame.load({ scene }), { particles: el.world.particleCount });
    assert.equal(el.world.describe().objects[0].type, 'cloth');
    await frame.load({ builtin: 'flag' });
    assert.equal(el.world.describe().name, validateScene(builtinScenes.flag).name);
    await frame.load('chain');
    assert.equal(el.world.describe().objects[0].type, 'chain');
    await frame.load(scene);
    assert.equal(el.world.describe().objects[0].type, 'cloth');
    // Refused: the frame's words, and the running world stays.
    const hash = el.world.hash();
    await assert.rejects(frame.load({ link: 5 }), { name: 'FrameCommandError', code: 'bad-args', message: "load: link must be a string ('s=1.…' or a URL with one), got 5" });
    await assert.rejects(frame.load({ scene: { ...scene, objects: 'many' } }), { code: 'refused', message: /^load: objects must be an array/ });
    assert.equal(el.world.hash(), hash);
  } finally {
    frame.destroy();
    if (hadWindow) globalThis.window = saved; else delete globalThis.window;
  }
});

test('a huge argument is refused after reading at most the bound, not after a walk over all of it', () => {
  // An array is refused by its length before any element is read.
  let reads = 0;
  const huge = new Proxy(new Array(3_000_000), { get(t, k) { if (/^\d+$/.test(String(k))) reads++; return t[k]; } });
  assert.throws(() => checkCommand({ type: 'minipbd:command', id: 1, command: 'load', args: { scene: { objects: huge } } }),
    (err) => err.code === 'too-large');
  assert.equal(reads, 0);
  // An object's values are read one key at a time, up to the first bound its keys pass (here the characters:
  // 300,000 keys of 8 characters are 2.4 M, the bound 1 MiB).
  const obj = {};
  const get = () => { reads++; return 0; };
  for (let i = 0; i < 300_000; i++) Object.defineProperty(obj, `k${String(i).padStart(7, '0')}`, { get, enumerable: true });
  reads = 0;
  const t0 = performance.now();
  assert.throws(() => checkCommand({ type: 'minipbd:command', id: 1, command: 'load', args: { scene: obj } }),
    (err) => err.code === 'too-large' && /characters/.test(err.message));
  assert.ok(reads <= Math.ceil((1 << 20) / 8) + 1, `${reads} values read`);
  // And the values bound: many short arrays, refused once their lengths pass it, without reading the rest.
  const parts = Array.from({ length: 40 }, () => new Array(100_000).fill(0));
  assert.throws(() => checkCommand({ type: 'minipbd:command', id: 1, command: 'load', args: { scene: { parts } } }),
    (err) => err.code === 'too-large' && /values/.test(err.message));
  assert.ok(performance.now() - t0 < 5000);
});

test('step {n} is a job: progress events, stats answered at once while it runs, pause stops it and the reply says how many ran', async () => {
  const { el, send, progress } = setup(builtinScenes['dam-break']); // ~80 ms a step on a quiet machine
  await send('pause');
  const before = el.stats().steps;
  const reply = send('step', { n: 10_000 }, 'long');
  let replied = null;
  reply.then((r) => { replied = r; });
  // Chunks run from the driver's timers; wait for a few steps.
  const t0 = performance.now();
  while (el.stats().steps < before + 2 && performance.now() - t0 < 60_000) await new Promise((r) => setTimeout(r, 20));
  assert.ok(el.stats().steps >= before + 2, 'the job runs');
  assert.equal(replied, null, 'not finished');
  assert.ok(progress.length >= 1, 'a progress event after a chunk');
  assert.equal(progress[0].msg.id, 'long');
  assert.equal(progress[0].msg.n, 10_000);
  assert.ok(progress[0].msg.done >= 1);
  // stats: answered without waiting on the steps in flight.
  const ts = performance.now();
  const stats = (await send('stats')).result;
  const statsMs = performance.now() - ts;
  assert.ok(statsMs < 200, `stats answered in ${statsMs.toFixed(1)} ms`);
  assert.ok(stats.steps >= before + 2 && stats.steps < before + 10_000);
  // pause: the job stops after the step in flight; the step's reply says how many ran.
  // How long "the step in flight" takes depends on the machine's load (a CI runner shares its cores with the
  // C suite), so the bound is the step count, and the time is bounded by this run's own step time.
  const stepMs = el.world.lastStepMs;
  const atPause = el.stats().steps;
  const tp = performance.now();
  assert.deepEqual((await send('pause')).result, { paused: true });
  const pauseMs = performance.now() - tp;
  assert.ok(pauseMs < 200 + 2 * stepMs, `pause answered in ${pauseMs.toFixed(1)} ms (a step took ${stepMs.toFixed(1)} ms)`);
  const r = await reply;
  assert.ok(r.result.steps <= atPause + 1, `${r.result.steps - atPause} steps ran after the pause (at most the one in flight)`);
  assert.equal(r.ok, true);
  assert.equal(r.result.cancelled, true);
  assert.ok(r.result.ran >= 2 && r.result.ran < 10_000, `ran ${r.result.ran}`);
  assert.equal(r.result.steps, before + r.result.ran);
  assert.equal(el.world.stats().steps, before + r.result.ran, 'the world took exactly the steps the reply counts');
});
