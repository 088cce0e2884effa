/* Colouring: the invariant the 4-wide solver relies on, checked on the real groups. */
#include "core.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static void CheckColours(pbdWorld* w, const pbdGroup* g, int* colours)
{
	*colours = g->colourCount;
	int from = g->first;
	uint8_t* seen = calloc((size_t)w->particleCount, 1);
	for (int k = 0; k < g->colourCount; ++k) {
		memset(seen, 0, (size_t)w->particleCount);
		for (int c = from; c < g->colourEnd[k]; ++c) {
			if (seen[w->ca[c]] || seen[w->cb[c]]) {
				*colours = -1; /* two constraints of one colour share a particle */
				free(seen);
				return;
			}
			seen[w->ca[c]] = seen[w->cb[c]] = 1;
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
		pbdWorldId id = pbd_CreateWorld(&def);
		pbdChainDef chain = pbd_DefaultChainDef();
		pbd_World_AddChain(id, &chain);
		pbdClothDef cloth = pbd_DefaultClothDef();
		cloth.resolutionU = sizes[s][0];
		cloth.resolutionV = sizes[s][1];
		ENSURE(pbd_World_AddCloth(id, &cloth) > 0);
		pbdWorld* w = pbd_GetWorld(id);
		int total = 0;
		for (int g = 0; g < w->groupCount; ++g) {
			const pbdGroup* group = &w->groups[g];
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
		ENSURE(total == w->constraintCount);
		/* every constraint survived the sort: rest lengths still match positions */
		for (int c = 0; c < w->constraintCount; ++c) {
			const float *a = w->x + 4 * w->ca[c], *b = w->x + 4 * w->cb[c];
			float d = sqrtf((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
			ENSURE_NEAR(d, w->rest[c], 1e-6);
		}
		pbd_DestroyWorld(id);
	}
}
