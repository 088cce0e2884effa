/* families/shapes.c -- shape-matched bodies (Mueller, Heidelberger, Teschner and Gross 2005,
   "Meshless deformations based on shape matching"): the rigid bodies, and softer
   ones at stiffness below 1.

   A body is a range of one object's particles with rest positions x0_i (where they were when
   the body was added). Each pass, for the predicted positions p_i with weights m_i:
       c = sum m_i p_i / M,   A_pq = sum m_i (p_i - c) q_i^T,   q_i = x0_i - c0,
   R = the rotation of A_pq (families/rotation.c, Mueller et al. 2016, warm-started from the
   body's last rotation), and every particle moves toward its goal g_i = c + R q_i:
       p_i += k' (g_i - p_i),  k' = 1 - (1 - k)^(1/ns)  (seed 000 section 2.2),
   so k = 1 puts the body exactly in its rest shape at the best-fitting place and turn. R is the
   rotation that minimises sum m_i |c + R q_i - p_i|^2, so the goals keep the particles' linear
   momentum (sum m_i (g_i - p_i) = 0) and, as R^T A_pq is then symmetric, their angular momentum
   about c: the constraint is internal to the body. It is one constraint over the whole body
   (Mueller 2005's shape matching), not one per particle: a body is one item of the family's one
   colour, and bodies share no particle, so any range of bodies may be solved on its own.

   Pins. A particle with w = 0 does not move, and the fit should follow it: pinned particles
   weigh PBD_SHAPES_PIN_WEIGHT (1000) times the body's mean free particle in c and A_pq, large
   but finite, so a body pinned at one point turns about it and one pinned along a line turns
   about that line (its free particles then set the turn about it), with no 1/0 and no special
   case. A body without a free particle is fitted (its transform follows) but moves nothing.

   Registry place: after the pointer and the fluid, so their pushes reach the whole body in the
   same pass, and before the particle contacts, the colliders and the ground, so that no particle
   ends a pass inside another or below the ground, and a contact's friction is not shared out
   over the body by the fit (family.h: a box on a box crept down any slope); a contact's push
   reaches the rest of the body at the next pass's fit. Also here: the rigid predictor (the forces hook), the
   mass scaling of stacked bodies for the contacts (findContacts) and plasticity (the update
   hook), in shapes_motion.c; the error hook (the heat map); each particle's surface normal,
   layer and lattice faces for the contacts (shapes_sdf.c, built at the start of the body's first step); the
   rest data and the fit both the solve and the motion use (shapes_rest.c).

   Degenerate bodies are safe: a point (one particle, or all coincident) has A_pq = 0, keeps
   its rotation, and its goals are c; two particles or a line leave the turn about the line as
   it was (rotation.c). Nothing divides by a quantity that can be 0 (M >= the pins' weight > 0). */
#include "families/shapes_state.h"
#include "base/tasks.h"
#include "families/rotation.h"

#include <math.h>
#include <string.h>

static pbdShapes* State(const pbdWorld* w) { return pbd_ShapesState(w); }

/* ---------------------------------------------------------------- family */

static size_t Shapes_Bytes(const pbdCapacity* cap)
{
	const size_t O = (size_t)cap->maxObjects, P = (size_t)cap->maxParticles;
	return pbd_PoolBytes(1, sizeof(pbdShapes)) + pbd_PoolBytes(O, sizeof(pbdBody)) + pbd_PoolBytes(O, sizeof(pbdSurfaceFrame)) +
		   pbd_PoolBytes(O, sizeof(int32_t)) +
		   3 * pbd_PoolBytes(P, 4 * sizeof(float)) + pbd_PoolBytes(P, 1);
}

static size_t Shapes_ScratchBytes(const pbdCapacity* cap) { return pbd_Shapes_SdfScratchBytes(cap->maxParticles); }

static void* Shapes_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	const size_t O = (size_t)cap->maxObjects, P = (size_t)cap->maxParticles;
	pbdShapes* s = pbd_PoolAlloc(pool, 1, sizeof(pbdShapes));
	if (s == NULL) return NULL;
	s->bodies = pbd_PoolAlloc(pool, O, sizeof(pbdBody));
	s->frames = pbd_PoolAlloc(pool, O, sizeof(pbdSurfaceFrame));
	s->bodyOf = pbd_PoolAlloc(pool, O, sizeof(int32_t));
	s->rest = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	s->offset = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	s->normal = pbd_PoolAlloc(pool, P, 4 * sizeof(float));
	s->faces = pbd_PoolAlloc(pool, P, 1);
	s->capacity = cap->maxObjects;
	if (s->faces == NULL) return NULL;
	/* the bodies' contact normals, as data for the particle contacts (services/surfaces.h) */
	s->normals = (pbdNormalSource){ s->bodyOf, s->frames, s->normal, s->faces, s->capacity };
	w->normals = &s->normals;
	return s;
}

