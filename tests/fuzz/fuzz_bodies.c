/* fuzz_bodies.c -- the API fuzzer's calls for bodies: pbd_World_AddBody with box,
   ball, tets and surface defs, valid or broken (a coordinate set to any float, an index moved
   out of range or onto its neighbour, a triangle or tet dropped or turned over, counts that lie),
   and pbd_World_UpdateSkin. Meshes are small and local; a lying count either fits the local
   arrays or is past the engine's limits (refused before anything is read). */
#include "fuzz_world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V3 "(%g, %g, %g)"
#define A3(v) (double)(v)[0], (double)(v)[1], (double)(v)[2]

#define MESH_VERTICES 16
#define MESH_INDICES 64

typedef struct FuzzMesh {
	const float* v;
	int32_t vertexCount;
	const uint32_t* idx;
	int32_t indexCount;
	int tets; ///< 4 indices per primitive (else 3)
} FuzzMesh;

/* cube surface (vertex x + 2y + 4z), octahedron, the cube in 5 tets, one tet */
static const float s_cubeV[24] = { -.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f, -.5f, .5f, .5f, -.5f,
								   -.5f, -.5f, .5f,  .5f, -.5f, .5f,  -.5f, .5f, .5f,  .5f, .5f, .5f };
static const uint32_t s_cubeT[36] = { 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6 };
static const float s_octV[18] = { 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1 };
static const uint32_t s_octT[24] = { 0, 2, 4, 1, 4, 2, 0, 4, 3, 1, 3, 4, 0, 5, 2, 1, 2, 5, 0, 3, 5, 1, 5, 3 };
static const uint32_t s_cubeTets[20] = { 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7, 1, 2, 4, 7 };
static const float s_tetV[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
static const uint32_t s_tetT[4] = { 0, 1, 2, 3 };

static const FuzzMesh s_meshes[4] = {
	{ s_cubeV, 8, s_cubeT, 36, 0 },
	{ s_octV, 6, s_octT, 24, 0 },
	{ s_cubeV, 8, s_cubeTets, 20, 1 },
	{ s_tetV, 4, s_tetT, 4, 1 },
};

/* A count that lies: as given, or one of the values past the limits (never read past). */
static int32_t LyingCount(Fuzz* f, int32_t valid, int32_t room)
{
	uint8_t s = FuzzU8(&f->in);
	static const int32_t hostile[] = { -1, 0, 3, PBD_BODY_MAX_VERTICES + 1, 3 * (PBD_BODY_MAX_TRIANGLES + 1), INT32_MAX, INT32_MIN };
	if (s < 0x80) return valid;
	if (s < 0xc0) {
		const int32_t v = valid + (int32_t)(s & 7) - 4; /* a few either side, within the arrays */
		return v > room ? room : v;
	}
	return hostile[s % (sizeof hostile / sizeof hostile[0])];
}

static int IsCapacity(int rc)
{
	return rc == PBD_ERR_PARTICLE_CAPACITY || rc == PBD_ERR_CONSTRAINT_CAPACITY || rc == PBD_ERR_TRIANGLE_CAPACITY ||
		   rc == PBD_ERR_OBJECT_CAPACITY || rc == PBD_ERR_OUT_OF_MEMORY;
}

void OpAddBody(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t flags = FuzzU8(&f->in);
	uint32_t mask = FuzzU8(&f->in);
	mask |= (uint32_t)FuzzU8(&f->in) << 8;
	pbdBodyDef def = pbd_DefaultBodyDef();
	def.resolution = 2; /* small by default: most worlds here are small */
	static const int32_t types[] = { PBD_OBJECT_SOFT, PBD_OBJECT_RIGID, PBD_OBJECT_CHAIN, PBD_OBJECT_CLOTH, -1, 7 };
	if (mask & 1) def.type = types[FuzzU8(&f->in) % 6];
	if (mask & 2) def.shape = FuzzIndex(&f->in, pbdBodyShape_count);
	if (mask & 4) Floats(f, def.position, 3);
	if (mask & 8) Floats(f, def.rotation, 4);
	if (mask & 16) Floats(f, def.velocity, 3);
	if (mask & 32) Floats(f, def.halfExtents, 3);
	if (mask & 64) def.radius = FuzzFloat(&f->in);
	if (mask & 128) def.resolution = ReadCount(f);
	if (mask & 256) def.mass = FuzzFloat(&f->in);
	if (mask & 512) def.particleRadius = FuzzFloat(&f->in);
	float v[3 * MESH_VERTICES];
	uint32_t idx[MESH_INDICES];
	memset(v, 0, sizeof v);
	memset(idx, 0, sizeof idx);
	if (mask & 1024) {
		const FuzzMesh* m = &s_meshes[FuzzU8(&f->in) % 4];
		memcpy(v, m->v, (size_t)m->vertexCount * 3 * sizeof(float));
		memcpy(idx, m->idx, (size_t)m->indexCount * sizeof(uint32_t));
		def.shape = m->tets ? pbdBodyShape_tets : pbdBodyShape_surface;
		def.vertices = v;
		def.indices = idx;
		def.vertexCount = m->vertexCount;
		def.indexCount = m->indexCount;
		const int per = m->tets ? 4 : 3;
		for (int k = FuzzU8(&f->in) % 4; k > 0; --k) {
			switch (FuzzU8(&f->in) % 6) {
			case 0: { /* a coordinate set to any float (the index read first: C leaves the order of an assignment's sides open) */
				const int at = FuzzU8(&f->in) % (3 * m->vertexCount);
				v[at] = FuzzFloat(&f->in);
				break;
			}
			case 1: { /* an index moved, maybe out of range */
				const int at = FuzzU8(&f->in) % m->indexCount;
				idx[at] = (uint32_t)FuzzIndex(&f->in, m->vertexCount);
				break;
			}
			case 2: { /* a primitive turned over */
				uint32_t* p = idx + per * (FuzzU8(&f->in) % (m->indexCount / per));
				uint32_t t = p[1];
				p[1] = p[2], p[2] = t;
				break;
			}
			case 3: { /* a vertex repeated */
				uint32_t* p = idx + per * (FuzzU8(&f->in) % (m->indexCount / per));
				p[1] = p[0];
				break;
			}
			case 4: def.vertexCount = LyingCount(f, m->vertexCount, MESH_VERTICES); break;
			default: def.indexCount = LyingCount(f, m->indexCount, MESH_INDICES); break;
			}
		}
		if (flags & 4) def.vertices = NULL;
	}
	if (flags & 1) def.internalValue = 0;
	const pbdBodyDef* arg = (flags & 2) ? NULL : &def;
	int rc = pbd_World_AddBody(world, arg);
	Trace("AddBody(w%d, %stype %d shape %d at " V3 " q (%g, %g, %g, %g) v " V3 " he " V3 " r %g res %d mass %g pr %g mesh %d/%d) -> %d",
		  world, arg ? "" : "NULL ", def.type, def.shape, A3(def.position), (double)def.rotation[0], (double)def.rotation[1],
		  (double)def.rotation[2], (double)def.rotation[3], A3(def.velocity), A3(def.halfExtents), (double)def.radius,
		  def.resolution, (double)def.mass, (double)def.particleRadius, def.vertexCount, def.indexCount, rc);
	const int result = Result(f, rc, world, 0, "AddBody");
	pbdBodyCounts c; /* after Result: pbd_BodyCounts sets the message of calls without a world */
	const int counted = arg ? pbd_BodyCounts(arg, &c) : PBD_ERR_BAD_DEF;
	if (result < 0) {
		/* the world-less count refuses a def the same way, capacities aside */
		FUZZ_CHECK(SlotOf(f, world) == NULL || IsCapacity(rc) || counted == rc || (rc == PBD_ERR_STEP_IN_PROGRESS && SlotOf(f, world)->midStep), "AddBody refused with %d, pbd_BodyCounts said %d", rc,
				   counted);
		return;
	}
	FUZZ_CHECK(counted == PBD_OK, "AddBody accepted what pbd_BodyCounts refused (%d)", counted);
	FuzzSlot* slot = SlotOf(f, world);
	const FuzzSnapshot* b = &slot->before;
	FUZZ_CHECK(rc == b->particles, "AddBody returned %d, not the old particle count %d", rc, b->particles);
	FUZZ_CHECK(pbd_World_GetParticleCount(world) == b->particles + c.particles, "AddBody: particles");
	FUZZ_CHECK(pbd_World_GetConstraintCount(world) == b->constraints + c.edges, "AddBody: constraints");
	FUZZ_CHECK(pbd_World_GetCount(world, pbdBuffer_skinPositions) == b->skinVertices + c.skinVertices &&
				   pbd_World_GetCount(world, pbdBuffer_skinTriangles) == b->skinTriangles + c.skinTriangles,
			   "AddBody: skin counts");
	FUZZ_CHECK(pbd_World_GetCount(world, pbdBuffer_triangles) == b->triangles && pbd_World_GetObjectCount(world) == b->objects + 1,
			   "AddBody: triangles or objects");
	pbdObjectInfo info;
	FUZZ_CHECK(pbd_World_GetObjectInfo(world, b->objects, &info) == PBD_OK && info.type == def.type && info.firstParticle == rc &&
				   info.particleCount == c.particles && info.constraintCount == c.edges && info.tetCount == c.tets &&
				   info.skinVertexCount == c.skinVertices && info.skinTriangleCount == c.skinTriangles,
			   "AddBody: the new object's info disagrees with pbd_BodyCounts");
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, NULL);
	const float* vel = pbd_World_GetBuffer(world, pbdBuffer_velocities, NULL);
	FUZZ_CHECK(b->particles == 0 || (memcmp(x, b->x, (size_t)b->particles * 16) == 0 && memcmp(vel, b->v, (size_t)b->particles * 16) == 0),
			   "AddBody moved the particles that were there");
	const float w = 1.0f / (def.mass / (float)c.particles);
	for (int i = rc; i < rc + c.particles; ++i) {
		FUZZ_CHECK(InBound(x + 4 * i), "AddBody put particle %d at " V3 ", outside the world bound", i, A3(x + 4 * i));
		FUZZ_CHECK(x[4 * i + 3] == w, "AddBody: particle %d has w = %g, not %g", i, (double)x[4 * i + 3], (double)w);
		FUZZ_CHECK(memcmp(vel + 4 * i, def.velocity, 3 * sizeof(float)) == 0, "AddBody: particle %d's velocity is not the body's", i);
	}
	f->work += 8.0 * (c.particles + c.edges + c.tets + c.skinVertices);
}

void OpUpdateSkin(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int rc = pbd_World_UpdateSkin(world);
	Trace("UpdateSkin(w%d) -> %d", world, rc);
	if (Result(f, rc, world, 1, "UpdateSkin") < 0) return;
	int32_t n = 0, nn = 0;
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_skinPositions, &n);
	const float* normal = pbd_World_GetBuffer(world, pbdBuffer_skinNormals, &nn);
	FUZZ_CHECK(n == nn, "skin positions %d, normals %d", n, nn);
	for (int i = 0; i < n; ++i) {
		/* finite: a skin vertex a particle radius outside the particles extrapolates from its tet
		   with bounded weights (a radius of 1 m over a tiny cell makes them large, not infinite) */
		for (int k = 0; k < 3; ++k) FUZZ_CHECK(isfinite(x[4 * i + k]), "skin vertex %d is " V3, i, A3(x + 4 * i));
		const float* v = normal + 4 * i;
		double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
		FUZZ_CHECK(isfinite(len) && fabs(len - 1.0) < 1e-3, "skin normal %d is " V3, i, A3(v));
	}
	f->work += 6.0 * n;
}
