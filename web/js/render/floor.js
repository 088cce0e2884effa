// floor.js — the floor and the shadows on it: a fading checker plane at the ground height, then the colliders,
// cloth, bodies and ropes squashed onto it along the key light (glass colliders faintly). The stencil lets each
// pixel be darkened once, so overlapping folds do not stack into darker blotches. No floor seen from below: it would hide the scene.

import { LIGHT_DIR } from './palette.js';
import { drawColliderMesh } from './colliders.js';
import { skin } from './skin.js';

const GLASS_SHADOW = 0.07; // a glass collider's shadow strength (solid ones: 0.26)

export const floor = {
  programs: {
    floor: ['floor.vert', 'floor.frag'],
    shadow: ['shadow.vert', 'shadow.frag'],
    colliderShadow: ['collider_shadow.vert', 'shadow.frag'],
  },

  init(r) {
    const gl = r.gl;
    r.floorBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, r.floorBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    r.vaoFloor = gl.createVertexArray();
    gl.bindVertexArray(r.vaoFloor);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.floorBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  },

  visible: ({ view, eye }) => view.groundEnabled && eye[1] > view.groundHeight,

  draw(r, frame) {
    drawFloor(r, frame);
    drawShadows(r, frame);
  },
};

function drawFloor(r, { camera, view, eye, fadeStart, fadeEnd }) {
  const gl = r.gl;
  const p = r.progs.floor;
  const C = r.colors;
  gl.enable(gl.BLEND); // the floor's alpha fades it into the sky
  gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  gl.useProgram(p.program);
  gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
  gl.uniform3fv(p.uniforms.u_center, [camera.target[0], view.groundHeight, camera.target[2]]);
  gl.uniform1f(p.uniforms.u_extent, Math.max(40, fadeEnd * 1.2));
  gl.uniform3fv(p.uniforms.u_eye, eye);
  gl.uniform1f(p.uniforms.u_fadeStart, fadeStart);
  gl.uniform1f(p.uniforms.u_fadeEnd, fadeEnd);
  gl.uniform3fv(p.uniforms.u_floorA, C.floorA);
  gl.uniform3fv(p.uniforms.u_floorB, C.floorB);
  gl.uniform3fv(p.uniforms.u_lineColor, C.floorLine);
  gl.bindVertexArray(r.vaoFloor);
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  gl.disable(gl.BLEND);
}

function drawShadows(r, { camera, view, eye, fadeEnd, colliders }) {
  const gl = r.gl;
  gl.enable(gl.BLEND);
  gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  gl.depthMask(false);
  gl.enable(gl.POLYGON_OFFSET_FILL); // sits exactly on the floor plane: win the depth tie
  gl.polygonOffset(-1, -2);
  gl.enable(gl.STENCIL_TEST);
  gl.stencilFunc(gl.EQUAL, 0, 0xff);
  gl.stencilOp(gl.KEEP, gl.KEEP, gl.INCR);
  const common = (p) => {
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform3fv(p.uniforms.u_lightDir, LIGHT_DIR);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundHeight);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform1f(p.uniforms.u_fadeEnd, fadeEnd);
  };
  // Solid colliders first and a little darker; the stencil keeps the union of all shadows one shade.
  if (colliders.some((c) => !c.glass)) {
    const p = r.progs.colliderShadow;
    common(p);
    gl.uniform1f(p.uniforms.u_strength, 0.26);
    for (const c of colliders) if (!c.glass) drawColliderMesh(r, p, c);
  }
  const p = r.progs.shadow;
  common(p);
  if (r.triIndexCount > 0) {
    gl.uniform1f(p.uniforms.u_strength, 0.22);
    gl.bindVertexArray(r.vaoMesh);
    gl.drawElements(gl.TRIANGLES, r.triIndexCount, gl.UNSIGNED_INT, 0);
  }
  if (r.skinIndexCount > 0) {
    gl.uniform1f(p.uniforms.u_strength, 0.24);
    skin.drawShadow(r);
  }
  if (r.lineIndexCount > 0) {
    gl.uniform1f(p.uniforms.u_strength, 0.3);
    gl.bindVertexArray(r.vaoLines);
    gl.drawElements(gl.LINES, r.lineIndexCount, gl.UNSIGNED_INT, 0);
  }
  // Glass last and faint (it lets most light through): where another shadow falls, that one's shade is kept.
  if (colliders.some((c) => c.glass)) {
    const p = r.progs.colliderShadow;
    common(p);
    gl.uniform1f(p.uniforms.u_strength, GLASS_SHADOW);
    for (const c of colliders) if (c.glass) drawColliderMesh(r, p, c);
  }
  gl.disable(gl.STENCIL_TEST);
  gl.disable(gl.POLYGON_OFFSET_FILL);
  gl.depthMask(true);
  gl.disable(gl.BLEND);
}
