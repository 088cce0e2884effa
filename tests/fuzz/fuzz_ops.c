/* fuzz_ops.c -- the calls of the API fuzzer that build worlds: worlds, objects, attachments,
   colliders (fuzz_step.c: particle state, parameters, the step; fuzz_query.c: what only reads).
   Each decodes its arguments (fuzz_input.h), makes the call, and checks what the call reports
   against the world. The checks every call shares are in fuzz_api.c (Result) and fuzz_world.c. */
#include "fuzz_world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V3 "(%g, %g, %g)"
#define A3(v) (double)(v)[0], (double)(v)[1], (double)(v)[2]

void Floats(Fuzz* f, float* out, int n)
{
	for (int i = 0; i < n; ++i) out[i] = FuzzFloat(&f->in);
}

/* A count for segments and resolutions: mostly small, sometimes large or hostile. */
int32_t ReadCount(Fuzz* f)
{
	uint8_t s = FuzzU8(&f->in);
	if (s < 0x80) return FuzzU8(&f->in) % 17;
	if (s < 0xe0) return FuzzU8(&f->in);
	static const int32_t hostile[] = { -1, INT32_MAX, PBD_MAX_PARTICLES, 1 << 16, 2049, INT32_MIN, 0 };
	return hostile[s % (sizeof hostile / sizeof hostile[0])];
}

