// palette.js — the page's colours and lights, in one place: the sky and floor are written as given (sRGB), lit
// surfaces are converted to linear first; the key light (which also casts the shadows) and the fill light.
// Two themes: the light one, and a dark one that follows prefers-color-scheme: dark (the page's
// css/app.css does the same for the panel). Only the background (sky, floor) and the thin unlit marks on it (rope,
// particles) change: the objects keep their colours and their lighting, so a scene looks the same in both.

import { linearRGB, srgbRGB } from './gl.js';

// Palette (sRGB hex).
export const PALETTE = Object.freeze({
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
  softBody: '#3fb37f',   // jelly green: soft bodies
  rigidBody: '#d9b26c',  // pale wood: rigid bodies
  softParticle: '#1f6b4a',
  rigidParticle: '#7a5a2a',
  waterParticle: '#2b74c7', // fluids drawn as particles (water off, or no float targets)
  waterDeep: '#0d4f8f',     // what the water pass's absorbed light scatters back (fluid.js)
});

/** What the dark theme changes (sRGB hex): a slate night sky and floor, light ropes and dots on them. */
export const DARK_PALETTE = Object.freeze({
  ...PALETTE,
  skyTop: '#121826',
  skyHorizon: '#263041',
  floorA: '#2a3342',
  floorB: '#262e3c',
  floorLine: '#3a4556',
  rope: '#d5dbe3',
  particle: '#c3ccd8',
});

// One media query for the page: its `matches` is live, so reading it every frame costs nothing and needs no listener
// (a renderer released with its context leaves nothing behind).
const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

/** 'dark' when the browser asks for a dark scheme (prefers-color-scheme), else 'light'; 'light' without a DOM. */
export function colorScheme() {
  return darkQuery?.matches ? 'dark' : 'light';
}

const normalize = (v) => {
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
};
export const LIGHT_DIR = normalize([-0.3, 0.88, 0.38]); // key light: high, front-left (also casts the shadows)
export const FILL_DIR = normalize([0.5, 0.25, -0.8]); // fill light: low, from behind-right

/** The palette of `scheme` ('light' or 'dark') as the shaders take it: sky and floor as written, lit surfaces linear. */
export function paletteColors(scheme = 'light') {
  const P = scheme === 'dark' ? DARK_PALETTE : PALETTE;
  const lin = (k) => linearRGB(P[k]);
  const raw = (k) => srgbRGB(P[k]);
  return {
    skyTop: raw('skyTop'), skyHorizon: raw('skyHorizon'),
    floorA: raw('floorA'), floorB: raw('floorB'), floorLine: raw('floorLine'),
    clothFront: lin('clothFront'), clothBack: lin('clothBack'),
    ambientSky: lin('ambientSky'), ambientGround: lin('ambientGround'),
    rope: [...raw('rope'), 1], particle: lin('particle'), clothParticle: lin('clothParticle'), pinned: lin('pinned'), held: lin('held'),
    collider: lin('collider'), colliderHeld: lin('colliderHeld'),
    softBody: lin('softBody'), rigidBody: lin('rigidBody'), softParticle: lin('softParticle'), rigidParticle: lin('rigidParticle'),
    waterParticle: lin('waterParticle'),
    fluidParticle: lin('waterParticle'), // the name objects/fluid.js's render.pointColor gives
  };
}

/** The lighting shared by the lit programs (cloth, skins and colliders): one place to change it. */
export function useLit(r, p, camera, eye) {
  const gl = r.gl;
  gl.useProgram(p.program);
  gl.uniformMatrix4fv(p.uniforms.u_viewProj, false, camera.viewProj);
  gl.uniform3fv(p.uniforms.u_eye, eye);
  gl.uniform3fv(p.uniforms.u_lightDir, LIGHT_DIR);
  gl.uniform3fv(p.uniforms.u_fillDir, FILL_DIR);
  gl.uniform3fv(p.uniforms.u_skyColor, r.colors.ambientSky);
  gl.uniform3fv(p.uniforms.u_groundColor, r.colors.ambientGround);
}
