// sky.js — the sky pass: one full-screen triangle shaded by view direction (sky.vert/.frag), drawn first with no
// depth test.

export const sky = {
  programs: { sky: ['sky.vert', 'sky.frag'] },

  init(r) {
    r.vaoSky = r.gl.createVertexArray();
  },

  draw(r, { camera, eye }) {
    const gl = r.gl;
    const p = r.progs.sky;
    const C = r.colors;
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.BLEND);
    gl.disable(gl.CULL_FACE);
    gl.disable(gl.STENCIL_TEST);
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_invViewProj, false, camera.invViewProj);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform3fv(p.uniforms.u_skyTop, C.skyTop);
    gl.uniform3fv(p.uniforms.u_skyHorizon, C.skyHorizon);
    gl.bindVertexArray(r.vaoSky);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  },
};
