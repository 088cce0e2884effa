/* The neighbour search's rules by hand, without a world: the phase rules on six particles (groups,
   SELF, NO_COLLIDE, rest-pose neighbours, pins), radii met at their mean (per object, per particle,
   the largest sizing the cells), and what is kept and counted past the capacity of pairs and lists. */
#include "test_neighbour_reference.h"

#include <stdlib.h>
#include <string.h>

/* The phase rules on six particles, by hand: A1, A2 of group A with SELF, A3 of group A
   without, B1 of group B, C1 of group C with NO_COLLIDE, A4 of group A, another object, SELF;
   all within reach of each other. */
void Test_NeighbourPhaseRules(void)
{
	Cloud c = NewCloud(6);
	const uint32_t phases[6] = { Phase(0, 0, PBD_PHASE_SELF), Phase(0, 0, PBD_PHASE_SELF), Phase(0, 0, 0),
								 Phase(1, 1, PBD_PHASE_SELF), Phase(2, 2, PBD_PHASE_SELF | PBD_PHASE_NO_COLLIDE),
								 Phase(3, 0, PBD_PHASE_SELF) };
	for (int32_t i = 0; i < 6; ++i) {
		c.phase[i] = phases[i];
		c.p[4 * i] = 0.01f * (float)i, c.p[4 * i + 3] = 1.0f;
		c.rest[4 * i] = 0.001f * (float)i; /* rest-pose neighbours of each other, within one object */
	}
	c.radius = 1.0f;
	Search s;
	const pbdGridFilter all = ContactRule(1, 1, 0.0f);
	ENSURE(Build(&s, &c, 6, &all));
	struct { int self, others; float rest; int count; int64_t keys[15]; } cases[] = {
		/* self only: A1-A2, A1-A4, A2-A4 (A4 is another object of group A) */
		{ 1, 0, 0.0f, 3, { 0 * 6 + 1, 0 * 6 + 5, 1 * 6 + 5 } },
		/* others only: every A with B1 (A3 too: SELF is only about its own group) */
		{ 0, 1, 0.0f, 4, { 0 * 6 + 3, 1 * 6 + 3, 2 * 6 + 3, 3 * 6 + 5 } },
		/* both */
		{ 1, 1, 0.0f, 7, { 0 * 6 + 1, 0 * 6 + 3, 0 * 6 + 5, 1 * 6 + 3, 1 * 6 + 5, 2 * 6 + 3, 3 * 6 + 5 } },
		/* both, rest-pose neighbours of one object left out: A1-A2 goes (A4 is another object) */
		{ 1, 1, 0.1f, 6, { 0 * 6 + 3, 0 * 6 + 5, 1 * 6 + 3, 1 * 6 + 5, 2 * 6 + 3, 3 * 6 + 5 } },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
		const pbdGridFilter f = ContactRule(cases[k].self, cases[k].others, cases[k].rest);
		ENSURE(Rebuild(&s, &c, &f));
		int32_t pairs[30];
		const int32_t n = pbd_Grid_FindPairs(&s.grid, pairs, 15);
		int64_t got[15];
		for (int32_t e = 0; e < n; ++e) got[e] = (int64_t)pairs[2 * e] * 6 + pairs[2 * e + 1];
		qsort(got, (size_t)n, sizeof got[0], CompareKeys);
		ENSURE(n == cases[k].count && memcmp(got, cases[k].keys, sizeof(int64_t) * (size_t)n) == 0);
	}
	/* two pins never meet unless asked */
	c.p[3] = c.p[7] = 0.0f;
	Release(&s);
	pbdGridFilter f = ContactRule(1, 0, 0.0f);
	ENSURE(Build(&s, &c, 6, &f));
	int32_t pairs[30];
	ENSURE(pbd_Grid_FindPairs(&s.grid, pairs, 15) == 2);
	f.keepPinned = 1;
	ENSURE(Rebuild(&s, &c, &f));
	ENSURE(pbd_Grid_FindPairs(&s.grid, pairs, 15) == 3);
	Release(&s);
	FreeCloud(&c);
}

