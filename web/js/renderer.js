// renderer.js — WebGL2 drawing of a MiniPBD world: sky, floor, drop shadows, colliders, cloth, ropes,
// particles.
//
// The particle data never passes through JS arrays: each frame uploads world.positions (and, for cloth,
// world.normals after world.updateNormals()) with exactly one bufferSubData each, straight from the wasm
// memory views. Index buffers are re-uploaded only when world.topologyVersion changes (tearing), and all
// cloth triangles go out in one draw, because tearing re-packs each object's triangle range. Colliders are
// two unit meshes built once per GL context and placed per collider with a model matrix (a handful of
// colliders: that loop is the only per-object JS in a frame). Shader locations
// are looked up once per GL context. On context loss we stop drawing; on restore every GL resource is
// rebuilt from the cached shader sources and the current world (the simulation itself is untouched).
//
// Velocity arrows (view.velocityArrows, off by default): while on, world.velocities is uploaded with one more
// bufferSubData, and one instanced draw (arrow.vert) builds an arrow per particle from the position and
// velocity buffers; no JS touches a particle. See arrowStride for the cap on very large worlds.

import { fetchShaderSources, createProgram, linearRGB, srgbRGB } from './glutil.js';

export const SHADER_FILES = [
  'sky.vert', 'sky.frag', 'floor.vert', 'floor.frag', 'cloth.vert', 'cloth.frag',
  'shadow.vert', 'shadow.frag', 'line.vert', 'line.frag', 'point.vert', 'point.frag',
  'collider.vert', 'collider.frag', 'collider_shadow.vert', 'arrow.vert', 'arrow.frag',
];

const MAX_CLOTHS = 16; // cloth objects the fabric pattern knows (cloth.vert); more still draw, plain

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

// Palette (sRGB hex). Sky/floor are written as-is; lit surfaces are converted to linear first.
export const PALETTE = {
  skyTop: '#f8fafc',
  skyHorizon: '#e2e8f0',
  floorA: '#e9edf2',
  floorB: '#e4e9ef',
  floorLine: '#cdd5df',
  clothFront: '#e4684a',
  clothBack: '#3a78a8',
  ambientSky: '#e6eef8',
  ambientGround: '#8b8178',
  rope: '#27303d',
  particle: '#3a4657',
  clothParticle: '#1f2937',
  pinned: '#f6b324',
  held: '#ffffff',
  collider: '#a7afba',
  colliderHeld: '#ffffff',
};

const normalize = (v) => {
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
};
const LIGHT_DIR = normalize([-0.3, 0.88, 0.38]); // key light: high, front-left (also casts the shadows)
const FILL_DIR = normalize([0.5, 0.25, -0.8]); // fill light: low, from behind-right

/**
 * Load the shaders and create a renderer for `canvas`. Throws with a readable message on failure.
 * `shaderBase` (optional) is where the shaders live, e.g. new URL('../shaders/', import.meta.url);
 * by default './shaders/' relative to the page.
 */
export async function createRenderer(canvas, shaderBase = undefined) {
  const sources = await fetchShaderSources(SHADER_FILES, shaderBase === undefined ? undefined : String(shaderBase));
  return new Renderer(canvas, sources);
}

