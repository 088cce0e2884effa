// fluid.js — water drawn as water: screen-space fluid rendering after van der Laan, Green &
// Sainz 2009 ("Screen Space Fluid Rendering with Curvature Flow") and Green's GDC 2010 talk "Screen Space Fluid
// Rendering for Games". While it is on, the renderer draws the opaque scene into a texture (begin), then:
//   1. depth: every live fluid particle (each fluid object's [firstParticle, firstParticle + activeParticles),
//      straight from the positions buffer the renderer uploads once per frame) splatted as a sphere impostor of
//      radius fluid.spacing / 2 into a half-resolution eye-depth texture (fluid_sphere.vert, fluid_depth.frag);
//   2. filter: the depth smoothed by a separable bilateral filter, horizontal then vertical, a fixed number of
//      taps (fluid_filter.frag), so the spheres melt into one surface but its silhouette stays;
//   3. thickness: the same spheres again, their chord lengths added (fluid_thickness.frag), for Beer-Lambert
//      absorption;
//   4. composite onto the screen: normals rebuilt from the smoothed depth, Fresnel between the sky's reflection
//      and the refracted scene, shown only where the water is nearer than the scene (fluid_composite.frag); it
//      writes the depth of what it shows, for the glass drawn after it (colliders.js).
// The half resolution keeps the filter cheap (the filter is most of the cost, and a smooth surface does not need
// full resolution). Float render targets are needed (fluid-targets.js); without them, or with the View switch
// off, or under the heat map, the fluid is drawn as particles by points.js. No JS loop over particles.

import { LIGHT_DIR, PALETTE } from './palette.js';
import { linearRGB } from './gl.js';
import { createFluidTargets, resolveScene, waterUnavailableReason } from './fluid-targets.js';

const ABSORB = [26, 9, 3.5]; // Beer-Lambert, 1/m per channel: red goes first, blue last (clear water, exaggerated)
const FILTER_SPACINGS = 3; // the filter's radius, in particle spacings
// The range kernel's standard deviation, in particle radii: wide enough that the steps between rows of spheres on
// a face seen at a grazing angle are smoothed (a narrow one leaves them as stripes in the normals), narrow against
// the jump to a part of the fluid far behind.
const FALLOFF_RADII = 6;
// The thickness splats are this many times the particle radius, their chords scaled by its inverse cube so each
// still adds its own volume: the lattice behind a face no longer shows through the absorption (Green 2010 blurs the
// thickness instead; the bigger splat costs no extra pass).
const THICKNESS_SPREAD = 3;
const MAX_FILTER_PX = 24; // at half resolution
// The separable filter run this many times (horizontal + vertical each): once leaves the cross-shaped residue of
// a separable bilateral (Green 2010) as a fine mottle on a flat pool; twice smooths it for one more pair of passes.
const FILTER_ITERATIONS = 2;
// For the normals, a neighbouring texel more than this many particle radii nearer or deeper is another surface
// (fluid_composite.frag): a drop in front of the pool keeps a normal facing the eye instead of a grazing one.
const EDGE_RADII = 3;
const REFRACTION = 0.35; // uv offset per unit normal and metre of water

/** The fluid particle radius now: fluid.spacing / 2, from the world's parameters. */
export function fluidRadius(world) {
  const d = world.getParam('fluid.spacing');
  return Number.isFinite(d) && d > 0 ? d / 2 : 0.01;
}

export const fluid = {
  programs: {
    fluidDepth: ['fluid_sphere.vert', 'fluid_depth.frag'],
    fluidThickness: ['fluid_sphere.vert', 'fluid_thickness.frag'],
    fluidFilter: ['fluid_quad.vert', 'fluid_filter.frag'],
    fluidComposite: ['fluid_quad.vert', 'fluid_composite.frag'],
  },

  init(r) {
    const gl = r.gl;
    // Asked again after every context restore: the extension objects of a lost context are gone.
    r.waterUnavailable = waterUnavailableReason(gl);
    r.fluidTargets = null; // made at the first frame with water, at the drawing buffer's size
    r.vaoQuad = gl.createVertexArray();
    const range = gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE);
    r.maxFluidPointSize = range ? Math.min(256, range[1]) : 64;
    r.deepColor = linearRGB(PALETTE.waterDeep);
  },

  /** True when this frame draws water: the switch is on (view.water, on by default), there is fluid, the heat
   *  map is off (it shows fluid particles: points.js) and float targets work here. */
  active(frame, r) {
    const { view } = frame;
    return view.water !== false && !view.heatMap && r.fluids.length > 0 && r.waterUnavailable === null;
  },

  /** Before the opaque passes: the scene goes to a texture. False (and nothing bound) if the targets fail. */
  begin(r) {
    const gl = r.gl;
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    let t = r.fluidTargets;
    if (!t || t.width !== w || t.height !== h) {
      t?.release();
      t = r.fluidTargets = createFluidTargets(gl, w, h);
      if (!t.complete && !gl.isContextLost()) {
        t.release();
        r.fluidTargets = null;
        r.waterUnavailable = 'a float framebuffer is incomplete here';
        return false;
      }
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.sceneTarget); // multisampled where it can be (fluid-targets.js)
    return true;
  },

  /** After the opaque passes: the four steps above; ends with the default framebuffer bound. */
  draw(r, { camera }) {
    const gl = r.gl;
    const t = r.fluidTargets;
    const radius = r.fluidRadius; // as of the last upload (renderer.js)
    const halfScale = (t.halfHeight * camera.proj[5]) / 2;
    resolveScene(gl, t);
    gl.disable(gl.BLEND);
    gl.disable(gl.STENCIL_TEST);
    gl.disable(gl.CULL_FACE);
    gl.viewport(0, 0, t.halfWidth, t.halfHeight);

    // 1. depth splat, nearest sphere wins
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbDepthA);
    gl.clearColor(0, 0, 0, 0);
    gl.clearDepth(1);
    gl.depthMask(true);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    splat(r, r.progs.fluidDepth, camera, radius, halfScale);

    // 2. bilateral filter: A -> B horizontally, B -> A vertically
    filterDepth(r, t, radius, halfScale);

    // 3. thickness, additive
    gl.bindFramebuffer(gl.FRAMEBUFFER, t.fbThickness);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE);
    const th = r.progs.fluidThickness;
    splat(r, th, camera, THICKNESS_SPREAD * radius, halfScale, 1 / THICKNESS_SPREAD ** 3);
    gl.disable(gl.BLEND);

    // 4. composite onto the screen
    composite(r, t, camera, radius);
  },
};

