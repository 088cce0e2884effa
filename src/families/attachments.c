/* families/attachments.c -- temporary attachments (the pointer's grab): C = |p - t| with the
   target t as a w = 0 end, so the particle takes the whole correction, dp = -k' (p - t)
   (seed 000 section 3 with the other side pinned). A pin does not follow the pointer. */
#include "families/family.h"

typedef struct pbdAttachments {
	float* k; ///< k' of each slot for this step's pass count, 0 for a free slot
} pbdAttachments;

static size_t Attachments_Bytes(const pbdCapacity* cap)
{
	return pbd_PoolBytes(1, sizeof(pbdAttachments)) + pbd_PoolBytes((size_t)cap->maxAttachments, sizeof(float));
}

static void* Attachments_Create(pbdWorld* w, pbdPool* pool, const pbdCapacity* cap)
{
	pbdAttachments* a = pbd_PoolAlloc(pool, 1, sizeof(pbdAttachments));
	if (a == NULL) return NULL;
	a->k = pbd_PoolAlloc(pool, (size_t)cap->maxAttachments, sizeof(float));
	return a->k != NULL ? a : NULL;
}

static void Attachments_PrepareStep(pbdWorld* w, void* state, const pbdStepContext* ctx)
{
	pbdAttachments* s = state;
	for (int i = 0; i < w->maxAttachments; ++i) {
		s->k[i] = w->attachments[i].particle >= 0 ? pbd_PassStiffness(w->attachments[i].stiffness, ctx->passes) : 0.0f;
	}
}

static int32_t Attachments_ColourCount(const pbdWorld* w, const void* state) { return 1; }

/* The slots, in order: two may hold the same particle (two fingers on one), so serial. */
static int32_t Attachments_ColourSize(const pbdWorld* w, const void* state, int32_t colour, int32_t* serial)
{
	*serial = 1;
	return w->maxAttachments;
}

static void Attachments_Solve(pbdWorld* w, void* state, const pbdStepContext* ctx, int32_t colour, int32_t begin, int32_t end)
{
	const pbdAttachments* s = state;
	for (int i = begin; i < end; ++i) {
		const pbdAttachment* a = &w->attachments[i];
		if (a->particle < 0) continue;
		float* p = w->p + 4 * a->particle;
		if (p[3] <= 0.0f) continue; /* a pin does not follow the pointer */
		float k = s->k[i];
		p[0] -= k * (p[0] - a->target[0]);
		p[1] -= k * (p[1] - a->target[1]);
		p[2] -= k * (p[2] - a->target[2]);
	}
}

const pbdFamily pbd_family_attachments = {
	.name = "attachments",
	.bytes = Attachments_Bytes,
	.create = Attachments_Create,
	.prepareStep = Attachments_PrepareStep,
	.colourCount = Attachments_ColourCount,
	.colourSize = Attachments_ColourSize,
	.solve = Attachments_Solve,
};
