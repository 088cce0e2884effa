#version 300 es
// Planar drop shadow of a collider: the collider vertex transform (collider.vert), then squashed onto
// the ground along the key light exactly like shadow.vert does for cloth.
layout(location = 0) in vec3 a_position;
layout(location = 2) in float a_cap;
uniform mat4 u_viewProj;
uniform mat4 u_model;
uniform vec3 u_scale;
uniform float u_halfHeight;
uniform vec3 u_lightDir;
uniform float u_groundHeight;
out float v_height;
out vec3 v_world;
void main() {
  vec3 local = a_position * u_scale + vec3(0.0, a_cap * u_halfHeight, 0.0);
  vec3 world = (u_model * vec4(local, 1.0)).xyz;
  float h = max(world.y - u_groundHeight, 0.0);
  vec3 p = world - u_lightDir * (h / max(u_lightDir.y, 0.05));
  p.y = u_groundHeight;
  v_height = h;
  v_world = p;
  gl_Position = u_viewProj * vec4(p, 1.0);
}
