/* families/attachments.c -- temporary attachments (the pointer's grab) and their API.

   An attachment pulls one particle toward a target: C = |p - t| with the target as a w = 0
   end, so the particle takes the whole correction, dp = -k' (p - t) (seed 000 section 3 with
   the other side pinned), k' from the attachment's k for the pass count. The particle's mass
   is never touched, so removing the attachment leaves it exactly as it was; a pin (w = 0)
   does not follow the pointer. The target is first moved into the particle's reach (the balls of
   its tethers to the pins, services/reach.h), so a pointer past the reach holds the cloth taut instead of
   stretching the grabbed particle's edges. Slots are reused; ids carry a generation, so a removed
   attachment's id is refused, never dereferenced. */
#include "families/family.h"
#include "services/reach.h"

#include <string.h>

typedef struct pbdAttachment {
	int32_t particle;   ///< -1 when the slot is free
	int32_t generation; ///< bumped on removal so stale ids are refused
	float target[3];
	float stiffness;
} pbdAttachment;

typedef struct pbdAttachments {
	pbdAttachment* slots;
	float* k; ///< k' of each slot for this step's pass count, 0 for a free slot
	int32_t capacity, live;
} pbdAttachments;

static pbdAttachments* State(const pbdWorld* w) { return (pbdAttachments*)w->families[pbdFamily_attachments]; }

/* ---------------------------------------------------------------- family */

static size_t Attachments_Bytes(const pbdCapacity* cap)
{
	size_t A = (size_t)cap->maxAttachments;
	return pbd_PoolBytes(1, sizeof(pbdAttachments)) + pbd_PoolBytes(A, sizeof(pbdAttachment)) + pbd_PoolBytes(A, sizeof(float));
}

static void* Attachments_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	size_t A = (size_t)cap->maxAttachments;
	pbdAttachments* s = pbd_PoolAlloc(pool, 1, sizeof(pbdAttachments));
	if (s == NULL) return NULL;
	s->slots = pbd_PoolAlloc(pool, A, sizeof(pbdAttachment));
	s->k = pbd_PoolAlloc(pool, A, sizeof(float));
	if (s->k == NULL) return NULL;
	s->capacity = cap->maxAttachments;
	for (int32_t i = 0; i < s->capacity; ++i) {
		s->slots[i].particle = -1;
		s->slots[i].generation = 1;
	}
	return s;
}

static void Attachments_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdAttachments* s = state;
	for (int32_t i = 0; i < s->capacity; ++i) {
		s->k[i] = s->slots[i].particle >= 0 ? pbd_PassStiffness(s->slots[i].stiffness, ctx->passes) : 0.0f;
	}
}

static int32_t Attachments_ColourCount(const pbdWorld* w, const void* state) { return ((const pbdAttachments*)state)->live > 0; }

/* The slots, in order: two may hold the same particle (two fingers on one), so serial. */
static int32_t Attachments_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 1;
	return ((const pbdAttachments*)state)->capacity;
}

static void Attachments_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	const pbdAttachments* s = state;
	for (int32_t i = begin; i < end; ++i) {
		const pbdAttachment* a = &s->slots[i];
		if (a->particle < 0) continue;
		float* p = w->p + 4 * a->particle;
		if (p[3] <= 0.0f) continue; /* a pin does not follow the pointer */
		/* the target moved into the particle's reach first (services/reach.h pbd_Reach_Clamp): the pointer cannot
		   pull a particle past where the cloth can follow it; a target within reach is used as it is */
		float t[3] = { a->target[0], a->target[1], a->target[2] };
		pbd_Reach_Clamp(w, a->particle, t);
		float k = s->k[i];
		p[0] -= k * (p[0] - t[0]);
		p[1] -= k * (p[1] - t[1]);
		p[2] -= k * (p[2] - t[2]);
	}
}

static int32_t Attachments_Count(const pbdWorld* w, const void* state) { return ((const pbdAttachments*)state)->live; }

/* Particles [first, first + count) were moved or removed (family.h particlesMoved: a fluid sorted or drained): the
   attachment of the particle that was at first + k now holds newIndex[k], or is removed when newIndex[k] < 0 (its id
   is then refused like any removed attachment's). Attachments of other particles are untouched. */
