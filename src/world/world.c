/* world.c -- world lifetime, handles, parameters, object builders, particles,
   attachments. Every public entry validates first and mutates last, so a refused
   call leaves the world exactly as it was. */
#include "world/core.h"

#include <math.h>
#include <stdarg.h>
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

int pbd_SetError(int code, const char* fmt, ...)
{
	char detail[200];
	va_list args;
	va_start(args, fmt);
	vsnprintf(detail, sizeof detail, fmt, args);
	va_end(args);
	snprintf(s_lastError, sizeof s_lastError, "%s: %s", pbd_ErrorString(code), detail);
	return code;
}

const char* pbd_GetLastErrorMessage(void) { return s_lastError; }

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

/* ---------------------------------------------------------------- defs */

pbdWorldDef pbd_DefaultWorldDef(void)
{
	pbdWorldDef def;
	memset(&def, 0, sizeof def);
	def.internalValue = PBD_COOKIE;
	return def;
}

pbdChainDef pbd_DefaultChainDef(void)
{
	pbdChainDef def;
	memset(&def, 0, sizeof def);
	def.end[0] = 1.0f;
	def.segments = 10;
	def.mass = 0.1f;
	def.internalValue = PBD_COOKIE;
	return def;
}

pbdClothDef pbd_DefaultClothDef(void)
{
	pbdClothDef def;
	memset(&def, 0, sizeof def);
	def.axisU[0] = 1.0f;
	def.axisV[1] = -1.0f;
	def.resolutionU = 16;
	def.resolutionV = 16;
	def.mass = 0.01f;
	def.internalValue = PBD_COOKIE;
	return def;
}

static int32_t DefOr(int32_t value, int32_t fallback) { return value > 0 ? value : fallback; }

/* ---------------------------------------------------------------- create/destroy */

