/* families/inflatables.c -- the overpressure constraint (Mueller et al. 2007 "Position Based
   Dynamics" section 4.4) as a family: one constraint per inflatable over all of its particles,

       C(p_1..p_n) = V - k_pressure V0,   V = sum over its triangles (a, b, c) of a . (b x c) / 6,

   the volume its closed triangle surface encloses (signed tets against a point: its first
   particle, so the products stay small; a closed surface's V does not depend on the point).
   grad_i V = 1/6 sum over the triangles incident to i of the cross product of the other two
   corners, in the triangle's order (section 4.4). It is projected with seed 000's general
   mass-weighted step (2.2): s = C / sum_j w_j |grad_j C|^2, dp_i = -k' s w_i grad_i C, with
   k' = 1 - (1 - k)^(1/ns). As in volume.c the solver works with six times the volume and its
   unscaled gradients G_i = 6 grad_i V (the 6s cancel). A surface crushed to no gradient, or all
   of whose particles are pinned, is skipped for that pass (no 0/0): see Project.

   The triangles are the world's (its object's range of world->triangles, the builder wrote
   them), the edges are the distance family's (builders/inflatable.c). Its state: per object the
   rest volume, k_pressure and k; the gradients' room (3 floats per particle of every inflatable,
   sized from the triangle capacity: a closed surface has at most T / 2 + 2 vertices per part). */
#include "families/inflatables.h"
#include "families/family.h"

#include <string.h>

/// A pass skips an inflatable whose sum w |G|^2 is below this share of sum w times its mean |G|^2
/// at rest (every particle on one point, or pinned): its step would be 0/0 or unbounded.
#define PBD_INFLATABLE_DEGENERATE 1e-6f

typedef struct pbdInflatable {
	int32_t object;
	int32_t gradFirst; ///< its particles' gradients at grad + 3 gradFirst
	float rest6;       ///< 6 V0, from the positions at building
	float pressure;    ///< k_pressure
	float stiffness;   ///< k; kPass: k' of this step
	float kPass;
	float degenerate;  ///< PBD_INFLATABLE_DEGENERATE x mean |G_i|^2 at rest
} pbdInflatable;

typedef struct pbdInflatables {
	pbdInflatable* items;
	int32_t count, maxCount;
	float* grad;
	int32_t gradUsed, gradMax;
} pbdInflatables;

static inline pbdInflatables* State(const pbdWorld* w) { return (pbdInflatables*)w->families[pbdFamily_inflatables]; }

static int32_t GradSlots(const pbdCapacity* cap) { return cap->maxTriangles / 2 + 2 * cap->maxObjects; }

/* 6 V of object `info`'s surface in `x` (float4 per particle); with `grad`, G_i of each of its
   particles (3 floats each, zeroed here). Double sums: a fine sphere's volume is a sum of
   thousands of small terms of one sign. */
static double SixVolume(const pbdWorld* w, const pbdObjectInfo* info, const float* x, float* grad)
{
	const int32_t first = info->firstParticle;
	const float* r = x + 4 * (size_t)first;
	if (grad != NULL) memset(grad, 0, 3 * sizeof(float) * (size_t)info->particleCount);
	double six = 0.0;
	for (int32_t t = info->firstTriangle; t < info->firstTriangle + info->triangleCount; ++t) {
		const uint32_t* tri = w->triangles + 3 * (size_t)t;
		if (tri[0] == 0xffffffffu) continue; /* a torn triangle (tearing.c), compacted at the step's end */
		float c[3][3];
		for (int k = 0; k < 3; ++k) {
			const float* q = x + 4 * (size_t)tri[k];
			c[k][0] = q[0] - r[0], c[k][1] = q[1] - r[1], c[k][2] = q[2] - r[2];
		}
		for (int k = 0; k < 3; ++k) {
			const float* b = c[(k + 1) % 3];
			const float* d = c[(k + 2) % 3];
			const float cross[3] = { b[1] * d[2] - b[2] * d[1], b[2] * d[0] - b[0] * d[2], b[0] * d[1] - b[1] * d[0] };
			if (k == 0) six += (double)(c[0][0] * cross[0] + c[0][1] * cross[1] + c[0][2] * cross[2]);
			if (grad != NULL) {
				float* g = grad + 3 * (size_t)(tri[k] - (uint32_t)first);
				g[0] += cross[0], g[1] += cross[1], g[2] += cross[2];
			}
		}
	}
	return six;
}

