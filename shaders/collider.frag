#version 300 es
precision highp float;
// Colliders: a calm matte neutral, lit by the same key/fill lights and hemisphere ambient as the cloth,
// with a soft sheen so round shapes read as solid. A held collider is tinted toward u_heldTint.
uniform vec3 u_eye;
uniform vec3 u_lightDir;
uniform vec3 u_fillDir;
uniform vec3 u_color;                    // linear RGB
uniform vec3 u_skyColor;
uniform vec3 u_groundColor;
uniform float u_groundHeight;
uniform float u_held;                    // 0..1
uniform vec3 u_heldTint;
in vec3 v_world;
in vec3 v_normal;
out vec4 o_color;

vec3 toSrgb(vec3 c) { return pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)); }

void main() {
  vec3 n = normalize(v_normal);
  vec3 v = normalize(u_eye - v_world);
  vec3 base = mix(u_color, u_heldTint, u_held * 0.35);
  float wrap = 0.2;
  float diffuse = max((dot(n, u_lightDir) + wrap) / (1.0 + wrap), 0.0);
  float fill = max(dot(n, u_fillDir), 0.0) * 0.25;
  vec3 ambient = mix(u_groundColor, u_skyColor, n.y * 0.5 + 0.5);
  // Contact darkening near the floor grounds the shape a little.
  float ao = mix(0.75, 1.0, smoothstep(0.0, 0.35, v_world.y - u_groundHeight));
  vec3 h = normalize(u_lightDir + v);
  float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.18;
  float rim = pow(1.0 - max(dot(n, v), 0.0), 4.0) * 0.10;
  vec3 c = base * (ambient * 0.55 * ao + diffuse * 0.65 + fill) + vec3(spec + rim);
  o_color = vec4(toSrgb(c), 1.0);
}
