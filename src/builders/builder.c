/* builders/builder.c -- the parts every object builder shares (builder.h). */
#include "builders/builder.h"
#include "families/distance.h"

#include <string.h>

int pbd_Builder_CheckRoom(pbdWorld* w, int64_t particles, int64_t constraints, int64_t triangles, int64_t lines)
{
	if (w->objectCount >= w->maxObjects) {
		return pbd_SetWorldError(w, PBD_ERR_OBJECT_CAPACITY, "already %d objects (capacity %d)", w->objectCount, w->maxObjects);
	}
	if (w->particleCount + particles > w->maxParticles) {
		return pbd_SetWorldError(w, PBD_ERR_PARTICLE_CAPACITY, "needs %lld particles, %d of %d left", (long long)particles,
							w->maxParticles - w->particleCount, w->maxParticles);
	}
	int err = pbd_Distance_CheckRoom(w, constraints);
	if (err != PBD_OK) return err;
	if (w->triangleCount + triangles > w->maxTriangles) {
		return pbd_SetWorldError(w, PBD_ERR_TRIANGLE_CAPACITY, "needs %lld triangles, %d of %d left", (long long)triangles,
							w->maxTriangles - w->triangleCount, w->maxTriangles);
	}
	if (w->lineCount + lines > w->maxLines) {
		return pbd_SetWorldError(w, PBD_ERR_LINE_CAPACITY, "needs %lld lines, %d of %d left", (long long)lines,
							w->maxLines - w->lineCount, w->maxLines);
	}
	return PBD_OK;
}

int pbd_Builder_CheckMass(pbdWorld* w, float mass)
{
	if (!pbd_IsFinite(mass) || mass < 1e-6f || mass > 1e6f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "mass must be in [1e-6, 1e6] kg, got %g", (double)mass);
	}
	return PBD_OK;
}

pbdObjectInfo* pbd_Builder_BeginObject(pbdWorld* w, int32_t type)
{
	pbdObjectInfo* info = &w->objects[w->objectCount];
	memset(info, 0, sizeof *info);
	w->materials[w->objectCount] = pbd_Material_Solid(); /* a fluid's or a sheet's builder changes it */
	info->type = type;
	info->firstParticle = w->particleCount;
	info->firstConstraint = pbd_Distance_Count(w);
	info->firstTriangle = w->triangleCount;
	info->firstLine = w->lineCount;
	return info;
}

/* The phase (core.h PBD_PHASE_*): the object's index, a collision group of its own, and
   self-collision allowed; the contacts family decides with its parameter whether it acts. */
void pbd_Builder_AddParticle(pbdWorld* w, float x, float y, float z, float invMass)
{
	const int32_t i = w->particleCount;
	float* xi = w->x + 4 * i;
	xi[0] = x;
	xi[1] = y;
	xi[2] = z;
	xi[3] = invMass;
	memcpy(w->p + 4 * i, xi, 4 * sizeof(float));
	memcpy(w->rest0 + 4 * i, xi, 4 * sizeof(float));
	memset(w->v + 4 * i, 0, 4 * sizeof(float));
	const uint32_t object = (uint32_t)w->objectCount;
	w->phase[i] = (object & PBD_PHASE_OBJECT_MASK) | ((object << PBD_PHASE_GROUP_SHIFT) & PBD_PHASE_GROUP_MASK) | PBD_PHASE_SELF;
	w->particleCount += 1;
}

void pbd_Builder_EndObject(pbdWorld* w)
{
	pbdObjectInfo* info = &w->objects[w->objectCount];
	info->particleCount = w->particleCount - info->firstParticle;
	info->activeParticles = info->particleCount; /* a fluid's builder sets its live count after */
	info->constraintCount = pbd_Distance_Count(w) - info->firstConstraint;
	/* a new object is drawn where it was built until its first step (pbdBuffer_previous) */
	memcpy(w->previous + 4 * info->firstParticle, w->x + 4 * info->firstParticle, (size_t)info->particleCount * 4 * sizeof(float));
	w->objectCount += 1;
	w->topologyVersion += 1;
	w->massVersion += 1;
	w->pinVersion += 1;
}
