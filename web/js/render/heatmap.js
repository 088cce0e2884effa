// heatmap.js — the constraint-error heat map (view.heatMap): per particle, the largest relative error of its
// constraints, computed in C (world.updateErrors) and uploaded like the positions, one bufferSubData and no JS
// loop; the surfaces pass (cloth.js) shades by it, blue at 0 to red at 10% or more (cloth.frag), and bodies are
// drawn as their particles in the same colours (points.js, point.frag; skin.js says why). Fluid particles too,
// by their density error max(rho / rho0 - 1, 0), which the fluid family's error hook writes (docs/fluids.md).

export const heatmap = {
  init(r) {
    r.errorBuffer = r.gl.createBuffer(); // per-particle relative error (world.errors)
  },

  setWorld(r) {
    const gl = r.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, r.errorBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, r.bufferBytes / 4, gl.DYNAMIC_DRAW); // zeros: no heat until uploaded
  },

  visible: (frame) => Boolean(frame.view.heatMap) && (frame.hasSurfaces || frame.hasSkins || frame.hasFluid),

  upload(r, world) {
    const gl = r.gl;
    world.updateErrors();
    gl.bindBuffer(gl.ARRAY_BUFFER, r.errorBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.errors);
  },
};
