// points.js — the particles pass: one draw per object, each with its type's sprite size and colour (objects/:
// render.sprite, render.pointColor); pins always show (w = 0 in the position's fourth float), held particles are
// lit up. With the heat map on, a body (render.primitive 'skin') is drawn as its particles at its contact radius,
// coloured by their constraint error like the cloth (skin.js says why), whether or not particles are shown.
// Each object draws only its live particles, [firstParticle, firstParticle + activeParticles) (a fluid's
// parked slots, w = 0, are never drawn). A fluid is drawn here, at radius fluid.spacing / 2 and whether or not
// particles are shown (they are its only drawing then), unless the water pass draws it (fluid.js); under the heat
// map it is drawn here coloured by its density error, max(rho / rho0 - 1, 0) (world.errors).

import { findObjectType } from '../objects/index.js';

export const points = {
  programs: { point: ['point.vert', 'point.frag'] },

  init(r) {
    const gl = r.gl;
    // Points read all four floats: w is invMass, which marks pinned particles.
    r.vaoPoints = gl.createVertexArray();
    gl.bindVertexArray(r.vaoPoints);
    gl.bindBuffer(gl.ARRAY_BUFFER, r.posBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 16, 0);
    r.bindPrevious();
    gl.bindBuffer(gl.ARRAY_BUFFER, r.errorBuffer); // the heat map's errors (heatmap.js), for bodies
    gl.enableVertexAttribArray(2);
    gl.vertexAttribPointer(2, 1, gl.FLOAT, false, 4, 0);
    const range = gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE);
    r.maxPointSize = range ? Math.min(64, range[1]) : 64;
  },

  draw(r, { camera, view, water }) {
    const gl = r.gl;
    const p = r.progs.point;
    const C = r.colors;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform1f(p.uniforms.u_pixelScale, (gl.drawingBufferHeight * camera.proj[5]) / 2);
    gl.uniform1f(p.uniforms.u_maxSize, r.maxPointSize);
    gl.uniform3fv(p.uniforms.u_pinnedColor, C.pinned);
    gl.uniform3fv(p.uniforms.u_heldColor, C.held);
    const held = view.held ?? [];
    gl.uniform4i(p.uniforms.u_held, held[0] ?? -1, held[1] ?? -1, held[2] ?? -1, held[3] ?? -1);
    gl.bindVertexArray(r.vaoPoints);
    for (const o of r.objects) {
      if (o.live <= 0 || (o.fluid && water)) continue;
      const heat = Boolean(view.heatMap) && (o.primitive === 'skin' || o.fluid);
      gl.uniform1i(p.uniforms.u_heatMap, heat ? 1 : 0);
      // A body's free particles lie inside its skin (or poke through it: a ball's lattice): shown only in place of
      // the skin, under the heat map. Its pins and held particles always show.
      const radius = o.fluid ? r.fluidRadius : heat ? o.contactRadius // both as of the last upload (renderer.js)
        : view.showParticles && o.primitive !== 'skin' ? o.radius : 0;
      gl.uniform1f(p.uniforms.u_radius, radius);
      gl.uniform3fv(p.uniforms.u_freeColor, C[o.pointColor] ?? C.particle);
      gl.uniform1f(p.uniforms.u_pinnedRadius, o.pinnedRadius);
      gl.uniform1f(p.uniforms.u_baseInvMass, o.baseInvMass);
      gl.drawArrays(gl.POINTS, o.firstParticle, o.live);
    }
  },
};

/** Per-object drawing info: world.objects' ranges with the matching scene object's type's sprite and colours. */
export function describeObjects(world, scene) {
  const src = scene?.objects ?? [];
  return world.objects.map((o, k) => {
    const s = src[k]?.type === o.type ? src[k] : null;
    const render = s ? findObjectType(s.type)?.render ?? null : null;
    const sprite = render ? render.sprite(s) : { radius: 0.01, pinnedRadius: 0.02, columns: 0, rows: 0 };
    const primitive = render?.primitive ?? null;
    const fluid = findObjectType(o.type)?.water === true;
    return {
      ...o, ...sprite, primitive, pointColor: render?.pointColor ?? (fluid ? 'fluidParticle' : 'particle'),
      skinColor: render?.skinColor ?? 'softBody', gloss: render?.gloss ?? 0.5,
      index: k,
      fluid,
      live: o.activeParticles ?? o.particleCount,
      // A body's `mass` is the whole body's: the sprites keep one size.
      baseInvMass: primitive !== 'skin' && s?.mass > 0 ? 1 / s.mass : 0,
    };
  });
}

/** Each fluid object's live particle count now, once per frame: emitters and drains change it every step without
 *  a topology change, so world.objects (read again only at one) would lag (world.liveParticles: one engine call per
 *  fluid object; other objects' counts are fixed between topology changes, and setWorld re-reads them). */
export function updateLiveCounts(r, world) {
  for (const o of r.fluids) o.live = Math.max(0, Math.min(o.particleCount, world.liveParticles(o.index)));
}

/** A body's contact radius now (the engine's: the panel may change it; 0 there means thickness / 2). */
export function contactRadius(world, o) {
  const r = world.getObjectRadius ? world.getObjectRadius(o.index) : NaN;
  if (r > 0) return r;
  if (r === 0) return world.getParam('thickness') / 2;
  return o.radius;
}