pbdWorldId pbd_CreateWorld(const pbdWorldDef* def)
{
	if (def == NULL || def->internalValue != PBD_COOKIE) {
		return pbd_SetError(PBD_ERR_BAD_DEF, "use pbd_DefaultWorldDef()");
	}
	if (def->maxParticles < 0 || def->maxConstraints < 0 || def->maxTriangles < 0 || def->maxLines < 0 ||
		def->maxAttachments < 0 || def->maxObjects < 0) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "capacities must not be negative");
	}
	int32_t maxParticles = DefOr(def->maxParticles, 1024);
	if (maxParticles > PBD_MAX_PARTICLES) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "maxParticles %d is over the limit %d", maxParticles,
							PBD_MAX_PARTICLES);
	}
	int32_t maxConstraints = DefOr(def->maxConstraints, 8 * maxParticles);
	int32_t maxTriangles = DefOr(def->maxTriangles, 2 * maxParticles);
	int32_t maxLines = DefOr(def->maxLines, maxParticles);
	int32_t maxAttachments = DefOr(def->maxAttachments, 16);
	int32_t maxObjects = DefOr(def->maxObjects, 16);
	int32_t maxColliders = DefOr(def->maxColliders, 8);
	if (def->maxColliders < 0 || def->maxContacts < 0) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "capacities must not be negative");
	int64_t contacts64 = def->maxContacts > 0 ? def->maxContacts : 8 * (int64_t)maxParticles;
	if (contacts64 > PBD_MAX_CONSTRAINTS) contacts64 = PBD_MAX_CONSTRAINTS;
	int32_t maxContacts = (int32_t)contacts64;
	int32_t tableSize = 1;
	while (tableSize < 2 * maxParticles) tableSize <<= 1;
	if (maxConstraints > PBD_MAX_CONSTRAINTS || maxTriangles > PBD_MAX_CONSTRAINTS || maxLines > PBD_MAX_CONSTRAINTS ||
		maxAttachments > PBD_MAX_ATTACHMENTS || maxObjects > PBD_MAX_OBJECTS || maxColliders > PBD_MAX_COLLIDERS) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT,
							"a capacity is over its limit (constraints %d, attachments %d, objects %d, colliders %d)",
							PBD_MAX_CONSTRAINTS, PBD_MAX_ATTACHMENTS, PBD_MAX_OBJECTS, PBD_MAX_COLLIDERS);
	}

	int index = -1;
	for (int i = 0; i < PBD_MAX_WORLDS; ++i) {
		if (!s_worlds[i].inUse) {
			index = i;
			break;
		}
	}
	if (index < 0) return pbd_SetError(PBD_ERR_TOO_MANY_WORLDS, "at most %d worlds at once", PBD_MAX_WORLDS);

	int32_t maxGroups = maxObjects * pbdKind_count;
	size_t P = (size_t)maxParticles, C = (size_t)maxConstraints;
	size_t bytes = 4 * pbd_PoolBytes(P, 4 * sizeof(float)) + pbd_PoolBytes(P, 1) + 2 * pbd_PoolBytes(C, sizeof(int32_t)) +
				   pbd_PoolBytes(C, sizeof(float)) + pbd_PoolBytes((size_t)maxTriangles, 3 * sizeof(uint32_t)) +
				   pbd_PoolBytes((size_t)maxLines, 2 * sizeof(uint32_t)) + pbd_PoolBytes((size_t)maxGroups, sizeof(pbdGroup)) +
				   pbd_PoolBytes((size_t)maxObjects, sizeof(pbdObjectInfo)) +
				   pbd_PoolBytes((size_t)maxAttachments, sizeof(pbdAttachment));
	bytes += pbd_PoolBytes(P, sizeof(float)) + pbd_PoolBytes(PBD_MAX_CONVERGENCE, sizeof(float));
	size_t B = C / 4 + 1; /* regular batches: at most one per 4 constraints */
	bytes += 2 * pbd_PoolBytes(C, sizeof(float)) + 3 * pbd_PoolBytes(B, sizeof(int32_t));
	bytes += pbd_PoolBytes(P, 4 * sizeof(float)); /* pairOrigin */
	size_t bounceBytes = pbd_ColliderBounceBytes(maxParticles, maxColliders);
	bytes += bounceBytes;
	bytes += 2 * pbd_PoolBytes(P, 4 * sizeof(float)) + pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes(P, sizeof(float)) +
			 pbd_PoolBytes((size_t)maxColliders, sizeof(pbdCollider)) + pbd_PoolBytes((size_t)tableSize + 1, sizeof(int32_t)) +
			 pbd_PoolBytes(P, sizeof(int32_t)) + pbd_PoolBytes((size_t)maxContacts, 2 * sizeof(int32_t));
	size_t scratchBytes = pbd_ColouringScratchBytes(maxParticles, maxConstraints);
	size_t gridBytes = pbd_HashGridScratchBytes(maxParticles); /* the hash grid's sorted arrays, contacts stage */
	if (gridBytes > scratchBytes) scratchBytes = gridBytes;
	scratchBytes = pbd_PoolBytes(scratchBytes, 1); /* pbd_PoolAlloc rounds it up: an odd grid size left scratch NULL */
	bytes += scratchBytes;

	pbdWorld* w = &s_worlds[index];
	int32_t generation = (w->generation + 1) & 0x7fff;
	if (generation == 0) generation = 1;
	pbdPool pool;
	if (!pbd_PoolReserve(&pool, bytes)) {
		return pbd_SetError(PBD_ERR_OUT_OF_MEMORY, "%lu bytes for %d particles", (unsigned long)bytes, maxParticles);
	}
	memset(w, 0, sizeof *w);
	w->pool = pool;
	w->generation = generation;
	w->maxParticles = maxParticles;
	w->maxConstraints = maxConstraints;
	w->maxTriangles = maxTriangles;
	w->maxLines = maxLines;
	w->maxAttachments = maxAttachments;
	w->maxObjects = maxObjects;
	w->maxGroups = maxGroups;
	w->maxColliders = maxColliders;
	w->maxContacts = maxContacts;
	w->tableSize = tableSize;
	w->x = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->p = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->v = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->n = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->contact = pbd_PoolAlloc(&w->pool, P, 1);
	w->ca = pbd_PoolAlloc(&w->pool, C, sizeof(int32_t));
	w->cb = pbd_PoolAlloc(&w->pool, C, sizeof(int32_t));
	w->rest = pbd_PoolAlloc(&w->pool, C, sizeof(float));
	w->shareA = pbd_PoolAlloc(&w->pool, C, sizeof(float));
	w->shareB = pbd_PoolAlloc(&w->pool, C, sizeof(float));
	w->batchA = pbd_PoolAlloc(&w->pool, B, sizeof(int32_t));
	w->batchStride = pbd_PoolAlloc(&w->pool, B, sizeof(int32_t));
	w->batchOffset = pbd_PoolAlloc(&w->pool, B, sizeof(int32_t));
	w->maxBatches = (int32_t)B;
	w->pairOrigin = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->triangles = pbd_PoolAlloc(&w->pool, (size_t)maxTriangles, 3 * sizeof(uint32_t));
	w->lines = pbd_PoolAlloc(&w->pool, (size_t)maxLines, 2 * sizeof(uint32_t));
	w->groups = pbd_PoolAlloc(&w->pool, (size_t)maxGroups, sizeof(pbdGroup));
	w->objects = pbd_PoolAlloc(&w->pool, (size_t)maxObjects, sizeof(pbdObjectInfo));
	w->attachments = pbd_PoolAlloc(&w->pool, (size_t)maxAttachments, sizeof(pbdAttachment));
	w->bounces = pbd_PoolAlloc(&w->pool, bounceBytes, 1);
	w->bounceCapacity = maxParticles * (maxColliders < 4 ? maxColliders : 4);
	w->errors = pbd_PoolAlloc(&w->pool, P, sizeof(float));
	w->convergence = pbd_PoolAlloc(&w->pool, PBD_MAX_CONVERGENCE, sizeof(float));
	w->rest0 = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->force = pbd_PoolAlloc(&w->pool, P, 4 * sizeof(float));
	w->tetherAnchor = pbd_PoolAlloc(&w->pool, P, sizeof(int32_t));
	w->tetherRest = pbd_PoolAlloc(&w->pool, P, sizeof(float));
	w->colliders = pbd_PoolAlloc(&w->pool, (size_t)maxColliders, sizeof(pbdCollider));
	w->cellStart = pbd_PoolAlloc(&w->pool, (size_t)tableSize + 1, sizeof(int32_t));
	w->cellEntries = pbd_PoolAlloc(&w->pool, P, sizeof(int32_t));
	w->pairs = pbd_PoolAlloc(&w->pool, (size_t)maxContacts, 2 * sizeof(int32_t));
	w->scratch = pbd_PoolAlloc(&w->pool, scratchBytes, 1);
	w->scratchBytes = scratchBytes;
	PBD_ASSERT(w->attachments != NULL && w->pool.used == w->pool.capacity);
	for (int i = 0; i < maxAttachments; ++i) {
		w->attachments[i].particle = -1;
		w->attachments[i].generation = 1;
	}
	pbd_ResetParams(w->params);
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

