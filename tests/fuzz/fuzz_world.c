/* fuzz_world.c -- the checks the API fuzzer makes after every call (fuzz_world.h): a refused
   call leaves the world exactly as it was (docs/api.md "C API": validate first, mutate last), and no
   step lets a NaN, an infinity or a particle past the world bound out (docs/physics.md "Robustness"). */
#include "fuzz_world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORLD_BOUND 1e5f /* docs/physics.md "Robustness": the world bound */

const char* FuzzLastError(pbdWorldId world)
{
	/* A world's own message; the shared one for calls that have no world */
	return pbd_World_IsValid(world) ? pbd_World_GetLastErrorMessage(world) : pbd_GetLastErrorMessage();
}

static void Grow(FuzzSnapshot* s, int32_t particles)
{
	if (particles <= s->capacity) return;
	int32_t n = s->capacity > 0 ? s->capacity : 1024;
	while (n < particles) n *= 2;
	float* x = realloc(s->x, (size_t)n * 4 * sizeof(float));
	float* v = realloc(s->v, (size_t)n * 4 * sizeof(float));
	FUZZ_CHECK(x != NULL && v != NULL, "out of memory for a snapshot of %d particles", particles);
	s->x = x;
	s->v = v;
	s->capacity = n;
}

void FuzzSnapshotFree(FuzzSnapshot* s)
{
	free(s->x);
	free(s->v);
	memset(s, 0, sizeof *s);
}

void FuzzSnapshotTake(FuzzSnapshot* s, pbdWorldId world)
{
	s->valid = pbd_World_IsValid(world);
	if (!s->valid) return;
	s->hash = pbd_World_Hash(world);
	s->particles = pbd_World_GetParticleCount(world);
	s->constraints = pbd_World_GetConstraintCount(world);
	s->attachments = pbd_World_GetAttachmentCount(world);
	s->colliders = pbd_World_GetColliderCount(world);
	s->objects = pbd_World_GetObjectCount(world);
	s->triangles = pbd_World_GetCount(world, pbdBuffer_triangles);
	s->lines = pbd_World_GetCount(world, pbdBuffer_lines);
	s->topology = pbd_World_GetTopologyVersion(world);
	s->skinVertices = pbd_World_GetCount(world, pbdBuffer_skinPositions);
	s->skinTriangles = pbd_World_GetCount(world, pbdBuffer_skinTriangles);
	const char* error = pbd_World_GetLastErrorMessage(world);
	FUZZ_CHECK(error != NULL, "world %d has no last error message", world);
	snprintf(s->error, sizeof s->error, "%s", error);
	FUZZ_CHECK(s->particles >= 0 && s->constraints >= 0 && s->attachments >= 0 && s->colliders >= 0 && s->objects >= 0 &&
				   s->triangles >= 0 && s->lines >= 0,
			   "a count of a valid world is negative");
	FUZZ_CHECK(s->colliders <= PBD_MAX_COLLIDERS && s->objects <= PBD_MAX_OBJECTS, "more colliders or objects than the limits");
	for (int p = 0; p < pbdParam_count; ++p) s->params[p] = pbd_World_GetParam(world, (pbdParam)p);
	for (int c = 0; c < s->colliders; ++c) {
		FUZZ_CHECK(pbd_World_GetColliderInfo(world, c, &s->collider[c]) == PBD_OK, "collider %d of %d has no info", c, s->colliders);
	}
	for (int o = 0; o < s->objects; ++o) {
		FUZZ_CHECK(pbd_World_GetObjectInfo(world, o, &s->object[o]) == PBD_OK, "object %d of %d has no info", o, s->objects);
	}
	Grow(s, s->particles);
	int32_t nx = -1, nv = -1;
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, &nx);
	const float* v = pbd_World_GetBuffer(world, pbdBuffer_velocities, &nv);
	FUZZ_CHECK(nx == s->particles && nv == s->particles, "buffer counts %d, %d for %d particles", nx, nv, s->particles);
	FUZZ_CHECK(s->particles == 0 || (x != NULL && v != NULL), "no particle buffers");
	if (s->particles > 0) {
		memcpy(s->x, x, (size_t)s->particles * 4 * sizeof(float));
		memcpy(s->v, v, (size_t)s->particles * 4 * sizeof(float));
	}
}

static int SameBits(const void* a, const void* b, size_t n) { return n == 0 || memcmp(a, b, n) == 0; }

