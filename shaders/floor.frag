#version 300 es
precision highp float;
// Floor: faint checker + 1 m grid lines, antialiased with screen-space derivatives and faded out with
// distance from the eye so the plane melts into the background instead of ending at a hard edge.
uniform vec3 u_eye;
uniform vec3 u_center;
uniform float u_fadeStart;
uniform float u_fadeEnd;
uniform vec3 u_floorA;
uniform vec3 u_floorB;
uniform vec3 u_lineColor;
in vec3 v_world;
out vec4 o_color;

float gridLine(vec2 p, float width) {
  vec2 w = fwidth(p);
  vec2 g = abs(fract(p - 0.5) - 0.5) / max(w, 1e-5);
  float line = min(g.x, g.y);
  return 1.0 - clamp(line - width, 0.0, 1.0);
}

void main() {
  vec2 p = v_world.xz;
  vec2 cell = floor(p * 2.0);                       // 0.5 m checker squares
  float checker = mod(cell.x + cell.y, 2.0);
  vec3 c = mix(u_floorA, u_floorB, checker);
  // Fade grid lines out before the checker: at grazing angles they alias first.
  float dist = length(v_world - u_eye);
  float lines = gridLine(p, 0.25) * (1.0 - smoothstep(u_fadeStart * 0.4, u_fadeEnd * 0.6, dist));
  c = mix(c, u_lineColor, lines * 0.55);
  // Soft darkening toward the scene centre grounds the objects a little.
  float r = length(p - u_center.xz);
  c *= 1.0 - 0.06 * exp(-r * r * 0.15);
  float alpha = 1.0 - smoothstep(u_fadeStart, u_fadeEnd, dist);
  o_color = vec4(c, alpha);
}
