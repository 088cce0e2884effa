/* fuzz_query.c -- the calls of the API fuzzer that only read (or fill derived buffers):
   normals, errors, statistics, ray picks, collider distance, and every getter, name lookup
   and count function, with valid and hostile arguments. None may change any world. */
#include "fuzz_world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V3 "(%g, %g, %g)"
#define A3(v) (double)(v)[0], (double)(v)[1], (double)(v)[2]

void OpUpdateNormals(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int rc = pbd_World_UpdateNormals(world);
	Trace("UpdateNormals(w%d) -> %d", world, rc);
	if (Result(f, rc, world, 1, "UpdateNormals") < 0) return;
	int32_t n = 0;
	const float* normal = pbd_World_GetBuffer(world, pbdBuffer_normals, &n);
	for (int i = 0; i < n; ++i) {
		const float* v = normal + 4 * i;
		double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
		FUZZ_CHECK(isfinite(len) && fabs(len - 1.0) < 1e-3, "normal %d is " V3, i, A3(v));
	}
	f->work += 4.0 * n;
}

void OpUpdateErrors(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int rc = pbd_World_UpdateErrors(world);
	Trace("UpdateErrors(w%d) -> %d", world, rc);
	if (Result(f, rc, world, 1, "UpdateErrors") < 0) return;
	int32_t n = 0;
	const float* e = pbd_World_GetBuffer(world, pbdBuffer_errors, &n);
	for (int i = 0; i < n; ++i) FUZZ_CHECK(e[i] >= 0.0f && !isnan(e[i]), "error of particle %d is %g", i, (double)e[i]);
	f->work += 2.0 * pbd_World_GetConstraintCount(world) + n;
}

void OpGetStats(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int null = FuzzU8(&f->in) == 0xff;
	pbdStats s;
	memset(&s, 0, sizeof s);
	int rc = pbd_World_GetStats(world, null ? NULL : &s);
	Trace("GetStats(w%d%s) -> %d: max error %g, max stretch %g, kinetic %g", world, null ? ", NULL" : "", rc, (double)s.maxError,
		  (double)s.maxStretch, s.kineticEnergy);
	if (Result(f, rc, world, 1, "GetStats") < 0) return;
	FUZZ_CHECK(!null, "GetStats accepted NULL");
	// pbdStats.constraints is every family's count summed; the distance family's own is pbd_World_GetConstraintCount.
	int32_t counts[32];
	const int families = pbd_World_GetConstraintCounts(world, counts, 32);
	FUZZ_CHECK(families > 0 && families <= 32, "GetConstraintCounts returned %d families", families);
	int64_t sum = 0;
	for (int k = 0; k < families; ++k) {
		FUZZ_CHECK(counts[k] >= 0, "family %d holds %d constraints", k, counts[k]);
		sum += counts[k];
	}
	FUZZ_CHECK(s.particles == pbd_World_GetParticleCount(world) && s.constraints == sum &&
				   s.constraints >= pbd_World_GetConstraintCount(world) &&
				   s.attachments == pbd_World_GetAttachmentCount(world) && s.steps >= 0,
			   "GetStats counts disagree with the world (constraints %d, the families' sum %lld, distance %d)", s.constraints,
			   (long long)sum, pbd_World_GetConstraintCount(world));
	FUZZ_CHECK(s.maxError >= 0.0f && s.meanError >= 0.0f && s.maxStretch >= 0.0f && s.meanError <= s.maxError * 1.0001f + 1e-30f,
			   "GetStats errors: max %g mean %g stretch %g", (double)s.maxError, (double)s.meanError, (double)s.maxStretch);
	FUZZ_CHECK(isfinite(s.maxError) && isfinite(s.meanError) && isfinite(s.kineticEnergy) && isfinite(s.potentialEnergy) &&
				   s.kineticEnergy >= 0.0,
			   "GetStats: a statistic is not finite (max error %g, mean %g, kinetic %g, potential %g)", (double)s.maxError,
			   (double)s.meanError, s.kineticEnergy, s.potentialEnergy);
	f->work += 2.0 * s.constraints + s.particles;
}

void OpRayPick(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	float o[3], d[3], r;
	Floats(f, o, 3);
	Floats(f, d, 3);
	r = FuzzFloat(&f->in);
	int rc = pbd_World_RayPick(world, o[0], o[1], o[2], d[0], d[1], d[2], r);
	Trace("RayPick(w%d, " V3 ", " V3 ", %g) -> %d", world, A3(o), A3(d), (double)r, rc);
	/* -1 is "no particle" here, not an error */
	FUZZ_CHECK(rc == -1 || (SlotOf(f, world) != NULL && rc >= 0 && rc < Particles(world)), "RayPick returned %d", rc);
	Unchanged(f, world, "RayPick");
	f->work += Particles(world);
}

