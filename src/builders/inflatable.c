/* builders/inflatable.c -- an inflatable (families/inflatables.h): the built-in sphere or any
   closed mesh, its vertices as particles, its triangles as the world's (drawn as a cloth's and
   read by the overpressure constraint), a stretch constraint on each edge and a bend constraint
   across each (between the two corners opposite it: the distance bending of builders/cloth.c).

   The sphere is a geodesic icosahedron of frequency n: each of the 20 faces cut in n^2
   triangles, every point pushed out to the radius: 12 corners, n - 1 points inside each of the
   30 edges, (n - 1)(n - 2) / 2 inside each face: 10 n^2 + 2 vertices, near-even edges (its bend
   and stretch rest lengths stay within about 20% of each other, unlike a UV sphere's poles).
   A mesh is checked as builders/surface.c checks a body's model (counts, coordinates, indices;
   closed, manifold, consistently oriented, positive volume), and refused as well with a
   repeated corner, a triangle of no area or a vertex of no triangle, since each is a particle
   the surface would not hold. Both are built by one path from vertices and triangles. */
#include "builders/builder.h"
#include "builders/surface.h"
#include "families/distance.h"
#include "families/inflatables.h"

#include <math.h>
#include <string.h>

pbdInflatableDef pbd_DefaultInflatableDef(void)
{
	pbdInflatableDef def;
	memset(&def, 0, sizeof def);
	def.radius = 0.25f;
	def.resolution = 4;
	def.mass = 0.001f;
	def.pressure = 1.0f;
	def.stiffness = 1.0f;
	def.internalValue = PBD_COOKIE;
	return def;
}

void pbd_InflatableCounts(int32_t n, int32_t* particles, int32_t* constraints, int32_t* triangles)
{
	const int ok = n >= 1 && n <= PBD_INFLATABLE_MAX_RESOLUTION;
	if (particles) *particles = ok ? 10 * n * n + 2 : 0;
	if (constraints) *constraints = ok ? 60 * n * n : 0; /* 30 n^2 edges, a stretch and a bend each */
	if (triangles) *triangles = ok ? 20 * n * n : 0;
}

void pbd_InflatableMeshCounts(int32_t vertexCount, int32_t triangleCount, int32_t* particles, int32_t* constraints, int32_t* triangles)
{
	/* what pbd_World_AddInflatable adds for a mesh it accepts: a closed manifold of T triangles has 3 T / 2 edges,
	   a stretch and a bend on each (the room it checks, 3 T constraints); counts that no mesh could have are 0 */
	const int ok = vertexCount >= 4 && triangleCount >= 4 && triangleCount <= INT32_MAX / 3;
	if (particles) *particles = ok ? vertexCount : 0;
	if (constraints) *constraints = ok ? 3 * triangleCount : 0;
	if (triangles) *triangles = ok ? triangleCount : 0;
}

/* ---------------------------------------------------------------- the sphere */

static const float kIcoVertices[12][3] = {
	{ -1, 1.6180340f, 0 }, { 1, 1.6180340f, 0 }, { -1, -1.6180340f, 0 }, { 1, -1.6180340f, 0 },
	{ 0, -1, 1.6180340f }, { 0, 1, 1.6180340f }, { 0, -1, -1.6180340f }, { 0, 1, -1.6180340f },
	{ 1.6180340f, 0, -1 }, { 1.6180340f, 0, 1 }, { -1.6180340f, 0, -1 }, { -1.6180340f, 0, 1 },
};
/* counter-clockwise seen from outside */
static const uint8_t kIcoFaces[20][3] = {
	{ 0, 11, 5 }, { 0, 5, 1 }, { 0, 1, 7 }, { 0, 7, 10 }, { 0, 10, 11 }, { 1, 5, 9 }, { 5, 11, 4 },
	{ 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 }, { 3, 9, 4 }, { 3, 4, 2 }, { 3, 2, 6 }, { 3, 6, 8 },
	{ 3, 8, 9 }, { 4, 9, 5 }, { 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 }, { 9, 8, 1 },
};

/* The edge (a, b) of the icosahedron: its index among the 30 (in the order first met, kept in
   `edges`), found or added. */
static int IcoEdge(uint8_t edges[30][2], int* count, int a, int b)
{
	const int lo = a < b ? a : b, hi = a < b ? b : a;
	for (int e = 0; e < *count; ++e) {
		if (edges[e][0] == lo && edges[e][1] == hi) return e;
	}
	edges[*count][0] = (uint8_t)lo, edges[*count][1] = (uint8_t)hi;
	return (*count)++;
}

