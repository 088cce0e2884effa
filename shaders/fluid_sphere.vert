#version 300 es
// Screen-space fluid rendering (van der Laan, Green & Sainz 2009), splat step: every live fluid particle as a
// point sprite that the fragment shader turns into a sphere impostor of radius u_radius (fluid.spacing / 2).
// Shared by the depth pass (fluid_depth.frag) and the thickness pass (fluid_thickness.frag). A parked slot of a
// fluid's capacity has w = 0 (PBD_PHASE_INACTIVE): it is never drawn, even if a stale range held it.
layout(location = 0) in vec4 a_position;
layout(location = 3) in vec3 a_previous;    // where it was when the last step began (renderer.js: frames between steps)
uniform float u_blend;                     // how far from a_previous to a_position it is drawn; 1: the state itself
uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_radius;                  // world metres
uniform float u_pixelScale;              // this target's height in px * proj[1][1] / 2
uniform float u_maxSize;
out vec3 v_center;                       // the sphere's centre, eye space
out float v_scale;                       // drawn size / wanted size (< 1 when clamped to u_maxSize)
void main() {
  vec3 drawn = a_previous * (1.0 - u_blend) + a_position.xyz * u_blend; // exact at 1 (a paused world)
  vec4 e = u_view * vec4(drawn, 1.0);
  v_center = e.xyz;
  gl_Position = u_proj * e;
  float size = 2.0 * u_radius * u_pixelScale / max(gl_Position.w, 1e-4);
  gl_PointSize = clamp(size, 1.0, u_maxSize);
  v_scale = gl_PointSize / max(size, 1e-4);
  if (a_position.w == 0.0 || e.z > -1e-4) gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // parked or behind the eye
}