export class Renderer {
  constructor(canvas, sources) {
    this.canvas = canvas;
    this.sources = sources;
    this.world = null;
    this.scene = null;
    this.contextLost = false;
    this.onContextChange = null; // (state: 'lost' | 'restored') => void
    this.framesDrawn = 0;
    this.lastColliderCount = 0; // colliders drawn in the last frame
    this.colliderCache = []; // per-collider draw records, reused frame to frame
    const gl = canvas.getContext('webgl2', {
      antialias: true,
      stencil: true, // one-shadow-per-pixel via stencil (overlapping folds must not darken twice)
      alpha: false,
      preserveDrawingBuffer: false,
    });
    if (!gl) throw new Error('this page needs WebGL2, which this browser or device does not provide');
    this.gl = gl;
    canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault(); // without this the browser never offers a restore
      this.contextLost = true;
      this.onContextChange?.('lost');
    });
    canvas.addEventListener('webglcontextrestored', () => {
      this.contextLost = false;
      this._initGL();
      if (this.world) this.setWorld(this.world, this.scene);
      this.onContextChange?.('restored');
    });
    this._initGL();
  }

  _initGL() {
    const gl = this.gl;
    const S = this.sources;
    this.progs = {
      sky: createProgram(gl, S, 'sky.vert', 'sky.frag'),
      floor: createProgram(gl, S, 'floor.vert', 'floor.frag'),
      cloth: createProgram(gl, S, 'cloth.vert', 'cloth.frag'),
      shadow: createProgram(gl, S, 'shadow.vert', 'shadow.frag'),
      line: createProgram(gl, S, 'line.vert', 'line.frag'),
      point: createProgram(gl, S, 'point.vert', 'point.frag'),
      collider: createProgram(gl, S, 'collider.vert', 'collider.frag'),
      colliderShadow: createProgram(gl, S, 'collider_shadow.vert', 'shadow.frag'),
      arrow: createProgram(gl, S, 'arrow.vert', 'arrow.frag'),
    };
    this.posBuffer = gl.createBuffer();
    this.normalBuffer = gl.createBuffer();
    this.errorBuffer = gl.createBuffer(); // per-particle relative error (world.errors), for the heat map
    this.velocityBuffer = gl.createBuffer(); // world.velocities, uploaded only while the arrows are on
    this.triBuffer = gl.createBuffer();
    this.lineBuffer = gl.createBuffer();
    this.floorBuffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.floorBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);

    // Attribute locations are fixed with layout(location=N) in the shaders: 0 = position, 1 = normal.
    this.vaoSky = gl.createVertexArray();
    this.vaoFloor = gl.createVertexArray();
    gl.bindVertexArray(this.vaoFloor);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.floorBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);

    this.vaoMesh = gl.createVertexArray();
    gl.bindVertexArray(this.vaoMesh);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.errorBuffer);
    gl.enableVertexAttribArray(2);
    gl.vertexAttribPointer(2, 1, gl.FLOAT, false, 4, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.triBuffer);

    this.vaoLines = gl.createVertexArray();
    gl.bindVertexArray(this.vaoLines);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.lineBuffer);

    // Points read all four floats: w is invMass, which marks pinned particles.
    this.vaoPoints = gl.createVertexArray();
    gl.bindVertexArray(this.vaoPoints);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 16, 0);

    // Arrows: position and velocity per instance (divisor 1); the stride is set per world (arrowStride).
    this.vaoArrows = gl.createVertexArray();
    gl.bindVertexArray(this.vaoArrows);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribDivisor(0, 1);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribDivisor(1, 1);
    gl.bindVertexArray(null);

    // Collider meshes: generated once; per collider only a few uniforms change.
    this.colliderMeshes = { round: uploadMesh(gl, roundMesh(40, 14)), box: uploadMesh(gl, boxMesh()) };

    const range = gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE);
    this.maxPointSize = range ? Math.min(64, range[1]) : 64;
    this.topologyVersion = null; // forces an index upload on the next draw
    this.bufferBytes = 0;

    const lin = (k) => linearRGB(PALETTE[k]);
    const raw = (k) => srgbRGB(PALETTE[k]);
    this.colors = {
      skyTop: raw('skyTop'), skyHorizon: raw('skyHorizon'),
      floorA: raw('floorA'), floorB: raw('floorB'), floorLine: raw('floorLine'),
      clothFront: lin('clothFront'), clothBack: lin('clothBack'),
      ambientSky: lin('ambientSky'), ambientGround: lin('ambientGround'),
      rope: [...raw('rope'), 1], particle: lin('particle'), clothParticle: lin('clothParticle'), pinned: lin('pinned'), held: lin('held'),
      collider: lin('collider'), colliderHeld: lin('colliderHeld'),
    };
  }

  /**
   * Use `world` from now on. Sizes the vertex buffers and derives per-object drawing info (cloth grid
   * width for the fabric pattern, particle sprite radii) from the scene description. Call after every
   * createWorld (the memory views are new then).
   */
  setWorld(world, scene) {
    this.world = world;
    this.scene = scene;
    this.topologyVersion = null;
    this.objects = describeObjects(world, scene);
    this.clothRanges = clothRanges(this.objects);
    if (this.contextLost) return;
    const gl = this.gl;
    this.bufferBytes = world.positions.byteLength;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, world.positions, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.bufferBytes, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.errorBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.bufferBytes / 4, gl.DYNAMIC_DRAW); // zeros: no heat until uploaded
    gl.bindBuffer(gl.ARRAY_BUFFER, this.velocityBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.bufferBytes, gl.DYNAMIC_DRAW); // zeros: no arrows until uploaded

    const particles = world.positions.length / 4;
    const k = arrowStride(particles);
    this.arrowStride = k;
    this.arrowCount = Math.ceil(particles / k);
    gl.bindVertexArray(this.vaoArrows);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 16 * k, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.velocityBuffer);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 16 * k, 0);
    gl.bindVertexArray(null);
  }

  _uploadTopology(world) {
    const gl = this.gl;
    const tris = world.triangles;
    const lines = world.lines;
    gl.bindVertexArray(this.vaoMesh);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, tris.length ? tris : 4, gl.STATIC_DRAW);
    gl.bindVertexArray(this.vaoLines);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, lines.length ? lines : 4, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    this.triIndexCount = tris.length;
    this.lineIndexCount = lines.length;
    this.topologyVersion = world.topologyVersion;
  }

  /**
   * Draw one frame. `view` = { showParticles, groundEnabled, groundHeight, held: [particle indices],
   * heldColliders: [collider indices], heatMap, velocityArrows } (the last two optional, off by default).
   * The caller keeps the canvas size in sync with its CSS size and calls camera.update(aspect) first.
   */
  draw(camera, view) {
    const world = this.world;
    if (this.contextLost || !world) return false;
    const gl = this.gl;
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    gl.viewport(0, 0, w, h);

    // --- per-frame uploads: one for positions, one for normals (cloth only), and one each for the errors and
    // the velocities while the heat map / the arrows are on ---
    if (world.positions.byteLength !== this.bufferBytes) this.setWorld(world, this.scene);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.positions);
    if (world.topologyVersion !== this.topologyVersion) this._uploadTopology(world);
    const hasCloth = this.triIndexCount > 0;
    if (hasCloth) {
      world.updateNormals();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.normals);
      if (view.heatMap) {
        // the constraint-error heat map: errors computed in C, one more upload, no JS loop
        world.updateErrors();
        gl.bindBuffer(gl.ARRAY_BUFFER, this.errorBuffer);
        gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.errors);
      }
    }
    const arrows = Boolean(view.velocityArrows) && this.arrowCount > 0;
    if (arrows) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.velocityBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.velocities);
    }

    const frame = {
      camera,
      view,
      eye: camera.eye,
      fadeStart: camera.distance * 1.5 + 2, // floor fades out between these distances from the eye
      fadeEnd: camera.distance * 7 + 10,
      hasCloth,
      colliders: colliderDraws(world.colliders, view.heldColliders, this.colliderCache),
    };
    const C = this.colors;
    gl.clearColor(C.skyHorizon[0], C.skyHorizon[1], C.skyHorizon[2], 1);
    gl.clearDepth(1);
    gl.clearStencil(0);
    gl.depthMask(true);
    gl.stencilMask(0xff);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);

    this._drawSky(frame);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    // No floor seen from below: it would hide the scene like a wall.
    if (view.groundEnabled && frame.eye[1] > view.groundHeight) {
      this._drawFloor(frame);
      this._drawShadows(frame);
    }
    if (frame.colliders.length > 0) this._drawColliders(frame);
    this.lastColliderCount = frame.colliders.length;
    if (hasCloth) this._drawCloth(frame);
    if (this.lineIndexCount > 0) this._drawLines(frame);
    this._drawPoints(frame);
    if (arrows) this._drawArrows(frame);
    gl.bindVertexArray(null);
    this.framesDrawn++;
    return true;
  }

  _drawSky({ camera, eye }) {
    const gl = this.gl;
    const p = this.progs.sky;
    const C = this.colors;
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.BLEND);
    gl.disable(gl.CULL_FACE);
    gl.disable(gl.STENCIL_TEST);
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_invViewProj, false, camera.invViewProj);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform3fv(p.uniforms.u_skyTop, C.skyTop);
    gl.uniform3fv(p.uniforms.u_skyHorizon, C.skyHorizon);
    gl.bindVertexArray(this.vaoSky);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  _drawFloor({ camera, view, eye, fadeStart, fadeEnd }) {
    const gl = this.gl;
    const p = this.progs.floor;
    const C = this.colors;
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
    gl.bindVertexArray(this.vaoFloor);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.disable(gl.BLEND);
  }

  // Cloth and ropes squashed onto the floor along the key light. The stencil lets each pixel be
  // darkened once, so overlapping folds do not stack into darker blotches.
  _drawShadows({ camera, view, eye, fadeEnd, hasCloth, colliders }) {
    const gl = this.gl;
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
    if (colliders.length > 0) {
      const p = this.progs.colliderShadow;
      common(p);
      gl.uniform1f(p.uniforms.u_strength, 0.26);
      for (const c of colliders) this._drawColliderMesh(p, c);
    }
    const p = this.progs.shadow;
    common(p);
    if (hasCloth) {
      gl.uniform1f(p.uniforms.u_strength, 0.22);
      gl.bindVertexArray(this.vaoMesh);
      gl.drawElements(gl.TRIANGLES, this.triIndexCount, gl.UNSIGNED_INT, 0);
    }
    if (this.lineIndexCount > 0) {
      gl.uniform1f(p.uniforms.u_strength, 0.3);
      gl.bindVertexArray(this.vaoLines);
      gl.drawElements(gl.LINES, this.lineIndexCount, gl.UNSIGNED_INT, 0);
    }
    gl.disable(gl.STENCIL_TEST);
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
  }

  // The lighting shared by the lit programs (cloth and colliders): one place to change it.
  _useLit(p, camera, eye) {
    const gl = this.gl;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform3fv(p.uniforms.u_lightDir, LIGHT_DIR);
    gl.uniform3fv(p.uniforms.u_fillDir, FILL_DIR);
    gl.uniform3fv(p.uniforms.u_skyColor, this.colors.ambientSky);
    gl.uniform3fv(p.uniforms.u_groundColor, this.colors.ambientGround);
  }

  // Both faces, all cloth objects in one draw; the vertex shader finds each vertex's object grid for the
  // fabric pattern from the particle ranges (tearing re-packs the triangle ranges, not the particles).
  _drawCloth({ camera, eye, view }) {
    const gl = this.gl;
    const p = this.progs.cloth;
    const C = this.colors;
    this._useLit(p, camera, eye);
    gl.uniform3fv(p.uniforms.u_frontColor, C.clothFront);
    gl.uniform3fv(p.uniforms.u_backColor, C.clothBack);
    gl.uniform1i(p.uniforms.u_clothCount, this.clothRanges.count);
    gl.uniform4iv(p.uniforms.u_cloth, this.clothRanges.data);
    gl.uniform1i(p.uniforms.u_heatMap, view?.heatMap ? 1 : 0);
    gl.bindVertexArray(this.vaoMesh);
    gl.drawElements(gl.TRIANGLES, this.triIndexCount, gl.UNSIGNED_INT, 0);
  }

  // Opaque, lit, no culling (the meshes are closed; depth sorts them out).
  _drawColliders({ camera, view, eye, colliders }) {
    const gl = this.gl;
    const p = this.progs.collider;
    const C = this.colors;
    this._useLit(p, camera, eye);
    gl.uniform3fv(p.uniforms.u_color, C.collider);
    gl.uniform3fv(p.uniforms.u_heldTint, C.colliderHeld);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundEnabled ? view.groundHeight : -1e9);
    for (const c of colliders) {
      gl.uniform1f(p.uniforms.u_held, c.held ? 1 : 0);
      this._drawColliderMesh(p, c);
    }
  }

  _drawColliderMesh(p, c) {
    const gl = this.gl;
    const mesh = this.colliderMeshes[c.mesh];
    gl.uniformMatrix4fv(p.uniforms.u_model, false, c.model);
    gl.uniform3fv(p.uniforms.u_scale, c.scale);
    gl.uniform1f(p.uniforms.u_halfHeight, c.halfHeight);
    gl.bindVertexArray(mesh.vao);
    gl.drawElements(gl.TRIANGLES, mesh.count, gl.UNSIGNED_SHORT, 0);
  }

  _drawLines({ camera }) {
    const gl = this.gl;
    const p = this.progs.line;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform4fv(p.uniforms.u_color, this.colors.rope);
    gl.bindVertexArray(this.vaoLines);
    gl.drawElements(gl.LINES, this.lineIndexCount, gl.UNSIGNED_INT, 0);
  }

  // One draw per object: rope beads and small cloth dots get their own sizes; pins always show.
  _drawPoints({ camera, view }) {
    const gl = this.gl;
    const p = this.progs.point;
    const C = this.colors;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform1f(p.uniforms.u_pixelScale, (gl.drawingBufferHeight * camera.proj[5]) / 2);
    gl.uniform1f(p.uniforms.u_maxSize, this.maxPointSize);
    gl.uniform3fv(p.uniforms.u_pinnedColor, C.pinned);
    gl.uniform3fv(p.uniforms.u_heldColor, C.held);
    const held = view.held ?? [];
    gl.uniform4i(p.uniforms.u_held, held[0] ?? -1, held[1] ?? -1, held[2] ?? -1, held[3] ?? -1);
    gl.bindVertexArray(this.vaoPoints);
    for (const o of this.objects) {
      gl.uniform1f(p.uniforms.u_radius, view.showParticles ? o.radius : 0);
      gl.uniform3fv(p.uniforms.u_freeColor, o.type === 'cloth' ? C.clothParticle : C.particle);
      gl.uniform1f(p.uniforms.u_pinnedRadius, o.pinnedRadius);
      gl.uniform1f(p.uniforms.u_baseInvMass, o.baseInvMass);
      gl.drawArrays(gl.POINTS, o.firstParticle, o.particleCount);
    }
  }

  // Velocity arrows over everything drawn so far (depth-tested, pulled a little toward the eye): one
  // instanced draw, the arrows built in arrow.vert from the position and velocity buffers.
  _drawArrows({ camera }) {
    const gl = this.gl;
    const p = this.progs.arrow;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform1f(p.uniforms.u_projZ, camera.proj[14]);
    gl.uniform2f(p.uniforms.u_viewport, gl.drawingBufferWidth, gl.drawingBufferHeight);
    gl.uniform1f(p.uniforms.u_pixelRatio, Math.max(1, globalThis.devicePixelRatio || 1));
    gl.uniform1f(p.uniforms.u_seconds, ARROWS.seconds);
    gl.uniform1f(p.uniforms.u_maxLength, ARROWS.maxLength);
    gl.uniform1f(p.uniforms.u_hotSpeed, ARROWS.hotSpeed);
    gl.bindVertexArray(this.vaoArrows);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, ARROW_VERTICES, this.arrowCount);
  }
}

