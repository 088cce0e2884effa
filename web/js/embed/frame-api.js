// frame-api.js — the iframe side of the two-way postMessage API of embed.html (docs/embedding.md
// "Embedding"): which origins may command the frame, the checks every command passes, and the dispatch to the
// page's <minipbd-scene> (its control methods: embed/element-control.js).
//
//   parent -> frame  { type: 'minipbd:command', id, command, args }
//   frame -> parent  { type: 'minipbd:reply', id, ok: true, result } | { type: 'minipbd:reply', id, ok: false,
//                      error: { code, message } };  events { type: 'minipbd:ready' | 'minipbd:error' | 'minipbd:stats'
//                      | 'minipbd:progress' }
//
// `step {n}` is a job: the steps run in chunks (about 100 ms each) while every other command is answered; after
// each chunk the frame sends { type: 'minipbd:progress', id (the step command's), done, n, steps }; `pause`, `reset`,
// `load` or another `step` stop it after the step in flight, and its reply { steps, ran, cancelled } says how many
// ran.
//
// Trust: a message is read only when it comes from the frame's own parent window (event.source) and from an
// allowed origin (the `parent=` list of the address, else the parent's own origin); anything else gets no answer
// at all, so a foreign page learns nothing, not even that the API exists. Replies and events go to that origin
// only (postMessage's targetOrigin), never '*'. Commands from an allowed origin are untrusted input still: each is
// checked (types, ranges, sizes) before anything runs, and a malformed one gets an error reply naming what is
// wrong; nothing a message holds can throw out of the handler or change the world when refused.
//
// This module touches no DOM at import (the Node tests drive FrameApi with a fake element and timers).

import { BUILTIN_SCENE_IDS } from '../format/builtin-scenes.js';
import { parseFragment, LINK_MAX_DEPTH } from '../format/link.js';
import { MAX_CONTROL_STEPS, MAX_LOAD_LINK_LENGTH, showValue } from './element-control.js';

export const FRAME_COMMANDS = Object.freeze(['play', 'pause', 'reset', 'step', 'set', 'load', 'stats', 'subscribe', 'unsubscribe']);
/** Stats events per second at most (a subscription by steps is checked this often too). */
export const MAX_SUBSCRIBE_HZ = 60;
/** Origins a `parent=` list may name. */
export const MAX_PARENT_ORIGINS = 8;
/** Characters of a string id. */
export const MAX_ID_LENGTH = 200;
/** Values (numbers, strings, arrays, objects) in a command's args: a scene object with the largest meshes the
 *  format allows (SCENE_LIMITS.maxMeshVertices 200k × 3 + maxMeshElements 400k × 4) fits, anything far beyond
 *  is refused before the validator walks it. */
export const MAX_ARG_VALUES = 2_500_000;
/** Nesting of args (the scene format needs 6; links allow LINK_MAX_DEPTH). */
export const MAX_ARG_DEPTH = LINK_MAX_DEPTH;
/** Characters of all strings in args together (a link is one string: MAX_LOAD_LINK_LENGTH). */
export const MAX_ARG_CHARS = 1 << 20;
const MAX_PARAM_NAME = 64;

/** A refused command: `code` is stable, the message is for people. */
export class FrameError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'FrameError';
    this.code = code;
  }
}

const isPlainObject = (v) => v !== null && typeof v === 'object'
  && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

// ---------------------------------------------------------------- origins

/** The origins of a `parent=` value ("https://a.org,https://b.org"); throws a FrameError naming a bad entry. */
export function parseParentOrigins(text) {
  const entries = String(text).split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (entries.length === 0) throw new FrameError('bad-origin', 'parent= names no origin (write parent=https://example.org)');
  if (entries.length > MAX_PARENT_ORIGINS) throw new FrameError('bad-origin', `parent= names ${entries.length} origins; at most ${MAX_PARENT_ORIGINS}`);
  return entries.map((s) => {
    let url = null;
    try { url = new URL(s); } catch { /* reported below */ }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== s) {
      throw new FrameError('bad-origin', `parent= entry ${showValue(s)} is not an origin (scheme://host[:port], no path, e.g. https://example.org)`);
    }
    return s;
  });
}

/**
 * The origins allowed to command the frame: { origins, from: 'parent=' | 'ancestor' | 'referrer' | 'none', error }.
 * `parent=` in the fragment (or else the query) wins; without it the parent's own origin
 * (location.ancestorOrigins[0], else the referrer's origin). A bad `parent=` allows nobody (error says why).
 */
