/* builders/skin.c -- the bodies' render surfaces (skin.h): the pool state, the buffers, and
   pbd_World_UpdateSkin. Where each body's skin comes from is builders/body_skin.c. */
#include "builders/skin.h"
#include "builders/body.h"
#include "builders/surface.h"
#include "builders/tetmesh.h"
#include "families/family.h"
#include "families/shapes.h"

#include <math.h>
#include <string.h>

/// A skin vertex: embedded in 4 particles of a soft body, or a rigid body's rest position. Which
/// one is its object's type (pbdObjectInfo.type). 32 bytes.
typedef union pbdSkinVertex {
	struct {
		int32_t particle[4];
		float weight[4];
	} soft;
	struct {
		float rest[4];
		int32_t unused[4];
	} rigid;
} pbdSkinVertex;
_Static_assert(sizeof(pbdSkinVertex) == 32, "a skin vertex is 32 bytes");

typedef struct pbdSkin {
	int32_t maxVertices, maxTriangles;
	int32_t vertexCount, triangleCount;
	float* positions;        ///< float4 per vertex (pbdBuffer_skinPositions)
	float* normals;          ///< float4 per vertex (pbdBuffer_skinNormals)
	pbdSkinVertex* vertex;
	uint32_t* triangles;     ///< 3 per triangle (pbdBuffer_skinTriangles)
	int32_t* buildTets;      ///< 4 per tet: the body being built
	int32_t maxBuildTets;
} pbdSkin;

static pbdSkin* Skin(const pbdWorld* w) { return pbd_FamilyState(w, pbdFamily_skin); }

/* One body's tets at most: they must fit the volume family (maxTets), and a body has at most
   6 tets per particle (a kept cell's lowest corner is its own) and one lattice's worth. */
static int32_t BuildTets(const pbdCapacity* cap)
{
	int64_t n = cap->maxTets;
	if (n > 6 * (int64_t)cap->maxParticles) n = 6 * (int64_t)cap->maxParticles;
	if (n > PBD_LATTICE_MAX_TETS) n = PBD_LATTICE_MAX_TETS;
	return (int32_t)n;
}

static size_t Skin_Bytes(const pbdCapacity* cap)
{
	const size_t V = (size_t)cap->maxSkinVertices;
	return pbd_PoolBytes(1, sizeof(pbdSkin)) + 2 * pbd_PoolBytes(V, 4 * sizeof(float)) + pbd_PoolBytes(V, sizeof(pbdSkinVertex)) +
		   pbd_PoolBytes((size_t)cap->maxSkinTriangles, 3 * sizeof(uint32_t)) +
		   pbd_PoolBytes((size_t)BuildTets(cap), 4 * sizeof(int32_t));
}

static int32_t Min32(int64_t a, int64_t b) { return (int32_t)(a < b ? a : b); }

/* pbd_World_AddBody checks a given surface or tet mesh in the scratch: a surface's triangles
   become skin triangles, so the skin's capacities bound it; a tet mesh's vertices are particles,
   and its tets are bounded by maxTets (soft) or, for a rigid body, by 6 per particle. */
static size_t Skin_ScratchBytes(const pbdCapacity* cap)
{
	const size_t surface = pbd_Surface_Bytes(Min32(cap->maxSkinVertices, PBD_BODY_MAX_VERTICES),
												  Min32(cap->maxSkinTriangles, PBD_BODY_MAX_TRIANGLES));
	const int32_t vertices = Min32(cap->maxParticles, PBD_BODY_MAX_VERTICES);
	const int64_t tets = cap->maxTets > 6 * (int64_t)vertices ? cap->maxTets : 6 * (int64_t)vertices;
	const size_t mesh = pbd_TetMesh_Bytes(vertices, Min32(tets, PBD_BODY_MAX_TETS));
	return surface > mesh ? surface : mesh;
}