void OpRayColliders(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	float o[3], d[3], t = 12345.0f;
	Floats(f, o, 3);
	Floats(f, d, 3);
	int null = FuzzU8(&f->in) == 0xff;
	int rc = pbd_World_RayCastColliders(world, o[0], o[1], o[2], d[0], d[1], d[2], null ? NULL : &t);
	Trace("RayCastColliders(w%d, " V3 ", " V3 "%s) -> %d, t %g", world, A3(o), A3(d), null ? ", NULL" : "", rc, (double)t);
	FUZZ_CHECK(rc == -1 || (SlotOf(f, world) != NULL && rc >= 0 && rc < Colliders(world)), "RayCastColliders returned %d", rc);
	if (rc >= 0 && !null) FUZZ_CHECK(isfinite(t) && t >= 0.0f, "RayCastColliders hit at t = %g", (double)t);
	Unchanged(f, world, "RayCastColliders");
}

void OpColliderDistance(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int c = FuzzIndex(&f->in, Colliders(world));
	float p[3];
	Floats(f, p, 3);
	float d = pbd_World_ColliderDistance(world, c, p[0], p[1], p[2]);
	Trace("ColliderDistance(w%d, %d, " V3 ") -> %g", world, c, A3(p), (double)d);
	int valid = SlotOf(f, world) != NULL && c >= 0 && c < Colliders(world) && InBound(p);
	FUZZ_CHECK(valid ? isfinite(d) : isnan(d), "ColliderDistance gave %g for a %s query", (double)d, valid ? "valid" : "refused");
	Unchanged(f, world, "ColliderDistance");
}

/* ---------------------------------------------------------------- getters */

static void QueryParamInfo(Fuzz* f)
{
	int p = FuzzIndex(&f->in, pbdParam_count);
	int null = FuzzU8(&f->in) == 0xff;
	pbdParamInfo info;
	memset(&info, 0, sizeof info);
	int rc = pbd_GetParamInfo(p, null ? NULL : &info);
	Trace("GetParamInfo(%d%s) -> %d", p, null ? ", NULL" : "", rc);
	int known = p >= 0 && p < pbd_ParamCount();
	if (rc < 0) {
		FuzzCheckRefusal(rc, 0, "GetParamInfo");
		FUZZ_CHECK(!known || null, "GetParamInfo refused parameter %d of %d", p, pbd_ParamCount());
		return;
	}
	FUZZ_CHECK(known && !null, "GetParamInfo accepted %d", p);
	FUZZ_CHECK(info.name && info.unit && info.owner && info.scene, "GetParamInfo(%d): a NULL string", p);
	FUZZ_CHECK(info.minValue <= info.defaultValue && info.defaultValue <= info.maxValue, "%s: default %g outside [%g, %g]", info.name,
			   (double)info.defaultValue, (double)info.minValue, (double)info.maxValue);
	FUZZ_CHECK(pbd_ParamFromName(info.name) == p && strcmp(pbd_ParamName(p), info.name) == 0, "%s: name lookup", info.name);
}

static void QueryParamFromName(Fuzz* f)
{
	char name[24];
	int n = FuzzU8(&f->in) % (int)sizeof name;
	for (int i = 0; i < n; ++i) name[i] = (char)FuzzU8(&f->in);
	name[n] = '\0';
	int null = n == 0 && FuzzU8(&f->in) == 0xff;
	int p = pbd_ParamFromName(null ? NULL : name);
	Trace("ParamFromName(\"%s\") -> %d", null ? "NULL" : name, p);
	if (p < 0) FUZZ_CHECK(p == PBD_ERR_UNKNOWN_PARAM, "ParamFromName returned %d", p);
	else FUZZ_CHECK(!null && p < pbd_ParamCount() && strcmp(pbd_ParamName(p), name) == 0, "ParamFromName(%s) = %d", name, p);
	int q = FuzzIndex(&f->in, pbd_ParamCount());
	FUZZ_CHECK((pbd_ParamName(q) != NULL) == (q >= 0 && q < pbd_ParamCount()), "ParamName(%d)", q);
}

static void QueryBuffers(Fuzz* f, pbdWorldId world)
{
	int b = FuzzIndex(&f->in, pbdBuffer_count);
	int32_t count = -7;
	int n = pbd_World_GetCount(world, (pbdBuffer)b);
	void* p = pbd_World_GetBuffer(world, (pbdBuffer)b, &count);
	Trace("GetCount/GetBuffer(w%d, %d) -> %d, %p, %d", world, b, n, p, count);
	int valid = SlotOf(f, world) != NULL && b >= 0 && b < pbdBuffer_count;
	FUZZ_CHECK(valid ? (n >= 0 && p != NULL && count == n) : (n < 0 && p == NULL && count == 0),
			   "GetCount/GetBuffer(%d) of a %s world: %d, %p, %d", b, SlotOf(f, world) ? "live" : "dead", n, p, count);
	if (n < 0) FuzzCheckRefusal(n, world, "GetCount");
}

