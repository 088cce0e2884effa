/* test_shapes_helpers.h -- what the shape-matching tests share: worlds, box lattices made
   shape-matched bodies by hand (the builder the way builders/ will: BeginObject, particles,
   EndObject, then pbd_Shapes_Add), and momenta summed in double. */
#ifndef PBD_TEST_SHAPES_HELPERS_H
#define PBD_TEST_SHAPES_HELPERS_H

#include "test.h"
#include "builders/builder.h"
#include "families/rotation.h"
#include "families/shapes.h"
#include "world/core.h"

#include <string.h>

typedef struct TestBody {
	int object, first, count;
} TestBody;

/* A world without gravity, ground or tethers, at the scene format's 10 substeps x 1 pass. */
static inline pbdWorldId ShapesWorld(int particles, int objects)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = particles;
	def.maxObjects = objects;
	pbdWorldId w = TestCreateWorld(&def);
	pbd_World_SetParam(w, pbdParam_substeps, 10.0f);
	pbd_World_SetParam(w, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(w, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(w, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(w, pbdParam_tethers, 0.0f);
	return w;
}

/* Particle (i, j, k) of an n[0] x n[1] x n[2] lattice of spacing s, centred on `centre` and
   turned by q about it, into out[3]. */
static inline void LatticePoint(const int n[3], float s, const float centre[3], const float q[4], int i, int j, int k,
								float out[3])
{
	float R[9];
	pbd_QuatToMatrix(q, R);
	const float l[3] = { s * ((float)i - 0.5f * (float)(n[0] - 1)), s * ((float)j - 0.5f * (float)(n[1] - 1)),
						 s * ((float)k - 0.5f * (float)(n[2] - 1)) };
	for (int r = 0; r < 3; ++r) out[r] = centre[r] + R[3 * r] * l[0] + R[3 * r + 1] * l[1] + R[3 * r + 2] * l[2];
}

/* A rigid object of the lattice's particles (no self-collision flag, as bodies have), of total
   mass `mass`, made one shape-matched body. */
static inline TestBody AddBoxBody(pbdWorldId id, const int n[3], float s, const float centre[3], const float q[4], float mass)
{
	pbdWorld* w = pbd_GetWorld(id);
	TestBody b;
	b.count = n[0] * n[1] * n[2];
	b.first = w->particleCount;
	b.object = w->objectCount;
	pbd_Builder_BeginObject(w, PBD_OBJECT_RIGID);
	for (int i = 0; i < n[0]; ++i)
		for (int j = 0; j < n[1]; ++j)
			for (int k = 0; k < n[2]; ++k) {
				float p[3];
				LatticePoint(n, s, centre, q, i, j, k, p);
				pbd_Builder_AddParticle(w, p[0], p[1], p[2], (float)b.count / mass);
				w->phase[w->particleCount - 1] &= ~PBD_PHASE_SELF;
			}
	pbd_Builder_EndObject(w);
	pbd_Shapes_Add(w, b.object, b.first, b.count);
	return b;
}

/* A rigid object of `count` particles at pts (xyz each), each of mass `mass`, made a body. */
static inline TestBody AddPointsBody(pbdWorldId id, const float* pts, int count, float mass)
{
	pbdWorld* w = pbd_GetWorld(id);
	TestBody b = { w->objectCount, w->particleCount, count };
	pbd_Builder_BeginObject(w, PBD_OBJECT_RIGID);
	for (int i = 0; i < count; ++i) {
		pbd_Builder_AddParticle(w, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2], 1.0f / mass);
		w->phase[w->particleCount - 1] &= ~PBD_PHASE_SELF;
	}
	pbd_Builder_EndObject(w);
	pbd_Shapes_Add(w, b.object, b.first, b.count);
	return b;
}

static const float s_noTurn[4] = { 0.0f, 0.0f, 0.0f, 1.0f };

/* Linear momentum P, centre of mass c and angular momentum L about c of particles
   [first, first + count), in double. */
static inline void Momenta(pbdWorldId id, int first, int count, double P[3], double c[3], double L[3])
{
	const float* x = (const float*)pbd_World_GetBuffer(id, pbdBuffer_positions, NULL);
	const float* v = (const float*)pbd_World_GetBuffer(id, pbdBuffer_velocities, NULL);
	double M = 0.0;
	for (int k = 0; k < 3; ++k) P[k] = c[k] = L[k] = 0.0;
	for (int i = first; i < first + count; ++i) {
		double m = 1.0 / x[4 * i + 3];
		M += m;
		for (int k = 0; k < 3; ++k) P[k] += m * v[4 * i + k], c[k] += m * x[4 * i + k];
	}
	for (int k = 0; k < 3; ++k) c[k] /= M;
	for (int i = first; i < first + count; ++i) {
		double m = 1.0 / x[4 * i + 3];
		double r[3] = { x[4 * i] - c[0], x[4 * i + 1] - c[1], x[4 * i + 2] - c[2] };
		const float* vi = v + 4 * i;
		L[0] += m * (r[1] * vi[2] - r[2] * vi[1]);
		L[1] += m * (r[2] * vi[0] - r[0] * vi[2]);
		L[2] += m * (r[0] * vi[1] - r[1] * vi[0]);
	}
}

/* Largest change of any pairwise distance of the body's particles from `rest` (float4 copy). */
static inline float ShapeChange(pbdWorldId id, const float* rest, int first, int count)
{
	const float* x = (const float*)pbd_World_GetBuffer(id, pbdBuffer_positions, NULL);
	float worst = 0.0f;
	for (int i = first; i < first + count; ++i)
		for (int j = i + 1; j < first + count; ++j) {
			float d = TestDistance(x, i, j), d0 = TestDistance(rest, i, j);
			worst = fmaxf(worst, fabsf(d - d0));
		}
	return worst;
}

#endif