/* ---------------------------------------------------------------- objects */

void pbd_ChainCounts(int32_t segments, int32_t* particles, int32_t* constraints, int32_t* lines)
{
	int64_t s = segments < 1 || segments >= PBD_MAX_PARTICLES ? 0 : segments; /* what AddChain accepts; no int overflow */
	if (particles) *particles = s > 0 ? (int32_t)(s + 1) : 0;
	if (constraints) *constraints = (int32_t)s;
	if (lines) *lines = (int32_t)s;
}

static void ClothKindCounts(int64_t nu, int64_t nv, int64_t counts[3])
{
	counts[pbdKind_stretch] = (nu - 1) * nv + nu * (nv - 1);
	counts[pbdKind_shear] = 2 * (nu - 1) * (nv - 1);
	counts[pbdKind_bend] = (nu - 2) * nv + nu * (nv - 2);
}

void pbd_ClothCounts(int32_t nu, int32_t nv, int32_t* particles, int32_t* constraints, int32_t* triangles)
{
	if (nu < 2 || nv < 2 || (int64_t)nu * nv > PBD_MAX_PARTICLES) {
		if (particles) *particles = 0;
		if (constraints) *constraints = 0;
		if (triangles) *triangles = 0;
		return;
	}
	int64_t k[3];
	ClothKindCounts(nu, nv, k);
	if (particles) *particles = nu * nv;
	if (constraints) *constraints = (int32_t)(k[0] + k[1] + k[2]);
	if (triangles) *triangles = 2 * (nu - 1) * (nv - 1);
}

static int CheckRoom(pbdWorld* w, int64_t particles, int64_t constraints, int64_t groups, int64_t triangles, int64_t lines)
{
	if (w->objectCount >= w->maxObjects) {
		return pbd_SetError(PBD_ERR_OBJECT_CAPACITY, "already %d objects (capacity %d)", w->objectCount, w->maxObjects);
	}
	if (w->particleCount + particles > w->maxParticles) {
		return pbd_SetError(PBD_ERR_PARTICLE_CAPACITY, "needs %lld particles, %d of %d left", (long long)particles,
							w->maxParticles - w->particleCount, w->maxParticles);
	}
	if (w->constraintCount + constraints > w->maxConstraints) {
		return pbd_SetError(PBD_ERR_CONSTRAINT_CAPACITY, "needs %lld constraints, %d of %d left", (long long)constraints,
							w->maxConstraints - w->constraintCount, w->maxConstraints);
	}
	if (w->triangleCount + triangles > w->maxTriangles) {
		return pbd_SetError(PBD_ERR_TRIANGLE_CAPACITY, "needs %lld triangles, %d of %d left", (long long)triangles,
							w->maxTriangles - w->triangleCount, w->maxTriangles);
	}
	if (w->lineCount + lines > w->maxLines) {
		return pbd_SetError(PBD_ERR_LINE_CAPACITY, "needs %lld lines, %d of %d left", (long long)lines,
							w->maxLines - w->lineCount, w->maxLines);
	}
	PBD_ASSERT(w->groupCount + groups <= w->maxGroups); /* maxGroups = maxObjects * kinds */
	(void)groups;
	return PBD_OK;
}

