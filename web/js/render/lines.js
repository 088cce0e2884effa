// lines.js — the lines pass: every object drawn as lines (objects/: render.primitive 'lines', ropes), one draw
// from world.lines.

export const lines = {
  programs: { line: ['line.vert', 'line.frag'] },

  visible: (frame) => frame.hasLines,

  draw(r, { camera }) {
    const gl = r.gl;
    const p = r.progs.line;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform4fv(p.uniforms.u_color, r.colors.rope);
    gl.bindVertexArray(r.vaoLines);
    gl.drawElements(gl.LINES, r.lineIndexCount, gl.UNSIGNED_INT, 0);
  },
};