static void* Skin_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	pbdSkin* s = pbd_PoolAlloc(pool, 1, sizeof(pbdSkin));
	if (s == NULL) return NULL;
	const size_t V = (size_t)cap->maxSkinVertices;
	s->maxVertices = cap->maxSkinVertices;
	s->maxTriangles = cap->maxSkinTriangles;
	s->positions = pbd_PoolAlloc(pool, V, 4 * sizeof(float));
	s->normals = pbd_PoolAlloc(pool, V, 4 * sizeof(float));
	s->vertex = pbd_PoolAlloc(pool, V, sizeof(pbdSkinVertex));
	s->triangles = pbd_PoolAlloc(pool, (size_t)cap->maxSkinTriangles, 3 * sizeof(uint32_t));
	s->maxBuildTets = BuildTets(cap);
	s->buildTets = pbd_PoolAlloc(pool, (size_t)s->maxBuildTets, 4 * sizeof(int32_t));
	return s->buildTets != NULL ? s : NULL;
}

const pbdFamily pbd_family_skin = {
	.name = "skin",
	.bytes = Skin_Bytes,
	.scratchBytes = Skin_ScratchBytes,
	.create = Skin_Create,
};

/* ---------------------------------------------------------------- building */

int pbd_Skin_CheckRoom(pbdWorld* w, int64_t vertices, int64_t triangles)
{
	const pbdSkin* s = Skin(w);
	if (s->vertexCount + vertices > s->maxVertices) {
		return pbd_SetWorldError(w, PBD_ERR_TRIANGLE_CAPACITY, "the skin needs %lld vertices, %d of %d left (maxSkinVertices)",
								 (long long)vertices, s->maxVertices - s->vertexCount, s->maxVertices);
	}
	if (s->triangleCount + triangles > s->maxTriangles) {
		return pbd_SetWorldError(w, PBD_ERR_TRIANGLE_CAPACITY, "the skin needs %lld triangles, %d of %d left (maxSkinTriangles)",
								 (long long)triangles, s->maxTriangles - s->triangleCount, s->maxTriangles);
	}
	return PBD_OK;
}

int32_t pbd_Skin_VertexCount(const pbdWorld* w) { return Skin(w)->vertexCount; }
int32_t pbd_Skin_TriangleCount(const pbdWorld* w) { return Skin(w)->triangleCount; }

void pbd_Skin_AddEmbedded(pbdWorld* w, const int32_t particle[4], const float weight[4])
{
	pbdSkin* s = Skin(w);
	PBD_ASSERT(s->vertexCount < s->maxVertices);
	pbdSkinVertex* v = &s->vertex[s->vertexCount++];
	memcpy(v->soft.particle, particle, sizeof v->soft.particle);
	memcpy(v->soft.weight, weight, sizeof v->soft.weight);
}

void pbd_Skin_AddRigid(pbdWorld* w, const float rest[3])
{
	pbdSkin* s = Skin(w);
	PBD_ASSERT(s->vertexCount < s->maxVertices);
	pbdSkinVertex* v = &s->vertex[s->vertexCount++];
	memset(v, 0, sizeof *v);
	memcpy(v->rigid.rest, rest, 3 * sizeof(float));
}

void pbd_Skin_AddTriangle(pbdWorld* w, uint32_t a, uint32_t b, uint32_t c)
{
	pbdSkin* s = Skin(w);
	PBD_ASSERT(s->triangleCount < s->maxTriangles);
	uint32_t* t = s->triangles + 3 * s->triangleCount++;
	t[0] = a, t[1] = b, t[2] = c;
}

int32_t* pbd_Skin_TetBuffer(pbdWorld* w, int32_t* capacity)
{
	pbdSkin* s = Skin(w);
	*capacity = s->maxBuildTets;
	return s->buildTets;
}

void* pbd_Skin_Buffer(pbdWorld* w, pbdBuffer buffer, int32_t* count)
{
	pbdSkin* s = Skin(w);
	switch (buffer) {
	case pbdBuffer_skinPositions: *count = s->vertexCount; return s->positions;
	case pbdBuffer_skinNormals: *count = s->vertexCount; return s->normals;
	case pbdBuffer_skinTriangles: *count = s->triangleCount; return s->triangles;
	default: *count = 0; return NULL;
	}
}