static void AddParticle(pbdWorld* w, float x, float y, float z, float invMass)
{
	float* xi = w->x + 4 * w->particleCount;
	xi[0] = x;
	xi[1] = y;
	xi[2] = z;
	xi[3] = invMass;
	memcpy(w->p + 4 * w->particleCount, xi, 4 * sizeof(float));
	memcpy(w->rest0 + 4 * w->particleCount, xi, 4 * sizeof(float));
	w->tetherAnchor[w->particleCount] = -1;
	memset(w->v + 4 * w->particleCount, 0, 4 * sizeof(float));
	w->particleCount += 1;
	w->pairsReusable = 0;
}

static float Distance(const float* a, const float* b)
{
	float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

static void AddConstraint(pbdWorld* w, int a, int b)
{
	int c = w->constraintCount++;
	w->ca[c] = a;
	w->cb[c] = b;
	w->rest[c] = Distance(w->x + 4 * a, w->x + 4 * b);
	w->sharesDirty = 1;
}

void pbd_UpdateShares(pbdWorld* w)
{
	for (int c = 0; c < w->constraintCount; ++c) {
		int a = w->ca[c], b = w->cb[c];
		float wa = w->x[4 * a + 3], wb = w->x[4 * b + 3], ws = wa + wb;
		int live = a != b && ws > 0.0f; /* torn, or both ends pinned: nothing moves */
		w->shareA[c] = live ? wa / ws : 0.0f;
		w->shareB[c] = live ? wb / ws : 0.0f;
	}
	w->sharesDirty = 0;
}

static void BeginGroup(pbdWorld* w, int kind)
{
	pbdGroup* g = &w->groups[w->groupCount];
	g->first = w->constraintCount;
	g->count = 0;
	g->kind = kind;
	g->object = w->objectCount;
	static const pbdParam kindParam[pbdKind_count] = { pbdParam_stiffnessStretch, pbdParam_stiffnessShear,
														 pbdParam_stiffnessBend, pbdParam_stiffnessChain };
	g->stiffness = w->params[kindParam[kind]];
}

static void EndGroup(pbdWorld* w)
{
	pbdGroup* g = &w->groups[w->groupCount];
	g->count = w->constraintCount - g->first;
	if (g->count > 0) w->groupCount += 1;
}

static int CheckVec(const float* v, const char* what)
{
	for (int i = 0; i < 3; ++i) {
		if (!pbd_IsCoord(v[i])) {
			return pbd_SetError(pbd_IsFinite(v[i]) ? PBD_ERR_INVALID_ARGUMENT : PBD_ERR_NOT_FINITE,
								"%s[%d] must be finite and within +-%g", what, i, (double)PBD_COORD_LIMIT);
		}
	}
	return PBD_OK;
}

static int CheckMass(float mass)
{
	if (!pbd_IsFinite(mass) || mass < 1e-6f || mass > 1e6f) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "mass must be in [1e-6, 1e6] kg, got %g", (double)mass);
	}
	return PBD_OK;
}

int pbd_World_AddChain(pbdWorldId id, const pbdChainDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetError(PBD_ERR_BAD_DEF, "use pbd_DefaultChainDef()");
	int err;
	if ((err = CheckVec(def->start, "chain start")) != PBD_OK) return err;
	if ((err = CheckVec(def->end, "chain end")) != PBD_OK) return err;
	if ((err = CheckMass(def->mass)) != PBD_OK) return err;
	if (def->segments < 1 || def->segments >= PBD_MAX_PARTICLES) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "chain segments must be in [1, %d), got %d", PBD_MAX_PARTICLES,
							def->segments);
	}
	int32_t particles, constraints, lines;
	pbd_ChainCounts(def->segments, &particles, &constraints, &lines);
	if ((err = CheckRoom(w, particles, constraints, 1, 0, lines)) != PBD_OK) return err;

	int first = w->particleCount;
	float invMass = 1.0f / def->mass;
	for (int i = 0; i <= def->segments; ++i) {
		float t = (float)i / (float)def->segments;
		AddParticle(w, def->start[0] + (def->end[0] - def->start[0]) * t, def->start[1] + (def->end[1] - def->start[1]) * t,
					def->start[2] + (def->end[2] - def->start[2]) * t, invMass);
	}
	pbdObjectInfo* info = &w->objects[w->objectCount];
	memset(info, 0, sizeof *info);
	info->type = 0;
	info->firstParticle = first;
	info->particleCount = particles;
	info->firstConstraint = w->constraintCount;
	info->firstLine = w->lineCount;
	info->firstTriangle = w->triangleCount;
	info->resolutionU = particles;
	info->resolutionV = 1;
	BeginGroup(w, pbdKind_chain);
	for (int i = 0; i < def->segments; ++i) {
		AddConstraint(w, first + i, first + i + 1);
		w->lines[2 * w->lineCount] = (uint32_t)(first + i);
		w->lines[2 * w->lineCount + 1] = (uint32_t)(first + i + 1);
		w->lineCount += 1;
	}
	EndGroup(w);
	info->constraintCount = w->constraintCount - info->firstConstraint;
	info->lineCount = lines;
	w->objectCount += 1;
	w->topologyVersion += 1;
	return first;
}

