/* builders/tetmesh.c -- a tet mesh given by the caller (tetmesh.h). */
#include "builders/tetmesh.h"
#include "world/core.h"

#include <math.h>
#include <string.h>

size_t pbd_TetMesh_Bytes(int32_t nv, int32_t nt)
{
	const size_t v = (size_t)nv, t = (size_t)nt;
	return pbd_BodyInts(3u * v) /* x */ + pbd_BodyInts(v + 1u) + pbd_BodyInts(4u * t) + 2u * pbd_BodyInts(v) +
		   pbd_BodyInts((t + 3u) / 4u);
}

int pbd_TetMesh_CheckInput(const float* v, int32_t nv, const uint32_t* idx, int32_t nt, pbdBodyError* err)
{
	if (nv < 4 || nv > PBD_BODY_MAX_VERTICES) {
		return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "a tet mesh needs 4 to %d vertices, got %d", PBD_BODY_MAX_VERTICES, nv);
	}
	if (nt < 1 || nt > PBD_BODY_MAX_TETS) {
		return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "a tet mesh needs 1 to %d tets, got %d", PBD_BODY_MAX_TETS, nt);
	}
	if (v == NULL || idx == NULL) return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "tet vertices or indices are NULL");
	for (int32_t i = 0; i < 3 * nv; ++i) {
		if (!pbd_IsFinite(v[i])) return pbd_BodyFail(err, PBD_ERR_NOT_FINITE, "tet vertex %d is not finite", i / 3);
		if (!pbd_IsCoord(v[i])) {
			return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "tet vertex %d lies beyond +-%g", i / 3, (double)PBD_COORD_LIMIT);
		}
	}
	for (int32_t i = 0; i < 4 * nt; ++i) {
		if (idx[i] >= (uint32_t)nv) {
			return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "tet %d has vertex index %u, out of range (%d vertices)", i / 4, idx[i], nv);
		}
	}
	return PBD_OK;
}

void pbd_TetMesh_Init(pbdTetMesh* m, void* mem, int32_t nv, const uint32_t* idx, int32_t nt)
{
	memset(m, 0, sizeof *m);
	uint8_t* at = mem;
	const size_t v = (size_t)nv, t = (size_t)nt;
	m->x = (float*)at, at += pbd_BodyInts(3u * v);
	m->start = (int32_t*)at, at += pbd_BodyInts(v + 1u);
	m->list = (int32_t*)at, at += pbd_BodyInts(4u * t);
	m->stamp = (int32_t*)at, at += pbd_BodyInts(v);
	m->skinIndex = (int32_t*)at, at += pbd_BodyInts(v);
	m->flip = at;
	m->tets = idx;
	m->vertexCount = nv;
	m->tetCount = nt;
}

void pbd_TetMesh_Tet(const pbdTetMesh* m, int32_t t, int32_t out[4])
{
	const uint32_t* q = m->tets + 4 * t;
	out[0] = (int32_t)q[0];
	out[1] = (int32_t)q[1];
	out[2] = (int32_t)(m->flip[t] ? q[3] : q[2]);
	out[3] = (int32_t)(m->flip[t] ? q[2] : q[3]);
}

/* 6 V = (x1 - x0) . ((x2 - x0) x (x3 - x0)) in float, in the volume family's order of operations
   (volume_solve.c pbd_Volume_Six), so a tet this calls positive has a positive rest volume there.
   Swapping x2 and x3 negates the cross product exactly, so a flipped tet's volume is exactly -V. */
float pbd_TetVolume6(const float* a, const float* b, const float* c, const float* d)
{
	const float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
	const float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
	const float e3[3] = { d[0] - a[0], d[1] - a[1], d[2] - a[2] };
	const float n[3] = { e2[1] * e3[2] - e2[2] * e3[1], e2[2] * e3[0] - e2[0] * e3[2], e2[0] * e3[1] - e2[1] * e3[0] };
	return (e1[0] * n[0] + e1[1] * n[1]) + e1[2] * n[2];
}

static float Volume6(const float* x, const uint32_t* q) { return pbd_TetVolume6(x + 3 * q[0], x + 3 * q[1], x + 3 * q[2], x + 3 * q[3]); }

/* The faces of an oriented tet (0, 1, 2, 3) with V > 0, each counter-clockwise seen from outside. */
static const int32_t s_face[4][3] = { { 1, 2, 3 }, { 0, 3, 2 }, { 0, 1, 3 }, { 0, 2, 1 } };

static int HasVertex(const uint32_t* q, uint32_t v) { return q[0] == v || q[1] == v || q[2] == v || q[3] == v; }

