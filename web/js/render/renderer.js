// renderer.js — WebGL2 drawing of a MiniPBD world, composed of one module per draw pass, in drawing order: sky,
// floor and shadows, colliders, the fluids' hoses (hoses.js), surfaces (cloth.js: triangles, with the heat map of heatmap.js), bodies' skins
// (skin.js), lines, points, velocity arrows; then, when a fluid is drawn as water (fluid.js), that scene went to a
// texture and the water pass composites the fluid over it onto the screen; last, glass colliders (colliders.js)
// blended over everything, the water included.
//
// Between steps: the simulation runs at a fixed rate (sim/loop.js) and a display may show more frames than it steps
// (120 or 144 Hz against 60, or 90 Hz where steps fall unevenly between frames). Each frame is drawn `blend` of the
// way from where the particles were when the last step began (world.previous, kept by the world for the renderer)
// to where it left them (seed 001 section 4.2): the blend is in the vertex shaders (attribute 3, u_blend), the
// skins are blended by C (world.updateSkin(blend)), so it stays one upload per buffer; blend 1 draws the state
// itself, exactly (a paused world). Colliders are drawn where they are.
//
// The particle data never passes through JS arrays: each frame uploads world.positions (and, for surfaces,
// world.normals after world.updateNormals(); for bodies, world.skinPositions and world.skinNormals after
// world.updateSkin()) with exactly one bufferSubData each, straight from the wasm memory views. Index buffers are
// re-uploaded only when world.topologyVersion changes (tearing). Which objects are
// surfaces or lines, and how their particles look, the object types say (objects/: render). Shader locations are
// looked up once per GL context. On context loss we stop drawing; on restore every GL resource is rebuilt from the
// cached shader sources and the current world (the simulation itself is untouched).
//
// A pass is { programs: { name: [vert, frag] }, init(r)?, setWorld(r, world)?, visible(frame, r)?, upload(r,
// world)?, draw(r, frame)? }; `r` is the Renderer, which holds the GL context and the shared buffers.

import { fetchShaderSources, createProgram } from './gl.js';
import { paletteColors, colorScheme } from './palette.js';
import { sky } from './sky.js';
import { floor } from './floor.js';
import { colliders, colliderDraws, glass } from './colliders.js';
import { cloth, surfaceGrids } from './cloth.js';
import { hoses, hoseDraws } from './hoses.js';
import { skin } from './skin.js';
import { lines } from './lines.js';
import { points, describeObjects, updateLiveCounts, contactRadius } from './points.js';
import { fluid, fluidRadius } from './fluid.js';
import { arrows } from './arrows.js';
import { heatmap } from './heatmap.js';

export { PALETTE } from './palette.js';
export { ARROWS, arrowStride } from './arrows.js';
export { colliderDraws, quatToMat4 } from './colliders.js';

/**
 * Without a GPU the browser draws WebGL on the CPU (Chrome's SwiftShader, Mesa's llvmpipe): a frame of the chain at
 * 500 x 560 then costs its GPU process about 30 ms of CPU, so drawing every animation frame takes a whole core from
 * the simulation, which needs it most on exactly such a machine (measured on 2 cores, chain running: 1.5 cores in the
 * GPU process at 52 frames a second, 0.9 at 30). There the renderer draws at most SOFTWARE_FPS frames a second; a
 * draw it declines returns false, which its callers already take as "draw again next frame" (app/redraw.js,
 * embed/element.js). The simulation's steps are not tied to frames (sim/loop.js), so it keeps real time.
 */
const SOFTWARE_FPS = 30;
/** ... and at half the resolution in each direction (a quarter of the pixels; the browser scales the picture up):
 *  the dam break at 500 x 560 CSS px then draws 17.5 frames a second instead of 9.7 and steps 17.3 times a second
 *  instead of 9.5 (median of 3 page loads each, 2 cores, SwiftShader). A screenshot is still taken at full size
 *  (fit's scale 1). */
