/* wasm/api_bodies.c -- the bodies' part of the flat JS surface (see wasm/api.c): pbdBodyDef as
   scalars. A tets or surface body's vertices (float32, 3 each) and indices (uint32) are arrays
   the caller copied into wasm memory it malloc'ed (the exported malloc/free) and frees after the
   call; the core reads them during the call only. Records written to `out`:
     pbdjs_BodyCounts: int32[0..4] = particles, edges, tets, skin vertices, skin triangles
   A surface body's `cells` (pbdBodyDef.cells): 0, or the rows pbd_BodyFill_Cells gave, copied likewise.
   pbd_World_UpdateSkin and the skin buffers (pbd_World_GetBuffer, pbdBuffer_skin*) are exported
   as they are. */
#include "world/core.h"

#include <string.h>

static pbdBodyDef BodyDef(int type, int shape, float px, float py, float pz, float qx, float qy, float qz, float qw, float vx,
						  float vy, float vz, float hx, float hy, float hz, float radius, int resolution, float mass,
						  float particleRadius, const float* vertices, int vertexCount, const uint32_t* indices, int indexCount,
						  const uint64_t* cells)
{
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.type = type;
	def.shape = shape;
	def.position[0] = px, def.position[1] = py, def.position[2] = pz;
	def.rotation[0] = qx, def.rotation[1] = qy, def.rotation[2] = qz, def.rotation[3] = qw;
	def.velocity[0] = vx, def.velocity[1] = vy, def.velocity[2] = vz;
	def.halfExtents[0] = hx, def.halfExtents[1] = hy, def.halfExtents[2] = hz;
	def.radius = radius;
	def.resolution = resolution;
	def.mass = mass;
	def.particleRadius = particleRadius;
	def.vertices = vertices;
	def.vertexCount = vertexCount;
	def.indices = indices;
	def.indexCount = indexCount;
	def.cells = cells;
	return def;
}

PBDJS_API int pbdjs_AddBody(pbdWorldId world, int type, int shape, float px, float py, float pz, float qx, float qy, float qz,
							float qw, float vx, float vy, float vz, float hx, float hy, float hz, float radius, int resolution,
							float mass, float particleRadius, const float* vertices, int vertexCount, const uint32_t* indices,
							int indexCount, const uint64_t* cells)
{
	pbdBodyDef def = BodyDef(type, shape, px, py, pz, qx, qy, qz, qw, vx, vy, vz, hx, hy, hz, radius, resolution, mass,
							 particleRadius, vertices, vertexCount, indices, indexCount, cells);
	return pbd_World_AddBody(world, &def);
}

/* The counts pbdjs_AddBody would use (a refusal: a negative pbdError, its message through
   pbd_GetLastErrorMessage, out zeroed). */
PBDJS_API int pbdjs_BodyCounts(int type, int shape, float px, float py, float pz, float qx, float qy, float qz, float qw,
							   float vx, float vy, float vz, float hx, float hy, float hz, float radius, int resolution,
							   float mass, float particleRadius, const float* vertices, int vertexCount,
							   const uint32_t* indices, int indexCount, const uint64_t* cells, int32_t* out)
{
	pbdBodyDef def = BodyDef(type, shape, px, py, pz, qx, qy, qz, qw, vx, vy, vz, hx, hy, hz, radius, resolution, mass,
							 particleRadius, vertices, vertexCount, indices, indexCount, cells);
	pbdBodyCounts c;
	int err = pbd_BodyCounts(&def, &c);
	out[0] = c.particles, out[1] = c.edges, out[2] = c.tets, out[3] = c.skinVertices, out[4] = c.skinTriangles;
	return err;
}

/* A surface body's fill in parts (pbd_BodyFill_*, minipbd.h): its bytes for these arguments (or a negative pbdError),
   then its start in `fill` (memory the caller malloc'ed, freed after its last pbd_BodyFill_Run; the vertices and indices
   too). pbd_BodyFill_Run and pbd_BodyFill_Cells are exported as they are. */
PBDJS_API int pbdjs_BodyFillBytes(int type, int shape, float px, float py, float pz, float qx, float qy, float qz, float qw,
								  float vx, float vy, float vz, float hx, float hy, float hz, float radius, int resolution,
								  float mass, float particleRadius, const float* vertices, int vertexCount,
								  const uint32_t* indices, int indexCount)
{
	pbdBodyDef def = BodyDef(type, shape, px, py, pz, qx, qy, qz, qw, vx, vy, vz, hx, hy, hz, radius, resolution, mass,
							 particleRadius, vertices, vertexCount, indices, indexCount, NULL);
	return pbd_BodyFill_Bytes(&def);
}

PBDJS_API int pbdjs_BodyFillBegin(pbdBodyFill* fill, int bytes, int type, int shape, float px, float py, float pz, float qx,
								  float qy, float qz, float qw, float vx, float vy, float vz, float hx, float hy, float hz,
								  float radius, int resolution, float mass, float particleRadius, const float* vertices,
								  int vertexCount, const uint32_t* indices, int indexCount)
{
	pbdBodyDef def = BodyDef(type, shape, px, py, pz, qx, qy, qz, qw, vx, vy, vz, hx, hy, hz, radius, resolution, mass,
							 particleRadius, vertices, vertexCount, indices, indexCount, NULL);
	return pbd_BodyFill_Begin(fill, bytes, &def);
}

_Static_assert(sizeof(pbdBodyCounts) == 5 * sizeof(int32_t), "JS reads body counts as 5 int32");