int pbd_World_AddCloth(pbdWorldId id, const pbdClothDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetError(PBD_ERR_BAD_DEF, "use pbd_DefaultClothDef()");
	int err;
	if ((err = CheckVec(def->origin, "cloth origin")) != PBD_OK) return err;
	if ((err = CheckVec(def->axisU, "cloth axisU")) != PBD_OK) return err;
	if ((err = CheckVec(def->axisV, "cloth axisV")) != PBD_OK) return err;
	/* Every particle within the world bound too: each coordinate below is monotone in s and t,
	   so the four corners, computed the same way, bound them all (found by tests/fuzz). */
	for (int corner = 0; corner < 4; ++corner) {
		float s = (float)(corner & 1), t = (float)(corner >> 1), c[3];
		for (int k = 0; k < 3; ++k) c[k] = def->origin[k] + def->axisU[k] * s + def->axisV[k] * t;
		if ((err = CheckVec(c, "cloth corner (origin + axisU, axisV)")) != PBD_OK) return err;
	}
	if ((err = CheckMass(def->mass)) != PBD_OK) return err;
	int nu = def->resolutionU, nv = def->resolutionV;
	if (nu < 2 || nv < 2 || (int64_t)nu * nv > PBD_MAX_PARTICLES) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "cloth resolution %d x %d: each side >= 2 and at most %d particles",
							nu, nv, PBD_MAX_PARTICLES);
	}
	int32_t particles, constraints, triangles;
	pbd_ClothCounts(nu, nv, &particles, &constraints, &triangles);
	if ((err = CheckRoom(w, particles, constraints, 3, triangles, 0)) != PBD_OK) return err;

	int first = w->particleCount;
	float invMass = 1.0f / def->mass;
	for (int j = 0; j < nv; ++j) {
		float t = (float)j / (float)(nv - 1);
		for (int i = 0; i < nu; ++i) {
			float s = (float)i / (float)(nu - 1);
			AddParticle(w, def->origin[0] + def->axisU[0] * s + def->axisV[0] * t,
						def->origin[1] + def->axisU[1] * s + def->axisV[1] * t,
						def->origin[2] + def->axisU[2] * s + def->axisV[2] * t, invMass);
		}
	}
	pbdObjectInfo* info = &w->objects[w->objectCount];
	memset(info, 0, sizeof *info);
	info->type = 1;
	info->firstParticle = first;
	info->particleCount = particles;
	info->firstConstraint = w->constraintCount;
	info->firstTriangle = w->triangleCount;
	info->firstLine = w->lineCount;
	info->resolutionU = nu;
	info->resolutionV = nv;
#define IDX(i, j) (first + (j) * nu + (i))
	/* Row-major order keeps each Gauss-Seidel sweep moving through memory. Within that, the
	   order is chosen so that greedy colouring (colouring.c) puts runs of evenly spaced
	   constraints in each colour, which the solver projects 4 at a time without loading
	   indices: along a row, the edges at even i, then odd i (bends: i mod 4 = 0, 2, 1, 3);
	   the columns and diagonals row by row. A grid still gets 4 colours per group. */
	BeginGroup(w, pbdKind_stretch);
	for (int j = 0; j < nv; ++j) {
		for (int parity = 0; parity < 2; ++parity) {
			for (int i = parity; i + 1 < nu; i += 2) AddConstraint(w, IDX(i, j), IDX(i + 1, j));
		}
	}
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i < nu; ++i) AddConstraint(w, IDX(i, j), IDX(i, j + 1));
	}
	EndGroup(w);
	BeginGroup(w, pbdKind_shear);
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i + 1 < nu; ++i) AddConstraint(w, IDX(i, j), IDX(i + 1, j + 1));
	}
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i + 1 < nu; ++i) AddConstraint(w, IDX(i + 1, j), IDX(i, j + 1));
	}
	EndGroup(w);
	BeginGroup(w, pbdKind_bend);
	for (int j = 0; j < nv; ++j) {
		static const int startOf[4] = { 0, 2, 1, 3 };
		for (int r = 0; r < 4; ++r) {
			for (int i = startOf[r]; i + 2 < nu; i += 4) AddConstraint(w, IDX(i, j), IDX(i + 2, j));
		}
	}
	for (int j = 0; j + 2 < nv; ++j) {
		for (int i = 0; i < nu; ++i) AddConstraint(w, IDX(i, j), IDX(i, j + 2));
	}
	EndGroup(w);
	/* Two triangles per quad, wound so the front face's normal is axisV x axisU:
	   toward +z for the default hanging cloth (U = +x, V = -y). */
	for (int j = 0; j + 1 < nv; ++j) {
		for (int i = 0; i + 1 < nu; ++i) {
			uint32_t* t = w->triangles + 3 * w->triangleCount;
			t[0] = (uint32_t)IDX(i, j);
			t[1] = (uint32_t)IDX(i, j + 1);
			t[2] = (uint32_t)IDX(i + 1, j);
			t[3] = (uint32_t)IDX(i + 1, j);
			t[4] = (uint32_t)IDX(i, j + 1);
			t[5] = (uint32_t)IDX(i + 1, j + 1);
			w->triangleCount += 2;
		}
	}