const SOFTWARE_PIXEL_SCALE = 0.5;
const SOFTWARE_RENDERER = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Basic Render Driver/i;
/** At 60 Hz a frame comes every 16.7 ms: a draw is declined only when less than this is left of its 1/30 s, so
 *  every other frame is drawn despite the jitter of frame times (at 144 Hz: every fifth, 28.8 a second). */
const FRAME_SLACK_MS = 4;

/** Whether `gl` draws in software: the renderer's name (Chrome reports SwiftShader in RENDERER itself; the debug
 *  extension's unmasked name where a browser offers it). */
function isSoftwareRenderer(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const names = [gl.getParameter(gl.RENDERER), info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : ''];
  return names.some((n) => SOFTWARE_RENDERER.test(String(n ?? '')));
}

/** The passes after the sky, in drawing order (each drawn when it is visible in the frame). */
const PASSES = [floor, colliders, hoses, cloth, skin, lines, points, arrows];
const MODULES = [sky, ...PASSES, heatmap, fluid, glass];

/** Every shader file a pass uses (fetched once, relative to the page or the given base). */
export const SHADER_FILES = [...new Set(MODULES.flatMap((m) => Object.values(m.programs ?? {}).flat()))];

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
    this.framesUploaded = 0;
    this.blend = 1; // how far between the last step's start and end the last upload drew the world (draw)
    this.lastDrawAt = -Infinity; // the frame time of the last frame drawn
    this.lastColliderCount = 0; // colliders drawn in the last frame
    this.lastFrameWater = false;
    this.colliderCache = []; // per-collider draw records, reused frame to frame
    this.fluids = []; // the fluid objects of the world (setWorld)
    this.waterUnavailable = null; // null, or why fluids cannot be drawn as water here (fluid.js; set per context)
    const gl = canvas.getContext('webgl2', {
      antialias: true,
      stencil: true, // one-shadow-per-pixel via stencil (overlapping folds must not darken twice)
      alpha: false,
      preserveDrawingBuffer: false,
    });
    if (!gl) throw new Error('this page needs WebGL2, which this browser or device does not provide');
    this.gl = gl;
    /** The shortest time between two frames drawn (ms): 1/SOFTWARE_FPS s on a software renderer, else none. */
    const software = isSoftwareRenderer(gl);
    this.minFrameMs = software ? 1000 / SOFTWARE_FPS : 0;
    /** Drawing-buffer pixels per device pixel: SOFTWARE_PIXEL_SCALE on a software renderer, else 1 (fit). */
    this.pixelScale = software ? SOFTWARE_PIXEL_SCALE : 1;
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
    this.maxCanvasSize = gl.getParameter(gl.MAX_RENDERBUFFER_SIZE) || 4096; // read once: fit runs every frame
    this.progs = {};
    for (const m of MODULES) {
      for (const [name, [vert, frag]] of Object.entries(m.programs ?? {})) this.progs[name] = createProgram(gl, this.sources, vert, frag);
    }
    this.blendProgs = Object.values(this.progs).filter((p) => p.uniforms.u_blend !== undefined); // set every frame
    // Shared by the passes: positions, normals, the index buffers, and the mesh and line vertex arrays.
    this.posBuffer = gl.createBuffer();
    this.prevBuffer = gl.createBuffer(); // world.previous: attribute 3 of the passes that draw particles
    this.normalBuffer = gl.createBuffer();
    this.triBuffer = gl.createBuffer();
    this.lineBuffer = gl.createBuffer();
    heatmap.init(this);

    // Attribute locations are fixed with layout(location=N) in the shaders: 0 = position, 1 = normal, 2 = error,
    // 3 = the position at the last step's start.
    this.vaoMesh = gl.createVertexArray();
    gl.bindVertexArray(this.vaoMesh);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 16, 0); // w, the inverse mass: cloth.vert shades heavy particles
    this.bindPrevious();
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
    this.bindPrevious();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.lineBuffer);
    gl.bindVertexArray(null);

    for (const m of [sky, ...PASSES, fluid, glass]) m.init?.(this);
    gl.bindVertexArray(null);

    this.topologyVersion = null; // forces an index upload on the next draw
    this.bufferBytes = 0;
    this.scheme = colorScheme();
    this.colors = paletteColors(this.scheme); // the theme's (palette.js); draw() follows a change of scheme
  }

  /** Attribute 3 of the bound vertex array: world.previous, every `stride` bytes (one instance each with `divisor`). */
  bindPrevious(stride = 16, divisor = 0) {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.prevBuffer);
    gl.enableVertexAttribArray(3);
    gl.vertexAttribPointer(3, 3, gl.FLOAT, false, stride, 0);
    gl.vertexAttribDivisor(3, divisor);
  }

  /**
   * Use `world` from now on. Sizes the vertex buffers and derives per-object drawing info (grid sizes for the
   * fabric pattern, particle sprite radii) from the scene description through the object types. Call after
   * every createWorld (the memory views are new then).
   */
  setWorld(world, scene) {
    this.world = world;
    this.uploaded = false;
    this.scene = scene;
    this.topologyVersion = null;
    this.objects = describeObjects(world, scene);
    this.fluids = this.objects.filter((o) => o.fluid);
    this.surfaceGrids = surfaceGrids(this.objects);
    this.blend = 1;
    world.keepPrevious(); // each step keeps where the particles began it: the frames between steps blend from there
    if (this.contextLost) return;
    const gl = this.gl;
    this.bufferBytes = world.positions.byteLength;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, world.positions, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.prevBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, world.previous, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, this.bufferBytes, gl.DYNAMIC_DRAW);
    heatmap.setWorld(this, world);
    arrows.setWorld(this, world);
    skin.setWorld(this, world);
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
    skin.uploadTopology(this, world);
    this.triIndexCount = tris.length;
    this.lineIndexCount = lines.length;
    this.topologyVersion = world.topologyVersion;
  }

  /**
   * Size the canvas's drawing buffer for a view of `width` x `height` device pixels (CSS size x devicePixelRatio):
   * that times `scale` (pixelScale unless given; 1 for a full-size screenshot), within the GL's limit. Returns
   * whether the size changed (setting it clears the canvas, so the caller draws again); the same size is not set.
   */
  fit(width, height, scale = this.pixelScale) {
    const max = this.maxCanvasSize;
    const w = Math.max(1, Math.min(max, Math.round(width * scale)));
    const h = Math.max(1, Math.min(max, Math.round(height * scale)));
    if (w === this.canvas.width && h === this.canvas.height) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    return true;
  }

  /**
   * Draw one frame. `view` = { showParticles, groundEnabled, groundHeight, held: [particle indices],
   * heldColliders: [collider indices], heatMap, velocityArrows, water } (the last three optional: heatMap and
   * velocityArrows off by default, water on: fluids drawn as water where float render targets work).
   * The caller keeps the canvas size in sync with its CSS size and calls camera.update(aspect) first.
   * `upload: false` (the world is busy stepping: sim/driver.js) draws the buffers uploaded last with the new camera
   * and view, and asks nothing of the world: the colliders, the fluids' live counts and the radii are those of
   * the last upload. `time`: the animation frame's timestamp, from a frame loop (app/frame.js, embed/element.js);
   * given, a software renderer declines (false) a frame sooner than minFrameMs after the last one drawn. A call
   * without it (a tool's, a test's) always draws. `blend` (uploads only; sim/driver.js blend()): how far from the
   * last step's start to its end the frame shows the world, 1 (the state itself) unless given; a redraw keeps the
   * last upload's.
   */
  draw(camera, view, { upload = true, time = null, blend = 1 } = {}) {
    const world = this.world;
    if (this.contextLost || !world) return false;
    if (time !== null && time - this.lastDrawAt < this.minFrameMs - FRAME_SLACK_MS) return false;
    const gl = this.gl;
    gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    if (!upload && !this.uploaded) return false; // nothing uploaded yet for this world
    const scheme = colorScheme();
    if (scheme !== this.scheme) this.colors = paletteColors(this.scheme = scheme); // prefers-color-scheme changed
    if (upload) this.blend = blend >= 0 && blend < 1 ? blend : 1; // NaN too: the state itself
    const frame = upload ? this._upload(world, camera, view) : this._frameFrom(this.lastFrame, camera, view);
    this._drawFrame(frame, view);
    this.lastDrawAt = time ?? performance.now();
    return true;
  }

  /** The per-frame uploads and what the frame needs of the world; returns the frame. */
  _upload(world, camera, view) {
    const gl = this.gl;

    // --- per-frame uploads: one for positions, one for normals (surfaces only), and one each for the errors and
    // the velocities while the heat map / the arrows are on ---
    if (world.positions.byteLength !== this.bufferBytes) this.setWorld(world, this.scene);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.positions);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.prevBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.previous);
    if (world.topologyVersion !== this.topologyVersion) this._uploadTopology(world);
    this.lastColliders = world.colliders;
    const frame = this._frameFrom({
      hasSurfaces: this.triIndexCount > 0,
      hasLines: this.lineIndexCount > 0,
      hasSkins: this.skinIndexCount > 0,
      hasFluid: this.fluids.length > 0,
    }, camera, view);
    if (frame.hasFluid) updateLiveCounts(this, world);
    // What the draws ask of the world, asked here (a redraw while the world is busy asks nothing).
    this.fluidRadius = frame.hasFluid ? fluidRadius(world) : 0;
    for (const o of this.objects) o.contactRadius = view.heatMap && o.primitive === 'skin' ? contactRadius(world, o) : o.radius;
    if (frame.hasSurfaces) {
      world.updateNormals();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, world.normals);
    }
    if (frame.hasSkins) skin.upload(this, world);
    for (const m of [heatmap, arrows]) if (m.visible(frame, this)) m.upload(this, world);
    this.lastFrame = frame;
    this.uploaded = true;
    this.framesUploaded++; // (the others were redraws while the world was busy)
    return frame;
  }

  /** A frame record with the counts of `base` (the last upload's) and the camera and view of now. */
  _frameFrom(base, camera, view) {
    return {
      camera,
      view,
      eye: camera.eye,
      fadeStart: camera.distance * 1.5 + 2, // floor fades out between these distances from the eye
      fadeEnd: camera.distance * 7 + 10,
      hasSurfaces: base.hasSurfaces,
      hasLines: base.hasLines,
      hasSkins: base.hasSkins,
      colliders: colliderDraws(this.lastColliders, view.heldColliders, this.colliderCache),
      hoses: hoseDraws(this.world?.scene ?? this.scene, this.hoseCache), // the fluids' emitters (hoses.js)
      hasFluid: base.hasFluid,
      water: false,
    };
  }

  _drawFrame(frame, view) {
    const gl = this.gl;
    frame.water = fluid.active(frame, this) && fluid.begin(this, frame); // binds the scene's texture
    const C = this.colors;
    gl.clearColor(C.skyHorizon[0], C.skyHorizon[1], C.skyHorizon[2], 1);
    gl.clearDepth(1);
    gl.clearStencil(0);
    gl.depthMask(true);
    gl.stencilMask(0xff);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);

    for (const p of this.blendProgs) {
      gl.useProgram(p.program);
      gl.uniform1f(p.uniforms.u_blend, this.blend);
    }
    sky.draw(this, frame);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    for (const pass of PASSES) if (!pass.visible || pass.visible(frame, this)) pass.draw(this, frame);
    if (frame.water) fluid.draw(this, frame); // onto the screen, with the depth of the scene or the water nearer
    if (glass.visible(frame)) glass.draw(this, frame); // over all of it: the water behind a pane shows through
    this.lastColliderCount = frame.colliders.length;
    this.lastHoses = frame.hoses; // the hoses drawn (tests project their nozzles)
    this.lastFrameWater = frame.water; // the last frame drew fluids as water (tests read it)
    gl.bindVertexArray(null);
    this.framesDrawn++;
  }
}
