/* tethers.c -- long-range attachments (Kim, Chentanez and Mueller 2012, "Long Range
   Attachments"). Gauss-Seidel carries a pin's correction only a few particles per pass,
   so a large hanging cloth stretches far beyond its rest length. A tether ties each
   particle to its nearest pin and forbids it to be farther from it than in the rest pose:
   an inequality constraint C = |p - p_pin| - d <= 0, projected only when violated
   (seed 000 section 1), moving the particle alone because the pin has w = 0. */
#include "core.h"

#include <math.h>

void pbd_Tethers_Build(pbdWorld* w)
{
	w->tethersDirty = 0;
	for (int i = 0; i < w->particleCount; ++i) w->tetherAnchor[i] = -1;
	pbdPool scratch = { w->scratch, w->scratchBytes, 0 };
	for (int o = 0; o < w->objectCount; ++o) {
		const pbdObjectInfo* info = &w->objects[o];
		int32_t* pins = pbd_PoolAlloc(&scratch, (size_t)info->particleCount, sizeof(int32_t));
		if (pins == NULL) return; /* cannot happen: scratch holds at least maxParticles ints */
		int pinCount = 0;
		const int first = info->firstParticle, end = first + info->particleCount;
		for (int i = first; i < end; ++i) {
			if (w->x[4 * i + 3] == 0.0f) pins[pinCount++] = i;
		}
		if (pinCount == 0) {
			scratch.used = 0;
			continue;
		}
		/* Nearest pin in the rest pose. For a flat cloth or a straight chain the straight
		   line is also the geodesic, so the tether never asks for less than the rest shape. */
		for (int i = first; i < end; ++i) {
			if (w->x[4 * i + 3] == 0.0f) continue;
			const float* r = w->rest0 + 4 * i;
			float best = 3.4e38f;
			int anchor = -1;
			for (int k = 0; k < pinCount; ++k) {
				const float* q = w->rest0 + 4 * pins[k];
				float dx = r[0] - q[0], dy = r[1] - q[1], dz = r[2] - q[2];
				float d2 = dx * dx + dy * dy + dz * dz;
				if (d2 < best) {
					best = d2;
					anchor = pins[k];
				}
			}
			w->tetherAnchor[i] = anchor;
			w->tetherRest[i] = sqrtf(best);
		}
		scratch.used = 0;
	}
}

void pbd_Tethers_Solve(pbdWorld* w, float k)
{
	const float slack = 1.0f + w->params[pbdParam_tetherSlack];
	const int n = w->particleCount;
	for (int i = 0; i < n; ++i) {
		int a = w->tetherAnchor[i];
		if (a < 0) continue;
		float* p = w->p + 4 * i;
		if (p[3] <= 0.0f) continue;
		const float* q = w->p + 4 * a;
		float dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
		float len = sqrtf(dx * dx + dy * dy + dz * dz);
		float limit = w->tetherRest[i] * slack;
		if (len <= limit || len < 1e-9f) continue;
		float s = k * (len - limit) / len;
		p[0] -= s * dx;
		p[1] -= s * dy;
		p[2] -= s * dz;
	}
}
