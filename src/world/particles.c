/* world/particles.c -- particle state from outside the step (positions, velocities, masses),
   the counts, the objects' records and the buffers the renderer and tools read in place.
   A setter changes the particle and moves the world's change counters (core.h); the
   families that keep something derived from it compare the counters at the next step. */
#include "builders/builder.h"
#include "builders/skin.h"
#include "families/family.h"

#include <string.h>

int pbd_World_GetObjectCount(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	return w->objectCount;
}

int pbd_World_GetObjectInfo(pbdWorldId id, int object, pbdObjectInfo* info)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (info == NULL || object < 0 || object >= w->objectCount) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "object %d of %d", object, w->objectCount);
	}
	*info = w->objects[object];
	return PBD_OK;
}

/* ---------------------------------------------------------------- particles */

int pbd_World_SetInvMass(pbdWorldId id, int particle, float invMass)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_PARTICLE(w, particle);
	if (!pbd_IsFinite(invMass) || invMass < 0.0f || invMass > 1e6f) {
		return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "inverse mass must be in [0, 1e6], got %g", (double)invMass);
	}
	/* Masses are read at a step's start (the distance constraints' shares, the tethers' anchors, the shapes' and
	   contacts' weights: their start hooks), and a step taken in slices has begun with the old ones: a particle
	   pinned between its slices would still be moved by its constraints with its old share until the step ends
	   (found by the fuzzer: tests/fuzz/corpus/repro-7-pin-between-slices). A mass changes between steps only. */
	if (pbd_StepInProgress(w)) {
		return pbd_SetWorldError(w, PBD_ERR_STEP_IN_PROGRESS,
								 "particle %d's mass changes between steps only; finish this one first (pbd_World_Step or more slices)", particle);
	}
	if ((w->x[4 * particle + 3] == 0.0f) != (invMass == 0.0f)) w->pinVersion += 1; /* the set of pins changed: tethers */
	w->x[4 * particle + 3] = invMass;
	w->p[4 * particle + 3] = invMass;
	w->massVersion += 1; /* the distance constraints' shares */
	if (invMass == 0.0f) {
		/* A pin has no velocity, so prediction leaves it where it is: pins never move. */
		memset(w->v + 4 * particle, 0, 3 * sizeof(float));
	}
	return PBD_OK;
}

int pbd_World_SetMass(pbdWorldId id, int particle, float mass)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_PARTICLE(w, particle);
	int err = pbd_Builder_CheckMass(w, mass);
	if (err != PBD_OK) return err;
	return pbd_World_SetInvMass(id, particle, 1.0f / mass);
}

int pbd_World_SetPosition(pbdWorldId id, int particle, float x, float y, float z)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_PARTICLE(w, particle);
	float v[3] = { x, y, z };
	int err = pbd_CheckVec(w, v, "position");
	if (err != PBD_OK) return err;
	memcpy(w->x + 4 * particle, v, sizeof v);
	memcpy(w->p + 4 * particle, v, sizeof v);
	memcpy(w->previous + 4 * particle, v, sizeof v); /* drawn where it is put, not swept there */
	w->positionVersion += 1;
	return PBD_OK;
}

int pbd_World_KeepPrevious(pbdWorldId id, int keep)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (keep && !w->keepPrevious) memcpy(w->previous, w->x, (size_t)w->particleCount * 4 * sizeof(float));
	w->keepPrevious = keep != 0;
	return PBD_OK;
}

int pbd_World_SetVelocity(pbdWorldId id, int particle, float x, float y, float z)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	PBD_CHECK_PARTICLE(w, particle);
	float v[3] = { x, y, z };
	int err = pbd_CheckVec(w, v, "velocity");
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
	/* the distance constraints (a chain's, a cloth's, a soft body's edges), through the registry */
	const pbdFamily* f = pbd_families[pbdFamily_distance];
	return w->families[pbdFamily_distance] != NULL ? f->count(w, w->families[pbdFamily_distance]) : 0;
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
	case pbdBuffer_densities:
	case pbdBuffer_previous: return w->particleCount;
	case pbdBuffer_convergence: return w->convergenceCount;
	case pbdBuffer_skinPositions:
	case pbdBuffer_skinNormals:
	case pbdBuffer_skinTriangles: {
		int32_t n;
		pbd_Skin_Buffer(w, buffer, &n);
		return n;
	}
	default: return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "buffer %d", (int)buffer);
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
	case pbdBuffer_densities: return w->densities;
	case pbdBuffer_previous: return w->previous;
	case pbdBuffer_convergence: return w->convergence;
	case pbdBuffer_skinPositions:
	case pbdBuffer_skinNormals:
	case pbdBuffer_skinTriangles: return pbd_Skin_Buffer(w, buffer, &n);
	default: return NULL;
	}
}