#undef IDX
	/* Colour the cloth's groups for the 4-wide solver. Chains stay in order: along a
	   chain, sequential Gauss-Seidel carries a pin's correction to the far end in one
	   pass, and a chain is too small for SIMD to matter. */
	for (int g = 0; g < w->groupCount; ++g) {
		if (w->groups[g].object == w->objectCount) pbd_ColourGroup(w, &w->groups[g], first, particles);
	}
	info->constraintCount = w->constraintCount - info->firstConstraint;
	info->triangleCount = triangles;
	w->tethersDirty = 1;
	PBD_ASSERT(info->constraintCount == constraints);
	w->objectCount += 1;
	w->topologyVersion += 1;
	return first;
}

int pbd_World_GetObjectCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->objectCount;
}

int pbd_World_GetObjectInfo(pbdWorldId id, int object, pbdObjectInfo* info)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (info == NULL || object < 0 || object >= w->objectCount) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "object %d of %d", object, w->objectCount);
	}
	*info = w->objects[object];
	return PBD_OK;
}

/* ---------------------------------------------------------------- particles */

#define CHECK_PARTICLE(w, i)                                                                                    \
	if ((i) < 0 || (i) >= (w)->particleCount)                                                                   \
	return pbd_SetError(PBD_ERR_INVALID_PARTICLE, "particle %d of %d", (int)(i), (w)->particleCount)

int pbd_World_SetInvMass(pbdWorldId id, int particle, float invMass)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_PARTICLE(w, particle);
	if (!pbd_IsFinite(invMass) || invMass < 0.0f || invMass > 1e6f) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "inverse mass must be in [0, 1e6], got %g", (double)invMass);
	}
	if ((w->x[4 * particle + 3] == 0.0f) != (invMass == 0.0f)) w->tethersDirty = 1; /* the set of pins changed */
	w->x[4 * particle + 3] = invMass;
	w->p[4 * particle + 3] = invMass;
	w->sharesDirty = 1;
	w->pairsReusable = 0; /* a pair of two pins was left out of the list */
	if (invMass == 0.0f) {
		/* A pin has no velocity, so prediction leaves it where it is: pins never move. */
		memset(w->v + 4 * particle, 0, 3 * sizeof(float));
	}
	return PBD_OK;
}

int pbd_World_SetMass(pbdWorldId id, int particle, float mass)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_PARTICLE(w, particle);
	int err = CheckMass(mass);
	if (err != PBD_OK) return err;
	return pbd_World_SetInvMass(id, particle, 1.0f / mass);
}

int pbd_World_SetPosition(pbdWorldId id, int particle, float x, float y, float z)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_PARTICLE(w, particle);
	float v[3] = { x, y, z };
	int err = CheckVec(v, "position");
	if (err != PBD_OK) return err;
	memcpy(w->x + 4 * particle, v, sizeof v);
	memcpy(w->p + 4 * particle, v, sizeof v);
	return PBD_OK;
}

int pbd_World_SetVelocity(pbdWorldId id, int particle, float x, float y, float z)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_PARTICLE(w, particle);
	float v[3] = { x, y, z };
	int err = CheckVec(v, "velocity");
	if (err != PBD_OK) return err;
	if (w->x[4 * particle + 3] == 0.0f) return PBD_OK; /* pins stay at rest */
	memcpy(w->v + 4 * particle, v, sizeof v);
	return PBD_OK;
}

int pbd_World_GetParticleCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->particleCount;
}

int pbd_World_GetConstraintCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->constraintCount;
}

int pbd_World_GetTopologyVersion(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->topologyVersion;
}

int pbd_World_GetCount(pbdWorldId id, pbdBuffer buffer)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	switch (buffer) {
	case pbdBuffer_positions:
	case pbdBuffer_velocities:
	case pbdBuffer_normals: return w->particleCount;
	case pbdBuffer_triangles: return w->triangleCount;
	case pbdBuffer_lines: return w->lineCount;
	case pbdBuffer_errors: return w->particleCount;
	case pbdBuffer_convergence: return w->convergenceCount;
	default: return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "buffer %d", (int)buffer);
	}
}

