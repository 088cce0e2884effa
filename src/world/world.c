/* world/world.c -- world lifetime, handles, errors, and the pool: sized by asking each
   family of the registry for its share (families/family.h), reserved once at creation.
   Every public entry of the core validates first and mutates last, so a refused call
   leaves the world exactly as it was. */
#include "families/family.h"
#include "services/materials.h"
#include "base/tasks.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static pbdWorld s_worlds[PBD_MAX_WORLDS];
static char s_lastError[256] = "ok";

/* ---------------------------------------------------------------- errors */

const char* pbd_ErrorString(int error)
{
	switch (error) {
#define PBD_X_CASE(name, value, text) \
	case value: return text;
		PBD_ERRORS(PBD_X_CASE)
#undef PBD_X_CASE
	default: return "unknown error";
	}
}

/* "<what the code means>: <detail>" into out. */
static void Format(char* out, size_t size, int code, const char* fmt, va_list args)
{
	char detail[200];
	vsnprintf(detail, sizeof detail, fmt, args);
	snprintf(out, size, "%s: %s", pbd_ErrorString(code), detail);
}

int pbd_SetError(int code, const char* fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	Format(s_lastError, sizeof s_lastError, code, fmt, args);
	va_end(args);
	return code;
}

int pbd_SetWorldError(pbdWorld* w, int code, const char* fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	Format(w->lastError, sizeof w->lastError, code, fmt, args);
	va_end(args);
	return code;
}

/* The message of the last refused call that had no world to keep it (an invalid world id, a
   bad world def, a parameter index out of range). */
const char* pbd_GetLastErrorMessage(void) { return s_lastError; }

const char* pbd_World_GetLastErrorMessage(pbdWorldId id)
{
	const pbdWorld* w = pbd_GetWorld(id);
	return w != NULL ? w->lastError : pbd_ErrorString(PBD_ERR_INVALID_WORLD);
}

int pbd_CheckVec(pbdWorld* w, const float v[3], const char* what)
{
	for (int i = 0; i < 3; ++i) {
		if (!pbd_IsCoord(v[i])) {
			return pbd_SetWorldError(w, pbd_IsFinite(v[i]) ? PBD_ERR_INVALID_ARGUMENT : PBD_ERR_NOT_FINITE,
								"%s[%d] must be finite and within +-%g", what, i, (double)PBD_COORD_LIMIT);
		}
	}
	return PBD_OK;
}

/* ---------------------------------------------------------------- handles */

pbdWorld* pbd_GetWorld(pbdWorldId id)
{
	if (id <= 0) return NULL;
	int index = (id & 0xffff) - 1;
	int generation = id >> 16;
	if (index < 0 || index >= PBD_MAX_WORLDS) return NULL;
	pbdWorld* w = &s_worlds[index];
	if (!w->inUse || w->generation != generation) return NULL;
	return w;
}

int pbd_World_IsValid(pbdWorldId id) { return pbd_GetWorld(id) != NULL; }

/* ---------------------------------------------------------------- stiffness */

/* k' = 1 - (1 - k)^(1/ns), seed 000 section 2.2. libm's pow differs between glibc and
   the wasm libc in the last bit, which would break native/wasm determinism, so the
   ns-th root is found by bisection with IEEE double multiplies only. */
float pbd_PassStiffness(float k, int ns)
{
	if (!(k > 0.0f)) return 0.0f;
	if (k >= 1.0f) return 1.0f;
	if (ns <= 1) return k;
	double a = 1.0 - (double)k; /* find y in [0, 1] with y^ns = a */
	double lo = 0.0, hi = 1.0;
	for (int it = 0; it < 64; ++it) {
		double mid = 0.5 * (lo + hi);
		double power = 1.0;
		/* ns multiplies up to 256 (the step's passes are <= 200: those bits stay as they were);
		   beyond, by squaring, so that a huge ns does not take minutes (found by tests/fuzz) */
		if (ns <= 256) {
			for (int i = 0; i < ns; ++i) power *= mid;
		} else {
			double x = mid;
			for (int n = ns; n > 0; n >>= 1, x *= x) if (n & 1) power *= x;
		}
		if (power < a) lo = mid;
		else hi = mid;
	}
	return (float)(1.0 - 0.5 * (lo + hi));
}