static void Shapes_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdShapes* s = state;
	if (s->massVersion != w->massVersion) {
		for (int32_t k = 0; k < s->count; ++k) pbd_Shapes_Refresh(w, s, &s->bodies[k]);
		s->massVersion = w->massVersion;
	}
	for (int32_t k = 0; k < s->count; ++k) {
		pbdBody* b = &s->bodies[k];
		memcpy(b->startQ, b->q, sizeof b->q);
		memcpy(b->startC, b->c, sizeof b->c);
		b->k = pbd_PassStiffness(b->stiffness, ctx->passes);
		b->rigid = b->stiffness >= 1.0f && b->pins == 0 && b->count >= 2;
	}
}

/* The step's start in slice units (family.h startUnit): first the rest normals of the bodies added since
   the last step (shapes_sdf.c: a neighbour search over each body, ~0.1 s natively for 48^3 cells, cut into units
   of about PBD_SLICE_WORK candidates), then Shapes_PrepareStep, in the unit that finishes them. */
static int Shapes_PrepareStepUnit(pbdWorld* w, void* state, const pbdStepContext* ctx, int whole)
{
	pbdShapes* s = state;
	int64_t work = 0;
	const int done = pbd_Shapes_NormalsUnit(w, s, whole ? INT64_MAX : w->sliceBudget, &work);
	w->sliceWork = work;
	if (!done) return 0;
	Shapes_PrepareStep(w, s, ctx);
	return 1;
}

/* Units of the step's start: those of the normals left (about 600 candidates a particle: the spacing's search
   within twice the spacing, then four passes within 1.5 of it), and 1. */
static int32_t Shapes_UnitsLeft(const pbdWorld* w, const void* state, int32_t stage, int begun)
{
	const pbdShapes* s = state;
	(void)begun;
	if (stage != pbdStage_start) return 1;
	int64_t particles = 0;
	for (int32_t k = s->job.body; k < s->count; ++k) particles += s->bodies[k].count;
	const int64_t units = particles * 600 / (w->sliceBudget > 0 ? w->sliceBudget : PBD_SLICE_WORK);
	return (int32_t)(units < 1 ? 1 : units > INT32_MAX ? INT32_MAX : units);
}

/* One shape-matching constraint per rigid body. */
static int32_t Shapes_Count(const pbdWorld* w, const void* state) { return ((const pbdShapes*)state)->count; }

static int32_t Shapes_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdShapes*)state)->count > 0; }

static int32_t Shapes_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 0; /* bodies share no particle */
	return ((const pbdShapes*)state)->count;
}

/* The goals g_i = c + R q_i, summed in double from the unrounded centre and rounded per
   particle, for the same reason as the fit's double: rounding c to float first would move the
   whole body by c's rounding, up to half an ulp of its coordinates, every pass, which the
   velocity update turns into momentum (per-particle rounding, independent from particle to
   particle, averages away), and float products would break a symmetric body's symmetry.
   p.w (the weight) is kept; a pin (w = 0) stays. */
