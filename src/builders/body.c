/* builders/body.c -- soft and rigid bodies (docs/api.md): pbd_DefaultBodyDef,
   pbd_BodyCounts and pbd_World_AddBody.

   A soft body is its particles, its tets' edges (distance family, kind pbdKind_edge, one group
   coloured for the 4-wide solver) and its tets' signed volumes (volume family); a rigid body is
   its particles held by shape matching (shapes family). Both have a skin (builders/skin.h).
   Like every builder (builder.h) it validates everything first and mutates last, in three
   stages of a plan (body.h) that pbd_BodyCounts shares, so both give the same counts and the
   same messages:
     PlanDef     the def's numbers and counts; box and ball lattices (no memory)
     PlanMesh    a given surface (which cells are inside: ray parity when it is closed and
                 oriented, else the generalized winding number) or tet mesh
                 (orientation, edges, boundary): memory from the world's scratch, or a
                 temporary block for pbd_BodyCounts
     PlanCounts  counts, the particle radius and mass, every particle within the world bound
   then the room checks, then Build. */
#include "builders/body.h"
#include "builders/builder.h"
#include "builders/skin.h"
#include "builders/surface.h"
#include "families/distance.h"
#include "families/shapes.h"
#include "families/volume.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pbd_BodyFail(pbdBodyError* e, int code, const char* fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, args);
	va_end(args);
	e->code = code;
	return code;
}

pbdBodyDef pbd_DefaultBodyDef(void)
{
	pbdBodyDef def;
	memset(&def, 0, sizeof def);
	def.type = PBD_OBJECT_SOFT;
	def.shape = pbdBodyShape_box;
	def.rotation[3] = 1.0f;
	def.halfExtents[0] = def.halfExtents[1] = def.halfExtents[2] = 0.5f;
	def.radius = 0.5f;
	def.resolution = 4;
	def.mass = 1.0f;
	def.internalValue = PBD_COOKIE;
	return def;
}

/* ---------------------------------------------------------------- the plan */

static int CheckVec(pbdBodyError* e, const float v[3], const char* what)
{
	for (int a = 0; a < 3; ++a) {
		if (!pbd_IsFinite(v[a])) return pbd_BodyFail(e, PBD_ERR_NOT_FINITE, "body %s[%d] is not finite", what, a);
		if (!pbd_IsCoord(v[a])) {
			return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body %s[%d] must be within +-%g, got %g", what, a, (double)PBD_COORD_LIMIT,
								(double)v[a]);
		}
	}
	return PBD_OK;
}

/* A size in (0, 1e5]. */
static int CheckSize(pbdBodyError* e, float v, const char* what)
{
	if (!pbd_IsFinite(v)) return pbd_BodyFail(e, PBD_ERR_NOT_FINITE, "body %s is not finite", what);
	if (!(v > 0.0f) || v > PBD_COORD_LIMIT) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body %s must be in (0, %g] m, got %g", what, (double)PBD_COORD_LIMIT, (double)v);
	}
	return PBD_OK;
}

/* (int) of a float known to be in [0, 2^31): floor; its ceiling, less a hair of rounding. */
static int32_t Ceil(float v)
{
	int32_t c = (int32_t)v;
	return (float)c < v ? c + 1 : c;
}