static void OnSphere(float* out, const float a[3], const float b[3], const float c[3], float i, float j, float n, float radius)
{
	float q[3], len = 0.0f;
	for (int k = 0; k < 3; ++k) q[k] = a[k] + (b[k] - a[k]) * (i / n) + (c[k] - a[k]) * (j / n), len += q[k] * q[k];
	len = radius / sqrtf(len);
	for (int k = 0; k < 3; ++k) out[k] = q[k] * len;
}

/* Vertex (i, j) of face f (i along its first edge, j along its last, i + j <= n): its index. */
static uint32_t FacePoint(uint8_t edges[30][2], int* edgeCount, int f, int i, int j, int n)
{
	const uint8_t* F = kIcoFaces[f];
	if (i == 0 && j == 0) return F[0];
	if (i == n) return F[1];
	if (j == n) return F[2];
	int from, to, t;
	if (j == 0) from = F[0], to = F[1], t = i;
	else if (i == 0) from = F[0], to = F[2], t = j;
	else if (i + j == n) from = F[1], to = F[2], t = j;
	else { /* inside: the faces' own points after the 12 corners and 30 (n - 1) edge points, row by row */
		const int row = j - 1, before = row * (n - 2) - row * (row - 1) / 2;
		return (uint32_t)(12 + 30 * (n - 1) + f * (n - 1) * (n - 2) / 2 + before + (i - 1));
	}
	const int e = IcoEdge(edges, edgeCount, from, to);
	const int k = from < to ? t : n - t; /* counted from the edge's lower corner */
	return (uint32_t)(12 + e * (n - 1) + (k - 1));
}

/* The geodesic sphere's vertices (3 floats each) and triangles into v and idx. */
static void Icosphere(float* v, uint32_t* idx, int n, float radius)
{
	uint8_t edges[30][2];
	int edgeCount = 0;
	for (int c = 0; c < 12; ++c) {
		const float* a = kIcoVertices[c];
		OnSphere(v + 3 * c, a, a, a, 0.0f, 0.0f, 1.0f, radius);
	}
	int32_t t = 0;
	for (int f = 0; f < 20; ++f) {
		const float *A = kIcoVertices[kIcoFaces[f][0]], *B = kIcoVertices[kIcoFaces[f][1]], *C = kIcoVertices[kIcoFaces[f][2]];
		for (int j = 0; j <= n; ++j) {
			for (int i = 0; i + j <= n; ++i) {
				const uint32_t at = FacePoint(edges, &edgeCount, f, i, j, n);
				if (at >= 12) OnSphere(v + 3 * at, A, B, C, (float)i, (float)j, (float)n, radius);
				if (i + j < n) {
					uint32_t* q = idx + 3 * t++;
					q[0] = at, q[1] = FacePoint(edges, &edgeCount, f, i + 1, j, n);
					q[2] = FacePoint(edges, &edgeCount, f, i, j + 1, n);
				}
				if (i + j < n - 1) {
					uint32_t* q = idx + 3 * t++;
					q[0] = FacePoint(edges, &edgeCount, f, i + 1, j, n);
					q[1] = FacePoint(edges, &edgeCount, f, i + 1, j + 1, n);
					q[2] = FacePoint(edges, &edgeCount, f, i, j + 1, n);
				}
			}
		}
	}
}

/* ---------------------------------------------------------------- checks */

/* What pbd_Surface_CheckClosed leaves to the builder: a repeated corner, no area, a vertex no
   triangle uses (mark: one byte per vertex of the caller's memory). */
static int CheckDegenerate(const float* v, int32_t nv, const uint32_t* idx, int32_t nt, uint8_t* mark, pbdBodyError* e)
{
	memset(mark, 0, (size_t)nv);
	for (int32_t t = 0; t < nt; ++t) {
		const uint32_t* q = idx + 3 * t;
		if (q[0] == q[1] || q[1] == q[2] || q[0] == q[2]) return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "triangle %d repeats a vertex", t);
		const float *a = v + 3 * q[0], *b = v + 3 * q[1], *c = v + 3 * q[2];
		const float u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, w[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		const float x = u[1] * w[2] - u[2] * w[1], y = u[2] * w[0] - u[0] * w[2], z = u[0] * w[1] - u[1] * w[0];
		const float uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
		if (!(x * x + y * y + z * z > 1e-12f * uu * ww)) return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "triangle %d has no area", t);
		mark[q[0]] = mark[q[1]] = mark[q[2]] = 1;
	}
	for (int32_t i = 0; i < nv; ++i) {
		if (!mark[i]) return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "vertex %d belongs to no triangle", i);
	}
	return PBD_OK;
}

