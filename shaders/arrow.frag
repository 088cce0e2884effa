#version 300 es
precision highp float;
// Velocity arrows: the colour (speed ramp, or the dark outline) is chosen per vertex in arrow.vert.
in vec3 v_color;
out vec4 o_color;
void main() {
  o_color = vec4(v_color, 1.0);
}