static int PlanDef(const pbdBodyDef* def, pbdBodyPlan* plan, pbdLattice* lat, pbdBodyError* e, size_t* memBytes)
{
	memset(plan, 0, sizeof *plan);
	*memBytes = 0;
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_BodyFail(e, PBD_ERR_BAD_DEF, "use pbd_DefaultBodyDef()");
	plan->def = def;
	plan->lattice = lat;
	if (def->type != PBD_OBJECT_SOFT && def->type != PBD_OBJECT_RIGID) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body type must be PBD_OBJECT_SOFT (%d) or PBD_OBJECT_RIGID (%d), got %d",
							PBD_OBJECT_SOFT, PBD_OBJECT_RIGID, def->type);
	}
	if (def->shape < 0 || def->shape >= pbdBodyShape_count) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body shape must be 0..3 (box, ball, tets, surface), got %d", def->shape);
	}
	int err;
	if ((err = CheckVec(e, def->position, "position")) != PBD_OK) return err;
	if ((err = CheckVec(e, def->velocity, "velocity")) != PBD_OK) return err;
	float n2 = 0.0f;
	for (int k = 0; k < 4; ++k) {
		if (!pbd_IsFinite(def->rotation[k]) || !(fabsf(def->rotation[k]) <= 1e6f)) {
			return pbd_BodyFail(e, PBD_ERR_NOT_FINITE, "body rotation[%d] is not a finite number of at most 1e6", k);
		}
		n2 += def->rotation[k] * def->rotation[k];
	}
	if (!(n2 >= 1e-12f)) return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body rotation is not a rotation: its quaternion has zero length");
	const float n = sqrtf(n2);
	for (int k = 0; k < 4; ++k) plan->q[k] = def->rotation[k] / n;
	if (!pbd_IsFinite(def->mass) || def->mass < 1e-6f || def->mass > 1e6f) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body mass must be in [1e-6, 1e6] kg, got %g", (double)def->mass);
	}
	if (!pbd_IsFinite(def->particleRadius) || def->particleRadius < 0.0f || def->particleRadius > 1.0f) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body particleRadius must be in [0, 1] m (0: half the lattice spacing), got %g",
							(double)def->particleRadius);
	}
	const int32_t res = def->resolution;
	if (def->shape != pbdBodyShape_tets && (res < 1 || res > PBD_BODY_MAX_RESOLUTION)) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body resolution must be in [1, %d], got %d", PBD_BODY_MAX_RESOLUTION, res);
	}
	switch (def->shape) {
	case pbdBodyShape_box: {
		static const char* const names[3] = { "halfExtents[0]", "halfExtents[1]", "halfExtents[2]" };
		for (int a = 0; a < 3; ++a) {
			if ((err = CheckSize(e, def->halfExtents[a], names[a])) != PBD_OK) return err;
		}
		/* cells as near cubic as the box allows: resolution along the longest side, the others in
		   proportion, each side cut evenly so the particles lie on the box's faces */
		float hmax = def->halfExtents[0];
		for (int a = 1; a < 3; ++a) hmax = def->halfExtents[a] > hmax ? def->halfExtents[a] : hmax;
		int32_t cells[3];
		float origin[3], spacing[3];
		for (int a = 0; a < 3; ++a) {
			cells[a] = (int32_t)((float)res * (def->halfExtents[a] / hmax) + 0.5f);
			cells[a] = cells[a] < 1 ? 1 : cells[a];
			origin[a] = -def->halfExtents[a];
			spacing[a] = 2.0f * def->halfExtents[a] / (float)cells[a];
		}
		pbd_Lattice_Init(lat, cells, origin, spacing);
		pbd_Lattice_Box(lat);
		pbd_Lattice_Finish(lat);
		return PBD_OK;
	}
	case pbdBodyShape_ball: {
		if ((err = CheckSize(e, def->radius, "radius")) != PBD_OK) return err;
		const int32_t cells[3] = { res, res, res };
		const float r = def->radius, s = 2.0f * r / (float)res;
		const float origin[3] = { -r, -r, -r }, spacing[3] = { s, s, s };
		pbd_Lattice_Init(lat, cells, origin, spacing);
		pbd_Lattice_Ball(lat, r);
		pbd_Lattice_Finish(lat);
		return PBD_OK;
	}
	case pbdBodyShape_surface:
		if (def->indexCount % 3 != 0) {
			return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "surface indexCount %d is not 3 per triangle", def->indexCount);
		}
		plan->primitives = def->indexCount / 3;
		if ((err = pbd_Surface_CheckInput(def->vertices, def->vertexCount, def->indices, plan->primitives, e)) != PBD_OK) return err;
		*memBytes = pbd_Surface_Bytes(def->vertexCount, plan->primitives);
		return PBD_OK;
	default: /* tets */
		if (def->indexCount % 4 != 0) {
			return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "tets indexCount %d is not 4 per tet", def->indexCount);
		}
		plan->primitives = def->indexCount / 4;
		if ((err = pbd_TetMesh_CheckInput(def->vertices, def->vertexCount, def->indices, plan->primitives, e)) != PBD_OK) return err;
		*memBytes = pbd_TetMesh_Bytes(def->vertexCount, plan->primitives);
		return PBD_OK;
	}
}

