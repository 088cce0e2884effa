/* test_neighbour_reference.h -- the harness of the neighbour search tests (test_neighbours.c,
   test_neighbour_rules.c): particle clouds, a grid built for one, and the brute-force reference
   that applies grid.h's rules (the filter) directly (arithmetic in the grid's order), against which the grid's
   pairs are checked. Each file has its own random state; each test that draws sets it first. */
#ifndef PBD_TEST_NEIGHBOUR_REFERENCE_H
#define PBD_TEST_NEIGHBOUR_REFERENCE_H

#include "world/core.h"
#include "neighbours/grid.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static uint32_t s_rng = 1;
static inline uint32_t RandInt(void) { return TestXorshift32(&s_rng); }
static inline float Rand01(void) { return (float)(RandInt() >> 8) / (float)(1 << 24); }
static inline float RandRange(float lo, float hi) { return lo + (hi - lo) * Rand01(); }

/* A particle cloud and how its radii are given. */
typedef struct Cloud {
	int32_t n;
	float* p;    /* float4 */
	float* rest; /* float4 */
	uint32_t* phase;
	float* radii;
	float objectRadius[PBD_MAX_OBJECTS];
	float radius;
	int mode; /* 0: one radius, 1: per particle, 2: per object */
} Cloud;

static inline Cloud NewCloud(int32_t n)
{
	Cloud c;
	memset(&c, 0, sizeof c);
	c.n = n;
	c.p = calloc((size_t)n * 4 + 4, sizeof(float));
	c.rest = calloc((size_t)n * 4 + 4, sizeof(float));
	c.phase = calloc((size_t)n + 1, sizeof(uint32_t));
	c.radii = calloc((size_t)n + 1, sizeof(float));
	return c;
}

static inline void FreeCloud(Cloud* c) { free(c->p), free(c->rest), free(c->phase), free(c->radii); }

static inline uint32_t Phase(uint32_t object, uint32_t group, uint32_t flags) { return object | group << PBD_PHASE_GROUP_SHIFT | flags; }

/* The reference: grid.h's rules written out, the arithmetic in the grid's order. */
static inline float Sane(float r) { return r > 0.0f && r <= 3e38f ? r : 0.0f; }
static inline float RadiusOf(const Cloud* c, int32_t i)
{
	if (c->mode == 0) return Sane(c->radius);
	if (c->mode == 1) return Sane(c->radii[i]);
	return Sane(c->objectRadius[c->phase[i] & PBD_PHASE_OBJECT_MASK]);
}

static inline int Meet(const Cloud* c, const pbdGridFilter* f, int32_t i, int32_t j)
{
	const uint32_t pi = c->phase[i], pj = c->phase[j];
	if ((pi | pj) & f->exclude) return 0;
	if ((pi & f->pairNeeds) != f->pairNeeds && (pj & f->pairNeeds) != f->pairNeeds) return 0;
	const uint32_t gi = (pi & PBD_PHASE_GROUP_MASK) >> PBD_PHASE_GROUP_SHIFT, gj = (pj & PBD_PHASE_GROUP_MASK) >> PBD_PHASE_GROUP_SHIFT;
	if (gi == gj && (pi & pj & f->groupNeeds) != f->groupNeeds) return 0;
	if (f->activation != NULL && !f->activation[256 * gi + gj]) return 0;
	const float *a = c->p + 4 * i, *b = c->p + 4 * j;
	if (!f->keepPinned && a[3] == 0.0f && b[3] == 0.0f) return 0;
	if (f->restDistance > 0.0f && (pi & PBD_PHASE_OBJECT_MASK) == (pj & PBD_PHASE_OBJECT_MASK)) {
		const float *ra = c->rest + 4 * i, *rb = c->rest + 4 * j;
		const float ex = ra[0] - rb[0], ey = ra[1] - rb[1], ez = ra[2] - rb[2];
		if ((ex * ex + ey * ey) + ez * ez < f->restDistance * f->restDistance) return 0;
	}
	const float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
	const float d2 = (dx * dx + dy * dy) + dz * dz;
	float r2;
	if (c->mode == 0) {
		r2 = RadiusOf(c, i) * RadiusOf(c, i);
	} else {
		const float rij = (RadiusOf(c, i) + RadiusOf(c, j)) * 0.5f;
		r2 = rij * rij;
	}
	return d2 < r2;
}

/* The contacts family's rule (families/contacts_list.c ContactFilter) as a filter: pairs within a group of
   particles that both carry SELF (self), between groups (others), no pins, no NO_COLLIDE or fluid
   particle, rest-pose neighbours closer than rest left out. The table (one per file: tests run one at a
   time) only when a switch is off, as the family does. */
static uint8_t s_activation[256 * 256];
static inline pbdGridFilter ContactRule(int self, int others, float rest)
{
	pbdGridFilter f;
	memset(&f, 0, sizeof f);
	f.exclude = PBD_PHASE_NO_COLLIDE | PBD_PHASE_FLUID;
	f.groupNeeds = PBD_PHASE_SELF;
	f.restDistance = rest;
	if (!(self && others)) {
		memset(s_activation, others != 0, sizeof s_activation);
		for (int g = 0; g < 256; ++g) s_activation[257 * g] = (uint8_t)(self != 0);
		f.activation = s_activation;
	}
	return f;
}

static inline float Distance(const Cloud* c, int32_t i, int32_t j) { return TestDistance(c->p, i, j); }

