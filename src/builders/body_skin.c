/* builders/body_skin.c -- where each body's skin comes from (docs/architecture.md "Rendering"):
     box      the box at halfExtents + particle radius, flat faces (their own vertices), each
              face cut into the lattice's cells for a soft body, whole for a rigid one;
     ball     a UV sphere of 24 segments x 16 rings at radius + particle radius;
     surface  the given triangles, as given;
     tets     the boundary faces of the tets, over the boundary vertices.
   A soft body's skin vertices are embedded in its lattice's tets (lattice.h pbd_Lattice_Embed)
   or, for given tets, are the particles themselves; a rigid body's keep their rest positions.
   The skin adds the particle radius because the particles are spheres of that radius: the
   surface they collide with lies that far outside their centres. */
#include "builders/body.h"
#include "builders/skin.h"

#include <string.h>

#define BALL_SEGMENTS 24
#define BALL_RINGS 16

/* The box's subdivision: the lattice's cells (soft) or one quad per face (rigid). */
static void BoxCells(const pbdBodyPlan* plan, int32_t m[3])
{
	for (int a = 0; a < 3; ++a) m[a] = plan->def->type == PBD_OBJECT_SOFT ? plan->lattice->n[a] : 1;
}

/* Face (u, v) axes as in lattice.c: u x v along +axis. */
static const int32_t s_u[3] = { 1, 2, 0 }, s_v[3] = { 2, 0, 1 };

void pbd_BodySkin_Counts(const pbdBodyPlan* plan, int32_t* vertices, int32_t* triangles)
{
	switch (plan->def->shape) {
	case pbdBodyShape_box: {
		int32_t m[3];
		BoxCells(plan, m);
		*vertices = *triangles = 0;
		for (int axis = 0; axis < 3; ++axis) {
			const int32_t mu = m[s_u[axis]], mv = m[s_v[axis]];
			*vertices += 2 * (mu + 1) * (mv + 1);
			*triangles += 2 * 2 * mu * mv;
		}
		return;
	}
	case pbdBodyShape_ball:
		*vertices = 2 + (BALL_RINGS - 1) * BALL_SEGMENTS;
		*triangles = 2 * BALL_SEGMENTS * (BALL_RINGS - 1);
		return;
	case pbdBodyShape_surface:
		*vertices = plan->def->vertexCount;
		*triangles = plan->primitives;
		return;
	default:
		*vertices = plan->mesh.boundaryVertexCount;
		*triangles = plan->mesh.faceCount;
		return;
	}
}

/* A skin vertex at local point p of the body's frame: embedded in the soft body's lattice, or
   at its world rest position for a rigid body. */
static void AddVertex(pbdWorld* w, const pbdBodyPlan* plan, int32_t first, const float p[3])
{
	if (plan->def->type == PBD_OBJECT_SOFT) {
		int32_t corner[4];
		float weight[4];
		pbd_Lattice_Embed(plan->lattice, p, corner, weight);
		for (int k = 0; k < 4; ++k) corner[k] += first;
		pbd_Skin_AddEmbedded(w, corner, weight);
	} else {
		float x[3];
		pbd_BodyPoint(plan, p, x);
		pbd_Skin_AddRigid(w, x);
	}
}

static void BoxSkin(pbdWorld* w, const pbdBodyPlan* plan, int32_t first)
{
	const pbdBodyDef* def = plan->def;
	int32_t m[3];
	BoxCells(plan, m);
	const float e[3] = { def->halfExtents[0] + plan->radius, def->halfExtents[1] + plan->radius, def->halfExtents[2] + plan->radius };
	for (int32_t dir = 0; dir < 6; ++dir) {
		const int32_t axis = dir >> 1, plus = dir & 1, u = s_u[axis], v = s_v[axis], mu = m[u], mv = m[v];
		const uint32_t base = (uint32_t)pbd_Skin_VertexCount(w);
		for (int32_t b = 0; b <= mv; ++b) {
			for (int32_t a = 0; a <= mu; ++a) {
				float p[3];
				p[axis] = plus ? e[axis] : -e[axis];
				p[u] = a == mu ? e[u] : -e[u] + 2.0f * e[u] * (float)a / (float)mu;
				p[v] = b == mv ? e[v] : -e[v] + 2.0f * e[v] * (float)b / (float)mv;
				AddVertex(w, plan, first, p);
			}
		}
		/* two triangles per cell of the face, split along the tets' face diagonal (00 -> 11) and
		   wound so the normal points out (lattice.c pbd_Lattice_BoundaryFaces) */
		for (int32_t b = 0; b < mv; ++b) {
			for (int32_t a = 0; a < mu; ++a) {
				const uint32_t q00 = base + (uint32_t)(a + (mu + 1) * b), q10 = q00 + 1u, q01 = q00 + (uint32_t)(mu + 1), q11 = q01 + 1u;
				if (plus) {
					pbd_Skin_AddTriangle(w, q00, q10, q11);
					pbd_Skin_AddTriangle(w, q00, q11, q01);
				} else {
					pbd_Skin_AddTriangle(w, q00, q11, q10);
					pbd_Skin_AddTriangle(w, q00, q01, q11);
				}
			}
		}
	}
}

