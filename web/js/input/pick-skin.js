// pick-skin.js — picking bodies by their skins. The engine's particle pick (world.pick: the first particle within a
// radius of the ray) misses a body when the press falls between its lattice particles or on the part of its skin
// that lies beyond them (a body's skin sits a contact radius outside its outer particles), and the press would
// orbit instead. So a press also casts the ray against every body's skin triangles (world.skinPositions, as C
// last moved them for drawing) and, when a skin is hit first, takes the particle of that body nearest to the hit
// point (never a pin: grabbing a pin does nothing). Only on a press or a hover: a few thousand triangles per body.

const EPS = 1e-9;

/** The first skin hit by the ray: { object, t, point } (object: its index in world.objects) or null. */
export function pickSkin(world, origin, dir) {
  if (!('skinPositions' in world)) return null;
  const objects = world.objects;
  let best = null;
  let V = null, T = null;
  for (let k = 0; k < objects.length; k++) {
    const o = objects[k];
    if (!(o.skinTriangleCount > 0)) continue;
    V ??= world.skinPositions;
    T ??= world.skinTriangles;
    const end = 3 * (o.firstSkinTriangle + o.skinTriangleCount);
    for (let i = 3 * o.firstSkinTriangle; i < end; i += 3) {
      const t = rayTriangle(origin, dir, V, 4 * T[i], 4 * T[i + 1], 4 * T[i + 2]);
      if (t >= 0 && (best === null || t < best.t)) best = { object: k, t };
    }
  }
  if (best) best.point = [0, 1, 2].map((c) => origin[c] + dir[c] * best.t);
  return best;
}

/** The free particle of object `k` nearest to `point`, or -1 (all pinned). */
export function nearestFreeParticle(world, k, point) {
  const { firstParticle, particleCount } = world.objects[k];
  const P = world.positions;
  let best = -1, bestD = Infinity;
  for (let i = firstParticle; i < firstParticle + particleCount; i++) {
    if (P[4 * i + 3] === 0) continue;
    const dx = P[4 * i] - point[0], dy = P[4 * i + 1] - point[1], dz = P[4 * i + 2] - point[2];
    const d = dx * dx + dy * dy + dz * dz;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Möller–Trumbore: the ray parameter t >= 0 where it crosses the triangle (a, b, c offsets into V), else -1.
 *  Both faces count: a skin's winding does not matter to a press. */
function rayTriangle(o, d, V, a, b, c) {
  const e1x = V[b] - V[a], e1y = V[b + 1] - V[a + 1], e1z = V[b + 2] - V[a + 2];
  const e2x = V[c] - V[a], e2y = V[c + 1] - V[a + 1], e2z = V[c + 2] - V[a + 2];
  const px = d[1] * e2z - d[2] * e2y, py = d[2] * e2x - d[0] * e2z, pz = d[0] * e2y - d[1] * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (Math.abs(det) < EPS) return -1;
  const inv = 1 / det;
  const sx = o[0] - V[a], sy = o[1] - V[a + 1], sz = o[2] - V[a + 2];
  const u = (sx * px + sy * py + sz * pz) * inv;
  if (u < 0 || u > 1) return -1;
  const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  const v = (d[0] * qx + d[1] * qy + d[2] * qz) * inv;
  if (v < 0 || u + v > 1) return -1;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  return t >= 0 ? t : -1;
}
