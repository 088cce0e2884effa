/* services/reach.c -- the reach of a particle's tethers (services/reach.h), read from the record the tethers family
   publishes (world->reach). */
#include "services/reach.h"

#include <math.h>

/* The reach of particle i: the intersection of its tethers' balls, |q - p_pin| <= rest (1 + slack).
   Why the pointer needs it: a target past the reach pulls against the tethers every pass, and the whole excess
   lands in the grabbed particle's few edges, since its neighbours are held by their own tethers (the built-in
   cloth's corner pulled 0.5 m into the floor: its edge 0.05 -> 0.55 m, 1,000%), which opens the grid for the cloth
   to pass through itself. A pointer whose target is first moved to the nearest point of the reach pulls the
   particle only as far as the cloth can follow without stretching (Kim, Chentanez and Mueller 2012: the tethers'
   bound is the rest pose's reach along a flat cloth). The nearest point of an intersection of balls is found by
   Dykstra's alternating projections (Boyle and Dykstra 1986), which converge to the projection onto the
   intersection; plain alternating projections only reach some point of it, and at the corner of the lens two balls
   make (a corner hanging under its pin, where its two pins' spheres cross) that point was 0.35 m to the side of the
   nearest one and held the corner's edge at 190%. PBD_REACH_ROUNDS rounds, the nearest pin's ball last, then the
   nearest pin's ball once more so its bound holds exactly. They converge slowly where the nearest point is on the
   circle the two spheres meet in: 16 rounds stop up to 5.4 cm from it there (within the balls, to 0.4 um), 64
   rounds 52 um, 256 rounds 0.7 um (tests/c/test_knots.c, the closed form); the pointer's target moves every step,
   so the gap does not build up. Nothing moves (not a bit) when the target is within every ball, when the particle
   has no tether (an object with no pin), with tethers off (solver.tethers 0: no reach) or in a world without the
   tethers family (world->reach NULL). */
#define PBD_REACH_ROUNDS 16

static int ProjectIntoBall(float* q, const float* c, float radius)
{
	const float dx = q[0] - c[0], dy = q[1] - c[1], dz = q[2] - c[2];
	const float d2 = dx * dx + dy * dy + dz * dz;
	if (!(d2 > radius * radius)) return 0;
	const float f = radius / sqrtf(d2);
	q[0] = c[0] + dx * f, q[1] = c[1] + dy * f, q[2] = c[2] + dz * f;
	return 1;
}

int pbd_Reach_Clamp(const pbdWorld* w, int32_t i, float target[3])
{
	const pbdReachSource* t = w->reach; /* NULL: no tethers family, no reach */
	if (t == NULL || t->pinVersion != w->pinVersion || !(t->k > 0.0f)) return 0;
	if (i < 0 || i >= w->particleCount || t->anchor[i] < 0) return 0;
	const float slack = 1.0f + w->params[pbdParam_tetherSlack];
	/* the balls, the other islands' first and the nearest pin's last, as the tethers' solve orders them (tethers.c) */
	const float* centre[1 + PBD_TETHER_EXTRA];
	float radius[1 + PBD_TETHER_EXTRA];
	int n = 0, outside = 0;
	for (int e = 0; e < t->extraSlots; ++e) {
		const int a = t->extraAnchor[e * t->capacity + i];
		if (a < 0) continue;
		centre[n] = w->p + 4 * a;
		radius[n++] = t->extraRest[e * t->capacity + i] * slack;
	}
	centre[n] = w->p + 4 * t->anchor[i];
	radius[n++] = t->rest[i] * slack;
	for (int k = 0; k < n; ++k) {
		const float dx = target[0] - centre[k][0], dy = target[1] - centre[k][1], dz = target[2] - centre[k][2];
		outside |= !(dx * dx + dy * dy + dz * dz <= radius[k] * radius[k]);
	}
	if (!outside) return 0;
	float q[3] = { target[0], target[1], target[2] }, inc[1 + PBD_TETHER_EXTRA][3] = { { 0.0f } };
	for (int round = 0; round < PBD_REACH_ROUNDS; ++round) {
		for (int k = 0; k < n; ++k) {
			float y[3] = { q[0] + inc[k][0], q[1] + inc[k][1], q[2] + inc[k][2] };
			q[0] = y[0], q[1] = y[1], q[2] = y[2];
			ProjectIntoBall(q, centre[k], radius[k]);
			inc[k][0] = y[0] - q[0], inc[k][1] = y[1] - q[1], inc[k][2] = y[2] - q[2];
		}
	}
	ProjectIntoBall(q, centre[n - 1], radius[n - 1]);
	target[0] = q[0], target[1] = q[1], target[2] = q[2];
	return 1;
}
