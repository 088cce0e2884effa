// track.mjs — the particles --track follows: whole-number indices, checked against the world's particle count,
// and two selectors for the particle a class usually wants without looking up its index: "last" (the last
// particle: a chain's free end, the pendulum bob of builtin:chain) and "top" (the highest one at step 0, the
// lowest index on a tie). Any other index: `--positions --steps 0` lists every particle's place, in index order.

import { UsageError } from './args.mjs';

export function resolveTrack(world, selectors) {
  const n = world.particleCount;
  const x = world.positions;
  const out = selectors.map((s) => {
    if (s === 'last') return n - 1;
    if (s === 'top') {
      let best = 0;
      for (let i = 1; i < n; i++) if (x[4 * i + 1] > x[4 * best + 1]) best = i;
      return best;
    }
    if (s >= n) throw new UsageError(`--track: particle ${s} does not exist; this scene has ${n} particles (0..${n - 1})`);
    return s;
  });
  if (n === 0 && out.length) throw new UsageError('--track: this scene has no particles');
  return [...new Set(out)];
}

/** { particle, position [x, y, z], velocity [vx, vy, vz] } of each tracked particle now. */
export function trackSample(world, tracked) {
  const x = world.positions, v = world.velocities;
  return tracked.map((i) => ({ particle: i, position: [x[4 * i], x[4 * i + 1], x[4 * i + 2]], velocity: [v[4 * i], v[4 * i + 1], v[4 * i + 2]] }));
}