void* pbd_World_GetBuffer(pbdWorldId id, pbdBuffer buffer, int32_t* count)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (count) *count = 0;
	if (w == NULL) {
		pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
		return NULL;
	}
	int n = pbd_World_GetCount(id, buffer);
	if (n < 0) return NULL;
	if (count) *count = n;
	switch (buffer) {
	case pbdBuffer_positions: return w->x;
	case pbdBuffer_velocities: return w->v;
	case pbdBuffer_normals: return w->n;
	case pbdBuffer_triangles: return w->triangles;
	case pbdBuffer_lines: return w->lines;
	case pbdBuffer_errors: return w->errors;
	case pbdBuffer_convergence: return w->convergence;
	default: return NULL;
	}
}

/* ---------------------------------------------------------------- attachments */

pbdAttachmentId pbd_World_AddAttachment(pbdWorldId id, int particle, float x, float y, float z, float stiffness)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	CHECK_PARTICLE(w, particle);
	float t[3] = { x, y, z };
	int err = CheckVec(t, "attachment target");
	if (err != PBD_OK) return err;
	if (!pbd_IsFinite(stiffness) || stiffness < 0.0f || stiffness > 1.0f) {
		return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "attachment stiffness must be in [0, 1], got %g", (double)stiffness);
	}
	for (int i = 0; i < w->maxAttachments; ++i) {
		pbdAttachment* a = &w->attachments[i];
		if (a->particle >= 0) continue;
		a->particle = particle;
		memcpy(a->target, t, sizeof t);
		a->stiffness = stiffness;
		return (a->generation << 16) | (i + 1);
	}
	return pbd_SetError(PBD_ERR_ATTACHMENT_CAPACITY, "all %d attachments are in use", w->maxAttachments);
}

static pbdAttachment* GetAttachment(pbdWorld* w, pbdAttachmentId id)
{
	if (id <= 0) return NULL;
	int slot = (id & 0xffff) - 1;
	if (slot < 0 || slot >= w->maxAttachments) return NULL;
	pbdAttachment* a = &w->attachments[slot];
	if (a->particle < 0 || a->generation != (id >> 16)) return NULL;
	return a;
}

int pbd_World_MoveAttachment(pbdWorldId id, pbdAttachmentId attachment, float x, float y, float z)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdAttachment* a = GetAttachment(w, attachment);
	if (a == NULL) return pbd_SetError(PBD_ERR_INVALID_ATTACHMENT, "attachment id %d", (int)attachment);
	float t[3] = { x, y, z };
	int err = CheckVec(t, "attachment target");
	if (err != PBD_OK) return err;
	memcpy(a->target, t, sizeof t);
	return PBD_OK;
}

int pbd_World_RemoveAttachment(pbdWorldId id, pbdAttachmentId attachment)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdAttachment* a = GetAttachment(w, attachment);
	if (a == NULL) return pbd_SetError(PBD_ERR_INVALID_ATTACHMENT, "attachment id %d", (int)attachment);
	a->particle = -1;
	a->generation = (a->generation + 1) & 0x7fff;
	if (a->generation == 0) a->generation = 1;
	return PBD_OK;
}

int pbd_World_GetAttachmentCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	int n = 0;
	for (int i = 0; i < w->maxAttachments; ++i) n += w->attachments[i].particle >= 0;
	return n;
}

/* ---------------------------------------------------------------- queries */

int pbd_World_RayPick(pbdWorldId id, float ox, float oy, float oz, float dx, float dy, float dz, float radius)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return -1;
	float o[3] = { ox, oy, oz }, d[3] = { dx, dy, dz };
	if (CheckVec(o, "ray origin") != PBD_OK || CheckVec(d, "ray direction") != PBD_OK || !pbd_IsFinite(radius) || radius <= 0.0f) {
		return -1;
	}
	float len = sqrtf(dx * dx + dy * dy + dz * dz);
	if (len < 1e-12f) return -1;
	dx /= len;
	dy /= len;
	dz /= len;
	int best = -1;
	float bestT = 3.4e38f, r2 = radius * radius;
	for (int i = 0; i < w->particleCount; ++i) {
		const float* x = w->x + 4 * i;
		float rx = x[0] - ox, ry = x[1] - oy, rz = x[2] - oz;
		float t = rx * dx + ry * dy + rz * dz;
		if (t < 0.0f || t >= bestT) continue;
		float ex = rx - t * dx, ey = ry - t * dy, ez = rz - t * dz;
		if (ex * ex + ey * ey + ez * ez <= r2) {
			best = i;
			bestT = t;
		}
	}
	return best;
}