void FuzzSnapshotSame(const FuzzSnapshot* s, pbdWorldId world, int addressed, const char* what)
{
	if (!s->valid) {
		FUZZ_CHECK(!pbd_World_IsValid(world), "%s: world %d came to life", what, world);
		return;
	}
	FUZZ_CHECK(pbd_World_IsValid(world), "%s: world %d was destroyed", what, world);
	/* Read in place, without a second snapshot: this runs for every world after every call. */
	const int32_t particles = pbd_World_GetParticleCount(world), constraints = pbd_World_GetConstraintCount(world);
	const int32_t attachments = pbd_World_GetAttachmentCount(world), colliders = pbd_World_GetColliderCount(world);
	const int32_t objects = pbd_World_GetObjectCount(world), triangles = pbd_World_GetCount(world, pbdBuffer_triangles);
	const int32_t lines = pbd_World_GetCount(world, pbdBuffer_lines), topology = pbd_World_GetTopologyVersion(world);
	const int32_t skinVertices = pbd_World_GetCount(world, pbdBuffer_skinPositions);
	const int32_t skinTriangles = pbd_World_GetCount(world, pbdBuffer_skinTriangles);
	FUZZ_CHECK(particles == s->particles && constraints == s->constraints && attachments == s->attachments &&
				   colliders == s->colliders && objects == s->objects && triangles == s->triangles && lines == s->lines &&
				   topology == s->topology && skinVertices == s->skinVertices && skinTriangles == s->skinTriangles,
			   "%s: counts changed: particles %d->%d constraints %d->%d attachments %d->%d colliders %d->%d objects %d->%d "
			   "triangles %d->%d lines %d->%d topology %d->%d skin %d->%d vertices, %d->%d triangles",
			   what, s->particles, particles, s->constraints, constraints, s->attachments, attachments, s->colliders, colliders,
			   s->objects, objects, s->triangles, triangles, s->lines, lines, s->topology, topology, s->skinVertices, skinVertices,
			   s->skinTriangles, skinTriangles);
	if (addressed) {
		uint32_t hash = pbd_World_Hash(world);
		FUZZ_CHECK(hash == s->hash, "%s: hash 0x%08x became 0x%08x", what, s->hash, hash);
	} else {
		/* A call on another world (or on none) leaves this world's message alone */
		const char* error = pbd_World_GetLastErrorMessage(world);
		FUZZ_CHECK(error != NULL && strncmp(error, s->error, sizeof s->error - 1) == 0,
				   "%s: the last error of world %d, which it did not address, changed from \"%s\" to \"%s\"", what, world, s->error,
				   error ? error : "(null)");
	}
	size_t bytes = (size_t)s->particles * 4 * sizeof(float);
	FUZZ_CHECK(SameBits(pbd_World_GetBuffer(world, pbdBuffer_positions, NULL), s->x, bytes), "%s: positions changed", what);
	FUZZ_CHECK(SameBits(pbd_World_GetBuffer(world, pbdBuffer_velocities, NULL), s->v, bytes), "%s: velocities changed", what);
	for (int p = 0; p < pbdParam_count; ++p) {
		float v = pbd_World_GetParam(world, (pbdParam)p);
		FUZZ_CHECK(SameBits(&v, &s->params[p], sizeof v), "%s: parameter %s changed from %g to %g", what, pbd_ParamName(p),
				   (double)s->params[p], (double)v);
	}
	for (int c = 0; c < s->colliders; ++c) {
		pbdColliderInfo info;
		FUZZ_CHECK(pbd_World_GetColliderInfo(world, c, &info) == PBD_OK && SameBits(&info, &s->collider[c], sizeof info),
				   "%s: collider %d changed", what, c);
	}
	for (int o = 0; o < s->objects; ++o) {
		pbdObjectInfo info;
		FUZZ_CHECK(pbd_World_GetObjectInfo(world, o, &info) == PBD_OK && SameBits(&info, &s->object[o], sizeof info),
				   "%s: object %d changed", what, o);
	}
}

static int KnownError(int rc)
{
	if (rc >= 0) return 0;
	return strcmp(pbd_ErrorString(rc), pbd_ErrorString(-100000)) != 0; /* not "unknown error" */
}

void FuzzCheckRefusal(int rc, pbdWorldId world, const char* what)
{
	FUZZ_CHECK(KnownError(rc), "%s returned %d, which is no pbdError", what, rc);
	const char* message = FuzzLastError(world);
	FUZZ_CHECK(message != NULL && message[0] != '\0', "%s: refused (%d) without a message", what, rc);
	/* pbd_SetError writes "<code's text>: <detail>": the message names the refusal it reports. */
	const char* text = pbd_ErrorString(rc);
	FUZZ_CHECK(strncmp(message, text, strlen(text)) == 0, "%s: refused with %d (%s) but the message is \"%s\"", what, rc, text,
			   message);
}

