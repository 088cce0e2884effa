/* services/boundary_api.c -- the colliders' public API: adding, moving and changing them,
   their records, distances and ray casts. A collider's transform set here is where it is at
   the end of the next step; the colliders family (colliders.c) sweeps it there from where it was. */
#include "services/boundary.h"

#include <math.h>
#include <string.h>

#define PBD_SIZE_LIMIT 1e4f   /* radius, halfHeight, halfExtents in (0, 1e4] */
#define PBD_FRICTION_LIMIT 10.0f

pbdColliderDef pbd_DefaultColliderDef(void)
{
	pbdColliderDef def;
	memset(&def, 0, sizeof def);
	def.rotation[3] = 1.0f;
	def.radius = 0.5f;
	def.halfHeight = 0.5f;
	def.halfExtents[0] = def.halfExtents[1] = def.halfExtents[2] = 0.5f;
	def.staticFriction = 0.5f;
	def.kineticFriction = 0.4f;
	def.internalValue = PBD_COOKIE;
	return def;
}

static int CheckPosition(pbdWorld* w, const float v[3], const char* what)
{
	for (int k = 0; k < 3; ++k) {
		if (!pbd_IsCoord(v[k])) {
			return pbd_SetWorldError(w, pbd_IsFinite(v[k]) ? PBD_ERR_INVALID_ARGUMENT : PBD_ERR_NOT_FINITE,
								"%s[%d] must be finite and within +-%g, got %g", what, k, (double)PBD_COORD_LIMIT, (double)v[k]);
		}
	}
	return PBD_OK;
}

/* A finite, non-zero quaternion, returned normalised (scaled by its largest component
   first, so neither huge nor tiny inputs overflow or underflow). */
static int CheckRotation(pbdWorld* w, const float q[4], float out[4])
{
	float m = 0.0f;
	for (int k = 0; k < 4; ++k) {
		if (!pbd_IsFinite(q[k])) return pbd_SetWorldError(w, PBD_ERR_NOT_FINITE, "collider rotation[%d] is %g", k, (double)q[k]);
		float a = fabsf(q[k]);
		if (a > m) m = a;
	}
	if (m == 0.0f) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "collider rotation is the zero quaternion");
	float s[4], len2 = 0.0f;
	for (int k = 0; k < 4; ++k) {
		s[k] = q[k] / m;
		len2 += s[k] * s[k];
	}
	float len = sqrtf(len2);
	for (int k = 0; k < 4; ++k) out[k] = s[k] / len;
	return PBD_OK;
}

static int CheckRange(pbdWorld* w, float v, float lo, float hi, int loOpen, const char* what)
{
	if (!pbd_IsFinite(v)) return pbd_SetWorldError(w, PBD_ERR_NOT_FINITE, "collider %s is %g", what, (double)v);
	if ((loOpen ? v <= lo : v < lo) || v > hi) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "collider %s must be in %c%g, %g], got %g", what, loOpen ? '(' : '[',
							(double)lo, (double)hi, (double)v);
	}
	return PBD_OK;
}

/* A collider's frictions and restitution, as pbdColliderDef documents them. */
#define CHECK_COLLIDER(cs, i)                                                                                   \
	if ((i) < 0 || (i) >= (cs)->count)                                                                          \
	return pbd_SetWorldError(w, PBD_ERR_INVALID_COLLIDER, "collider %d of %d", (int)(i), (cs)->count)

static int CheckMaterial(pbdWorld* w, float staticFriction, float kineticFriction, float restitution)
{
	int err;
	if ((err = CheckRange(w, staticFriction, 0.0f, PBD_FRICTION_LIMIT, 0, "staticFriction")) != PBD_OK) return err;
	if ((err = CheckRange(w, kineticFriction, 0.0f, PBD_FRICTION_LIMIT, 0, "kineticFriction")) != PBD_OK) return err;
	return CheckRange(w, restitution, 0.0f, 1.0f, 0, "restitution");
}

int pbd_World_AddCollider(pbdWorldId id, const pbdColliderDef* def)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (def == NULL || def->internalValue != PBD_COOKIE) return pbd_SetWorldError(w, PBD_ERR_BAD_DEF, "use pbd_DefaultColliderDef()");
	if (def->type < 0 || def->type >= pbdShape_count) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "collider type %d (0 sphere, 1 capsule, 2 box)", (int)def->type);
	}
	int err;
	if ((err = CheckPosition(w, def->position, "collider position")) != PBD_OK) return err;
	float q[4];
	if ((err = CheckRotation(w, def->rotation, q)) != PBD_OK) return err;
	pbdColliderInfo shape;
	memset(&shape, 0, sizeof shape);
	shape.type = def->type;
	/* only the sizes the shape uses are checked and kept; the others read back as 0 */
	if (def->type == pbdShape_sphere || def->type == pbdShape_capsule) {
		if ((err = CheckRange(w, def->radius, 0.0f, PBD_SIZE_LIMIT, 1, "radius")) != PBD_OK) return err;
		shape.radius = def->radius;
	}
	if (def->type == pbdShape_capsule) {
		if ((err = CheckRange(w, def->halfHeight, 0.0f, PBD_SIZE_LIMIT, 1, "halfHeight")) != PBD_OK) return err;
		shape.halfHeight = def->halfHeight;
	}
	if (def->type == pbdShape_box) {
		static const char* const names[3] = { "halfExtents[0]", "halfExtents[1]", "halfExtents[2]" };
		for (int k = 0; k < 3; ++k) {
			if ((err = CheckRange(w, def->halfExtents[k], 0.0f, PBD_SIZE_LIMIT, 1, names[k])) != PBD_OK) return err;
			shape.halfExtents[k] = def->halfExtents[k];
		}
	}
	if ((err = CheckMaterial(w, def->staticFriction, def->kineticFriction, def->restitution)) != PBD_OK) return err;
	pbdBoundary* cs = pbd_Boundary(w);
	if (cs->count >= cs->capacity) {
		return pbd_SetWorldError(w, PBD_ERR_COLLIDER_CAPACITY, "all %d colliders are in use", cs->capacity);
	}

	memcpy(shape.position, def->position, sizeof shape.position);
	memcpy(shape.rotation, q, sizeof shape.rotation);
	shape.staticFriction = def->staticFriction;
	shape.kineticFriction = def->kineticFriction;
	shape.restitution = def->restitution;
	int index = cs->count;
	pbdCollider* c = &cs->colliders[index];
	c->shape = shape;
	memcpy(c->prevPosition, shape.position, sizeof c->prevPosition);
	memcpy(c->prevRotation, shape.rotation, sizeof c->prevRotation);
	cs->count += 1;
	return index;
}

