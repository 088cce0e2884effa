// cloth.js — the surfaces pass: every object drawn as triangles (objects/: render.primitive 'triangles'), lit on
// both faces, all in one draw from world.triangles (tearing re-packs each object's triangle range, so they go out
// together). The vertex shader finds each vertex's object grid for the fabric pattern from the particle ranges
// (surfaceGrids), and shades it by its constraint error when the heat map is on (heatmap.js uploads the errors).
// Particles heavier than their cloth's own mass are drawn darker (cloth.vert): a half-heavy cloth shows its halves.

import { useLit } from './palette.js';
import { linearRGB } from './gl.js';

const MAX_GRIDS = 16; // surfaces the fabric pattern knows (cloth.vert's u_cloth); more still draw, plain

export const cloth = {
  programs: { cloth: ['cloth.vert', 'cloth.frag'] },

  visible: (frame) => frame.hasSurfaces,

  draw(r, { camera, eye, view }) {
    const gl = r.gl;
    const p = r.progs.cloth;
    const C = r.colors;
    useLit(r, p, camera, eye);
    gl.uniform3fv(p.uniforms.u_frontColor, C.clothFront);
    gl.uniform3fv(p.uniforms.u_backColor, C.clothBack);
    gl.uniform1i(p.uniforms.u_clothCount, r.surfaceGrids.count);
    gl.uniform4iv(p.uniforms.u_cloth, r.surfaceGrids.data);
    // Each grid's front colour: the scene's `colour` (linear), or the palette's (NaN marks "none given").
    const front = r.surfaceGrids.front;
    for (let k = 0; k < r.surfaceGrids.count; k++) if (Number.isNaN(front[3 * k])) front.set(C.clothFront, 3 * k);
    gl.uniform3fv(p.uniforms.u_clothFront, front);
    gl.uniform1fv(p.uniforms.u_clothInvMass, r.surfaceGrids.invMass);
    gl.uniform1i(p.uniforms.u_heatMap, view?.heatMap ? 1 : 0);
    gl.bindVertexArray(r.vaoMesh);
    gl.drawElements(gl.TRIANGLES, r.triIndexCount, gl.UNSIGNED_INT, 0);
  },
};

/** Particle ranges and grids of the objects with a grid, for cloth.vert: [firstParticle, particleCount, columns,
 *  rows] each, and each one's front colour (linear RGB; NaN: the palette's, filled in when drawn). A light cloth
 *  colour is what shows through water lying on it: the water pass absorbs red first (fluid.js), so the orange
 *  default under a pool turns grey-brown, like mud; the hammock scene's cloth is canvas-coloured for that. */
export function surfaceGrids(objects) {
  const data = new Int32Array(4 * MAX_GRIDS);
  const front = new Float32Array(3 * MAX_GRIDS).fill(NaN);
  const invMass = new Float32Array(MAX_GRIDS); // each one's own particle inverse mass: heavier particles drawn darker
  let count = 0;
  for (const o of objects) {
    if (o.primitive !== 'triangles' || o.columns === 0 || count === MAX_GRIDS) continue;
    if (o.colour) front.set(linearRGB(o.colour), 3 * count);
    invMass[count] = o.baseInvMass ?? 0;
    data.set([o.firstParticle, o.particleCount, o.columns, o.rows], 4 * count++);
  }
  return { data, count, front, invMass };
}
