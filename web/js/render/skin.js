// skin.js — the skins pass: every body (objects/: render.primitive 'skin', soft and rigid bodies) drawn as its
// render surface, which C moves (world.updateSkin(): barycentric over a soft body's tets, the body's rotation
// and translation for a rigid one, normals included). Each frame with a body uploads world.skinPositions and
// world.skinNormals with one bufferSubData each, straight from the wasm memory views; world.skinTriangles is
// re-uploaded only when world.topologyVersion changes (renderer.js). A world without bodies uploads nothing
// here. One draw per body (its triangle range), with its type's colour and gloss (objects/: render.skinColor,
// render.gloss) or the scene's own `colour` for it, tinted while it is held.
//
// The heat map on bodies: a skin vertex is embedded in C and JS does not know in which particles, so with the
// heat map on, a body is drawn as its particles instead (points.js, at the body's contact radius, coloured by
// the error of their constraints: world.errors), the physics' own view of it; its skin is hidden meanwhile.

import { useLit } from './palette.js';
import { linearRGB } from './gl.js';

/** The world's skin views, or null when it has no body (or the engine has no skins). */
export function skinViews(world) {
  if (!('skinPositions' in world)) return null;
  const positions = world.skinPositions;
  if (!positions || positions.length === 0) return null;
  return { positions, normals: world.skinNormals, triangles: world.skinTriangles };
}

export const skin = {
  programs: { skin: ['skin.vert', 'skin.frag'] },

  init(r) {
    const gl = r.gl;
    r.skinPosBuffer = gl.createBuffer();
    r.skinNormalBuffer = gl.createBuffer();
    r.skinTriBuffer = gl.createBuffer();
    r.vaoSkin = gl.createVertexArray();
    gl.bindVertexArray(r.vaoSkin);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.skinPosBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 16, 0);
    gl.enableVertexAttribArray(3); // the shadow's a_previous: the skin itself, already blended (updateSkin)
    gl.vertexAttribPointer(3, 3, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.skinNormalBuffer);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.skinTriBuffer);
    gl.bindVertexArray(null);
    r.skinBytes = 0;
    r.skinIndexCount = 0;
    r.bodies = [];
  },

  /** Sizes the skin buffers for `world` and lists its bodies (r.objects, from describeObjects). */
  setWorld(r, world) {
    r.bodies = r.objects.filter((o) => o.primitive === 'skin');
    const views = r.bodies.length > 0 ? skinViews(world) : null;
    r.skinBytes = views ? views.positions.byteLength : 0;
    r.skinIndexCount = 0;
    if (r.skinBytes === 0) return;
    const gl = r.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, r.skinPosBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, r.skinBytes, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.skinNormalBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, r.skinBytes, gl.DYNAMIC_DRAW);
  },

  /** The triangles, when the topology changed (called with the other index buffers). */
  uploadTopology(r, world) {
    if (r.skinBytes === 0) return;
    const tris = skinViews(world).triangles;
    const gl = r.gl;
    gl.bindVertexArray(r.vaoSkin);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, tris.length ? tris : 4, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    r.skinIndexCount = tris.length;
  },

  /** Per frame: C moves the skins, then one upload each for positions and normals. */
  upload(r, world) {
    if (r.skinBytes === 0) return;
    world.updateSkin(r.blend);
    const gl = r.gl; // the world's cached views: no record made per frame
    gl.bindBuffer(gl.ARRAY_BUFFER, r.skinPosBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.skinPositions);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.skinNormalBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.skinNormals);
  },

  visible: (frame) => frame.hasSkins && !frame.view.heatMap,

  draw(r, { camera, eye, view }) {
    const gl = r.gl;
    const p = r.progs.skin;
    const C = r.colors;
    useLit(r, p, camera, eye);
    gl.uniform3fv(p.uniforms.u_heldTint, C.held);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundEnabled ? view.groundHeight : -1e9);
    gl.bindVertexArray(r.vaoSkin);
    const held = view.held ?? [];
    for (const o of r.bodies) {
      if (o.skinTriangleCount <= 0) continue;
      // a scene's own colour for the body (box-stack's blocks), else its type's
      gl.uniform3fv(p.uniforms.u_color, o.colour ? (o.linearColour ??= linearRGB(o.colour)) : C[o.skinColor] ?? C.softBody);
      gl.uniform1f(p.uniforms.u_gloss, o.gloss);
      gl.uniform1f(p.uniforms.u_held, holds(o, held) ? 1 : 0);
      gl.drawElements(gl.TRIANGLES, 3 * o.skinTriangleCount, gl.UNSIGNED_INT, 12 * o.firstSkinTriangle);
    }
  },

  /** Its shadow: the skins squashed onto the floor with the shadow program `p` (floor.js has set it up). */
  drawShadow(r) {
    const gl = r.gl;
    gl.bindVertexArray(r.vaoSkin);
    gl.drawElements(gl.TRIANGLES, r.skinIndexCount, gl.UNSIGNED_INT, 0);
  },
};

/** True when one of the `held` particles is one of object o's. */
function holds(o, held) {
  for (const i of held) if (i >= o.firstParticle && i < o.firstParticle + o.particleCount) return true;
  return false;
}
