#version 300 es
// Cloth mesh: positions and normals come straight from wasm memory (stride 16, xyz used).
// gl_VertexID is the particle index (drawElements). All cloth triangles are drawn in one call (tearing
// reshuffles each object's triangle range), so the vertex finds its object from the particle ranges in
// u_cloth and takes its grid (i, j) there for the fabric pattern. A particle heavier than its cloth's own mass
// (a scene's `masses` ranges) is drawn darker, the more the heavier (64x: 60% darker), so a cloth's heavy part
// shows; pins (w = 0) are not heavy.
#define MAX_CLOTHS 16
layout(location = 0) in vec4 a_position;      // w: inverse mass
layout(location = 3) in vec3 a_previous;    // where it was when the last step began (renderer.js: frames between steps)
uniform float u_blend;                     // how far from a_previous to a_position it is drawn; 1: the state itself
layout(location = 1) in vec3 a_normal;
layout(location = 2) in float a_error;      // largest relative error of the particle's constraints
uniform mat4 u_viewProj;
uniform int u_clothCount;
uniform ivec4 u_cloth[MAX_CLOTHS];        // firstParticle, particleCount, columns, rows
uniform vec3 u_clothFront[MAX_CLOTHS];    // each one's front colour (linear RGB; the scene's `colour` or the palette's)
uniform float u_clothInvMass[MAX_CLOTHS]; // each one's own particle inverse mass (0: unknown)
uniform vec3 u_frontColor;                // a surface not in u_cloth
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out float v_pattern;                      // 1 = woven pattern, 0 = plain (object not known)
out float v_error;
out vec3 v_front;
void main() {
  vec3 drawn = a_previous * (1.0 - u_blend) + a_position.xyz * u_blend; // exact at 1 (a paused world)
  v_world = drawn;
  v_normal = a_normal;
  v_uv = vec2(0.0);
  v_pattern = 0.0;
  v_error = a_error;
  v_front = u_frontColor;
  for (int k = 0; k < MAX_CLOTHS; ++k) {
    if (k >= u_clothCount) break;
    ivec4 c = u_cloth[k];
    int local = gl_VertexID - c.x;
    if (local >= 0 && local < c.y && c.z > 0) {
      v_uv = vec2(float(local % c.z), float(local / c.z)) / max(vec2(float(c.z - 1), float(c.w - 1)), vec2(1.0));
      v_pattern = 1.0;
      v_front = u_clothFront[k];
      float base = u_clothInvMass[k];
      if (a_position.w > 0.0 && base > 0.0) {
        float heavy = clamp(log2(base / a_position.w) / 6.0, 0.0, 1.0);
        v_front *= 1.0 - 0.6 * heavy;
      }
      break;
    }
  }
  gl_Position = u_viewProj * vec4(drawn, 1.0);
}
