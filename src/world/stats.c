/* world/stats.c -- what is read on demand, outside the step: statistics, the determinism
   hash, the per-particle error buffer (the families' error hooks), vertex normals and the
   ray pick. */
#include "families/family.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- queries */

int pbd_World_RayPick(pbdWorldId id, float ox, float oy, float oz, float dx, float dy, float dz, float radius)
{
	pbdWorld* w = pbd_GetWorld(id);
	if (w == NULL) return -1;
	float o[3] = { ox, oy, oz }, d[3] = { dx, dy, dz };
	if (pbd_CheckVec(w, o, "ray origin") != PBD_OK || pbd_CheckVec(w, d, "ray direction") != PBD_OK || !pbd_IsFinite(radius) || radius <= 0.0f) {
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

/* Per particle, the largest relative error of the constraints it belongs to, over every
   family that reports errors (the heat map: seed 001 section 4.4). */
int pbd_World_UpdateErrors(pbdWorldId id)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	memset(w->errors, 0, (size_t)w->particleCount * sizeof(float));
	double sum = 0.0;
	int32_t count = 0;
	for (int f = 0; f < pbdFamily_count; ++f) {
		if (pbd_families[f]->error) pbd_families[f]->error(w, w->families[f], w->x, w->errors, &sum, &count);
	}
	return PBD_OK;
}

int pbd_World_GetConstraintCounts(pbdWorldId id, int32_t* counts, int capacity)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (counts == NULL && capacity > 0) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "counts is NULL");
	for (int f = 0; f < pbdFamily_count && f < capacity; ++f) {
		counts[f] = pbd_families[f]->count && w->families[f] ? pbd_families[f]->count(w, w->families[f]) : 0;
	}
	return pbdFamily_count;
}

const char* pbd_FamilyName(int family)
{
	return family >= 0 && family < pbdFamily_count ? pbd_families[family]->name : NULL;
}

int pbd_World_GetStats(pbdWorldId id, pbdStats* s)
{
	PBD_GET_WORLD_OR_RETURN(w, id);
	if (s == NULL) return pbd_SetWorldError(w, PBD_ERR_INVALID_ARGUMENT, "stats is NULL");
	memset(s, 0, sizeof *s);
	s->steps = w->steps;
	s->particles = w->particleCount;
	int32_t counts[pbdFamily_count];
	pbd_World_GetConstraintCounts(id, counts, pbdFamily_count);
	for (int f = 0; f < pbdFamily_count; ++f) s->constraints += counts[f];
	s->attachments = pbd_World_GetAttachmentCount(id);
	for (int f = 0; f < pbdFamily_count; ++f) {
		if (pbd_families[f]->stats && w->families[f]) pbd_families[f]->stats(w, w->families[f], s);
	}
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
