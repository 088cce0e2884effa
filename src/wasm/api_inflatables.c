/* wasm/api_inflatables.c -- the inflatables' part of the flat JS surface (see wasm/api.c):
   pbdInflatableDef as scalars (families/inflatables.h). A mesh's vertices (float32, 3 each) and
   triangles (uint32, 3 each) are arrays the caller copied into wasm memory it malloc'ed and frees
   after the call (vertices 0: the built-in sphere). Records written to `out`:
     pbdjs_InflatableCounts, pbdjs_InflatableMeshCounts: int32[0..2] = particles, constraints, triangles
     pbdjs_GetInflatableVolume: float64[0..2] = volume now, V0, k_pressure */
#include "families/inflatables.h"

PBDJS_API int pbdjs_AddInflatable(pbdWorldId world, float cx, float cy, float cz, float radius, int resolution, const float* vertices,
								  int vertexCount, const uint32_t* indices, int triangleCount, float mass, float pressure, float stiffness)
{
	pbdInflatableDef def = pbd_DefaultInflatableDef();
	def.center[0] = cx, def.center[1] = cy, def.center[2] = cz;
	def.radius = radius;
	def.resolution = resolution;
	def.vertices = vertices;
	def.vertexCount = vertexCount;
	def.indices = indices;
	def.triangleCount = triangleCount;
	def.mass = mass;
	def.pressure = pressure;
	def.stiffness = stiffness;
	return pbd_World_AddInflatable(world, &def);
}

PBDJS_API void pbdjs_InflatableCounts(int resolution, int32_t* out) { pbd_InflatableCounts(resolution, &out[0], &out[1], &out[2]); }

PBDJS_API void pbdjs_InflatableMeshCounts(int vertexCount, int triangleCount, int32_t* out)
{
	pbd_InflatableMeshCounts(vertexCount, triangleCount, &out[0], &out[1], &out[2]);
}

PBDJS_API int pbdjs_SetInflatablePressure(pbdWorldId world, int object, float pressure)
{
	return pbd_SetInflatablePressure(world, object, pressure);
}

PBDJS_API int pbdjs_GetInflatableVolume(pbdWorldId world, int object, double* out) { return pbd_GetInflatableVolume(world, object, out); }
