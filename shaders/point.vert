#version 300 es
// Particles as round sprites. w of the position is invMass: 0 marks a pinned particle, drawn larger and in
// its own colour; heavier particles get bigger sprites (radius ~ cube root of mass, like a solid bead).
// Size is a world-space radius projected with the perspective, so it shrinks with distance. With u_heatMap (a
// body's particles under the heat map) the sprite is coloured by the particle's constraint error (a_error).
layout(location = 0) in vec4 a_position;
layout(location = 3) in vec3 a_previous;    // where it was when the last step began (renderer.js: frames between steps)
uniform float u_blend;                     // how far from a_previous to a_position it is drawn; 1: the state itself
layout(location = 2) in float a_error;     // largest relative error of the particle's constraints
uniform mat4 u_viewProj;
uniform float u_radius;                  // world metres
uniform float u_pinnedRadius;
uniform float u_pixelScale;              // viewport height in px * proj[1][1] / 2
uniform float u_maxSize;
uniform float u_baseInvMass;            // 1 / the object's default particle mass
uniform ivec4 u_held;                    // particles held by pointers (-1 = none): drawn as grab handles
uniform int u_heatMap;                   // 1: colour by a_error
out float v_pinned;
out float v_held;
out float v_error;                       // < 0: no heat colour
void main() {
  vec3 drawn = a_previous * (1.0 - u_blend) + a_position.xyz * u_blend; // exact at 1 (a paused world)
  v_error = u_heatMap == 1 ? a_error : -1.0;
  v_pinned = a_position.w == 0.0 ? 1.0 : 0.0;
  gl_Position = u_viewProj * vec4(drawn, 1.0);
  float massScale = a_position.w > 0.0 && u_baseInvMass > 0.0 ? clamp(pow(u_baseInvMass / a_position.w, 1.0 / 3.0), 0.6, 2.5) : 1.0;
  float r = v_pinned > 0.5 ? u_pinnedRadius : u_radius * massScale;
  v_held = any(equal(ivec4(gl_VertexID), u_held)) ? 1.0 : 0.0;
  if (v_held > 0.5) {
    r = u_pinnedRadius * 1.3;
    gl_Position.z = -0.999 * gl_Position.w;   // onto the near plane: the handle stays visible behind folds
  }
  float size = 2.0 * r * u_pixelScale / max(gl_Position.w, 1e-4);
  // Free particles smaller than ~1.5 px only add noise (moire on a dense cloth seen from afar): hide them.
  if (v_pinned < 0.5 && v_held < 0.5 && size < 1.5) r = 0.0;
  gl_PointSize = clamp(size, 0.0, u_maxSize);
  if (r <= 0.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);   // hidden: outside the clip volume
}
