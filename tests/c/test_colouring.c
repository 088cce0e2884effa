/* Colouring: the invariant the 4-wide solver relies on, checked on the real groups. */
#include "families/distance_state.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static void CheckColours(pbdWorld* w, const pbdGroup* g, int* colours)
{
	const pbdDistance* d = pbd_DistanceState(w);
	*colours = g->colourCount;
	int from = g->first;
	uint8_t* seen = calloc((size_t)w->particleCount, 1);
	for (int k = 0; k < g->colourCount; ++k) {
		memset(seen, 0, (size_t)w->particleCount);
		for (int c = from; c < g->colourEnd[k]; ++c) {
			if (seen[d->ca[c]] || seen[d->cb[c]]) {
				*colours = -1; /* two constraints of one colour share a particle */
				free(seen);
				return;
			}
			seen[d->ca[c]] = seen[d->cb[c]] = 1;
		}
		from = g->colourEnd[k];
	}
	if (from != g->first + g->count) *colours = -2; /* a non-empty overflow set */
	free(seen);
}

void Test_ColouringSharesNoParticle(void)
{
	const int sizes[][2] = { { 2, 2 }, { 3, 7 }, { 40, 40 }, { 101, 13 } };
	for (int s = 0; s < 4; ++s) {
		pbdWorldDef def = pbd_DefaultWorldDef();
		def.maxParticles = 20000;
		def.maxConstraints = 120000;
		pbdWorldId id = TestCreateWorld(&def);
		pbdChainDef chain = pbd_DefaultChainDef();
		pbd_World_AddChain(id, &chain);
		pbdClothDef cloth = pbd_DefaultClothDef();
		cloth.resolutionU = sizes[s][0];
		cloth.resolutionV = sizes[s][1];
		ENSURE(pbd_World_AddCloth(id, &cloth) > 0);
		pbdWorld* w = pbd_GetWorld(id);
		pbdDistance* d = pbd_DistanceState(w);
		int total = 0;
		for (int g = 0; g < d->groupCount; ++g) {
			const pbdGroup* group = &d->groups[g];
			total += group->count;
			if (group->kind == pbdKind_chain) {
				ENSURE(group->colourCount == 0); /* chains stay sequential */
				continue;
			}
			int colours = 0;
			CheckColours(w, group, &colours);
			ENSURE(colours > 0);
			ENSURE(colours <= 4); /* a grid's stretch, shear and bending each need at most 4 */
		}
		ENSURE(total == d->count);
		/* every constraint survived the sort: rest lengths still match positions */
		for (int c = 0; c < d->count; ++c) {
			const float *a = w->x + 4 * d->ca[c], *b = w->x + 4 * d->cb[c];
			float len = sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
			ENSURE_NEAR(len, d->rest[c], 1e-6);
		}
		pbd_DestroyWorld(id);
	}
}

/* The regular batches (pbdGroup.colourRegularEnd) address exactly the constraints they stand
   for, and on a grid they carry nearly all of them. */
void Test_RegularBatchesMatchConstraints(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 20000;
	def.maxConstraints = 120000;
	pbdWorldId id = TestCreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = 100;
	cloth.resolutionV = 57;
	ENSURE(pbd_World_AddCloth(id, &cloth) >= 0);
	pbdWorld* w = pbd_GetWorld(id);
	pbdDistance* d = pbd_DistanceState(w);
	int regular = 0, coloured = 0;
	for (int g = 0; g < d->groupCount; ++g) {
		const pbdGroup* group = &d->groups[g];
		int from = group->first;
		for (int k = 0; k < group->colourCount; ++k) {
			ENSURE(group->colourRegularEnd[k] >= from && group->colourRegularEnd[k] <= group->colourEnd[k]);
			ENSURE((group->colourRegularEnd[k] - from) % 4 == 0);
			int b = group->colourFirstBatch[k];
			for (int c = from; c < group->colourRegularEnd[k]; c += 4, ++b) {
				for (int j = 0; j < 4; ++j) {
					int a = (d->batchA[b] + j * d->batchStride[b]) / 4;
					ENSURE(d->ca[c + j] == a && d->cb[c + j] == a + d->batchOffset[b] / 4);
				}
			}
			regular += group->colourRegularEnd[k] - from;
			coloured += group->colourEnd[k] - from;
			from = group->colourEnd[k];
		}
	}
	printf("  %d of %d coloured constraints in regular batches\n", regular, coloured);
	ENSURE(coloured == d->count);
	ENSURE(regular >= 0.95 * coloured);
	pbd_DestroyWorld(id);
}

static float Unit(uint32_t* seed) { return (float)(TestXorshift32(seed) >> 8) / 16777216.0f; }

