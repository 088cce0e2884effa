// renderer.js — WebGL2 drawing of a MiniPBD world: sky, floor, drop shadows, cloth, ropes, particles.
//
// The particle data never passes through JS arrays: each frame uploads world.positions (and, for cloth,
// world.normals after world.updateNormals()) with exactly one bufferSubData each, straight from the wasm
// memory views. Index buffers are re-uploaded only when world.topologyVersion changes. Shader locations
// are looked up once per GL context. On context loss we stop drawing; on restore every GL resource is
// rebuilt from the cached shader sources and the current world (the simulation itself is untouched).

import { fetchShaderSources, createProgram, linearRGB, srgbRGB } from './glutil.js';

const SHADER_FILES = [
  'sky.vert', 'sky.frag', 'floor.vert', 'floor.frag', 'cloth.vert', 'cloth.frag',
  'shadow.vert', 'shadow.frag', 'line.vert', 'line.frag', 'point.vert', 'point.frag',
];

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
};

const normalize = (v) => {
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
};
const LIGHT_DIR = normalize([-0.3, 0.88, 0.38]); // key light: high, front-left (also casts the shadows)
const FILL_DIR = normalize([0.5, 0.25, -0.8]); // fill light: low, from behind-right

/** Load the shaders and create a renderer for `canvas`. Throws with a readable message on failure. */
export async function createRenderer(canvas) {
  const sources = await fetchShaderSources(SHADER_FILES);
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
    };
    this.posBuffer = gl.createBuffer();
    this.normalBuffer = gl.createBuffer();
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
    gl.bindVertexArray(null);

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
    if (this.contextLost) return;
    const gl = this.gl;
    this.bufferBytes = world.positions.byteLength;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, world.positions, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.bufferBytes, gl.DYNAMIC_DRAW);
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
   * Draw one frame. `view` = { showParticles, groundEnabled, groundHeight, held: [particle indices] }.
   * The caller keeps the canvas size in sync with its CSS size and calls camera.update(aspect) first.
   */
  draw(camera, view) {
    const world = this.world;
    if (this.contextLost || !world) return false;
    const gl = this.gl;
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    gl.viewport(0, 0, w, h);

    // --- per-frame uploads: one for positions, one for normals (cloth only) ---
    if (world.positions.byteLength !== this.bufferBytes) this.setWorld(world, this.scene);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.positions);
    if (world.topologyVersion !== this.topologyVersion) this._uploadTopology(world);
    const hasCloth = this.triIndexCount > 0;
    if (hasCloth) {
      world.updateNormals();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.normals);
    }

    const frame = {
      camera,
      view,
      eye: camera.eye,
      fadeStart: camera.distance * 1.5 + 2, // floor fades out between these distances from the eye
      fadeEnd: camera.distance * 7 + 10,
      hasCloth,
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
    if (hasCloth) this._drawCloth(frame);
    if (this.lineIndexCount > 0) this._drawLines(frame);
    this._drawPoints(frame);
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
  _drawShadows({ camera, view, eye, fadeEnd, hasCloth }) {
    const gl = this.gl;
    const p = this.progs.shadow;
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform3fv(p.uniforms.u_lightDir, LIGHT_DIR);
    gl.uniform1f(p.uniforms.u_groundHeight, view.groundHeight);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform1f(p.uniforms.u_fadeEnd, fadeEnd);
    gl.depthMask(false);
    gl.enable(gl.POLYGON_OFFSET_FILL); // sits exactly on the floor plane: win the depth tie
    gl.polygonOffset(-1, -2);
    gl.enable(gl.STENCIL_TEST);
    gl.stencilFunc(gl.EQUAL, 0, 0xff);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.INCR);
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

  // Both faces, one draw per cloth object so the fabric pattern knows that object's grid.
  _drawCloth({ camera, eye }) {
    const gl = this.gl;
    const p = this.progs.cloth;
    const C = this.colors;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
    gl.uniform3fv(p.uniforms.u_eye, eye);
    gl.uniform3fv(p.uniforms.u_lightDir, LIGHT_DIR);
    gl.uniform3fv(p.uniforms.u_fillDir, FILL_DIR);
    gl.uniform3fv(p.uniforms.u_frontColor, C.clothFront);
    gl.uniform3fv(p.uniforms.u_backColor, C.clothBack);
    gl.uniform3fv(p.uniforms.u_skyColor, C.ambientSky);
    gl.uniform3fv(p.uniforms.u_groundColor, C.ambientGround);
    gl.bindVertexArray(this.vaoMesh);
    for (const o of this.objects) {
      if (o.type !== 'cloth' || o.triangleCount === 0) continue;
      gl.uniform1i(p.uniforms.u_firstParticle, o.firstParticle);
      gl.uniform1i(p.uniforms.u_columns, o.columns);
      gl.uniform2f(p.uniforms.u_gridSize, o.columns - 1, o.rows - 1);
      gl.uniform1f(p.uniforms.u_pattern, o.columns > 0 ? 1 : 0);
      gl.drawElements(gl.TRIANGLES, o.triangleCount * 3, gl.UNSIGNED_INT, o.firstTriangle * 12);
    }
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