static void Attachments_ParticlesMoved(pbdWorld* w, void* state, int32_t first, int32_t count, const int32_t* newIndex)
{
	pbdAttachments* s = state;
	for (int32_t i = 0; i < s->capacity; ++i) {
		pbdAttachment* a = &s->slots[i];
		if (a->particle < first || a->particle >= first + count) continue; /* free slots (-1) too */
		const int32_t to = newIndex[a->particle - first];
		if (to >= 0) {
			a->particle = to;
			continue;
		}
		a->particle = -1; /* its particle is gone: removed as pbd_World_RemoveAttachment would */
		a->generation = (a->generation + 1) & 0x7fff;
		if (a->generation == 0) a->generation = 1;
		s->live -= 1;
	}
}

const pbdFamily pbd_family_attachments = {
	.name = "attachments",
	.bytes = Attachments_Bytes,
	.create = Attachments_Create,
	.start = Attachments_PrepareStep,
	.colourCount = Attachments_ColourCount,
	.colourSize = Attachments_ColourSize,
	.solve = Attachments_Solve,
	.count = Attachments_Count,
	.particlesMoved = Attachments_ParticlesMoved,
};

/* ---------------------------------------------------------------- API */

pbdAttachmentId pbd_World_AddAttachment(pbdWorldId id, int particle, float x, float y, float z, float stiffness)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_PARTICLE(w, particle);
	/* A parked slot (PBD_PHASE_INACTIVE: capacity not yet live, such as a fluid's) is no particle yet: it has
	   w = 0 and no place in the scene, and its family may bring it to life anywhere; a grab on it would pull
	   nothing now and a stranger later. Only live particles can be held. */
	if ((w->phase[particle] & PBD_PHASE_INACTIVE) != 0) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_PARTICLE, "particle %d is a parked slot of a fluid's capacity, not a live particle", particle);
	}
	float t[3] = { x, y, z };
	int err = pbd_CheckVec(w, t, "attachment target");
	if (err != PBD_OK) return err;
	if (!pbd_IsFinite(stiffness) || stiffness < 0.0f || stiffness > 1.0f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "attachment stiffness must be in [0, 1], got %g", (double)stiffness);
	}
	pbdAttachments* s = State(w);
	for (int32_t i = 0; i < s->capacity; ++i) {
		pbdAttachment* a = &s->slots[i];
		if (a->particle >= 0) continue;
		a->particle = particle;
		memcpy(a->target, t, sizeof t);
		a->stiffness = stiffness;
		s->live += 1;
		return (a->generation << 16) | (i + 1);
	}
	return pbd_SetWorldError(w, PBD_ERR_ATTACHMENT_CAPACITY, "all %d attachments are in use", s->capacity);
}

static pbdAttachment* GetAttachment(pbdWorld* w, pbdAttachmentId id)
{
	pbdAttachments* s = State(w);
	if (id <= 0) return NULL;
	int slot = (id & 0xffff) - 1;
	if (slot < 0 || slot >= s->capacity) return NULL;
	pbdAttachment* a = &s->slots[slot];
	if (a->particle < 0 || a->generation != (id >> 16)) return NULL;
	return a;
}

int pbd_World_MoveAttachment(pbdWorldId id, pbdAttachmentId attachment, float x, float y, float z)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdAttachment* a = GetAttachment(w, attachment);
	if (a == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ATTACHMENT, "attachment id %d", (int)attachment);
	float t[3] = { x, y, z };
	int err = pbd_CheckVec(w, t, "attachment target");
	if (err != PBD_OK) return err;
	memcpy(a->target, t, sizeof t);
	return PBD_OK;
}

int pbd_World_RemoveAttachment(pbdWorldId id, pbdAttachmentId attachment)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	pbdAttachment* a = GetAttachment(w, attachment);
	if (a == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ATTACHMENT, "attachment id %d", (int)attachment);
	a->particle = -1;
	a->generation = (a->generation + 1) & 0x7fff;
	if (a->generation == 0) a->generation = 1;
	State(w)->live -= 1;
	return PBD_OK;
}

int pbd_World_GetAttachmentCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return State(w)->live;
}
