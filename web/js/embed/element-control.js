// element-control.js — the control methods of <minipbd-scene> that a host page (and the iframe API,
// embed/frame-api.js) drives it with: step(n), load(input), setParam(name, value), stats(), paused.
// withControl(Base) is a class over Base with them, which the element class (embed/element.js) extends, so the
// element's own file keeps its life cycle and this one its remote control.
//
// Every method checks its input before touching anything: a refused call throws (or rejects) with a message
// naming what is wrong and the running world stays exactly as it was (a refused load keeps the old scene).

import { BUILTIN_SCENE_IDS, loadBuiltinScene } from '../format/builtin-scenes.js';
import { decodeRun, LINK_MAX_FRAGMENT } from '../format/link.js';
import { validateScene } from '../format/scene.js';
import { hasWater } from '../objects/index.js';
import { prepareAhead } from '../sim/prepare.js';

/** Steps one step(n) call takes at most: n fixed steps of a large scene block for that long on the
 *  single-thread build, so the bound keeps one call in seconds, not minutes (and a typo of 1e9 harmless). */
export const MAX_CONTROL_STEPS = 10000;
/** A link given to load(): its fragment (LINK_MAX_FRAGMENT) plus room for the page address in front of it. */
export const MAX_LOAD_LINK_LENGTH = LINK_MAX_FRAGMENT + 2048;

/** A short, safe rendering of a refused value for a message (never a whole huge string). */
export function showValue(v) {
  if (typeof v === 'string') return v.length > 40 ? `"${v.slice(0, 40)}…" (${v.length} characters)` : JSON.stringify(v);
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  return typeof v === 'object' ? 'an object' : typeof v;
}

/** n when it is an integer in [1, MAX_CONTROL_STEPS]; else throws naming the range. */
export function checkStepCount(n) {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_CONTROL_STEPS) {
    throw new RangeError(`step count must be an integer in 1..${MAX_CONTROL_STEPS}, got ${showValue(n)}`);
  }
  return n;
}

/** The link fragment of a link: 's=1.…', '#s=1.…' or a whole URL with '#s=1.…'. */
function fragmentOf(src) {
  const i = src.indexOf('#');
  return i >= 0 ? src.slice(i + 1) : src;
}

/**
 * { scene, replay } for load(input): a scene object (validated: validateScene's messages), a built-in scene's
 * name, or a link (a fragment or a whole URL carrying one: decodeRun's messages and limits). Throws when refused.
 */
export async function resolveLoadInput(input) {
  if (typeof input === 'string') {
    const s = input.trim();
    if (BUILTIN_SCENE_IDS.includes(s)) return { scene: structuredClone(await loadBuiltinScene(s)), replay: null };
    if (s.length > MAX_LOAD_LINK_LENGTH) {
      throw new RangeError(`the link is ${s.length} characters long; links hold at most ${MAX_LOAD_LINK_LENGTH}`);
    }
    if (!/(^|[#&])s=/.test(s)) {
      throw new TypeError(`${showValue(s)} is neither a built-in scene (${BUILTIN_SCENE_IDS.join(', ')}) nor a link ('s=1.…')`);
    }
    return decodeRun(fragmentOf(s));
  }
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { scene: validateScene(input), replay: null };
  throw new TypeError(`load takes a scene object, a link or a built-in scene's name, got ${showValue(input)}`);
}

function loadedWorld(el, call) {
  const world = el.world; // the element's getter: the steps in flight and the calls waiting end first
  if (!world || !el._engine) throw new Error(`${call}: the scene has not loaded yet (it loads once it is in view)`);
  return world;
}

/**
 * The control methods as a class over `Base` (embed/element.js: MiniPBDSceneElement extends
 * withControl(withAttrs(HTMLElement))); they use the element's internals (_engine, _world, _driver, _loop, _view,
 * _kick, _adopt, …).
 */
export const withControl = (Base) => class SceneControl extends Base {
  /** Resolves once no step is in flight or due (after pause(), the world's step count then holds still). */
  idle() { return this._driver.whenIdle(); }

  /** True unless the simulation is set to run (before load too). */
  get paused() { return this._playing !== true; }

  /**
   * Takes exactly n steps after those in flight, also while paused (through World.stepAsync, so a replay or a
   * held collider sees each of them); resolves with world.stats().steps when they are done. pause(), reset(),
   * load() or another step(n) stop it early (stepJob says how many ran).
   */
  async step(n) {
    return (await this.stepJob(n)).steps;
  }

  /**
   * step(n) as a job that says how far it is and can be stopped: the steps run in chunks (sim/driver.js stepJob:
   * about 100 ms each), the page drawing and answering between them; onProgress({ done, n }) after each chunk.
   * pause(), reset(), load() or another step stop it after the step in flight. Resolves with { steps (the
   * world's count), ran (steps this call took), cancelled }.
   */
  async stepJob(n, { onProgress = null } = {}) {
    checkStepCount(n);
    loadedWorld(this, 'step');
    const job = this._driver.stepJob(n, { onProgress });
    this._dirty = true;
    this._kick(); // frames draw the chunks; the driver's pump steps them with no frame too (a hidden element)
    const { ran, cancelled } = await job;
    const world = this._world;
    return { steps: world && !world.destroyed ? world.peekStats().steps : 0, ran, cancelled };
  }

  /**
   * Replaces the scene: `input` is a scene object, a link (fragment or whole URL) or a built-in scene's name,
   * validated first; on refusal it rejects with the validator's message and the running world stays.
   * Resolves with { particles }. A link's recording is replayed as for `src`; reset() rebuilds this scene.
   */
  async load(input) {
    const { scene, replay } = await resolveLoadInput(input);
    loadedWorld(this, 'load');
    await prepareAhead(this._engine, scene); // a model's cells, between tasks (sim/prepare.js)
    loadedWorld(this, 'load');
    this._driver.drop(); // the old world's steps due (a job too) and the one in flight
    this._driver.flush(); // the calls waiting (drop() stopped the steps in flight)
    const world = this._engine.createWorld(scene); // throws before anything changed
    this._dropPointers();
    const old = this._world;
    this._adopt(world);
    this._replay = replay;
    this._startReplay();
    old.destroy();
    this._kick();
    return { particles: world.particleCount };
  }

  /** World.setParam with its checks and messages; the element's loop and view follow dt and the ground. */
  setParam(name, value) {
    const world = loadedWorld(this, 'setParam');
    world.setParam(name, value);
    if (name === 'dt') this._loop.reset(world.getParam('dt'));
    this._view.groundEnabled = Boolean(world.getParam('groundEnabled'));
    this._view.groundHeight = world.getParam('groundHeight');
    this._dirty = true;
    this._kick();
  }

  /**
   * world.stats() plus `time` (steps × dt, s) and `fluid` (World.fluidStats()) when the scene has water; never
   * waits on the steps in flight (World.peekStats: then `busy` is true, steps counts those ended, and the errors,
   * energies and fluid are those read last, at step `measuredAt`).
   */
  stats() {
    const world = this._world;
    if (!world || !this._engine || world.destroyed) throw new Error('stats: the scene has not loaded yet (it loads once it is in view)');
    const out = world.peekStats();
    out.time = out.steps * this._loop.dt;
    if (hasWater(world.scene)) {
      const fluid = world.peekFluidStats();
      if (fluid) out.fluid = fluid;
    }
    return out;
  }

  /** stats() as a Promise (the stats subscription's reads: they never wait on the steps in flight either). */
  nextStats() {
    try {
      return Promise.resolve(this.stats());
    } catch (err) {
      return Promise.reject(err);
    }
  }
};