export function allowedOrigins({ hash = '', search = '', ancestorOrigins = null, referrer = '' } = {}) {
  const list = parseFragment(hash).params.get('parent') ?? new URLSearchParams(search).get('parent');
  if (list !== undefined && list !== null) {
    try {
      return { origins: parseParentOrigins(list), from: 'parent=', error: null };
    } catch (err) {
      return { origins: [], from: 'parent=', error: err.message };
    }
  }
  const ancestor = ancestorOrigins && ancestorOrigins.length > 0 ? ancestorOrigins[0] : null;
  if (ancestor && ancestor !== 'null') return { origins: [ancestor], from: 'ancestor', error: null };
  let origin = null;
  try { origin = referrer ? new URL(referrer).origin : null; } catch { /* no usable referrer */ }
  if (origin && origin !== 'null') return { origins: [origin], from: 'referrer', error: null };
  return { origins: [], from: 'none', error: 'the parent\'s origin is unknown (no referrer): name it with parent=ORIGIN' };
}

/** Whether the frame reads `event`: from its own parent window, from an allowed origin. */
export function accepts(event, parentWindow, origins) {
  return Boolean(event) && parentWindow != null && event.source === parentWindow && origins.includes(event.origin);
}

// ---------------------------------------------------------------- checks

/**
 * Bounded walk over args (depth, values, characters) before any other check reads them; cycles end at depth.
 * Every value is counted when it is found (an array by its length before any element is read, an object key by
 * key), so a huge argument is refused after at most MAX_ARG_VALUES + 1 values or MAX_ARG_CHARS + 1 characters
 * were read, never after a walk over all of it (what stays is Object.keys' own list of an object's keys).
 */
