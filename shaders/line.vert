#version 300 es
// Rope segments: positions straight from wasm memory, indices from world.lines.
layout(location = 0) in vec3 a_position;
uniform mat4 u_viewProj;
void main() {
  gl_Position = u_viewProj * vec4(a_position, 1.0);
}