/* After the fill: the lattice's corners and counts, and the refusal of one without a cell. */
static int SurfaceFilled(pbdBodyPlan* plan, const pbdSurface* s, const float lo[3], const float hi[3], float longest, pbdBodyError* e)
{
	const pbdBodyDef* def = plan->def;
	pbd_Lattice_Finish(plan->lattice);
	if (plan->lattice->cellCount == 0) {
		/* A drawing rather than a solid (a planar triangulation, as some test models are): the volume the surface
		   encloses (the divergence theorem: the sum of the triangles' signed tetrahedra with the origin) is next to
		   none at any resolution, so say that instead of asking for a finer lattice. */
		double volume = 0.0;
		for (int32_t t = 0; t < plan->primitives; ++t) {
			const float* a = def->vertices + 3 * def->indices[3 * t];
			const float* b = def->vertices + 3 * def->indices[3 * t + 1];
			const float* c = def->vertices + 3 * def->indices[3 * t + 2];
			volume += ((double)a[0] * ((double)b[1] * c[2] - (double)b[2] * c[1]) + (double)a[1] * ((double)b[2] * c[0] - (double)b[0] * c[2]) +
					   (double)a[2] * ((double)b[0] * c[1] - (double)b[1] * c[0])) / 6.0;
		}
		const double box = (double)longest * longest * longest;
		if (fabs(volume) <= 1e-6 * box) {
			return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT,
								"the surface encloses no volume (its box is %g x %g x %g): a flat drawing, not a solid",
								(double)(hi[0] - lo[0]), (double)(hi[1] - lo[1]), (double)(hi[2] - lo[2]));
		}
		if (s->closed) {
			return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT,
								"no lattice cell has its centre inside the surface at resolution %d: raise the resolution", def->resolution);
		}
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT,
							"no lattice cell has its centre inside the surface (winding number >= 0.5) at resolution %d: raise the "
							"resolution, or wind the triangles counter-clockwise seen from outside",
							def->resolution);
	}
	return PBD_OK;
}


/* A given surface's lattice, empty: resolution cells along the longest side of its bounds, cubic
   cells, centred on the bounds. Returns the longest side. */
static float SurfaceLattice(pbdBodyPlan* plan, float lo[3], float hi[3])
{
	const pbdBodyDef* def = plan->def;
	for (int a = 0; a < 3; ++a) lo[a] = hi[a] = def->vertices[a];
	for (int32_t i = 1; i < def->vertexCount; ++i) {
		for (int a = 0; a < 3; ++a) {
			const float c = def->vertices[3 * i + a];
			lo[a] = c < lo[a] ? c : lo[a];
			hi[a] = c > hi[a] ? c : hi[a];
		}
	}
	float longest = 0.0f;
	for (int a = 0; a < 3; ++a) longest = hi[a] - lo[a] > longest ? hi[a] - lo[a] : longest;
	const float s = longest / (float)def->resolution;
	int32_t cells[3];
	float origin[3];
	const float spacing[3] = { s, s, s };
	for (int a = 0; a < 3; ++a) {
		cells[a] = Ceil((hi[a] - lo[a]) / s - 1e-4f);
		cells[a] = cells[a] < 1 ? 1 : cells[a] > PBD_LATTICE_MAX ? PBD_LATTICE_MAX : cells[a];
		origin[a] = 0.5f * (lo[a] + hi[a]) - 0.5f * (float)cells[a] * s;
	}
	pbd_Lattice_Init(plan->lattice, cells, origin, spacing);
	return longest;
}