/* One projection of inflatable `it` on the predictions p (seed 000 2.2 with Mueller 4.4's gradient). */
static void Project(pbdWorld* w, pbdInflatables* s, const pbdInflatable* it)
{
	const pbdObjectInfo* info = &w->objects[it->object];
	float* grad = s->grad + 3 * (size_t)it->gradFirst;
	float* p = w->p;
	const float C6 = (float)SixVolume(w, info, p, grad) - it->pressure * it->rest6;
	float sum = 0.0f, weights = 0.0f;
	for (int32_t i = 0; i < info->particleCount; ++i) {
		const float wi = p[4 * (size_t)(info->firstParticle + i) + 3];
		const float* g = grad + 3 * i;
		sum += wi * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
		weights += wi;
	}
	/* No step when every particle is pinned or the surface has collapsed (no gradient to move along), or
	   when anything is not finite: a crushed balloon waits for its edges to open it again. */
	if (!(sum > it->degenerate * weights) || !pbd_IsFinite(sum) || !pbd_IsFinite(C6)) return;
	const float scale = -it->kPass * C6 / sum;
	for (int32_t i = 0; i < info->particleCount; ++i) {
		float* q = p + 4 * (size_t)(info->firstParticle + i);
		const float* g = grad + 3 * i;
		const float f = scale * q[3];
		q[0] += f * g[0], q[1] += f * g[1], q[2] += f * g[2];
	}
}

/* ---------------------------------------------------------------- building */

int pbd_Inflatables_CheckRoom(pbdWorld* w, int32_t particles)
{
	const pbdInflatables* s = State(w);
	if (s->count >= s->maxCount) {
		return pbd_SetWorldError(w, PBD_ERR_OBJECT_CAPACITY, "already %d inflatables (capacity %d)", s->count, s->maxCount);
	}
	if (particles < 0 || s->gradUsed + particles > s->gradMax) {
		return pbd_SetWorldError(w, PBD_ERR_TRIANGLE_CAPACITY, "an inflatable of %d particles: room for %d more (maxTriangles / 2)",
								 particles, s->gradMax - s->gradUsed);
	}
	return PBD_OK;
}

void pbd_Inflatables_Add(pbdWorld* w, int32_t object, float pressure, float stiffness)
{
	pbdInflatables* s = State(w);
	PBD_ASSERT(s->count < s->maxCount); /* pbd_Inflatables_CheckRoom said so */
	const pbdObjectInfo* info = &w->objects[object];
	pbdInflatable* it = &s->items[s->count++];
	it->object = object;
	it->gradFirst = s->gradUsed;
	s->gradUsed += info->particleCount;
	it->pressure = pressure;
	it->stiffness = stiffness;
	it->kPass = 0.0f;
	float* grad = s->grad + 3 * (size_t)it->gradFirst;
	it->rest6 = (float)SixVolume(w, info, w->x, grad);
	float mean = 0.0f;
	for (int32_t i = 0; i < 3 * info->particleCount; ++i) mean += grad[i] * grad[i];
	it->degenerate = PBD_INFLATABLE_DEGENERATE * mean / (float)(info->particleCount > 0 ? info->particleCount : 1);
}

/* ---------------------------------------------------------------- the public calls */

static pbdInflatable* Find(pbdInflatables* s, int object)
{
	for (int32_t i = 0; i < s->count; ++i) {
		if (s->items[i].object == object) return &s->items[i];
	}
	return NULL;
}

static int Lookup(pbdWorld* w, int object, pbdInflatable** out)
{
	*out = object >= 0 && object < w->objectCount ? Find(State(w), object) : NULL;
	if (*out == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "object %d is not an inflatable", object);
	return PBD_OK;
}

int pbd_SetInflatablePressure(pbdWorldId id, int object, float pressure)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdInflatable* it;
	int err = Lookup(w, object, &it);
	if (err != PBD_OK) return err;
	if (!pbd_IsFinite(pressure) || !(pressure > 0.0f) || pressure > 100.0f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "pressure must be in (0, 100], got %g", (double)pressure);
	}
	it->pressure = pressure;
	return PBD_OK;
}

