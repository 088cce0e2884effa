// hoses.js — a fluid's emitters drawn as hoses, so its water comes out of something: a pipe (the colliders' round
// mesh as a capsule, lit by their program) along each emitter's direction, its nozzle end just behind the
// emitter's disc, reaching HOSE_LENGTH back, a little wider than the stream. Read from the world's scene (whose
// emitters World.setEmitter keeps), in JS only, so a redraw while the world is busy draws them too. An emitter that
// is off still has its hose.

import { useLit } from './palette.js';
import { linearRGB } from './gl.js';
import { drawColliderMesh, quatToMat4 } from './colliders.js';
import { sceneEmitters } from '../engine/world-fluid.js';

const HOSE_COLOUR = '#3c7a45'; // garden-hose green (sRGB)
const HOSE_LENGTH = 0.3; // m of pipe behind the nozzle (the hammock's stays in its picture)
const HOSE_WIDTH = 1.2; // its radius over the emitter's
const NOZZLE_GAP = 0.01; // m between the nozzle's end and the emitter's disc

export const hoses = {
  init(r) {
    r.hoseColour = linearRGB(HOSE_COLOUR);
    r.hoseCache = [];
  },

  visible: (frame) => frame.hoses.length > 0,

  draw(r, { camera, view, eye, hoses: list }) {
    const gl = r.gl;
    const p = r.progs.collider; // colliders.js's program
    useLit(r, p, camera, eye);
    gl.uniform3fv(p.uniforms.u_color, r.hoseColour);
    gl.uniform3fv(p.uniforms.u_heldTint, r.colors.colliderHeld);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundEnabled ? view.groundHeight : -1e9);
    gl.uniform1f(p.uniforms.u_held, 0);
    for (const h of list) drawColliderMesh(r, p, h);
  },
};

/**
 * What to draw for each emitter of `scene`: a capsule record as colliders.js draws one (model matrix, scale, half
 * height), plus its nozzle (the end at the emitter) and its far end in world space (tests project them). Records
 * in `cache` are reused.
 */
export function hoseDraws(scene, cache = []) {
  const list = scene?.objects ? sceneEmitters(scene) : [];
  cache.length = list.length;
  list.forEach(({ emitter: e }, index) => {
    const d = (cache[index] ??= { index, mesh: 'round', model: new Float32Array(16), scale: new Float32Array(3), nozzle: [0, 0, 0], end: [0, 0, 0] });
    const l = Math.hypot(...e.direction) || 1;
    const dir = e.direction.map((v) => v / l);
    const radius = HOSE_WIDTH * e.radius;
    d.halfHeight = Math.max(HOSE_LENGTH / 2 - radius, 0);
    d.scale.fill(radius);
    // the capsule's axis (its local +y) points back up the hose, away from the stream
    const back = dir.map((v) => -v);
    const centre = e.position.map((v, k) => v + back[k] * (NOZZLE_GAP + HOSE_LENGTH / 2));
    quatToMat4(d.model, fromYTo(back), centre);
    for (let k = 0; k < 3; k++) {
      d.nozzle[k] = e.position[k] + back[k] * NOZZLE_GAP;
      d.end[k] = e.position[k] + back[k] * (NOZZLE_GAP + HOSE_LENGTH);
    }
  });
  return cache;
}

/** The unit quaternion [x, y, z, w] turning +y onto unit vector v (half way: y + v, normalised by quatToMat4). */
function fromYTo(v) {
  if (v[1] < -0.999999) return [1, 0, 0, 0]; // +y onto -y: half a turn about x
  return [v[2], 0, -v[0], 1 + v[1]];
}