/* ---------------------------------------------------------------- per frame */

static void UpdateObject(pbdWorld* w, pbdSkin* s, int32_t object, float blend)
{
	const pbdObjectInfo* info = &w->objects[object];
	const int32_t first = info->firstSkinVertex, end = first + info->skinVertexCount;
	if (info->type == PBD_OBJECT_SOFT) {
		for (int32_t i = first; i < end; ++i) {
			const pbdSkinVertex* v = &s->vertex[i];
			float* out = s->positions + 4 * i;
			out[0] = out[1] = out[2] = 0.0f;
			for (int k = 0; k < 4; ++k) {
				const int32_t p = v->soft.particle[k];
				const float* x1 = w->x + 4 * p;
				const float wk = v->soft.weight[k];
				float x[3] = { x1[0], x1[1], x1[2] };
				if (blend < 1.0f) { /* as the vertex shaders blend the particles (shaders/cloth.vert) */
					const float* x0 = w->previous + 4 * p;
					for (int a = 0; a < 3; ++a) x[a] = x0[a] * (1.0f - blend) + x1[a] * blend;
				}
				out[0] += wk * x[0];
				out[1] += wk * x[1];
				out[2] += wk * x[2];
			}
			out[3] = 1.0f;
		}
		return;
	}
	/* rigid: x = c + R(q) (rest - c0), the body's motion since it was made */
	float c[3] = { 0, 0, 0 }, q[4] = { 0, 0, 0, 1 }, c0[3] = { 0, 0, 0 };
	if (!pbd_Shapes_TransformAt(w, object, blend, c, q, c0)) {
		c[0] = c[1] = c[2] = 0.0f, c0[0] = c0[1] = c0[2] = 0.0f;
		q[0] = q[1] = q[2] = 0.0f, q[3] = 1.0f;
	}
	for (int32_t i = first; i < end; ++i) {
		const float* rest = s->vertex[i].rigid.rest;
		const float r[3] = { rest[0] - c0[0], rest[1] - c0[1], rest[2] - c0[2] };
		float* out = s->positions + 4 * i;
		pbd_BodyRotate(q, r, out);
		out[0] += c[0], out[1] += c[1], out[2] += c[2];
		out[3] = 1.0f;
	}
}

int pbd_World_UpdateSkin(pbdWorldId id) { return pbd_World_UpdateSkinAt(id, 1.0f); }

int pbd_World_UpdateSkinAt(pbdWorldId id, float blend)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdSkin* s = Skin(w);
	/* between steps only while they are kept; NaN and anything past the ends clamped */
	blend = !w->keepPrevious || !(blend < 1.0f) ? 1.0f : blend > 0.0f ? blend : 0.0f;
	for (int32_t o = 0; o < w->objectCount; ++o) {
		if (w->objects[o].skinVertexCount > 0) UpdateObject(w, s, o, blend);
	}
	/* area-weighted vertex normals, as pbd_World_UpdateNormals does for cloth */
	memset(s->normals, 0, (size_t)s->vertexCount * 4 * sizeof(float));
	for (int32_t t = 0; t < s->triangleCount; ++t) {
		const uint32_t* tri = s->triangles + 3 * t;
		const float *a = s->positions + 4 * tri[0], *b = s->positions + 4 * tri[1], *c = s->positions + 4 * tri[2];
		const float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		const float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		const float n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
		for (int k = 0; k < 3; ++k) {
			float* out = s->normals + 4 * tri[k];
			out[0] += n[0], out[1] += n[1], out[2] += n[2];
		}
	}
	for (int32_t i = 0; i < s->vertexCount; ++i) {
		float* n = s->normals + 4 * i;
		const float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		if (len > 1e-20f) {
			n[0] /= len, n[1] /= len, n[2] /= len;
		} else {
			n[0] = 0.0f, n[1] = 1.0f, n[2] = 0.0f; /* degenerate: any unit vector beats NaN */
		}
		n[3] = 0.0f;
	}
	return PBD_OK;
}