/* The cells of a surface's lattice given (pbdBodyDef.cells, as pbd_BodyFill wrote them): each row's bits past the
   lattice's width dropped, so any bits make some lattice of cells (an empty one is refused after). */
static void CopyCells(pbdLattice* lat, const uint64_t* cells)
{
	const uint64_t width = lat->n[0] >= 64 ? ~0ull : (1ull << lat->n[0]) - 1u;
	for (int32_t k = 0; k < lat->n[2]; ++k) {
		for (int32_t j = 0; j < lat->n[1]; ++j) lat->cell[j + PBD_LATTICE_MAX * k] = cells[j + PBD_LATTICE_MAX * k] & width;
	}
}

/* A given surface's lattice: the cells whose centre is inside (pbd_Surface_Fill), or those given in def->cells. */
static int PlanSurface(pbdBodyPlan* plan, void* mem, size_t memBytes, pbdBodyError* e)
{
	const pbdBodyDef* def = plan->def;
	pbdSurface surface;
	int err = pbd_Surface_Prepare(&surface, def->vertices, def->vertexCount, def->indices, plan->primitives, mem, memBytes, e);
	if (err != PBD_OK) return err;
	float lo[3], hi[3];
	const float longest = SurfaceLattice(plan, lo, hi);
	if (def->cells != NULL) CopyCells(plan->lattice, def->cells);
	else pbd_Surface_Fill(&surface, plan->lattice);
	return SurfaceFilled(plan, &surface, lo, hi, longest, e);
}

/* A given tet mesh: its vertices in the world (the particles), then its orientation and counts. */
static int PlanTets(pbdBodyPlan* plan, void* mem, pbdBodyError* e)
{
	const pbdBodyDef* def = plan->def;
	pbdTetMesh* m = &plan->mesh;
	pbd_TetMesh_Init(m, mem, def->vertexCount, def->indices, plan->primitives);
	for (int32_t v = 0; v < def->vertexCount; ++v) {
		float* x = m->x + 3 * v;
		pbd_BodyPoint(plan, def->vertices + 3 * v, x);
		if (!pbd_IsCoord(x[0]) || !pbd_IsCoord(x[1]) || !pbd_IsCoord(x[2])) {
			return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "tet vertex %d lands beyond +-%g", v, (double)PBD_COORD_LIMIT);
		}
	}
	return pbd_TetMesh_Build(m, e);
}

static int PlanMesh(pbdBodyPlan* plan, void* mem, size_t memBytes, pbdBodyError* e)
{
	return plan->def->shape == pbdBodyShape_surface ? PlanSurface(plan, mem, memBytes, e) : PlanTets(plan, mem, e);
}

/* A lattice's spacing against float32's resolution where the body sits. Every coordinate the step writes is
   rounded to a float step, ulp(c) <= FLT_EPSILON |c|, so an edge of length s between two particles whose largest
   coordinate is |x| is known to FLT_EPSILON |x| / s of strain at best, and a tet's volume (three edges) to about three
   times that. PBD_BODY_MIN_SPACING_STEPS = 2^10 float steps to a spacing keeps that rounding at 0.1% of strain,
   the volume the volume family holds a resting body to (docs/physics.md); fewer, and the rounding of every write is
   a strain the constraints chase: a 1 um cube at y = 1 (a spacing of two float steps) ends with every tet inverted
   and no volume. The bound scales with the distance from the origin (a 1 um body at the origin is as fine as a
   1 m one at 1e6 um), and it also keeps every lattice tet of positive volume in float (1024 steps against 0). */
#define PBD_BODY_MIN_SPACING_STEPS 1024.0f

