#version 300 es
precision highp float;
// Background: a soft vertical gradient toward the horizon colour, so the fading floor meets it seamlessly.
// The world-space view direction decides the blend, so orbiting the camera moves the horizon too.
uniform mat4 u_invViewProj;
uniform vec3 u_eye;
uniform vec3 u_skyTop;
uniform vec3 u_skyHorizon;
in vec2 v_ndc;
out vec4 o_color;
void main() {
  vec4 far = u_invViewProj * vec4(v_ndc, 1.0, 1.0);
  vec3 dir = normalize(far.xyz / far.w - u_eye);
  float t = smoothstep(-0.05, 0.6, dir.y);
  vec3 c = mix(u_skyHorizon, u_skyTop, t);
  o_color = vec4(c, 1.0);
}