/* ---------------------------------------------------------------- create/destroy */

pbdWorldDef pbd_DefaultWorldDef(void)
{
	pbdWorldDef def;
	memset(&def, 0, sizeof def);
	def.internalValue = PBD_COOKIE;
	return def;
}

/* ---------------------------------------------------------------- capacities */

static const pbdCapacityInfo s_capacities[] = {
#define PBD_X_INFO(field, name, fixed, perParticle, limit, flags) \
	{ name, #field, (int32_t)offsetof(pbdWorldDef, field), fixed, perParticle, limit, flags },
	PBD_CAPACITIES(PBD_X_INFO)
#undef PBD_X_INFO
};
#define CAPACITY_COUNT ((int)(sizeof s_capacities / sizeof s_capacities[0]))
_Static_assert(sizeof(pbdCapacity) == CAPACITY_COUNT * sizeof(int32_t), "pbdCapacity is PBD_CAPACITIES' fields");
_Static_assert(offsetof(pbdWorldDef, internalValue) == CAPACITY_COUNT * sizeof(int32_t), "pbdWorldDef too");

int pbd_CapacityCount(void) { return CAPACITY_COUNT; }

int pbd_GetCapacityInfo(int index, pbdCapacityInfo* info)
{
	if (index < 0 || index >= CAPACITY_COUNT) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "capacity %d", index);
	if (info == NULL) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "info is NULL");
	*info = s_capacities[index];
	return PBD_OK;
}

/* The def with its defaults applied (PBD_CAPACITIES: fixed + perParticle x maxParticles for 0), or an error. The
   fields are copied one at a time with memcpy at the table's offsets into the same layout (pbdCapacity is the
   def's fields in the def's order), which is well defined; pointer steps across struct members are not. */
static int Capacity(const pbdWorldDef* def, pbdCapacity* cap)
{
	int32_t particles = def->maxParticles > 0 ? def->maxParticles : s_capacities[0].fixed;
	for (int i = 0; i < CAPACITY_COUNT; ++i) {
		const pbdCapacityInfo* c = &s_capacities[i];
		int32_t given;
		memcpy(&given, (const char*)def + c->offset, sizeof given);
		if (given < 0) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "%s %d: capacities must not be negative", c->field, given);
		int64_t value = given > 0 ? given : c->fixed + (int64_t)c->perParticle * particles;
		int64_t limit = (c->flags & PBD_CAPACITY_PART) && particles < c->limit ? particles : c->limit;
		if (value > limit && (c->flags & PBD_CAPACITY_CLAMPED)) value = limit;
		if (value > limit) {
			return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "%s %lld is over %s %lld", c->field, (long long)value,
								(c->flags & PBD_CAPACITY_PART) && limit == particles ? "maxParticles" : "the limit",
								(long long)limit);
		}
		int32_t v32 = (int32_t)value;
		memcpy((char*)cap + (size_t)i * sizeof(int32_t), &v32, sizeof v32);
	}
	return PBD_OK;
}

/* The world's own arrays: particles (x, p, v, n, rest0, force: float4; phase; errors, densities), the
   render mesh, objects, the convergence record. The families' states follow them. */
static size_t WorldBytes(const pbdCapacity* cap)
{
	size_t P = (size_t)cap->maxParticles;
	return 7 * pbd_PoolBytes(P, 4 * sizeof(float)) + pbd_PoolBytes(P, sizeof(uint32_t)) + 2 * pbd_PoolBytes(P, sizeof(float)) +
		   pbd_PoolBytes((size_t)cap->maxTriangles, 3 * sizeof(uint32_t)) +
		   pbd_PoolBytes((size_t)cap->maxLines, 2 * sizeof(uint32_t)) +
		   pbd_PoolBytes((size_t)cap->maxObjects, sizeof(pbdObjectInfo)) + pbd_PoolBytes((size_t)cap->maxObjects, sizeof(pbdMaterial)) +
		   pbd_PoolBytes((size_t)cap->maxObjects, sizeof(float)) +
		   pbd_PoolBytes((size_t)cap->maxObjects, sizeof(pbdPlasticity)) + pbd_PoolBytes(PBD_MAX_CONVERGENCE, sizeof(float));
}