/* Radii: per object, a pair meets at (r_i + r_j) / 2; per particle the same; one radius for all
   gives the same pairs and order as equal radii per particle (the bits the contacts family's
   hash depends on). */
void Test_NeighbourRadiiMean(void)
{
	Cloud c = NewCloud(2);
	c.phase[0] = Phase(0, 0, PBD_PHASE_SELF), c.phase[1] = Phase(1, 1, PBD_PHASE_SELF);
	c.p[3] = c.p[7] = 1.0f;
	c.objectRadius[0] = 0.1f, c.objectRadius[1] = 0.02f;
	c.mode = 2;
	const pbdGridFilter f = ContactRule(1, 1, 0.0f);
	const float gaps[2] = { 0.0599f, 0.0601f };
	for (int k = 0; k < 2; ++k) {
		c.p[4] = gaps[k];
		Search s;
		ENSURE(Build(&s, &c, 2, &f));
		int32_t pair[2];
		ENSURE(pbd_Grid_FindPairs(&s.grid, pair, 1) == (k == 0));
		Release(&s);
	}
	FreeCloud(&c);

	/* The largest radius sizes the cells, wherever it is: particle 0 of a row spaced 0.1 apart
	   has radius 2, the rest 0.01, so it meets the ten within (2 + 0.01) / 2. */
	for (int big = 0; big < 2; ++big) {
		Cloud row = NewCloud(50);
		for (int32_t i = 0; i < row.n; ++i) {
			row.p[4 * i] = 0.1f * (float)i, row.p[4 * i + 3] = 1.0f;
			row.phase[i] = Phase(0, 0, PBD_PHASE_SELF);
			row.radii[i] = 0.01f;
		}
		const int32_t at = big ? row.n - 1 : 0;
		row.radii[at] = 2.0f;
		row.mode = 1;
		Search s;
		const pbdGridFilter f = ContactRule(1, 1, 0.0f);
		ENSURE(Build(&s, &row, row.n, &f));
		ENSURE(CheckPairs(&s, &row, 0) == 10);
		Release(&s);
		FreeCloud(&row);
	}

	s_rng = 31;
	Cloud d = NewCloud(2000);
	RandomPhasesAndRadii(&d, 0.08f);
	for (int32_t i = 0; i < d.n; ++i) {
		for (int k = 0; k < 3; ++k) d.p[4 * i + k] = RandRange(-0.5f, 0.5f), d.rest[4 * i + k] = d.p[4 * i + k];
		d.radii[i] = 0.08f;
	}
	int32_t* a = malloc(sizeof(int32_t) * 2 * 100000);
	int32_t* b = malloc(sizeof(int32_t) * 2 * 100000);
	Search s;
	d.mode = 0;
	const pbdGridFilter g = ContactRule(1, 1, 0.02f);
	ENSURE(Build(&s, &d, d.n, &g));
	const int32_t na = pbd_Grid_FindPairs(&s.grid, a, 100000);
	Release(&s);
	d.mode = 1;
	ENSURE(Build(&s, &d, d.n, &g));
	const int32_t nb = pbd_Grid_FindPairs(&s.grid, b, 100000);
	Release(&s);
	printf("  %d pairs with one radius, %d with equal radii per particle\n", na, nb);
	ENSURE(na > 1000 && na == nb && memcmp(a, b, sizeof(int32_t) * 2 * (size_t)na) == 0);
	free(a), free(b);
	FreeCloud(&d);
}

/* Past the capacity: pairs keep the first `capacity` and count the rest; lists cut short keep
   true neighbours, padded, and count what did not fit. */
