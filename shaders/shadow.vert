#version 300 es
// Planar drop shadow: squash geometry onto the ground along the light direction.
// The height above the ground fades the shadow so high parts cast lighter, softer-looking shadows.
layout(location = 0) in vec3 a_position;
layout(location = 3) in vec3 a_previous;    // where it was when the last step began (renderer.js: frames between steps)
uniform float u_blend;                     // how far from a_previous to a_position it is drawn; 1: the state itself
uniform mat4 u_viewProj;
uniform vec3 u_lightDir;                 // toward the light, y > 0
uniform float u_groundHeight;
out float v_height;
out vec3 v_world;
void main() {
  vec3 drawn = a_previous * (1.0 - u_blend) + a_position.xyz * u_blend; // exact at 1 (a paused world)
  float h = max(drawn.y - u_groundHeight, 0.0);
  vec3 p = drawn - u_lightDir * (h / max(u_lightDir.y, 0.05));
  p.y = u_groundHeight;
  v_height = h;
  v_world = p;
  gl_Position = u_viewProj * vec4(p, 1.0);
}
