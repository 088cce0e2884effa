#version 300 es
// Glass colliders: collider.vert's transform, and the point in the unit mesh's own frame scaled to metres
// (v_local) with that frame's normal, so collider_glass.frag can find a box's edges.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in float a_cap;
uniform mat4 u_viewProj;
uniform mat4 u_model;
uniform vec3 u_scale;
uniform float u_halfHeight;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_local;
out vec3 v_localNormal;
void main() {
  vec3 local = a_position * u_scale + vec3(0.0, a_cap * u_halfHeight, 0.0);
  vec4 world = u_model * vec4(local, 1.0);
  v_world = world.xyz;
  v_normal = mat3(u_model) * a_normal;
  v_local = local;
  v_localNormal = a_normal;
  gl_Position = u_viewProj * world;
}