// Cloth particle ranges and grids for cloth.vert: [firstParticle, particleCount, columns, rows] each.
function clothRanges(objects) {
  const data = new Int32Array(4 * MAX_CLOTHS);
  let count = 0;
  for (const o of objects) {
    if (o.type !== 'cloth' || count === MAX_CLOTHS) continue;
    data.set([o.firstParticle, o.particleCount, o.columns, o.rows], 4 * count++);
  }
  return { data, count };
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

// Per-object drawing info, from world.objects (ranges) and the matching scene object (shape).
function describeObjects(world, scene) {
  const src = scene?.objects ?? [];
  return world.objects.map((o, k) => {
    const s = src[k]?.type === o.type ? src[k] : null;
    const info = { ...o, columns: 0, rows: 0, radius: 0.01, pinnedRadius: 0.02, baseInvMass: s?.mass > 0 ? 1 / s.mass : 0 };
    if (o.type === 'cloth' && s) {
      const [cols, rows] = s.resolution;
      const spacing = Math.min(s.size[0] / Math.max(1, cols - 1), s.size[1] / Math.max(1, rows - 1));
      info.columns = cols;
      info.rows = rows;
      info.radius = spacing * 0.1;
      info.pinnedRadius = Math.max(spacing * 0.55, 0.018);
    } else if (o.type === 'chain' && s) {
      const d = Math.hypot(s.end[0] - s.start[0], s.end[1] - s.start[1], s.end[2] - s.start[2]);
      const seg = d / Math.max(1, s.segments);
      info.radius = Math.min(0.05, Math.max(0.006, seg * 0.28));
      info.pinnedRadius = info.radius * 1.6;
    }
    return info;
  });
}
