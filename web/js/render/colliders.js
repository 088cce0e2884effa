// colliders.js — the colliders pass: spheres, capsules and boxes drawn from two unit meshes built once per GL
// context and placed per collider with a model matrix (a handful of colliders: that loop is the only per-object
// JS in a frame); opaque, lit, no culling (the meshes are closed; depth sorts them out). A held one is tinted.

import { useLit } from './palette.js';

export const colliders = {
  programs: { collider: ['collider.vert', 'collider.frag'] },

  init(r) {
    // Collider meshes: generated once; per collider only a few uniforms change.
    r.colliderMeshes = { round: uploadMesh(r.gl, roundMesh(40, 14)), box: uploadMesh(r.gl, boxMesh()) };
  },

  visible: (frame) => frame.colliders.length > 0,

  draw(r, { camera, view, eye, colliders: list }) {
    const gl = r.gl;
    const p = r.progs.collider;
    const C = r.colors;
    useLit(r, p, camera, eye);
    gl.uniform3fv(p.uniforms.u_color, C.collider);
    gl.uniform3fv(p.uniforms.u_heldTint, C.colliderHeld);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundEnabled ? view.groundHeight : -1e9);
    for (const c of list) {
      gl.uniform1f(p.uniforms.u_held, c.held ? 1 : 0);
      drawColliderMesh(r, p, c);
    }
  },
};

/** One collider's unit mesh with program `p` (also the shadow pass's). */
export function drawColliderMesh(r, p, c) {
  const gl = r.gl;
  const mesh = r.colliderMeshes[c.mesh];
  gl.uniformMatrix4fv(p.uniforms.u_model, false, c.model);
  gl.uniform3fv(p.uniforms.u_scale, c.scale);
  gl.uniform1f(p.uniforms.u_halfHeight, c.halfHeight);
  gl.bindVertexArray(mesh.vao);
  gl.drawElements(gl.TRIANGLES, mesh.count, gl.UNSIGNED_SHORT, 0);
}

/**
 * What to draw for each collider (from world.colliders, read once per frame): which unit mesh, its model
 * matrix (rotation + translation, column-major), the scale of the unit mesh and the capsule half height.
 * Records in `cache` are reused, so a frame allocates no matrices.
 */
export function colliderDraws(colliders, held = [], cache = []) {
  cache.length = colliders.length;
  colliders.forEach((c, index) => {
    const d = (cache[index] ??= { index, model: new Float32Array(16), scale: new Float32Array(3) });
    quatToMat4(d.model, c.type === 'sphere' ? IDENTITY_QUAT : c.rotation, c.position);
    const box = c.type === 'box';
    if (box) d.scale.set(c.halfExtents);
    else d.scale.fill(c.radius);
    d.mesh = box ? 'box' : 'round';
    d.halfHeight = c.type === 'capsule' ? c.halfHeight : 0;
    d.held = held.includes(index);
  });
  return cache;
}

const IDENTITY_QUAT = [0, 0, 0, 1];

/** Rotation of unit quaternion q = [x, y, z, w] (normalised here) followed by translation t. */
export function quatToMat4(out, q, t) {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  const x = q[0] / l, y = q[1] / l, z = q[2] / l, w = q[3] / l;
  out[0] = 1 - 2 * (y * y + z * z); out[1] = 2 * (x * y + w * z); out[2] = 2 * (x * z - w * y); out[3] = 0;
  out[4] = 2 * (x * y - w * z); out[5] = 1 - 2 * (x * x + z * z); out[6] = 2 * (y * z + w * x); out[7] = 0;
  out[8] = 2 * (x * z + w * y); out[9] = 2 * (y * z - w * x); out[10] = 1 - 2 * (x * x + y * y); out[11] = 0;
  out[12] = t[0]; out[13] = t[1]; out[14] = t[2]; out[15] = 1;
  return out;
}

// Unit meshes, interleaved [x, y, z, nx, ny, nz, cap] (cap: +1 / -1 = top / bottom half of a capsule).
// Round: the unit sphere as rows of rings from the top pole to the bottom pole, with the equator ring
// twice (top half, bottom half); the quads between those two rings are the capsule's cylinder.
function roundMesh(segments, ringsPerHalf) {
  const verts = [];
  const rows = [];
  for (const cap of [1, -1]) {
    for (let i = 0; i <= ringsPerHalf; i++) {
      const phi = (Math.PI / 2) * (cap > 0 ? i / ringsPerHalf : 1 + i / ringsPerHalf);
      rows.push(verts.length / 7);
      for (let j = 0; j <= segments; j++) {
        const theta = (2 * Math.PI * j) / segments;
        const n = [Math.sin(phi) * Math.cos(theta), Math.cos(phi), Math.sin(phi) * Math.sin(theta)];
        verts.push(...n, ...n, cap);
      }
    }
  }
  const idx = [];
  for (let r = 0; r + 1 < rows.length; r++) {
    for (let j = 0; j < segments; j++) {
      const a = rows[r] + j, b = rows[r + 1] + j;
      idx.push(a, b, b + 1, a, b + 1, a + 1);
    }
  }
  return { verts: new Float32Array(verts), indices: new Uint16Array(idx) };
}

// The cube [-1, 1]^3 with flat faces (4 vertices per face for sharp edges).
function boxMesh() {
  const verts = [];
  const idx = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const s of [1, -1]) {
      const u = (axis + 1) % 3, v = (axis + 2) % 3;
      const base = verts.length / 7;
      for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const p = [0, 0, 0], n = [0, 0, 0];
        p[axis] = s; p[u] = a * s; p[v] = b;
        n[axis] = s;
        verts.push(...p, ...n, 0);
      }
      idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  }
  return { verts: new Float32Array(verts), indices: new Uint16Array(idx) };
}

function uploadMesh(gl, { verts, indices }) {
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const vbo = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, vbo);
  gl.bufferData(gl.ARRAY_BUFFER, verts, gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 28, 0);
  gl.enableVertexAttribArray(1);
  gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 28, 12);
  gl.enableVertexAttribArray(2);
  gl.vertexAttribPointer(2, 1, gl.FLOAT, false, 28, 24);
  const ibo = gl.createBuffer();
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibo);
  gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.STATIC_DRAW);
  gl.bindVertexArray(null);
  return { vao, count: indices.length };
}
