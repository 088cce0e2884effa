#version 300 es
precision highp float;
// Depth splat (van der Laan et al. 2009, section 3.1): the nearest sphere surface per pixel, written as positive
// eye-space depth into an R32F target (0 = no fluid) and as window depth, so the depth test keeps the nearest.
uniform mat4 u_proj;
uniform float u_radius;
in vec3 v_center;
in float v_scale;
out float o_depth;
void main() {
  vec2 q = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(q, q);
  if (r2 > 1.0) discard;
  vec3 p = v_center + vec3(q.x, -q.y, sqrt(1.0 - r2)) * (u_radius * v_scale);
  vec4 clip = u_proj * vec4(p, 1.0);
  gl_FragDepth = clamp(0.5 * clip.z / clip.w + 0.5, 0.0, 1.0);
  o_depth = -p.z;
}