/* One pass of the coloured 4-wide solver (regular batches, gathered batches, scalar tails)
   equals the textbook projection of seed 000 (2.2), dp1 = -k w1/(w1+w2) C n,
   dp2 = +k w2/(w1+w2) C n, applied to the same constraints one by one in the same order, on
   a cloth whose masses and pins were all changed after it was built (the shares must follow),
   and with some constraints torn (they must move nothing). */
void Test_ColouredSolveMatchesTextbook(void)
{
	pbdWorldDef def = pbd_DefaultWorldDef();
	def.maxParticles = 2000;
	def.maxConstraints = 12000;
	def.maxTriangles = 4000;
	pbdWorldId id = TestCreateWorld(&def);
	pbdClothDef cloth = pbd_DefaultClothDef();
	cloth.resolutionU = 23; /* odd sizes: irregular batches and 1..3 leftovers in some colours */
	cloth.resolutionV = 17;
	ENSURE(pbd_World_AddCloth(id, &cloth) == 0);
	pbdWorld* w = pbd_GetWorld(id);
	pbdDistance* d = pbd_DistanceState(w);
	const int n = w->particleCount, m = d->count;
	pbd_World_SetParam(id, pbdParam_gravityY, 0.0f);
	pbd_World_SetParam(id, pbdParam_groundEnabled, 0.0f);
	pbd_World_SetParam(id, pbdParam_iterations, 1.0f);
	pbd_World_SetParam(id, pbdParam_substeps, 1.0f);
	pbd_World_SetParam(id, pbdParam_tethers, 0.0f);
	pbd_World_SetParam(id, pbdParam_stiffnessBend, 0.37f);
	ENSURE(pbd_World_Step(id) == PBD_OK); /* at rest: moves nothing, but computes the shares once */
	uint32_t seed = 12345u;
#define NEXT() Unit(&seed)
	for (int i = 0; i < n; ++i) {
		float r = NEXT();
		if (r < 0.05f) pbd_World_SetInvMass(id, i, 0.0f); /* a pin */
		else pbd_World_SetMass(id, i, 0.1f + 5.0f * NEXT());
		const float* x = w->x + 4 * i;
		float jx = 0.02f * (NEXT() - 0.5f), jy = 0.02f * (NEXT() - 0.5f), jz = 0.02f * (NEXT() - 0.5f);
		pbd_World_SetPosition(id, i, x[0] + jx, x[1] + jy, x[2] + jz);
	}
#undef NEXT
	/* tear every 7th constraint (as tearing.c does: a tombstone, ca == cb) */
	for (int c = 0; c < m; c += 7) {
		d->cb[c] = d->ca[c];
		d->shareA[c] = d->shareB[c] = 0.0f;
	}
	float* ref = malloc((size_t)n * 4 * sizeof(float));
	memcpy(ref, w->x, (size_t)n * 4 * sizeof(float));
	for (int g = 0; g < d->groupCount; ++g) {
		const pbdGroup* group = &d->groups[g];
		float k = pbd_PassStiffness(group->stiffness, 1);
		for (int c = group->first; c < group->first + group->count; ++c) {
			float *p1 = ref + 4 * d->ca[c], *p2 = ref + 4 * d->cb[c];
			float w1 = p1[3], w2 = p2[3];
			if (d->ca[c] == d->cb[c] || w1 + w2 == 0.0f) continue;
			float dv[3] = { p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2] };
			float len = sqrtf(dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]);
			float C = len - d->rest[c];
			for (int a = 0; a < 3; ++a) {
				p1[a] -= k * w1 / (w1 + w2) * C * dv[a] / len;
				p2[a] += k * w2 / (w1 + w2) * C * dv[a] / len;
			}
		}
	}
	ENSURE(pbd_World_Step(id) == PBD_OK);
	float worst = 0.0f, moved = 0.0f;
	for (int i = 0; i < n; ++i) {
		for (int a = 0; a < 3; ++a) {
			float e = fabsf(w->x[4 * i + a] - ref[4 * i + a]);
			worst = e > worst ? e : worst;
		}
		if (ref[4 * i + 3] == 0.0f) ENSURE(memcmp(w->x + 4 * i, ref + 4 * i, 16) == 0); /* pins: bit for bit where they were set */
		float dm = fabsf(w->rest0[4 * i] - w->x[4 * i]);
		moved = dm > moved ? dm : moved;
	}
	printf("  largest difference from the textbook projection %.2g m\n", (double)worst);
	ENSURE(worst < 2e-6f);
	ENSURE(moved > 1e-3f); /* the projection did move particles */
	free(ref);
	pbd_DestroyWorld(id);
}