pbdWorldId pbd_CreateWorld(const pbdWorldDef* def)
{
	if (def == NULL || def->internalValue != PBD_COOKIE) {
		return pbd_SetError(PBD_ERR_BAD_DEF, "use pbd_DefaultWorldDef()");
	}
	pbdCapacity cap;
	int err = Capacity(def, &cap);
	if (err != PBD_OK) return err;

	int index = -1;
	for (int i = 0; i < PBD_MAX_WORLDS; ++i) {
		if (!s_worlds[i].inUse) {
			index = i;
			break;
		}
	}
	if (index < 0) return pbd_SetError(PBD_ERR_TOO_MANY_WORLDS, "at most %d worlds at once", PBD_MAX_WORLDS);

	/* Each family sizes its share; the scratch is shared, so the largest need. */
	size_t bytes = WorldBytes(&cap), scratchBytes = 0;
	for (int f = 0; f < pbdFamily_count; ++f) {
		const pbdFamily* family = pbd_families[f];
		if (family->bytes) bytes += family->bytes(&cap);
		size_t s = family->scratchBytes ? family->scratchBytes(&cap) : 0;
		if (s > scratchBytes) scratchBytes = s;
	}
	bytes += pbd_PoolBytes(scratchBytes, 1);

	pbdWorld* w = &s_worlds[index];
	int32_t generation = (w->generation + 1) & 0x7fff;
	if (generation == 0) generation = 1;
	pbdPool pool;
	if (!pbd_PoolReserve(&pool, bytes)) {
		return pbd_SetError(PBD_ERR_OUT_OF_MEMORY, "%lu bytes for %d particles", (unsigned long)bytes, cap.maxParticles);
	}
	memset(w, 0, sizeof *w);
	memcpy(w->lastError, "ok", 3);
	w->pool = pool;
	w->generation = generation;
	w->maxParticles = cap.maxParticles;
	w->maxTriangles = cap.maxTriangles;
	w->maxLines = cap.maxLines;
	w->maxObjects = cap.maxObjects;
	size_t P = (size_t)cap.maxParticles;
	w->x = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->p = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->v = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->n = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->previous = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->rest0 = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->force = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->phase = pbd_PoolAlloc(&w->pool, P, sizeof(uint32_t));
	w->errors = pbd_PoolAlloc(&w->pool, P, sizeof(float));
	w->densities = pbd_PoolAlloc(&w->pool, P, sizeof(float));
	w->triangles = pbd_PoolAlloc(&w->pool, (size_t)cap.maxTriangles, 3 * sizeof(uint32_t));
	w->lines = pbd_PoolAlloc(&w->pool, (size_t)cap.maxLines, 2 * sizeof(uint32_t));
	w->objects = pbd_PoolAlloc(&w->pool, (size_t)cap.maxObjects, sizeof(pbdObjectInfo));
	w->materials = pbd_PoolAlloc(&w->pool, (size_t)cap.maxObjects, sizeof(pbdMaterial));
	w->objectSpacing = pbd_PoolAlloc(&w->pool, (size_t)cap.maxObjects, sizeof(float));
	w->plasticity = pbd_PoolAlloc(&w->pool, (size_t)cap.maxObjects, sizeof(pbdPlasticity));
	w->convergence = pbd_PoolAlloc(&w->pool, PBD_MAX_CONVERGENCE, sizeof(float));
	w->scratch = pbd_PoolAllocUnset(&w->pool, scratchBytes, 1); /* each user writes its part before reading it */
	w->scratchBytes = scratchBytes;
	pbd_ResetParams(w->params); /* before the families' create, which may read them */
	for (int f = 0; f < pbdFamily_count; ++f) {
		w->families[f] = pbd_families[f]->create ? pbd_families[f]->create(w, &w->pool, &cap) : NULL;
		PBD_ASSERT(pbd_families[f]->create == NULL || w->families[f] != NULL);
	}
	PBD_ASSERT(w->scratch != NULL && w->pool.used == w->pool.capacity);
	w->threads = 1;
	w->sliceBudget = PBD_SLICE_WORK;
	w->inUse = 1;
	return (generation << 16) | (index + 1);
}

int pbd_DestroyWorld(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbd_PoolRelease(&w->pool);
	int32_t generation = w->generation;
	memset(w, 0, sizeof *w);
	w->generation = generation; /* kept so the next world in this slot gets a new id */
	return PBD_OK;
}
