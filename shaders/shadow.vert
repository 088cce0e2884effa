#version 300 es
// Planar drop shadow: squash geometry onto the ground along the light direction.
// The height above the ground fades the shadow so high parts cast lighter, softer-looking shadows.
layout(location = 0) in vec3 a_position;
uniform mat4 u_viewProj;
uniform vec3 u_lightDir;                 // toward the light, y > 0
uniform float u_groundHeight;
out float v_height;
out vec3 v_world;
void main() {
  float h = max(a_position.y - u_groundHeight, 0.0);
  vec3 p = a_position - u_lightDir * (h / max(u_lightDir.y, 0.05));
  p.y = u_groundHeight;
  v_height = h;
  v_world = p;
  gl_Position = u_viewProj * vec4(p, 1.0);
}