static int CheckSpacing(const pbdLattice* lat, float farthest, pbdBodyError* e)
{
	float s = lat->spacing[0];
	for (int a = 1; a < 3; ++a) s = lat->spacing[a] < s ? lat->spacing[a] : s;
	const float least = PBD_BODY_MIN_SPACING_STEPS * FLT_EPSILON * farthest;
	if (s >= least) return PBD_OK;
	return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT,
						"the body's lattice spacing %g m is too small for float precision where it is (%g m from the origin "
						"on an axis): at least %g m there (%g float steps); lower the resolution, make the body larger or "
						"move it nearer the origin",
						(double)s, (double)farthest, (double)least, (double)PBD_BODY_MIN_SPACING_STEPS);
}

static int PlanCounts(pbdBodyPlan* plan, pbdBodyError* e)
{
	const pbdBodyDef* def = plan->def;
	int err;
	const pbdLattice* lat = plan->lattice;
	const int soft = def->type == PBD_OBJECT_SOFT;
	pbdBodyCounts* c = &plan->counts;
	float radius;
	if (def->shape == pbdBodyShape_tets) {
		c->particles = def->vertexCount;
		c->edges = soft ? plan->mesh.edgeCount : 0;
		c->tets = soft ? plan->primitives : 0;
		radius = 0.5f * plan->mesh.shortestEdge;
	} else {
		c->particles = lat->cornerCount;
		c->edges = soft ? lat->edgeCount : 0;
		c->tets = soft ? 6 * lat->cellCount : 0;
		radius = lat->spacing[0];
		for (int a = 1; a < 3; ++a) radius = lat->spacing[a] < radius ? lat->spacing[a] : radius;
		radius *= 0.5f;
		/* every particle within the world bound, computed as Build will place it; the largest coordinate */
		float farthest = 0.0f;
		for (int32_t k = 0; k <= lat->n[2]; ++k) {
			for (int32_t j = 0; j <= lat->n[1]; ++j) {
				for (uint64_t row = lat->corner[j + (PBD_LATTICE_MAX + 1) * k]; row != 0; row &= row - 1u) {
					float local[3], x[3];
					pbd_Lattice_CornerPosition(lat, __builtin_ctzll(row), j, k, local);
					pbd_BodyPoint(plan, local, x);
					if (!pbd_IsCoord(x[0]) || !pbd_IsCoord(x[1]) || !pbd_IsCoord(x[2])) {
						return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "the body reaches beyond +-%g", (double)PBD_COORD_LIMIT);
					}
					for (int a = 0; a < 3; ++a) farthest = fabsf(x[a]) > farthest ? fabsf(x[a]) : farthest;
				}
			}
		}
		if ((err = CheckSpacing(lat, farthest, e)) != PBD_OK) return err;
	}
	pbd_BodySkin_Counts(plan, &c->skinVertices, &c->skinTriangles);
	/* a given radius reaches at most PBD_MAX_RADIUS_SPACINGS spacings (minipbd.h), the default is half of one */
	plan->spacing = 2.0f * radius;
	if (def->particleRadius > 0.0f && !(def->particleRadius <= PBD_MAX_RADIUS_SPACINGS * plan->spacing)) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT,
							"body particleRadius %g m is over %g x the %g m of its %s: at most %g m (a contact radius reaches "
							"at most %g particle spacings)",
							(double)def->particleRadius, (double)PBD_MAX_RADIUS_SPACINGS, (double)plan->spacing,
							def->shape == pbdBodyShape_tets ? "shortest edge" : "lattice spacing",
							(double)(PBD_MAX_RADIUS_SPACINGS * plan->spacing), (double)PBD_MAX_RADIUS_SPACINGS);
	}
	if (def->particleRadius > 0.0f) radius = def->particleRadius;
	else if (!(radius > 0.0f) || radius > 1.0f) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT,
							"the particle radius would be %g m (half the %s), outside (0, 1]: set particleRadius or change the resolution",
							(double)radius, def->shape == pbdBodyShape_tets ? "shortest edge" : "lattice spacing");
	}
	plan->radius = radius;
	plan->particleMass = def->mass / (float)c->particles;
	if (!(plan->particleMass >= 1e-6f) || plan->particleMass > 1e6f) {
		return pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "body mass %g over %d particles is %g kg each, outside [1e-6, 1e6]",
							(double)def->mass, c->particles, (double)plan->particleMass);
	}
	return PBD_OK;
}

