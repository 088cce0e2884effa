/* corner-drags.mjs -- the built-in cloth's corner dragged the way the page's pointer does (one stiffness-k
   attachment, moved every step) along circles: the drags of tools/knots.mjs and of the bench's knots case
   (bench/meet-bench.mjs), written once so that the two agree drag for drag. */

export const NU = 40; // the built-in cloth: 40 x 40
export const CORNER = 39 * NU; // (0, 39), the bottom-left corner

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => { const l = Math.hypot(...a); return a.map((x) => x / l); };

/** `count` random drags { n, r, period }: a random plane (unit normal n), radius 0.5-1 m, 0.5-2 s a turn, from a
 *  linear congruential generator at `seed` (the same numbers on every run and machine). */
export function randomDrags(count, seed = 12345) {
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const drags = [];
  for (let i = 0; i < count; i++) {
    const n = unit([rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1]);
    const r = 0.5 + 0.5 * rnd(), period = 0.5 + 1.5 * rnd();
    drags.push({ n, r, period });
  }
  return drags;
}

/** Drags the corner of `world` along a circle of radius r through it, in the plane with normal n, `period` s a turn,
 *  for `seconds` (steps of dt), then lets go. `onStep(s)` after each step s = 1, 2, ... */
export function dragCorner(world, { n, r, period, seconds }, dt, { k = 1, onStep } = {}) {
  const c = Array.from(world.positions.subarray(4 * CORNER, 4 * CORNER + 3)), id = world.addAttachment(CORNER, c, k);
  const u = unit(cross(n, Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), v = cross(n, u);
  const steps = Math.round(seconds / dt);
  for (let s = 1; s <= steps; s++) {
    const a = (2 * Math.PI * s * dt) / period, su = r * Math.sin(a), sv = r * (1 - Math.cos(a));
    world.moveAttachment(id, [0, 1, 2].map((q) => c[q] + su * u[q] + sv * v[q]));
    world.step(1);
    onStep?.(s);
  }
  world.removeAttachment(id);
  return steps;
}
