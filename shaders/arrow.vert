#version 300 es
// Velocity arrows (seed 001's debug views): one instance per drawn particle, 18 vertices each. Position and
// velocity are per-instance attributes read straight from the wasm buffers (divisor 1; the attribute stride
// skips particles when there are very many, see arrowStride in renderer.js); gl_VertexID picks the corner.
// Vertices 0..8 are a dark outline (the arrow grown by about a pixel), 9..17 the coloured arrow on top: a
// shaft quad (two triangles) and a head triangle each.
// The arrow runs from the particle along v for u_seconds * |v| metres, at most u_maxLength. It is built in
// screen space (widths in CSS pixels, whatever the distance) with the depth interpolated along it and pulled
// toward the eye by 0.5% of the eye distance, so an arrow lying on the cloth is not hidden by the cloth (the
// outline by 0.4%, so the coloured arrow always wins the depth test against its own outline).
// Arrows shorter than MIN_PIXELS on screen are not drawn: a world at rest draws none.
layout(location = 0) in vec3 a_position;
layout(location = 3) in vec3 a_previous;    // where it was when the last step began (renderer.js: frames between steps)
uniform float u_blend;                     // how far from a_previous to a_position it is drawn; 1: the state itself
layout(location = 1) in vec3 a_velocity;
uniform mat4 u_viewProj;
uniform float u_projZ;                   // proj[14] = 2 far near / (near - far): moves depth along the eye ray
uniform vec2 u_viewport;                 // drawing buffer size in its pixels
uniform float u_pixelRatio;              // drawing-buffer pixels per CSS pixel
uniform float u_seconds;                 // length = u_seconds * |v| ...
uniform float u_maxLength;               // ... at most this many metres
uniform float u_hotSpeed;                // speed (m/s) that gets the hottest colour
out vec3 v_color;

const float SHAFT_HALF_WIDTH = 1.25;     // CSS px
const float HEAD_LENGTH = 11.0;
const float HEAD_HALF_WIDTH = 5.0;
const float OUTLINE = 1.0;
const float MIN_PIXELS = 2.0;
const float EYE_PULL = 0.005;            // fraction of the eye distance the arrow is moved toward the eye
const float EYE_PULL_OUTLINE = 0.004;

// Corner k of an arrow: ALONG 0 = base, 1 = where the head starts, 2 = tip; SIDE across the shaft/head.
const float ALONG[9] = float[9](0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 2.0, 1.0);
const float SIDE[9] = float[9](-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 0.0, 1.0);

// Slow to fast: blue, cyan, green, yellow, red (sRGB).
vec3 ramp(float t) {
  t = clamp(t, 0.0, 1.0) * 4.0;
  vec3 c0 = vec3(0.16, 0.36, 0.95), c1 = vec3(0.05, 0.75, 0.90), c2 = vec3(0.20, 0.80, 0.25);
  vec3 c3 = vec3(0.98, 0.82, 0.10), c4 = vec3(0.90, 0.12, 0.10);
  if (t < 1.0) return mix(c0, c1, t);
  if (t < 2.0) return mix(c1, c2, t - 1.0);
  if (t < 3.0) return mix(c2, c3, t - 2.0);
  return mix(c3, c4, t - 3.0);
}

void main() {
  vec3 drawn = a_previous * (1.0 - u_blend) + a_position.xyz * u_blend; // exact at 1 (a paused world)
  const vec4 HIDDEN = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume
  float speed = length(a_velocity);
  float len3 = min(speed * u_seconds, u_maxLength);
  vec3 tip = drawn + a_velocity * (len3 / max(speed, 1e-30));
  vec4 c0 = u_viewProj * vec4(drawn, 1.0);
  vec4 c1 = u_viewProj * vec4(tip, 1.0);
  v_color = vec3(0.0);
  if (c0.w <= 0.0 || c1.w <= 0.0) { gl_Position = HIDDEN; return; } // behind the eye
  vec2 half_ = 0.5 * u_viewport;
  vec2 s0 = c0.xy / c0.w * half_;        // drawing-buffer pixels from the centre
  vec2 s1 = c1.xy / c1.w * half_;
  vec2 d = s1 - s0;
  float len = length(d);
  float px = u_pixelRatio;
  if (!(len >= MIN_PIXELS * px)) { gl_Position = HIDDEN; return; }
  d /= len;
  vec2 n = vec2(-d.y, d.x);

  int k = gl_VertexID % 9;
  bool outline = gl_VertexID < 9;
  bool head = k >= 6;
  float headLength = min(HEAD_LENGTH * px, 0.45 * len);
  float headStart = len - headLength;
  float grow = outline ? OUTLINE * px : 0.0;
  float a = ALONG[k];
  float along = a == 0.0 ? -grow : a == 1.0 ? headStart : len + 2.0 * grow;
  float halfWidth = head ? HEAD_HALF_WIDTH * px * (headLength / (HEAD_LENGTH * px)) : SHAFT_HALF_WIDTH * px;
  float side = SIDE[k] * (halfWidth + grow);
  if (head && a == 1.0) along -= grow;
  vec2 s = s0 + d * along + n * side;

  // NDC depth is affine in screen space along the segment; pull both ends toward the eye first.
  float e = outline ? EYE_PULL_OUTLINE : EYE_PULL;
  float pull = e * u_projZ / (1.0 - e);
  float z0 = c0.z / c0.w + pull / c0.w;
  float z1 = c1.z / c1.w + pull / c1.w;
  float f = clamp(along / len, 0.0, 1.0);
  gl_Position = vec4(s / half_, mix(z0, z1, f), 1.0);
  v_color = outline ? vec3(0.08, 0.10, 0.14) : ramp(speed / u_hotSpeed);
}