function checkSize(args) {
  let values = 1, chars = 0;
  const tooMany = () => new FrameError('too-large', `the arguments hold more than ${MAX_ARG_VALUES} values`);
  const tooLong = () => new FrameError('too-large', `the arguments' strings hold more than ${MAX_ARG_CHARS} characters`);
  const stack = [[args, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop();
    if (typeof v === 'string') {
      chars += v.length;
      if (chars > MAX_ARG_CHARS) throw tooLong();
    } else if (v !== null && typeof v === 'object') {
      if (depth > MAX_ARG_DEPTH) throw new FrameError('too-deep', `the arguments nest deeper than ${MAX_ARG_DEPTH} levels`);
      if (ArrayBuffer.isView(v)) {
        values += v.length ?? v.byteLength;
        if (values > MAX_ARG_VALUES) throw tooMany();
      } else if (Array.isArray(v)) {
        const n = v.length;
        if (values + n > MAX_ARG_VALUES) throw tooMany();
        values += n;
        for (let i = 0; i < n; i++) stack.push([v[i], depth + 1]);
      } else {
        for (const k of Object.keys(v)) {
          if (++values > MAX_ARG_VALUES) throw tooMany();
          chars += k.length;
          if (chars > MAX_ARG_CHARS) throw tooLong();
          stack.push([v[k], depth + 1]);
        }
      }
    }
  }
}

/** args as an object with exactly the keys of one of `shapes` (arrays of key names); returns the keys given. */
function argKeys(command, args, shapes) {
  if (args === undefined) args = {};
  if (!isPlainObject(args)) throw new FrameError('bad-args', `${command}: args must be an object, got ${showValue(args)}`);
  const keys = Object.keys(args);
  const shape = shapes.find((s) => s.length === keys.length && keys.every((k) => s.includes(k)));
  if (!shape) {
    const want = shapes.map((s) => (s.length ? `{ ${s.join(', ')} }` : '{}')).join(' or ');
    throw new FrameError('bad-args', `${command}: args must be ${want}, got { ${keys.slice(0, 8).map((k) => showValue(k)).join(', ')} }`);
  }
  return args;
}

function finiteNumber(command, what, v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new FrameError('bad-args', `${command}: ${what} must be a finite number, got ${showValue(v)}`);
  return v;
}

/** The checked arguments of each command (throws FrameError). */
const CHECKS = {
  play: (a) => argKeys('play', a, [[]]),
  pause: (a) => argKeys('pause', a, [[]]),
  reset: (a) => argKeys('reset', a, [[]]),
  stats: (a) => argKeys('stats', a, [[]]),
  unsubscribe: (a) => argKeys('unsubscribe', a, [[]]),
  step(a) {
    const { n } = argKeys('step', a, [['n']]);
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_CONTROL_STEPS) {
      throw new FrameError('bad-args', `step: n must be an integer in 1..${MAX_CONTROL_STEPS}, got ${showValue(n)}`);
    }
    return { n };
  },
  set(a) {
    const { name, value } = argKeys('set', a, [['name', 'value']]);
    if (typeof name !== 'string' || name.length === 0 || name.length > MAX_PARAM_NAME) {
      throw new FrameError('bad-args', `set: name must be a parameter's name (a string of 1..${MAX_PARAM_NAME} characters), got ${showValue(name)}`);
    }
    return { name, value: finiteNumber('set', 'value', value) };
  },
  load(a) {
    const args = argKeys('load', a, [['scene'], ['link'], ['builtin']]);
    if ('builtin' in args) {
      if (typeof args.builtin !== 'string' || !BUILTIN_SCENE_IDS.includes(args.builtin)) {
        throw new FrameError('bad-args', `load: builtin must be one of ${BUILTIN_SCENE_IDS.join(', ')}, got ${showValue(args.builtin)}`);
      }
      return { input: args.builtin };
    }
    if ('link' in args) {
      if (typeof args.link !== 'string') throw new FrameError('bad-args', `load: link must be a string ('s=1.…' or a URL with one), got ${showValue(args.link)}`);
      if (args.link.length > MAX_LOAD_LINK_LENGTH) {
        throw new FrameError('too-large', `load: the link is ${args.link.length} characters long; links hold at most ${MAX_LOAD_LINK_LENGTH}`);
      }
      if (!/(^|[#&])s=/.test(args.link)) throw new FrameError('bad-args', `load: link ${showValue(args.link)} carries no scene ('s=1.…')`);
      return { input: args.link };
    }
    if (!isPlainObject(args.scene)) throw new FrameError('bad-args', `load: scene must be a scene object, got ${showValue(args.scene)}`);
    return { input: args.scene };
  },
  subscribe(a) {
    const args = argKeys('subscribe', a, [['every'], ['hz']]);
    if ('every' in args) {
      const k = args.every;
      if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > MAX_CONTROL_STEPS) {
        throw new FrameError('bad-args', `subscribe: every must be an integer number of steps in 1..${MAX_CONTROL_STEPS}, got ${showValue(k)}`);
      }
      return { every: k };
    }
    const hz = finiteNumber('subscribe', 'hz', args.hz);
    if (!(hz > 0 && hz <= MAX_SUBSCRIBE_HZ)) throw new FrameError('bad-args', `subscribe: hz must be in (0, ${MAX_SUBSCRIBE_HZ}], got ${showValue(hz)}`);
    return { hz };
  },
};

/**
 * { id, command, args } of a command message, checked; throws a FrameError (with .id when the id was usable).
 */
export function checkCommand(data) {
  if (!isPlainObject(data)) throw new FrameError('bad-message', `a command must be an object { type: 'minipbd:command', id, command, args }, got ${showValue(data)}`);
  let id = null;
  if (typeof data.id === 'string' && data.id.length <= MAX_ID_LENGTH) id = data.id;
  else if (typeof data.id === 'number' && Number.isFinite(data.id)) id = data.id;
  else if (data.id !== undefined && data.id !== null) {
    throw new FrameError('bad-id', `id must be a finite number or a string of at most ${MAX_ID_LENGTH} characters, got ${showValue(data.id)}`);
  }
  const fail = (code, message) => Object.assign(new FrameError(code, message), { id });
  if (data.type !== 'minipbd:command') throw fail('bad-message', `type must be 'minipbd:command', got ${showValue(data.type)}`);
  const command = data.command;
  if (typeof command !== 'string' || !FRAME_COMMANDS.includes(command)) {
    throw fail('unknown-command', `unknown command ${showValue(command)}; known: ${FRAME_COMMANDS.join(', ')}`);
  }
  try {
    checkSize(data.args);
    return { id, command, args: CHECKS[command](data.args) };
  } catch (err) {
    throw Object.assign(err, { id });
  }
}

// ---------------------------------------------------------------- dispatch

const messageOf = (err) => (err && typeof err.message === 'string' && err.message ? err.message : String(err));

/**
 * The command handler of one frame. `element()` returns the page's <minipbd-scene> (or a stand-in with the same
 * control methods: play, pause, reset, step, load, setParam, stats, paused, world); `post(message, origin)`
 * sends an event to the parent. A subscription (one at a time: a new one replaces it) lasts across load, reset
 * and a new scene in the address, until unsubscribe; it sends { type: 'minipbd:stats', stats, every | hz } to
 * the origin that subscribed, at most MAX_SUBSCRIBE_HZ times a second.
 */
export class FrameApi {
  constructor({ element, post, timers = globalThis }) {
    this.element = element;
    this.post = post;
    this.timers = timers;
    this.subscription = null; // { every | hz, origin, timer, last }
  }

  /** The reply to message `data` from `origin` (already accepted); never throws, never rejects. */
  async handle(data, origin) {
    let id = null;
    try {
      const cmd = checkCommand(data);
      id = cmd.id;
      const result = await this.run(cmd.command, cmd.args, origin, id);
      return { type: 'minipbd:reply', id, ok: true, result };
    } catch (err) {
      const code = err instanceof FrameError ? err.code : 'failed';
      return { type: 'minipbd:reply', id: err instanceof FrameError && err.id !== undefined ? err.id : id, ok: false, error: { code, message: messageOf(err) } };
    }
  }

  async run(command, args, origin, id = null) {
    if (command === 'subscribe') return this.subscribe(args, origin);
    if (command === 'unsubscribe') return { subscribed: this.unsubscribe() };
    const el = this.element();
    if (!el || !el.world) throw new FrameError('not-ready', `${command}: the scene has not loaded yet (wait for minipbd:ready)`);
    const refused = (err) => new FrameError('refused', `${command}: ${messageOf(err)}`);
    switch (command) {
      case 'play': el.play(); return { paused: el.paused };
      case 'pause': // answered once the step in flight has ended: the stats read after it hold still
        el.pause();
        await el.idle?.();
        return { paused: el.paused };
      case 'reset': el.reset(); return { particles: el.world.particleCount, steps: el.stats().steps };
      case 'step': {
        if (!el.stepJob) return { steps: await el.step(args.n), ran: args.n, cancelled: false };
        const progress = ({ done, n }) => {
          let steps = null;
          try { steps = el.stats().steps; } catch { /* a world being replaced */ }
          this.post({ type: 'minipbd:progress', id, done, n, steps }, origin);
        };
        return el.stepJob(args.n, { onProgress: progress });
      }
      case 'stats': return el.stats();
      case 'set':
        try { el.setParam(args.name, args.value); } catch (err) { throw refused(err); }
        return { name: args.name, value: el.world.getParam(args.name) };
      case 'load':
        try { return await el.load(args.input); } catch (err) { throw refused(err); }
      default: throw new FrameError('unknown-command', `unknown command ${showValue(command)}`);
    }
  }

  subscribe(args, origin) {
    this.unsubscribe();
    const periodMs = 1000 / ('hz' in args ? args.hz : MAX_SUBSCRIBE_HZ);
    const sub = { ...args, origin, last: null, timer: null, reading: false };
    sub.timer = this.timers.setInterval(() => this.tick(sub), periodMs);
    this.subscription = sub;
    return 'hz' in args ? { hz: args.hz } : { every: args.every };
  }

  /** Ends the subscription; returns whether there was one. */
  unsubscribe() {
    const sub = this.subscription;
    if (!sub) return false;
    this.timers.clearInterval(sub.timer);
    this.subscription = null;
    return true;
  }

  async tick(sub) {
    if (this.subscription !== sub || sub.reading) return; // one read at a time: a long step delays, never piles up
    const el = this.element();
    if (!el) return;
    let stats;
    sub.reading = true;
    try {
      stats = await (el.nextStats ? el.nextStats() : el.stats()); // without waiting on the steps in flight
    } catch {
      return; // a world being replaced: the next tick reads the new one
    } finally {
      sub.reading = false;
    }
    if (this.subscription !== sub) return;
    if ('every' in sub) {
      // A new world (load, reset) starts from 0: count from there. Steps faster than the tick come as one event.
      if (sub.last === null || stats.steps < sub.last) sub.last = stats.steps;
      if (stats.steps - sub.last < sub.every) return;
      sub.last = stats.steps;
      this.post({ type: 'minipbd:stats', every: sub.every, stats }, sub.origin);
    } else {
      this.post({ type: 'minipbd:stats', hz: sub.hz, stats }, sub.origin);
    }
  }
}

/**
 * Listens on `win` for commands to the page's element: reads only what `accepts` lets in, and answers each
 * accepted message with a reply to its own origin. `origins()` gives the allowed origins now.
 * Returns the FrameApi (its subscription is the page's).
 */
export function installFrameApi(win, { element, origins }) {
  const api = new FrameApi({ element, post: (msg, origin) => win.parent.postMessage(msg, origin), timers: win });
  win.addEventListener('message', (event) => {
    if (win.parent === win || !accepts(event, win.parent, origins())) return; // not ours: no answer at all
    const origin = event.origin;
    api.handle(event.data, origin).then((reply) => {
      try {
        win.parent.postMessage(reply, origin);
      } catch {
        // a result that does not clone (never for the results above): say so instead
        win.parent.postMessage({ type: 'minipbd:reply', id: reply.id, ok: false, error: { code: 'failed', message: 'the reply could not be sent' } }, origin);
      }
    });
  });
  return api;
}