int InBound(const float* x)
{
	for (int k = 0; k < 3; ++k) {
		if (!isfinite(x[k]) || fabsf(x[k]) > 1e5f) return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- worlds */

void OpCreateWorld(Fuzz* f)
{
	FuzzSlot* slot = &f->slot[FuzzU8(&f->in) % FUZZ_SLOTS];
	uint8_t flags = FuzzU8(&f->in);
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = FuzzCapacity(&f->in, FUZZ_MAX_PARTICLES);
	def.maxConstraints = FuzzCapacity(&f->in, FUZZ_MAX_CONSTRAINTS);
	def.maxTriangles = FuzzCapacity(&f->in, 2 * FUZZ_MAX_PARTICLES);
	def.maxLines = FuzzCapacity(&f->in, FUZZ_MAX_PARTICLES);
	def.maxAttachments = FuzzCapacity(&f->in, PBD_MAX_ATTACHMENTS);
	def.maxObjects = FuzzCapacity(&f->in, PBD_MAX_OBJECTS);
	def.maxColliders = FuzzCapacity(&f->in, PBD_MAX_COLLIDERS);
	def.maxContacts = FuzzCapacity(&f->in, FUZZ_MAX_CONSTRAINTS);
	/* the engine clamps maxContacts to PBD_MAX_CONSTRAINTS and reserves that much: keep it small */
	if (def.maxContacts > (1 << 16)) def.maxContacts = 1 << 16;
	if (flags & 1) def.internalValue = 0;
	if (flags & 4) def.maxFluidParticles = def.maxParticles > 0 ? def.maxParticles / 2 : 512; /* room for fluids */
	if (f->creates >= FUZZ_MAX_CREATES) return;
	f->creates += 1;
	if (slot->id != 0) {
		pbdWorldId old = slot->id;
		Trace("DestroyWorld(w%d) (to make room)", old);
		FUZZ_CHECK(pbd_DestroyWorld(old) == PBD_OK, "could not destroy live world %d", old);
		slot->id = 0;
		f->stale[f->staleCount++ % FUZZ_MAX_STALE] = old;
		if (f->staleCount > FUZZ_MAX_STALE) f->staleCount = FUZZ_MAX_STALE;
		TakeAll(f);
	}
	const pbdWorldDef* arg = (flags & 2) ? NULL : &def;
	pbdWorldId id = pbd_CreateWorld(arg);
	Trace("CreateWorld(%s particles %d constraints %d triangles %d lines %d attachments %d objects %d colliders %d contacts %d%s) -> %d",
		  arg ? "" : "NULL:", def.maxParticles, def.maxConstraints, def.maxTriangles, def.maxLines, def.maxAttachments,
		  def.maxObjects, def.maxColliders, def.maxContacts, (flags & 1) ? " bad cookie" : "", id);
	if (Result(f, id, 0, 0, "CreateWorld") < 0) return;
	FUZZ_CHECK(id > 0 && pbd_World_IsValid(id), "CreateWorld returned %d, not a live world", id);
	FUZZ_CHECK(arg != NULL && !(flags & 1), "CreateWorld accepted a NULL def or a def without its cookie");
	for (int i = 0; i < f->staleCount; ++i) FUZZ_CHECK(f->stale[i] != id, "CreateWorld handed out destroyed id %d again", id);
	FUZZ_CHECK(pbd_World_GetParticleCount(id) == 0 && pbd_World_GetConstraintCount(id) == 0 &&
				   pbd_World_GetAttachmentCount(id) == 0 && pbd_World_GetColliderCount(id) == 0 && pbd_World_GetObjectCount(id) == 0,
			   "a new world is not empty");
	for (int p = 0; p < pbdParam_count; ++p) {
		pbdParamInfo info;
		FUZZ_CHECK(pbd_GetParamInfo(p, &info) == PBD_OK, "no info for parameter %d", p);
		FUZZ_CHECK(pbd_World_GetParam(id, (pbdParam)p) == info.defaultValue, "a new world's %s is %g, its default %g", info.name,
				   (double)pbd_World_GetParam(id, (pbdParam)p), (double)info.defaultValue);
	}
	memset(slot->attachment, 0, sizeof slot->attachment);
	slot->attachmentCount = 0;
	slot->id = id;
	slot->midStep = 0;
}

void OpDestroyWorld(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int rc = pbd_DestroyWorld(world);
	Trace("DestroyWorld(w%d) -> %d", world, rc);
	FuzzSlot* slot = SlotOf(f, world);
	if (rc < 0) {
		FUZZ_CHECK(slot == NULL, "DestroyWorld refused live world %d", world);
		FUZZ_CHECK(rc == PBD_ERR_INVALID_WORLD, "DestroyWorld(%d) refused with %d, not PBD_ERR_INVALID_WORLD", world, rc);
		Result(f, rc, world, 1, "DestroyWorld");
		return;
	}
	FUZZ_CHECK(slot != NULL, "DestroyWorld accepted world handle %d, which is not alive", world);
	FUZZ_CHECK(!pbd_World_IsValid(world), "world %d still valid after DestroyWorld", world);
	FUZZ_CHECK(pbd_World_Hash(world) == 0 && pbd_World_GetParticleCount(world) == PBD_ERR_INVALID_WORLD,
			   "a destroyed world still answers");
	slot->id = 0;
	Result(f, rc, 0, 0, "DestroyWorld");
	f->stale[f->staleCount++ % FUZZ_MAX_STALE] = world;
	if (f->staleCount > FUZZ_MAX_STALE) f->staleCount = FUZZ_MAX_STALE;
}

/* ---------------------------------------------------------------- objects */

/* After an object was added: counts grew by exactly what the Counts function promised, the
   old particles are untouched, the new ones lie within the world bound with w = 1/mass. */
static void CheckAdded(Fuzz* f, pbdWorldId world, int first, int32_t particles, int32_t constraints, int32_t triangles,
					   int32_t lines, float mass, int type, const char* what)
{
	const FuzzSnapshot* b = &SlotOf(f, world)->before;
	FUZZ_CHECK(first == b->particles, "%s returned %d, not the old particle count %d", what, first, b->particles);
	FUZZ_CHECK(pbd_World_GetParticleCount(world) == b->particles + particles, "%s: particles %d + %d != %d", what, b->particles,
			   particles, pbd_World_GetParticleCount(world));
	FUZZ_CHECK(pbd_World_GetConstraintCount(world) == b->constraints + constraints, "%s: constraint count", what);
	FUZZ_CHECK(pbd_World_GetCount(world, pbdBuffer_triangles) == b->triangles + triangles, "%s: triangle count", what);
	FUZZ_CHECK(pbd_World_GetCount(world, pbdBuffer_lines) == b->lines + lines, "%s: line count", what);
	FUZZ_CHECK(pbd_World_GetObjectCount(world) == b->objects + 1, "%s: object count", what);
	pbdObjectInfo info;
	FUZZ_CHECK(pbd_World_GetObjectInfo(world, b->objects, &info) == PBD_OK, "%s: no info for the new object", what);
	FUZZ_CHECK(info.type == type && info.firstParticle == first && info.particleCount == particles &&
				   info.constraintCount == constraints && info.triangleCount == triangles && info.lineCount == lines,
			   "%s: the new object's info disagrees with its counts", what);
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, NULL);
	const float* v = pbd_World_GetBuffer(world, pbdBuffer_velocities, NULL);
	FUZZ_CHECK(b->particles == 0 || (memcmp(x, b->x, (size_t)b->particles * 16) == 0 && memcmp(v, b->v, (size_t)b->particles * 16) == 0),
			   "%s moved the particles that were there", what);
	for (int i = first; i < first + particles; ++i) {
		FUZZ_CHECK(InBound(x + 4 * i), "%s put particle %d at " V3 ", outside the world bound", what, i, A3(x + 4 * i));
		FUZZ_CHECK(x[4 * i + 3] == 1.0f / mass, "%s: particle %d has w = %g for mass %g", what, i, (double)x[4 * i + 3], (double)mass);
		FUZZ_CHECK(v[4 * i] == 0.0f && v[4 * i + 1] == 0.0f && v[4 * i + 2] == 0.0f, "%s: a new particle moves", what);
	}
	f->work += particles + constraints;
}

void OpAddChain(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t flags = FuzzU8(&f->in), mask = FuzzU8(&f->in);
	pbdChainDef def = pbd_DefaultChainDef();
	if (mask & 1) Floats(f, def.start, 3);
	if (mask & 2) Floats(f, def.end, 3);
	if (mask & 4) def.segments = ReadCount(f);
	if (mask & 8) def.mass = FuzzFloat(&f->in);
	if (flags & 1) def.internalValue = 0;
	const pbdChainDef* arg = (flags & 2) ? NULL : &def;
	int rc = pbd_World_AddChain(world, arg);
	Trace("AddChain(w%d, %sstart " V3 " end " V3 " segments %d mass %g) -> %d", world, arg ? "" : "NULL ", A3(def.start), A3(def.end),
		  def.segments, (double)def.mass, rc);
	if (Result(f, rc, world, 0, "AddChain") < 0) return;
	int32_t particles, constraints, lines;
	pbd_ChainCounts(def.segments, &particles, &constraints, &lines);
	FUZZ_CHECK(particles == def.segments + 1 && constraints == def.segments && lines == def.segments, "pbd_ChainCounts(%d)",
			   def.segments);
	CheckAdded(f, world, rc, particles, constraints, 0, lines, def.mass, 0, "AddChain");
}

void OpAddCloth(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t flags = FuzzU8(&f->in), mask = FuzzU8(&f->in);
	pbdClothDef def = pbd_DefaultClothDef();
	def.resolutionU = def.resolutionV = 8; /* the default 16 x 16 would fill most small worlds */
	if (mask & 1) Floats(f, def.origin, 3);
	if (mask & 2) Floats(f, def.axisU, 3);
	if (mask & 4) Floats(f, def.axisV, 3);
	if (mask & 8) def.resolutionU = ReadCount(f);
	if (mask & 16) def.resolutionV = ReadCount(f);
	if (mask & 32) def.mass = FuzzFloat(&f->in);
	if (flags & 1) def.internalValue = 0;
	const pbdClothDef* arg = (flags & 2) ? NULL : &def;
	int rc = pbd_World_AddCloth(world, arg);
	Trace("AddCloth(w%d, %sorigin " V3 " U " V3 " V " V3 " %d x %d mass %g) -> %d", world, arg ? "" : "NULL ", A3(def.origin),
		  A3(def.axisU), A3(def.axisV), def.resolutionU, def.resolutionV, (double)def.mass, rc);
	if (Result(f, rc, world, 0, "AddCloth") < 0) return;
	int32_t particles, constraints, triangles;
	pbd_ClothCounts(def.resolutionU, def.resolutionV, &particles, &constraints, &triangles);
	int64_t nu = def.resolutionU, nv = def.resolutionV;
	FUZZ_CHECK(particles == nu * nv && triangles == 2 * (nu - 1) * (nv - 1) &&
				   constraints == (nu - 1) * nv + nu * (nv - 1) + 2 * (nu - 1) * (nv - 1) + (nu - 2) * nv + nu * (nv - 2),
			   "pbd_ClothCounts(%d, %d)", def.resolutionU, def.resolutionV);
	CheckAdded(f, world, rc, particles, constraints, triangles, 0, def.mass, 1, "AddCloth");
}

/* ---------------------------------------------------------------- attachments */

void OpAddAttachment(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int particle = FuzzIndex(&f->in, Particles(world));
	float t[3], k;
	Floats(f, t, 3);
	k = FuzzFloat(&f->in);
	int rc = pbd_World_AddAttachment(world, particle, t[0], t[1], t[2], k);
	Trace("AddAttachment(w%d, particle %d, " V3 ", k %g) -> %d", world, particle, A3(t), (double)k, rc);
	if (Result(f, rc, world, 0, "AddAttachment") < 0) return;
	FuzzSlot* slot = SlotOf(f, world);
	FUZZ_CHECK(rc > 0, "AddAttachment returned id %d", rc);
	FUZZ_CHECK(InBound(t) && k >= 0.0f && k <= 1.0f, "AddAttachment accepted target " V3 ", stiffness %g", A3(t), (double)k);
	FUZZ_CHECK(pbd_World_GetAttachmentCount(world) == slot->before.attachments + 1, "AddAttachment: count");
	SameParticles(slot, world, "AddAttachment");
	Remember(slot, rc);
}

void OpMoveAttachment(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	pbdAttachmentId id = ReadAttachment(f, world);
	float t[3];
	Floats(f, t, 3);
	int rc = pbd_World_MoveAttachment(world, id, t[0], t[1], t[2]);
	Trace("MoveAttachment(w%d, a%d, " V3 ") -> %d", world, id, A3(t), rc);
	if (Result(f, rc, world, 0, "MoveAttachment") < 0) return;
	FUZZ_CHECK(InBound(t), "MoveAttachment accepted target " V3, A3(t));
	SameParticles(SlotOf(f, world), world, "MoveAttachment");
}

void OpRemoveAttachment(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	pbdAttachmentId id = ReadAttachment(f, world);
	int rc = pbd_World_RemoveAttachment(world, id);
	Trace("RemoveAttachment(w%d, a%d) -> %d", world, id, rc);
	if (Result(f, rc, world, 0, "RemoveAttachment") < 0) return;
	FuzzSlot* slot = SlotOf(f, world);
	FUZZ_CHECK(pbd_World_GetAttachmentCount(world) == slot->before.attachments - 1, "RemoveAttachment: count");
	SameParticles(slot, world, "RemoveAttachment");
	FUZZ_CHECK(pbd_World_RemoveAttachment(world, id) == PBD_ERR_INVALID_ATTACHMENT, "a removed attachment could be removed again");
}

/* ---------------------------------------------------------------- colliders */

void OpAddCollider(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	uint8_t flags = FuzzU8(&f->in);
	uint32_t mask = FuzzU8(&f->in);
	mask |= (uint32_t)FuzzU8(&f->in) << 8;
	pbdColliderDef def = pbd_DefaultColliderDef();
	if (mask & 1) def.type = FuzzIndex(&f->in, pbdShape_count);
	if (mask & 2) Floats(f, def.position, 3);
	if (mask & 4) Floats(f, def.rotation, 4);
	if (mask & 8) def.radius = FuzzFloat(&f->in);
	if (mask & 16) def.halfHeight = FuzzFloat(&f->in);
	if (mask & 32) Floats(f, def.halfExtents, 3);
	if (mask & 64) def.staticFriction = FuzzFloat(&f->in);
	if (mask & 128) def.kineticFriction = FuzzFloat(&f->in);
	if (mask & 256) def.restitution = FuzzFloat(&f->in);
	if (flags & 1) def.internalValue = 0;
	const pbdColliderDef* arg = (flags & 2) ? NULL : &def;
	int rc = pbd_World_AddCollider(world, arg);
	Trace("AddCollider(w%d, %stype %d at " V3 " q (%g, %g, %g, %g) r %g hh %g he " V3 " mu %g/%g e %g) -> %d", world,
		  arg ? "" : "NULL ", def.type, A3(def.position), (double)def.rotation[0], (double)def.rotation[1],
		  (double)def.rotation[2], (double)def.rotation[3], (double)def.radius, (double)def.halfHeight, A3(def.halfExtents),
		  (double)def.staticFriction, (double)def.kineticFriction, (double)def.restitution, rc);
	if (Result(f, rc, world, 0, "AddCollider") < 0) return;
	FuzzSlot* slot = SlotOf(f, world);
	FUZZ_CHECK(rc == slot->before.colliders && Colliders(world) == rc + 1, "AddCollider returned %d for %d colliders", rc,
			   slot->before.colliders);
	pbdColliderInfo info;
	FUZZ_CHECK(pbd_World_GetColliderInfo(world, rc, &info) == PBD_OK, "AddCollider: no info");
	FUZZ_CHECK(info.type == def.type && memcmp(info.position, def.position, sizeof info.position) == 0 &&
				   info.staticFriction == def.staticFriction && info.kineticFriction == def.kineticFriction &&
				   info.restitution == def.restitution,
			   "AddCollider: the stored collider differs from its def");
	SameParticles(slot, world, "AddCollider");
}

static void CheckRotation(const pbdColliderInfo* info, const char* what)
{
	double n = 0.0;
	for (int k = 0; k < 4; ++k) n += (double)info->rotation[k] * info->rotation[k];
	FUZZ_CHECK(fabs(n - 1.0) < 1e-5, "%s: the stored rotation is not a unit quaternion (|q|^2 = %g)", what, n);
}

void OpSetColliderTransform(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int c = FuzzIndex(&f->in, Colliders(world));
	float p[3], q[4];
	Floats(f, p, 3);
	Floats(f, q, 4);
	int rc = pbd_World_SetColliderTransform(world, c, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
	Trace("SetColliderTransform(w%d, %d, " V3 ", (%g, %g, %g, %g)) -> %d", world, c, A3(p), (double)q[0], (double)q[1],
		  (double)q[2], (double)q[3], rc);
	if (Result(f, rc, world, 0, "SetColliderTransform") < 0) return;
	pbdColliderInfo info;
	FUZZ_CHECK(pbd_World_GetColliderInfo(world, c, &info) == PBD_OK, "SetColliderTransform: no info");
	FUZZ_CHECK(memcmp(info.position, p, sizeof p) == 0, "SetColliderTransform: position not stored as given");
	CheckRotation(&info, "SetColliderTransform");
	SameParticles(SlotOf(f, world), world, "SetColliderTransform");
}

void OpSetColliderMaterial(Fuzz* f)
{
	pbdWorldId world = ReadWorld(f);
	int c = FuzzIndex(&f->in, Colliders(world));
	float m[3];
	Floats(f, m, 3);
	int rc = pbd_World_SetColliderMaterial(world, c, m[0], m[1], m[2]);
	Trace("SetColliderMaterial(w%d, %d, %g, %g, %g) -> %d", world, c, (double)m[0], (double)m[1], (double)m[2], rc);
	if (Result(f, rc, world, 0, "SetColliderMaterial") < 0) return;
	pbdColliderInfo info;
	FUZZ_CHECK(pbd_World_GetColliderInfo(world, c, &info) == PBD_OK, "SetColliderMaterial: no info");
	FUZZ_CHECK(info.staticFriction == m[0] && info.kineticFriction == m[1] && info.restitution == m[2],
			   "SetColliderMaterial: not stored as given");
	FUZZ_CHECK(m[0] >= 0.0f && m[0] <= 10.0f && m[1] >= 0.0f && m[1] <= 10.0f && m[2] >= 0.0f && m[2] <= 1.0f,
			   "SetColliderMaterial accepted %g, %g, %g", (double)m[0], (double)m[1], (double)m[2]);
	SameParticles(SlotOf(f, world), world, "SetColliderMaterial");
}
