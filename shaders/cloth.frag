#version 300 es
precision highp float;
// Two-sided soft lighting: the front and back faces get distinct colours, and the normal is flipped
// for back faces so both sides are lit as seen. Hemisphere ambient + wrapped diffuse keeps the shading
// calm; a faint woven stripe pattern on the front shows how the cloth stretches and folds.
uniform vec3 u_eye;
uniform vec3 u_lightDir;                 // direction toward the key light (normalised)
uniform vec3 u_fillDir;                  // toward a weaker fill light on the other side, so no face goes black
uniform vec3 u_backColor;
uniform vec3 u_skyColor;
uniform vec3 u_groundColor;
uniform int u_heatMap;                   // 1: colour by constraint error (seed 001 4.4: blue at 0, red at 10% or more)
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in float v_pattern;                      // 0 = plain, 1 = woven stripes
in float v_error;
in vec3 v_front;                         // the front colour (linear RGB: cloth.vert, per object)
out vec4 o_color;

vec3 toSrgb(vec3 c) { return pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)); }

void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 base = gl_FrontFacing ? v_front : u_backColor;
  if (u_heatMap == 1) {
    float t = clamp(v_error / 0.1, 0.0, 1.0);
    base = mix(vec3(0.05, 0.25, 0.95), vec3(0.95, 0.1, 0.05), t);
  } else if (gl_FrontFacing && v_pattern > 0.5) {
    // Gingham-like: two sets of soft stripes multiply where they cross.
    vec2 s = abs(fract(v_uv * 8.0) - 0.5);
    vec2 band = smoothstep(0.20, 0.23, s);
    float weave = mix(0.86, 1.0, band.x) * mix(0.86, 1.0, band.y);
    base *= weave;
  }
  vec3 v = normalize(u_eye - v_world);
  float wrap = 0.35;
  float diffuse = max((dot(n, u_lightDir) + wrap) / (1.0 + wrap), 0.0);
  vec3 ambient = mix(u_groundColor, u_skyColor, n.y * 0.5 + 0.5);
  vec3 h = normalize(u_lightDir + v);
  float sheen = pow(max(dot(n, h), 0.0), 24.0) * 0.08;
  float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.12;
  float fill = max(dot(n, u_fillDir), 0.0) * 0.35;
  vec3 c = base * (ambient * 0.5 + diffuse * 0.7 + fill) + vec3(sheen + rim * 0.5);
  o_color = vec4(toSrgb(c), 1.0);
}
