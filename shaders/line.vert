#version 300 es
// Rope segments: positions straight from wasm memory, indices from world.lines.
layout(location = 0) in vec3 a_position;
layout(location = 3) in vec3 a_previous;    // where it was when the last step began (renderer.js: frames between steps)
uniform float u_blend;                     // how far from a_previous to a_position it is drawn; 1: the state itself
uniform mat4 u_viewProj;
void main() {
  vec3 drawn = a_previous * (1.0 - u_blend) + a_position.xyz * u_blend; // exact at 1 (a paused world)
  gl_Position = u_viewProj * vec4(drawn, 1.0);
}