int pbd_World_SetColliderTransform(pbdWorldId id, int collider, float px, float py, float pz, float qx, float qy, float qz,
								   float qw)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdBoundary* cs = pbd_Boundary(w);
	CHECK_COLLIDER(cs, collider);
	float pos[3] = { px, py, pz }, rot[4] = { qx, qy, qz, qw }, q[4];
	int err;
	if ((err = CheckPosition(w, pos, "collider position")) != PBD_OK) return err;
	if ((err = CheckRotation(w, rot, q)) != PBD_OK) return err;
	/* prev keeps the start-of-step transform: the next step sweeps from there to here */
	pbdColliderInfo* s = &cs->colliders[collider].shape;
	memcpy(s->position, pos, sizeof pos);
	memcpy(s->rotation, q, sizeof q);
	return PBD_OK;
}

int pbd_World_SetColliderMaterial(pbdWorldId id, int collider, float staticFriction, float kineticFriction, float restitution)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdBoundary* cs = pbd_Boundary(w);
	CHECK_COLLIDER(cs, collider);
	/* all three checked before any is set: a refused call changes nothing */
	int err = CheckMaterial(w, staticFriction, kineticFriction, restitution);
	if (err != PBD_OK) return err;
	pbdColliderInfo* s = &cs->colliders[collider].shape;
	s->staticFriction = staticFriction;
	s->kineticFriction = kineticFriction;
	s->restitution = restitution;
	return PBD_OK;
}

int pbd_World_GetColliderCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return pbd_Boundary(w)->count;
}

int pbd_World_GetColliderInfo(pbdWorldId id, int collider, pbdColliderInfo* info)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdBoundary* cs = pbd_Boundary(w);
	CHECK_COLLIDER(cs, collider);
	if (info == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "info is NULL");
	*info = cs->colliders[collider].shape;
	return PBD_OK;
}

float pbd_World_ColliderDistance(pbdWorldId id, int collider, float x, float y, float z)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) {
		pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
		return NAN;
	}
	const pbdBoundary* cs = pbd_Boundary(w);
	if (collider < 0 || collider >= cs->count) {
		pbd_SetWorldError(w, PBD_ERR_INVALID_COLLIDER, "collider %d of %d", collider, cs->count);
		return NAN;
	}
	float point[3] = { x, y, z };
	if (CheckPosition(w, point, "point") != PBD_OK) return NAN;
	const pbdColliderInfo* s = &cs->colliders[collider].shape;
	pbdXf t;
	QuatToXf(s->position, s->rotation, &t);
	float q[3], n[3];
	ToLocal(&t, point, q);
	return ShapeSdf(s, q, n);
}

int pbd_World_RayCastColliders(pbdWorldId id, float ox, float oy, float oz, float dx, float dy, float dz, float* tOut)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) {
		pbd_SetError(PBD_ERR_INVALID_WORLD, "world id %d", (int)id);
		return -1;
	}
	float o[3] = { ox, oy, oz }, d[3] = { dx, dy, dz };
	if (CheckPosition(w, o, "ray origin") != PBD_OK || CheckPosition(w, d, "ray direction") != PBD_OK) return -1;
	float len = sqrtf(dx * dx + dy * dy + dz * dz);
	if (!(len > 1e-12f)) {
		pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "ray direction is zero");
		return -1;
	}
	d[0] /= len, d[1] /= len, d[2] /= len;
	int best = -1;
	float bestT = 3.4e38f;
	const pbdBoundary* cs = pbd_Boundary(w);
	for (int i = 0; i < cs->count; ++i) {
		const pbdColliderInfo* s = &cs->colliders[i].shape;
		pbdXf xf;
		QuatToXf(s->position, s->rotation, &xf);
		float lo[3], ld[3], t, n[3];
		ToLocal(&xf, o, lo);
		RotateToLocal(&xf, d, ld);
		/* a collider around the origin is not hit (Box2D's rule): picking sees through it */
		if (pbd_ShapeCast(s, 0.0f, lo, ld, bestT, &t, n) == CAST_HIT && t < bestT) {
			best = i;
			bestT = t;
		}
	}
	if (tOut != NULL) *tOut = best >= 0 ? bestT : -1.0f;
	return best;
}