/* Each vertex's triangles (CSR: start[nv + 1], list[3 nt]) of the triangles idx, vertex indices less `base`. */
static void Adjacency(const uint32_t* idx, int32_t nt, int32_t nv, uint32_t base, int32_t* start, int32_t* list)
{
	memset(start, 0, ((size_t)nv + 1u) * sizeof(int32_t));
	for (int32_t i = 0; i < 3 * nt; ++i) start[idx[i] - base + 1] += 1;
	for (int32_t i = 0; i < nv; ++i) start[i + 1] += start[i];
	for (int32_t t = 0; t < nt; ++t) {
		for (int k = 0; k < 3; ++k) list[start[idx[3 * t + k] - base]++] = t;
	}
	for (int32_t i = nv; i > 0; --i) start[i] = start[i - 1];
	start[0] = 0;
}

/* The corner opposite edge b -> a: the third corner of the triangle that runs b -> a. */
static uint32_t Opposite(const uint32_t* idx, const int32_t* start, const int32_t* list, uint32_t base, uint32_t a, uint32_t b)
{
	for (int32_t s = start[b - base]; s < start[b - base + 1]; ++s) {
		const uint32_t* q = idx + 3 * list[s];
		for (int k = 0; k < 3; ++k) {
			if (q[k] == b && q[(k + 1) % 3] == a) return q[(k + 2) % 3];
		}
	}
	return a; /* cannot happen on a checked surface: a tombstone-like pair (a, a) */
}

/* ---------------------------------------------------------------- building */

