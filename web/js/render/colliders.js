// colliders.js — the colliders passes: spheres, capsules and boxes drawn from two unit meshes built once per GL
// context and placed per collider with a model matrix (a handful of colliders: that loop is the only per-object
// JS in a frame). Opaque ones (`colliders`) are lit, no culling (the meshes are closed; depth sorts them out); a
// held one is tinted. Glass ones (a scene's `glass: true`; `glass`) are drawn last of all, after the water, blended
// over the frame with the depth test on and no depth write (collider_glass.frag): the water and whatever else is
// behind a pane show through it, and the water pass, which refracts the opaque scene, never sees the glass.

import { LIGHT_DIR, useLit } from './palette.js';
import { srgbRGB } from './gl.js';

const GLASS_TINT = '#c4e2dc'; // the faint green-blue of float glass (sRGB)
const GLASS_EDGE_TINT = '#7fb5aa'; // its colour seen edge-on (sRGB)
const GLASS_OPACITY = 0.05; // face-on coverage of one surface, besides its reflection: a pane (two surfaces) passes ~83%
const GLASS_EDGE = 0.004; // m: the denser band along a box's edges

export const colliders = {
  programs: { collider: ['collider.vert', 'collider.frag'] },

  init(r) {
    // Collider meshes: generated once; per collider only a few uniforms change.
    r.colliderMeshes = { round: uploadMesh(r.gl, roundMesh(40, 14)), box: uploadMesh(r.gl, boxMesh()) };
  },

  visible: (frame) => frame.colliders.some((c) => !c.glass),

  draw(r, { camera, view, eye, colliders: list }) {
    const gl = r.gl;
    const p = r.progs.collider;
    const C = r.colors;
    useLit(r, p, camera, eye);
    gl.uniform3fv(p.uniforms.u_color, C.collider);
    gl.uniform3fv(p.uniforms.u_heldTint, C.colliderHeld);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundEnabled ? view.groundHeight : -1e9);
    for (const c of list) {
      if (c.glass) continue;
      gl.uniform1f(p.uniforms.u_held, c.held ? 1 : 0);
      drawColliderMesh(r, p, c);
    }
  },
};

const GL_FRONT = 0x0404, GL_BACK = 0x0405;
const CULL_FAR_FIRST = [GL_FRONT, GL_BACK];
const CULL_FAR_FIRST_INWARD = [GL_BACK, GL_FRONT];

export const glass = {
  programs: { colliderGlass: ['collider_glass.vert', 'collider_glass.frag'] },

  init(r) {
    r.glassOrder = []; // the glass colliders of a frame, far to near (reused)
    r.glassTint = srgbRGB(GLASS_TINT);
    r.glassEdgeTint = srgbRGB(GLASS_EDGE_TINT);
  },

  visible: (frame) => frame.colliders.some((c) => c.glass),

  /** Into whatever framebuffer is bound (the screen): over the finished frame, depth tested against it. */
  draw(r, { camera, eye, colliders: list }) {
    const gl = r.gl;
    const p = r.progs.colliderGlass;
    const C = r.colors;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform3fv(p.uniforms.u_lightDir, LIGHT_DIR);
    gl.uniform3fv(p.uniforms.u_skyTop, C.skyTop);
    gl.uniform3fv(p.uniforms.u_skyHorizon, C.skyHorizon);
    gl.uniform3fv(p.uniforms.u_floorColor, C.floorA);
    gl.uniform3fv(p.uniforms.u_tint, r.glassTint);
    gl.uniform3fv(p.uniforms.u_edgeTint, r.glassEdgeTint);
    gl.uniform1f(p.uniforms.u_opacity, GLASS_OPACITY);
    // Far to near by centre, and per collider its far faces before its near ones: blending is order-dependent,
    // and without depth writes this is the order that composites a tank's panes correctly from outside it.
    const order = r.glassOrder;
    order.length = 0;
    for (const c of list) {
      if (!c.glass) continue;
      c.eyeDistance = Math.hypot(c.model[12] - eye[0], c.model[13] - eye[1], c.model[14] - eye[2]);
      order.push(c);
    }
    order.sort((a, b) => b.eyeDistance - a.eyeDistance || a.index - b.index);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.depthMask(false);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA); // premultiplied (collider_glass.frag)
    gl.enable(gl.CULL_FACE);
    for (const c of order) {
      gl.uniform1f(p.uniforms.u_held, c.held ? 1 : 0);
      gl.uniform1f(p.uniforms.u_edgeWidth, c.mesh === 'box' ? GLASS_EDGE : 0);
      // Culling the faces toward the eye draws the far side first. The cube is wound counter-clockwise seen from
      // outside (GL's front faces), the round mesh clockwise (its rows run top to bottom): its outside is the back.
      for (const face of c.mesh === 'box' ? CULL_FAR_FIRST : CULL_FAR_FIRST_INWARD) {
        gl.cullFace(face);
        drawColliderMesh(r, p, c);
      }
    }
    gl.disable(gl.CULL_FACE);
    gl.cullFace(gl.BACK);
    gl.disable(gl.BLEND);
    gl.depthMask(true);
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
    d.glass = c.glass === true;
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