/* ---------------------------------------------------------------- building */

static void AddEdge(void* world, int32_t a, int32_t b) { pbd_Distance_Add(world, a, b); }

static void Build(pbdWorld* w, pbdBodyPlan* plan)
{
	const pbdBodyDef* def = plan->def;
	const int soft = def->type == PBD_OBJECT_SOFT;
	const int32_t first = w->particleCount, object = w->objectCount, n = plan->counts.particles;
	const int32_t firstSkinVertex = pbd_Skin_VertexCount(w), firstSkinTriangle = pbd_Skin_TriangleCount(w);
	const pbdLattice* lat = plan->lattice;
	pbdObjectInfo* info = pbd_Builder_BeginObject(w, def->type);
	const float invMass = 1.0f / plan->particleMass;
	if (def->shape == pbdBodyShape_tets) {
		for (int32_t v = 0; v < n; ++v) pbd_Builder_AddParticle(w, plan->mesh.x[3 * v], plan->mesh.x[3 * v + 1], plan->mesh.x[3 * v + 2], invMass);
	} else {
		for (int32_t k = 0; k <= lat->n[2]; ++k) {
			for (int32_t j = 0; j <= lat->n[1]; ++j) {
				for (uint64_t row = lat->corner[j + (PBD_LATTICE_MAX + 1) * k]; row != 0; row &= row - 1u) {
					float local[3], x[3];
					pbd_Lattice_CornerPosition(lat, __builtin_ctzll(row), j, k, local);
					pbd_BodyPoint(plan, local, x);
					pbd_Builder_AddParticle(w, x[0], x[1], x[2], invMass);
				}
			}
		}
	}
	PBD_ASSERT(w->particleCount == first + n);
	for (int32_t i = first; i < first + n; ++i) {
		memcpy(w->v + 4 * i, def->velocity, 3 * sizeof(float));
		w->phase[i] &= ~PBD_PHASE_SELF; /* no self-collision inside a body */
	}
	w->materials[object].radius = plan->radius;
	w->objectSpacing[object] = plan->spacing;
	pbd_BodySkin_Build(w, plan, first); /* before the edges' colouring: a tet mesh's adjacency lives in the scratch */
	int32_t* tets = NULL;
	if (soft) {
		int32_t capacity;
		tets = pbd_Skin_TetBuffer(w, &capacity);
		PBD_ASSERT(plan->counts.tets <= capacity);
		if (def->shape == pbdBodyShape_tets) {
			for (int32_t t = 0; t < plan->primitives; ++t) {
				int32_t q[4];
				pbd_TetMesh_Tet(&plan->mesh, t, q);
				for (int k = 0; k < 4; ++k) tets[4 * t + k] = first + q[k];
			}
		} else {
			pbd_Lattice_Tets(lat, first, tets);
		}
		pbd_Distance_BeginGroup(w, pbdKind_edge, object);
		if (def->shape == pbdBodyShape_tets) pbd_TetMesh_Edges(&plan->mesh, first, AddEdge, w);
		else pbd_Lattice_Edges(lat, first, AddEdge, w);
		pbd_Distance_EndGroup(w, 1, first, n);
	}
	info->resolutionU = def->shape == pbdBodyShape_tets ? 0 : def->resolution;
	info->firstSkinVertex = firstSkinVertex;
	info->skinVertexCount = pbd_Skin_VertexCount(w) - firstSkinVertex;
	info->firstSkinTriangle = firstSkinTriangle;
	info->skinTriangleCount = pbd_Skin_TriangleCount(w) - firstSkinTriangle;
	PBD_ASSERT(info->skinVertexCount == plan->counts.skinVertices && info->skinTriangleCount == plan->counts.skinTriangles);
	pbd_Builder_EndObject(w);
	PBD_ASSERT(info->constraintCount == plan->counts.edges);
	if (soft) {
		info->firstTet = pbd_Volume_Count(w);
		pbd_Volume_AddTets(w, object, tets, plan->counts.tets, first, n, def->shape != pbdBodyShape_tets);
		info->tetCount = plan->counts.tets;
	} else {
		pbd_Shapes_Add(w, object, first, n);
	}
}

