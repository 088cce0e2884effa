// fluid-targets.js — the render targets of the water pass (fluid.js): the opaque scene drawn to a texture (colour
// and depth-stencil, full resolution: the composite reads what is behind the water and its depth), and at half
// resolution the fluid's eye depth (two R32F textures the separable filter ping-pongs between, the first with a
// depth buffer for the splat's depth test) and its thickness (R16F, blended additively). Float colour targets
// need EXT_color_buffer_float; without it (or if a framebuffer is incomplete) the water is unavailable and the
// fluid is drawn as particles (renderer.js).
//
// Antialiasing: the default framebuffer is multisampled (renderer.js asks for antialias), a texture is not. So the
// opaque scene is drawn into a multisampled framebuffer (colour and depth-stencil renderbuffers, up to 4 samples)
// and resolved into the scene's textures with one blitFramebuffer (resolveScene) before the water pass reads them.
// Where multisampled renderbuffers are unavailable (MAX_SAMPLES < 2, or the framebuffer is incomplete) the scene
// goes straight to its textures, as before: single-sample edges, nothing else lost.

/** Null when float render targets work here, or the reason they do not (shown on the page, in English). */
export function waterUnavailableReason(gl) {
  if (!gl.getExtension('EXT_color_buffer_float')) return 'EXT_color_buffer_float is missing (no float render targets)';
  return null;
}

function texture(gl, internal, format, type, w, h, filter) {
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texImage2D(gl.TEXTURE_2D, 0, internal, w, h, 0, format, type, null);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return t;
}

function framebuffer(gl, color, depth = null, depthAttachment = null, depthIsTexture = false) {
  const fb = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, color, 0);
  if (depth && depthIsTexture) gl.framebufferTexture2D(gl.FRAMEBUFFER, depthAttachment, gl.TEXTURE_2D, depth, 0);
  else if (depth) gl.framebufferRenderbuffer(gl.FRAMEBUFFER, depthAttachment, gl.RENDERBUFFER, depth);
  const complete = gl.checkFramebufferStatus(gl.FRAMEBUFFER) === gl.FRAMEBUFFER_COMPLETE;
  return { fb, complete };
}

/** The samples of the scene's multisampled framebuffer here: 4 or the most the context allows (1: none). */
export function sceneSamples(gl) {
  const most = gl.getParameter(gl.MAX_SAMPLES);
  return Number.isInteger(most) && most >= 2 ? Math.min(4, most) : 1;
}

/** A multisampled framebuffer for the scene, or null when it cannot be made here. */
function multisampled(gl, width, height, samples) {
  if (samples < 2) return null;
  const color = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, color);
  gl.renderbufferStorageMultisample(gl.RENDERBUFFER, samples, gl.RGBA8, width, height);
  const depth = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
  gl.renderbufferStorageMultisample(gl.RENDERBUFFER, samples, gl.DEPTH24_STENCIL8, width, height);
  const fb = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_STENCIL_ATTACHMENT, gl.RENDERBUFFER, depth);
  const ok = gl.checkFramebufferStatus(gl.FRAMEBUFFER) === gl.FRAMEBUFFER_COMPLETE && gl.getError() === gl.NO_ERROR;
  const release = () => {
    gl.deleteFramebuffer(fb);
    gl.deleteRenderbuffer(color);
    gl.deleteRenderbuffer(depth);
  };
  if (!ok) {
    release();
    return null;
  }
  return { fb, release };
}

/** Resolves the multisampled scene into the scene's textures (a no-op without one). */
export function resolveScene(gl, t) {
  if (!t.sceneMsaa) return;
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, t.sceneMsaa);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, t.scene);
  // Depth must be resolved with NEAREST (one sample's value); the composite compares against it.
  gl.blitFramebuffer(0, 0, t.width, t.height, 0, 0, t.width, t.height, gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT, gl.NEAREST);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, null);
}

/**
 * Targets for a `width` x `height` drawing buffer: { width, height, halfWidth, halfHeight, samples, sceneMsaa
 * (null: single-sample), sceneTarget (what the opaque passes draw into), scene, sceneColor, sceneDepth, depthA,
 * depthB, fbDepthA, fbDepthB, thickness, fbThickness, complete, release() }.
 */
export function createFluidTargets(gl, width, height, samples = sceneSamples(gl)) {
  const hw = Math.max(1, Math.ceil(width / 2));
  const hh = Math.max(1, Math.ceil(height / 2));
  const t = { width, height, halfWidth: hw, halfHeight: hh };
  t.sceneColor = texture(gl, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, width, height, gl.LINEAR);
  // Depth and stencil in one texture: the floor's shadows use the stencil (floor.js), the composite the depth.
  t.sceneDepth = texture(gl, gl.DEPTH24_STENCIL8, gl.DEPTH_STENCIL, gl.UNSIGNED_INT_24_8, width, height, gl.NEAREST);
  const scene = framebuffer(gl, t.sceneColor, t.sceneDepth, gl.DEPTH_STENCIL_ATTACHMENT, true);
  t.depthA = texture(gl, gl.R32F, gl.RED, gl.FLOAT, hw, hh, gl.NEAREST);
  t.depthB = texture(gl, gl.R32F, gl.RED, gl.FLOAT, hw, hh, gl.NEAREST);
  t.splatDepth = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, t.splatDepth);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, hw, hh);
  const a = framebuffer(gl, t.depthA, t.splatDepth, gl.DEPTH_ATTACHMENT);
  const b = framebuffer(gl, t.depthB);
  // R16F is filterable without an extension: the composite reads the thickness bilinearly.
  t.thickness = texture(gl, gl.R16F, gl.RED, gl.HALF_FLOAT, hw, hh, gl.LINEAR);
  const th = framebuffer(gl, t.thickness);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.bindTexture(gl.TEXTURE_2D, null);
  gl.bindRenderbuffer(gl.RENDERBUFFER, null);
  Object.assign(t, { scene: scene.fb, fbDepthA: a.fb, fbDepthB: b.fb, fbThickness: th.fb });
  t.complete = scene.complete && a.complete && b.complete && th.complete;
  const msaa = t.complete ? multisampled(gl, width, height, samples) : null;
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.bindRenderbuffer(gl.RENDERBUFFER, null);
  t.samples = msaa ? samples : 1;
  t.sceneMsaa = msaa?.fb ?? null;
  t.sceneTarget = t.sceneMsaa ?? t.scene;
  t.release = () => {
    msaa?.release();
    for (const x of [t.sceneColor, t.sceneDepth, t.depthA, t.depthB, t.thickness]) gl.deleteTexture(x);
    gl.deleteRenderbuffer(t.splatDepth);
    for (const x of [t.scene, t.fbDepthA, t.fbDepthB, t.fbThickness]) gl.deleteFramebuffer(x);
  };
  return t;
}
