// common.js — what the recorder and the replayer share besides the World calls they wrap (format/replay-calls.js):
// the position quantum of a scene, the check that a world is fresh, and wrapping a world's methods on the instance
// (and putting them back).

import { REPLAY_LIMITS } from '../format/replay.js';
import { objectTypeOf } from '../objects/index.js';

/** The position quantum for a scene: the coarsest q whose step (1/q m) is at most 1/1000 of its largest object. */
export function chooseQuantum(scene) {
  let extent = 0;
  for (const o of scene.objects) extent = Math.max(extent, objectTypeOf(o).extent(o));
  for (const q of REPLAY_LIMITS.quanta) if (extent * q >= 1000) return q;
  return REPLAY_LIMITS.quanta[REPLAY_LIMITS.quanta.length - 1];
}

export function freshness(world, what) {
  const s = world.stats();
  if (s.steps !== 0 || s.attachments !== 0) {
    throw new Error(`${what} starts from a freshly built world (this one has run ${s.steps} steps and holds ${s.attachments} attachments)`);
  }
}

/** Replaces `names` on the instance; returns a function putting back exactly what was there. */
export function wrap(world, names, make) {
  const saved = names.map((name) => [name, Object.getOwnPropertyDescriptor(world, name)]);
  const original = {};
  for (const name of names) {
    const fn = world[name];
    original[name] = (...args) => fn.apply(world, args);
    world[name] = make(name);
  }
  const restore = () => {
    for (const [name, d] of saved) {
      if (d) Object.defineProperty(world, name, d);
      else delete world[name];
    }
  };
  return { original, restore };
}

