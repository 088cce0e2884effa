#version 300 es
precision highp float;
// Thickness pass (van der Laan et al. 2009, section 3.3): each sphere adds the length of the view ray's chord
// through it, blended additively (no depth test), so a pixel holds roughly how much water the ray crosses —
// the path length of the Beer-Lambert absorption in fluid_composite.frag.
uniform float u_radius;
uniform float u_volumeScale;             // < 1 for splats larger than the particle: each still adds its volume
in vec3 v_center;
in float v_scale;
out float o_thickness;
void main() {
  vec2 q = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(q, q);
  if (r2 > 1.0) discard;
  o_thickness = 2.0 * sqrt(1.0 - r2) * u_radius * v_scale * u_volumeScale;
}