int pbd_World_UpdateNormals(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	memset(w->n, 0, (size_t)w->particleCount * 4 * sizeof(float));
	for (int t = 0; t < w->triangleCount; ++t) {
		const uint32_t* tri = w->triangles + 3 * t;
		const float *a = w->x + 4 * tri[0], *b = w->x + 4 * tri[1], *c = w->x + 4 * tri[2];
		float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
		float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
		/* Cross product length is twice the area: larger triangles weigh more. */
		float nx = e1[1] * e2[2] - e1[2] * e2[1];
		float ny = e1[2] * e2[0] - e1[0] * e2[2];
		float nz = e1[0] * e2[1] - e1[1] * e2[0];
		for (int k = 0; k < 3; ++k) {
			float* n = w->n + 4 * tri[k];
			n[0] += nx;
			n[1] += ny;
			n[2] += nz;
		}
	}
	for (int i = 0; i < w->particleCount; ++i) {
		float* n = w->n + 4 * i;
		float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		if (len > 1e-20f) {
			n[0] /= len;
			n[1] /= len;
			n[2] /= len;
		} else {
			n[0] = 0.0f;
			n[1] = 1.0f;
			n[2] = 0.0f; /* degenerate or isolated: any unit vector beats NaN */
		}
	}
	return PBD_OK;
}

int pbd_World_UpdateErrors(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	memset(w->errors, 0, (size_t)w->particleCount * sizeof(float));
	for (int c = 0; c < w->constraintCount; ++c) {
		int a = w->ca[c], b = w->cb[c];
		if (a == b || !(w->rest[c] > 0.0f)) continue; /* torn, or zero rest length */
		float e = fabsf(Distance(w->x + 4 * a, w->x + 4 * b) - w->rest[c]) / w->rest[c];
		if (e > w->errors[a]) w->errors[a] = e;
		if (e > w->errors[b]) w->errors[b] = e;
	}
	return PBD_OK;
}

float pbd_MeanRelativeError(const pbdWorld* w)
{
	double sum = 0.0;
	int live = 0;
	for (int c = 0; c < w->constraintCount; ++c) {
		int a = w->ca[c], b = w->cb[c];
		if (a == b || !(w->rest[c] > 0.0f)) continue;
		sum += fabsf(Distance(w->p + 4 * a, w->p + 4 * b) - w->rest[c]) / w->rest[c];
		live += 1;
	}
	return live > 0 ? (float)(sum / live) : 0.0f;
}

int pbd_World_GetStats(pbdWorldId id, pbdStats* s)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (s == NULL) return pbd_SetError(PBD_ERR_INVALID_ARGUMENT, "stats is NULL");
	memset(s, 0, sizeof *s);
	s->steps = w->steps;
	s->particles = w->particleCount;
	s->constraints = w->constraintCount;
	s->attachments = pbd_World_GetAttachmentCount(id);
	double sumError = 0.0;
	for (int g = 0; g < w->groupCount; ++g) {
		const pbdGroup* group = &w->groups[g];
		/* Stretch is what the structural constraints report; bending and shear links
		   may lengthen while the cloth itself keeps its size. */
		int structural = group->kind == pbdKind_stretch || group->kind == pbdKind_chain;
		for (int c = group->first; c < group->first + group->count; ++c) {
			if (w->ca[c] == w->cb[c]) continue; /* torn */
			float len = Distance(w->x + 4 * w->ca[c], w->x + 4 * w->cb[c]);
			float err = fabsf(len - w->rest[c]);
			sumError += err;
			if (err > s->maxError) s->maxError = err;
			if (structural && w->rest[c] > 0.0f) {
				float stretch = len / w->rest[c] - 1.0f;
				if (stretch > s->maxStretch) s->maxStretch = stretch;
			}
		}
	}
	int live = 0;
	for (int c = 0; c < w->constraintCount; ++c) live += w->ca[c] != w->cb[c];
	s->meanError = live > 0 ? (float)(sumError / live) : 0.0f;
	const float* g = &w->params[pbdParam_gravityX];
	for (int i = 0; i < w->particleCount; ++i) {
		const float* x = w->x + 4 * i;
		const float* v = w->v + 4 * i;
		if (x[3] <= 0.0f) continue;
		double m = 1.0 / x[3];
		s->kineticEnergy += 0.5 * m * ((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
		s->potentialEnergy -= m * ((double)g[0] * x[0] + (double)g[1] * x[1] + (double)g[2] * x[2]);
	}
	return PBD_OK;
}

uint32_t pbd_World_Hash(pbdWorldId id)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return 0;
	uint32_t h = 2166136261u; /* FNV-1a */
	const uint8_t* bytes[2] = { (const uint8_t*)w->x, (const uint8_t*)w->v };
	size_t n = (size_t)w->particleCount * 4 * sizeof(float);
	for (int b = 0; b < 2; ++b) {
		for (size_t i = 0; i < n; ++i) {
			h ^= bytes[b][i];
			h *= 16777619u;
		}
	}
	return h;
}