static void QueryInfo(Fuzz* f, pbdWorldId world, int collider)
{
	int objects = pbd_World_GetObjectCount(world), colliders = Colliders(world);
	int i = FuzzIndex(&f->in, collider ? colliders : (objects > 0 ? objects : 0));
	int null = FuzzU8(&f->in) == 0xff;
	pbdObjectInfo object;
	pbdColliderInfo shape;
	int rc = collider ? pbd_World_GetColliderInfo(world, i, null ? NULL : &shape) : pbd_World_GetObjectInfo(world, i, null ? NULL : &object);
	Trace("Get%sInfo(w%d, %d%s) -> %d", collider ? "Collider" : "Object", world, i, null ? ", NULL" : "", rc);
	if (rc < 0) {
		FuzzCheckRefusal(rc, world, collider ? "GetColliderInfo" : "GetObjectInfo");
		return;
	}
	FUZZ_CHECK(SlotOf(f, world) != NULL && !null && i >= 0 && i < (collider ? colliders : objects), "Get%sInfo accepted %d", collider ? "Collider" : "Object", i);
	if (!collider) {
		FUZZ_CHECK(object.firstParticle >= 0 && object.particleCount > 0 &&
					   object.firstParticle + object.particleCount <= pbd_World_GetParticleCount(world) &&
					   object.tornConstraints >= 0 && object.tornConstraints <= object.constraintCount,
				   "object %d's ranges are outside the world", i);
	}
}

void OpQuery(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t which = FuzzU8(&f->in) % 9;
	switch (which) {
	case 0: QueryBuffers(f, world); break;
	case 1: QueryInfo(f, world, 0); break;
	case 2: QueryInfo(f, world, 1); break;
	case 3: {
		int p = FuzzIndex(&f->in, pbdParam_count);
		float v = pbd_World_GetParam(world, (pbdParam)p);
		Trace("GetParam(w%d, %d) -> %g", world, p, (double)v);
		int valid = SlotOf(f, world) != NULL && p >= 0 && p < pbdParam_count;
		FUZZ_CHECK(valid ? isfinite(v) : isnan(v), "GetParam(%d) = %g", p, (double)v);
		break;
	}
	case 4: QueryParamInfo(f); break;
	case 5: QueryParamFromName(f); break;
	case 6: {
		int code = (int)FuzzU32(&f->in);
		float k = FuzzFloat(&f->in);
		/* pbd_PassStiffness finds the ns-th root by bisection with ns multiplies per step:
		   ns is asked in the range the step uses (the passes of one step, 1..200) and around it */
		int ns = FuzzIndex(&f->in, 256);
		float kp = pbd_PassStiffness(k, ns);
		Trace("ErrorString(%d), PassStiffness(%g, %d) -> %g", code, (double)k, ns, (double)kp);
		FUZZ_CHECK(pbd_ErrorString(code) != NULL, "ErrorString(%d) is NULL", code);
		FUZZ_CHECK(kp >= 0.0f && kp <= 1.0f, "PassStiffness(%g, %d) = %g", (double)k, ns, (double)kp);
		break;
	}
	case 7: {
		int32_t a = ReadCount(f), b = ReadCount(f), p = -1, c = -1, t = -1;
		pbd_ClothCounts(a, b, &p, &c, &t);
		Trace("ClothCounts(%d, %d) -> %d, %d, %d", a, b, p, c, t);
		FUZZ_CHECK(p >= 0 && c >= 0 && t >= 0, "ClothCounts(%d, %d) gave negative counts", a, b);
		pbd_ChainCounts(a, &p, &c, &t);
		Trace("ChainCounts(%d) -> %d, %d, %d", a, p, c, t);
		FUZZ_CHECK(p >= 0 && c >= 0 && t >= 0, "ChainCounts(%d) gave negative counts", a);
		break;
	}
	default: {
		uint32_t h1 = pbd_World_Hash(world), h2 = pbd_World_Hash(world);
		int counts[6] = { pbd_World_GetParticleCount(world), pbd_World_GetConstraintCount(world), pbd_World_GetAttachmentCount(world),
						  pbd_World_GetColliderCount(world), pbd_World_GetObjectCount(world), pbd_World_GetTopologyVersion(world) };
		Trace("Hash, counts(w%d) -> 0x%08x, %d %d %d %d %d %d", world, h1, counts[0], counts[1], counts[2], counts[3], counts[4],
			  counts[5]);
		FUZZ_CHECK(h1 == h2, "the hash of an unchanged world changed");
		int live = SlotOf(f, world) != NULL;
		FUZZ_CHECK(pbd_World_IsValid(world) == live, "IsValid(%d) = %d", world, pbd_World_IsValid(world));
		for (int i = 0; i < 6; ++i) FUZZ_CHECK(live ? counts[i] >= 0 : counts[i] == PBD_ERR_INVALID_WORLD, "count %d = %d", i, counts[i]);
		if (!live) FUZZ_CHECK(h1 == 0, "the hash of a dead world is 0x%08x", h1);
		break;
	}
	}
	Unchanged(f, world, "query");
}
