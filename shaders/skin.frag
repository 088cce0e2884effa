#version 300 es
precision highp float;
// A body's skin: a closed surface lit by its own normals (from C), drawn without culling so a winding the other
// way round still shows; depth hides its far side. The same key/fill lights and
// hemisphere ambient as the cloth and colliders; a soft body (u_gloss high) gets a wet highlight like a jelly,
// a rigid one (u_gloss low) a matte sheen. A held body is tinted toward u_heldTint; contact darkening near the
// floor grounds it, as for the colliders.
uniform vec3 u_eye;
uniform vec3 u_lightDir;
uniform vec3 u_fillDir;
uniform vec3 u_color;                    // linear RGB
uniform vec3 u_skyColor;
uniform vec3 u_groundColor;
uniform float u_groundHeight;
uniform float u_gloss;                   // 0 matte .. 1 glossy
uniform float u_held;                    // 0..1
uniform vec3 u_heldTint;
in vec3 v_world;
in vec3 v_normal;
out vec4 o_color;

vec3 toSrgb(vec3 c) { return pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)); }

void main() {
  vec3 n = v_normal;
  float len = length(n);
  // A degenerate normal (a crushed skin triangle) would shade black: face the viewer instead.
  n = len > 1e-6 ? n / len : normalize(u_eye - v_world);
  vec3 v = normalize(u_eye - v_world);
  vec3 base = mix(u_color, u_heldTint, u_held * 0.3);
  float wrap = 0.3;
  float diffuse = max((dot(n, u_lightDir) + wrap) / (1.0 + wrap), 0.0);
  float fill = max(dot(n, u_fillDir), 0.0) * 0.3;
  vec3 ambient = mix(u_groundColor, u_skyColor, n.y * 0.5 + 0.5);
  float ao = mix(0.75, 1.0, smoothstep(0.0, 0.25, v_world.y - u_groundHeight));
  vec3 h = normalize(u_lightDir + v);
  float spec = pow(max(dot(n, h), 0.0), mix(16.0, 90.0, u_gloss)) * mix(0.08, 0.45, u_gloss);
  float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.12;
  vec3 c = base * (ambient * 0.5 * ao + diffuse * 0.7 + fill) + vec3(spec + rim * 0.5);
  o_color = vec4(toSrgb(c), 1.0);
}