/* ---------------------------------------------------------------- entry points */

int pbd_BodyCounts(const pbdBodyDef* def, pbdBodyCounts* counts)
{
	if (counts == NULL) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "counts is NULL");
	memset(counts, 0, sizeof *counts);
	pbdLattice lattice;
	pbdBodyPlan plan;
	pbdBodyError e;
	size_t bytes;
	int err = PlanDef(def, &plan, &lattice, &e, &bytes);
	void* mem = NULL;
	if (err == PBD_OK && bytes > 0) {
		/* the one temporary block of the core outside a world's pool: a world-less count of a mesh */
		mem = malloc(bytes);
		err = mem == NULL ? pbd_BodyFail(&e, PBD_ERR_OUT_OF_MEMORY, "%lu bytes to check the mesh", (unsigned long)bytes)
						  : PlanMesh(&plan, mem, bytes, &e);
	}
	if (err == PBD_OK) err = PlanCounts(&plan, &e);
	free(mem);
	if (err != PBD_OK) return pbd_SetError(e.code, "%s", e.text);
	*counts = plan.counts;
	return PBD_OK;
}

/* ---------------------------------------------------------------- a surface's fill in parts */

struct pbdBodyFill {
	pbdBodyDef def; /* a copy, its arrays the caller's */
	pbdBodyPlan plan;
	pbdLattice lattice;
	pbdSurface surface;
	int32_t row, rows; /* the next row j + n1 k of the winding number's fill, and how many */
	uint64_t mem[];    /* the surface's: pbd_Surface_Bytes */
};
_Static_assert(PBD_BODY_FILL_ROWS == PBD_LATTICE_CELL_ROWS, "pbd_BodyFill_Cells hands out the lattice's rows");

/* A fill's bytes, or 0 and why in *e. */
static size_t FillBytes(const pbdBodyDef* def, pbdBodyError* e)
{
	pbdLattice lattice;
	pbdBodyPlan plan;
	size_t bytes;
	if (PlanDef(def, &plan, &lattice, e, &bytes) != PBD_OK) return 0;
	if (def->shape != pbdBodyShape_surface) {
		pbd_BodyFail(e, PBD_ERR_INVALID_ARGUMENT, "only a surface body (shape %d) has cells to fill, got shape %d", pbdBodyShape_surface,
					 def->shape);
		return 0;
	}
	return sizeof(pbdBodyFill) + ((bytes + 7u) & ~(size_t)7u);
}

int pbd_BodyFill_Bytes(const pbdBodyDef* def)
{
	pbdBodyError e;
	const size_t bytes = FillBytes(def, &e);
	return bytes == 0 ? pbd_SetError(e.code, "%s", e.text) : (int)bytes;
}

int pbd_BodyFill_Begin(pbdBodyFill* f, int bytes, const pbdBodyDef* def)
{
	pbdBodyError e;
	const size_t need = FillBytes(def, &e);
	if (need == 0) return pbd_SetError(e.code, "%s", e.text);
	if (f == NULL || bytes < 0 || (size_t)bytes < need) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "the fill needs %lu bytes, given %d", (unsigned long)need, bytes);
	}
	memset(f, 0, sizeof *f);
	f->def = *def;
	f->def.cells = NULL;
	size_t meshBytes;
	int err = PlanDef(&f->def, &f->plan, &f->lattice, &e, &meshBytes);
	if (err == PBD_OK) err = pbd_Surface_Prepare(&f->surface, def->vertices, def->vertexCount, def->indices, f->plan.primitives, f->mem, meshBytes, &e);
	if (err != PBD_OK) return pbd_SetError(e.code, "%s", e.text);
	float lo[3], hi[3];
	SurfaceLattice(&f->plan, lo, hi);
	if (f->surface.closed) {
		pbd_Surface_Fill(&f->surface, &f->lattice);
		f->row = f->rows = 0;
	} else {
		f->row = 0;
		f->rows = f->lattice.n[1] * f->lattice.n[2];
	}
	return PBD_OK;
}

