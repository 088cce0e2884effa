// gl.js — small WebGL2 helpers: fetch shader sources, compile/link with readable errors,
// and cache attribute/uniform locations once (never look them up per frame).

import { carriedShader } from '../inline/files.js';

export class ShaderError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ShaderError';
  }
}

/** Fetch shaders/NAME for each name, relative to the page. Returns {name: source}. */
export async function fetchShaderSources(names, base = './shaders/') {
  const entries = await Promise.all(
    names.map(async (name) => {
      const carried = carriedShader(name); // a bundle's own copy (inline/files.js): nothing to fetch
      if (carried !== undefined) return [name, carried];
      const url = new URL(base + name, document.baseURI);
      const res = await fetch(url);
      if (!res.ok) throw new ShaderError(`shader ${name} could not be loaded (HTTP ${res.status})`);
      return [name, await res.text()];
    }),
  );
  return Object.fromEntries(entries);
}

function compile(gl, type, source, name) {
  const shader = gl.createShader(type);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  // A lost context reports every compile as failed with an empty log; that is not a shader bug.
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
    const log = gl.getShaderInfoLog(shader) || '(no log)';
    gl.deleteShader(shader);
    throw new ShaderError(`shader ${name} failed to compile:\n${log.trim()}`);
  }
  return shader;
}

/**
 * Compile and link `vertName` + `fragName` from `sources`. Returns
 * { program, uniforms: {u_name: location}, attribs: {a_name: location} } with every active
 * uniform/attribute location looked up here, once.
 */
export function createProgram(gl, sources, vertName, fragName) {
  const vs = compile(gl, gl.VERTEX_SHADER, sources[vertName], vertName);
  const fs = compile(gl, gl.FRAGMENT_SHADER, sources[fragName], fragName);
  const program = gl.createProgram();
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
    const log = gl.getProgramInfoLog(program) || '(no log)';
    gl.deleteProgram(program);
    throw new ShaderError(`program ${vertName} + ${fragName} failed to link:\n${log.trim()}`);
  }
  const uniforms = {};
  const nu = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS) ?? 0;
  for (let i = 0; i < nu; i++) {
    const info = gl.getActiveUniform(program, i);
    if (info) uniforms[info.name.replace(/\[0\]$/, '')] = gl.getUniformLocation(program, info.name);
  }
  const attribs = {};
  const na = gl.getProgramParameter(program, gl.ACTIVE_ATTRIBUTES) ?? 0;
  for (let i = 0; i < na; i++) {
    const info = gl.getActiveAttrib(program, i);
    if (info) attribs[info.name] = gl.getAttribLocation(program, info.name);
  }
  return { program, uniforms, attribs };
}

/** sRGB hex colour '#rrggbb' -> linear RGB array (lighting happens in linear space). */
export function linearRGB(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.pow(v / 255, 2.2));
}

/** sRGB hex colour -> [r, g, b] in 0..1 without conversion (for values written straight to the screen). */
export function srgbRGB(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => v / 255);
}
