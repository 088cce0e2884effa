#version 300 es
// Ground plane: a unit quad scaled/translated to a large square under the scene at ground height.
layout(location = 0) in vec2 a_corner;   // -1..1
uniform mat4 u_viewProj;
uniform vec3 u_center;                    // (x, groundHeight, z)
uniform float u_extent;                   // half size in metres
out vec3 v_world;
void main() {
  v_world = u_center + vec3(a_corner.x * u_extent, 0.0, a_corner.y * u_extent);
  gl_Position = u_viewProj * vec4(v_world, 1.0);
}
