#version 300 es
// Bodies' skins (soft and rigid bodies): their render surfaces, moved in C (pbd_World_UpdateSkin: barycentric
// over a soft body's tets, the body's rotation and translation for a rigid one) and uploaded straight from wasm
// memory, positions and normals float4 (xyz used). gl_VertexID is the skin vertex index; one draw per body,
// with its colour as a uniform.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_viewProj;
out vec3 v_world;
out vec3 v_normal;
void main() {
  v_world = a_position;
  v_normal = a_normal;
  gl_Position = u_viewProj * vec4(a_position, 1.0);
}