int pbd_BodyFill_Run(pbdBodyFill* f, int cells)
{
	if (f == NULL) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "fill is NULL");
	const pbdLattice* lat = &f->lattice;
	for (int32_t tested = 0; f->row < f->rows && tested < cells; ++f->row, tested += lat->n[0]) {
		pbd_Surface_FillWindingRow(&f->surface, &f->lattice, f->row % lat->n[1], f->row / lat->n[1]);
	}
	return f->rows - f->row;
}

const uint64_t* pbd_BodyFill_Cells(const pbdBodyFill* f) { return f != NULL && f->row >= f->rows ? f->lattice.cell : NULL; }

/* Room the mesh check itself needs first: a surface's triangles become skin triangles, a tet
   mesh's vertices particles (and, soft, its tets volume constraints). */
static int RoomBeforeMesh(pbdWorld* w, const pbdBodyPlan* plan)
{
	const pbdBodyDef* def = plan->def;
	if (def->shape == pbdBodyShape_surface) return pbd_Skin_CheckRoom(w, def->vertexCount, plan->primitives);
	int err = pbd_Builder_CheckRoom(w, def->vertexCount, 0, 0, 0);
	if (err == PBD_OK && def->type == PBD_OBJECT_SOFT) err = pbd_Volume_CheckRoom(w, plan->primitives);
	return err;
}

int pbd_World_AddBody(pbdWorldId id, const pbdBodyDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	int err = pbd_CheckNoStep(w, "pbd_World_AddBody");
	if (err != PBD_OK) return err;
	pbdLattice lattice; /* ~48 KB of bit masks: the stack, so that pbd_BodyCounts needs no world */
	pbdBodyPlan plan;
	pbdBodyError e;
	size_t bytes;
	if (PlanDef(def, &plan, &lattice, &e, &bytes) != PBD_OK) return pbd_SetWorldError(w, e.code, "%s", e.text);
	if (bytes > 0) {
		if ((err = RoomBeforeMesh(w, &plan)) != PBD_OK) return err;
		if (bytes > w->scratchBytes) {
			return pbd_SetWorldError(w, PBD_ERR_CONSTRAINT_CAPACITY,
									 "checking this mesh needs %lu bytes of the world's scratch, which has %lu (raise maxTets)",
									 (unsigned long)bytes, (unsigned long)w->scratchBytes);
		}
		if (PlanMesh(&plan, w->scratch, w->scratchBytes, &e) != PBD_OK) return pbd_SetWorldError(w, e.code, "%s", e.text);
	}
	if (PlanCounts(&plan, &e) != PBD_OK) return pbd_SetWorldError(w, e.code, "%s", e.text);
	const pbdBodyCounts* c = &plan.counts;
	if ((err = pbd_Builder_CheckRoom(w, c->particles, c->edges, 0, 0)) != PBD_OK) return err;
	if (def->type == PBD_OBJECT_SOFT && (err = pbd_Volume_CheckRoom(w, c->tets)) != PBD_OK) return err;
	int32_t buffer; /* what the volume family takes fits the skin's tet buffer (skin.c BuildTets), but say so */
	pbd_Skin_TetBuffer(w, &buffer);
	if (c->tets > buffer) {
		return pbd_SetWorldError(w, PBD_ERR_CONSTRAINT_CAPACITY, "needs %d tets, at most %d in one body", c->tets, buffer);
	}
	if (def->type == PBD_OBJECT_RIGID && (err = pbd_Shapes_CheckRoom(w)) != PBD_OK) return err;
	if ((err = pbd_Skin_CheckRoom(w, c->skinVertices, c->skinTriangles)) != PBD_OK) return err;
	const int32_t first = w->particleCount;
	Build(w, &plan);
	return first;
}