int pbd_World_AddInflatable(pbdWorldId id, const pbdInflatableDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	int err;
	if ((err = pbd_CheckNoStep(w, "pbd_World_AddInflatable")) != PBD_OK) return err;
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetWorldError(w, PBD_ERR_BAD_DEF, "use pbd_DefaultInflatableDef()");
	if ((err = pbd_CheckVec(w, def->center, "inflatable center")) != PBD_OK) return err;
	if ((err = pbd_Builder_CheckMass(w, def->mass)) != PBD_OK) return err;
	if (!(def->pressure > 0.0f) || def->pressure > 100.0f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "pressure must be in (0, 100], got %g", (double)def->pressure);
	}
	if (!(def->stiffness >= 0.0f && def->stiffness <= 1.0f)) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "stiffness must be in [0, 1], got %g", (double)def->stiffness);
	}
	const int n = def->resolution;
	pbdBodyError e = { 0 };
	int32_t nv = def->vertexCount, nt = def->triangleCount;
	if (def->vertices == NULL) {
		if (n < 1 || n > PBD_INFLATABLE_MAX_RESOLUTION) {
			return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "inflatable resolution %d: 1 to %d", n, PBD_INFLATABLE_MAX_RESOLUTION);
		}
		if (!(def->radius >= 1e-3f && def->radius <= 1e3f)) {
			return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "inflatable radius must be in [0.001, 1000] m, got %g", (double)def->radius);
		}
		pbd_InflatableCounts(n, &nv, NULL, &nt);
	} else if ((err = pbd_Surface_CheckInput(def->vertices, nv, def->indices, nt, &e)) != PBD_OK) {
		return pbd_SetWorldError(w, err, "inflatable: %s", e.text);
	}
	/* the scratch: the vertices and triangles (the sphere's, or a copy of the mesh's), then the checks' memory */
	pbdPool scratch = { pbd_Scratch_Take(w, pbdScratch_none), w->scratchBytes, 0 };
	float* v = pbd_PoolAlloc(&scratch, 3 * (size_t)(nv > 0 ? nv : 1), sizeof(float));
	uint32_t* idx = pbd_PoolAlloc(&scratch, 3 * (size_t)(nt > 0 ? nt : 1), sizeof(uint32_t));
	const size_t checkBytes = pbd_Surface_CheckBytes(nv > 0 ? nv : 1, nt > 0 ? nt : 1);
	void* mem = pbd_PoolAlloc(&scratch, checkBytes + (size_t)(nv > 0 ? nv : 1), 1); /* 64-aligned */
	if (mem == NULL) {
		return pbd_SetWorldError(w, PBD_ERR_TRIANGLE_CAPACITY, "an inflatable of %d vertices and %d triangles does not fit the "
								 "world's scratch (maxTriangles, maxParticles)", nv, nt);
	}
	if (def->vertices == NULL) {
		Icosphere(v, idx, n, def->radius);
	} else {
		memcpy(v, def->vertices, 3 * sizeof(float) * (size_t)nv);
		memcpy(idx, def->indices, 3 * sizeof(uint32_t) * (size_t)nt);
	}
	for (int32_t i = 0; i < nv; ++i) {
		for (int k = 0; k < 3; ++k) v[3 * i + k] += def->center[k];
	}
	if ((err = pbd_Surface_CheckInput(v, nv, idx, nt, &e)) != PBD_OK ||
		(err = CheckDegenerate(v, nv, idx, nt, (uint8_t*)mem + checkBytes, &e)) != PBD_OK ||
		(err = pbd_Surface_CheckClosed(v, nv, idx, nt, mem, checkBytes, &e)) != PBD_OK) {
		return pbd_SetWorldError(w, err, "inflatable: %s", e.text);
	}
	if ((err = pbd_Builder_CheckRoom(w, nv, 3 * (int64_t)nt, nt, 0)) != PBD_OK) return err;
	if ((err = pbd_Inflatables_CheckRoom(w, nv)) != PBD_OK) return err;
	/* its spacing: the shortest edge; its particles' contact radius half of it, so neighbours touch at rest and the
	   particles of two balloons (or a balloon and a cloth) cannot pass between each other's */
	float shortest = INFINITY;
	for (int32_t i = 0; i < 3 * nt; ++i) {
		const float *a = v + 3 * idx[i], *b = v + 3 * idx[i % 3 == 2 ? i - 2 : i + 1];
		const float d = sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
		shortest = d < shortest ? d : shortest;
	}

	const int32_t first = w->particleCount, object = w->objectCount;
	pbdObjectInfo* info = pbd_Builder_BeginObject(w, PBD_OBJECT_INFLATABLE);
	w->objectSpacing[object] = shortest;
	w->materials[object].radius = 0.5f * shortest;
	const float invMass = 1.0f / def->mass;
	for (int32_t i = 0; i < nv; ++i) pbd_Builder_AddParticle(w, v[3 * i], v[3 * i + 1], v[3 * i + 2], invMass);
	uint32_t* tris = w->triangles + 3 * (size_t)w->triangleCount;
	for (int32_t i = 0; i < 3 * nt; ++i) tris[i] = idx[i] + (uint32_t)first;
	w->triangleCount += nt;
	info->triangleCount = nt;

	/* The edges from the world's triangles (the scratch is the colouring's once a group ends): each edge once, from
	   its triangle that runs it from the lower index; its bend across it, between the two opposite corners. */
	for (int kind = 0; kind < 2; ++kind) {
		pbdPool adj = { pbd_Scratch_Take(w, pbdScratch_none), w->scratchBytes, 0 };
		int32_t* start = pbd_PoolAlloc(&adj, (size_t)nv + 1u, sizeof(int32_t));
		int32_t* list = pbd_PoolAlloc(&adj, 3 * (size_t)nt, sizeof(int32_t));
		Adjacency(tris, nt, nv, (uint32_t)first, start, list);
		pbd_Distance_BeginGroup(w, kind == 0 ? pbdKind_stretch : pbdKind_bend, object);
		for (int32_t i = 0; i < 3 * nt; ++i) {
			const uint32_t a = tris[i], b = tris[i % 3 == 2 ? i - 2 : i + 1];
			if (a > b) continue;
			if (kind == 0) pbd_Distance_Add(w, (int32_t)a, (int32_t)b);
			else pbd_Distance_Add(w, (int32_t)tris[i % 3 == 0 ? i + 2 : i - 1], (int32_t)Opposite(tris, start, list, (uint32_t)first, a, b));
		}
		pbd_Distance_EndGroup(w, 1, first, nv);
	}
	pbd_Builder_EndObject(w);
	pbd_Inflatables_Add(w, object, def->pressure, def->stiffness);
	return first;
}