static void SolveBody(pbdWorld* w, const pbdShapes* s, pbdBody* b)
{
	double e[3];
	float A[9], R[9];
	pbd_Shapes_Fit(s, b, w->p, e, A);
	pbd_ExtractRotation(A, b->q, PBD_SHAPES_ROTATION_ITERATIONS);
	pbd_QuatToMatrix(b->q, R);
	memcpy(pbd_Shapes_Frame(s, b)->R, R, sizeof R);
	const double c[3] = { b->c[0] + e[0], b->c[1] + e[1], b->c[2] + e[2] };
	for (int k = 0; k < 3; ++k) b->c[k] = (float)c[k];
	const float k = b->k;
	if (!(k > 0.0f) || b->pins == b->count) return;
	const int32_t end = b->first + b->count;
	for (int32_t i = b->first; i < end; ++i) {
		float* p = w->p + 4 * i;
		if (p[3] <= 0.0f) continue; /* a pin stays */
		const float* q = s->offset + 4 * i;
		const float g[3] = { (float)(c[0] + ((double)R[0] * q[0] + (double)R[1] * q[1] + (double)R[2] * q[2])),
							 (float)(c[1] + ((double)R[3] * q[0] + (double)R[4] * q[1] + (double)R[5] * q[2])),
							 (float)(c[2] + ((double)R[6] * q[0] + (double)R[7] * q[1] + (double)R[8] * q[2])) };
		if (k >= 1.0f) {
			p[0] = g[0], p[1] = g[1], p[2] = g[2];
		} else {
			p[0] += k * (g[0] - p[0]), p[1] += k * (g[1] - p[1]), p[2] += k * (g[2] - p[2]);
		}
	}
}

static void Shapes_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbdShapes* s = state;
	for (int32_t k = begin; k < end; ++k) SolveBody(w, s, &s->bodies[k]);
}

/* Per particle |x_i - g_i| / size (the rest radius of gyration), the goals fitted to
   `positions` from the body's last rotation (a copy: the hook changes nothing). */
static void Shapes_Error(const pbdWorld* w, const void* state, const float* positions, float* perParticle, double* sum,
						 int32_t* count)
{
	const pbdShapes* s = state;
	for (int32_t k = 0; k < s->count; ++k) {
		const pbdBody* b = &s->bodies[k];
		if (!(b->size > 0.0f)) continue;
		double e[3];
		float A[9], R[9], q[4];
		pbd_Shapes_Fit(s, b, positions, e, A);
		memcpy(q, b->q, sizeof q);
		pbd_ExtractRotation(A, q, PBD_SHAPES_ROTATION_ITERATIONS);
		pbd_QuatToMatrix(q, R);
		const float c[3] = { (float)(b->c[0] + e[0]), (float)(b->c[1] + e[1]), (float)(b->c[2] + e[2]) };
		const float inv = 1.0f / b->size;
		const int32_t end = b->first + b->count;
		for (int32_t i = b->first; i < end; ++i) {
			const float* p = positions + 4 * i;
			const float* o = s->offset + 4 * i;
			const float dx = c[0] + (R[0] * o[0] + R[1] * o[1] + R[2] * o[2]) - p[0];
			const float dy = c[1] + (R[3] * o[0] + R[4] * o[1] + R[5] * o[2]) - p[1];
			const float dz = c[2] + (R[6] * o[0] + R[7] * o[1] + R[8] * o[2]) - p[2];
			const float e = sqrtf(dx * dx + dy * dy + dz * dz) * inv;
			if (perParticle != NULL && e > perParticle[i]) perParticle[i] = e;
			*sum += e;
			*count += 1;
		}
	}
}

static void Shapes_SetStiffness(pbdWorld* w, void* state, int32_t object, int32_t kind, float k);

const pbdFamily pbd_family_shapes = {
	.name = "shapes",
	.bytes = Shapes_Bytes,
	.scratchBytes = Shapes_ScratchBytes,
	.create = Shapes_Create,
	.start = Shapes_PrepareStep,
	.startUnit = Shapes_PrepareStepUnit,
	.unitsLeft = Shapes_UnitsLeft,
	.forces = pbd_Shapes_Forces,
	.findContacts = pbd_Shapes_PrepareSubstep,
	.colourCount = Shapes_ColourCount,
	.colourSize = Shapes_ColourSize,
	.blockSize = 1, /* a body is tens to thousands of particles: one a block */
	.solve = Shapes_Solve,
	.update = pbd_Shapes_Update,
	.setStiffness = Shapes_SetStiffness,
	.error = Shapes_Error,
	.count = Shapes_Count,
};

/* ---------------------------------------------------------------- building (shapes.h) */

int pbd_Shapes_CheckRoom(pbdWorld* w)
{
	const pbdShapes* s = State(w);
	if (s->count >= s->capacity) {
		return pbd_SetWorldError(w, PBD_ERR_OBJECT_CAPACITY, "already %d shape-matched bodies (capacity %d)", s->count, s->capacity);
	}
	return PBD_OK;
}