/* sin and cos of a in [0, 2 pi] by their Taylor series in double: the same bits on every build
   (libm's trigonometry differs between glibc and the wasm libc in the last bit). */
static void SinCos(double a, float* s, float* c)
{
	const double pi = 3.14159265358979323846;
	if (a > pi) a -= 2.0 * pi;
	double term = a, sum = a; /* sin */
	for (int n = 1; n < 16; ++n) {
		term *= -a * a / ((2.0 * n) * (2.0 * n + 1.0));
		sum += term;
	}
	*s = (float)sum;
	term = 1.0, sum = 1.0; /* cos */
	for (int n = 1; n < 16; ++n) {
		term *= -a * a / ((2.0 * n - 1.0) * (2.0 * n));
		sum += term;
	}
	*c = (float)sum;
}

static void BallSkin(pbdWorld* w, const pbdBodyPlan* plan, int32_t first)
{
	const float r = plan->def->radius + plan->radius;
	const double pi = 3.14159265358979323846;
	const uint32_t north = (uint32_t)pbd_Skin_VertexCount(w);
	const float top[3] = { 0.0f, r, 0.0f }, bottom[3] = { 0.0f, -r, 0.0f };
	AddVertex(w, plan, first, top);
	for (int32_t ring = 1; ring < BALL_RINGS; ++ring) {
		float st, ct;
		SinCos(pi * ring / BALL_RINGS, &st, &ct);
		for (int32_t seg = 0; seg < BALL_SEGMENTS; ++seg) {
			float sp, cp;
			SinCos(2.0 * pi * seg / BALL_SEGMENTS, &sp, &cp);
			const float p[3] = { r * st * cp, r * ct, r * st * sp };
			AddVertex(w, plan, first, p);
		}
	}
	AddVertex(w, plan, first, bottom);
	const uint32_t south = north + 1u + (uint32_t)((BALL_RINGS - 1) * BALL_SEGMENTS);
#define RING(ring, seg) (north + 1u + (uint32_t)(((ring) - 1) * BALL_SEGMENTS + (seg) % BALL_SEGMENTS))
	for (int32_t s = 0; s < BALL_SEGMENTS; ++s) pbd_Skin_AddTriangle(w, north, RING(1, s + 1), RING(1, s));
	for (int32_t ring = 1; ring + 1 < BALL_RINGS; ++ring) {
		for (int32_t s = 0; s < BALL_SEGMENTS; ++s) {
			pbd_Skin_AddTriangle(w, RING(ring, s), RING(ring + 1, s + 1), RING(ring + 1, s));
			pbd_Skin_AddTriangle(w, RING(ring, s), RING(ring, s + 1), RING(ring + 1, s + 1));
		}
	}
	for (int32_t s = 0; s < BALL_SEGMENTS; ++s) pbd_Skin_AddTriangle(w, south, RING(BALL_RINGS - 1, s), RING(BALL_RINGS - 1, s + 1));
#undef RING
}

typedef struct FaceCtx {
	pbdWorld* w;
	const int32_t* skinIndex;
	uint32_t base;
} FaceCtx;

static void AddFace(void* user, const int32_t face[3])
{
	const FaceCtx* f = user;
	pbd_Skin_AddTriangle(f->w, f->base + (uint32_t)f->skinIndex[face[0]], f->base + (uint32_t)f->skinIndex[face[1]],
						 f->base + (uint32_t)f->skinIndex[face[2]]);
}

static void TetSkin(pbdWorld* w, const pbdBodyPlan* plan, int32_t first)
{
	const pbdTetMesh* m = &plan->mesh;
	FaceCtx ctx = { w, m->skinIndex, (uint32_t)pbd_Skin_VertexCount(w) };
	for (int32_t v = 0; v < m->vertexCount; ++v) {
		if (m->skinIndex[v] < 0) continue;
		if (plan->def->type == PBD_OBJECT_SOFT) {
			/* the vertex is a particle: all its weight on it */
			const int32_t particle[4] = { first + v, first + v, first + v, first + v };
			const float weight[4] = { 1.0f, 0.0f, 0.0f, 0.0f };
			pbd_Skin_AddEmbedded(w, particle, weight);
		} else {
			pbd_Skin_AddRigid(w, m->x + 3 * v);
		}
	}
	pbd_TetMesh_Faces(m, AddFace, &ctx);
}

void pbd_BodySkin_Build(pbdWorld* w, const pbdBodyPlan* plan, int32_t first)
{
	const pbdBodyDef* def = plan->def;
	switch (def->shape) {
	case pbdBodyShape_box: BoxSkin(w, plan, first); return;
	case pbdBodyShape_ball: BallSkin(w, plan, first); return;
	case pbdBodyShape_surface: {
		const uint32_t base = (uint32_t)pbd_Skin_VertexCount(w);
		for (int32_t v = 0; v < def->vertexCount; ++v) AddVertex(w, plan, first, def->vertices + 3 * v);
		for (int32_t t = 0; t < plan->primitives; ++t) {
			const uint32_t* tri = def->indices + 3 * t;
			pbd_Skin_AddTriangle(w, base + tri[0], base + tri[1], base + tri[2]);
		}
		return;
	}
	default: TetSkin(w, plan, first); return;
	}
}