int pbd_GetInflatableVolume(pbdWorldId id, int object, double* out)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdInflatable* it;
	int err = Lookup(w, object, &it);
	if (err != PBD_OK) return err;
	if (out == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "out is NULL");
	out[0] = SixVolume(w, &w->objects[object], w->x, NULL) / 6.0;
	out[1] = (double)it->rest6 / 6.0;
	out[2] = (double)it->pressure;
	return PBD_OK;
}

/* ---------------------------------------------------------------- hooks */

static size_t Inflatables_Bytes(const pbdCapacity* cap)
{
	return pbd_PoolBytes(1, sizeof(pbdInflatables)) + pbd_PoolBytes((size_t)cap->maxObjects, sizeof(pbdInflatable)) +
		   pbd_PoolBytes(3 * (size_t)GradSlots(cap), sizeof(float));
}

/* The builder's (builders/inflatable.c): a surface's vertices (3 floats) and triangles (3 ints), the closedness
   check's adjacency (vertex offsets and 3 ints per triangle) and a byte per vertex, for the largest that fits. */
static size_t Inflatables_ScratchBytes(const pbdCapacity* cap)
{
	const size_t T = (size_t)cap->maxTriangles, G = (size_t)GradSlots(cap);
	const size_t P = (size_t)cap->maxParticles < G ? (size_t)cap->maxParticles : G;
	return T == 0 ? 0 : 17 * P + 24 * T + 512; /* and the pool's alignment of each of the 4 arrays */
}

static void* Inflatables_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	pbdInflatables* s = pbd_PoolAlloc(pool, 1, sizeof(pbdInflatables));
	if (s == NULL) return NULL;
	s->maxCount = cap->maxObjects;
	s->items = pbd_PoolAlloc(pool, (size_t)cap->maxObjects, sizeof(pbdInflatable));
	s->gradMax = GradSlots(cap);
	s->grad = pbd_PoolAlloc(pool, 3 * (size_t)s->gradMax, sizeof(float));
	return s->items != NULL && s->grad != NULL ? s : NULL;
}

static void Inflatables_Start(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdInflatables* s = state;
	for (int32_t i = 0; i < s->count; ++i) s->items[i].kPass = pbd_PassStiffness(s->items[i].stiffness, ctx->passes);
}

static int32_t Inflatables_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdInflatables*)state)->count > 0; }

/* One colour: the inflatables share no particle, so a thread may take any of them (each writes
   its own particles and its own gradients' room). */
static int32_t Inflatables_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 0;
	return ((const pbdInflatables*)state)->count;
}

static void Inflatables_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	pbdInflatables* s = state;
	for (int32_t i = begin; i < end; ++i) {
		if (s->items[i].kPass > 0.0f) Project(w, s, &s->items[i]);
	}
}

/* |V - k_pressure V0| / (k_pressure V0) of each inflatable, every one of its particles' value. */
static void Inflatables_Error(const pbdWorld* w, const void* state, const float* x, float* perParticle, double* sum,
							  int32_t* count)
{
	const pbdInflatables* s = state;
	for (int32_t i = 0; i < s->count; ++i) {
		const pbdInflatable* it = &s->items[i];
		const pbdObjectInfo* info = &w->objects[it->object];
		const double target = (double)it->pressure * it->rest6;
		if (!(target > 0.0)) continue;
		const double d = SixVolume(w, info, x, NULL) - target;
		const float e = (float)((d < 0.0 ? -d : d) / target);
		if (perParticle != NULL) {
			for (int32_t k = info->firstParticle; k < info->firstParticle + info->particleCount; ++k) {
				if (e > perParticle[k]) perParticle[k] = e;
			}
		}
		*sum += e;
		*count += 1;
	}
}

static int32_t Inflatables_Count(const pbdWorld* w, const void* state) { return ((const pbdInflatables*)state)->count; }

const pbdFamily pbd_family_inflatables = {
	.name = "inflatables",
	.bytes = Inflatables_Bytes,
	.scratchBytes = Inflatables_ScratchBytes,
	.create = Inflatables_Create,
	.start = Inflatables_Start,
	.colourCount = Inflatables_ColourCount,
	.colourSize = Inflatables_ColourSize,
	.solve = Inflatables_Solve,
	.blockSize = 1,
	.sliceSize = 1,
	.error = Inflatables_Error,
	.count = Inflatables_Count,
};
