// frame-client.js — the parent side of the iframe API (docs/embedding.md "Embedding"; the frame side is frame-api.js):
// commands to an embed.html iframe as promises, and its events.
//
//   import { MiniPBDFrame } from 'minipbd/frame';          // or …/js/embed/frame-client.js
//   const frame = new MiniPBDFrame(document.querySelector('iframe'));  // origin: new URL(iframe.src).origin
//   await frame.ready;                                     // its minipbd:ready (create the client before it loads)
//   await frame.pause(); await frame.step(5);
//   const { ran, cancelled } = await frame.step(10000, { onProgress: ({ done, n }) => bar(done / n) }); // frame.pause() stops it
//   await frame.set('iterations', 20);
//   const { kineticEnergy, time } = await frame.stats();
//   await frame.subscribe({ hz: 10 }, (stats) => plot(stats.time, stats.kineticEnergy));
//
// Only messages from that iframe's window (event.source) and origin are read. A refused command rejects with a
// FrameCommandError (.code, .message as the frame sent them); a command the frame never answers (its origin
// check did not let this page in, or it has not booted) rejects after `timeout` ms; a long step's timeout starts
// again at each of its progress events (a frame still stepping is not silent).

/** A command the frame refused: `code` as in the frame's reply ('bad-args', 'refused', 'not-ready', …). */
export class FrameCommandError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'FrameCommandError';
    this.code = code;
  }
}

const LOAD_KEYS = ['builtin', 'link', 'scene'];

/** The load command's args for MiniPBDFrame.load(x): an object of exactly one of its keys goes as it is (a scene
 *  object always has "format" besides, so it is never taken for one), a string is a link when it carries 's=' and a
 *  built-in's name otherwise, anything else is a scene. The frame checks the values. */
export function loadArgs(x) {
  if (typeof x === 'string') return /(^|[#&])s=/.test(x) ? { link: x } : { builtin: x };
  if (x !== null && typeof x === 'object' && !Array.isArray(x)) {
    const keys = Object.keys(x);
    if (keys.length === 1 && LOAD_KEYS.includes(keys[0])) return { [keys[0]]: x[keys[0]] };
  }
  return { scene: x };
}

export class MiniPBDFrame extends EventTarget {
  /**
   * @param {HTMLIFrameElement} iframe  an iframe of embed.html
   * @param {{ origin?: string, timeout?: number }} [options]  origin: the iframe page's origin (default: that of
   *   iframe.src); timeout: ms to wait for a reply (default 15000)
   */
  constructor(iframe, { origin, timeout = 15000 } = {}) {
    super();
    this.iframe = iframe;
    this.origin = origin ?? new URL(iframe.src, document.baseURI).origin;
    this.timeout = timeout;
    this.pending = new Map(); // id -> { resolve, reject, timer }
    this.nextId = 1;
    this.onStats = null;
    this.readyInfo = null;
    this.ready = new Promise((resolve) => { this.resolveReady = resolve; });
    this.listener = (e) => this.receive(e);
    window.addEventListener('message', this.listener);
  }

  receive(e) {
    if (e.source !== this.iframe.contentWindow || e.origin !== this.origin) return; // not this frame
    const m = e.data;
    if (!m || typeof m !== 'object') return;
    if (m.type === 'minipbd:reply') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.result);
      else p.reject(new FrameCommandError(String(m.error?.code), String(m.error?.message)));
    } else if (m.type === 'minipbd:progress') {
      const detail = { id: m.id, done: m.done, n: m.n, steps: m.steps };
      const p = this.pending.get(m.id);
      if (p) {
        p.arm(); // still working: the reply's timeout starts again
        try { p.onProgress?.(detail); } catch (err) { console.error(err); }
      }
      this.dispatchEvent(new CustomEvent('progress', { detail }));
    } else if (m.type === 'minipbd:ready') {
      this.readyInfo = { particles: m.particles };
      this.resolveReady(this.readyInfo);
      this.dispatchEvent(new CustomEvent('ready', { detail: this.readyInfo }));
    } else if (m.type === 'minipbd:error') {
      this.dispatchEvent(new CustomEvent('error', { detail: { message: m.message } }));
    } else if (m.type === 'minipbd:stats') {
      this.onStats?.(m.stats);
      this.dispatchEvent(new CustomEvent('stats', { detail: m.stats }));
    }
  }

  /** Sends `command` with `args`; resolves with the frame's result. */
  command(command, args = {}, { onProgress = null } = {}) {
    const win = this.iframe.contentWindow;
    if (!win) return Promise.reject(new FrameCommandError('no-frame', 'the iframe has no window (not in the document?)'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, timer: 0, onProgress };
      entry.arm = () => {
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new FrameCommandError('timeout', `${command}: no reply from ${this.origin} within ${this.timeout} ms (is this page allowed by the frame's parent= list?)`));
        }, this.timeout);
      };
      entry.arm();
      this.pending.set(id, entry);
      win.postMessage({ type: 'minipbd:command', id, command, args }, this.origin);
    });
  }

  play() { return this.command('play'); }
  pause() { return this.command('pause'); }
  reset() { return this.command('reset'); }
  /** Exactly n steps (also while paused), as a job: onProgress({ id, done, n, steps }) after each chunk (about
   *  100 ms of steps); pause(), reset(), load() or another step() stop it after the step in flight. Resolves with
   *  { steps (the world's count), ran (steps this call took), cancelled }. */
  step(n = 1, { onProgress = null } = {}) { return this.command('step', { n }, { onProgress }); }
  /** A solver or environment parameter (World.setParam's names and ranges). */
  set(name, value) { return this.command('set', { name, value }); }
  /** { builtin }, { link } or { scene } as the frame's load command takes them, or a shorthand: a scene object, a
   *  link ('s=1.…' or a URL with one) or a built-in scene's name; resolves with { particles }. A refused scene keeps
   *  the old one running. */
  load(x) { return this.command('load', loadArgs(x)); }
  /** world.stats() of the frame's world, plus time (s) and fluid (when there is water). */
  stats() { return this.command('stats'); }
  /** Stats events { every: steps } or { hz } (at most 60 a second); `fn(stats)` gets each. One at a time. */
  subscribe(opts, fn) {
    this.onStats = fn ?? null;
    return this.command('subscribe', opts);
  }
  unsubscribe() {
    this.onStats = null;
    return this.command('unsubscribe');
  }

  /** Stops listening; pending commands reject. */
  destroy() {
    window.removeEventListener('message', this.listener);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new FrameCommandError('destroyed', 'the client was destroyed'));
    }
    this.pending.clear();
  }
}
