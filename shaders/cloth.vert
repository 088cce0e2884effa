#version 300 es
// Cloth mesh: positions and normals come straight from wasm memory (stride 16, xyz used).
// gl_VertexID is the particle index (drawElements), which gives each vertex its grid (i, j) for the pattern.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_viewProj;
uniform int u_firstParticle;
uniform int u_columns;                    // particles per row, 0 = unknown (no pattern)
uniform vec2 u_gridSize;                  // columns-1, rows-1
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
void main() {
  v_world = a_position;
  v_normal = a_normal;
  int local = gl_VertexID - u_firstParticle;
  v_uv = u_columns > 0
    ? vec2(float(local % u_columns), float(local / u_columns)) / max(u_gridSize, vec2(1.0))
    : vec2(0.0);
  gl_Position = u_viewProj * vec4(a_position, 1.0);
}