static inline int CompareKeys(const void* a, const void* b)
{
	int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
	return (x > y) - (x < y);
}

/* The grid for a cloud: its own pool and scratch. */
typedef struct Search {
	pbdPool pool;
	pbdGrid grid;
	void* scratch;
	size_t scratchBytes;
} Search;

/* The grid again for the same cloud (the filter is the build's). */
static inline int Rebuild(Search* s, const Cloud* c, const pbdGridFilter* f)
{
	pbdGridInput in;
	memset(&in, 0, sizeof in);
	in.positions = c->p, in.rest = c->rest, in.phase = c->phase, in.count = c->n;
	if (c->mode == 0) in.radius = c->radius;
	if (c->mode == 1) in.radii = c->radii;
	if (c->mode == 2) in.objectRadius = c->objectRadius;
	in.filter = *f;
	return pbd_Grid_Build(&s->grid, &in, s->scratch, s->scratchBytes);
}

static inline int Build(Search* s, const Cloud* c, int32_t maxParticles, const pbdGridFilter* f)
{
	if (!pbd_PoolReserve(&s->pool, pbd_Grid_Bytes(maxParticles))) return 0;
	if (!pbd_Grid_Create(&s->grid, &s->pool, maxParticles)) return 0;
	s->scratchBytes = pbd_Grid_ListsScratchBytes(c->n);
	s->scratch = malloc(s->scratchBytes);
	return Rebuild(s, c, f);
}

static inline void Release(Search* s)
{
	pbd_PoolRelease(&s->pool);
	free(s->scratch);
}

/* Pairs: the grid's are the reference's, each once, i < j. With `near` (far from the origin,
   where the cell rounding may lose a pair at nearly the radius, grid.c CELL_SLACK) the grid's
   must be true pairs and hold every reference pair closer than 0.99 of its radius. Returns the
   count, or -1 on a mismatch. */
static inline int32_t CheckPairs(Search* s, const Cloud* c, int near)
{
	const pbdGridFilter* f = &s->grid.filter;
	const int32_t n = c->n;
	const int32_t capacity = (n < 2000 ? n * (n - 1) / 2 : n * 40) + 16;
	int32_t* pairs = malloc(sizeof(int32_t) * 2 * (size_t)capacity);
	int64_t* got = malloc(sizeof(int64_t) * (size_t)capacity);
	int64_t* want = malloc(sizeof(int64_t) * ((size_t)n * (size_t)n / 2 + 1));
	const int32_t found = pbd_Grid_FindPairs(&s->grid, pairs, capacity);
	int32_t expected = 0;
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t j = i + 1; j < n; ++j) {
			if (Meet(c, f, i, j)) want[expected++] = (int64_t)i * n + j;
		}
	}
	int ok = s->grid.dropped == 0 && found <= capacity;
	for (int32_t k = 0; k < found && ok; ++k) {
		ok = pairs[2 * k] >= 0 && pairs[2 * k] < pairs[2 * k + 1] && pairs[2 * k + 1] < n;
		got[k] = (int64_t)pairs[2 * k] * n + pairs[2 * k + 1];
	}
	if (ok) {
		qsort(got, (size_t)found, sizeof *got, CompareKeys);
		for (int32_t k = 1; k < found && ok; ++k) ok = got[k] != got[k - 1];
		if (!near) {
			ok = ok && found == expected && memcmp(got, want, sizeof(int64_t) * (size_t)expected) == 0;
		} else {
			for (int32_t k = 0; k < found && ok; ++k) ok = Meet(c, f, (int32_t)(got[k] / n), (int32_t)(got[k] % n));
			for (int32_t e = 0, k = 0; e < expected && ok; ++e) {
				const int32_t i = (int32_t)(want[e] / n), j = (int32_t)(want[e] % n);
				while (k < found && got[k] < want[e]) ++k;
				const float rij = c->mode == 0 ? RadiusOf(c, i) : 0.5f * (RadiusOf(c, i) + RadiusOf(c, j));
				ok = (k < found && got[k] == want[e]) || Distance(c, i, j) >= 0.99f * rij;
			}
		}
	}
	if (!ok) printf("  FAILED: grid %d pairs, reference %d (dropped %d)\n", found, expected, s->grid.dropped);
	free(pairs), free(got), free(want);
	return ok ? expected : -1;
}

/* Random phases: six objects, mostly a group each, SELF on most, NO_COLLIDE on a few. Radii of
   three sizes per particle and per object, pins on a fifth. */
static inline void RandomPhasesAndRadii(Cloud* c, float r)
{
	for (int32_t i = 0; i < c->n; ++i) {
		const uint32_t object = RandInt() % 6u;
		const uint32_t group = RandInt() % 10u < 7u ? object : RandInt() % 3u;
		uint32_t flags = RandInt() % 10u < 7u ? PBD_PHASE_SELF : 0u;
		if (RandInt() % 20u == 0u) flags |= PBD_PHASE_NO_COLLIDE;
		c->phase[i] = Phase(object, group, flags);
		c->radii[i] = r * (float)(1 + RandInt() % 3u) / 3.0f;
		c->p[4 * i + 3] = RandInt() % 5u == 0u ? 0.0f : 1.0f;
	}
	c->radius = r;
	for (int o = 0; o < PBD_MAX_OBJECTS; ++o) c->objectRadius[o] = r * (float)(1 + o % 3) / 3.0f;
}

#endif
