/* Graph colouring of any arity (world/graph_colouring.c): the same colours and order as the
   distance colouring for arity 2, greedy colourings of tetrahedra checked against their
   definition, overflow, ranges, refusals, and the cost of colouring 100k tets. */
#include "families/distance_state.h"
#include "world/graph_colouring.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint32_t s_rng = 1;
static uint32_t RandInt(void) { return TestXorshift32(&s_rng); }

static void Shuffle(int32_t* v, int32_t n)
{
	for (int32_t i = n - 1; i > 0; --i) {
		int32_t j = (int32_t)(RandInt() % (uint32_t)(i + 1));
		int32_t t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* ---------------------------------------------------------------- arity 2 = pbd_ColourGroup */

/* Colours group g of world w from the input order src (indices into the group's constraints as
   built), both ways, and compares. pbd_ColourGroup colours with pbd_GraphColour itself; what this
   checks is its own part: the regular batches it pulls forward and the arrays it moves keep each
   colour's constraints, the counting-sort order and the overflow set exactly as colouring gave them
   (the greedy rule itself is checked against its definition by CheckGreedy below). pbd_ColourGroup sorts the group in place and then moves each
   colour's regular batches first, so its output is the counting-sort order with whole runs of
   4 consecutive entries pulled forward: checked as exactly that. Each constraint carries its
   input position in rest[] so its source is known after the sort. */
static void CompareWithDistanceColouring(pbdWorld* w, pbdDistance* d, pbdGroup* g, const int32_t* a0, const int32_t* b0, const int32_t* src,
										 int32_t firstParticle, int32_t particleCount)
{
	const int32_t n = g->count;
	int32_t* ca = malloc(sizeof(int32_t) * (size_t)n);
	int32_t* cb = malloc(sizeof(int32_t) * (size_t)n);
	int32_t* order = malloc(sizeof(int32_t) * (size_t)n);
	int32_t* pos = malloc(sizeof(int32_t) * (size_t)n);
	uint8_t* colour = malloc((size_t)n);
	uint8_t* seen = calloc((size_t)n, 1);
	size_t bytes = pbd_GraphColourScratchBytes(particleCount);
	void* scratch = malloc(bytes + 1);
	for (int32_t i = 0; i < n; ++i) {
		ca[i] = a0[src[i]], cb[i] = b0[src[i]];
		d->ca[g->first + i] = ca[i], d->cb[g->first + i] = cb[i], d->rest[g->first + i] = (float)i;
	}
	pbdColouringInput in = { 0 };
	in.count = n, in.arity = 2, in.lanes[0] = ca, in.lanes[1] = cb, in.stride = 1;
	in.firstParticle = firstParticle, in.particleCount = particleCount;
	pbdColouring out;
	int colours = pbd_GraphColour(&in, scratch, bytes, colour, order, &out);
	d->batchCount = 0; /* a fresh batch table for each run (the world is not stepped) */
	pbd_ColourGroup(w, d, g, firstParticle, particleCount);
	int ok = colours == g->colourCount && out.colourCount == colours;
	for (int32_t d = 0; d < n && ok; ++d) pos[order[d]] = d;
	int32_t from = g->first;
	for (int32_t k = 0; k < colours && ok; ++k) {
		ok = g->colourEnd[k] - g->first == out.colourStart[k + 1] && from - g->first == out.colourStart[k];
		/* regular batches: 4 entries that are consecutive in the counting-sort order */
		for (int32_t c = from; c < g->colourRegularEnd[k] && ok; c += 4) {
			const int32_t p = pos[(int32_t)d->rest[c]];
			for (int32_t j = 0; j < 4 && ok; ++j) ok = pos[(int32_t)d->rest[c + j]] == p + j;
		}
		/* the rest in counting-sort order */
		for (int32_t c = g->colourRegularEnd[k] + 1; c < g->colourEnd[k] && ok; ++c) {
			ok = pos[(int32_t)d->rest[c]] > pos[(int32_t)d->rest[c - 1]];
		}
		for (int32_t c = from; c < g->colourEnd[k] && ok; ++c) {
			const int32_t s = (int32_t)d->rest[c];
			ok = !seen[s] && colour[s] == k && pos[s] >= out.colourStart[k] && pos[s] < out.colourStart[k + 1];
			seen[s] = 1;
		}
		from = g->colourEnd[k];
	}
	/* the overflow set, in order, the same in both */
	ok = ok && out.overflowCount == g->first + n - from;
	for (int32_t c = from; c < g->first + n && ok; ++c) ok = order[c - g->first] == (int32_t)d->rest[c] && colour[order[c - g->first]] == PBD_COLOUR_OVERFLOW;
	free(ca), free(cb), free(order), free(pos), free(colour), free(seen), free(scratch);
	if (!ok) {
		printf("  FAILED: group of %d constraints: %d colours here, %d in pbd_ColourGroup\n", n, colours, g->colourCount);
		g_testFailed = 1;
	}
}

/* Every group of cloths of several sizes and of a chain, in their built order, reversed and
   shuffled; then graphs dense enough to overflow 16 colours (a star, random pairs on a few
   particles). */
void Test_GraphColourMatchesDistanceColouring(void)
{
	s_rng = 77;
	const int sizes[][2] = { { 2, 2 }, { 3, 5 }, { 17, 9 }, { 40, 40 }, { 64, 3 }, { 101, 13 } };
	int groups = 0, overflowed = 0;
	for (int s = 0; s < 7 && !g_testFailed; ++s) {
		pbdWorldDef def = pbd_DefaultWorldDef();
		def.maxParticles = 20000;
		def.maxConstraints = 120000;
		pbdWorldId id = TestCreateWorld(&def);
		if (s < 6) {
			pbdClothDef cloth = pbd_DefaultClothDef();
			cloth.resolutionU = sizes[s][0];
			cloth.resolutionV = sizes[s][1];
			ENSURE(pbd_World_AddCloth(id, &cloth) == 0);
		} else {
			pbdChainDef chain = pbd_DefaultChainDef();
			chain.segments = 300;
			ENSURE(pbd_World_AddChain(id, &chain) == 0);
		}
		pbdWorld* w = pbd_GetWorld(id);
		pbdDistance* d = pbd_DistanceState(w);
		const int32_t np = w->particleCount;
		for (int gi = 0; gi < d->groupCount && !g_testFailed; ++gi) {
			pbdGroup* g = &d->groups[gi];
			const int32_t n = g->count;
			if (n == 0) continue;
			int32_t* a0 = malloc(sizeof(int32_t) * (size_t)n);
			int32_t* b0 = malloc(sizeof(int32_t) * (size_t)n);
			int32_t* src = malloc(sizeof(int32_t) * (size_t)n);
			memcpy(a0, d->ca + g->first, sizeof(int32_t) * (size_t)n);
			memcpy(b0, d->cb + g->first, sizeof(int32_t) * (size_t)n);
			for (int order = 0; order < 3 && !g_testFailed; ++order) {
				for (int32_t i = 0; i < n; ++i) src[i] = order == 1 ? n - 1 - i : i;
				if (order == 2) Shuffle(src, n);
				CompareWithDistanceColouring(w, d, g, a0, b0, src, 0, np);
				groups += 1;
			}
			if (s == 6 && !g_testFailed) {
				/* dense graphs in the chain's group: a star on particle 5, then random pairs on 12 particles */
				for (int dense = 0; dense < 2 && !g_testFailed; ++dense) {
					for (int32_t i = 0; i < n; ++i) {
						if (dense == 0) {
							a0[i] = 5, b0[i] = 6 + i % (np - 6);
						} else {
							a0[i] = (int32_t)(RandInt() % 12u);
							b0[i] = (a0[i] + 1 + (int32_t)(RandInt() % 11u)) % 12;
						}
						src[i] = i;
					}
					CompareWithDistanceColouring(w, d, g, a0, b0, src, 0, np);
					overflowed += g->colourCount == PBD_MAX_COLOURS && g->colourEnd[PBD_MAX_COLOURS - 1] < g->first + n;
					groups += 1;
				}
			}
			free(a0), free(b0), free(src);
		}
		pbd_DestroyWorld(id);
	}
	printf("  %d group colourings identical to pbd_ColourGroup, %d of them with an overflow set\n", groups, overflowed);
	ENSURE(groups >= 50 && overflowed == 2);
	ENSURE(PBD_COLOUR_DEFAULT == PBD_MAX_COLOURS); /* maxColours 0 colours as the distance family */
}

/* ---------------------------------------------------------------- tetrahedra */

/* Freudenthal's (Kuhn's) 6 tetrahedra per cube of an n^3 lattice: one per path 000 -> 111
   along the three axes in each order. 24 tets meet at an interior vertex. */
static int32_t LatticeTets(int n, int32_t* tets)
{
	const int v = n + 1;
	static const int perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	int32_t count = 0;
	for (int z = 0; z < n; ++z) {
		for (int y = 0; y < n; ++y) {
			for (int x = 0; x < n; ++x) {
				for (int p = 0; p < 6; ++p) {
					int c[3] = { x, y, z };
					int32_t* t = tets + 4 * count++;
					t[0] = (c[2] * v + c[1]) * v + c[0];
					for (int k = 0; k < 3; ++k) {
						c[perms[p][k]] += 1;
						t[k + 1] = (c[2] * v + c[1]) * v + c[0];
					}
				}
			}
		}
	}
	return count;
}

/* Random quadruples of distinct particles in [first, first + range). */
static void RandomQuads(int32_t* q, int32_t count, int32_t first, int32_t range)
{
	for (int32_t c = 0; c < count; ++c) {
		for (int k = 0; k < 4; ++k) {
			int32_t p, again;
			do {
				p = first + (int32_t)(RandInt() % (uint32_t)range);
				again = 0;
				for (int j = 0; j < k; ++j) again |= q[4 * c + j] == p;
			} while (again);
			q[4 * c + k] = p;
		}
	}
}

/* The colouring is the greedy one, checked from its definition rather than by running the same
   loop again: for every constraint, the colours of the earlier constraints that share a particle
   with it (found through per-particle lists); it has the lowest colour not among them, or is in
   the overflow set when the first maxColours all are. With that, no two constraints of one colour
   share a particle, and the overflow set holds exactly what did not fit. The permutation is the
   stable counting sort by colour, overflow last. */
static int CheckGreedy(const int32_t* q, int32_t arity, int32_t count, int32_t first, int32_t range, int maxColours,
					   const uint8_t* colour, const int32_t* order, const pbdColouring* out)
{
	int32_t* start = calloc((size_t)range + 1, sizeof(int32_t));
	int32_t* list = malloc(sizeof(int32_t) * (size_t)count * (size_t)arity);
	int ok = 1;
	for (int32_t c = 0; c < count * arity; ++c) start[q[c] - first + 1] += 1;
	for (int32_t p = 0; p < range; ++p) start[p + 1] += start[p];
	int32_t* fill = malloc(sizeof(int32_t) * ((size_t)range + 1));
	memcpy(fill, start, sizeof(int32_t) * ((size_t)range + 1));
	for (int32_t c = 0; c < count; ++c) {
		for (int k = 0; k < arity; ++k) list[fill[q[arity * c + k] - first]++] = c;
	}
	int used = 0;
	for (int32_t c = 0; c < count && ok; ++c) {
		uint64_t earlier = 0, same = 0;
		for (int k = 0; k < arity; ++k) {
			const int32_t p = q[arity * c + k] - first;
			for (int32_t e = start[p]; e < start[p + 1]; ++e) {
				const int32_t o = list[e];
				if (o == c || colour[o] == PBD_COLOUR_OVERFLOW) continue;
				if (o < c) earlier |= 1ull << colour[o];
				same |= (uint64_t)(colour[o] == colour[c]);
			}
		}
		int expect = 0;
		while (expect < maxColours && (earlier >> expect & 1u)) ++expect;
		if (expect == maxColours) expect = PBD_COLOUR_OVERFLOW;
		ok = colour[c] == expect && !(colour[c] != PBD_COLOUR_OVERFLOW && same);
		if (colour[c] != PBD_COLOUR_OVERFLOW && colour[c] + 1 > used) used = colour[c] + 1;
	}
	ok = ok && used == out->colourCount;
	int32_t overflow = 0;
	for (int32_t c = 0; c < count; ++c) overflow += colour[c] == PBD_COLOUR_OVERFLOW;
	ok = ok && overflow == out->overflowCount && out->colourStart[0] == 0 && out->colourStart[out->colourCount] == count - overflow;
	for (int32_t d = 0; d < count && ok; ++d) {
		const int32_t c = order[d];
		int k = 0;
		while (k < out->colourCount && d >= out->colourStart[k + 1]) ++k; /* k = colourCount: overflow */
		ok = c >= 0 && c < count && (k == out->colourCount ? colour[c] == PBD_COLOUR_OVERFLOW : colour[c] == k);
		if (ok && d > 0 && d != out->colourStart[k]) ok = order[d - 1] < c; /* stable within a colour */
	}
	free(start), free(list), free(fill);
	return ok;
}

static double NowMs(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Tets of a lattice (in lattice order and shuffled) and random quadruples, at 16 and 32
   colours and at 4 (heavy overflow); the timing of 100k tets is printed. */
void Test_GraphColourTetsGreedy(void)
{
	s_rng = 4242;
	const int n = 26; /* 26^3 cubes x 6 = 105,456 tets on 27^3 = 19,683 particles */
	const int32_t particles = (n + 1) * (n + 1) * (n + 1);
	int32_t* tets = malloc(sizeof(int32_t) * 4 * 6 * (size_t)n * n * n);
	const int32_t count = LatticeTets(n, tets);
	int32_t* perm = malloc(sizeof(int32_t) * (size_t)count);
	int32_t* shuffled = malloc(sizeof(int32_t) * 4 * (size_t)count);
	uint8_t* colour = malloc((size_t)count);
	int32_t* order = malloc(sizeof(int32_t) * (size_t)count);
	size_t bytes = pbd_GraphColourScratchBytes(particles);
	void* scratch = malloc(bytes);
	for (int32_t c = 0; c < count; ++c) perm[c] = c;
	Shuffle(perm, count);
	for (int32_t c = 0; c < count; ++c) memcpy(shuffled + 4 * c, tets + 4 * perm[c], 4 * sizeof(int32_t));
	const char* names[3] = { "lattice tets", "shuffled tets", "random quadruples" };
	for (int kind = 0; kind < 3 && !g_testFailed; ++kind) {
		int32_t* q = kind == 0 ? tets : shuffled;
		if (kind == 2) {
			q = shuffled;
			RandomQuads(q, count, 0, particles);
		}
		const int limits[3] = { 16, 32, 4 };
		for (int m = 0; m < 3; ++m) {
			pbdColouringInput in = pbd_GraphColourInputFlat(q, 4, 4, count);
			in.particleCount = particles;
			in.maxColours = limits[m];
			pbdColouring out;
			double t0 = NowMs();
			int colours = pbd_GraphColour(&in, scratch, bytes, colour, order, &out);
			double ms = NowMs() - t0;
			printf("  %s: %d tets, %d colours of %d, %.1f%% overflow, %.2f ms\n", names[kind], count, colours, limits[m],
				   100.0 * out.overflowCount / count, ms);
			ENSURE(colours > 0 && colours <= limits[m]);
			ENSURE(CheckGreedy(q, 4, count, 0, particles, limits[m], colour, order, &out));
			if (kind < 2) ENSURE(limits[m] == 32 || out.overflowCount > 0); /* 24 tets meet at a vertex */
		}
	}
	free(tets), free(perm), free(shuffled), free(colour), free(order), free(scratch);
}

/* ---------------------------------------------------------------- ranges and refusals */

/* A group's run: indices in [first, first + range) only, with a scratch of exactly range words
   (a guard word behind it stays untouched); the result is that of the same constraints shifted
   to start at 0. Arity 3 with a stride of 5 (two extra words per constraint) on the way. An
   index outside the range, and malformed inputs, are refused with nothing written. */
void Test_GraphColourGroupRange(void)
{
	s_rng = 9;
	const int32_t first = 1000, range = 300, count = 2000, stride = 5;
	int32_t* q = malloc(sizeof(int32_t) * (size_t)count * stride);
	int32_t* shifted = malloc(sizeof(int32_t) * (size_t)count * stride);
	int32_t* tight = malloc(sizeof(int32_t) * (size_t)count * 3);
	for (int32_t c = 0; c < count; ++c) {
		int32_t t[4];
		RandomQuads(t, 1, first, range);
		for (int k = 0; k < 3; ++k) q[stride * c + k] = t[k], shifted[stride * c + k] = t[k] - first, tight[3 * c + k] = t[k];
		q[stride * c + 3] = q[stride * c + 4] = -7; /* not part of the constraint */
		shifted[stride * c + 3] = shifted[stride * c + 4] = 1 << 30;
	}
	uint32_t* scratch = malloc(pbd_GraphColourScratchBytes(range) + sizeof(uint32_t));
	scratch[range] = 0xdeadbeefu;
	uint8_t* colour = malloc((size_t)count), *colour0 = malloc((size_t)count);
	int32_t* order = malloc(sizeof(int32_t) * (size_t)count), *order0 = malloc(sizeof(int32_t) * (size_t)count);
	pbdColouringInput in = pbd_GraphColourInputFlat(q, 3, stride, count);
	in.firstParticle = first, in.particleCount = range;
	pbdColouring out, out0;
	int colours = pbd_GraphColour(&in, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out);
	ENSURE(colours > 0 && scratch[range] == 0xdeadbeefu);
	ENSURE(CheckGreedy(tight, 3, count, first, range, PBD_COLOUR_DEFAULT, colour, order, &out));
	pbdColouringInput in0 = pbd_GraphColourInputFlat(shifted, 3, stride, count);
	in0.particleCount = range;
	ENSURE(pbd_GraphColour(&in0, scratch, pbd_GraphColourScratchBytes(range), colour0, order0, &out0) == colours);
	ENSURE(memcmp(colour, colour0, (size_t)count) == 0 && memcmp(order, order0, sizeof(int32_t) * (size_t)count) == 0);
	ENSURE(memcmp(&out, &out0, sizeof out) == 0);

	/* refusals: nothing written */
	memset(colour, 0xaa, (size_t)count);
	memset(order, 0xaa, sizeof(int32_t) * (size_t)count);
	q[stride * 1234 + 2] = first + range; /* one past the range */
	ENSURE(pbd_GraphColour(&in, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out) == PBD_ERR_INVALID_PARTICLE);
	ENSURE(out.badConstraint == 1234);
	q[stride * 1234 + 2] = first;
	q[stride * 77] = first - 1; /* one before it */
	ENSURE(pbd_GraphColour(&in, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out) == PBD_ERR_INVALID_PARTICLE);
	ENSURE(out.badConstraint == 77);
	q[stride * 77] = first;
	ENSURE(pbd_GraphColour(&in, scratch, pbd_GraphColourScratchBytes(range) - 1, colour, order, &out) == PBD_ERR_INVALID_ARGUMENT);
	pbdColouringInput bad = in;
	bad.arity = PBD_COLOUR_MAX_ARITY + 1;
	ENSURE(pbd_GraphColour(&bad, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out) == PBD_ERR_INVALID_ARGUMENT);
	bad = in, bad.maxColours = PBD_COLOUR_LIMIT + 1;
	ENSURE(pbd_GraphColour(&bad, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out) == PBD_ERR_INVALID_ARGUMENT);
	bad = in, bad.stride = 0;
	ENSURE(pbd_GraphColour(&bad, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out) == PBD_ERR_INVALID_ARGUMENT);
	bad = in, bad.lanes[2] = NULL;
	ENSURE(pbd_GraphColour(&bad, scratch, pbd_GraphColourScratchBytes(range), colour, order, &out) == PBD_ERR_INVALID_ARGUMENT);
	for (int32_t c = 0; c < count; ++c) ENSURE(colour[c] == 0xaa && order[c] == (int32_t)0xaaaaaaaau);
	/* nothing to colour */
	bad = in, bad.count = 0;
	ENSURE(pbd_GraphColour(&bad, NULL, 0, NULL, NULL, &out) == 0 && out.colourCount == 0 && out.overflowCount == 0);
	free(q), free(shifted), free(tight), free(scratch), free(colour), free(colour0), free(order), free(order0);
}