void Test_NeighbourCapacity(void)
{
	s_rng = 5;
	Cloud c = NewCloud(400);
	RandomPhasesAndRadii(&c, 0.05f);
	for (int32_t i = 0; i < c.n; ++i) {
		for (int k = 0; k < 3; ++k) c.p[4 * i + k] = RandRange(-0.1f, 0.1f);
	}
	Search s;
	const pbdGridFilter f = ContactRule(1, 1, 0.0f);
	ENSURE(Build(&s, &c, c.n, &f));
	int32_t* pairs = malloc(sizeof(int32_t) * 2 * 100000);
	const int32_t total = pbd_Grid_FindPairs(&s.grid, pairs, 100000);
	printf("  %d pairs\n", total);
	ENSURE(total > 2000 && s.grid.dropped == 0);
	ENSURE(pbd_Grid_FindPairs(&s.grid, pairs, 32) == 32 && s.grid.dropped == total - 32);
	for (int32_t k = 0; k < 32; ++k) ENSURE(Meet(&c, &f, pairs[2 * k], pairs[2 * k + 1]));
	pbdNeighbourLists lists;
	pbdPool pool;
	ENSURE(pbd_PoolReserve(&pool, pbd_NeighbourLists_Bytes(c.n, 1001)));
	ENSURE(pbd_NeighbourLists_Create(&lists, &pool, c.n, 1001)); /* not a multiple of 4: the lists use 1000 */
	lists.indices[1000] = -12345;
	ENSURE(pbd_Grid_FindLists(NULL, &s.grid, &lists, pairs, 2 * 100000) == 1);
	int32_t stored = 0;
	for (int32_t i = 0; i < c.n; ++i) stored += lists.count[i];
	ENSURE(stored + lists.dropped == 2 * total && lists.used <= 1000 && lists.indices[1000] == -12345);
	for (int32_t i = 0; i < c.n; ++i) {
		const int32_t st = lists.start[i], k = lists.count[i];
		ENSURE((st & 3) == 0 && st + ((k + 3) & ~3) <= lists.used);
		for (int32_t e = 0; e < k; ++e) {
			const int32_t j = lists.indices[st + e];
			ENSURE(j != i && (i < j ? Meet(&c, &f, i, j) : Meet(&c, &f, j, i)));
		}
		for (int32_t e = k; e < ((k + 3) & ~3); ++e) ENSURE(lists.indices[st + e] == i);
	}
	pbd_PoolRelease(&pool);
	free(pairs);
	Release(&s);
	FreeCloud(&c);
}

/* The activation table (grid.h filter.activation): on a random cloud of four groups, the pair of
   groups 1 and 2 switched off gives no pair between them and otherwise exactly the brute-force
   pairs (the lists with tables: test_neighbours.c); switched on, exactly the brute-force pairs, with pairs between 1 and 2 among them. */
void Test_NeighbourActivationTable(void)
{
	s_rng = 77;
	Cloud c = NewCloud(1500);
	for (int32_t i = 0; i < c.n; ++i) {
		const uint32_t group = RandInt() % 4u;
		c.phase[i] = Phase(group, group, RandInt() % 4u ? PBD_PHASE_SELF : 0u);
		for (int k = 0; k < 3; ++k) c.p[4 * i + k] = RandRange(-0.4f, 0.4f);
		c.p[4 * i + 3] = 1.0f;
	}
	c.radius = 0.07f;
	uint8_t* table = malloc(256 * 256);
	memset(table, 1, 256 * 256);
	pbdGridFilter f;
	memset(&f, 0, sizeof f);
	f.activation = table;
	int32_t between[2] = { 0, 0 };
	for (int on = 0; on < 2 && !g_testFailed; ++on) {
		table[256 * 1 + 2] = table[256 * 2 + 1] = (uint8_t)on;
		Search s;
		ENSURE(Build(&s, &c, c.n, &f));
		const int32_t expected = CheckPairs(&s, &c, 0);
		ENSURE(expected > 1000);
		int32_t* pairs = malloc(sizeof(int32_t) * 2 * (size_t)expected);
		ENSURE(pbd_Grid_FindPairs(&s.grid, pairs, expected) == expected);
		for (int32_t k = 0; k < expected; ++k) {
			const uint32_t a = c.phase[pairs[2 * k]] & PBD_PHASE_OBJECT_MASK, b = c.phase[pairs[2 * k + 1]] & PBD_PHASE_OBJECT_MASK;
			between[on] += (a == 1u && b == 2u) || (a == 2u && b == 1u);
		}
		free(pairs);
		Release(&s);
	}
	printf("  pairs between groups 1 and 2: %d off, %d on\n", between[0], between[1]);
	ENSURE(between[0] == 0 && between[1] > 100);
	free(table);
	FreeCloud(&c);
}