/* A face is on the boundary when no other tet has all three of its vertices. */
static int IsBoundary(const pbdTetMesh* m, int32_t t, const int32_t f[3])
{
	for (int32_t s = m->start[f[0]]; s < m->start[f[0] + 1]; ++s) {
		const int32_t o = m->list[s];
		if (o != t && HasVertex(m->tets + 4 * o, (uint32_t)f[1]) && HasVertex(m->tets + 4 * o, (uint32_t)f[2])) return 0;
	}
	return 1;
}

/* Calls fn for each boundary face of the mesh; returns their number. */
static int32_t ForFaces(const pbdTetMesh* m, pbdTetFaceFn fn, void* user)
{
	int32_t count = 0;
	for (int32_t t = 0; t < m->tetCount; ++t) {
		int32_t q[4];
		pbd_TetMesh_Tet(m, t, q);
		for (int f = 0; f < 4; ++f) {
			const int32_t face[3] = { q[s_face[f][0]], q[s_face[f][1]], q[s_face[f][2]] };
			if (!IsBoundary(m, t, face)) continue;
			count += 1;
			if (fn) fn(user, face);
		}
	}
	return count;
}

static void MarkSkin(void* user, const int32_t face[3])
{
	pbdTetMesh* m = user;
	for (int k = 0; k < 3; ++k) m->skinIndex[face[k]] = 0;
}

typedef struct EdgeStats {
	const float* x;
	int32_t count;
	float shortest2;
} EdgeStats;

static void CountEdge(void* user, int32_t a, int32_t b)
{
	EdgeStats* s = user;
	const float d[3] = { s->x[3 * a] - s->x[3 * b], s->x[3 * a + 1] - s->x[3 * b + 1], s->x[3 * a + 2] - s->x[3 * b + 2] };
	const float d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
	if (s->count == 0 || d2 < s->shortest2) s->shortest2 = d2;
	s->count += 1;
}

int pbd_TetMesh_Build(pbdTetMesh* m, pbdBodyError* err)
{
	const int32_t nv = m->vertexCount, nt = m->tetCount;
	for (int32_t t = 0; t < nt; ++t) {
		const float v6 = Volume6(m->x, m->tets + 4 * t);
		if (!(v6 != 0.0f)) return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "tet %d has zero volume", t);
		m->flip[t] = v6 < 0.0f; /* inverted as given: swapping two vertices makes V0 > 0 */
	}
	memset(m->start, 0, ((size_t)nv + 1u) * sizeof(int32_t));
	for (int32_t i = 0; i < 4 * nt; ++i) m->start[m->tets[i] + 1] += 1;
	for (int32_t v = 0; v < nv; ++v) {
		if (m->start[v + 1] == 0) return pbd_BodyFail(err, PBD_ERR_INVALID_ARGUMENT, "tet vertex %d is in no tet", v);
	}
	for (int32_t v = 0; v < nv; ++v) m->start[v + 1] += m->start[v];
	for (int32_t t = 0; t < nt; ++t) {
		for (int k = 0; k < 4; ++k) m->list[m->start[m->tets[4 * t + k]]++] = t;
	}
	for (int32_t v = nv; v > 0; --v) m->start[v] = m->start[v - 1];
	m->start[0] = 0;
	EdgeStats stats = { m->x, 0, 0.0f };
	pbd_TetMesh_Edges(m, 0, CountEdge, &stats);
	m->edgeCount = stats.count;
	m->shortestEdge = sqrtf(stats.shortest2);
	/* the skin: boundary vertices numbered in vertex order */
	for (int32_t v = 0; v < nv; ++v) m->skinIndex[v] = -1;
	m->faceCount = ForFaces(m, MarkSkin, m);
	m->boundaryVertexCount = 0;
	for (int32_t v = 0; v < nv; ++v) {
		if (m->skinIndex[v] == 0) m->skinIndex[v] = m->boundaryVertexCount++;
	}
	return PBD_OK;
}

void pbd_TetMesh_Edges(pbdTetMesh* m, int32_t first, pbdLatticeEdgeFn edge, void* user)
{
	for (int32_t v = 0; v < m->vertexCount; ++v) m->stamp[v] = -1;
	for (int32_t v = 0; v < m->vertexCount; ++v) {
		for (int32_t s = m->start[v]; s < m->start[v + 1]; ++s) {
			const uint32_t* q = m->tets + 4 * m->list[s];
			for (int k = 0; k < 4; ++k) {
				const int32_t u = (int32_t)q[k];
				if (u <= v || m->stamp[u] == v) continue;
				m->stamp[u] = v;
				edge(user, first + v, first + u);
			}
		}
	}
}

void pbd_TetMesh_Faces(const pbdTetMesh* m, pbdTetFaceFn face, void* user) { ForFaces(m, face, user); }
