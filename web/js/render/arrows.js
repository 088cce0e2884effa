// arrows.js — velocity arrows (view.velocityArrows, off by default): while on, world.velocities is uploaded with
// one more bufferSubData, and one instanced draw (arrow.vert) builds an arrow per particle from the position and
// velocity buffers; no JS touches a particle. See arrowStride for the cap on very large worlds.

// Velocity arrows: length 0.05 s x |v|, at most 0.5 m; coloured blue (still) through cyan, green, yellow to
// red at 5 m/s or more.
export const ARROWS = { seconds: 0.05, maxLength: 0.5, hotSpeed: 5, max: 20000 };
const ARROW_VERTICES = 18; // per arrow: outline (shaft quad + head) then the coloured arrow, see arrow.vert

/**
 * Particles per drawn arrow: 1 up to ARROWS.max particles, otherwise every k-th particle so that at most about
 * ARROWS.max arrows are drawn. The skip is the attribute stride (16 bytes x k), which WebGL caps at 255 bytes,
 * so k is at most 15 (262,144 particles, the scene limit, give k = 14 and 18,725 arrows).
 */
export function arrowStride(particles) {
  return Math.min(15, Math.max(1, Math.ceil(particles / ARROWS.max)));
}

export const arrows = {
  programs: { arrow: ['arrow.vert', 'arrow.frag'] },

  init(r) {
    const gl = r.gl;
    r.velocityBuffer = gl.createBuffer(); // world.velocities, uploaded only while the arrows are on
    // Position and velocity per instance (divisor 1); the stride is set per world (arrowStride).
    r.vaoArrows = gl.createVertexArray();
    gl.bindVertexArray(r.vaoArrows);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribDivisor(0, 1);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribDivisor(1, 1);
    gl.bindVertexArray(null);
  },

  /** Sizes the velocity buffer for `world` and sets the instance stride. */
  setWorld(r, world) {
    const gl = r.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, r.velocityBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, r.bufferBytes, gl.DYNAMIC_DRAW); // zeros: no arrows until uploaded
    const particles = world.positions.length / 4;
    const k = arrowStride(particles);
    r.arrowStride = k;
    r.arrowCount = Math.ceil(particles / k);
    gl.bindVertexArray(r.vaoArrows);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.posBuffer);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 16 * k, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.velocityBuffer);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 16 * k, 0);
    r.bindPrevious(16 * k, 1);
    gl.bindVertexArray(null);
  },

  visible: (frame, r) => Boolean(frame.view.velocityArrows) && r.arrowCount > 0,

  upload(r, world) {
    const gl = r.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, r.velocityBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.velocities);
  },

  // Over everything drawn so far (depth-tested, pulled a little toward the eye): one
  // instanced draw, the arrows built in arrow.vert from the position and velocity buffers.
  draw(r, { camera }) {
    const gl = r.gl;
    const p = r.progs.arrow;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform1f(p.uniforms.u_projZ, camera.proj[14]);
    gl.uniform2f(p.uniforms.u_viewport, gl.drawingBufferWidth, gl.drawingBufferHeight);
    // Drawing-buffer pixels per CSS pixel (at least 1 CSS pixel's worth when zoomed out), so arrows keep their
    // size on screen when a software renderer draws at its pixelScale (renderer.js fit).
    gl.uniform1f(p.uniforms.u_pixelRatio, r.pixelScale * Math.max(1, globalThis.devicePixelRatio || 1));
    gl.uniform1f(p.uniforms.u_seconds, ARROWS.seconds);
    gl.uniform1f(p.uniforms.u_maxLength, ARROWS.maxLength);
    gl.uniform1f(p.uniforms.u_hotSpeed, ARROWS.hotSpeed);
    gl.bindVertexArray(r.vaoArrows);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, ARROW_VERTICES, r.arrowCount);
  },
};
