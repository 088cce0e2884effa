#version 300 es
precision highp float;
uniform float u_strength;
uniform vec3 u_eye;
uniform float u_fadeEnd;
in float v_height;
in vec3 v_world;
out vec4 o_color;
void main() {
  float a = u_strength * exp(-v_height * 0.45);
  a *= 1.0 - smoothstep(u_fadeEnd * 0.5, u_fadeEnd, length(v_world - u_eye));
  o_color = vec4(0.08, 0.10, 0.16, a);
}
