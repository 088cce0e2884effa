#version 300 es
// Colliders (sphere, capsule, box) from two unit meshes generated once: a "round" mesh whose vertices
// sit on the unit sphere, split at the equator into a top and a bottom half (a_cap = +1 / -1) so a
// capsule is the same mesh with its halves pushed apart by halfHeight along local y; and a unit cube
// (a_cap = 0). Per collider: u_model (rotation + translation), u_scale (radius or half extents).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in float a_cap;
uniform mat4 u_viewProj;
uniform mat4 u_model;
uniform vec3 u_scale;
uniform float u_halfHeight;
out vec3 v_world;
out vec3 v_normal;
void main() {
  vec3 local = a_position * u_scale + vec3(0.0, a_cap * u_halfHeight, 0.0);
  vec4 world = u_model * vec4(local, 1.0);
  v_world = world.xyz;
  // Normals of the round mesh scale uniformly and the cube's stay on its axes: rotating is enough.
  v_normal = mat3(u_model) * a_normal;
  gl_Position = u_viewProj * world;
}