/** The depth's bilateral filter (step 2): A -> B horizontally, B -> A vertically, FILTER_ITERATIONS times. */
function filterDepth(r, t, radius, halfScale) {
  const gl = r.gl;
  gl.disable(gl.DEPTH_TEST);
  const f = r.progs.fluidFilter;
  gl.useProgram(f.program);
  gl.uniform1i(f.uniforms.u_depth, 0);
  gl.uniform1f(f.uniforms.u_worldRadius, FILTER_SPACINGS * 2 * radius);
  gl.uniform1f(f.uniforms.u_pixelScale, halfScale);
  gl.uniform1f(f.uniforms.u_depthFalloff, FALLOFF_RADII * radius);
  gl.uniform1f(f.uniforms.u_maxRadiusPx, MAX_FILTER_PX);
  gl.bindVertexArray(r.vaoQuad);
  gl.activeTexture(gl.TEXTURE0);
  for (let k = 0; k < FILTER_ITERATIONS; k++) {
    for (const [target, source, dir] of [[t.fbDepthB, t.depthA, [1, 0]], [t.fbDepthA, t.depthB, [0, 1]]]) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, target);
      gl.bindTexture(gl.TEXTURE_2D, source);
      gl.uniform2i(f.uniforms.u_dir, dir[0], dir[1]);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
  }
}

/** The water over the scene (step 4), onto the default framebuffer; writes the depth of what it shows. */
function composite(r, t, camera, radius) {
  const gl = r.gl;
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.viewport(0, 0, t.width, t.height);
  const c = r.progs.fluidComposite;
  const C = r.colors;
  gl.useProgram(c.program);
  const units = [[c.uniforms.u_scene, t.sceneColor], [c.uniforms.u_sceneDepth, t.sceneDepth],
    [c.uniforms.u_fluidDepth, t.depthA], [c.uniforms.u_thickness, t.thickness]];
  units.forEach(([loc, tex], k) => {
    gl.activeTexture(gl.TEXTURE0 + k);
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.uniform1i(loc, k);
  });
  gl.uniformMatrix4fv(c.uniforms.u_proj, false, camera.proj);
  gl.uniformMatrix4fv(c.uniforms.u_invView, false, camera.invView ?? invertRigid(camera.view, r.invView ??= new Float32Array(16)));
  gl.uniform3fv(c.uniforms.u_skyTop, C.skyTop);
  gl.uniform3fv(c.uniforms.u_skyHorizon, C.skyHorizon);
  gl.uniform3fv(c.uniforms.u_lightDir, LIGHT_DIR);
  gl.uniform3fv(c.uniforms.u_absorb, ABSORB);
  gl.uniform3fv(c.uniforms.u_deepColor, r.deepColor);
  gl.uniform1f(c.uniforms.u_refraction, REFRACTION);
  gl.uniform1f(c.uniforms.u_edgeDepth, EDGE_RADII * radius);
  // The composite also writes the depth of what it shows (the scene's, or the water's where it is nearer), so
  // what is drawn after it (glass: colliders.js) is depth tested against the water too. Depth writes need the
  // depth test on.
  gl.enable(gl.DEPTH_TEST);
  gl.depthFunc(gl.ALWAYS);
  gl.depthMask(true);
  gl.bindVertexArray(r.vaoQuad);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.depthFunc(gl.LEQUAL);
  for (let k = units.length - 1; k >= 0; k--) {
    gl.activeTexture(gl.TEXTURE0 + k);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }
}

/** Draws every fluid object's live range with sphere program `p` (uniforms shared by the depth and thickness; the
 *  thickness's chords scaled by `volumeScale`). */
function splat(r, p, camera, radius, pixelScale, volumeScale = 1) {
  const gl = r.gl;
  gl.useProgram(p.program);
  gl.uniformMatrix4fv(p.uniforms.u_view, false, camera.view);
  gl.uniformMatrix4fv(p.uniforms.u_proj, false, camera.proj);
  gl.uniform1f(p.uniforms.u_radius, radius);
  gl.uniform1f(p.uniforms.u_pixelScale, pixelScale);
  gl.uniform1f(p.uniforms.u_maxSize, r.maxFluidPointSize);
  if (p.uniforms.u_volumeScale) gl.uniform1f(p.uniforms.u_volumeScale, volumeScale);
  gl.bindVertexArray(r.vaoPoints); // the positions buffer, 4 floats per particle (points.js)
  for (const o of r.fluids) if (o.live > 0) gl.drawArrays(gl.POINTS, o.firstParticle, o.live);
}

/** The inverse of a rotation + translation view matrix (column-major): R^T and -R^T t. */
function invertRigid(m, out) {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[4 * i + j] = m[4 * j + i];
  out[3] = out[7] = out[11] = 0;
  for (let i = 0; i < 3; i++) out[12 + i] = -(out[i] * m[12] + out[4 + i] * m[13] + out[8 + i] * m[14]);
  out[15] = 1;
  return out;
}
