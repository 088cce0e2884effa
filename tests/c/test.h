/* test.h -- tiny test harness in the manner of Box2D's test_macros.h.
   ENSURE fails the current test and returns; ENSURE_NEAR compares with a tolerance.
   main.c runs every test whose name contains the filter given on the command line. */
#ifndef PBD_TEST_H
#define PBD_TEST_H

#include <math.h>
#include <stdio.h>

extern int g_testFailed;

#define ENSURE(c)                                                                 \
	do {                                                                          \
		if (!(c)) {                                                               \
			printf("  FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);               \
			g_testFailed = 1;                                                     \
			return;                                                               \
		}                                                                         \
	} while (0)

#define ENSURE_NEAR(a, b, tol)                                                    \
	do {                                                                          \
		double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);            \
		if (!(fabs(a_ - b_) <= t_)) {                                             \
			printf("  FAILED %s:%d: %s = %.9g, expected %s = %.9g (tol %g)\n",    \
				   __FILE__, __LINE__, #a, a_, #b, b_, t_);                       \
			g_testFailed = 1;                                                     \
			return;                                                               \
		}                                                                         \
	} while (0)

#include "minipbd.h"

#include <stdint.h>

/* xorshift32 (Marsaglia 2003): the same sequence on every libc, unlike rand(). *state != 0. */
/* The C tests were written against the engine's former defaults of 1 substep x 10 passes
   (the defaults are now the scene format's 10 x 1: one parameter table). Their closed forms and
   hashes assume that split, so every test world gets it explicitly. */
static inline pbdWorldId TestCreateWorld(const pbdWorldDef* def)
{
	pbdWorldId w = pbd_CreateWorld(def);
	if (w > 0) {
		pbd_World_SetParam(w, pbdParam_substeps, 1.0f);
		pbd_World_SetParam(w, pbdParam_iterations, 10.0f);
	}
	return w;
}

static inline uint32_t TestXorshift32(uint32_t* state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* A flat square cloth of 1 m, n x n particles, in the xz plane from (-0.5, y, -0.5) (the sheets, hammocks and
   trampolines the tests drop things onto); mass per particle, or the default when mass <= 0. Its first particle, or
   the builder's error. */
static inline int TestAddFlatCloth(pbdWorldId w, float y, int n, float mass)
{
	pbdClothDef c = pbd_DefaultClothDef();
	c.origin[0] = -0.5f, c.origin[1] = y, c.origin[2] = -0.5f;
	c.axisU[0] = 1.0f, c.axisU[1] = 0.0f, c.axisU[2] = 0.0f;
	c.axisV[0] = 0.0f, c.axisV[1] = 0.0f, c.axisV[2] = 1.0f;
	c.resolutionU = c.resolutionV = n;
	if (mass > 0.0f) c.mass = mass;
	return pbd_World_AddCloth(w, &c);
}

/* Distance between particles a and b of a float4 buffer. */
static inline float TestDistance(const float* x, int a, int b)
{
	float dx = x[4 * a] - x[4 * b], dy = x[4 * a + 1] - x[4 * b + 1], dz = x[4 * a + 2] - x[4 * b + 2];
	return sqrtf(dx * dx + dy * dy + dz * dz);
}

/* 1 when every position and velocity of the world is finite. */
static inline int TestAllFinite(pbdWorldId w)
{
	int n = pbd_World_GetParticleCount(w);
	const float* x = (const float*)pbd_World_GetBuffer(w, pbdBuffer_positions, NULL);
	const float* v = (const float*)pbd_World_GetBuffer(w, pbdBuffer_velocities, NULL);
	for (int i = 0; i < 4 * n; ++i) {
		if (!isfinite(x[i]) || !isfinite(v[i])) return 0;
	}
	return 1;
}

/* Counts the pinned hashes the running test compares (main.c: no test of TEST_LIST_LONG may, as the
   builds that leave those out must still reach every pinned hash). 1 when hash is pinned. */
extern int g_pinnedHashes;
static inline int TestPinnedHash(uint32_t hash, uint32_t pinned)
{
	g_pinnedHashes += 1;
	return hash == pinned;
}

typedef void (*TestFn)(void);
typedef struct TestCase {
	const char* name;
	TestFn fn;
} TestCase;

#endif