void pbd_Shapes_Add(pbdWorld* w, int32_t object, int32_t first, int32_t count)
{
	pbdShapes* s = State(w);
	PBD_ASSERT(s->count < s->capacity && object >= 0 && object < w->maxObjects && s->bodyOf[object] == 0);
	PBD_ASSERT(first >= 0 && count >= 1 && first + count <= w->particleCount);
	pbdBody* b = &s->bodies[s->count];
	memset(b, 0, sizeof *b);
	b->object = object;
	b->first = first;
	b->count = count;
	b->stiffness = w->params[pbdParam_stiffnessShape];
	b->k = b->stiffness;
	b->q[3] = 1.0f;
	pbdSurfaceFrame* f = pbd_Shapes_Frame(s, b);
	memset(f, 0, sizeof *f);
	f->first = first;
	f->count = count;
	f->R[0] = f->R[4] = f->R[8] = 1.0f;
	b->plastic[0] = b->plastic[4] = b->plastic[8] = 1.0f;
	for (int32_t i = first; i < first + count; ++i) {
		memcpy(s->rest + 4 * i, w->x + 4 * i, 3 * sizeof(float));
		s->rest[4 * i + 3] = 0.0f;
	}
	pbd_Shapes_Refresh(w, s, b);
	memcpy(b->c, b->c0, sizeof b->c);
	memcpy(b->startQ, b->q, sizeof b->q);
	memcpy(b->startC, b->c, sizeof b->c);
	pbd_Shapes_BeginNormals(w, s, b);
	s->count += 1;
	s->bodyOf[object] = s->count;
}

static void Shapes_SetStiffness(pbdWorld* w, void* state, int32_t object, int32_t kind, float k)
{
	if (kind != pbdKind_shape) return;
	pbdShapes* s = state;
	for (int32_t i = 0; i < s->count; ++i) {
		if (object < 0 || s->bodies[i].object == object) s->bodies[i].stiffness = k;
	}
}

int pbd_Shapes_Transform(const pbdWorld* w, int32_t object, float c[3], float q[4], float c0[3])
{
	const pbdShapes* s = State(w);
	if (object < 0 || object >= s->capacity || s->bodyOf[object] == 0) return 0;
	const pbdBody* b = &s->bodies[s->bodyOf[object] - 1];
	memcpy(c, b->c, 3 * sizeof(float));
	memcpy(q, b->q, 4 * sizeof(float));
	memcpy(c0, b->c0, 3 * sizeof(float));
	return 1;
}

int pbd_Shapes_TransformAt(const pbdWorld* w, int32_t object, float blend, float c[3], float q[4], float c0[3])
{
	if (!pbd_Shapes_Transform(w, object, c, q, c0)) return 0;
	if (!(blend < 1.0f)) return 1; /* the transform itself, to the bit */
	const pbdBody* b = &State(w)->bodies[State(w)->bodyOf[object] - 1];
	const float t = blend > 0.0f ? blend : 0.0f;
	/* nlerp along the shorter arc: a step turns a body by a few degrees, where it is slerp to well under a ulp of
	   what a pixel shows */
	const float dot = b->startQ[0] * q[0] + b->startQ[1] * q[1] + b->startQ[2] * q[2] + b->startQ[3] * q[3];
	const float s0 = dot < 0.0f ? -(1.0f - t) : 1.0f - t;
	float n2 = 0.0f;
	for (int k = 0; k < 4; ++k) q[k] = s0 * b->startQ[k] + t * q[k], n2 += q[k] * q[k];
	const float inv = n2 > 0.0f ? 1.0f / sqrtf(n2) : 0.0f;
	for (int k = 0; k < 4; ++k) q[k] *= inv;
	if (!(n2 > 0.0f)) q[0] = q[1] = q[2] = 0.0f, q[3] = 1.0f;
	for (int k = 0; k < 3; ++k) c[k] = (1.0f - t) * b->startC[k] + t * c[k];
	return 1;
}

/* ---------------------------------------------------------------- API */

int pbd_World_GetBodyTransform(pbdWorldId id, int object, float* out)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (out == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "out is NULL");
	if (object < 0 || object >= w->objectCount) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "object %d of %d", object, w->objectCount);
	}
	float c[3], q[4], c0[3];
	if (!pbd_Shapes_Transform(w, object, c, q, c0)) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "object %d is not a shape-matched body", object);
	}
	memcpy(out, c, sizeof c);
	memcpy(out + 3, q, sizeof q);
	return PBD_OK;
}