void FuzzCheckAfterStep(const FuzzSnapshot* before, pbdWorldId world)
{
	FUZZ_CHECK(pbd_World_IsValid(world), "step destroyed world %d", world);
	const int32_t n = pbd_World_GetParticleCount(world);
	FUZZ_CHECK(n == before->particles, "step changed the particle count %d -> %d", before->particles, n);
	FUZZ_CHECK(pbd_World_GetConstraintCount(world) == before->constraints, "step changed the constraint count");
	/* A drain removes the fluid particles inside it, and an attachment on one goes with it (minipbd.h
	   pbd_World_AddDrain): only then may a step lower the count, never raise it. */
	const int32_t attachments = pbd_World_GetAttachmentCount(world);
	const int drains = pbd_World_GetDrainCount(world) > 0;
	FUZZ_CHECK(drains ? attachments <= before->attachments : attachments == before->attachments,
			   "step changed the attachment count %d -> %d", before->attachments, attachments);
	FUZZ_CHECK(pbd_World_GetColliderCount(world) == before->colliders, "step changed the collider count");
	FUZZ_CHECK(pbd_World_GetObjectCount(world) == before->objects, "step changed the object count");
	FUZZ_CHECK(pbd_World_GetCount(world, pbdBuffer_triangles) <= before->triangles, "step added triangles");
	const float* x = pbd_World_GetBuffer(world, pbdBuffer_positions, NULL);
	const float* v = pbd_World_GetBuffer(world, pbdBuffer_velocities, NULL);
	const float maxSpeed = pbd_World_GetParam(world, pbdParam_maxSpeed);
	/* Emitters and drains move fluid slots between live (w = 1/m) and parked (w = 0) in a step:
	   inside a fluid object's range the inverse-mass and pin checks do not apply. */
	int32_t fluidFirst[PBD_MAX_OBJECTS], fluidEnd[PBD_MAX_OBJECTS], fluids = 0;
	for (int32_t o = 0; o < before->objects && o < PBD_MAX_OBJECTS; ++o) {
		if (before->object[o].type != PBD_OBJECT_FLUID) continue;
		fluidFirst[fluids] = before->object[o].firstParticle;
		fluidEnd[fluids++] = before->object[o].firstParticle + before->object[o].particleCount;
	}
	for (int32_t i = 0; i < n; ++i) {
		int fluid = 0;
		for (int32_t k = 0; k < fluids; ++k) fluid |= i >= fluidFirst[k] && i < fluidEnd[k];
		const float *xi = x + 4 * i, *vi = v + 4 * i, *x0 = before->x + 4 * i;
		for (int k = 0; k < 3; ++k) {
			FUZZ_CHECK(isfinite(xi[k]) && fabsf(xi[k]) <= WORLD_BOUND, "after a step particle %d position[%d] = %.9g", i, k,
					   (double)xi[k]);
			FUZZ_CHECK(isfinite(vi[k]) && fabsf(vi[k]) <= WORLD_BOUND, "after a step particle %d velocity[%d] = %.9g", i, k,
					   (double)vi[k]);
		}
		/* by value: a -0 set by SetInvMass or SetPosition comes out of x + h v as +0 */
		if (!fluid) FUZZ_CHECK(xi[3] == x0[3], "step changed particle %d's inverse mass %g -> %g", i, (double)x0[3], (double)xi[3]);
		FUZZ_CHECK(vi[3] == 0.0f, "particle %d velocity w lane = %g", i, (double)vi[3]);
		/* The speed bound (Stage_Commit) holds after every step: |v| <= maxSpeed, up to rounding. */
		double speed = sqrt((double)vi[0] * vi[0] + (double)vi[1] * vi[1] + (double)vi[2] * vi[2]);
		FUZZ_CHECK(speed <= (double)maxSpeed * (1.0 + 1e-5), "particle %d moves at %g m/s, over maxSpeed %g", i, speed,
				   (double)maxSpeed);
		/* Seed 000: w = 0 pins. Nothing moves a pin: not constraints, tethers, attachments, pairs, colliders or the ground. */
		if (x0[3] == 0.0f && !fluid) {
			FUZZ_CHECK(xi[0] == x0[0] && xi[1] == x0[1] && xi[2] == x0[2], "pin %d moved from (%g, %g, %g) to (%g, %g, %g)", i, (double)x0[0],
					   (double)x0[1], (double)x0[2], (double)xi[0], (double)xi[1], (double)xi[2]);
			FUZZ_CHECK(vi[0] == 0.0f && vi[1] == 0.0f && vi[2] == 0.0f, "pin %d has velocity (%g, %g, %g)", i, (double)vi[0],
					   (double)vi[1], (double)vi[2]);
		}
	}
}

double FuzzStepCost(pbdWorldId world, int steps, const FuzzSnapshot* s)
{
	if (!s->valid) return 0.0;
	const double substeps = pbd_World_GetParam(world, pbdParam_substeps);
	const double iterations = pbd_World_GetParam(world, pbdParam_iterations);
	const double selfCollision = pbd_World_GetParam(world, pbdParam_selfCollision) != 0.0f;
	const double wind = pbd_World_GetParam(world, pbdParam_airDensity) > 0.0f;
	double tets = 0.0; /* bodies' volume constraints (object info) */
	for (int o = 0; o < s->objects; ++o) tets += s->object[o].tetCount;
	const double P = s->particles, C = s->constraints + 2.0 * tets, colliders = s->colliders;
	double pins = 0.0;
	for (int32_t i = 0; i < s->particles; ++i) pins += s->x[4 * i + 3] == 0.0f;
	/* per substep: predict, velocities, commit, wind over triangles; per pass: the constraints,
	   tethers, attachments, colliders (a particle against each), pairs (at most 8 per particle) */
	double pass = C + P * (1.0 + 2.0 * colliders) + s->attachments + selfCollision * 8.0 * P;
	double substep = 6.0 * P + wind * 3.0 * s->triangles + iterations * pass + selfCollision * 27.0 * P;
	/* the tethers are found again (particles x pins) when the pins have changed */
	return steps * substeps * substep + P * pins + P;
}
