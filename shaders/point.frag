#version 300 es
precision highp float;
// Shade the sprite like a small sphere (fake normal from gl_PointCoord) with an antialiased rim.
uniform vec3 u_freeColor;                // linear RGB
uniform vec3 u_pinnedColor;
uniform vec3 u_heldColor;
in float v_pinned;
in float v_held;
in float v_error;                        // >= 0: heat map colour (seed 001 4.4: blue at 0, red at 10% or more)
out vec4 o_color;
void main() {
  vec2 q = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(q, q);
  if (r2 > 1.0) discard;
  vec3 n = vec3(q.x, -q.y, sqrt(1.0 - r2));
  float light = 0.55 + 0.45 * max(dot(n, normalize(vec3(-0.4, 0.6, 0.7))), 0.0);
  vec3 base = v_held > 0.5 ? u_heldColor : v_pinned > 0.5 ? u_pinnedColor : u_freeColor;
  if (v_error >= 0.0 && v_held < 0.5 && v_pinned < 0.5) {
    base = mix(vec3(0.05, 0.25, 0.95), vec3(0.95, 0.1, 0.05), clamp(v_error / 0.1, 0.0, 1.0));
  }
  vec3 c = base * light;
  float edge = smoothstep(1.0, 0.72, r2);
  c = mix(c * 0.55, c, edge);            // darker outline keeps small dots readable on any background
  o_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
